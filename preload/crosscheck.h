/* crosscheck.h - the cross-check (GPUPROF_CROSSCHECK): the launches seen by
 * the callbacks, counted against CUPTI's kernel activity records (the
 * second count, summary.h), over a window of the first launches.  Its
 * launch hooks are gp_crosscheck_hooks (launch_hooks.h); the boundary's
 * calls are core.h's gp_core_crosscheck*() and gp_core_activity_kernels(). */
#ifndef GP_CROSSCHECK_H
#define GP_CROSSCHECK_H

#include <stdint.h>

/* Ends the window at the launch of that correlation id, why (the launch and
 * later ones leave the counts) and stops CUPTI's kernel records for good;
 * nothing when it ended already.  In the exclusive section (the records are
 * paused there).  Takes state_lock. */
void gp_crosscheck_end(uint64_t correlation, const char *why);

#endif
