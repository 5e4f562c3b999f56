/* core_state.h - the policy's private state, shared by the modules that
 * implement core.h (start.c, metric_set.c, kernels.c, contexts.c,
 * serialize.c, launch.c, profile.c, graphs.c, finish.c, memory.c) and by
 * the subsystems on the launch path's list (launch_hooks.h: crosscheck.c,
 * variants_hooks.c, batch.c, sampling.c).
 * Nothing outside preload/ includes it.
 *
 * Locking (order: launch_lock, then state_lock, then the allocation table's
 * own mutex; out_lock alone).
 * - launch_lock, a writer-preferring rwlock (serialize.c): every tracked API
 *   call of the program (launch, allocation, copy, memset, graph launch)
 *   holds it shared from its enter to its exit callback; a profiled launch
 *   holds it exclusively, so that while its passes run and its memory is
 *   saved and restored no other thread enqueues work or changes memory.
 *   Launches that are not profiled only pay for an uncontended shared lock.
 *   What is only touched under the exclusive lock: each context's collection
 *   state, its pending launches, kernel attributes, the modules table.
 * - state_lock, a mutex held for short moments: the kernel, name, module,
 *   context, code, graph and globals tables, the filter state and the
 *   summary (except its atomic fields).
 * - out_lock: the output files. */
#ifndef GP_CORE_STATE_H
#define GP_CORE_STATE_H

#include <cuda.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "preload/config.h"
#include "preload/core.h"
#include "preload/cubin.h"
#include "preload/filter.h"
#include "preload/record.h"
#include "preload/source_table.h"
#include "preload/summary.h"
#include "replay/collect.h"
#include "util/gp_uthash.h"
#include "util/safefile.h"
#include "util/strindex.h"

/* ---- tables ---------------------------------------------------------------- */

typedef struct gp_kernel_name { /* per mangled name */
    char *mangled;
    char *demangled;
    int name_matches;  /* the include/exclude filters, decided once */
    int communication; /* never replayed (gp_filter_is_communication) */
    uint64_t profiled;
    UT_hash_handle hh;
} gp_kernel_name;

typedef struct gp_kernel_key {
    CUfunction f;
    CUcontext ctx;
} gp_kernel_key;

typedef struct gp_kernel { /* per (handle, context) */
    gp_kernel_key key;
    gp_kernel_name *name;
    int attrs_done;
    gp_kernel_attrs attrs; /* read at the first profiled launch */
    int failures;
    UT_hash_handle hh;
} gp_kernel;

typedef struct gp_module { /* a loaded module whose globals were resolved */
    CUmodule module;
    unsigned globals_gen; /* cubin generation its globals were resolved at */
    UT_hash_handle hh;
} gp_module;

typedef struct gp_code { /* a kernel's machine code, for opcode lookups */
    char *name;
    uint8_t *code;
    size_t size;
    UT_hash_handle hh;
} gp_code;

struct gp_launch_state;

typedef struct gp_context { /* per CUDA context, from its first profiled launch */
    CUcontext ctx;
    int device;
    int unusable; /* counters cannot be read in this context */
    char why[600];
    gp_collect_ctx *col; /* NULL when unusable */
    gp_device_facts facts;
    int facts_written;
    int sass_ok; /* the SASS pass can run here */
    char sass_why[300];
    int batching; /* counters of one-pass sets are decoded in batches */
    int batch_single; /* CUPTI could not decode a batch: one launch per batch from now on */
    struct gp_variants *variants;                    /* replay mode none (variants.h), else NULL */
    struct gp_launch_state *pending, **pending_tail; /* launches waiting for the open batch */
    size_t n_pending;
    UT_hash_handle hh;
} gp_context;

typedef struct gp_launch_state { /* a profiled launch between enter and exit */
    gp_kernel *kernel;
    gp_context *cs;
    gp_replay_state rs;
    gp_replay_opts opts;
    uint64_t launch_id;
    char range_name[32];
    /* kept after exit while the launch waits for its batch's counters */
    gp_launch_event ev; /* params/extra are not valid then */
    uint64_t stream_id;
    double *values;        /* n_metrics + 1; the SASS-derived ones filled */
    int graph_node;        /* a kernel of a graph, run by gpuprof before the graph */
    int sass_code_missing; /* FP counts by opcode impossible: no machine code */
    int have_snap;         /* the incremental snapshot ran: snap holds its work */
    int sample_program;    /* stall sampling may take the program's own launch */
    gp_snapshot_stats snap;
    struct gp_variant *variant; /* replay mode none: its variant (variants.h), or NULL */
    uint64_t variant_ordinal;   /* the launch's ordinal in its variant */
    int rot_config;             /* the configuration it collects; GP_EST_ALL (-1): every one */
    struct gp_launch_state *next;
} gp_launch_state;

struct gp_graph;

/* ---- the state ------------------------------------------------------------- */

typedef struct gp_core_state {
    gp_config cfg;
    int active; /* configuration valid, driver loaded */
    int cuda_ready;
    int counters_off; /* counters unreadable for the whole process */
    int n_config_errors;
    char config_errors[2048];
    int profiler_started;
    char counters_why[512];
    gp_core_boundary boundary; /* what the CUPTI boundary provides */
    long xc_left;   /* launches the cross-check still takes (-1: all); state_lock */
    int xc_closing; /* its window is full: activity records to be stopped; state_lock */
    pthread_rwlock_t launch_lock;
    pthread_mutex_t state_lock;
    pthread_mutex_t out_lock;
    gp_alloc_table *allocs;
    gp_kernel_name *names;
    gp_kernel *kernels;
    struct gp_graph *graphs; /* plans of instantiated graphs, by executable graph */
    gp_module *modules;
    gp_context *contexts;
    gp_filter_state filter;
    atomic_int open_batches; /* contexts whose range profiler is started */
    atomic_uint_fast64_t launch_seq;
    /* metrics (metric_set.c); set.names/n_hw final once checked */
    const char **metric_names;
    const char **metric_units;
    size_t n_metrics;
    int metrics_checked;
    int has_sass;     /* the set holds SASS-instrumented metrics */
    size_t *hw_index; /* positions of the hardware metrics in metric_names */
    size_t n_hw;
    gp_collect_set set; /* the same, as the collecting side reads it */
    gp_code *code;      /* machine code of every loaded kernel, by name */
    /* globals of loaded modules (names from every cubin) */
    gp_cubin_global *globals;
    int n_globals, cap_globals;
    gp_strindex *globals_index; /* positions in globals by name */
    unsigned globals_gen;
    /* output (finish.c): created under temporary names and renamed into
     * place at once (never through a planted link, never truncating a file
     * in place) */
    FILE *csv, *json;
    gp_safefile csv_file, json_file;
    int outputs_opened, csv_header_done;
    char out_base[1100];
    char host[256];
    gp_summary summary;
    double init_s;
    gp_src_table *src;        /* instruction-level data (source_table.h); state_lock */
    uint64_t devices_written; /* device records written, bit per ordinal below 64; out_lock */
} gp_core_state;

extern gp_core_state gp_core;

/* The profiler's own driver calls on this thread (the callbacks ignore them). */
extern __thread int gp_t_in_profiler;
/* Tracked API calls nested on this thread (only the outermost takes a lock). */
extern __thread int gp_t_api_depth;

#endif
