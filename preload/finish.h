/* finish.h - the end of a launch: its record in the output files (opened at
 * the first record), or the reason it has none in the summary; and, at
 * exit, the summary and the files closed. */
#ifndef GP_FINISH_H
#define GP_FINISH_H

#include <stdint.h>
#include <stdio.h>

#include "preload/core_state.h"

/* A launch gpuprof did not profile, with the reason (the JSON unprofiled
 * list).  Takes state_lock. */
void gp_finish_unprofiled(uint64_t launch_id, const char *kernel, const char *reason);
/* A profiled launch given up: one warning per kernel, the reason, counted as
 * failed (or as the process-wide reason when counters are off). */
void gp_finish_abandon(gp_launch_state *ls, const char *why);
/* A profiled launch whose values are all known (at its exit, or when its
 * batch is closed): the record with every NaN's reason, the summary.
 * hw_why: why the hardware metrics are missing, NULL when collected. */
void gp_finish_launch(gp_launch_state *ls, double *values, const char *hw_why);
/* Records of other kinds (variants.c): takes out_lock and returns the JSON
 * stream (opened on first use), NULL when none is written; then end. */
FILE *gp_finish_json_begin(void);
void gp_finish_json_end(void);
/* At exit: the JSON summary record, the files committed, the stderr summary
 * with the top kernels. */
void gp_finish_close(void);

#endif
