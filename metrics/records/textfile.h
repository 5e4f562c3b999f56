/* textfile.h - the one way the tools read an input file: whole (a peaks
 * file, a suite, a result) or line by line (JSON-lines records).
 *
 * The bounded readers (gp_textfile_read_max, gp_textfile_open) take a size
 * limit and, line by line, a line-length limit, so that no input can make a
 * tool's memory grow without bound; and they read only what can be read to
 * its end: a regular file, a pipe or FIFO (opened without waiting for a
 * writer: a FIFO nobody writes reads as empty instead of blocking), or, line
 * by line, standard input ("-").  A directory, a character or block device
 * (/dev/zero, a terminal named by path) or a socket is refused with one
 * sentence.  A regular file over the limit is refused before anything is
 * read; a pipe is read up to the limit and then refused.
 *
 * gp_textfile_read is the older whole-file reader without limits (kept for
 * its callers); it refuses only directories. */
#ifndef GP_TEXTFILE_H
#define GP_TEXTFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A file read line by line (gp_textfile_open / gp_textfile_stream). */
typedef struct {
    FILE *f;
    int own;                /* f was opened here: gp_textfile_close closes it */
    char *buf;              /* read-ahead; the current line is NUL-terminated in it */
    size_t cap;             /* bytes of buf */
    size_t start;           /* first byte not yet returned */
    size_t end;             /* end of the bytes read */
    size_t max_line;        /* longest line returned, newline excluded */
    uint64_t max_size, got; /* the size limit and the bytes read so far */
    long lineno;            /* of the line last returned or skipped */
    int eof, skipping;      /* skipping: inside a line over max_line */
    char name[320];         /* the path as messages show it (escaped) */
} gp_textfile;

/* Opens path ("-": standard input) for gp_textfile_line.  Returns 0, or -1
 * with one sentence in err: "cannot open PATH: reason" or "cannot read
 * PATH: it is a directory" (a device, a socket; a regular file larger than
 * max_size).  what, when not NULL, goes before PATH ("peaks file "). */
int gp_textfile_open(gp_textfile *t, const char *path, const char *what, uint64_t max_size,
                     size_t max_line, char *err, size_t errlen);
/* The same for a stream the caller opened and closes (standard input, a
 * memory stream); name is what messages call it. */
void gp_textfile_stream(gp_textfile *t, FILE *f, const char *name, uint64_t max_size,
                        size_t max_line);

/* The next line (without its newline, NUL-terminated, valid until the next
 * call) into *line and *len; t->lineno is its number.  Returns
 *   1  a line;
 *   0  the end of the file;
 *  -1  a read error or more than max_size bytes: a sentence in err, and the
 *      file is not read further;
 *  -2  a line longer than max_line: a sentence in err; the line is skipped
 *      (read and dropped, never held whole) and the next call goes on. */
int gp_textfile_line(gp_textfile *t, char **line, size_t *len, char *err, size_t errlen);
void gp_textfile_close(gp_textfile *t);

/* Reads a whole file of at most max_size bytes (NUL-terminated; *len
 * excludes the NUL), with the rules above ("-" is a file name here).  NULL with one sentence in err,
 * "cannot read WHAT PATH: reason" (a file over the limit: "it is larger
 * than N bytes"). */
char *gp_textfile_read_max(const char *path, const char *what, uint64_t max_size, size_t *len,
                           char *err, size_t errlen);

/* Reads a whole file with no size limit (NUL-terminated; *len excludes the
 * NUL).  NULL with the reason alone in err on failure ("it is a directory",
 * the errno text). */
char *gp_textfile_read(const char *path, size_t *len, char *err, size_t errlen);

#endif
