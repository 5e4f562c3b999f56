/* profile.c - see profile.h. */
#include "preload/profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "preload/contexts.h"
#include "preload/finish.h"
#include "preload/kernels.h"
#include "preload/launch_hooks.h"
#include "preload/metric_set.h"
#include "util/log.h"

void gp_profile_snapshot_policy(gp_replay_opts *o)
{
    const gp_config *cfg = &gp_core.cfg;
    o->allow_device = cfg->snapshot_where == GP_SNAP_AUTO || cfg->snapshot_where == GP_SNAP_DEVICE;
    o->allow_host = cfg->snapshot_where == GP_SNAP_AUTO || cfg->snapshot_where == GP_SNAP_HOST;
    o->reserve_bytes = (uint64_t)cfg->reserve_mb << 20;
}

static void add_profiler_time(double t0)
{
    pthread_mutex_lock(&gp_core.state_lock);
    gp_core.summary.profiler_s += gp_now_s() - t0;
    pthread_mutex_unlock(&gp_core.state_lock);
}

/* Capture check and synchronize: NULL when the launch can be profiled, else
 * why not (*captured: not a failure, the kernel does not execute now). */
static const char *launch_ready(const gp_launch_event *ev, int *captured, char *buf, size_t len)
{
    int capturing = 0;
    CUresult cr = gp_collect_capturing(ev->exec.stream, &capturing);
    if (cr != CUDA_SUCCESS) {
        /* after a fault the context is gone and every call fails: that is
         * a failure to report as such, not a capture */
        snprintf(buf, len, "the stream cannot be queried (%s)", gp_collect_strerror(cr));
        return buf;
    }
    if (capturing) {
        *captured = 1;
        return "launched during stream capture (it runs, and is profiled, when its graph does)";
    }
    CUresult sr = gp_collect_wait_program();
    if (sr != CUDA_SUCCESS) {
        snprintf(buf, len, "the context cannot be synchronized (%s)", gp_collect_strerror(sr));
        return buf;
    }
    return NULL;
}

/* After a launch that could not be profiled: when the context is gone (a
 * pass faulted, or an earlier kernel), the program's results are not valid
 * from this launch on. */
static void context_check(uint64_t id, const char *kernel, const char *why)
{
    CUresult r = gp_collect_sync();
    if (r == CUDA_SUCCESS)
        return;
    char reason[700];
    snprintf(reason, sizeof(reason),
             "%s; the context is unusable from here on (%s): every later kernel of the program "
             "fails",
             why ? why : "profiling failed", gp_collect_strerror(r));
    pthread_mutex_lock(&gp_core.state_lock);
    gp_summary_invalid(&gp_core.summary, id, kernel, reason);
    pthread_mutex_unlock(&gp_core.state_lock);
}

/* The launch's options and the batch it may join (the plan); then the
 * passes. */
static const char *launch_begin(gp_launch_state *ls, gp_hook_args *a, char *buf, size_t len)
{
    gp_context *cs = ls->cs;
    const gp_launch_event *ev = a->ev;
    ls->opts.flush_caches = gp_core.cfg.flush_caches;
    ls->opts.l2_bytes = (uint64_t)cs->facts.l2_bytes;
    gp_profile_snapshot_policy(&ls->opts);
    snprintf(ls->range_name, sizeof(ls->range_name), "launch%llu",
             (unsigned long long)ls->launch_id);
    ls->opts.range_name = ls->range_name;
    ls->opts.cupti_replay = gp_core.cfg.replay_mode == GP_REPLAY_CUPTI;
    ls->opts.want_sass = gp_core.has_sass && cs->sass_ok;
    ls->opts.batch = cs->batching;
    ls->opts.warmup = gp_core.cfg.warmup;
    ls->opts.sass_own_pass = ls->sample_program;
    /* replay mode none: the variant's first launch in kernel replay, a later
     * one once in the programmed configuration; the batch closed where the
     * launch cannot join it */
    gp_hooks_run(GP_AT_PLAN, a);
    int was_open = gp_collect_batch_is_open(cs->col);
    int er = gp_collect_begin(cs->col, gp_core.allocs, &ev->exec, &ls->opts, &ls->rs);
    if (!was_open && gp_collect_batch_is_open(cs->col))
        atomic_fetch_add(&gp_core.open_batches, 1);
    if (er != 0) {
        snprintf(buf, len, "%s", ls->rs.why);
        return buf;
    }
    return NULL;
}

gp_launch_state *gp_profile_enter(const gp_launch_event *ev, gp_kernel *k, uint64_t id)
{
    double t0 = gp_now_s();
    gp_hook_args a = {.ev = ev, .k = k, .id = id, .ctx = ev->ctx, .t0 = t0};
    /* replay mode none: the launch may run unprofiled, only counted in its
     * variant's estimate (decided before anything is allocated or
     * synchronized; its context's open batch is closed) */
    gp_hooks_run(GP_AT_PROFILE_BEGIN, &a);
    if (a.counted_only) {
        pthread_mutex_lock(&gp_core.state_lock);
        gp_core.summary.launches_counted++;
        gp_core.summary.profiler_s += gp_now_s() - t0;
        pthread_mutex_unlock(&gp_core.state_lock);
        return NULL;
    }
    gp_launch_state *ls = calloc(1, sizeof(*ls));
    int captured = 0;
    const char *why = NULL;
    char whybuf[700];
    if (!ls) {
        why = "out of memory";
        goto not_profiled;
    }
    ls->kernel = k;
    ls->launch_id = id;
    a.ls = ls;
    if ((why = launch_ready(ev, &captured, whybuf, sizeof(whybuf))))
        goto not_profiled;
    /* stall sampling stops for the profiler's own work (and gives the
     * context up when the range profiler needs it) */
    gp_hooks_run(GP_AT_BEFORE_PASSES, &a);
    ls->sample_program = a.sample_program;
    pthread_mutex_lock(&gp_core.state_lock);
    ls->cs = gp_contexts_get(ev->ctx);
    pthread_mutex_unlock(&gp_core.state_lock);
    if (!ls->cs || ls->cs->unusable) {
        snprintf(whybuf, sizeof(whybuf), "counters unavailable: %s",
                 ls->cs ? ls->cs->why : "out of memory");
        why = whybuf;
        goto not_profiled;
    }
    a.cs = ls->cs;
    gp_kernels_attrs(k);
    pthread_mutex_lock(&gp_core.state_lock);
    gp_kernels_resolve_globals(k->attrs.module, ev->ctx);
    pthread_mutex_unlock(&gp_core.state_lock);
    if ((why = launch_begin(ls, &a, whybuf, sizeof(whybuf))))
        goto not_profiled;
    if (ls->rs.snapshot_failed)
        gp_log_once(GP_LOG_WARN, "snapshot", "%s (first seen at launch %llu of %s)", ls->rs.why,
                    (unsigned long long)id, k->name->demangled);
    if (ls->rs.unpatched && !ev->graph_step) /* the program's launch runs alone: sampled */
        gp_hooks_run(GP_AT_PROGRAM_LAUNCH, &a);
    add_profiler_time(t0);
    return ls;

not_profiled:
    if (!captured) /* a synchronize would break the capture */
        context_check(id, k->name->demangled, why);
    a.cs = ls ? ls->cs : NULL;
    if (ls && ls->cs) {
        gp_collect_release(ls->cs->col);
        gp_hooks_run(GP_AT_UNPROFILED, &a); /* the program's launch is not counted in its batch */
    }
    if (ls && ls->sample_program && !captured && !ev->graph_step) /* it runs unprofiled */
        gp_hooks_run(GP_AT_PROGRAM_LAUNCH, &a);
    if (captured) { /* not a failure: the kernel does not execute now */
        gp_finish_unprofiled(id, k->name->demangled, why);
        pthread_mutex_lock(&gp_core.state_lock);
        gp_summary_skip(&gp_core.summary, "stream capture");
        pthread_mutex_unlock(&gp_core.state_lock);
    } else if (ls && ls->kernel) {
        a.why = why;
        gp_hooks_run(GP_AT_LOST, &a);
        gp_finish_abandon(ls, why);
    } else {
        gp_finish_unprofiled(id, k->name->demangled, why);
    }
    free(ls);
    add_profiler_time(t0);
    return NULL;
}

void gp_profile_exit(gp_launch_state *ls, const gp_launch_event *ev, CUresult status)
{
    double t0 = gp_now_s();
    gp_context *cs = ls->cs;
    ls->ev = *ev;
    ls->ev.exec.params = NULL;
    ls->ev.exec.extra = NULL;
    ls->ev.exec.config = NULL;
    ls->stream_id =
        gp_core.boundary.stream_id
            ? gp_core.boundary.stream_id(ev->ctx, ev->exec.stream, ev->per_thread_stream)
            : 0;
    size_t nv = gp_core.n_metrics + 1; /* the last slot stays NaN (gp_metric_set_index) */
    double *values = malloc(nv * sizeof(double));
    int ok = gp_collect_end(cs->col, &ev->exec, status, &gp_core.set, ls->kernel->name->mangled,
                            &ls->opts, &ls->rs, values, &ls->sass_code_missing) == 0;
    /* a rotated launch (replay mode none) took no snapshot: the stats are
     * still those of an earlier launch */
    const gp_snapshot_stats *ss = ls->opts.rotate ? NULL : gp_collect_snapshot_stats(cs->col);
    if (ss && ss->incremental && ss->bytes_hashed) { /* the record says it */
        ls->snap = *ss;
        ls->have_snap = 1;
    }
    /* one-time costs of this launch count as set-up: the context's warm-up
     * round (which holds the first flush's loads), else those loads */
    double once = ls->rs.warmup_passes ? ls->rs.t_warmup : ls->rs.t_once;
    if (once > 0) {
        pthread_mutex_lock(&gp_core.state_lock);
        gp_core.summary.setup_s += once;
        gp_core.summary.setup_warmup_s += once;
        pthread_mutex_unlock(&gp_core.state_lock);
    }
    /* the hardware values may come when the batch closes (pending); else
     * they go to the launch's variant or into its record */
    gp_hook_args a = {.ev = ev, .k = ls->kernel, .id = ls->launch_id, .ctx = ev->ctx,
                      .cs = cs, .ls = ls, .values = values, .ok = ok};
    gp_hooks_run(GP_AT_PROFILE_END, &a);
    int pending = a.pending;
    if (pending) {
        values = NULL; /* the batch's now */
    } else if (ok) {
        gp_hooks_run(GP_AT_VALUES, &a);
        if (!a.taken)
            gp_finish_launch(ls, values, NULL);
    } else {
        a.why = ls->rs.why[0] ? ls->rs.why : "out of memory";
        gp_hooks_run(GP_AT_LOST, &a);
        gp_finish_abandon(ls, ls->rs.why[0] ? ls->rs.why : "out of memory");
        context_check(ls->launch_id, ls->kernel->name->demangled, ls->rs.why);
    }
    if (ss && ss->incremental && ss->bytes_hashed) {
        pthread_mutex_lock(&gp_core.state_lock);
        gp_core.summary.snap_bytes_hashed += ss->bytes_hashed;
        gp_core.summary.snap_chunks_saved += ss->chunks_saved;
        gp_core.summary.snap_chunks_restored += ss->chunks_restored;
        gp_core.summary.snap_mismatches += ss->verify_mismatches;
        gp_core.summary.snap_t_hash += ss->t_hash;
        gp_core.summary.snap_t_save += ss->t_save;
        gp_core.summary.snap_t_restore += ss->t_restore;
        gp_core.summary.snap_t_verify += ss->t_verify;
        pthread_mutex_unlock(&gp_core.state_lock);
        gp_debug("launch %llu snapshot: %llu ranges (%llu new), %.1f MB tracked, %.1f MB hashed "
                 "in %.1f ms, %llu chunks saved (%llu zero) in %.1f ms, %llu restored, %llu "
                 "cleared in %.1f ms over %u restores, store %.1f MB device + %.1f MB host",
                 (unsigned long long)ls->launch_id, (unsigned long long)ss->ranges,
                 (unsigned long long)ss->ranges_new, ss->bytes_tracked / 1e6,
                 ss->bytes_hashed / 1e6, ss->t_hash * 1e3, (unsigned long long)ss->chunks_saved,
                 (unsigned long long)ss->chunks_zero_tagged, ss->t_save * 1e3,
                 (unsigned long long)ss->chunks_restored, (unsigned long long)ss->chunks_zeroed,
                 ss->t_restore * 1e3, ss->restores, ss->store_device_bytes / 1e6,
                 ss->store_host_bytes / 1e6);
    }
    /* the store stays for the next launch; a full copy goes back to the program */
    double tfree = gp_now_s();
    gp_collect_release(cs->col);
    if (ls->rs.warmup_passes)
        gp_debug("launch %llu: warm-up round of %d passes first (the context's first multi-pass "
                 "launch; GPUPROF_WARMUP), %.1f ms",
                 (unsigned long long)ls->launch_id, ls->rs.warmup_passes, ls->rs.t_warmup * 1e3);
    gp_debug("launch %llu %s: %.1f ms in all: snapshot %.1f, SASS pass %.1f, profiler set-up %.1f, "
             "first passes %.1f, L2 flush %.1f, start %.1f, decode %.1f, snapshot free %.1f; "
             "CUPTI: range starts %.1f, stops %.1f, SASS enable %.1f, SASS kernel %.1f, "
             "SASS collect %.1f",
             (unsigned long long)ls->launch_id, ls->kernel->name->demangled, ls->rs.ms,
             ls->rs.t_snapshot * 1e3, ls->rs.t_sass * 1e3, ls->rs.t_begin * 1e3,
             ls->rs.t_passes * 1e3, ls->rs.t_flush * 1e3, ls->rs.t_start * 1e3,
             ls->rs.t_finish * 1e3, (gp_now_s() - tfree) * 1e3, ls->rs.t_rp_start * 1e3,
             ls->rs.t_rp_stop * 1e3, ls->rs.t_sass_enable * 1e3, ls->rs.t_sass_run * 1e3,
             ls->rs.t_sass_collect * 1e3);
    if (!pending && !ls->graph_node) {
        pthread_mutex_lock(&gp_core.state_lock);
        /* no activity record exists for this launch: account for it here */
        gp_summary_profiled(&gp_core.summary, ev->correlation, ls->kernel->name->mangled,
                            ok ? values[gp_metric_set_index("gpu__time_duration.sum")] : NAN,
                            status == CUDA_SUCCESS);
        pthread_mutex_unlock(&gp_core.state_lock);
    }
    free(values);
    add_profiler_time(t0);
    if (!pending)
        free(ls);
}
