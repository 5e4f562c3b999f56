/* summary.c - see summary.h */
#include "preload/summary.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/textio.h"
#include "preload/filter.h"
#include "preload/names.h"
#include "util/gp_uthash.h"
#include "util/kname.h"

struct gp_corr {
    uint64_t id;
    int profiled;
    UT_hash_handle hh;
};

struct gp_kernel_time {
    char *name;
    uint64_t count, total_ns;
    UT_hash_handle hh;
};

void gp_summary_init(gp_summary *s)
{
    memset(s, 0, sizeof(*s));
}

void gp_summary_free(gp_summary *s)
{
    gp_corr *c, *ctmp;
    gp_kernel_time *t, *ttmp;
    for (int i = 0; i < s->n_reasons; i++)
        free(s->reason[i]);
    for (size_t i = 0; i < s->n_unprofiled; i++) {
        free(s->unprofiled[i].kernel);
        free(s->unprofiled[i].reason);
    }
    HASH_ITER(hh, s->corr, c, ctmp)
    {
        HASH_DEL(s->corr, c);
        free(c);
    }
    HASH_ITER(hh, s->times, t, ttmp)
    {
        HASH_DEL(s->times, t);
        free(t->name);
        free(t);
    }
    free(s->invalid_kernel);
    free(s->invalid_reason);
    free(s->xc_ended_why);
    gp_summary_init(s);
}

void gp_summary_skip(gp_summary *s, const char *reason)
{
    for (int i = 0; i < s->n_reasons; i++) {
        if (strcmp(s->reason[i], reason) == 0) {
            s->reason_count[i]++;
            return;
        }
    }
    if (s->n_reasons == GP_SUMMARY_MAX_REASONS)
        reason = "other reasons";
    for (int i = 0; i < s->n_reasons; i++) {
        if (strcmp(s->reason[i], reason) == 0) {
            s->reason_count[i]++;
            return;
        }
    }
    char *copy = strdup(reason);
    if (!copy)
        return;
    if (s->n_reasons == GP_SUMMARY_MAX_REASONS) { /* reuse the last slot */
        free(s->reason[GP_SUMMARY_MAX_REASONS - 1]);
        s->n_reasons--;
    }
    s->reason[s->n_reasons] = copy;
    s->reason_count[s->n_reasons++] = 1;
}

void gp_summary_unprofiled(gp_summary *s, uint64_t launch_id, const char *kernel,
                           const char *reason)
{
    s->unprofiled_total++;
    if (s->n_unprofiled == GP_SUMMARY_MAX_UNPROFILED)
        return;
    gp_unprofiled *u = &s->unprofiled[s->n_unprofiled];
    u->kernel = strdup(kernel ? kernel : "?");
    u->reason = strdup(reason ? reason : "?");
    u->launch_id = launch_id;
    if (u->kernel && u->reason) {
        s->n_unprofiled++;
    } else {
        free(u->kernel);
        free(u->reason);
        u->kernel = u->reason = NULL;
    }
}

void gp_summary_kernel_seen(gp_summary *s, uint64_t correlation, const char *kernel, int profiled)
{
    (void)kernel;
    s->xc_launches++;
    gp_corr *c = calloc(1, sizeof(*c));
    if (!c)
        return;
    c->id = correlation;
    c->profiled = profiled;
    gp_uthash_oom = 0;
    HASH_ADD(hh, s->corr, id, sizeof(c->id), c);
    if (gp_uthash_oom)
        free(c);
}

static void add_time(gp_summary *s, const char *name, uint64_t duration_ns)
{
    const char *key = name ? name : "?";
    gp_kernel_time *t;
    HASH_FIND_STR(s->times, key, t);
    if (!t) {
        t = calloc(1, sizeof(*t));
        if (!t || !(t->name = strdup(key))) {
            free(t);
            return;
        }
        gp_uthash_oom = 0;
        HASH_ADD_KEYPTR(hh, s->times, t->name, strlen(t->name), t);
        if (gp_uthash_oom) {
            free(t->name);
            free(t);
            return;
        }
    }
    t->count++;
    t->total_ns += duration_ns;
}

/* Removes a launch from the seen-but-not-executed set; 1 if it was there. */
static int take_corr(gp_summary *s, uint64_t correlation)
{
    gp_corr *c;
    HASH_FIND(hh, s->corr, &correlation, sizeof(correlation), c);
    if (!c)
        return 0;
    HASH_DEL(s->corr, c);
    free(c);
    return 1;
}

void gp_summary_activity(gp_summary *s, uint64_t correlation, uint64_t duration_ns,
                         const char *name, int in_graph)
{
    s->activity_records++;
    if (in_graph) {
        s->activity_graph++;
        return;
    }
    if (!take_corr(s, correlation))
        return; /* one of the profiler's own launches */
    s->activity_matched++;
    add_time(s, name, duration_ns);
}

void gp_summary_profiled(gp_summary *s, uint64_t correlation, const char *name,
                         double duration_ns, int executed)
{
    if (!executed)
        return;
    if (take_corr(s, correlation)) /* tracked only inside the cross-check's window */
        s->xc_profiled++;
    s->profiled_executed++;
    if (!isnan(duration_ns))
        add_time(s, name, (uint64_t)duration_ns);
}

static uint64_t skipped_total(const gp_summary *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->n_reasons; i++)
        n += s->reason_count[i];
    return n;
}

void gp_summary_crosscheck_end(gp_summary *s, uint64_t correlation, const char *why)
{
    if (s->xc_ended_why)
        return;
    s->xc_ended_why = strdup(why);
    s->xc_ended_at = correlation;
    gp_corr *c, *tmp;
    HASH_ITER(hh, s->corr, c, tmp)
    {
        if (c->id < correlation)
            continue;
        HASH_DEL(s->corr, c);
        s->xc_launches--;
        free(c);
    }
}

void gp_summary_invalid(gp_summary *s, uint64_t launch_id, const char *kernel, const char *reason)
{
    if (s->invalid_from)
        return;
    s->invalid_from = launch_id ? launch_id : 1;
    s->invalid_kernel = strdup(kernel ? kernel : "?");
    s->invalid_reason = strdup(reason ? reason : "?");
}

/* profiler_s less every part the summary names: never below 0 but for
 * rounding (a part counted twice would be a bug: NaN, shown as n/a). */
static double time_other(const gp_summary *s)
{
    double o = s->profiler_s - s->start_s - s->setup_s - s->t_first - s->t_passes -
               s->t_snapshots - s->t_restores - s->t_waiting;
    return o < -1e-3 ? NAN : o > 0 ? o : 0;
}

static void write_time_json(const gp_summary *s, FILE *f)
{
    if (!s->times_known)
        return;
    double other = time_other(s);
    fprintf(f,
            "\"time_ms\":{\"start\":%.3f,\"setup\":%.3f,\"setup_grouping\":%.3f,"
            "\"setup_warmup\":%.3f,\"first_launches\":%.3f,\"passes\":%.3f,\"snapshots\":%.3f,"
            "\"restores\":%.3f,\"waiting\":%.3f,\"other\":",
            s->start_s * 1e3, s->setup_s * 1e3, s->setup_grouping_s * 1e3,
            s->setup_warmup_s * 1e3, s->t_first * 1e3, s->t_passes * 1e3, s->t_snapshots * 1e3,
            s->t_restores * 1e3, s->t_waiting * 1e3);
    if (isnan(other))
        fputs("null", f);
    else
        fprintf(f, "%.3f", other * 1e3);
    fprintf(f, ",\"lock_wait\":%.3f},\"setup_splits\":{\"cached\":%u,\"made\":%u},",
            (double)atomic_load(&s->lock_wait_ns) / 1e6, s->splits_cached, s->splits_made);
}

void gp_summary_write_json(const gp_summary *s, FILE *f, void (*extra)(FILE *f))
{
    fprintf(f,
            "{\"type\":\"summary\",\"schema\":1,\"launches_seen\":%llu,\"launches_profiled\":%llu,"
            "\"launches_estimated\":%llu,\"launches_counted\":%llu,"
            "\"launches_failed\":%llu,\"launches_reduced\":%llu,\"graph_launches\":%llu,"
            "\"passes\":%llu,\"bytes_saved\":%llu,\"bytes_restored\":%llu,\"profiler_ms\":%.3f,\"setup_ms\":%.3f,"
            "\"setup_grouping_ms\":%.3f,\"setup_warmup_ms\":%.3f,"
            "\"replay_launches\":%llu,\"launches_callback\":%llu,\"launches_activity\":%llu,\"launches_profiled_executed\":%llu,"
            "\"crosscheck_launches\":%llu,\"crosscheck_profiled\":%llu,"
            "\"activity_graph_kernels\":%llu,\"launches_not_executed\":%llu,\"memops\":{\"alloc\":%llu,\"free\":%llu,"
            "\"copy\":%llu,\"set\":%llu},\"skipped\":{",
            (unsigned long long)s->launches_seen, (unsigned long long)s->launches_profiled,
            (unsigned long long)s->launches_estimated, (unsigned long long)s->launches_counted,
            (unsigned long long)s->failed, (unsigned long long)s->reduced,
            (unsigned long long)s->graph_launches, (unsigned long long)s->passes,
            (unsigned long long)s->bytes_saved, (unsigned long long)s->bytes_restored,
            s->profiler_s * 1e3, s->setup_s * 1e3, s->setup_grouping_s * 1e3,
            s->setup_warmup_s * 1e3, (unsigned long long)s->internal_launches,
            (unsigned long long)s->launches_seen, (unsigned long long)s->activity_matched,
            (unsigned long long)s->profiled_executed, (unsigned long long)s->xc_launches,
            (unsigned long long)s->xc_profiled, (unsigned long long)s->activity_graph, (unsigned long long)HASH_COUNT(s->corr),
            (unsigned long long)s->memops[0],
            (unsigned long long)s->memops[1], (unsigned long long)s->memops[2],
            (unsigned long long)s->memops[3]);
    for (int i = 0; i < s->n_reasons; i++) {
        if (i)
            fputc(',', f);
        gp_text_json_string(f, s->reason[i]);
        fprintf(f, ":%llu", (unsigned long long)s->reason_count[i]);
    }
    fputs("},\"unprofiled\":[", f);
    for (size_t i = 0; i < s->n_unprofiled; i++) {
        fprintf(f, "%s{\"launch_id\":%llu,\"kernel\":", i ? "," : "",
                (unsigned long long)s->unprofiled[i].launch_id);
        gp_text_json_string(f, s->unprofiled[i].kernel);
        fputs(",\"reason\":", f);
        gp_text_json_string(f, s->unprofiled[i].reason);
        fputc('}', f);
    }
    fputs("],\"kernel_times\":[", f);
    int first = 1;
    for (const gp_kernel_time *t = s->times; t; t = t->hh.next) {
        fprintf(f, "%s{\"kernel\":", first ? "" : ",");
        gp_text_json_string(f, t->name);
        fprintf(f, ",\"launches\":%llu,\"total_ns\":%llu}", (unsigned long long)t->count,
                (unsigned long long)t->total_ns);
        first = 0;
    }
    fputs("],", f);
    write_time_json(s, f);
    if (s->xc_ended_why) {
        fputs("\"crosscheck_ended\":", f);
        gp_text_json_string(f, s->xc_ended_why);
        fputc(',', f);
    }
    fputs("\"results\":{\"valid\":", f);
    if (!s->invalid_from) {
        fputs("true}", f);
    } else {
        fprintf(f, "false,\"from_launch\":%llu,\"kernel\":", (unsigned long long)s->invalid_from);
        gp_text_json_string(f, s->invalid_kernel);
        fputs(",\"reason\":", f);
        gp_text_json_string(f, s->invalid_reason);
        fputc('}', f);
    }
    if (extra)
        extra(f);
    fputs("}\n", f);
}

static int by_time_desc(const void *a, const void *b)
{
    const gp_kernel_time *x = *(gp_kernel_time *const *)a, *y = *(gp_kernel_time *const *)b;
    return x->total_ns < y->total_ns ? 1 : x->total_ns > y->total_ns ? -1 : 0;
}

/* " name 1.234 s" when the part is at least a millisecond, with a comma
 * before all but the first. */
static void part(FILE *f, int *n, const char *name, double sec)
{
    if (sec < 1e-3)
        return;
    fprintf(f, "%s %s %.3f s", (*n)++ ? "," : "", name, sec);
}

/* Where the profiler's time went, one line: the parts of profiler_s. */
static void print_times(const gp_summary *s, FILE *f, int pid)
{
    if (!s->times_known || s->profiler_s < 1e-3)
        return;
    int n = 0;
    fprintf(f, "[gpuprof %d]   where the profiler's time went:", pid);
    part(f, &n, "start-up", s->start_s);
    if (s->setup_s >= 1e-3) {
        part(f, &n, "set-up", s->setup_s);
        if (s->splits_cached || s->splits_made)
            fprintf(f, " (splitting the metric list %.3f s: %u split%s from the set-up cache, %u "
                       "made afresh",
                    s->setup_grouping_s, s->splits_cached, s->splits_cached == 1 ? "" : "s",
                    s->splits_made);
        else if (s->setup_grouping_s >= 1e-3)
            fprintf(f, " (splitting the metric list %.3f s", s->setup_grouping_s);
        if (s->setup_warmup_s >= 1e-3)
            fprintf(f, "%s warm-up and flush kernels %.3f s",
                    s->splits_cached || s->splits_made || s->setup_grouping_s >= 1e-3 ? ";" : " (",
                    s->setup_warmup_s);
        if (s->splits_cached || s->splits_made || s->setup_grouping_s >= 1e-3 ||
            s->setup_warmup_s >= 1e-3)
            fputc(')', f);
    }
    part(f, &n, "first launches in kernel replay", s->t_first);
    part(f, &n, "passes", s->t_passes);
    part(f, &n, "snapshots", s->t_snapshots);
    part(f, &n, "restores", s->t_restores);
    part(f, &n, "waiting for the program's work", s->t_waiting);
    double other = time_other(s);
    if (isnan(other))
        fprintf(f, "%s other n/a (the parts add up to more than the total)", n++ ? "," : "");
    else
        part(f, &n, "other (records, decisions)", other);
    double lock = (double)atomic_load(&s->lock_wait_ns) / 1e9;
    if (lock >= 1e-3)
        fprintf(f, "; and %.3f s waiting for the program's other threads", lock);
    fputc('\n', f);
}

void gp_summary_print(const gp_summary *s, FILE *f, const char *out_base, int json, int csv,
                      long crosscheck)
{
    int pid = (int)getpid();
    if (s->invalid_from) { /* first: a run the profiler broke must not read as a success */
        char kernel[200], reason[400];
        fprintf(f,
                "[gpuprof %d] THE PROGRAM'S RESULTS ARE NOT VALID from launch %llu on (%s): %s\n",
                pid, (unsigned long long)s->invalid_from,
                gp_text_plain_buf(kernel, sizeof(kernel), s->invalid_kernel),
                gp_text_plain_buf(reason, sizeof(reason), s->invalid_reason));
    }
    fprintf(f,
            "[gpuprof %d] %llu kernel launches seen, %llu profiled in %llu passes, %llu not "
            "profiled; the profiler added %.3f s",
            pid, (unsigned long long)s->launches_seen, (unsigned long long)s->launches_profiled,
            (unsigned long long)s->passes,
            (unsigned long long)(s->launches_seen - s->launches_profiled - s->launches_estimated -
                                 s->launches_counted),
            s->profiler_s);
    if (s->setup_s > 0) {
        fprintf(f, ", %.3f s of it setting up", s->setup_s);
        /* the parts worth naming: a long list's grouping, a warm-up round */
        if (s->setup_grouping_s >= 0.1 || s->setup_warmup_s >= 0.1)
            fprintf(f, " (%.3f s splitting the metric list, %.3f s warming up)",
                    s->setup_grouping_s, s->setup_warmup_s);
    }
    if (s->launches_profiled && !s->launches_estimated)
        fprintf(f, " (%.1f ms per profiled launch)", s->profiler_s * 1e3 / s->launches_profiled);
    fputc('\n', f);
    print_times(s, f, pid);
    if (s->launches_estimated)
        fprintf(f,
                "[gpuprof %d]   replay mode none: %llu more launches ran once, each collecting "
                "one configuration, into the estimates of the variant_estimate records\n",
                pid, (unsigned long long)s->launches_estimated);
    if (s->launches_counted)
        fprintf(f,
                "[gpuprof %d]   replay mode none: %llu more launches ran unprofiled, outside the "
                "profiler's share of the run (GPUPROF_MAX_OVERHEAD), counted in their variants' "
                "estimates\n",
                pid, (unsigned long long)s->launches_counted);
    if (skipped_total(s)) {
        fprintf(f, "[gpuprof %d]   not profiled:", pid);
        for (int i = 0; i < s->n_reasons; i++)
            fprintf(f, "%s %llu %s", i ? "," : "", (unsigned long long)s->reason_count[i],
                    s->reason[i]);
        fputc('\n', f);
    }
    if (s->failed)
        fprintf(f, "[gpuprof %d]   %llu launches could not be profiled (reasons in the JSON "
                   "summary and the warnings above)\n", pid, (unsigned long long)s->failed);
    if (s->reduced)
        fprintf(f, "[gpuprof %d]   %llu launches got one pass only (no memory for a snapshot)\n",
                pid, (unsigned long long)s->reduced);
    if (s->bytes_saved || s->snap_bytes_hashed)
        fprintf(f, "[gpuprof %d]   replay snapshots: %.1f MB saved, %.1f MB restored\n", pid,
                s->bytes_saved / 1e6, s->bytes_restored / 1e6);
    if (s->snap_bytes_hashed)
        fprintf(f,
                "[gpuprof %d]   incremental snapshot: %.1f MB hashed in %.1f ms; %llu chunks "
                "saved in %.1f ms, %llu restored in %.1f ms%s\n",
                pid, s->snap_bytes_hashed / 1e6, s->snap_t_hash * 1e3,
                (unsigned long long)s->snap_chunks_saved, s->snap_t_save * 1e3,
                (unsigned long long)s->snap_chunks_restored, s->snap_t_restore * 1e3,
                s->snap_t_verify > 0 ? (s->snap_mismatches ? "; BYTE CHECK FOUND DIFFERENCES"
                                                           : "; byte check: no difference")
                                     : "");
    if (crosscheck) {
        uint64_t not_run = HASH_COUNT(s->corr);
        if (crosscheck > 0 && s->xc_launches >= (uint64_t)crosscheck)
            fprintf(f, "[gpuprof %d]   cross-check of the first %llu launches: ", pid,
                    (unsigned long long)s->xc_launches);
        else
            fprintf(f, "[gpuprof %d]   cross-check: %llu launches seen by callbacks; ", pid,
                    (unsigned long long)s->xc_launches);
        fprintf(f, "%llu executed per activity records, %llu profiled%s",
                (unsigned long long)s->activity_matched, (unsigned long long)s->xc_profiled,
                s->activity_matched + s->xc_profiled + not_run == s->xc_launches ? " (agree)"
                                                                                 : " (DIFFER)");
        if (not_run)
            fprintf(f, "; %llu did not execute (stream capture or a failed launch)",
                    (unsigned long long)not_run);
        if (s->xc_ended_why) {
            char why[200];
            fprintf(f, "; ended early: %s", gp_text_plain_buf(why, sizeof(why), s->xc_ended_why));
        }
        fputc('\n', f);
    }
    size_t n = HASH_COUNT(s->times);
    if (n) {
        gp_kernel_time **v = malloc(n * sizeof(*v));
        if (v) {
            size_t i = 0;
            for (gp_kernel_time *t = s->times; t; t = t->hh.next)
                v[i++] = t;
            if (n > 1)
                qsort(v, n, sizeof(*v), by_time_desc);
            fprintf(f, "[gpuprof %d]   GPU time by kernel (program's own launches):\n", pid);
            for (i = 0; i < n && i < 5; i++) {
                char shown[256], targs[256], both[320], esc[161];
                char *d = gp_demangle(v[i]->name);
                /* the short name, with template arguments to tell instances apart;
                 * escaped: a kernel name must not forge a line on the terminal */
                gp_kname_function(d ? d : v[i]->name, shown, sizeof(shown));
                gp_kname_template_args(d ? d : v[i]->name, targs, sizeof(targs));
                snprintf(both, sizeof(both), "%.100s%.60s", shown, targs);
                gp_text_plain_buf(esc, sizeof(esc), both);
                fprintf(f, "[gpuprof %d]     %10.3f ms %6llu x  %s\n", pid,
                        v[i]->total_ns / 1e6, (unsigned long long)v[i]->count, esc);
                free(d);
            }
            free(v);
        }
    }
    if (out_base && (json || csv))
        fprintf(f, "[gpuprof %d]   results: %s%s%s%s%s\n", pid, json ? out_base : "",
                json ? ".jsonl" : "", json && csv ? ", " : "", csv ? out_base : "",
                csv ? ".csv" : "");
}
