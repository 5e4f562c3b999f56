/* replay.h - replays one kernel launch once per counter pass.
 *
 * The program's own launch is the last pass: gp_replay_enter() (called before
 * the program's launch reaches the driver) saves what the kernel may touch,
 * runs the first passes itself, restoring memory after each, and opens the
 * last pass; gp_replay_exit() (after the launch) closes it, runs any pass
 * CUPTI still asks for (restoring first), and evaluates the counters.  Every
 * pass starts from the saved state, so memory ends as one execution leaves
 * it.  A one-pass set takes no snapshot.  Before each pass the GPCs' constant
 * and instruction caches are emptied (cache_evict.h), then L2 is flushed. */
#ifndef GP_REPLAY_H
#define GP_REPLAY_H

#include <cuda.h>
#include <stdint.h>

#include "replay/alloc_track.h"
#include "replay/cache_control.h"
#include "replay/range_profiler.h"
#include "replay/snapshot.h"
#include "util/clock.h"

enum gp_launch_api { GP_API_LAUNCH_KERNEL, GP_API_LAUNCH_KERNEL_EX, GP_API_LAUNCH_COOPERATIVE };

struct gp_sass_record;

/* Everything needed to issue the launch again, exactly as the program did. */
typedef struct gp_launch_exec {
    int api;
    CUfunction f;
    unsigned grid[3], block[3];
    unsigned smem;
    CUstream stream;
    void **params;
    void **extra;
    const CUlaunchConfig *config; /* GP_API_LAUNCH_KERNEL_EX */
} gp_launch_exec;

/* Per-context replay state. */
typedef struct gp_replay_ctx {
    CUcontext ctx;
    gp_rp *rp; /* hardware counters; NULL when the set has none */
    gp_snapshot snap;
    CUdeviceptr flush_buf;
    uint64_t flush_bytes;
    CUmodule flush_module;
    CUfunction flush_read;
    int flush_failed;
    CUmodule evict_module; /* the GPC cache eviction kernel (cache_evict.h) */
    CUfunction evict;
    unsigned evict_blocks;
    int evict_failed; /* it could not be loaded: L2 only */
    double t_loads;   /* seconds spent loading the flush buffer and the eviction kernel */
    int warmed;       /* the warm-up round ran (gp_replay_opts.warmup) */
} gp_replay_ctx;

typedef struct gp_replay_opts {
    int flush_caches; /* enum gp_cache_control */
    uint64_t l2_bytes;
    int allow_device, allow_host;
    int cupti_replay; /* CUPTI's kernel replay: one start/end around the launch */
    int want_sass;    /* a SASS pass (CUPTI's SASS Metrics API) is wanted */
    int batch;        /* a one-pass set may keep the profiler started (range_profiler.h) */
    int warmup;       /* the first multi-pass launch of a context runs its passes twice:
                       * enum gp_warmup */
    int sass_own_pass; /* the SASS pass is a replay of its own even without hardware passes,
                        * so that the program's launch runs unpatched (stall sampling) */
    uint64_t reserve_bytes;
    const char *range_name;
    /* replay mode none: the program's launch runs once, unsaved, in the
     * batch of one-pass set rotate_set (GP_RP_ROT + k), or wrapped by the
     * SASS pass (rotate_sass); nothing is replayed */
    int rotate;
    int rotate_set;
    int rotate_sass;
    /* rotate_set is stepped (gp_rp_is_stepped): the launch is one pass of it
     * (step_first: its first pass, which configures the profiler) */
    int rotate_step, step_first;
    /* replay mode none: a variant's first launch, in kernel replay (its time
     * is counted apart: gp_collect_times) */
    int exact_first;
} gp_replay_opts;

typedef struct gp_replay_state {
    int set;            /* GP_RP_FULL or GP_RP_ONE_PASS */
    int passes;         /* passes run */
    int warmup_passes;  /* passes of the warm-up round (not in passes) */
    int snapshot_place; /* GP_SNAP_IN_* */
    int snapshot_failed;
    uint64_t bytes_saved, bytes_restored;
    double start_s, ms;
    double t_warmup, t_snapshot, t_sass, t_begin, t_passes, t_flush, t_start,
        t_finish; /* seconds (debug log); t_flush: every pass's cache eviction and L2
                   * flush (those of gpuprof's own passes also lie within t_passes) */
    double t_rp_start, t_rp_stop, t_sass_enable, t_sass_run,
        t_sass_collect; /* CUPTI calls (debug) */
    double t_restore; /* restores between passes (those inside t_passes and the warm-up too) */
    double t_collect; /* the collection side's time in this launch's gp_collect_begin() */
    double t_once; /* of t_flush, one-time loads: the flush buffer, the eviction kernel (the
                    * driver compiles it): a fixed start-up cost, as the warm-up round */
    int flushed;
    int open;      /* the last pass is open around the program's launch */
    int done;      /* all passes ran before the program's launch */
    int sass_open; /* the SASS pass wraps the program's launch */
    int unpatched; /* every pass ran before: the program's launch runs alone, unpatched,
                    * and may be sampled */
    int batched;   /* the launch is range batch_range of its context's open batch */
    int stepped;      /* one pass of a stepped configuration wraps the launch */
    int step_pending; /* ... and more passes are to come: no values yet */
    size_t batch_range;
    int sass_dropped;            /* the SASS pass was wanted but not run (no snapshot) */
    struct gp_sass_record *sass; /* its per-instruction records (caller frees) */
    size_t n_sass;
    char why[512]; /* why a set was reduced or profiling stopped */
} gp_replay_state;

CUresult gp_launch_exec_run(const gp_launch_exec *e);

/* Fills e's grid, block and dynamic shared memory from any driver struct
 * that names them gridDimX..Z, blockDimX..Z, sharedMemBytes (launch
 * parameters, CUlaunchConfig, kernel node parameters). */
#define GP_EXEC_SET_SHAPE(e, p)                                                                    \
    ((e)->grid[0] = (p)->gridDimX, (e)->grid[1] = (p)->gridDimY, (e)->grid[2] = (p)->gridDimZ,     \
     (e)->block[0] = (p)->blockDimX, (e)->block[1] = (p)->blockDimY,                              \
     (e)->block[2] = (p)->blockDimZ, (e)->smem = (p)->sharedMemBytes)

/* Returns 0 when the program's launch is now inside an open pass; -1 when
 * this launch cannot be profiled (st->why says why; memory is as it was). */
int gp_replay_enter(gp_replay_ctx *rc, const gp_launch_exec *e, const gp_range *ranges, size_t n,
                    uint64_t total, const gp_replay_opts *o, gp_replay_state *st);
/* launch_status: what the program's launch returned.  Fills values (NaN for
 * missing).  Returns 0 or -1 (st->why). */
int gp_replay_exit(gp_replay_ctx *rc, const gp_launch_exec *e, CUresult launch_status,
                   const gp_replay_opts *o, gp_replay_state *st, double *values);
void gp_replay_ctx_free(gp_replay_ctx *rc);

#endif
