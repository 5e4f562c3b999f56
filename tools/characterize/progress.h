/* progress.h - what `run` and `merge` tell the terminal: one line per
 * finished program, a loud block for a program the profiler changed or
 * broke, the first error line of a native failure, and messages.  Every
 * string that comes from a program, a suite or a result file is shown
 * escaped (gp_text_plain): it cannot move the cursor or forge lines. */
#ifndef GPC_PROGRESS_H
#define GPC_PROGRESS_H

#include <stddef.h>

#include "suite.h"

/* One message line on stderr: fmt's text escaped, then a newline. */
__attribute__((format(printf, 1, 2))) void gpc_progress_say(const char *fmt, ...);

/* Prints the line of the finished program name (its result in prog_dir):
 * "[done/total] name: status, times; elapsed, about ... left", where the
 * estimate is elapsed / ran * (to_run - ran); kept: a result of an earlier
 * run.  Returns 0 ok, 3 the profiler changed or broke the program, 4
 * another status, 1 no readable result. */
int gpc_progress_done(const char *prog_dir, const char *name, size_t done, size_t total,
                      double elapsed, size_t ran, size_t to_run, int kept);

/* What a run has finished so far, for the progress lines and the exit
 * status (the local runs and the Slurm jobs count the same way). */
typedef struct {
    char **dirs;                 /* each program's result folder */
    const gpc_suite *suite;
    size_t done, total, ran, n_todo;
    double t0;                   /* when the run began (CLOCK_MONOTONIC, s) */
    int defect, not_ok, failed;  /* gpc_progress_done's 3, 4 and 1 seen */
} gpc_tally;

/* Program prog has a result: its progress line, counted in t (void *, a
 * gpc_slurm_done_fn). */
void gpc_tally_done(void *t, size_t prog);

#endif
