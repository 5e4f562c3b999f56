/* suite.h - the suite file of gpuprof-characterize (docs/characterize.md):
 * one [name] block per program with dir, cmd, env, timeout, compare and
 * ignore keys.  Parsing errors name the file and line. */
#ifndef GPC_SUITE_H
#define GPC_SUITE_H

#include <regex.h>
#include <stddef.h>

#define GPC_DEFAULT_TIMEOUT 600.0 /* s */

typedef struct {
    char *name;
    int line;   /* of the [name] header */
    char *dir;  /* absolute (resolved against the suite file's directory) */
    char *cmd;  /* run through /bin/sh -c */
    char **env; /* "VAR=value", n_env of them */
    size_t n_env;
    double timeout; /* s */
    char **compare; /* output files, relative to dir, without "." components */
    size_t n_compare;
    struct gp_strindex *compare_ix; /* compare names -> their suite line */
    char **ignore;                  /* POSIX ERE sources */
    regex_t *ignore_re;             /* compiled, same order */
    size_t n_ignore;
} gpc_program;

typedef struct {
    char *path;         /* the suite file as given */
    char *base;         /* its directory, absolute */
    gpc_program *progs; /* in file order */
    size_t n, cap;
    struct gp_strindex *by_name; /* positions in progs */
} gpc_suite;

/* Parses text (the file's contents) as the suite file at path; base_dir is
 * the directory relative dirs resolve against.  Returns 0, or -1 with
 * "path:line: what" in err. */
int gpc_suite_parse(gpc_suite *s, const char *path, const char *base_dir, const char *text,
                    char *err, size_t errlen);
/* The same for text[0..text_len), which may hold NUL bytes: a line with one
 * is an error naming it (a C string would end there and cut the line). */
int gpc_suite_parse_n(gpc_suite *s, const char *path, const char *base_dir, const char *text,
                      size_t text_len, char *err, size_t errlen);

/* Reads and parses a suite file.  Returns 0, or -1 with the reason in err. */
int gpc_suite_load(gpc_suite *s, const char *path, char *err, size_t errlen);

void gpc_suite_free(gpc_suite *s);

/* The program named name, NULL when absent. */
const gpc_program *gpc_suite_find(const gpc_suite *s, const char *name);

/* 1 when name may be a program name (it names a directory): letters,
 * digits, '.', '_', '-', not starting with '.' or '-', not "summary". */
int gpc_suite_name_ok(const char *name);

/* Appends a copy of v to the growing string array (*arr)[0..*n) (the suite's
 * lists, the GPU ids).  Returns 0, or -1 when out of memory (*n unchanged). */
int gpc_push(char ***arr, size_t *n, const char *v);

#endif
