/* contexts.c - see contexts.h.  A context's end is start.c's
 * (gp_core_context_destroying). */
#include "preload/contexts.h"

#include <stdlib.h>
#include <string.h>

#include "preload/device_facts.h"
#include "preload/metric_set.h"
#include "preload/variants.h"
#include "util/clock.h"
#include "util/log.h"

/* the ranges of one batch in replay mode none (see context_setup) */
#define GP_NONE_BATCH_RANGES_MAX 63

static const char *const permission_advice =
    "cannot read GPU performance counters: permission denied (ERR_NVGPUCTRPERM). Run the "
    "program as root, or let all users profile: put 'options nvidia "
    "NVreg_RestrictProfilingToAdminUsers=0' in a file under /etc/modprobe.d/ and reload the "
    "driver (or reboot). Launches are counted, not profiled; the program runs on unchanged";

/* The profiler starts with the first profiled launch: inside cuInit, where
 * the injection entry point runs, it cannot. */
static void profiler_start(void)
{
    if (gp_core.profiler_started || gp_core.counters_off)
        return;
    char err[256];
    gp_core.profiler_started = 1;
    if (gp_collect_start(gp_core.cfg.inject == GP_INJECT_NO_PERMISSION, err, sizeof(err)) != 0) {
        gp_core.counters_off = 1;
        snprintf(gp_core.counters_why, sizeof(gp_core.counters_why), "%s", err);
        gp_error("cannot start the CUPTI profiler (%s); launches are counted, not profiled", err);
    }
}

/* Learns the chip, checks the metric names, then enables collection. */
static void context_setup(gp_context *cs)
{
    int errclass = 0;
    char err[768] = "", chip[64] = "";
    double t[6] = {gp_now_s()}; /* the steps' ends, for the debug line below */
    /* without hardware counters no profiler object is enabled, not even to
     * learn the chip: stall sampling may have the context (sampling.h) */
    int probed = gp_metric_set_needs_counters()
                     ? gp_collect_probe(cs->ctx, cs->device, chip, sizeof(chip), &errclass, err,
                                        sizeof(err))
                     : gp_collect_chip_name(cs->device, chip, sizeof(chip), err, sizeof(err));
    if (probed != 0) {
        cs->unusable = 1;
        snprintf(cs->why, sizeof(cs->why), "%s", err);
        if (errclass == GP_RP_ERR_PERMISSION) {
            gp_core.counters_off = 1;
            snprintf(gp_core.counters_why, sizeof(gp_core.counters_why),
                     "no permission to read counters");
            snprintf(cs->why, sizeof(cs->why), "no permission to read counters");
            gp_log_once(GP_LOG_ERROR, "perm", "%s", permission_advice);
        } else {
            gp_log_once(GP_LOG_ERROR, "ctx-unusable",
                        "device %d: %s; launches are counted, not "
                        "profiled",
                        cs->device, err);
        }
        return;
    }
    t[1] = gp_now_s();
    gp_device_facts_read(cs->device, &cs->facts, chip);
    gp_metric_set_check(chip);
    t[2] = gp_now_s();
    if (gp_core.n_metrics == 0) {
        cs->unusable = 1;
        snprintf(cs->why, sizeof(cs->why), "no valid metric to collect");
        return;
    }
    if (!(cs->col = gp_collect_open(cs->ctx, cs->device, gp_core.cfg.snapshot_incremental,
                                    gp_core.cfg.snapshot_verify))) {
        cs->unusable = 1;
        snprintf(cs->why, sizeof(cs->why), "out of memory");
        return;
    }
    if (gp_core.n_hw) {
        /* a batch holds up to four kernels per launch: SASS pass, GPC cache
         * eviction, L2 flush, launch */
        size_t max_ranges = gp_core.cfg.batch > 1 ? 4 * (size_t)gp_core.cfg.batch : 1;
        int none = gp_core.cfg.replay_mode == GP_REPLAY_NONE;
        /* a rotated launch is three ranges (eviction, L2 flush, launch): a
         * multiple of three, so that no launch finds its batch one short; at
         * most 63: with 16 threads launching on 48 streams, CUPTI could not
         * decode the first batch of 84 or 94 ranges after the SASS pass's
         * turn (CUPTI_ERROR_UNKNOWN), while with the cache flush batches of
         * 63 decoded every time (with GPUPROF_CACHE_CONTROL=l2 even 32 ranges
         * did not: tests/gpu/replay_none.sh's thread stress,
         * docs/measurements.md) */
        if (none) {
            max_ranges = 3 * (gp_core.cfg.batch > 1 ? (size_t)gp_core.cfg.batch : 1);
            if (max_ranges > GP_NONE_BATCH_RANGES_MAX)
                max_ranges = GP_NONE_BATCH_RANGES_MAX;
        }
        int *every = none ? calloc(gp_core.n_metrics ? gp_core.n_metrics : 1, sizeof(int)) : NULL;
        for (size_t i = 0; every && i < gp_core.n_metrics; i++)
            every[i] = gp_metric_set_is_spread(gp_core.metric_names[i]);
        int cr = gp_collect_counters(cs->col, &gp_core.set, max_ranges,
                                     gp_core.cfg.replay_mode == GP_REPLAY_CUPTI, every, &errclass,
                                     err, sizeof(err));
        free(every);
        if (cr != 0) {
            cs->unusable = 1;
            snprintf(cs->why, sizeof(cs->why), "%s", err);
            gp_log_once(GP_LOG_ERROR, "ctx-config",
                        "device %d: %s; launches are counted, not "
                        "profiled",
                        cs->device, err);
            return;
        }
        const char *left_out = gp_collect_left_out(cs->col);
        if (left_out)
            gp_log_once(GP_LOG_WARN, "unschedulable", "GPUPROF_METRICS: %s", left_out);
        cs->batching = gp_core.cfg.batch > 1 && gp_core.cfg.replay_mode != GP_REPLAY_CUPTI &&
                       gp_collect_passes(cs->col) == 1;
    }
    t[3] = gp_now_s();
    if (gp_core.has_sass) {
        cs->sass_ok = gp_collect_sass(cs->col, cs->facts.chip, err, sizeof(err)) == 0;
        if (!cs->sass_ok) {
            snprintf(cs->sass_why, sizeof(cs->sass_why), "SASS pass unavailable: %s", err);
            gp_log_once(GP_LOG_WARN, "sass-setup",
                        "device %d: %s; the SASS metrics are left "
                        "empty",
                        cs->device, cs->sass_why);
        }
    }
    t[4] = gp_now_s();
    if (gp_core.cfg.replay_mode == GP_REPLAY_NONE)
        gp_variants_setup(cs);
    t[5] = gp_now_s();
    gp_debug("device %d set-up: the chip and its counters %.0f ms, the names checked %.0f ms, "
             "the counter configurations %.0f ms, the SASS pass %.0f ms, the variants %.0f ms",
             cs->device, (t[1] - t[0]) * 1e3, (t[2] - t[1]) * 1e3, (t[3] - t[2]) * 1e3,
             (t[4] - t[3]) * 1e3, (t[5] - t[4]) * 1e3);
    size_t configs = gp_collect_configs(cs->col);
    char in_configs[64] = "";
    if (configs > 1)
        snprintf(in_configs, sizeof(in_configs), " in %zu configurations", configs);
    int instrumented = 0; /* Nsight Compute's SASS metrics: one profiler pass of their own */
    for (size_t k = 0; k < gp_core.n_hw; k++)
        instrumented |= gp_collect_is_instrumented(gp_core.metric_names[gp_core.hw_index[k]]);
    gp_info("device %d (%s, %s): %zu metrics, %zu range-profiler passes%s%s%s%s", cs->device,
            cs->facts.name, cs->facts.chip, gp_core.n_metrics, gp_collect_passes(cs->col),
            instrumented ? " (one instrumented by CUPTI)" : "", in_configs,
            cs->sass_ok ? " + 1 SASS pass" : "",
            cs->batching ? "; counters decoded in batches of launches" : "");
}

gp_context *gp_contexts_get(CUcontext ctx)
{
    gp_context *cs;
    HASH_FIND(hh, gp_core.contexts, &ctx, sizeof(ctx), cs);
    if (cs)
        return cs;
    cs = calloc(1, sizeof(*cs));
    if (!cs)
        return NULL;
    cs->ctx = ctx;
    cs->pending_tail = &cs->pending;
    cs->device = gp_collect_current_device();
    gp_uthash_oom = 0;
    HASH_ADD(hh, gp_core.contexts, ctx, sizeof(cs->ctx), cs);
    if (gp_uthash_oom) {
        free(cs);
        return NULL;
    }
    profiler_start();
    if (gp_core.counters_off) {
        cs->unusable = 1;
        snprintf(cs->why, sizeof(cs->why), "%s", gp_core.counters_why);
        return cs;
    }
    double t = gp_now_s(), grouped = gp_collect_grouping_s();
    context_setup(cs);
    gp_core.summary.setup_s += gp_now_s() - t; /* state_lock held */
    gp_core.summary.setup_grouping_s += gp_collect_grouping_s() - grouped;
    return cs;
}
