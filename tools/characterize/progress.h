/* progress.h - what `run` and `merge` tell the terminal: one line per
 * finished program, a loud block for a program the profiler changed or
 * broke, the first error line of a native failure, and messages.  Every
 * string that comes from a program, a suite or a result file is shown
 * escaped (gp_text_plain): it cannot move the cursor or forge lines. */
#ifndef GPC_PROGRESS_H
#define GPC_PROGRESS_H

#include <stddef.h>

/* One message line on stderr: fmt's text escaped, then a newline. */
__attribute__((format(printf, 1, 2))) void gpc_progress_say(const char *fmt, ...);

/* Prints the line of the finished program name (its result in prog_dir):
 * "[done/total] name: status, times; elapsed, about ... left", where the
 * estimate is elapsed / ran * (to_run - ran); kept: a result of an earlier
 * run.  Returns 0 ok, 3 the profiler changed or broke the program, 4
 * another status, 1 no readable result. */
int gpc_progress_done(const char *prog_dir, const char *name, size_t done, size_t total,
                      double elapsed, size_t ran, size_t to_run, int kept);

#endif
