/* collect.c - the collection interface (collect.h): wraps the replay passes,
 * the range profiler, the SASS pass and its derivation, the snapshot and
 * the driver table, so that the policy sees one set of verbs. */
#include "replay/collect.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/cupti_host.h"
#include "replay/host_group.h"
#include "replay/host_split.h"
#include "replay/driver.h"
#include "replay/setup_cache.h"
#include "replay/range_profiler.h"
#include "replay/sass_metrics.h"
#include "replay/snapshot.h"
#include "replay/worker.h"
#include "util/clock.h"

struct gp_collect_ctx {
    gp_replay_ctx replay;
    int device;
    int sass_ok;       /* the SASS configuration is set on the device */
    gp_range *ranges;  /* the profiled launch's, borrowed by replay.snap */
    gp_snapshot graph; /* memory around a graph's steps */
    gp_range *graph_ranges;
    char rotate_why[256]; /* replay mode none: why no one-pass configuration was made */
};

/* ---- process ------------------------------------------------------------- */

int gp_collect_load_driver(char *err, size_t errlen)
{
    return gp_driver_load(err, errlen);
}

int gp_collect_start(int no_permission, char *err, size_t errlen)
{
    gp_rp_inject_no_permission(no_permission);
    return gp_rp_global_init(err, errlen);
}

int gp_collect_own_thread(void)
{
    return gp_worker_self;
}

const char *gp_collect_strerror(CUresult r)
{
    return gp_driver_strerror(r);
}

/* ---- metric names -------------------------------------------------------- */

/* Instrumented metrics come from one of two passes.  The names CUPTI's range
 * profiler defines (all of Nsight Compute's smsp__sass_* metrics, e.g. the
 * distinct data bytes behind its efficiencies) are collected by the range
 * profiler itself, in an instrumented pass of its own, so their values are
 * Nsight Compute's by construction.  The SASS pass (the SASS Metrics API,
 * per instruction) gives what the profiler has no name for: gpuprof's own
 * gpuprof__sass_* metrics (requested bytes, constant moves) and the API's
 * ideal and per-class thread counts. */
int gp_collect_is_instrumented(const char *name)
{
    return gp_metric_is_instrumented(name);
}

/* @fast: the SASS pass also gives the instrumented sums it counts exactly,
 * so that the range profiler needs no instrumented pass. */
static int sass_takes_exact;

void gp_collect_route_exact_to_sass(int on)
{
    sass_takes_exact = on;
}

static int withhold_efficiencies;

void gp_collect_withhold_efficiencies(int on)
{
    withhold_efficiencies = on;
}

int gp_collect_withheld(const char *name)
{
    return withhold_efficiencies && gp_sass_is_efficiency(name);
}

int gp_collect_is_sass(const char *name)
{
    return gp_sass_only(name) || (sass_takes_exact && gp_sass_exact(name)) ||
           gp_collect_withheld(name);
}

int gp_collect_check_name(const char *chip, const char *name, char *err, size_t errlen)
{
    if (gp_collect_is_sass(name))
        return GP_NAME_OK;
    if (strncmp(name, "gpuprof__", 9) == 0)
        return GP_NAME_SASS_UNDERIVABLE;
    return gp_host_check_names(chip, &name, 1, err, errlen) != 0 ? GP_NAME_UNKNOWN : GP_NAME_OK;
}

void gp_collect_names_known(const char *chip, const char *const *names, size_t n, int *known)
{
    gp_host_check_names_each(chip, names, n, known, NULL, 0);
}

int gp_collect_each_base(const char *chip, void (*fn)(void *ctx, const char *name, int type),
                         void *ctx)
{
    return gp_host_each_base(chip, fn, ctx);
}

int gp_collect_needs_code(const char *name)
{
    return gp_sass_needs_code(name);
}

/* ---- devices, kernels, modules ------------------------------------------- */

int gp_collect_current_device(void)
{
    CUdevice dev = 0;
    gp_drv.cuCtxGetDevice(&dev);
    return (int)dev;
}

int gp_collect_device_attr(int device, CUdevice_attribute attr)
{
    int v = 0;
    if (gp_drv.cuDeviceGetAttribute(&v, attr, device) != CUDA_SUCCESS)
        return 0;
    return v;
}

void gp_collect_device_name(int device, char *name, size_t len)
{
    gp_drv.cuDeviceGetName(name, (int)len, device);
}

void gp_collect_kernel_attrs(CUfunction f, gp_kernel_attrs *a)
{
    CUfunction fn = f;
    int v = 0;
    if (gp_drv.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, fn) != CUDA_SUCCESS) {
        CUfunction resolved = NULL;
        if (gp_drv.cuKernelGetFunction(&resolved, (CUkernel)fn) == CUDA_SUCCESS && resolved)
            fn = resolved;
    }
    a->func = fn;
    if (gp_drv.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, fn) == CUDA_SUCCESS)
        a->regs = v;
    if (gp_drv.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn) == CUDA_SUCCESS)
        a->static_smem = (size_t)v;
    if (gp_drv.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn) == CUDA_SUCCESS)
        a->local_bytes = (size_t)v;
    static const CUfunction_attribute cl[3] = {CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH,
                                               CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT,
                                               CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH};
    for (int i = 0; i < 3; i++)
        if (gp_drv.cuFuncGetAttribute(&v, cl[i], fn) == CUDA_SUCCESS && v > 0)
            a->req_cluster[i] = (unsigned)v;
    CUmodule mod = NULL;
    if (gp_drv.cuFuncGetModule(&mod, fn) == CUDA_SUCCESS)
        a->module = mod;
}

int gp_collect_module_global(CUmodule mod, const char *name, uint64_t *addr, uint64_t *bytes)
{
    CUdeviceptr p = 0;
    size_t n = 0;
    if (gp_drv.cuModuleGetGlobal(&p, &n, mod, name) != CUDA_SUCCESS || !p || !n)
        return -1;
    *addr = (uint64_t)p;
    *bytes = (uint64_t)n;
    return 0;
}

/* ---- contexts ------------------------------------------------------------ */

int gp_collect_probe(CUcontext ctx, int device, char *chip, size_t chiplen, int *errclass,
                     char *err, size_t errlen)
{
    /* the chip name comes with a profiler object; the caller checks its
     * names against it before the real configuration is built */
    static const char *const one[] = {"gpu__time_duration.sum"};
    gp_rp *probe = gp_rp_create(ctx, device, one, 1, 1, errclass, err, errlen);
    if (!probe)
        return -1;
    const char *c = gp_rp_chip(probe);
    snprintf(chip, chiplen, "%s", c ? c : "");
    gp_rp_destroy(probe);
    return 0;
}

gp_collect_ctx *gp_collect_open(CUcontext ctx, int device, int incremental, int verify)
{
    gp_collect_ctx *c = calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->replay.ctx = ctx;
    c->device = device;
    gp_snapshot_configure(&c->replay.snap, incremental, verify);
    /* a graph's memory is saved whole at each graph launch and freed after
     * it: its steps are replayed once each, not pass after pass */
    gp_snapshot_configure(&c->graph, 0, verify);
    return c;
}

/* The driver as the set-up cache's keys name it: its CUDA version and the
 * kernel module's version line (the counters it exposes come with it). */
static void cache_platform(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    int v = 0;
    if (gp_drv.cuDriverGetVersion)
        gp_drv.cuDriverGetVersion(&v);
    char module[160] = "?", p[200];
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (f) {
        if (fgets(module, sizeof(module), f)) {
            module[strcspn(module, "\n")] = '\0';
            for (char *m = module; *m; m++) /* one word in the key line */
                if (*m == ' ' || *m == '\t')
                    *m = '_';
        }
        fclose(f);
    }
    snprintf(p, sizeof(p), "%d/%s", v, module);
    gp_host_split_set_platform(p);
}

void gp_collect_setup_cache(const char *dir)
{
    gp_setup_cache_set_dir(dir);
}

void gp_collect_setup_cache_counts(unsigned *hits, unsigned *misses)
{
    gp_setup_cache_stats s = gp_setup_cache_counts();
    *hits = s.hits;
    *misses = s.misses;
}

int gp_collect_counters(gp_collect_ctx *c, const gp_collect_set *set, size_t max_ranges,
                        int kernel_replay, const int *rotate_every, int *errclass, char *err,
                        size_t errlen)
{
    cache_platform();
    /* the hardware subset, in the order of hw_index */
    const char **hw = calloc(set->n_hw ? set->n_hw : 1, sizeof(char *));
    if (!hw) {
        *errclass = GP_RP_ERR_OTHER;
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t k = 0; k < set->n_hw; k++)
        hw[k] = set->names[set->hw_index[k]];
    c->replay.rp =
        gp_rp_create(c->replay.ctx, c->device, hw, set->n_hw, max_ranges, errclass, err, errlen);
    if (c->replay.rp && rotate_every) {
        int *every = calloc(set->n_hw ? set->n_hw : 1, sizeof(int));
        char rerr[256] = "";
        for (size_t k = 0; every && k < set->n_hw; k++)
            every[k] = rotate_every[set->hw_index[k]];
        if (!every || gp_rp_rotation_build(c->replay.rp, every, rerr, sizeof(rerr)) == 0)
            snprintf(c->rotate_why, sizeof(c->rotate_why), "%s", every ? rerr : "out of memory");
        free(every);
    }
    free(hw);
    if (!c->replay.rp)
        return -1;
    /* auto range: the hardware bounds each pass at the kernel itself */
    gp_rp_set_auto_range(c->replay.rp, 1);
    gp_rp_set_kernel_replay(c->replay.rp, kernel_replay);
    return 0;
}

double gp_collect_grouping_s(void)
{
    return gp_host_grouping_s();
}

const char *gp_collect_left_out(const gp_collect_ctx *c)
{
    return c && c->replay.rp ? gp_rp_left_out(c->replay.rp) : NULL;
}

int gp_collect_unschedulable(const gp_collect_ctx *c, const gp_collect_set *set, size_t i)
{
    if (!c || !c->replay.rp || !gp_rp_left_out(c->replay.rp))
        return 0;
    for (size_t k = 0; k < set->n_hw; k++)
        if (set->hw_index[k] == i)
            return !gp_rp_set_has(c->replay.rp, GP_RP_FULL, k);
    return 0;
}

size_t gp_collect_rotation_configs(const gp_collect_ctx *c)
{
    return c ? gp_rp_rotation_configs(c->replay.rp) : 0;
}

int gp_collect_rotation_has(const gp_collect_ctx *c, const gp_collect_set *set, size_t g, size_t i)
{
    if (!c || !c->replay.rp || g >= gp_rp_rotation_configs(c->replay.rp))
        return 0;
    for (size_t k = 0; k < set->n_hw; k++)
        if (set->hw_index[k] == i)
            return gp_rp_set_has(c->replay.rp, GP_RP_ROT + (int)g, k);
    return 0;
}

size_t gp_collect_rotation_passes(const gp_collect_ctx *c, size_t g)
{
    if (!c || !c->replay.rp || g >= gp_rp_rotation_configs(c->replay.rp))
        return 0;
    return gp_rp_config_passes(c->replay.rp, GP_RP_ROT + (int)g);
}

int gp_collect_rotation_stepped(const gp_collect_ctx *c, size_t g)
{
    return c && g < gp_rp_rotation_configs(c->replay.rp) &&
           gp_rp_is_stepped(c->replay.rp, GP_RP_ROT + (int)g);
}

int gp_collect_abandon(gp_collect_ctx *c, char *err, size_t errlen)
{
    return c ? gp_rp_abandon(c->replay.rp, err, errlen) : 0;
}

const char *gp_collect_rotation_why(const gp_collect_ctx *c)
{
    if (!c)
        return NULL;
    if (c->rotate_why[0])
        return c->rotate_why;
    return gp_rp_rotation_left_out(c->replay.rp);
}

size_t gp_collect_configs(const gp_collect_ctx *c)
{
    return c && c->replay.rp ? 1 + gp_rp_extra_configs(c->replay.rp) : 0;
}

size_t gp_collect_passes(const gp_collect_ctx *c)
{
    return c && c->replay.rp ? gp_rp_passes(c->replay.rp, GP_RP_FULL) : 0;
}

int gp_collect_chip_name(int device, char *chip, size_t chiplen, char *err, size_t errlen)
{
    return gp_rp_chip_name(device, chip, chiplen, err, errlen);
}

int gp_collect_sass_metric_available(int metric)
{
    return gp_sass_metric_available(metric);
}

int gp_collect_sass(gp_collect_ctx *c, const char *chip, char *err, size_t errlen)
{
    c->sass_ok = gp_sass_setup(c->device, chip, err, errlen) == 0;
    return c->sass_ok ? 0 : -1;
}

void gp_collect_close(gp_collect_ctx *c)
{
    if (!c)
        return;
    if (c->sass_ok)
        gp_sass_teardown(c->device);
    gp_replay_ctx_free(&c->replay);
    gp_snapshot_free(&c->graph);
    free(c->ranges);
    free(c->graph_ranges);
    free(c);
}

/* ---- where the time went ------------------------------------------------- */

static pthread_mutex_t times_lock = PTHREAD_MUTEX_INITIALIZER;
static gp_collect_times times;

gp_collect_times gp_collect_times_so_far(void)
{
    pthread_mutex_lock(&times_lock);
    gp_collect_times t = times;
    pthread_mutex_unlock(&times_lock);
    return t;
}

CUresult gp_collect_wait_program(void)
{
    double t = gp_now_s();
    CUresult r = gp_drv.cuCtxSynchronize();
    pthread_mutex_lock(&times_lock);
    times.waiting += gp_now_s() - t;
    pthread_mutex_unlock(&times_lock);
    return r;
}

/* A launch's time on the collection side (its gp_collect_begin and
 * gp_collect_end together: `spent`) into its parts. */
static void times_add(const gp_replay_opts *o, const gp_replay_state *st, double spent)
{
    double once = st->warmup_passes ? st->t_warmup : st->t_once; /* the policy's set-up */
    double own = spent - once;
    pthread_mutex_lock(&times_lock);
    if (o->exact_first) {
        times.first_launches += own > 0 ? own : 0;
    } else {
        double passes = own - st->t_snapshot - st->t_restore;
        times.snapshots += st->t_snapshot;
        times.restores += st->t_restore;
        times.passes += passes > 0 ? passes : 0;
    }
    pthread_mutex_unlock(&times_lock);
}

/* ---- one launch ---------------------------------------------------------- */

CUresult gp_collect_capturing(CUstream stream, int *capturing)
{
    CUstreamCaptureStatus cap = CU_STREAM_CAPTURE_STATUS_NONE;
    CUresult r = gp_drv.cuStreamIsCapturing(stream, &cap);
    *capturing = cap != CU_STREAM_CAPTURE_STATUS_NONE;
    return r;
}

CUresult gp_collect_sync(void)
{
    return gp_drv.cuCtxSynchronize();
}

/* The tracked memory of the context (malloc'd, sorted; arrays last), or NULL
 * when out of memory.  Allocations may come and go meanwhile: retries. */
static gp_range *collect_ranges(gp_alloc_table *allocs, CUcontext ctx, size_t *n, uint64_t *total)
{
    size_t cap = 64;
    for (;;) {
        gp_range *r = malloc(cap * sizeof(gp_range));
        if (!r)
            return NULL;
        *n = gp_alloc_collect(allocs, (uint64_t)(uintptr_t)ctx, r, cap, total);
        if (*n <= cap)
            return r;
        free(r);
        cap = *n + 16;
    }
}

/* Waits for the work of the contexts linked to ctx by peer access: their
 * kernels and copies may write the memory about to be saved (or the peer
 * memory this context's kernel reaches), and must not do so between a save
 * and a restore.  The program's other threads cannot add work meanwhile (the
 * launch is in the exclusive section). */
static void sync_peers(gp_alloc_table *allocs, CUcontext ctx)
{
    uint64_t peers[64];
    size_t n = gp_alloc_peers_of(allocs, (uint64_t)(uintptr_t)ctx, peers, 64);
    for (size_t i = 0; i < n && i < 64; i++) {
        CUcontext popped;
        if (gp_drv.cuCtxPushCurrent((CUcontext)(uintptr_t)peers[i]) != CUDA_SUCCESS)
            continue;
        gp_drv.cuCtxSynchronize();
        gp_drv.cuCtxPopCurrent(&popped);
    }
}

static int collect_begin(gp_collect_ctx *c, gp_alloc_table *allocs, const gp_launch_exec *e,
                         const gp_replay_opts *o, gp_replay_state *st)
{
    size_t n = 0;
    uint64_t total = 0;
    free(c->ranges);
    c->ranges = NULL;
    if (o->rotate) /* nothing is saved: the memory to save need not be known */
        return gp_replay_enter(&c->replay, e, NULL, 0, 0, o, st) == 0 ? 0 : -1;
    sync_peers(allocs, c->replay.ctx);
    if (!(c->ranges = collect_ranges(allocs, c->replay.ctx, &n, &total))) {
        snprintf(st->why, sizeof(st->why), "out of memory");
        return -1;
    }
    if (gp_replay_enter(&c->replay, e, c->ranges, n, total, o, st) != 0) {
        gp_collect_release(c);
        return -1;
    }
    return 0;
}

int gp_collect_begin(gp_collect_ctx *c, gp_alloc_table *allocs, const gp_launch_exec *e,
                     const gp_replay_opts *o, gp_replay_state *st)
{
    double t = gp_now_s();
    int r = collect_begin(c, allocs, e, o, st);
    st->t_collect = gp_now_s() - t; /* after gp_replay_enter, which clears st */
    if (r != 0) /* no gp_collect_end follows */
        times_add(o, st, st->t_collect);
    return r;
}

/* GPUPROF_SASS_DUMP: the per-instruction data behind a launch's SASS values,
 * appended under the launch's kernel name (a contributor's diagnostic). */
static void sass_dump(const gp_collect_set *set, const char *kernel, const gp_replay_state *st)
{
    if (!set->sass_dump || !set->sass_dump[0])
        return;
    FILE *f = fopen(set->sass_dump, "a");
    if (!f)
        return;
    gp_sass_dump(f, kernel, st->sass, st->n_sass, set->code, set->code_arg);
    fclose(f);
}

static int collect_end(gp_collect_ctx *c, const gp_launch_exec *e, CUresult status,
                       const gp_collect_set *set, const char *kernel, const gp_replay_opts *o,
                       gp_replay_state *st, double *values, int *code_missing);

int gp_collect_end(gp_collect_ctx *c, const gp_launch_exec *e, CUresult status,
                   const gp_collect_set *set, const char *kernel, const gp_replay_opts *o,
                   gp_replay_state *st, double *values, int *code_missing)
{
    double t = gp_now_s();
    int r = collect_end(c, e, status, set, kernel, o, st, values, code_missing);
    times_add(o, st, st->t_collect + gp_now_s() - t);
    return r;
}

static int collect_end(gp_collect_ctx *c, const gp_launch_exec *e, CUresult status,
                       const gp_collect_set *set, const char *kernel, const gp_replay_opts *o,
                       gp_replay_state *st, double *values, int *code_missing)
{
    /* out of memory (no values, no room for the hardware values): the pass is
     * left as it is and the launch given up */
    double *hw = values ? malloc((set->n_hw ? set->n_hw : 1) * sizeof(double)) : NULL;
    for (size_t k = 0; hw && k < set->n_hw; k++) /* a SASS-only pass fills none */
        hw[k] = NAN;
    int ok = hw && gp_replay_exit(&c->replay, e, status, o, st, hw) == 0;
    for (size_t i = 0; values && i < set->n + 1; i++)
        values[i] = NAN;
    if (ok) {
        gp_rp *rp = c->replay.rp;
        for (size_t k = 0; k < set->n_hw && rp && !st->batched; k++)
            values[set->hw_index[k]] =
                st->set == GP_RP_ONE_PASS && !gp_rp_set_has(rp, GP_RP_ONE_PASS, k) ? NAN : hw[k];
        double *sv = st->sass ? malloc((set->n ? set->n : 1) * sizeof(double)) : NULL;
        if (sv) { /* only the SASS pass's own names: the profiler's values stay */
            for (size_t i = 0; i < set->n; i++)
                sv[i] = NAN;
            *code_missing = gp_sass_derive(st->sass, st->n_sass, set->code, set->code_arg,
                                           set->names, set->n, sv);
            for (size_t i = 0; i < set->n; i++)
                if (gp_collect_is_sass(set->names[i]) && !gp_collect_withheld(set->names[i]))
                    values[i] = sv[i];
            free(sv);
            sass_dump(set, kernel, st);
        }
        if (st->sass && set->sass_sink)
            set->sass_sink(set->sass_sink_arg, c->device, st->sass, st->n_sass);
    }
    free(hw);
    gp_sass_records_free(st->sass, st->n_sass);
    st->sass = NULL;
    st->n_sass = 0;
    return ok ? 0 : -1;
}

void gp_collect_release(gp_collect_ctx *c)
{
    if (!c)
        return;
    /* an incremental store stays for the next profiled launch (on the
     * device only while the program keeps the reserve free) */
    gp_snapshot_end_launch(&c->replay.snap);
    free(c->ranges);
    c->ranges = NULL;
}

const gp_snapshot_stats *gp_collect_snapshot_stats(const gp_collect_ctx *c)
{
    return c ? &c->replay.snap.stats : NULL;
}

const char *gp_collect_snapshot_where(const gp_replay_state *st)
{
    return st->snapshot_failed ? "unavailable" : gp_snap_place_name(st->snapshot_place);
}

CUresult gp_collect_run(const gp_launch_exec *e)
{
    return gp_launch_exec_run(e);
}

/* ---- batches ------------------------------------------------------------- */

int gp_collect_batch_is_open(const gp_collect_ctx *c)
{
    return c && gp_rp_batch_is_open(c->replay.rp);
}

size_t gp_collect_batch_room(const gp_collect_ctx *c)
{
    return c && c->replay.rp ? gp_rp_batch_room(c->replay.rp) : 0;
}

int gp_collect_flush(gp_collect_ctx *c, size_t *expected, size_t *recorded, char *err,
                     size_t errlen)
{
    double t = gp_now_s();
    int r = gp_rp_batch_close(c->replay.rp, expected, recorded, err, errlen);
    pthread_mutex_lock(&times_lock);
    times.passes += gp_now_s() - t;
    pthread_mutex_unlock(&times_lock);
    return r;
}

int gp_collect_batch_values(gp_collect_ctx *c, const gp_collect_set *set, size_t range,
                            double *values)
{
    double *hw = malloc((set->n_hw ? set->n_hw : 1) * sizeof(double));
    char err[256];
    if (!hw || gp_rp_batch_values(c->replay.rp, range, hw, err, sizeof(err)) != 0) {
        free(hw);
        return -1;
    }
    for (size_t k = 0; k < set->n_hw; k++)
        values[set->hw_index[k]] = hw[k];
    free(hw);
    return 0;
}

const char *gp_collect_range_name(gp_collect_ctx *c, size_t range)
{
    return gp_rp_range_name(c->replay.rp, range);
}

/* ---- memory around a graph's steps --------------------------------------- */

int gp_collect_graph_save(gp_collect_ctx *c, gp_alloc_table *allocs, const gp_replay_opts *o,
                          char *err, size_t errlen)
{
    size_t n = 0;
    uint64_t total = 0;
    free(c->graph_ranges);
    if (!(c->graph_ranges = collect_ranges(allocs, c->replay.ctx, &n, &total))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    char why[300];
    if (gp_snapshot_save(&c->graph, c->graph_ranges, n, total, o->allow_device, o->allow_host,
                         o->reserve_bytes, why, sizeof(why)) != 0) {
        snprintf(err, errlen, "no room to save memory around the graph's steps: %s", why);
        free(c->graph_ranges);
        c->graph_ranges = NULL;
        return -1;
    }
    return 0;
}

int gp_collect_graph_restore(gp_collect_ctx *c, char *err, size_t errlen)
{
    return gp_snapshot_restore(&c->graph, err, errlen);
}

void gp_collect_graph_release(gp_collect_ctx *c)
{
    gp_snapshot_free(&c->graph);
    free(c->graph_ranges);
    c->graph_ranges = NULL;
}
