/* contexts.h - the contexts gpuprof profiles in: set up at the first profiled
 * launch (CUPTI profiler start, chip, device facts, metric check, range
 * profiler, SASS set-up); torn down when CUDA destroys them by
 * gp_core_context_destroying (start.c). */
#ifndef GP_CONTEXTS_H
#define GP_CONTEXTS_H

#include <cuda.h>

#include "preload/core_state.h"

/* The context's state, set up on first use (ctx is current).  NULL when out
 * of memory; cs->unusable (with cs->why) when counters cannot be read there.
 * Caller holds the exclusive launch lock, the guard and state_lock. */
gp_context *gp_contexts_get(CUcontext ctx);

#endif
