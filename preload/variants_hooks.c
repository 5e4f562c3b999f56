/* variants_hooks.c - replay mode none (variants.h) at the moments of a
 * launch (launch_hooks.h): whether a launch is only counted, how a
 * profiled one runs, where its values go, and the records at a context's
 * end and at exit.  On only with GPUPROF_REPLAY=none. */
#include <stdlib.h>

#include "preload/contexts.h"
#include "preload/launch_hooks.h"
#include "preload/variants.h"

static int active(void)
{
    return gp_core.cfg.replay_mode == GP_REPLAY_NONE;
}

/* Below GPUPROF_MAX_OVERHEAD=100, or while a stepped configuration waits
 * for another variant's launch: the launch runs unprofiled and is only
 * counted in its variant's estimate (counted_only; the batch closes, the
 * launch must not run inside it).  Decided before anything is
 * synchronized, so that it costs next to nothing.  A launch during stream
 * capture does not run now: it takes the usual path. */
static void at_profile_begin(gp_hook_args *a)
{
    int capturing = 0;
    if (gp_collect_capturing(a->ev->exec.stream, &capturing) != CUDA_SUCCESS || capturing)
        return;
    pthread_mutex_lock(&gp_core.state_lock);
    /* the profiler's time beyond the contexts' set-up, read before a
     * context is set up here: its set-up counts in profiler_s only at the
     * end of this launch */
    double spent = gp_core.summary.profiler_s - gp_core.summary.setup_s;
    gp_context *cs = gp_contexts_get(a->ev->ctx);
    pthread_mutex_unlock(&gp_core.state_lock);
    if (!cs || cs->unusable || !cs->variants)
        return;
    if (!gp_variants_sample_out(cs, a->k, a->id, &a->ev->exec, a->t0, spent))
        return;
    a->cs = cs;
    a->counted_only = 1;
}

/* The variant's first launch in kernel replay, a later one once in the
 * programmed configuration (rotated; close_batch where the launch cannot
 * join the open batch). */
static void at_plan(gp_hook_args *a)
{
    int close_batch = 0;
    if (a->cs->variants) {
        a->rotated = gp_variants_plan(a->ls, &a->ev->exec, &close_batch) != 0;
        a->close_batch = close_batch != 0;
    }
}

static void at_values(gp_hook_args *a)
{
    a->taken = gp_variants_take(a->ls, a->values, a->why) != 0;
}

static void at_lost(gp_hook_args *a)
{
    gp_variants_lost(a->ls, a->why);
}

static void at_context_end(gp_hook_args *a)
{
    if (a->cs) /* after its batch closed: the variant_estimate records */
        gp_variants_close(a->cs);
}

static void at_exit(gp_hook_args *a)
{
    gp_variants_close_all(); /* after the batches closed */
}

const gp_launch_hooks gp_variants_hooks = {
    .name = "variants",
    .active = active,
    .at =
        {
            [GP_AT_PROFILE_BEGIN] = at_profile_begin,
            [GP_AT_PLAN] = at_plan,
            [GP_AT_VALUES] = at_values,
            [GP_AT_LOST] = at_lost,
            [GP_AT_CONTEXT_END] = at_context_end,
            [GP_AT_EXIT] = at_exit,
        },
};
