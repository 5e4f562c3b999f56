/* finish.c - see finish.h. */
#define _GNU_SOURCE /* program_invocation_short_name */
#include "preload/finish.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "metrics/records/guard.h"
#include "metrics/report/report_api.h"
#include "preload/metric_set.h"
#include "preload/output.h"
#include "preload/sampling.h"
#include "preload/source.h"
#include "util/log.h"
#include "util/strutil.h"

void gp_finish_unprofiled(uint64_t launch_id, const char *kernel, const char *reason)
{
    pthread_mutex_lock(&gp_core.state_lock);
    gp_summary_unprofiled(&gp_core.summary, launch_id, kernel, reason);
    pthread_mutex_unlock(&gp_core.state_lock);
}

/* base.ext opened (published) as *file: its stream, or NULL after saying why. */
static FILE *open_output(gp_safefile *file, const char *base, const char *ext)
{
    char path[1200], why[1400];
    snprintf(path, sizeof(path), "%s.%s", base, ext);
    if (gp_safefile_open(file, path, why, sizeof(why)) == 0 &&
        gp_safefile_publish(file, why, sizeof(why)) == 0)
        return file->f;
    gp_error("%s (GPUPROF_OUTPUT)", why);
    return NULL;
}

/* Caller holds out_lock. */
static void open_outputs(void)
{
    if (gp_core.outputs_opened)
        return;
    gp_core.outputs_opened = 1;
    char *base = gp_core.out_base;
    /* cannot fail: config.c checked the longest expansion */
    gp_expand_path(gp_core.cfg.output, (long)getpid(), gp_core.host, base,
                   sizeof(gp_core.out_base));
    size_t l = strlen(base);
    if (l > 4 && strcmp(base + l - 4, ".csv") == 0)
        base[l - 4] = '\0';
    else if (l > 6 && strcmp(base + l - 6, ".jsonl") == 0)
        base[l - 6] = '\0';
    if (gp_core.cfg.write_json)
        gp_core.json = open_output(&gp_core.json_file, base, "jsonl");
    if (gp_core.cfg.write_csv)
        gp_core.csv = open_output(&gp_core.csv_file, base, "csv");
}

static void write_record(gp_launch_state *ls, const gp_launch_event *ev, const double *values,
                         const char **missing)
{
    gp_kernel *k = ls->kernel;
    gp_launch_record r;
    memset(&r, 0, sizeof(r));
    r.launch_id = ls->launch_id;
    r.pid = (long)getpid();
    r.host = gp_core.host;
    r.process = program_invocation_short_name;
    r.rank = gp_core.cfg.rank;
    r.device = ls->cs->device;
    r.context = ev->ctx_id;
    r.stream = ls->stream_id;
    r.kernel = k->name->demangled;
    r.mangled = k->name->mangled;
    r.api = ev->api;
    for (int i = 0; i < 3; i++) {
        r.grid[i] = ev->exec.grid[i];
        r.block[i] = ev->exec.block[i];
        r.cluster[i] = ev->cluster[i]            ? ev->cluster[i]
                       : k->attrs.req_cluster[i] ? k->attrs.req_cluster[i]
                                                 : 1;
    }
    r.regs_per_thread = k->attrs.regs;
    r.static_smem = k->attrs.static_smem;
    r.dynamic_smem = ev->exec.smem;
    r.local_bytes_per_thread = k->attrs.local_bytes;
    r.passes = ls->rs.passes;
    r.snapshot = gp_collect_snapshot_where(&ls->rs);
    r.bytes_saved = ls->rs.bytes_saved;
    r.bytes_restored = ls->rs.bytes_restored;
    r.replay_ms = ls->rs.ms;
    r.bytes_hashed = r.chunks_saved = r.chunks_restored = -1;
    r.hash_ms = r.save_ms = r.restore_ms = -1;
    if (ls->have_snap) {
        r.bytes_hashed = (long)ls->snap.bytes_hashed;
        r.chunks_saved = (long)ls->snap.chunks_saved;
        r.chunks_restored = (long)ls->snap.chunks_restored;
        r.hash_ms = ls->snap.t_hash * 1e3;
        r.save_ms = ls->snap.t_save * 1e3;
        r.restore_ms = ls->snap.t_restore * 1e3;
    }
    /* 2: L2 alone (GPUPROF_CACHE_CONTROL=l2), the GPCs' caches left warm */
    r.caches_flushed = !ls->rs.flushed ? 0 : gp_core.cfg.flush_caches == GP_CACHE_L2 ? 2 : 1;
    r.sections = gp_metric_set_sections();
    r.n_metrics = gp_core.n_metrics;
    r.metric_names = gp_core.metric_names;
    r.metric_units = gp_core.metric_units;
    r.values = values;
    r.missing = missing;

    pthread_mutex_lock(&gp_core.out_lock);
    open_outputs();
    int dev = ls->cs->device;
    int written = dev >= 0 && dev < 64 ? (int)(gp_core.devices_written >> dev & 1)
                                       : ls->cs->facts_written;
    if (gp_core.json && !written)
        gp_json_write_device(gp_core.json, &ls->cs->facts);
    ls->cs->facts_written = 1;
    if (dev >= 0 && dev < 64)
        gp_core.devices_written |= 1ull << dev;
    if (gp_core.json) {
        gp_json_write_launch(gp_core.json, &r);
        fflush(gp_core.json);
    }
    if (gp_core.csv) {
        if (!gp_core.csv_header_done)
            gp_csv_write_header(gp_core.csv, &r);
        gp_core.csv_header_done = 1;
        gp_csv_write_launch(gp_core.csv, &r);
        fflush(gp_core.csv);
    }
    pthread_mutex_unlock(&gp_core.out_lock);
    gp_info("profiled %s (launch %llu, device %d): %d pass%s, %.1f ms", k->name->demangled,
            (unsigned long long)r.launch_id, r.device, r.passes, r.passes == 1 ? "" : "es",
            r.replay_ms);
}

void gp_finish_abandon(gp_launch_state *ls, const char *why)
{
    if (gp_core
            .counters_off) { /* one error has said so already: a reason like the later launches' */
        gp_finish_unprofiled(ls->launch_id, ls->kernel->name->demangled, gp_core.counters_why);
        pthread_mutex_lock(&gp_core.state_lock);
        gp_summary_skip(&gp_core.summary, gp_core.counters_why);
        pthread_mutex_unlock(&gp_core.state_lock);
        return;
    }
    gp_log_once(GP_LOG_WARN, ls->kernel->name->mangled, "kernel %s (launch %llu) not profiled: %s",
                ls->kernel->name->demangled, (unsigned long long)ls->launch_id, why);
    gp_finish_unprofiled(ls->launch_id, ls->kernel->name->demangled, why);
    pthread_mutex_lock(&gp_core.state_lock);
    gp_core.summary.failed++;
    pthread_mutex_unlock(&gp_core.state_lock);
}

/* Why values[i] (NaN) is missing. */
static const char *missing_why(const gp_launch_state *ls, size_t i, const char *hw_why)
{
    int sass = gp_collect_is_sass(gp_core.metric_names[i]);
    if (gp_collect_withheld(gp_core.metric_names[i]))
        return "withheld: Nsight Compute's efficiency divides the distinct bytes a warp touches, "
               "which gpuprof's SASS pass cannot count (it sees no addresses); "
               "GPUPROF_SASS_EFFICIENCY=cupti collects it in CUPTI's instrumented pass";
    if (ls->rs.snapshot_failed)
        return "not collected: no memory for a replay snapshot, one pass only";
    if (sass && ls->rs.sass_dropped)
        return "not collected: SASS metrics need GPUPROF_REPLAY=profiler";
    if (sass && !ls->cs->sass_ok)
        return ls->cs->sass_why;
    if (sass && ls->sass_code_missing && gp_collect_needs_code(gp_core.metric_names[i]))
        return "counted by opcode, and the kernel's machine code is not readable here "
               "(its module holds no plain sm_90 code: the driver finalizes it at load)";
    if (sass)
        return "the kernel executed no instruction of this kind";
    if (gp_collect_unschedulable(ls->cs->col, &gp_core.set, i))
        return "not collected: CUPTI cannot schedule this metric on this device";
    return hw_why ? hw_why : "CUPTI returned no value for this launch";
}

/* Nsight Compute's memory efficiencies are bytes used over bytes served and
 * cannot exceed 100; its definition gives more for generic loads and stores
 * (their bytes are counted in the global, shared and local classes at once,
 * their sectors or wavefronts only where the access went), and such a value
 * is withheld, with this reason, rather than reported as an efficiency. */
static const char *over_100 =
    "withheld: above 100%, which no efficiency can be (Nsight Compute's definition counts a "
    "generic access's bytes in every memory class and its wavefronts or sectors only where "
    "it went)";

static int is_bounded_efficiency(const char *name)
{
    size_t l = strlen(name);
    return strstr(name, "__sass_average_data_bytes_per_") && l > 4 &&
           strcmp(name + l - 4, ".pct") == 0;
}

static void guard_why(void *ctx, size_t i, const char *reason)
{
    ((const char **)ctx)[i] = reason;
}

void gp_finish_launch(gp_launch_state *ls, double *values, const char *hw_why)
{
    size_t nv = gp_core.n_metrics + 1;
    const char **missing = calloc(nv, sizeof(char *));
    if (!missing) {
        gp_finish_abandon(ls, "out of memory");
        return;
    }
    for (size_t i = 0; i < gp_core.n_metrics; i++) {
        if (!isnan(values[i]) && values[i] > 100.0 + 1e-9 &&
            is_bounded_efficiency(gp_core.metric_names[i])) {
            values[i] = NAN;
            missing[i] = over_100;
        } else if (isnan(values[i])) {
            missing[i] = missing_why(ls, i, hw_why);
        }
    }
    /* an efficiency over no accesses is CUPTI's 0: n/a with its reason */
    gp_guard_apply(gp_core.metric_names, values, gp_core.n_metrics, guard_why, missing);
    /* ... and so is a shared efficiency of a launch with no shared memory,
     * where the list lacks the wavefront count that would say so */
    if (ls->kernel->attrs.static_smem == 0 && ls->ev.exec.smem == 0)
        gp_guard_unallocated_shared(gp_core.metric_names, values, gp_core.n_metrics, guard_why,
                                    missing);
    write_record(ls, &ls->ev, values, missing);
    free(missing);
    pthread_mutex_lock(&gp_core.state_lock);
    gp_core.summary.launches_profiled++;
    gp_core.summary.passes += (uint64_t)ls->rs.passes;
    gp_core.summary.bytes_saved += ls->rs.bytes_saved;
    gp_core.summary.bytes_restored += ls->rs.bytes_restored;
    if (ls->rs.snapshot_failed)
        gp_core.summary.reduced++;
    pthread_mutex_unlock(&gp_core.state_lock);
}

FILE *gp_finish_json_begin(void)
{
    pthread_mutex_lock(&gp_core.out_lock);
    open_outputs();
    return gp_core.json;
}

void gp_finish_json_end(void)
{
    if (gp_core.json)
        fflush(gp_core.json);
    pthread_mutex_unlock(&gp_core.out_lock);
}

/* The summary record's members beyond gp_summary's own. */
static void summary_extra(FILE *f)
{
    fputs(",\"sampling\":", f);
    gp_sampling_write_json(f);
}

void gp_finish_close(void)
{
    /* count, print and close; the process is exiting */
    pthread_mutex_lock(&gp_core.out_lock);
    gp_core.summary.profiler_s += gp_core.init_s;
    /* where the time went: the collection side's parts */
    gp_collect_times t = gp_collect_times_so_far();
    gp_core.summary.start_s = gp_core.init_s;
    gp_core.summary.t_first = t.first_launches;
    gp_core.summary.t_passes = t.passes;
    gp_core.summary.t_snapshots = t.snapshots;
    gp_core.summary.t_restores = t.restores;
    gp_core.summary.t_waiting = t.waiting;
    gp_collect_setup_cache_counts(&gp_core.summary.splits_cached, &gp_core.summary.splits_made);
    gp_core.summary.times_known = 1;
    char why[1400];
    pthread_mutex_lock(&gp_core.state_lock);
    int have_source = gp_src_n_functions(gp_core.src) > 0;
    int broke = gp_core.summary.invalid_from != 0;
    pthread_mutex_unlock(&gp_core.state_lock);
    if (have_source) { /* instruction-level data, also of a run that profiled no launch */
        open_outputs();
        gp_source_write(gp_core.json);
    }
    /* a run whose results the profiler broke says so in its file even when
     * no launch got a record (the first one faulted): a tool reading the
     * files must not take an absent file for a run that went well */
    if (broke)
        open_outputs();
    if (gp_core.json) {
        gp_summary_write_json(&gp_core.summary, gp_core.json, summary_extra);
        if (gp_safefile_commit(&gp_core.json_file, why, sizeof(why)) != 0)
            gp_error("%s (GPUPROF_OUTPUT)", why);
        gp_core.json = NULL;
    }
    if (gp_core.csv) {
        if (gp_safefile_commit(&gp_core.csv_file, why, sizeof(why)) != 0)
            gp_error("%s (GPUPROF_OUTPUT)", why);
        gp_core.csv = NULL;
    }
    if (gp_core.cfg.summary && gp_core.summary.launches_seen > 0) {
        gp_summary_print(&gp_core.summary, stderr, gp_core.outputs_opened ? gp_core.out_base : NULL,
                         gp_core.cfg.write_json, gp_core.cfg.write_csv, gp_core.cfg.crosscheck);
        gp_sampling_print(stderr, (int)getpid());
        if (gp_core.summary.launches_profiled && gp_core.cfg.write_json) {
            char path[1200];
            snprintf(path, sizeof(path), "%s.jsonl", gp_core.out_base);
            fprintf(stderr,
                    "[gpuprof %d] top kernels and their bottlenecks "
                    "(gpuprof-report %s for the full report):\n",
                    (int)getpid(), path);
            if (gp_report_summarize_jsonl(path, stderr, 5) != 0)
                fprintf(stderr, "[gpuprof %d]   (no summary: %s could not be read back)\n",
                        (int)getpid(), path);
        }
    }
    pthread_mutex_unlock(&gp_core.out_lock);
}
