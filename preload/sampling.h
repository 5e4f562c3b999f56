/* sampling.h - warp-stall sampling of the program's own launches
 * (GPUPROF_SAMPLING): when it runs in each context, and what it gives the
 * source table.
 *
 * CUPTI does not let PC sampling and the range profiler run in one context
 * at once, and once the range profiler was used in a context a sampling
 * enabled there attributes no sample (replay/pc_sampling.h), so a context
 * samples only where no range profiler will be needed: every launch when the
 * metric set has no hardware counter (@source, or the SASS pass alone), or
 * when no launch is to be profiled (-c 0).  GPUPROF_SAMPLING=profiled
 * samples the program's own runs of the profiled launches alone: sampling
 * stops before a launch that is not profiled (nothing with -c 0).  The
 * profiler's own work (replay passes, snapshots) is never sampled: sampling
 * stops before it and starts again for the program's launch.
 *
 * Locks: the functions that reach CUPTI run in the exclusive section with
 * the guard raised and take state_lock themselves; gp_sampling_note runs
 * under state_lock. */
#ifndef GP_SAMPLING_H
#define GP_SAMPLING_H

#include <cuda.h>
#include <stdio.h>

#include "preload/core_state.h"

/* A launch that is not profiled (state_lock held): counts it when its
 * context is sampling.  1 when the caller is to call gp_sampling_service()
 * in the exclusive section before the launch (sampling to set up, flush or
 * resume). */
int gp_sampling_note(const gp_launch_event *ev, const gp_kernel *k);
/* Sets up, flushes or resumes the context's sampling, then counts the
 * launch (k) as sampled when it is. */
void gp_sampling_service(const gp_launch_event *ev, const gp_kernel *k);

/* A profiled launch begins (exclusive section): sampling stops, and gives
 * the context up to the range profiler when the set has hardware counters.
 * 1 when the program's own launch can be sampled afterwards, so the replay
 * is to run every pass before it (gp_replay_opts.sass_own_pass). */
int gp_sampling_before_profile(CUcontext ctx, int device);
/* The program's own launch of a profiled launch follows, outside every
 * counter pass (exclusive section): sampling starts again and counts it. */
void gp_sampling_program_launch(const gp_launch_event *ev, const gp_kernel *k, int device);

/* After gpuprof ran a graph's steps itself (exclusive section): sampling
 * starts again for the graph's own run. */
void gp_sampling_resume(CUcontext ctx);
/* The context is going away: its samples are read and sampling ends. */
void gp_sampling_context_destroying(CUcontext ctx);
/* At exit: every context's samples are read and sampling ends. */
void gp_sampling_shutdown(void);
/* The summary's "sampling" object (without the key). */
void gp_sampling_write_json(FILE *f);
/* One stderr line for the exit summary, or nothing. */
void gp_sampling_print(FILE *f, int pid);

#endif
