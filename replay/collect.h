/* collect.h - the one interface through which the policy (preload/) collects
 * counters: open a context, begin and end a launch, flush a batch, close.
 * Behind it: the replay passes (replay.c), the range profiler, the SASS
 * pass and its derivation, the snapshot, the worker thread and the driver
 * table.  The policy decides which launch is profiled and what is written;
 * everything here does what it is asked and says why when it cannot.
 *
 * Every call that reaches the driver re-enters CUPTI's callbacks: callers
 * hold the profiler's re-entry guard (gp_collect_own_thread() tells the
 * callbacks about the worker). */
#ifndef GP_COLLECT_H
#define GP_COLLECT_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#include "replay/alloc_track.h"
#include "replay/replay.h"
#include "replay/sass_derive.h"

/* The collecting side of one CUDA context (opaque). */
typedef struct gp_collect_ctx gp_collect_ctx;

/* The metric list as the policy keeps it: output order, and which of them
 * the range profiler collects (hw_index[k] is the position of hardware
 * metric k).  Set once the names are checked; borrowed, never freed here. */
typedef struct gp_collect_set {
    const char *const *names;
    size_t n;
    const size_t *hw_index;
    size_t n_hw;
    gp_code_lookup code; /* a kernel's machine code, for the SASS derivation */
    void *code_arg;
    const char *sass_dump; /* GPUPROF_SASS_DUMP: a file to append to, or "" */
    /* receives each launch's SASS records (per instruction) before they are
     * freed, when set: the source table's (device of the launch) */
    void (*sass_sink)(void *arg, int device, const gp_sass_record *r, size_t n);
    void *sass_sink_arg;
} gp_collect_set;

/* ---- process ------------------------------------------------------------- */

/* Loads the driver table from the libcuda the program loaded.  0, or -1
 * with a sentence in err. */
int gp_collect_load_driver(char *err, size_t errlen);
/* Starts the CUPTI profiler (once per process, at the first profiled
 * launch); no_permission: pretend counters are for administrators only
 * (tests).  0, or -1 with a sentence in err. */
int gp_collect_start(int no_permission, char *err, size_t errlen);
/* True on gpuprof's own worker thread, whose CUDA calls are its own. */
int gp_collect_own_thread(void);
const char *gp_collect_strerror(CUresult r);

/* ---- metric names -------------------------------------------------------- */

enum gp_collect_name { GP_NAME_OK = 0, GP_NAME_UNKNOWN, GP_NAME_SASS_UNDERIVABLE };
/* 1 for an instrumented (SASS) metric, whichever pass collects it. */
int gp_collect_is_instrumented(const char *name);
/* 1 when the name comes from the SASS pass (gpuprof__sass_*, the SASS
 * Metrics API's ideal counts); the range profiler collects the others. */
int gp_collect_is_sass(const char *name);
/* GPUPROF_METRICS=@fast: the SASS pass gives the instrumented sums it counts
 * exactly (gp_sass_exact), which then leave the range profiler's list. */
void gp_collect_route_exact_to_sass(int on);
/* GPUPROF_SASS_EFFICIENCY=own: as @fast, and Nsight Compute's memory
 * efficiencies (gp_sass_is_efficiency), which no pass but CUPTI's
 * instrumented one gives exactly, are withheld: they stay in the list,
 * routed to the SASS pass, and come back n/a (gp_collect_withheld). */
void gp_collect_withhold_efficiencies(int on);
/* 1 for a name withheld that way. */
int gp_collect_withheld(const char *name);
/* Whether `name` can be collected on `chip`: GP_NAME_OK, or why not
 * (GP_NAME_UNKNOWN: err holds one sentence with close matches). */
int gp_collect_check_name(const char *chip, const char *name, char *err, size_t errlen);
/* known[i] = 1 when CUPTI knows names[i] on chip (counter names only: no
 * SASS or gpuprof__ names); several names at a time, so cheaper for a long
 * list than gp_collect_check_name on each. */
void gp_collect_names_known(const char *chip, const char *const *names, size_t n, int *known);
/* Calls fn for every base metric of chip and its type (0 counter, 1 ratio,
 * 2 throughput): the list the refusals' reasons and close names come from
 * (metrics/ncu/ncu_names.h).  0, or -1 when CUPTI does not know the chip. */
int gp_collect_each_base(const char *chip, void (*fn)(void *ctx, const char *name, int type),
                         void *ctx);
/* True when a SASS metric is counted by opcode (needs the machine code). */
int gp_collect_needs_code(const char *name);

/* ---- devices, kernels, modules ------------------------------------------- */

/* The ordinal of the current context's device (0 when unknown). */
int gp_collect_current_device(void);
/* A device attribute (0 when the driver does not say). */
int gp_collect_device_attr(int device, CUdevice_attribute attr);
void gp_collect_device_name(int device, char *name, size_t len);

typedef struct gp_kernel_attrs {
    CUfunction func; /* the function (the launch's handle may be a CUkernel) */
    CUmodule module;
    int regs;
    size_t static_smem, local_bytes;
    unsigned req_cluster[3]; /* 0 when not required */
} gp_kernel_attrs;
/* Resolves the handle and reads the attributes (those the driver refuses
 * stay 0). */
void gp_collect_kernel_attrs(CUfunction f, gp_kernel_attrs *a);
/* Address and size of __device__ variable `name` in mod.  0, or -1 when the
 * module has no such variable. */
int gp_collect_module_global(CUmodule mod, const char *name, uint64_t *addr, uint64_t *bytes);

/* ---- contexts ------------------------------------------------------------ */

/* The chip name (e.g. "GH100") of ctx's device, learnt through a
 * short-lived profiler object.  0, or -1 with *errclass (enum gp_rp_error)
 * and a sentence in err. */
int gp_collect_probe(CUcontext ctx, int device, char *chip, size_t chiplen, int *errclass,
                     char *err, size_t errlen);
/* Opens collection on ctx (device ordinal `device`).  incremental: the
 * launch snapshot keeps a store across launches and copies only changed
 * chunks (GPUPROF_SNAPSHOT_INCREMENTAL); verify: every restore is compared
 * byte for byte (GPUPROF_SNAPSHOT_VERIFY).  NULL when out of memory.
 * Nothing is collected until gp_collect_counters/gp_collect_sass. */
gp_collect_ctx *gp_collect_open(CUcontext ctx, int device, int incremental, int verify);
/* Enables the range profiler for set->names at set->hw_index; max_ranges:
 * ranges one counter image holds (batches); kernel_replay: CUPTI's kernel
 * replay instead of gpuprof's.  rotate_every (replay mode none, else NULL):
 * per output position, 1 for a name every one-pass configuration is to
 * carry; the one-pass configurations are then made too (their failure is
 * not one of this call: gp_collect_rotation_configs() is 0 and
 * gp_collect_rotation_why() says why).  0, or -1 with *errclass and err. */
int gp_collect_counters(gp_collect_ctx *c, const gp_collect_set *set, size_t max_ranges,
                        int kernel_replay, const int *rotate_every, int *errclass, char *err,
                        size_t errlen);
/* Replay mode none: the one-pass configurations made (range-profiler sets
 * GP_RP_ROT + g), whether configuration g collects output metric i, and a
 * sentence on what they leave out or why none was made (NULL: nothing). */
size_t gp_collect_rotation_configs(const gp_collect_ctx *c);
int gp_collect_rotation_has(const gp_collect_ctx *c, const gp_collect_set *set, size_t g, size_t i);
const char *gp_collect_rotation_why(const gp_collect_ctx *c);
/* Configuration g's passes, and whether it is stepped (several passes over a
 * variant's successive launches, gp_rp_is_stepped); the stepped ones come
 * last. */
size_t gp_collect_rotation_passes(const gp_collect_ctx *c, size_t g);
int gp_collect_rotation_stepped(const gp_collect_ctx *c, size_t g);
/* Gives up a stepped configuration whose passes are not all submitted. */
int gp_collect_abandon(gp_collect_ctx *c, char *err, size_t errlen);
/* Hardware passes the full set needs (0 without hardware metrics). */
size_t gp_collect_passes(const gp_collect_ctx *c);
/* Range-profiler configurations those passes come from (more than one when
 * CUPTI cannot take the list in one). */
size_t gp_collect_configs(const gp_collect_ctx *c);
/* A sentence naming the hardware metrics CUPTI cannot schedule on this
 * device (left out of the set, the rest collected), or NULL. */
const char *gp_collect_left_out(const gp_collect_ctx *c);
/* Seconds the process has spent splitting metric lists into
 * configurations (on the host; all contexts together). */
double gp_collect_grouping_s(void);
/* The set-up cache (replay/setup_cache.h): splits of metric lists kept
 * between runs in dir ("" or NULL: off).  Once per process, before the
 * first context is set up. */
void gp_collect_setup_cache(const char *dir);
/* Splits taken from the cache, and made afresh, so far (all contexts). */
void gp_collect_setup_cache_counts(unsigned *hits, unsigned *misses);
/* True when output metric i is one of those. */
int gp_collect_unschedulable(const gp_collect_ctx *c, const gp_collect_set *set, size_t i);
/* The chip name of a device (e.g. "GH100") without a profiler object (a
 * context where stall sampling runs must not enable the range profiler).
 * 0, or -1 with err. */
int gp_collect_chip_name(int device, char *chip, size_t chiplen, char *err, size_t errlen);
/* 1 when the SASS pass knows metric (enum gp_sass_metric) on this CUPTI. */
int gp_collect_sass_metric_available(int metric);
/* Configures the SASS pass on this device.  0, or -1 with err. */
int gp_collect_sass(gp_collect_ctx *c, const char *chip, char *err, size_t errlen);
/* Frees everything of the context (it is going away); the caller has
 * flushed its batch.  c may be NULL. */
void gp_collect_close(gp_collect_ctx *c);

/* ---- one launch ---------------------------------------------------------- */

/* Stream capture: *capturing set; returns the driver's result (a failure
 * usually means the context is gone). */
CUresult gp_collect_capturing(CUstream stream, int *capturing);
/* Waits for the current context. */
CUresult gp_collect_sync(void);

/* Saves the memory of the context that `allocs` tracks, runs the passes
 * before the program's launch and opens the last around it (replay.h).
 * Returns 0, or -1 when this launch cannot be profiled (st->why says why,
 * memory is as it was). */
int gp_collect_begin(gp_collect_ctx *c, gp_alloc_table *allocs, const gp_launch_exec *e,
                     const gp_replay_opts *o, gp_replay_state *st);
/* After the program's launch: closes the pass, runs what is left, and fills
 * values[0..set->n] (NaN for what is missing, the last slot always NaN): the
 * hardware values unless batched (they come with gp_collect_batch_values),
 * the SASS-derived ones.  *code_missing: some SASS value needed machine code
 * that was not found.  `kernel` names the launch in the SASS dump.  Frees the
 * SASS records.  Returns 0, or -1 (st->why, or "" when out of memory;
 * values may be NULL, out of memory already). */
int gp_collect_end(gp_collect_ctx *c, const gp_launch_exec *e, CUresult status,
                   const gp_collect_set *set, const char *kernel, const gp_replay_opts *o,
                   gp_replay_state *st, double *values, int *code_missing);
/* Ends the launch's use of its snapshot: an incremental store is kept for
 * the next profiled launch (moved to host memory when the program needs the
 * device's), a full copy is freed; forgets the launch's ranges. */
void gp_collect_release(gp_collect_ctx *c);
/* What the launch's snapshot did (hashing, chunks saved and restored, times);
 * valid until the next launch's save. */
const gp_snapshot_stats *gp_collect_snapshot_stats(const gp_collect_ctx *c);
/* Where the launch's snapshot went: "none", "device", "host", or
 * "unavailable" when none could be taken. */
const char *gp_collect_snapshot_where(const gp_replay_state *st);
/* Runs a launch again exactly as the program issued it. */
CUresult gp_collect_run(const gp_launch_exec *e);

/* ---- where the time went --------------------------------------------- */

/* Synchronizes the current context before a profiled launch, so that it
 * starts from what the program's earlier work left: gp_collect_sync(), its
 * time counted as waiting (gp_collect_times_so_far). */
CUresult gp_collect_wait_program(void);

/* The collection side's time over the process, all contexts, in parts; the
 * one-time costs a launch carries (the warm-up round, the flush kernels'
 * first loads: gp_replay_state's t_warmup and t_once, which the policy
 * counts as set-up) are in none of them. */
typedef struct gp_collect_times {
    double first_launches; /* replay mode none: variants' first launches in kernel replay, all of
                            * their replay (snapshot and restores included) */
    double passes;         /* every other profiled launch's passes: the SASS pass, the range
                            * profiler's starts, stops and configurations, the flushes, the
                            * program's own launch in its pass; batches' decoding */
    double snapshots;      /* saving memory before the passes */
    double restores;       /* restoring it between passes */
    double waiting;        /* the program's earlier work, before profiled launches */
} gp_collect_times;
gp_collect_times gp_collect_times_so_far(void);

/* ---- batches ------------------------------------------------------------- */

/* A batch keeps the range profiler started across launches (range_profiler.h). */
int gp_collect_batch_is_open(const gp_collect_ctx *c);
/* Ranges left in the open batch's counter image. */
size_t gp_collect_batch_room(const gp_collect_ctx *c);
/* Stops the open batch and decodes it: *expected ranges were counted,
 * *recorded were decoded.  0, or -1 with err. */
int gp_collect_flush(gp_collect_ctx *c, size_t *expected, size_t *recorded, char *err,
                     size_t errlen);
/* The hardware values of range `range` of the flushed batch into values at
 * set->hw_index.  0, or -1 (values untouched). */
int gp_collect_batch_values(gp_collect_ctx *c, const gp_collect_set *set, size_t range,
                            double *values);
/* The range's name in the decoded image (debug log), or NULL. */
const char *gp_collect_range_name(gp_collect_ctx *c, size_t range);

/* ---- memory around a graph's steps --------------------------------------- */

/* Saves the tracked memory of the context.  0, or -1 with err (nothing
 * saved).  Caller has synchronized. */
int gp_collect_graph_save(gp_collect_ctx *c, gp_alloc_table *allocs, const gp_replay_opts *o,
                          char *err, size_t errlen);
/* Puts it back (0, or -1 with err) and frees the copy. */
int gp_collect_graph_restore(gp_collect_ctx *c, char *err, size_t errlen);
void gp_collect_graph_release(gp_collect_ctx *c);

#endif
