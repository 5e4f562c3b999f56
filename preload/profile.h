/* profile.h - one profiled launch, the same for the program's launches and
 * for a graph's kernel steps: capture check, synchronize, the context and
 * the kernel set up, the passes before the launch (profile_enter), then
 * after it the values and the record or the batch (profile_exit). */
#ifndef GP_PROFILE_H
#define GP_PROFILE_H

#include <cuda.h>
#include <stdint.h>

#include "preload/core_state.h"

/* The caller is inside the exclusive section (serialize.h).  Returns the
 * launch's state, its last pass open around the launch that follows; or NULL
 * when the launch is not profiled (the reason is noted and memory is as it
 * was). */
gp_launch_state *gp_profile_enter(const gp_launch_event *ev, gp_kernel *k, uint64_t id);
/* After the launch (status: what it returned): closes the pass, writes the
 * record or queues the launch on its batch, frees ls unless queued.  Same
 * conditions as gp_profile_enter, with the guard raised. */
void gp_profile_exit(gp_launch_state *ls, const gp_launch_event *ev, CUresult status);
/* Where a snapshot may go (GPUPROF_SNAPSHOT, GPUPROF_SNAPSHOT_RESERVE_MB). */
void gp_profile_snapshot_policy(gp_replay_opts *o);

#endif
