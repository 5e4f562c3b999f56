/* batch.h - batches of profiled launches whose counters are decoded together
 * (GPUPROF_BATCH; docs/architecture.md, Batches).  A batch must be closed
 * before any kernel gpuprof does not count may run in its context. */
#ifndef GP_BATCH_H
#define GP_BATCH_H

#include <cuda.h>

#include "preload/core_state.h"

/* Closes cs's open batch: stops the profiler, decodes every range, and
 * finishes the launches waiting for them.  The caller holds the exclusive
 * launch lock (or the process is single-threaded at exit) with the guard
 * raised, and no other lock. */
void gp_batch_close(gp_context *cs);
/* The same, its time added to the profiler's (summary.profiler_s): for a
 * caller outside a profiled launch, whose time is counted as a whole
 * (gp_batch_close itself adds nothing, so that no time is counted twice). */
void gp_batch_close_timed(gp_context *cs);
/* Closes ctx's batch before a kernel gpuprof does not count runs there
 * (takes the exclusive lock; one atomic load when no batch is open). */
void gp_batch_close_for(CUcontext ctx);
/* Closes every context's batch (before a graph launch, and at exit). */
void gp_batch_close_all(void);

#endif
