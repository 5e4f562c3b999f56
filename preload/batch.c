/* batch.c - see batch.h.
 *
 * When CUPTI recorded another number of ranges than gpuprof counted, the
 * ranges cannot be matched to launches; when it cannot decode a batch at all,
 * nothing is recorded: either way the batch's hardware values are left out
 * and the context goes back to one launch at a time. */
#include "preload/batch.h"

#include <stdio.h>
#include <stdlib.h>

#include "preload/finish.h"
#include "preload/metric_set.h"
#include "preload/serialize.h"
#include "preload/variants.h"
#include "util/log.h"

void gp_batch_close(gp_context *cs)
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
        if (!gp_variants_take(ls, ls->values, hw_why))
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

void gp_batch_close_timed(gp_context *cs)
{
    double t0 = gp_now_s();
    gp_batch_close(cs);
    pthread_mutex_lock(&gp_core.state_lock);
    gp_core.summary.profiler_s += gp_now_s() - t0;
    pthread_mutex_unlock(&gp_core.state_lock);
}

/* Nested calls, which already hold the shared lock, cannot take the
 * exclusive one, and leave it to the count check. */
void gp_batch_close_for(CUcontext ctx)
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
        gp_batch_close_timed(cs);
        gp_t_in_profiler--;
    }
    pthread_rwlock_unlock(&gp_core.launch_lock);
}

/* Waits at most 10 s for the exclusive lock: at exit another thread may
 * still be inside a CUDA call; its batch's records are then lost, which is
 * said. */
void gp_batch_close_all(void)
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
    HASH_ITER(hh, gp_core.contexts, cs, tmp) gp_batch_close_timed(cs);
    gp_t_in_profiler--;
    gp_serialize_at_exit_end();
}
