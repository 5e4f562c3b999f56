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
 * At a launch, sampling is reached through gp_sampling_hooks
 * (launch_hooks.h): noted under state_lock at an unprofiled launch (seen),
 * set up, flushed, resumed or stopped before it (unprofiled), stopped before
 * a profiled launch's passes (before_passes) and started again for the
 * program's own launch (program_launch), resumed for a graph's own run
 * (graph_run), ended with its context (context_end) and at exit.
 *
 * Locks: the hooks that reach CUPTI run in the exclusive section with the
 * guard raised and take state_lock themselves; `seen` runs under
 * state_lock. */
#ifndef GP_SAMPLING_H
#define GP_SAMPLING_H

#include <stdio.h>

/* The summary's "sampling" object (without the key). */
void gp_sampling_write_json(FILE *f);
/* One stderr line for the exit summary, or nothing. */
void gp_sampling_print(FILE *f, int pid);

#endif
