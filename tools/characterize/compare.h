/* compare.h - the comparison of a program's native and profiled runs: the
 * outputs it wrote, taken out of its directory and read back only as
 * regular files of bounded size, in bounded time (a FIFO would block the
 * reader forever, a link to /dev/zero would fill the memory), and compared
 * line by line with the suite's ignore rules. */
#ifndef GPC_COMPARE_H
#define GPC_COMPARE_H

#include <signal.h>
#include <stddef.h>

#include "result.h"
#include "suite.h"

/* The largest output (stdout or a compare file) that is compared: each is
 * held in memory, the native and the profiled one at a time. */
#define GPC_COMPARE_MAX_MIB 256
#define GPC_COMPARE_MAX ((long long)GPC_COMPARE_MAX_MIB << 20)

/* What the comparison functions return besides 0 (same) and 1 (differs or,
 * for gpc_compare_read, not comparable: the gpc_out says why). */
#define GPC_CMP_NOMEM (-1)
#define GPC_CMP_STOPPED (-2) /* *stop was set (SIGINT/SIGTERM) */
#define GPC_CMP_LATE (-3)    /* past the deadline */

/* When reading and comparing must give up: at deadline (CLOCK_MONOTONIC
 * seconds, as gpc_compare_now; 0: never) or once *stop is set (NULL: never). */
typedef struct {
    double deadline;
    const volatile sig_atomic_t *stop;
} gpc_bound;

/* What a run left under an output's name. */
typedef enum {
    GPC_OUT_FILE,        /* a regular file within GPC_COMPARE_MAX */
    GPC_OUT_ABSENT,      /* nothing: not written */
    GPC_OUT_NOT_REGULAR, /* a directory, link, FIFO, device or socket */
    GPC_OUT_TOO_BIG,     /* a regular file over GPC_COMPARE_MAX */
    GPC_OUT_UNREADABLE   /* an error other than those */
} gpc_out_kind;

typedef struct {
    gpc_out_kind kind;
    long long size;   /* GPC_OUT_FILE, GPC_OUT_TOO_BIG: bytes */
    const char *what; /* GPC_OUT_NOT_REGULAR: "a FIFO"...; GPC_OUT_UNREADABLE: strerror */
} gpc_out;

/* The monotonic clock, in seconds. */
double gpc_compare_now(void);

/* One sentence fragment for o: "a FIFO, not a regular file", "300000000
 * bytes, over the 256 MiB limit of a compared output"...; into buf. */
const char *gpc_out_describe(const gpc_out *o, char *buf, size_t len);

/* Whether p's i-th compare file is there before a run: 0 when absent (the
 * command may create it), else 1 with why ("exists", "is reached through
 * the symbolic link d") in buf. */
int gpc_compare_present(const gpc_program *p, size_t i, char *buf, size_t len);

/* Takes what the last run left under p's i-th compare name out of p->dir
 * into prog_dir as which.N.BASENAME (N = i + 1), where it can be looked at:
 * the program's directory is left as before the study, and the next run
 * must write the file again.  Walks the name without following a symbolic
 * link, never opens anything but a regular file, and leaves a directory in
 * place.  o says what it was.  Returns 0, or -1 when out of memory. */
int gpc_compare_collect(const gpc_program *p, size_t i, const char *prog_dir, const char *which,
                        gpc_out *o);

/* Reads path (in a result folder) whole when it is a regular file of at most
 * GPC_COMPARE_MAX bytes, opened without following a link or blocking;
 * *text gets it NUL-terminated (*len bytes).  Returns 0, 1 (not read: o says
 * why), or GPC_CMP_NOMEM / _STOPPED / _LATE (b may be NULL). */
int gpc_compare_read(const char *path, const gpc_bound *b, char **text, size_t *len, gpc_out *o);

/* Compares two outputs line by line, leaving out the lines that match one
 * of p's ignore expressions (p may be NULL).  Returns 0 when equal, 1 when
 * they differ (the first difference added to r under what), or
 * GPC_CMP_NOMEM / _STOPPED / _LATE (b may be NULL). */
int gpc_compare_text(const gpc_program *p, const char *what, const char *native, size_t nlen,
                     const char *profiled, size_t plen, const gpc_bound *b, gpc_result *r);

#endif
