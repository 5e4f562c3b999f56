/* core.c - the profiler's policy: which launch is profiled, how, and what is
 * written.  See core.h.
 *
 * Locking.  `launch_lock` is a writer-preferring rwlock: every tracked API
 * call of the program (launch, allocation, copy, memset) holds it shared from
 * its enter to its exit callback; a profiled launch holds it exclusively, so
 * that while its passes run and its memory is saved and restored, no other
 * thread enqueues work or changes memory.  Launches that are not profiled only
 * pay for an uncontended shared lock.  `state_lock` guards the small tables
 * (kernels, contexts, statistics) for short moments. */
#define _GNU_SOURCE /* program_invocation_short_name */
#include "preload/core.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuprof.h"
#include "metrics/report_api.h"
#include "preload/callbacks.h"
#include "preload/config.h"
#include "preload/cubin.h"
#include "preload/filter.h"
#include "preload/names.h"
#include "preload/output.h"
#include "preload/ranges.h"
#include "preload/record.h"
#include "preload/sass_derive.h"
#include "preload/summary.h"
#include "replay/alloc_track.h"
#include "replay/cupti_host.h"
#include "replay/driver.h"
#include "replay/graph_plan.h"
#include "replay/range_profiler.h"
#include "replay/replay.h"
#include "replay/sass_metrics.h"
#include "replay/worker.h"
#include "util/gp_uthash.h"
#include "util/log.h"
#include "util/safefile.h"
#include "util/strindex.h"
#include "util/strutil.h"

/* ---- tables ------------------------------------------------------------ */

typedef struct kernel_name_entry { /* per mangled name */
    char *mangled;
    char *demangled;
    int name_matches;
    uint64_t profiled;
    UT_hash_handle hh;
} kernel_name_entry;

typedef struct kernel_key {
    CUfunction f;
    CUcontext ctx;
} kernel_key;

typedef struct kernel_entry { /* per (handle, context) */
    kernel_key key;
    kernel_name_entry *name;
    int attrs_done;
    CUfunction func; /* resolved CUfunction (f may be a CUkernel) */
    CUmodule module;
    int regs;
    size_t static_smem, local_bytes;
    unsigned req_cluster[3];
    int failures;
    UT_hash_handle hh;
} kernel_entry;

typedef struct module_entry {
    CUmodule module;
    unsigned globals_gen; /* cubin generation its globals were resolved at */
    UT_hash_handle hh;
} module_entry;

typedef struct code_entry { /* a kernel's machine code, for opcode lookups */
    char *name;
    uint8_t *code;
    size_t size;
    UT_hash_handle hh;
} code_entry;

typedef struct ctx_state {
    CUcontext ctx;
    int device;
    int unusable; /* counters cannot be read in this context */
    char why[600];
    gp_replay_ctx replay;
    gp_device_facts facts;
    int facts_written;
    int sass_ok; /* the SASS pass can run here */
    char sass_why[300];
    int batching; /* counters of one-pass sets are decoded in batches */
    gp_snapshot graph_snap; /* memory around a graph's steps (graph_emulate) */
    struct launch_state *pending, **pending_tail; /* launches waiting for the open batch */
    size_t n_pending;
    UT_hash_handle hh;
} ctx_state;

typedef struct launch_state { /* a profiled launch between enter and exit */
    kernel_entry *kernel;
    ctx_state *cs;
    gp_replay_state rs;
    gp_replay_opts opts;
    gp_range *ranges;
    uint64_t launch_id;
    char range_name[32];
    /* kept after exit while the launch waits for its batch's counters */
    gp_launch_event ev; /* params/extra are not valid then */
    uint64_t stream_id;
    double *values; /* n_metrics + 1; the SASS-derived ones filled */
    int graph_node; /* a kernel of a graph, run by gpuprof before the graph */
    int sass_code_missing; /* FP counts by opcode impossible: no machine code */
    struct launch_state *next;
} launch_state;

/* What a slot holds between enter and exit. */
enum { SLOT_NONE = 0, SLOT_SHARED = 1 };

static struct {
    gp_config cfg;
    int active; /* configuration valid, driver loaded */
    int cuda_ready;
    int counters_off; /* counters unreadable for the whole process */
    int n_config_errors;
    char config_errors[2048];
    int profiler_started;
    char counters_why[512];
    pthread_rwlock_t launch_lock;
    pthread_mutex_t state_lock;
    pthread_mutex_t out_lock;
    gp_alloc_table *allocs;
    kernel_name_entry *names;
    kernel_entry *kernels;
    struct graph_entry *graphs; /* plans of instantiated graphs, by executable graph */
    module_entry *modules;
    ctx_state *contexts;
    gp_filter_state filter;
    atomic_int open_batches; /* contexts whose range profiler is started */
    /* metrics */
    const char **metric_names;
    const char **metric_units;
    size_t n_metrics;
    int metrics_checked;
    int has_sass;          /* the set holds SASS-instrumented metrics */
    const char **hw_names; /* the hardware subset, for the range profiler */
    size_t *hw_index;      /* its positions in metric_names */
    size_t n_hw;
    code_entry *code; /* machine code of every loaded kernel, by name */
    /* globals of loaded modules (names from every cubin) */
    gp_cubin_global *globals;
    int n_globals, cap_globals;
    gp_strindex *globals_index; /* positions in globals by name */
    unsigned globals_gen;
    /* output: created under temporary names and renamed into place at once
     * (never through a planted link, never truncating a file in place) */
    FILE *csv, *json;
    gp_safefile csv_file, json_file;
    int outputs_opened, csv_header_done;
    char out_base[1100];
    char host[256];
    gp_summary summary;
    double init_s;
} gp;

static __thread int t_in_profiler; /* the profiler's own driver calls */
static void batch_close(ctx_state *cs);
static void batch_close_all(void);
static __thread int t_api_depth; /* tracked API calls nested on this thread */
static atomic_uint_fast64_t launch_seq;

int gp_core_in_profiler(void)
{
    return t_in_profiler || gp_worker_self;
}
int gp_core_crosscheck(void)
{
    return gp.cfg.crosscheck;
}
const gp_config *gp_core_config(void)
{
    return &gp.cfg;
}

/* ---- metric list ------------------------------------------------------- */

static const struct {
    const char *name, *unit, *set;
} known_counters[] = {
#define GP_COUNTER(n, u, c, s, d) {n, u, s},
#include "metrics/counters.def"
#undef GP_COUNTER
};

/* Position of a metric in the output list; an index whose value is NaN
 * (the last slot of a scratch array) when it is not collected. */
static size_t metric_index(const char *name)
{
    for (size_t i = 0; i < gp.n_metrics; i++)
        if (strcmp(gp.metric_names[i], name) == 0)
            return i;
    return gp.n_metrics;
}

static const char *counter_unit(const char *name)
{
    for (size_t i = 0; i < sizeof(known_counters) / sizeof(known_counters[0]); i++)
        if (strcmp(known_counters[i].name, name) == 0)
            return known_counters[i].unit;
    return "";
}

static void metric_add(const char *name)
{
    for (size_t i = 0; i < gp.n_metrics; i++)
        if (strcmp(gp.metric_names[i], name) == 0)
            return;
    gp.metric_names[gp.n_metrics] = name;
    gp.metric_units[gp.n_metrics] = counter_unit(name);
    gp.n_metrics++;
}

static int build_metric_list(void)
{
    size_t cap = sizeof(known_counters) / sizeof(known_counters[0]) + gp.cfg.n_metrics;
    gp.metric_names = calloc(cap, sizeof(char *));
    gp.metric_units = calloc(cap, sizeof(char *));
    if (!gp.metric_names || !gp.metric_units)
        return -1;
    for (size_t i = 0; i < sizeof(known_counters) / sizeof(known_counters[0]); i++) {
        int is_default = strcmp(known_counters[i].set, "default") == 0;
        if ((is_default && !gp.cfg.metrics_replace) || (!is_default && gp.cfg.metrics_extended))
            metric_add(known_counters[i].name);
    }
    for (size_t i = 0; i < gp.cfg.n_metrics; i++)
        metric_add(gp.cfg.metrics[i]);
    return 0;
}

/* Drops names CUPTI does not know for this chip, saying so once, so that the
 * rest is still collected. */
static void check_metric_names(const char *chip)
{
    if (gp.metrics_checked)
        return;
    gp.metrics_checked = 1;
    size_t keep = 0;
    for (size_t i = 0; i < gp.n_metrics; i++) {
        char err[768];
        const char *name = gp.metric_names[i];
        if (gp_metric_is_instrumented(name)) {
            /* CUPTI 13.0's range profiler returns nothing for these: they come
             * from the SASS pass, for the names gpuprof can derive */
            if (!gp_sass_derivable(name)) {
                gp_error("GPUPROF_METRICS: '%s' is an instrumented (SASS) metric that gpuprof "
                         "cannot collect; it is left out (see docs/user-guide.md for the SASS "
                         "metrics it derives)",
                         name);
                continue;
            }
        } else if (gp_host_check_names(chip, &name, 1, err, sizeof(err)) != 0) {
            gp_error("GPUPROF_METRICS: %s; it is left out, the other metrics are collected", err);
            continue;
        }
        gp.metric_names[keep] = gp.metric_names[i];
        gp.metric_units[keep] = gp.metric_units[i];
        keep++;
    }
    gp.n_metrics = keep;
    gp.hw_names = calloc(keep ? keep : 1, sizeof(char *));
    gp.hw_index = calloc(keep ? keep : 1, sizeof(size_t));
    for (size_t i = 0; i < gp.n_metrics; i++) {
        if (gp_metric_is_instrumented(gp.metric_names[i])) {
            gp.has_sass = 1;
        } else if (gp.hw_names && gp.hw_index) {
            gp.hw_index[gp.n_hw] = i;
            gp.hw_names[gp.n_hw++] = gp.metric_names[i];
        }
    }
}

/* ---- start-up and shutdown ------------------------------------------------ */

static const char *env_lookup(const char *name)
{
    return getenv(name);
}

int gp_core_init(void)
{
    char err[2048];
    int bad = gp_config_parse(&gp.cfg, env_lookup, err, sizeof(err));
    FILE *sink = NULL;
    if (gp.cfg.log_file[0]) {
        char why[256];
        sink = gp_safefile_append(gp.cfg.log_file, why, sizeof(why));
        if (!sink)
            fprintf(stderr,
                    "[gpuprof %d] error: GPUPROF_LOG_FILE='%s' cannot be opened (%s); "
                    "logging to stderr\n",
                    (int)getpid(), gp.cfg.log_file, why);
    }
    gp_log_setup(gp.cfg.log_level, sink);
    if (bad) {
        /* said once CUDA starts (gp_core_cuda_ready): a program that never
         * touches CUDA hears nothing from gpuprof */
        snprintf(gp.config_errors, sizeof(gp.config_errors), "%s", err);
        gp.n_config_errors = bad;
        return 0;
    }
    pthread_rwlockattr_t ra;
    pthread_rwlockattr_init(&ra);
    pthread_rwlockattr_setkind_np(&ra, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&gp.launch_lock, &ra);
    pthread_rwlockattr_destroy(&ra);
    pthread_mutex_init(&gp.state_lock, NULL);
    pthread_mutex_init(&gp.out_lock, NULL);
    gp.allocs = gp_alloc_table_create();
    if (!gp.allocs || build_metric_list() != 0) {
        gp_error("out of memory at start-up; not profiling");
        return -1;
    }
    if (gethostname(gp.host, sizeof(gp.host)) != 0)
        snprintf(gp.host, sizeof(gp.host), "unknown");
    gp.host[sizeof(gp.host) - 1] = '\0';
    gp_summary_init(&gp.summary);
    gp_ranges_reset(gp.cfg.profile_from_start);
    if (gp.cfg.n_nvtx_include || gp.cfg.n_nvtx_exclude)
        gp_callbacks_nvtx_injection();
    gp.active = 1;
    return 0;
}

int gp_core_cuda_ready(void)
{
    char err[256];
    double t0 = gp_now_s();
    if (gp.n_config_errors) {
        /* one line per malformed variable, then stay out of the program */
        char *line = gp.config_errors, *next;
        for (; line && *line; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            gp_error("%s", line);
        }
        gp_error("gpuprof is not profiling this run because of the configuration error%s above",
                 gp.n_config_errors > 1 ? "s" : "");
        return -1;
    }
    if (!gp.active)
        return -1;
    if (gp_driver_load(err, sizeof(err)) != 0) {
        gp_error("%s; not profiling", err);
        gp.active = 0;
        return -1;
    }
    gp.cuda_ready = 1;
    if (gp_log_enabled(GP_LOG_INFO)) {
        char what[1024];
        gp_config_describe(&gp.cfg, what, sizeof(what));
        gp_info("gpuprof %s: %s", GPUPROF_VERSION, what);
    }
    gp.init_s += gp_now_s() - t0;
    return 0;
}

static void open_outputs(void)
{
    if (gp.outputs_opened)
        return;
    gp.outputs_opened = 1;
    char path[1200];
    /* cannot fail: config.c checked the longest expansion */
    gp_expand_path(gp.cfg.output, (long)getpid(), gp.host, gp.out_base, sizeof(gp.out_base));
    size_t l = strlen(gp.out_base);
    if (l > 4 && strcmp(gp.out_base + l - 4, ".csv") == 0)
        gp.out_base[l - 4] = '\0';
    else if (l > 6 && strcmp(gp.out_base + l - 6, ".jsonl") == 0)
        gp.out_base[l - 6] = '\0';
    char why[1400];
    if (gp.cfg.write_json) {
        snprintf(path, sizeof(path), "%s.jsonl", gp.out_base);
        if (gp_safefile_open(&gp.json_file, path, why, sizeof(why)) == 0 &&
            gp_safefile_publish(&gp.json_file, why, sizeof(why)) == 0)
            gp.json = gp.json_file.f;
        else
            gp_error("%s (GPUPROF_OUTPUT)", why);
    }
    if (gp.cfg.write_csv) {
        snprintf(path, sizeof(path), "%s.csv", gp.out_base);
        if (gp_safefile_open(&gp.csv_file, path, why, sizeof(why)) == 0 &&
            gp_safefile_publish(&gp.csv_file, why, sizeof(why)) == 0)
            gp.csv = gp.csv_file.f;
        else
            gp_error("%s (GPUPROF_OUTPUT)", why);
    }
}

static void note_unprofiled(uint64_t launch_id, const char *kernel, const char *reason)
{
    pthread_mutex_lock(&gp.state_lock);
    gp_summary_unprofiled(&gp.summary, launch_id, kernel, reason);
    pthread_mutex_unlock(&gp.state_lock);
}

void gp_core_shutdown(void)
{
    if (!gp.active)
        return;
    batch_close_all(); /* launches still waiting for their counters */
    /* count, print and close; the process is exiting */
    pthread_mutex_lock(&gp.out_lock);
    gp.summary.profiler_s += gp.init_s;
    char why[1400];
    if (gp.json) {
        gp_summary_write_json(&gp.summary, gp.json);
        if (gp_safefile_commit(&gp.json_file, why, sizeof(why)) != 0)
            gp_error("%s (GPUPROF_OUTPUT)", why);
        gp.json = NULL;
    }
    if (gp.csv) {
        if (gp_safefile_commit(&gp.csv_file, why, sizeof(why)) != 0)
            gp_error("%s (GPUPROF_OUTPUT)", why);
        gp.csv = NULL;
    }
    if (gp.cfg.summary && gp.summary.launches_seen > 0) {
        gp_summary_print(&gp.summary, stderr, gp.outputs_opened ? gp.out_base : NULL,
                         gp.cfg.write_json, gp.cfg.write_csv, gp.cfg.crosscheck);
        if (gp.summary.launches_profiled && gp.cfg.write_json) {
            char path[1200];
            snprintf(path, sizeof(path), "%s.jsonl", gp.out_base);
            fprintf(stderr,
                    "[gpuprof %d] top kernels and their bottlenecks "
                    "(gpuprof-report %s for the full report):\n",
                    (int)getpid(), path);
            if (gp_report_summarize_jsonl(path, stderr, 5) != 0)
                fprintf(stderr, "[gpuprof %d]   (no summary: %s could not be read back)\n",
                        (int)getpid(), path);
        }
    }
    pthread_mutex_unlock(&gp.out_lock);
}

/* ---- kernels ------------------------------------------------------------ */

/* Caller holds state_lock. */
static kernel_entry *kernel_lookup(const gp_launch_event *ev)
{
    kernel_key key;
    memset(&key, 0, sizeof(key));
    key.f = ev->exec.f;
    key.ctx = ev->ctx;
    kernel_entry *k;
    HASH_FIND(hh, gp.kernels, &key, sizeof(key), k);
    if (k)
        return k;
    const char *mangled = ev->symbol ? ev->symbol : "?";
    kernel_name_entry *n;
    HASH_FIND_STR(gp.names, mangled, n);
    if (!n) {
        n = calloc(1, sizeof(*n));
        if (!n)
            return NULL;
        n->mangled = strdup(mangled);
        n->demangled = gp_demangle(mangled);
        if (!n->mangled || !n->demangled) {
            free(n->mangled);
            free(n->demangled);
            free(n);
            return NULL;
        }
        char buf[1024];
        n->name_matches = gp_filter_name_matches(
            &gp.cfg, gp_filter_name(&gp.cfg, n->demangled, n->mangled, buf, sizeof(buf)));
        gp_uthash_oom = 0;
        HASH_ADD_KEYPTR(hh, gp.names, n->mangled, strlen(n->mangled), n);
        if (gp_uthash_oom) {
            free(n->mangled);
            free(n->demangled);
            free(n);
            return NULL;
        }
    }
    k = calloc(1, sizeof(*k));
    if (!k)
        return NULL;
    k->key = key;
    k->name = n;
    gp_uthash_oom = 0;
    HASH_ADD(hh, gp.kernels, key, sizeof(key), k);
    if (gp_uthash_oom) {
        free(k);
        return NULL;
    }
    return k;
}

/* Resolves the CUfunction (the handle may be a CUkernel) and reads the
 * attributes.  Runs under the exclusive launch lock with the guard set. */
static void kernel_attrs(kernel_entry *k)
{
    if (k->attrs_done)
        return;
    k->attrs_done = 1;
    CUfunction fn = k->key.f;
    int v = 0;
    if (gp_drv.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, fn) != CUDA_SUCCESS) {
        CUfunction resolved = NULL;
        if (gp_drv.cuKernelGetFunction(&resolved, (CUkernel)fn) == CUDA_SUCCESS && resolved)
            fn = resolved;
    }
    k->func = fn;
    if (gp_drv.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, fn) == CUDA_SUCCESS)
        k->regs = v;
    if (gp_drv.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn) == CUDA_SUCCESS)
        k->static_smem = (size_t)v;
    if (gp_drv.cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn) == CUDA_SUCCESS)
        k->local_bytes = (size_t)v;
    static const CUfunction_attribute cl[3] = {CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH,
                                               CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT,
                                               CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH};
    for (int i = 0; i < 3; i++)
        if (gp_drv.cuFuncGetAttribute(&v, cl[i], fn) == CUDA_SUCCESS && v > 0)
            k->req_cluster[i] = (unsigned)v;
    CUmodule mod = NULL;
    if (gp_drv.cuFuncGetModule(&mod, fn) == CUDA_SUCCESS)
        k->module = mod;
}

/* ---- __device__ globals and kernel code ------------------------------------- */

/* Whether the metric set (before the chip is known) holds SASS metrics. */
static int sass_wanted(void)
{
    for (size_t i = 0; i < gp.n_metrics; i++)
        if (gp_metric_is_instrumented(gp.metric_names[i]))
            return 1;
    return 0;
}

/* Keeps a copy of each kernel's machine code (the SASS pass classifies
 * instructions by opcode).  Caller holds state_lock. */
static void keep_code(const char *name, const uint8_t *code, size_t size, void *arg)
{
    (void)arg;
    code_entry *c;
    HASH_FIND_STR(gp.code, name, c);
    if (c)
        return;
    c = calloc(1, sizeof(*c));
    if (!c || !(c->name = strdup(name)) || !(c->code = malloc(size))) {
        if (c)
            free(c->name);
        free(c);
        return;
    }
    memcpy(c->code, code, size);
    c->size = size;
    gp_uthash_oom = 0;
    HASH_ADD_KEYPTR(hh, gp.code, c->name, strlen(c->name), c);
    if (gp_uthash_oom) {
        free(c->code);
        free(c->name);
        free(c);
    }
}

static const uint8_t *code_lookup(const char *function, size_t *size, void *arg);

/* GPUPROF_SASS_DUMP: the per-instruction data behind a launch's SASS values,
 * appended under the launch's kernel name (a contributor's diagnostic). */
static void sass_dump(const launch_state *ls)
{
    if (!gp.cfg.sass_dump[0])
        return;
    FILE *f = fopen(gp.cfg.sass_dump, "a");
    if (!f)
        return;
    gp_sass_dump(f, ls->kernel && ls->kernel->name ? ls->kernel->name->mangled : "?", ls->rs.sass,
                 ls->rs.n_sass,
                 code_lookup, NULL);
    fclose(f);
}

static const uint8_t *code_lookup(const char *function, size_t *size, void *arg)
{
    (void)arg;
    code_entry *c;
    pthread_mutex_lock(&gp.state_lock);
    HASH_FIND_STR(gp.code, function, c);
    pthread_mutex_unlock(&gp.state_lock);
    if (!c)
        return NULL;
    *size = c->size;
    return c->code;
}

void gp_core_module_loaded(const void *cubin, size_t size)
{
    if (!gp.active || !cubin || size == 0)
        return;
    if (gp.cfg.enabled && sass_wanted()) {
        pthread_mutex_lock(&gp.state_lock);
        int nf = gp_cubin_each_function_any(cubin, size, keep_code, NULL);
        pthread_mutex_unlock(&gp.state_lock);
        if (nf < 0) /* its kernels' FP operation counts will be n/a */
            gp_log(GP_LOG_DEBUG, "a module of %zu bytes holds no readable machine code "
                                 "(first bytes %02x %02x %02x %02x)",
                   size, ((const uint8_t *)cubin)[0], size > 1 ? ((const uint8_t *)cubin)[1] : 0,
                   size > 2 ? ((const uint8_t *)cubin)[2] : 0,
                   size > 3 ? ((const uint8_t *)cubin)[3] : 0);
    }
    gp_cubin_global *g = NULL;
    int n = gp_cubin_globals(cubin, size, &g);
    if (n <= 0) {
        gp_cubin_globals_free(g, n > 0 ? n : 0);
        return;
    }
    pthread_mutex_lock(&gp.state_lock);
    for (int i = 0; i < n; i++) {
        /* by index: a scan of every known name made many modules quadratic */
        if (gp_strindex_find(gp.globals_index, g[i].name, strlen(g[i].name)) >= 0) {
            free(g[i].name);
            continue;
        }
        if (gp.n_globals == gp.cap_globals) {
            int cap = gp.cap_globals ? 2 * gp.cap_globals : 64;
            gp_cubin_global *ng = realloc(gp.globals, (size_t)cap * sizeof(*ng));
            if (!ng) {
                free(g[i].name);
                continue;
            }
            gp.globals = ng;
            gp.cap_globals = cap;
        }
        /* without room in the index a later duplicate is only resolved twice */
        gp_strindex_add(&gp.globals_index, g[i].name, strlen(g[i].name), (size_t)gp.n_globals);
        gp.globals[gp.n_globals++] = g[i];
    }
    gp.globals_gen++;
    pthread_mutex_unlock(&gp.state_lock);
    free(g); /* names now owned by gp.globals (or freed) */
}

/* Registers the addresses of every known global that this module holds.
 * Runs under the exclusive launch lock with the guard set. */
static void resolve_globals(CUmodule mod, CUcontext ctx)
{
    if (!mod)
        return;
    module_entry *m;
    HASH_FIND(hh, gp.modules, &mod, sizeof(mod), m);
    if (!m) {
        m = calloc(1, sizeof(*m));
        if (!m)
            return;
        m->module = mod;
        gp_uthash_oom = 0;
        HASH_ADD(hh, gp.modules, module, sizeof(m->module), m);
        if (gp_uthash_oom) {
            free(m);
            return;
        }
    } else if (m->globals_gen == gp.globals_gen) {
        return;
    }
    m->globals_gen = gp.globals_gen;
    for (int i = 0; i < gp.n_globals; i++) {
        CUdeviceptr p = 0;
        size_t bytes = 0;
        if (gp_drv.cuModuleGetGlobal(&p, &bytes, mod, gp.globals[i].name) == CUDA_SUCCESS && p &&
            bytes)
            gp_alloc_add(gp.allocs, (uint64_t)p, bytes, GP_MEM_GLOBAL, (uint64_t)(uintptr_t)ctx);
    }
}

/* ---- contexts ------------------------------------------------------------- */

static void device_facts(int dev, gp_device_facts *d, const char *chip)
{
    memset(d, 0, sizeof(*d));
    d->ordinal = dev;
    gp_drv.cuDeviceGetName(d->name, sizeof(d->name), dev);
    snprintf(d->chip, sizeof(d->chip), "%s", chip);
#define ATTR(field, a) gp_drv.cuDeviceGetAttribute(&d->field, a, dev)
    ATTR(cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    ATTR(cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    ATTR(sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    ATTR(max_threads_per_sm, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    ATTR(max_blocks_per_sm, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
    ATTR(warp_size, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    ATTR(regs_per_sm, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    ATTR(max_regs_per_block, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    ATTR(smem_per_sm, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    ATTR(smem_per_block, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    ATTR(smem_per_block_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    ATTR(smem_reserved_per_block, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
    ATTR(l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    ATTR(mem_bus_width_bits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    ATTR(mem_clock_khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    ATTR(sm_clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
#undef ATTR
}

static const char *const permission_advice =
    "cannot read GPU performance counters: permission denied (ERR_NVGPUCTRPERM). Run the "
    "program as root, or let all users profile: put 'options nvidia "
    "NVreg_RestrictProfilingToAdminUsers=0' in a file under /etc/modprobe.d/ and reload the "
    "driver (or reboot). Launches are counted, not profiled; the program runs on unchanged";

/* Runs under the exclusive launch lock with the guard set. */
static ctx_state *context_get(CUcontext ctx)
{
    ctx_state *cs;
    HASH_FIND(hh, gp.contexts, &ctx, sizeof(ctx), cs);
    if (cs)
        return cs;
    cs = calloc(1, sizeof(*cs));
    if (!cs)
        return NULL;
    cs->ctx = ctx;
    cs->pending_tail = &cs->pending;
    CUdevice dev = 0;
    gp_drv.cuCtxGetDevice(&dev);
    cs->device = (int)dev;
    gp_uthash_oom = 0;
    HASH_ADD(hh, gp.contexts, ctx, sizeof(cs->ctx), cs);
    if (gp_uthash_oom) {
        free(cs);
        return NULL;
    }
    /* the profiler starts with the first profiled launch: inside cuInit,
     * where the injection entry point runs, it cannot */
    if (!gp.profiler_started && !gp.counters_off) {
        char err[256];
        gp.profiler_started = 1;
        gp_rp_inject_no_permission(gp.cfg.inject == GP_INJECT_NO_PERMISSION);
        if (gp_rp_global_init(err, sizeof(err)) != 0) {
            gp.counters_off = 1;
            snprintf(gp.counters_why, sizeof(gp.counters_why), "%s", err);
            gp_error("cannot start the CUPTI profiler (%s); launches are counted, not profiled",
                     err);
        }
    }
    if (gp.counters_off) {
        cs->unusable = 1;
        snprintf(cs->why, sizeof(cs->why), "%s", gp.counters_why);
        return cs;
    }
    /* learn the chip, check the metric names, then enable */
    int errclass = 0;
    char err[768] = "";
    const char *chip = NULL;
    gp_rp *probe = NULL;
    {
        /* the chip name comes with the profiler object; names are checked
         * against it before the real configuration is built */
        static const char *const one[] = {"gpu__time_duration.sum"};
        probe = gp_rp_create(ctx, cs->device, one, 1, 1, &errclass, err, sizeof(err));
        if (probe)
            chip = gp_rp_chip(probe);
    }
    if (!probe) {
        cs->unusable = 1;
        snprintf(cs->why, sizeof(cs->why), "%s", err);
        if (errclass == GP_RP_ERR_PERMISSION) {
            gp.counters_off = 1;
            snprintf(gp.counters_why, sizeof(gp.counters_why), "no permission to read counters");
            snprintf(cs->why, sizeof(cs->why), "no permission to read counters");
            gp_log_once(GP_LOG_ERROR, "perm", "%s", permission_advice);
        } else {
            gp_log_once(GP_LOG_ERROR, "ctx-unusable",
                        "device %d: %s; launches are counted, not "
                        "profiled",
                        cs->device, err);
        }
        return cs;
    }
    device_facts(cs->device, &cs->facts, chip);
    check_metric_names(chip);
    gp_rp_destroy(probe);
    if (gp.n_metrics == 0) {
        cs->unusable = 1;
        snprintf(cs->why, sizeof(cs->why), "no valid metric to collect");
        return cs;
    }
    cs->replay.ctx = ctx;
    if (gp.n_hw) {
        /* a batch holds up to three kernels per launch: SASS pass, L2 flush, launch */
        size_t max_ranges = gp.cfg.batch > 1 ? 3 * (size_t)gp.cfg.batch : 1;
        cs->replay.rp = gp_rp_create(ctx, cs->device, gp.hw_names, gp.n_hw, max_ranges, &errclass,
                                     err, sizeof(err));
        if (!cs->replay.rp) {
            cs->unusable = 1;
            snprintf(cs->why, sizeof(cs->why), "%s", err);
            gp_log_once(GP_LOG_ERROR, "ctx-config",
                        "device %d: %s; launches are counted, not "
                        "profiled",
                        cs->device, err);
            return cs;
        }
        /* auto range: the hardware bounds each pass at the kernel itself */
        gp_rp_set_auto_range(cs->replay.rp, 1);
        gp_rp_set_kernel_replay(cs->replay.rp, gp.cfg.replay_mode == GP_REPLAY_CUPTI);
        cs->batching = gp.cfg.batch > 1 && gp.cfg.replay_mode == GP_REPLAY_PROFILER &&
                       gp_rp_passes(cs->replay.rp, GP_RP_FULL) == 1;
    }
    if (gp.has_sass) {
        cs->sass_ok = gp_sass_setup(cs->device, cs->facts.chip, err, sizeof(err)) == 0;
        if (!cs->sass_ok) {
            snprintf(cs->sass_why, sizeof(cs->sass_why), "SASS pass unavailable: %s", err);
            gp_log_once(GP_LOG_WARN, "sass-setup",
                        "device %d: %s; the SASS metrics are left "
                        "empty",
                        cs->device, cs->sass_why);
        }
    }
    gp_info("device %d (%s, %s): %zu metrics, %zu hardware passes%s%s", cs->device, cs->facts.name,
            cs->facts.chip, gp.n_metrics,
            cs->replay.rp ? gp_rp_passes(cs->replay.rp, GP_RP_FULL) : 0,
            cs->sass_ok ? " + 1 SASS pass" : "",
            cs->batching ? "; counters decoded in batches of launches" : "");
    return cs;
}

void gp_core_context_destroying(CUcontext ctx)
{
    if (!gp.cuda_ready)
        return;
    pthread_rwlock_wrlock(&gp.launch_lock);
    pthread_mutex_lock(&gp.state_lock);
    ctx_state *cs;
    HASH_FIND(hh, gp.contexts, &ctx, sizeof(ctx), cs);
    if (cs && gp_rp_batch_is_open(cs->replay.rp)) { /* waiting launches get their counters */
        pthread_mutex_unlock(&gp.state_lock);
        t_in_profiler++;
        batch_close(cs);
        t_in_profiler--;
        pthread_mutex_lock(&gp.state_lock);
    }
    if (cs) {
        HASH_DEL(gp.contexts, cs);
        t_in_profiler++;
        if (cs->sass_ok)
            gp_sass_teardown(cs->device);
        gp_replay_ctx_free(&cs->replay);
        t_in_profiler--;
        free(cs);
    }
    kernel_entry *k, *tmp;
    HASH_ITER(hh, gp.kernels, k, tmp)
    {
        if (k->key.ctx == ctx) {
            HASH_DEL(gp.kernels, k);
            free(k);
        }
    }
    pthread_mutex_unlock(&gp.state_lock);
    pthread_rwlock_unlock(&gp.launch_lock);
}

/* ---- launches ------------------------------------------------------------ */

static void shared_lock(uint64_t *slot)
{
    if (t_api_depth++ == 0) {
        pthread_rwlock_rdlock(&gp.launch_lock);
        *slot = SLOT_SHARED;
    } else {
        *slot = SLOT_NONE;
    }
}

static void shared_unlock(uint64_t *slot)
{
    t_api_depth--;
    if (*slot == SLOT_SHARED)
        pthread_rwlock_unlock(&gp.launch_lock);
    *slot = SLOT_NONE;
}

void gp_core_api_enter(uint64_t *slot)
{
    *slot = SLOT_NONE;
    if (!gp.cuda_ready)
        return;
    shared_lock(slot);
}

void gp_core_api_exit(uint64_t *slot)
{
    if (*slot == SLOT_NONE && t_api_depth == 0)
        return;
    shared_unlock(slot);
}

void gp_core_count_internal_launch(void)
{
    atomic_fetch_add(&gp.summary.internal_launches, 1);
}

void gp_core_launch_unprofilable(const char *what, int is_graph)
{
    if (!gp.active)
        return;
    uint64_t id = atomic_fetch_add(&launch_seq, 1) + 1;
    const char *why = is_graph ? "graph launch: kernels inside CUDA graphs are not profiled"
                               : "a launch API gpuprof does not replay (legacy cuLaunch*)";
    pthread_mutex_lock(&gp.state_lock);
    gp.summary.launches_seen++;
    if (is_graph) {
        gp.summary.graph_launches++;
        gp.summary.graph_seen++;
    }
    gp_summary_skip(&gp.summary, is_graph ? "graph launch" : "launch API not replayed");
    pthread_mutex_unlock(&gp.state_lock);
    note_unprofiled(id, what, why);
    batch_close_all(); /* its kernels must not run inside a batch */
}

static void write_record(launch_state *ls, const gp_launch_event *ev, const double *values,
                         const char **missing)
{
    kernel_entry *k = ls->kernel;
    gp_launch_record r;
    memset(&r, 0, sizeof(r));
    r.launch_id = ls->launch_id;
    r.pid = (long)getpid();
    r.host = gp.host;
    r.process = program_invocation_short_name;
    r.rank = gp.cfg.rank;
    r.device = ls->cs->device;
    r.context = ev->ctx_id;
    r.stream = ls->stream_id;
    r.kernel = k->name->demangled;
    r.mangled = k->name->mangled;
    r.api = ev->api;
    for (int i = 0; i < 3; i++) {
        r.grid[i] = ev->exec.grid[i];
        r.block[i] = ev->exec.block[i];
        r.cluster[i] =
            ev->cluster[i] ? ev->cluster[i] : (k->req_cluster[i] ? k->req_cluster[i] : 1);
    }
    r.regs_per_thread = k->regs;
    r.static_smem = k->static_smem;
    r.dynamic_smem = ev->exec.smem;
    r.local_bytes_per_thread = k->local_bytes;
    r.passes = ls->rs.passes;
    r.snapshot = ls->rs.snapshot_failed ? "unavailable" : gp_snap_place_name(ls->rs.snapshot_place);
    r.bytes_saved = ls->rs.bytes_saved;
    r.bytes_restored = ls->rs.bytes_restored;
    r.replay_ms = ls->rs.ms;
    r.caches_flushed = ls->rs.flushed;
    r.n_metrics = gp.n_metrics;
    r.metric_names = gp.metric_names;
    r.metric_units = gp.metric_units;
    r.values = values;
    r.missing = missing;

    pthread_mutex_lock(&gp.out_lock);
    open_outputs();
    if (gp.json && !ls->cs->facts_written)
        gp_json_write_device(gp.json, &ls->cs->facts);
    ls->cs->facts_written = 1;
    if (gp.json) {
        gp_json_write_launch(gp.json, &r);
        fflush(gp.json);
    }
    if (gp.csv) {
        if (!gp.csv_header_done)
            gp_csv_write_header(gp.csv, &r);
        gp.csv_header_done = 1;
        gp_csv_write_launch(gp.csv, &r);
        fflush(gp.csv);
    }
    pthread_mutex_unlock(&gp.out_lock);
    gp_info("profiled %s (launch %llu, device %d): %d pass%s, %.1f ms", k->name->demangled,
            (unsigned long long)r.launch_id, r.device, r.passes, r.passes == 1 ? "" : "es",
            r.replay_ms);
}

static void abandon(launch_state *ls, const char *why)
{
    if (gp.counters_off) { /* one error has said so already: a reason like the later launches' */
        note_unprofiled(ls->launch_id, ls->kernel->name->demangled, gp.counters_why);
        pthread_mutex_lock(&gp.state_lock);
        gp_summary_skip(&gp.summary, gp.counters_why);
        pthread_mutex_unlock(&gp.state_lock);
        return;
    }
    gp_log_once(GP_LOG_WARN, ls->kernel->name->mangled, "kernel %s (launch %llu) not profiled: %s",
                ls->kernel->name->demangled, (unsigned long long)ls->launch_id, why);
    note_unprofiled(ls->launch_id, ls->kernel->name->demangled, why);
    pthread_mutex_lock(&gp.state_lock);
    gp.summary.failed++;
    pthread_mutex_unlock(&gp.state_lock);
}

/* The end of a profiled launch, once all its values are known (at its exit,
 * or when its batch is closed): the record, the summary.  hw_why: why the
 * hardware metrics are missing, NULL when they were collected. */
static void launch_finish(launch_state *ls, double *values, const char *hw_why)
{
    size_t nv = gp.n_metrics + 1;
    const char **missing = calloc(nv, sizeof(char *));
    if (!missing) {
        abandon(ls, "out of memory");
        return;
    }
    for (size_t i = 0; i < gp.n_metrics; i++) {
        if (!isnan(values[i]))
            continue;
        int sass = gp_metric_is_instrumented(gp.metric_names[i]);
        if (ls->rs.snapshot_failed)
            missing[i] = "not collected: no memory for a replay snapshot, one pass only";
        else if (sass && ls->rs.sass_dropped)
            missing[i] = "not collected: SASS metrics need GPUPROF_REPLAY=profiler";
        else if (sass && !ls->cs->sass_ok)
            missing[i] = ls->cs->sass_why;
        else if (sass && ls->sass_code_missing && gp_sass_needs_code(gp.metric_names[i]))
            missing[i] = "counted by opcode, and the kernel's machine code is not readable here "
                         "(its module holds no plain sm_90 code: the driver finalizes it at load)";
        else if (sass)
            missing[i] = "the kernel executed no instruction of this kind";
        else
            missing[i] = hw_why ? hw_why : "CUPTI returned no value for this launch";
    }
    write_record(ls, &ls->ev, values, missing);
    free(missing);
    pthread_mutex_lock(&gp.state_lock);
    gp.summary.launches_profiled++;
    gp.summary.passes += (uint64_t)ls->rs.passes;
    gp.summary.bytes_saved += ls->rs.bytes_saved;
    gp.summary.bytes_restored += ls->rs.bytes_restored;
    if (ls->rs.snapshot_failed)
        gp.summary.reduced++;
    pthread_mutex_unlock(&gp.state_lock);
}

/* Closes cs's open batch: stops the profiler, decodes every range, and
 * finishes the launches waiting for them.  The caller holds the exclusive
 * launch lock (or the process is single-threaded at exit) and no other lock.
 * When CUPTI recorded another number of ranges than gpuprof counted, the
 * ranges cannot be matched to launches: their hardware values are left out
 * and the context goes back to one launch at a time. */
static void batch_close(ctx_state *cs)
{
    gp_rp *rp = cs->replay.rp;
    if (!rp || !gp_rp_batch_is_open(rp))
        return;
    double t0 = gp_now_s();
    char err[256] = "", why[400] = "";
    size_t expected = 0, recorded = 0;
    int rc = gp_rp_batch_close(rp, &expected, &recorded, err, sizeof(err));
    atomic_fetch_sub(&gp.open_batches, 1);
    if (rc != 0) {
        snprintf(why, sizeof(why), "counters lost: %s", err);
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
        gp_log_once(GP_LOG_WARN, "batch-lost", "device %d: %s (%zu launches)", cs->device, why,
                    cs->n_pending);
    double *hw = malloc((gp.n_hw ? gp.n_hw : 1) * sizeof(double));
    size_t n = 0;
    launch_state *ls, *next;
    for (ls = cs->pending; ls; ls = next, n++) {
        next = ls->next;
        const char *hw_why = why[0] ? why : NULL;
        char e2[256];
        if (!hw_why && hw && gp_rp_batch_values(rp, ls->rs.batch_range, hw, e2, sizeof(e2)) == 0) {
            for (size_t k = 0; k < gp.n_hw; k++)
                ls->values[gp.hw_index[k]] = hw[k];
        } else if (!hw_why) {
            hw_why = "counters lost: the range could not be evaluated";
        }
        if (gp_log_enabled(GP_LOG_DEBUG)) {
            const char *rn = gp_rp_range_name(rp, ls->rs.batch_range);
            gp_debug("batch: launch %llu %s is range %zu (%s)", (unsigned long long)ls->launch_id,
                     ls->kernel->name->demangled, ls->rs.batch_range, rn ? rn : "?");
        }
        launch_finish(ls, ls->values, hw_why);
        if (!ls->graph_node) {
            pthread_mutex_lock(&gp.state_lock);
            gp_summary_profiled(&gp.summary, ls->ev.correlation, ls->kernel->name->mangled,
                                ls->values[metric_index("gpu__time_duration.sum")], 1);
            pthread_mutex_unlock(&gp.state_lock);
        }
        free(ls->values);
        free(ls);
    }
    free(hw);
    cs->pending = NULL;
    cs->pending_tail = &cs->pending;
    cs->n_pending = 0;
    double dt = gp_now_s() - t0;
    gp_debug("batch closed: %zu launches, %zu ranges counted, %zu recorded, %.1f ms (stop, "
             "decode, records)",
             n, expected, recorded, dt * 1e3);
    pthread_mutex_lock(&gp.state_lock);
    gp.summary.profiler_s += dt;
    pthread_mutex_unlock(&gp.state_lock);
}

/* Closes ctx's batch before a kernel gpuprof does not count may run there.
 * Only when some batch is open (one atomic load otherwise); nested calls,
 * which already hold the shared lock, cannot, and leave it to the count
 * check. */
static void batch_close_for(CUcontext ctx)
{
    if (atomic_load_explicit(&gp.open_batches, memory_order_relaxed) == 0 || t_api_depth > 0)
        return;
    pthread_rwlock_wrlock(&gp.launch_lock);
    pthread_mutex_lock(&gp.state_lock);
    ctx_state *cs = NULL;
    if (ctx)
        HASH_FIND(hh, gp.contexts, &ctx, sizeof(ctx), cs);
    pthread_mutex_unlock(&gp.state_lock);
    if (cs) {
        t_in_profiler++;
        batch_close(cs);
        t_in_profiler--;
    }
    pthread_rwlock_unlock(&gp.launch_lock);
}

/* All contexts' batches (before a graph launch, and at exit).  Waits at most
 * 10 s for the exclusive lock: at exit another thread may still be inside a
 * CUDA call; its batch's records are then lost, which is said. */
static void batch_close_all(void)
{
    if (atomic_load(&gp.open_batches) == 0 || t_api_depth > 0)
        return;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    if (pthread_rwlock_timedwrlock(&gp.launch_lock, &until) != 0) {
        gp_warn("the profiled launches of an open batch get no hardware counters: another thread "
                "kept CUDA busy for 10 s");
        return;
    }
    ctx_state *cs, *tmp;
    t_in_profiler++;
    HASH_ITER(hh, gp.contexts, cs, tmp) batch_close(cs);
    t_in_profiler--;
    pthread_rwlock_unlock(&gp.launch_lock);
}

/* The tracked memory of ctx (malloc'd, sorted; arrays last), or NULL when
 * out of memory.  Allocations may come and go meanwhile: retries. */
static gp_range *collect_ranges(CUcontext ctx, size_t *n, uint64_t *total)
{
    size_t cap = 64;
    for (;;) {
        gp_range *r = malloc(cap * sizeof(gp_range));
        if (!r)
            return NULL;
        *n = gp_alloc_collect(gp.allocs, (uint64_t)(uintptr_t)ctx, r, cap, total);
        if (*n <= cap)
            return r;
        free(r);
        cap = *n + 16;
    }
}

/* Where a snapshot may go (GPUPROF_SNAPSHOT, GPUPROF_SNAPSHOT_RESERVE_MB). */
static void snapshot_policy(gp_replay_opts *o)
{
    o->allow_device =
        gp.cfg.snapshot_where == GP_SNAP_AUTO || gp.cfg.snapshot_where == GP_SNAP_DEVICE;
    o->allow_host = gp.cfg.snapshot_where == GP_SNAP_AUTO || gp.cfg.snapshot_where == GP_SNAP_HOST;
    o->reserve_bytes = (uint64_t)gp.cfg.reserve_mb << 20;
}

/* The profiled part of a launch.  The caller holds the exclusive lock, has
 * raised t_api_depth and t_in_profiler, and has paused the activity records.
 * Returns the launch's state, its last pass open around the launch that
 * follows; or NULL when the launch is not profiled (the reason is noted and
 * memory is as it was). */
static launch_state *profile_enter(const gp_launch_event *ev, kernel_entry *k, uint64_t id)
{
    double t0 = gp_now_s();
    launch_state *ls = calloc(1, sizeof(*ls));
    int captured = 0;
    const char *why = NULL;
    char whybuf[700];
    if (!ls) {
        why = "out of memory";
        goto not_profiled;
    }
    ls->kernel = k;
    ls->launch_id = id;
    CUstreamCaptureStatus cap = CU_STREAM_CAPTURE_STATUS_NONE;
    CUresult cr = gp_drv.cuStreamIsCapturing(ev->exec.stream, &cap);
    if (cr != CUDA_SUCCESS) {
        /* after a fault the context is gone and every call fails: that is
         * a failure to report as such, not a capture */
        snprintf(whybuf, sizeof(whybuf), "the stream cannot be queried (%s)",
                 gp_driver_strerror(cr));
        why = whybuf;
        goto not_profiled;
    }
    if (cap != CU_STREAM_CAPTURE_STATUS_NONE) {
        why = "launched during stream capture (it runs, and is profiled, when its graph does)";
        captured = 1;
        goto not_profiled;
    }
    CUresult sr = gp_drv.cuCtxSynchronize();
    if (sr != CUDA_SUCCESS) {
        snprintf(whybuf, sizeof(whybuf), "the context cannot be synchronized (%s)",
                 gp_driver_strerror(sr));
        why = whybuf;
        goto not_profiled;
    }
    pthread_mutex_lock(&gp.state_lock);
    ls->cs = context_get(ev->ctx);
    pthread_mutex_unlock(&gp.state_lock);
    if (!ls->cs || ls->cs->unusable) {
        snprintf(whybuf, sizeof(whybuf), "counters unavailable: %s",
                 ls->cs ? ls->cs->why : "out of memory");
        why = whybuf;
        goto not_profiled;
    }
    kernel_attrs(k);
    pthread_mutex_lock(&gp.state_lock);
    resolve_globals(k->module, ev->ctx);
    pthread_mutex_unlock(&gp.state_lock);

    size_t n;
    uint64_t total = 0;
    if (!(ls->ranges = collect_ranges(ev->ctx, &n, &total))) {
        why = "out of memory";
        goto not_profiled;
    }
    ls->opts.flush_caches = gp.cfg.flush_caches;
    ls->opts.l2_bytes = (uint64_t)ls->cs->facts.l2_bytes;
    snapshot_policy(&ls->opts);
    snprintf(ls->range_name, sizeof(ls->range_name), "launch%llu", (unsigned long long)id);
    ls->opts.range_name = ls->range_name;
    ls->opts.cupti_replay = gp.cfg.replay_mode == GP_REPLAY_CUPTI;
    ls->opts.want_sass = gp.has_sass && ls->cs->sass_ok;
    ls->opts.batch = ls->cs->batching;
    gp_rp *rp = ls->cs->replay.rp;
    /* room for this launch's kernels (SASS pass, flush, launch), or close.
     * A kernel's first profiled launch closes it too: a kernel that faults
     * does so on its first run as a rule, and a fault takes the context, and
     * with it the counters of the open batch, away. */
    if (gp_rp_batch_is_open(rp) &&
        (!ls->cs->batching || gp_rp_batch_room(rp) < 3 || k->name->profiled == 1))
        batch_close(ls->cs);
    int was_open = gp_rp_batch_is_open(rp);
    int er = gp_replay_enter(&ls->cs->replay, &ev->exec, ls->ranges, n, total, &ls->opts, &ls->rs);
    if (!was_open && gp_rp_batch_is_open(rp))
        atomic_fetch_add(&gp.open_batches, 1);
    if (er != 0) {
        snprintf(whybuf, sizeof(whybuf), "%s", ls->rs.why);
        why = whybuf;
        goto not_profiled;
    }
    if (ls->rs.snapshot_failed)
        gp_log_once(GP_LOG_WARN, "snapshot", "%s (first seen at launch %llu of %s)", ls->rs.why,
                    (unsigned long long)id, k->name->demangled);
    pthread_mutex_lock(&gp.state_lock);
    gp.summary.profiler_s += gp_now_s() - t0;
    pthread_mutex_unlock(&gp.state_lock);
    return ls;

not_profiled:
    if (ls && ls->cs) {
        gp_snapshot_free(&ls->cs->replay.snap);
        batch_close(ls->cs); /* the program's launch is not counted in it */
    }
    if (captured) { /* not a failure: the kernel does not execute now */
        note_unprofiled(id, k->name->demangled, why);
        pthread_mutex_lock(&gp.state_lock);
        gp_summary_skip(&gp.summary, "stream capture");
        pthread_mutex_unlock(&gp.state_lock);
    } else if (ls && ls->kernel) {
        abandon(ls, why);
    } else {
        note_unprofiled(id, k->name->demangled, why);
    }
    if (ls)
        free(ls->ranges);
    free(ls);
    pthread_mutex_lock(&gp.state_lock);
    gp.summary.profiler_s += gp_now_s() - t0;
    pthread_mutex_unlock(&gp.state_lock);
    return NULL;
}

void gp_core_launch_enter(const gp_launch_event *ev, uint64_t *slot)
{
    *slot = SLOT_NONE;
    if (!gp.cuda_ready)
        return;
    uint64_t id = atomic_fetch_add(&launch_seq, 1) + 1;
    int decision;
    const char *reason = NULL;
    int capture = gp_ranges_decide(&gp.cfg);

    pthread_mutex_lock(&gp.state_lock);
    gp.summary.launches_seen++;
    kernel_entry *k = kernel_lookup(ev);
    if (!k) {
        reason = "out of memory for the kernel table";
        decision = -1;
    } else if (!gp.cfg.enabled) {
        reason = "profiling disabled (GPUPROF_ENABLE=0)";
        decision = -1;
    } else if (t_api_depth > 0) {
        reason = "launched from inside another CUDA call";
        decision = -1;
    } else {
        decision = gp_filter_decide(&gp.cfg, &gp.filter, k->name->name_matches, capture,
                                    &k->name->profiled);
        if (decision == GP_PROFILE && gp.counters_off) {
            reason = gp.counters_why;
            decision = -1;
        }
    }
    if (decision != GP_PROFILE)
        gp_summary_skip(&gp.summary, decision >= 0 ? gp_decision_name(decision) : reason);
    if (k && gp.cfg.crosscheck) /* only the cross-check needs each launch's id */
        gp_summary_kernel_seen(&gp.summary, ev->correlation, k->name->demangled,
                               decision == GP_PROFILE);
    pthread_mutex_unlock(&gp.state_lock);

    if (decision != GP_PROFILE) {
        if (decision < 0 && k)
            note_unprofiled(id, k->name->demangled, reason);
        batch_close_for(ev->ctx); /* this kernel must not run inside a batch */
        shared_lock(slot);
        return;
    }

    /* A profiled launch: nothing else may run or change memory meanwhile.
     * Kernel activity records are paused: on Hopper CUPTI takes their
     * timestamps by instrumenting the kernel (8 instructions per warp and a
     * 32-byte store), which would be counted in the pass. */
    pthread_rwlock_wrlock(&gp.launch_lock);
    t_api_depth++;
    t_in_profiler++;
    gp_callbacks_tracing(0);
    launch_state *ls = profile_enter(ev, k, id);
    t_in_profiler--;
    if (ls) {
        *slot = (uint64_t)(uintptr_t)ls;
        return;
    }
    gp_callbacks_tracing(1);
    t_api_depth--;
    pthread_rwlock_unlock(&gp.launch_lock);
    shared_lock(slot);
}

/* The end of a profiled launch: closes the pass, writes the record (or
 * queues the launch on its batch).  Same conditions as profile_enter(). */
static void profile_exit(launch_state *ls, const gp_launch_event *ev, CUresult status)
{
    double t0 = gp_now_s();
    ls->ev = *ev;
    ls->ev.exec.params = NULL;
    ls->ev.exec.extra = NULL;
    ls->ev.exec.config = NULL;
    ls->stream_id = gp_cupti_stream_id(ev->ctx, ev->exec.stream, ev->per_thread_stream);
    size_t nv = gp.n_metrics + 1; /* the last slot stays NaN (metric_index) */
    double *values = malloc(nv * sizeof(double));
    double *hw_values = malloc((gp.n_hw ? gp.n_hw : 1) * sizeof(double));
    int ok = values && hw_values &&
             gp_replay_exit(&ls->cs->replay, &ev->exec, status, &ls->opts, &ls->rs, hw_values) == 0;
    if (values)
        for (size_t i = 0; i < nv; i++)
            values[i] = NAN;
    int pending = 0;
    if (ok) {
        for (size_t k = 0; k < gp.n_hw && ls->cs->replay.rp && !ls->rs.batched; k++)
            values[gp.hw_index[k]] =
                ls->rs.set == GP_RP_ONE_PASS && !gp_rp_set_has(ls->cs->replay.rp, GP_RP_ONE_PASS, k)
                    ? NAN
                    : hw_values[k];
        if (ls->rs.sass) {
            ls->sass_code_missing = gp_sass_derive(ls->rs.sass, ls->rs.n_sass, code_lookup, NULL,
                                                   gp.metric_names, gp.n_metrics, values);
            sass_dump(ls);
        }
        if (ls->rs.batched) { /* the hardware values come when the batch closes */
            ls->values = values;
            values = NULL;
            ls->next = NULL;
            *ls->cs->pending_tail = ls;
            ls->cs->pending_tail = &ls->next;
            ls->cs->n_pending++;
            pending = 1;
        } else {
            launch_finish(ls, values, NULL);
        }
    } else {
        abandon(ls, ls->rs.why[0] ? ls->rs.why : "out of memory");
    }
    /* the snapshot's memory goes back to the program between launches */
    double tfree = gp_now_s();
    gp_snapshot_free(&ls->cs->replay.snap);
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
        pthread_mutex_lock(&gp.state_lock);
        /* no activity record exists for this launch: account for it here */
        gp_summary_profiled(&gp.summary, ev->correlation, ls->kernel->name->mangled,
                            ok ? values[metric_index("gpu__time_duration.sum")] : NAN,
                            status == CUDA_SUCCESS);
        pthread_mutex_unlock(&gp.state_lock);
    }
    gp_sass_records_free(ls->rs.sass, ls->rs.n_sass);
    ls->rs.sass = NULL;
    ls->rs.n_sass = 0;
    free(values);
    free(hw_values);
    pthread_mutex_lock(&gp.state_lock);
    gp.summary.profiler_s += gp_now_s() - t0;
    pthread_mutex_unlock(&gp.state_lock);
    free(ls->ranges);
    ls->ranges = NULL;
    if (!pending)
        free(ls);
}

void gp_core_launch_exit(const gp_launch_event *ev, CUresult status, uint64_t *slot)
{
    if (*slot == SLOT_NONE) {
        if (t_api_depth > 0 && gp.cuda_ready)
            t_api_depth--; /* nested call: enter took no lock */
        return;
    }
    if (*slot == SLOT_SHARED) {
        shared_unlock(slot);
        return;
    }
    launch_state *ls = (launch_state *)(uintptr_t)*slot;
    *slot = SLOT_NONE;
    t_in_profiler++;
    profile_exit(ls, ev, status);
    gp_callbacks_tracing(1);
    t_in_profiler--;
    t_api_depth--;
    pthread_rwlock_unlock(&gp.launch_lock);
}

/* ---- graphs --------------------------------------------------------------- */

typedef struct graph_entry {
    CUgraphExec exec;
    gp_graph_plan *plan;
    UT_hash_handle hh;
} graph_entry;

void gp_core_graph_instantiated(CUgraphExec exec, CUgraph graph)
{
    if (!gp.cuda_ready || !exec || !graph)
        return;
    t_in_profiler++;
    gp_graph_plan *plan = gp_graph_plan_build(graph);
    t_in_profiler--;
    if (!plan)
        return;
    pthread_mutex_lock(&gp.state_lock);
    graph_entry *g;
    HASH_FIND(hh, gp.graphs, &exec, sizeof(exec), g);
    if (!g && (g = calloc(1, sizeof(*g)))) {
        g->exec = exec;
        gp_uthash_oom = 0;
        HASH_ADD(hh, gp.graphs, exec, sizeof(g->exec), g);
        if (gp_uthash_oom) {
            free(g);
            g = NULL;
        }
    }
    if (g) {
        gp_graph_plan_free(g->plan);
        g->plan = plan;
    } else {
        gp_graph_plan_free(plan);
    }
    pthread_mutex_unlock(&gp.state_lock);
}

void gp_core_graph_forget(CUgraphExec exec)
{
    if (!gp.cuda_ready)
        return;
    pthread_mutex_lock(&gp.state_lock);
    graph_entry *g;
    HASH_FIND(hh, gp.graphs, &exec, sizeof(exec), g);
    if (g) {
        HASH_DEL(gp.graphs, g);
        gp_graph_plan_free(g->plan);
        free(g);
    }
    pthread_mutex_unlock(&gp.state_lock);
}

void gp_core_graph_changed(CUgraphExec exec, const char *api)
{
    if (!gp.cuda_ready)
        return;
    pthread_mutex_lock(&gp.state_lock);
    graph_entry *g;
    HASH_FIND(hh, gp.graphs, &exec, sizeof(exec), g);
    if (g && g->plan && !g->plan->why[0])
        snprintf(g->plan->why, sizeof(g->plan->why),
                 "the executable graph was changed after instantiation (%s)", api);
    pthread_mutex_unlock(&gp.state_lock);
}

/* A graph launch gpuprof cannot run step by step: counted as one launch. */
static void graph_not_profiled(const char *why)
{
    uint64_t id = atomic_fetch_add(&launch_seq, 1) + 1;
    char reason[300];
    snprintf(reason, sizeof(reason), "graph launch: %s", why);
    pthread_mutex_lock(&gp.state_lock);
    gp.summary.launches_seen++;
    gp.summary.graph_launches++;
    gp.summary.graph_seen++;
    gp_summary_skip(&gp.summary, "graph launch");
    pthread_mutex_unlock(&gp.state_lock);
    gp_log_once(GP_LOG_INFO, "graph-not-profiled", "kernels of a graph not profiled: %s", why);
    note_unprofiled(id, "(graph)", reason);
    batch_close_all(); /* its kernels must not run inside a batch */
}

/* Runs plan's steps in order (chosen kernels profiled) between a save and a
 * restore of the context's memory.  Caller holds the exclusive lock, with
 * t_api_depth and t_in_profiler raised and activity records paused.
 * Returns NULL, or why the steps stopped. */
static const char *graph_emulate(const gp_graph_plan *plan, gp_launch_event *evs,
                                 kernel_entry **ks, const uint64_t *ids, const int *chosen,
                                 CUstream stream, CUcontext ctx, char *buf, size_t len)
{
    CUstreamCaptureStatus cap = CU_STREAM_CAPTURE_STATUS_NONE;
    if (gp_drv.cuStreamIsCapturing(stream, &cap) != CUDA_SUCCESS)
        return "the stream cannot be queried (an earlier fault?)";
    if (cap != CU_STREAM_CAPTURE_STATUS_NONE)
        return "the graph is launched into a stream capture";
    if (gp_drv.cuCtxSynchronize() != CUDA_SUCCESS)
        return "the context cannot be synchronized";
    pthread_mutex_lock(&gp.state_lock);
    ctx_state *cs = context_get(ctx);
    pthread_mutex_unlock(&gp.state_lock);
    if (!cs || cs->unusable)
        return cs ? cs->why : "out of memory";
    size_t n;
    uint64_t total = 0;
    gp_range *ranges = collect_ranges(ctx, &n, &total);
    if (!ranges)
        return "out of memory";
    gp_replay_opts so;
    snapshot_policy(&so);
    char err[300];
    if (gp_snapshot_save(&cs->graph_snap, ranges, n, total, so.allow_device, so.allow_host,
                         so.reserve_bytes, err, sizeof(err)) != 0) {
        snprintf(buf, len, "no room to save memory around the graph's steps: %s", err);
        free(ranges);
        return buf;
    }
    const char *stop = NULL;
    for (size_t i = 0; i < plan->n && !stop; i++) {
        const gp_graph_step *st = &plan->steps[i];
        CUresult r;
        if (st->kind == GP_STEP_KERNEL && chosen[i]) {
            launch_state *ls = profile_enter(&evs[i], ks[i], ids[i]);
            r = gp_launch_exec_run(&evs[i].exec);
            if (ls) {
                ls->graph_node = 1;
                profile_exit(ls, &evs[i], r);
            }
            if (r == CUDA_SUCCESS)
                r = gp_drv.cuCtxSynchronize();
        } else {
            batch_close(cs); /* a kernel gpuprof does not count must not run in a batch */
            r = st->kind == GP_STEP_KERNEL ? gp_launch_exec_run(&evs[i].exec)
                                           : gp_graph_step_run_transfer(st);
            if (r == CUDA_SUCCESS)
                r = gp_drv.cuCtxSynchronize();
        }
        if (r != CUDA_SUCCESS) {
            snprintf(buf, len, "step %zu of %zu failed: %s", i + 1, plan->n,
                     gp_driver_strerror(r));
            stop = buf;
        }
    }
    batch_close(cs); /* the graph's own kernels follow */
    if (gp_snapshot_restore(&cs->graph_snap, err, sizeof(err)) != 0) {
        gp_error("restoring memory after a graph's steps failed: %s", err);
        if (!stop) {
            snprintf(buf, len, "restoring memory failed: %s", err);
            stop = buf;
        }
    }
    gp_snapshot_free(&cs->graph_snap);
    free(ranges);
    return stop;
}

void gp_core_graph_launch(CUgraphExec exec, CUstream stream, CUcontext ctx, uint32_t ctx_id)
{
    if (!gp.active)
        return;
    if (!gp.cuda_ready) {
        graph_not_profiled("CUDA was not ready");
        return;
    }
    int capture = gp_ranges_decide(&gp.cfg);
    pthread_mutex_lock(&gp.state_lock);
    graph_entry *g;
    HASH_FIND(hh, gp.graphs, &exec, sizeof(exec), g);
    const gp_graph_plan *plan = g ? g->plan : NULL;
    const char *why = !plan                 ? "instantiated where gpuprof could not read it"
                      : plan->why[0]        ? plan->why
                      : !plan->kernels      ? "it holds no kernel"
                      : !gp.cfg.enabled     ? "profiling disabled (GPUPROF_ENABLE=0)"
                      : t_api_depth > 0     ? "launched from inside another CUDA call"
                      : gp.counters_off     ? gp.counters_why
                                            : NULL;
    char whycopy[600];
    if (why) {
        snprintf(whycopy, sizeof(whycopy), "%s", why);
        pthread_mutex_unlock(&gp.state_lock);
        graph_not_profiled(whycopy);
        return;
    }
    size_t n = plan->n;
    gp_launch_event *evs = calloc(n, sizeof(*evs));
    kernel_entry **ks = calloc(n, sizeof(*ks));
    uint64_t *ids = calloc(n, sizeof(*ids));
    int *chosen = calloc(n, sizeof(*chosen));
    int any = 0;
    gp.summary.graph_launches++;
    for (size_t i = 0; evs && ks && ids && chosen && i < n; i++) {
        const gp_graph_step *st = &plan->steps[i];
        if (st->kind != GP_STEP_KERNEL)
            continue;
        gp_launch_event *ev = &evs[i];
        ev->ctx = ctx;
        ev->ctx_id = ctx_id;
        ev->symbol = st->symbol;
        ev->api = "cuGraphLaunch";
        ev->exec = st->exec;
        ev->exec.stream = stream;
        ids[i] = atomic_fetch_add(&launch_seq, 1) + 1;
        gp.summary.launches_seen++;
        gp.summary.graph_seen++;
        ks[i] = kernel_lookup(ev);
        int decision = ks[i] ? gp_filter_decide(&gp.cfg, &gp.filter, ks[i]->name->name_matches,
                                                capture, &ks[i]->name->profiled)
                             : -1;
        chosen[i] = decision == GP_PROFILE;
        any |= chosen[i];
        if (!chosen[i])
            gp_summary_skip(&gp.summary, decision >= 0 ? gp_decision_name(decision)
                                                       : "out of memory for the kernel table");
    }
    pthread_mutex_unlock(&gp.state_lock);
    if (any) {
        pthread_rwlock_wrlock(&gp.launch_lock);
        t_api_depth++;
        t_in_profiler++;
        gp_callbacks_tracing(0);
        double t0 = gp_now_s();
        char buf[400];
        const char *stop =
            graph_emulate(plan, evs, ks, ids, chosen, stream, ctx, buf, sizeof(buf));
        if (stop)
            gp_log_once(GP_LOG_WARN, "graph-steps", "the kernels of a graph were not all "
                        "profiled: %s (first seen at launch %llu)", stop,
                        (unsigned long long)(ids[0] ? ids[0] : 0));
        gp_callbacks_tracing(1);
        t_in_profiler--;
        t_api_depth--;
        pthread_mutex_lock(&gp.state_lock);
        gp.summary.profiler_s += gp_now_s() - t0;
        pthread_mutex_unlock(&gp.state_lock);
        pthread_rwlock_unlock(&gp.launch_lock);
    } else {
        batch_close_for(ctx); /* the graph's kernels must not run inside a batch */
    }
    free(evs);
    free(ks);
    free(ids);
    free(chosen);
}

/* ---- memory ----------------------------------------------------------------- */

void gp_core_mem_alloc(uint64_t base, uint64_t size, int kind, CUcontext ctx)
{
    if (!gp.active || !base)
        return;
    if (gp_alloc_add(gp.allocs, base, size, kind, (uint64_t)(uintptr_t)ctx) != 0)
        gp_log_once(GP_LOG_WARN, "alloc-oom",
                    "out of memory tracking an allocation; replays may not restore it");
}

void gp_core_array_alloc(uint64_t handle, uint64_t row_bytes, uint64_t rows, uint64_t layers,
                         CUcontext ctx)
{
    if (!gp.active || !handle)
        return;
    if (gp_alloc_add_array(gp.allocs, handle, row_bytes, rows, layers, (uint64_t)(uintptr_t)ctx) !=
        0)
        gp_log_once(GP_LOG_WARN, "alloc-oom",
                    "out of memory tracking an allocation; replays may not restore it");
}

void gp_core_array_free(uint64_t handle)
{
    if (gp.active && handle)
        gp_alloc_remove_array(gp.allocs, handle);
}

void gp_core_mem_free(uint64_t base)
{
    if (gp.active && base)
        gp_alloc_remove(gp.allocs, base);
}

void gp_core_mem_write(uint64_t dst, uint64_t bytes)
{
    if (gp.active && dst)
        gp_alloc_note_host_write(gp.allocs, dst, bytes);
}

void gp_core_memop_seen(int kind)
{
    if (!gp.active)
        return;
    atomic_fetch_add(&gp.summary.memops[kind & 3], 1);
}

void gp_core_activity_kernels(const gp_activity_kernel *k, size_t n)
{
    if (!gp.active || n == 0)
        return;
    pthread_mutex_lock(&gp.state_lock);
    for (size_t i = 0; i < n; i++)
        gp_summary_activity(&gp.summary, k[i].correlation,
                            k[i].end_ns > k[i].start_ns ? k[i].end_ns - k[i].start_ns : 0,
                            k[i].name, k[i].in_graph);
    pthread_mutex_unlock(&gp.state_lock);
}
