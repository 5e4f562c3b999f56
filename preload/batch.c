/* batch.c - batches of profiled launches whose counters are decoded together
 * (GPUPROF_BATCH; docs/architecture.md, Batches).  A batch must be closed
 * before any kernel gpuprof does not count runs in its context.  Its face
 * is gp_batch_hooks (launch_hooks.h): it closes the batch before such a
 * kernel, for the variants' plan or a launch only counted, at a context's
 * end and at exit, and queues a batched launch at its exit.
 *
 * When CUPTI recorded another number of ranges than gpuprof counted, the
 * ranges cannot be matched to launches; when it cannot decode a batch at all,
 * nothing is recorded: either way the batch's hardware values are left out
 * and the context goes back to one launch at a time. */
#include <stdio.h>
#include <stdlib.h>

#include "preload/finish.h"
#include "preload/launch_hooks.h"
#include "preload/metric_set.h"
#include "preload/serialize.h"
#include "util/log.h"

/* Closes cs's open batch: stops the profiler, decodes every range, and
 * finishes the launches waiting for them.  The caller holds the exclusive
 * launch lock (or the process is single-threaded at exit) with the guard
 * raised, and no other lock. */
__attribute__((noinline)) static void batch_close(gp_context *cs)
{
    if (!gp_collect_batch_is_open(cs->col))
        return;
    double t0 = gp_now_s();
    char err[256] = "", why[400] = "";
    size_t expected = 0, recorded = 0;
    int rc = gp_collect_flush(cs->col, &expected, &recorded, err, sizeof(err));
    atomic_fetch_sub(&gp_core.open_batches, 1);
    if (rc != 0) {
        /* CUPTI could not decode the batch (seen with many threads launching
         * on many streams in replay mode none): later batches hold one launch,
         * which such a program's runs decoded every time */
        snprintf(why, sizeof(why), "counters lost: %s", err);
        if (!cs->batch_single && cs->n_pending > 1) {
            cs->batching = 0;
            cs->batch_single = 1;
            gp_log_once(GP_LOG_WARN, "batch-decode",
                        "device %d: %s; profiling one launch at a time from now on", cs->device,
                        why);
        }
    } else if (recorded != expected) {
        snprintf(why, sizeof(why),
                 "counters lost: CUPTI recorded %zu ranges in a batch where "
                 "gpuprof counted %zu kernels",
                 recorded, expected);
        cs->batching = 0;
        gp_log_once(GP_LOG_WARN, "batch-mismatch",
                    "device %d: %s; profiling one launch at a "
                    "time from now on",
                    cs->device, why);
    }
    if (why[0] && cs->n_pending)
        gp_log_once(GP_LOG_WARN, "batch-lost",
                    "device %d: %s (%zu launches of the open batch; with GPUPROF_BATCH=1 each "
                    "launch's counters are complete before the next kernel runs)",
                    cs->device, why, cs->n_pending);
    size_t n = 0;
    gp_launch_state *ls, *next;
    for (ls = cs->pending; ls; ls = next, n++) {
        next = ls->next;
        const char *hw_why = why[0] ? why : NULL;
        if (!hw_why &&
            gp_collect_batch_values(cs->col, &gp_core.set, ls->rs.batch_range, ls->values) != 0)
            hw_why = "counters lost: the range could not be evaluated";
        if (gp_log_enabled(GP_LOG_DEBUG)) {
            const char *rn = gp_collect_range_name(cs->col, ls->rs.batch_range);
            gp_debug("batch: launch %llu %s is range %zu (%s)", (unsigned long long)ls->launch_id,
                     ls->kernel->name->demangled, ls->rs.batch_range, rn ? rn : "?");
        }
        gp_hook_args a = {.ev = &ls->ev, .k = ls->kernel, .id = ls->launch_id, .ctx = cs->ctx,
                          .cs = cs, .ls = ls, .values = ls->values, .why = hw_why};
        gp_hooks_run(GP_AT_VALUES, &a); /* replay mode none: to the launch's variant */
        if (!a.taken)
            gp_finish_launch(ls, ls->values, hw_why);
        if (!ls->graph_node) {
            pthread_mutex_lock(&gp_core.state_lock);
            gp_summary_profiled(&gp_core.summary, ls->ev.correlation, ls->kernel->name->mangled,
                                ls->values[gp_metric_set_index("gpu__time_duration.sum")], 1);
            pthread_mutex_unlock(&gp_core.state_lock);
        }
        free(ls->values);
        free(ls);
    }
    cs->pending = NULL;
    cs->pending_tail = &cs->pending;
    cs->n_pending = 0;
    gp_debug("batch closed: %zu launches, %zu ranges counted, %zu recorded, %.1f ms (stop, "
             "decode, records)",
             n, expected, recorded, (gp_now_s() - t0) * 1e3);
}

/* The same, its time added to the profiler's (summary.profiler_s): for the
 * closes outside a profiled launch (an unprofiled kernel's, a context's
 * end, the exit).  batch_close itself adds nothing: inside a profiled
 * launch (the variants' plan, a launch only counted, a graph's steps) its
 * time is in the launch's, and was counted twice. */
static void batch_close_timed(gp_context *cs)
{
    double t0 = gp_now_s();
    batch_close(cs);
    pthread_mutex_lock(&gp_core.state_lock);
    gp_core.summary.profiler_s += gp_now_s() - t0;
    pthread_mutex_unlock(&gp_core.state_lock);
}

/* Closes ctx's batch before a kernel gpuprof does not count runs there
 * (takes the exclusive lock).  Out of line: at_unprofiled's test of
 * open_batches is then the whole cost of an excluded launch here.
 * Nested calls, which already hold the shared lock, cannot take the
 * exclusive one, and leave it to the count check. */
__attribute__((noinline)) static void batch_close_for(CUcontext ctx)
{
    if (atomic_load_explicit(&gp_core.open_batches, memory_order_relaxed) == 0 ||
        gp_t_api_depth > 0)
        return;
    pthread_rwlock_wrlock(&gp_core.launch_lock);
    pthread_mutex_lock(&gp_core.state_lock);
    gp_context *cs = NULL;
    if (ctx)
        HASH_FIND(hh, gp_core.contexts, &ctx, sizeof(ctx), cs);
    pthread_mutex_unlock(&gp_core.state_lock);
    if (cs) {
        gp_t_in_profiler++;
        batch_close_timed(cs);
        gp_t_in_profiler--;
    }
    pthread_rwlock_unlock(&gp_core.launch_lock);
}

/* Closes every context's batch (before a graph launch, and at exit).
 * Waits at most 10 s for the exclusive lock: at exit another thread may
 * still be inside a CUDA call; its batch's records are then lost, which is
 * said. */
__attribute__((noinline)) static void batch_close_all(void)
{
    if (atomic_load(&gp_core.open_batches) == 0 || gp_t_api_depth > 0)
        return;
    if (gp_serialize_at_exit_begin(10) != 0) {
        gp_warn("the profiled launches of an open batch get no hardware counters: another thread "
                "kept CUDA busy for 10 s");
        return;
    }
    gp_context *cs, *tmp;
    gp_t_in_profiler++;
    HASH_ITER(hh, gp_core.contexts, cs, tmp) batch_close_timed(cs);
    gp_t_in_profiler--;
    gp_serialize_at_exit_end();
}

/* ---- the launch hooks ------------------------------------------------------ */

/* Kernels gpuprof does not count run next: none may run inside a batch. */
static void at_unprofiled(gp_hook_args *a)
{
    if (a->cs)
        batch_close(a->cs);
    else if (a->every_context)
        batch_close_all();
    else if (atomic_load_explicit(&gp_core.open_batches, memory_order_relaxed) != 0)
        batch_close_for(a->ctx); /* else nothing to close: an excluded launch's path */
}

/* The launch runs unprofiled, only counted (the variants' decision). */
static void at_profile_begin(gp_hook_args *a)
{
    if (a->counted_only)
        batch_close(a->cs);
}

/* Before the passes: closed when the variants' plan says so, or when the
 * launch does not join the programmed configuration's batch and the batch
 * has no room for its kernels (SASS pass, eviction, flush, launch).
 * A batch spans different kernels: in a framework's step nearly every
 * launch is a kernel not seen before, and closing at each would pay the
 * profiler's start and stop per launch.  The price: a kernel that
 * faults takes the context, and with it the open batch's hardware
 * counters (at most GPUPROF_BATCH launches, whose records say so; the
 * program cannot go on in that context either).  GPUPROF_BATCH=1 keeps
 * every record up to a fault complete. */
static void at_plan(gp_hook_args *a)
{
    gp_context *cs = a->cs;
    if (a->close_batch)
        batch_close(cs);
    if (!a->rotated && gp_collect_batch_is_open(cs->col) &&
        (!cs->batching || gp_collect_batch_room(cs->col) < 4))
        batch_close(cs);
}

/* A batched launch waits on its context's open batch with its SASS-derived
 * values; its hardware values come when the batch closes. */
static void at_profile_end(gp_hook_args *a)
{
    gp_launch_state *ls = a->ls;
    if (!a->ok || !ls->rs.batched)
        return;
    ls->values = a->values;
    ls->next = NULL;
    *ls->cs->pending_tail = ls;
    ls->cs->pending_tail = &ls->next;
    ls->cs->n_pending++;
    a->pending = 1;
}

static void at_context_end(gp_hook_args *a)
{
    if (a->cs) /* waiting launches get their counters */
        batch_close_timed(a->cs);
}

static void at_exit(gp_hook_args *a)
{
    batch_close_all(); /* launches still waiting for their counters */
}

const gp_launch_hooks gp_batch_hooks = {
    .name = "batch",
    .at =
        {
            [GP_AT_UNPROFILED] = at_unprofiled,
            [GP_AT_PROFILE_BEGIN] = at_profile_begin,
            [GP_AT_PLAN] = at_plan,
            [GP_AT_PROFILE_END] = at_profile_end,
            [GP_AT_CONTEXT_END] = at_context_end,
            [GP_AT_EXIT] = at_exit,
        },
};
