/* safefile.h - output files created so that nobody else can redirect them.
 *
 * A file is written under a temporary name in its own directory, created
 * with O_EXCL | O_NOFOLLOW (something planted under that name makes the
 * creation fail instead of being followed) and mode 0644 (less where the
 * umask says so), then renamed over the final name: rename replaces a
 * symbolic link planted at the final name instead of writing through it, and
 * a reader never sees half a file.  A symbolic link at the final name is
 * followed only when it belongs to the user or to root (/dev/stdout); one
 * that another user planted is refused.  A pipe, socket or character device
 * (a terminal, /dev/null) is written where it is.  Used by the library, the
 * report and characterize for every file they write. */
#ifndef GP_SAFEFILE_H
#define GP_SAFEFILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    FILE *f;    /* write here */
    char *path; /* the final name */
    char *tmp;  /* the temporary name, until commit or discard; NULL when
                 * written in place (a pipe or a device) */
} gp_safefile;

/* Creates the temporary file for path.  Returns 0, or -1 with a sentence
 * naming path in err (sf is then empty). */
int gp_safefile_open(gp_safefile *sf, const char *path, char *err, size_t errlen);

/* The same for a file in a folder that others can write to (the folders
 * of gpuprof-characterize, where the programs it runs write too): whatever
 * is at path (a symbolic link, whoever owns it, root included; a pipe, a
 * socket, a device) is never opened or followed, only replaced by the
 * rename at commit; a directory there is refused. */
int gp_safefile_create(gp_safefile *sf, const char *path, char *err, size_t errlen);

/* Closes the file and renames it to its final name.  Returns 0, or -1 with
 * the reason in err (a write or rename failure; the temporary file is
 * removed).  sf is empty afterwards either way. */
int gp_safefile_commit(gp_safefile *sf, char *err, size_t errlen);

/* Renames the file to its final name now and keeps it open: for a file
 * written record by record, which must be found under its name after a
 * crash (the library's outputs).  Returns 0, or -1 with the reason in err
 * (sf is then empty). */
int gp_safefile_publish(gp_safefile *sf, char *err, size_t errlen);

/* Closes and removes the temporary file; sf is empty afterwards. */
void gp_safefile_discard(gp_safefile *sf);

/* Opens path for appending (a log several processes share), creating it
 * with mode 0644, without following a symbolic link at its last component,
 * and only when it is a regular file.  NULL with the reason in err. */
FILE *gp_safefile_append(const char *path, char *err, size_t errlen);

/* Creates directory path (mode 0755) unless it exists; an existing path
 * must be a directory itself, not a symbolic link to one.  Returns 0, or -1
 * with the reason in err. */
int gp_safedir(const char *path, char *err, size_t errlen);

#endif
