/* summary.h - what the profiler counted over the whole run, and the two
 * independent launch counts: launch callbacks (what gpuprof intercepted) and
 * CUPTI activity records (what the GPU executed).  Not thread-safe: the
 * caller holds its lock, except for the atomic fields. */
#ifndef GP_SUMMARY_H
#define GP_SUMMARY_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#define GP_SUMMARY_MAX_REASONS 32
#define GP_SUMMARY_MAX_UNPROFILED 1000

typedef struct gp_unprofiled {
    uint64_t launch_id;
    char *kernel;
    char *reason;
} gp_unprofiled;

typedef struct gp_kernel_time gp_kernel_time; /* per kernel name, from activity */
typedef struct gp_corr gp_corr;               /* correlation id -> launch seen */

typedef struct gp_summary {
    uint64_t launches_seen, launches_profiled, failed, reduced, graph_launches;
    uint64_t launches_estimated; /* replay mode none: launches that went into an estimate */
    uint64_t launches_counted;   /* replay mode none: outside the profiler's share, counted only */
    uint64_t graph_seen; /* of launches_seen: graph launches and kernels run from graphs */
    uint64_t passes, bytes_saved, bytes_restored;
    /* the incremental snapshot (replay/snapshot.h), over all launches */
    uint64_t snap_bytes_hashed, snap_chunks_saved, snap_chunks_restored, snap_mismatches;
    double snap_t_hash, snap_t_save, snap_t_restore, snap_t_verify;
    double profiler_s;
    double setup_s; /* of which setting up contexts (CUPTI's start, the configurations) */
    double setup_grouping_s; /* of setup_s: splitting the metric list into configurations */
    double setup_warmup_s;   /* of setup_s: warm-up rounds and the flush kernels' loading */
    /* where the rest of profiler_s went, filled in at exit (times_known) from
     * the collection side (replay/collect.h, gp_collect_times): the
     * library's start-up at cuInit, replay mode none's first launches in
     * kernel replay, the passes, the snapshots and restores, the wait for
     * the program's earlier work; what is left is "other" (records, the
     * decisions, batches' bookkeeping) */
    int times_known;
    double start_s, t_first, t_passes, t_snapshots, t_restores, t_waiting;
    unsigned splits_cached, splits_made; /* metric lists' splits from the set-up cache, made */
    /* profiled launches waiting for the program's other threads to leave
     * their CUDA calls (the exclusive lock); not in profiler_s */
    atomic_uint_fast64_t lock_wait_ns;
    atomic_uint_fast64_t internal_launches;
    atomic_uint_fast64_t memops[4]; /* alloc, free, copy, set */
    int n_reasons;
    char *reason[GP_SUMMARY_MAX_REASONS];
    uint64_t reason_count[GP_SUMMARY_MAX_REASONS];
    uint64_t unprofiled_total;
    size_t n_unprofiled;
    gp_unprofiled unprofiled[GP_SUMMARY_MAX_UNPROFILED];
    /* second source of truth */
    uint64_t activity_records, activity_matched, activity_graph, profiled_executed;
    uint64_t xc_launches, xc_profiled; /* launches in the cross-check's window; of them profiled */
    gp_corr *corr;
    gp_kernel_time *times;
    /* the cross-check ended early (stall sampling started: CUPTI's kernel
     * records stop with it), before this correlation id; NULL: it did not */
    char *xc_ended_why;
    uint64_t xc_ended_at;
    /* the program's results are not valid from this launch on (0: valid) */
    uint64_t invalid_from;
    char *invalid_kernel, *invalid_reason;
} gp_summary;

void gp_summary_init(gp_summary *s);
/* Frees what the summary holds and empties it.  The library does not call
 * it at exit: a thread of the program may still be reporting a launch. */
void gp_summary_free(gp_summary *s);
void gp_summary_skip(gp_summary *s, const char *reason);
void gp_summary_unprofiled(gp_summary *s, uint64_t launch_id, const char *kernel,
                           const char *reason);
/* A launch seen by the callbacks (correlation id from CUPTI), inside the
 * cross-check's window. */
void gp_summary_kernel_seen(gp_summary *s, uint64_t correlation, const char *kernel, int profiled);
/* A kernel execution from the activity records; in_graph: part of a graph. */
void gp_summary_activity(gp_summary *s, uint64_t correlation, uint64_t duration_ns,
                         const char *name, int in_graph);
/* A profiled launch (no activity record: tracing is paused meanwhile):
 * counts as executed when `executed`, with its measured duration (NaN: none). */
void gp_summary_profiled(gp_summary *s, uint64_t correlation, const char *name,
                         double duration_ns, int executed);
/* Ends the cross-check's window at the launch of that correlation id: it and
 * later launches leave the counts (their kernel records will not come). */
void gp_summary_crosscheck_end(gp_summary *s, uint64_t correlation, const char *why);
/* A launch of the program failed, or a pass of the profiler left the
 * context unusable: the program's results are not valid from launch_id on
 * (the first such launch is kept). */
void gp_summary_invalid(gp_summary *s, uint64_t launch_id, const char *kernel, const char *reason);
/* The summary record; extra (may be NULL) writes further ",\"key\":value"
 * members before its end. */
void gp_summary_write_json(const gp_summary *s, FILE *f, void (*extra)(FILE *f));
/* out_base: where the results went (NULL: none written); json/csv: which files;
 * crosscheck: the cross-check's window (GPUPROF_CROSSCHECK: 0 off, -1 all). */
void gp_summary_print(const gp_summary *s, FILE *f, const char *out_base, int json, int csv,
                      long crosscheck);

#endif
