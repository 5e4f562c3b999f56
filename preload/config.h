/* config.h - every GPUPROF_* environment variable, read once at start-up into
 * one struct with its defaults in one place.  docs/user-guide.md lists them. */
#ifndef GP_CONFIG_H
#define GP_CONFIG_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "replay/cache_control.h"

enum gp_name_base { GP_NAME_FUNCTION, GP_NAME_DEMANGLED, GP_NAME_MANGLED };
enum gp_snapshot_where { GP_SNAP_AUTO, GP_SNAP_DEVICE, GP_SNAP_HOST, GP_SNAP_NONE };
enum gp_replay_mode { GP_REPLAY_PROFILER, GP_REPLAY_CUPTI, GP_REPLAY_NONE };
enum gp_inject { GP_INJECT_NONE, GP_INJECT_NO_PERMISSION };
/* GPUPROF_SASS_EFFICIENCY: where the default set's instrumented metrics come
 * from: CUPTI's instrumented pass (Nsight Compute's values by
 * construction); gpuprof's SASS pass for the sums it counts exactly, with
 * Nsight Compute's three memory efficiencies withheld (the hardware metrics
 * then fit one pass, batched); CUPTI's, with the SASS pass's own derivation
 * of each recorded beside it (a cross-check) */
enum gp_sass_eff { GP_SASS_EFF_CUPTI, GP_SASS_EFF_OWN, GP_SASS_EFF_CHECK };

/* GPUPROF_NVTX_INCLUDE / _EXCLUDE: expressions per variable */
#define GP_MAX_NVTX 32
/* host names as %h expands them: HOST_NAME_MAX (64) and the NUL */
#define GP_HOST_MAX 65
/* GPUPROF_BATCH: default and largest number of launches in one range-profiler batch */
#define GP_BATCH_DEFAULT 32
#define GP_BATCH_MAX 256
/* GPUPROF_SAMPLING_INTERVAL: default and largest value (Nsight Compute's
 * scale: a sample every 2^(5+n) cycles per SM sub-partition) */
#define GP_SAMPLING_INTERVAL_DEFAULT 6
enum { GP_SAMPLING_OFF, GP_SAMPLING_ON, GP_SAMPLING_PROFILED };
#define GP_SAMPLING_INTERVAL_MAX 26
/* GPUPROF_CROSSCHECK=1: launches checked against CUPTI's activity records */
#define GP_CROSSCHECK_WINDOW 1000
/* GPUPROF_REPLAY=none: profiled launches of a context per configuration
 * before the next is programmed (GPUPROF_ROTATE_LAUNCHES), and the kernel
 * variants one context keeps estimates for (GPUPROF_VARIANTS_MAX) */
#define GP_ROTATE_DEFAULT 64
/* ... and at least this long (GPUPROF_ROTATE_MS): a switch costs about 0.3 s,
 * so at most about a quarter of the time goes to switching */
#define GP_ROTATE_MS_DEFAULT 1000
#define GP_VARIANTS_DEFAULT 4096
/* ... and the share of the run's wall time, in percent, the profiler may
 * take (GPUPROF_MAX_OVERHEAD; 100: every launch profiled): a run then takes
 * about 1 / (1 - 0.25) = 1.33 times its own time */
#define GP_MAX_OVERHEAD_DEFAULT 25
#define GP_VARIANTS_MAX 1000000
/* GPUPROF_CACHE_DIR: its longest path (an entry's name is added to it) */
#define GP_CACHE_DIR_MAX 1000

typedef struct gp_config {
    int enabled;                /* GPUPROF_ENABLE: 0 counts launches only */
    char output[1024];          /* GPUPROF_OUTPUT: base path, %p and %h expanded */
    int write_csv, write_json;  /* GPUPROF_FORMAT */
    int metrics_replace;        /* GPUPROF_METRICS without a leading '+' */
    int metrics_extended;       /* @extended named */
    int metrics_fast;           /* @fast named: no instrumented range-profiler pass */
    size_t n_metrics;           /* names given (beyond the groups) */
    char **metrics;             /* n_metrics of them, no limit */
    int have_include, have_exclude;
    regex_t include_re, exclude_re; /* GPUPROF_KERNEL_INCLUDE / _EXCLUDE */
    int name_base;              /* GPUPROF_KERNEL_NAME_BASE */
    long launch_skip;           /* GPUPROF_LAUNCH_SKIP */
    long launch_count;          /* GPUPROF_LAUNCH_COUNT, -1 = no limit */
    long max_per_kernel;        /* GPUPROF_MAX_PER_KERNEL, -1 = no limit */
    int log_level;              /* GPUPROF_LOG_LEVEL */
    char log_file[1024];        /* GPUPROF_LOG_FILE, "" = stderr */
    long reserve_mb;            /* GPUPROF_SNAPSHOT_RESERVE_MB */
    long batch;                 /* GPUPROF_BATCH: launches whose counters are decoded together */
    int snapshot_where;         /* GPUPROF_SNAPSHOT */
    int snapshot_incremental;   /* GPUPROF_SNAPSHOT_INCREMENTAL: only changed chunks copied */
    int snapshot_verify;        /* GPUPROF_SNAPSHOT_VERIFY: every byte compared after a restore */
    int flush_caches;           /* GPUPROF_CACHE_CONTROL: enum gp_cache_control */
    int warmup;                 /* GPUPROF_WARMUP: a context's first multi-pass launch, twice
                                 * (enum gp_warmup in replay/replay.h) */
    int summary;                /* GPUPROF_SUMMARY */
    long crosscheck; /* GPUPROF_CROSSCHECK: launches checked against activity records, -1 = all */
    int replay_mode; /* GPUPROF_REPLAY: profiler (own replay), cupti (CUPTI's) or none */
    long rotate_launches;       /* GPUPROF_ROTATE_LAUNCHES: replay none's block per configuration */
    long rotate_ms;             /* GPUPROF_ROTATE_MS: and its least time programmed */
    long variants_max;          /* GPUPROF_VARIANTS_MAX: replay none's variants per context */
    long max_overhead;          /* GPUPROF_MAX_OVERHEAD: replay none's share of the run, % */
    int inject;                 /* GPUPROF_TEST_INJECT: a failure to pretend (tests only) */
    int profile_from_start;     /* GPUPROF_PROFILE_FROM_START: on until cu(da)ProfilerStop */
    int profiler_start_stop;    /* GPUPROF_PROFILER_START_STOP: honour cu(da)ProfilerStart/Stop */
    size_t n_nvtx_include, n_nvtx_exclude; /* GPUPROF_NVTX_INCLUDE / _EXCLUDE (ranges.h) */
    struct gp_nvtx_expr *nvtx_include[GP_MAX_NVTX], *nvtx_exclude[GP_MAX_NVTX];
    long rank; /* MPI or Slurm rank from the launcher's variables, -1 when none */
    char sass_dump[1024];       /* GPUPROF_SASS_DUMP: per-instruction SASS data, "" = none */
    int metrics_warpstate;      /* @warpstate named: Nsight Compute's warp-state statistics */
    int metrics_source;         /* @source named: the SASS pass's counts, no hardware counters */
    uint64_t ncu_sections;      /* @section:NAME and @set:NAME: Nsight Compute's sections named
                                 * (bit i: gp_ncu_sections[i], metrics/ncu/sections.h) */
    int sampling;               /* GPUPROF_SAMPLING: warp-stall sampling of the program's launches
                                 * (GP_SAMPLING_OFF, _ON: every launch, _PROFILED: profiled ones) */
    long sampling_interval;     /* GPUPROF_SAMPLING_INTERVAL: a sample every 2^(5+n) cycles */
    int sass_efficiency;        /* GPUPROF_SASS_EFFICIENCY: enum gp_sass_eff */
    int cache;                  /* GPUPROF_CACHE: keep the metric list's splits between runs */
    char cache_dir[GP_CACHE_DIR_MAX]; /* GPUPROF_CACHE_DIR, else $XDG_CACHE_HOME/gpuprof, else
                                       * $HOME/.cache/gpuprof; "" when off or none */
} gp_config;

typedef const char *(*gp_env_lookup)(const char *name);

/* Fills cfg from the environment (lookup = getenv in the library, a table in
 * tests).  Returns the number of malformed variables; for each, one line in
 * err naming the variable, the value and the accepted values.  Malformed
 * variables keep their defaults. */
int gp_config_parse(gp_config *cfg, gp_env_lookup lookup, char *err, size_t errlen);
void gp_config_free(gp_config *cfg);

/* One line saying what this configuration profiles (for the start-up line at
 * GPUPROF_LOG_LEVEL=info), into buf. */
void gp_config_describe(const gp_config *cfg, char *buf, size_t len);

#endif
