/* launch.h - the program's kernel launches: the one decision whether a launch
 * is profiled (shared with a graph's kernel steps), and the entry and exit
 * of each launch (core.h). */
#ifndef GP_LAUNCH_H
#define GP_LAUNCH_H

#include <stdint.h>

#include "preload/core_state.h"

/* The next launch id (ids count every launch seen, from 1). */
uint64_t gp_launch_next_id(void);
/* Why no launch may be profiled now, whatever its kernel (profiling
 * disabled, a launch nested in another CUDA call); NULL when one may. */
const char *gp_launch_blocked(void);
/* Is this launch of kernel k profiled, and if not why: GP_PROFILE, a
 * filter's GP_SKIP_* (capture: gp_ranges_decide's), or -1 with *reason.
 * Counts the skip reason in the summary.  Caller holds state_lock. */
int gp_launch_decide(gp_kernel *k, int capture, const char **reason);

#endif
