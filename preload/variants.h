/* variants.h - replay mode none (GPUPROF_REPLAY=none): nothing is replayed
 * but a kernel variant's first launch.
 *
 * A variant is (function, grid, block, dynamic shared memory) in a context.
 * Its first launch is profiled as in kernel replay, every pass (exact; its
 * record is written as today).  Below GPUPROF_MAX_OVERHEAD=100, later
 * launches are profiled in slices spread over the run and the others only
 * counted (gp_variants_sample_out).  Each later profiled launch runs once, unsaved and
 * unrestored, inside the configuration the context has programmed: one of
 * the one-pass range-profiler configurations the metric list is split into
 * (each carrying the spread counters), or the SASS pass.  The programmed
 * configuration changes after GPUPROF_ROTATE_LAUNCHES profiled launches of
 * the context (metrics/model/estimate.h gp_rotation), so that over a long run
 * each variant's launches collect every configuration, interleaved.  The
 * values of those launches go into the variant's sums; at context teardown
 * and at exit one `variant_estimate` record per variant gives the estimated
 * totals, their bounds and what each configuration covered.
 *
 * Everything here runs in the exclusive section (launch_lock held as
 * writer): the tables belong to the context's collection state.  On the
 * launch path these are called from gp_variants_hooks (variants_hooks.c,
 * launch_hooks.h); gp_variants_setup from the context's set-up. */
#ifndef GP_VARIANTS_H
#define GP_VARIANTS_H

#include "preload/core_state.h"

/* At a context's set-up in replay mode none: the layout of the metric list
 * over the configurations and the rotation.  Without any configuration that
 * can rotate, says why once and leaves cs->variants NULL (every launch is
 * then profiled in kernel replay). */
void gp_variants_setup(gp_context *cs);
/* Replay mode none with GPUPROF_MAX_OVERHEAD below 100, before launch id of
 * kernel (launch e) is set up, nothing synchronized yet: 1 when it runs
 * unprofiled, outside the profiler's share of the run (metrics/model/estimate.h
 * gp_duty), and is only counted in its variant's estimate (the caller closes
 * an open batch: the launch must not run inside it); 0 when it is profiled
 * (gp_variants_plan says how).  A variant's first launch is always
 * profiled.  now: wall time; spent: the profiler's time so far (seconds). */
int gp_variants_sample_out(gp_context *cs, gp_kernel *kernel, uint64_t launch_id,
                           const gp_launch_exec *e, double now, double spent);
/* Decides how launch ls (options set, not yet begun; e: the launch) runs: 1
 * when it is rotated (ls->opts.rotate set), 0 when it is profiled as in
 * kernel replay (its variant's first launch, or a variant beyond
 * GPUPROF_VARIANTS_MAX).  *close_batch: the caller is to close the
 * context's open batch first (it holds another configuration, is full, or
 * the launch needs the profiler for itself). */
int gp_variants_plan(gp_launch_state *ls, const gp_launch_exec *e, int *close_batch);
/* A launch's values are known (hw_why: why its hardware values are missing,
 * NULL when collected): 1 when they went to its variant and no record is to
 * be written; 0 when the caller writes its record (an exact launch, whose
 * values are added too). */
int gp_variants_take(gp_launch_state *ls, const double *values, const char *hw_why);
/* A launch of a variant given up (no values), why.  A configuration whose
 * launches keep failing and never gave a value is left out of the rotation
 * (named in a warning). */
void gp_variants_lost(gp_launch_state *ls, const char *why);
/* Writes the context's variant_estimate records and frees its tables
 * (context teardown; the caller closed its batch). */
void gp_variants_close(gp_context *cs);
/* At exit, after the batches were closed: every context's records. */
void gp_variants_close_all(void);

#endif
