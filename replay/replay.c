/* replay.c - see replay.h */
#include "replay/replay.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/cache_evict.h"
#include "replay/driver.h"
#include "replay/sass_metrics.h"
#include "replay/worker.h"
#include "util/log.h"

CUresult gp_launch_exec_run(const gp_launch_exec *e)
{
    switch (e->api) {
    case GP_API_LAUNCH_KERNEL_EX:
        return gp_drv.cuLaunchKernelEx(e->config, e->f, e->params, e->extra);
    case GP_API_LAUNCH_COOPERATIVE:
        return gp_drv.cuLaunchCooperativeKernel(e->f, e->grid[0], e->grid[1], e->grid[2],
                                                e->block[0], e->block[1], e->block[2], e->smem,
                                                e->stream, e->params);
    default:
        return gp_drv.cuLaunchKernel(e->f, e->grid[0], e->grid[1], e->grid[2], e->block[0],
                                     e->block[1], e->block[2], e->smem, e->stream, e->params,
                                     e->extra);
    }
}

/* Reads a buffer eight times the size of L2, one 32-byte sector at a time,
 * so that the next pass starts with L2 holding only clean lines of that
 * buffer: the kernel's own data is not cached, and no dirty line is written
 * back during the pass (a memset would leave L2 full of dirty lines whose
 * write-back the pass would count as its own DRAM traffic).  L2's
 * replacement is not LRU: after reading twice its size, 40-200 KB of dirty
 * lines (the snapshot's restores, the SASS pass's writes) were still there
 * and charged to the next kernel; after four or eight times, none
 * (docs/measurements.md). */
enum { GP_FLUSH_L2_MULTIPLE = 8 };

static const char flush_ptx[] =
    ".version 8.0\n"
    ".target sm_90\n"
    ".address_size 64\n"
    ".visible .entry gp_flush_read(.param .u64 p_buf, .param .u64 p_sectors, .param .u64 p_sink)\n"
    "{\n"
    "  .reg .pred %p<3>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p_buf];\n"
    "  ld.param.u64 %rd2, [p_sectors];\n"
    "  ld.param.u64 %rd3, [p_sink];\n"
    "  mov.u32 %r1, %ctaid.x;\n"
    "  mov.u32 %r2, %ntid.x;\n"
    "  mov.u32 %r3, %tid.x;\n"
    "  mad.lo.s32 %r4, %r1, %r2, %r3;\n"
    "  cvt.u64.u32 %rd4, %r4;\n"
    "  mov.u32 %r5, %nctaid.x;\n"
    "  mul.wide.u32 %rd5, %r5, %r2;\n"
    "  mov.u32 %r6, 0;\n"
    "LOOP:\n"
    "  setp.ge.u64 %p1, %rd4, %rd2;\n"
    "  @%p1 bra DONE;\n"
    "  shl.b64 %rd6, %rd4, 5;\n"
    "  add.u64 %rd7, %rd1, %rd6;\n"
    "  ld.global.cg.u32 %r7, [%rd7];\n"
    "  xor.b32 %r6, %r6, %r7;\n"
    "  add.u64 %rd4, %rd4, %rd5;\n"
    "  bra LOOP;\n"
    "DONE:\n"
    "  setp.ne.u32 %p2, %r6, 305419896;\n"
    "  @%p2 bra END;\n"
    "  st.global.u32 [%rd3], %r6;\n"
    "END:\n"
    "  ret;\n"
    "}\n";

static void flush_teardown(gp_replay_ctx *rc)
{
    if (rc->flush_buf)
        gp_drv.cuMemFree(rc->flush_buf);
    if (rc->flush_module)
        gp_drv.cuModuleUnload(rc->flush_module);
    rc->flush_buf = 0;
    rc->flush_module = NULL;
    rc->flush_read = NULL;
}

static int flush_setup(gp_replay_ctx *rc, uint64_t bytes)
{
    if (gp_drv_alloc_own(&rc->flush_buf, bytes) != CUDA_SUCCESS) {
        rc->flush_buf = 0;
        return -1;
    }
    rc->flush_bytes = bytes;
    /* Not cleared on purpose: its values never matter, and a memset would
     * leave the buffer's lines dirty in L2 that the next kernels' misses write back,
     * charging them DRAM writes that are not theirs. */
    if (gp_drv.cuModuleLoadData(&rc->flush_module, flush_ptx) != CUDA_SUCCESS ||
        gp_drv.cuModuleGetFunction(&rc->flush_read, rc->flush_module, "gp_flush_read") !=
            CUDA_SUCCESS)
        return -1;
    return gp_drv.cuCtxSynchronize() == CUDA_SUCCESS ? 0 : -1;
}

/* The GPC cache eviction (cache_evict.h): blocks of four warps, so that each
 * of an SM's four sub-partitions, each with its own instruction cache, runs
 * one; two blocks per SM, so that the block scheduler, which spreads a grid
 * this small over all SMs, leaves none out. */
enum { GP_EVICT_WARPS = 4, GP_EVICT_BLOCKS_PER_SM = 2 };

static void evict_teardown(gp_replay_ctx *rc)
{
    if (rc->evict_module)
        gp_drv.cuModuleUnload(rc->evict_module);
    rc->evict_module = NULL;
    rc->evict = NULL;
}

static void evict_give_up(gp_replay_ctx *rc, const char *what, CUresult r)
{
    evict_teardown(rc);
    rc->evict_failed = 1;
    gp_log_once(GP_LOG_WARN, "gcc-evict",
                "%s the kernel that empties the GPCs' constant and instruction caches before "
                "each pass (%s): only L2 is flushed, as with GPUPROF_CACHE_CONTROL=l2",
                what, gp_driver_strerror(r));
}

/* Loads the eviction kernel (the driver compiles its PTX: about a second the
 * first time, then from the driver's compute cache).  Returns 0 or -1. */
static int evict_setup(gp_replay_ctx *rc)
{
    size_t cap = gp_cache_evict_ptx_size(GP_EVICT_DEFAULT_INSNS);
    char *ptx = malloc(cap);
    double t = gp_now_s();
    CUresult r = CUDA_ERROR_OUT_OF_MEMORY;
    if (ptx && gp_cache_evict_ptx(ptx, cap, GP_EVICT_DEFAULT_INSNS) > 0)
        r = gp_drv.cuModuleLoadData(&rc->evict_module, ptx);
    free(ptx);
    if (r == CUDA_SUCCESS)
        r = gp_drv.cuModuleGetFunction(&rc->evict, rc->evict_module, GP_EVICT_ENTRY);
    CUdevice dev;
    int sms = 0;
    if (r == CUDA_SUCCESS)
        r = gp_drv.cuCtxGetDevice(&dev);
    if (r == CUDA_SUCCESS)
        r = gp_drv.cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
    if (r == CUDA_SUCCESS && sms <= 0)
        r = CUDA_ERROR_INVALID_VALUE;
    if (r != CUDA_SUCCESS) {
        evict_give_up(rc, "cannot load", r);
        return -1;
    }
    rc->evict_blocks = (unsigned)sms * GP_EVICT_BLOCKS_PER_SM;
    rc->t_loads += gp_now_s() - t;
    gp_debug("GPC cache eviction kernel: %d instructions, %u blocks of %d warps, loaded in %.0f ms",
             (int)GP_EVICT_DEFAULT_INSNS, rc->evict_blocks, (int)GP_EVICT_WARPS,
             (gp_now_s() - t) * 1e3);
    return 0;
}

/* Empties the GPCs' and the SMs' constant and instruction caches, leaving
 * only the eviction kernel's lines there, which the L2 flush that follows
 * then pushes out of L2.  Returns the kernels launched (0 or 1). */
static int evict_gpc(gp_replay_ctx *rc, const gp_replay_opts *o)
{
    if (o->flush_caches != GP_CACHE_FLUSH || rc->evict_failed)
        return 0;
    if (!rc->evict && evict_setup(rc) != 0)
        return 0;
    CUdeviceptr sink = rc->flush_buf; /* never written in practice; its contents never matter */
    void *args[] = {&sink};
    double t = gp_now_s();
    CUresult r = gp_drv.cuLaunchKernel(rc->evict, rc->evict_blocks, 1, 1, 32 * GP_EVICT_WARPS, 1, 1,
                                       0, NULL, args, NULL);
    if (r != CUDA_SUCCESS) {
        evict_give_up(rc, "cannot launch", r);
        return 0;
    }
    /* the stream orders it before the L2 flush; waited for here only to time it */
    if (gp_log_enabled(GP_LOG_DEBUG) && gp_drv.cuCtxSynchronize() == CUDA_SUCCESS)
        gp_debug("pass flush: GPC caches emptied in %.3f ms", (gp_now_s() - t) * 1e3);
    return 1;
}

/* Returns 1 when L2 was flushed; *launched counts the kernels that ran (the
 * GPC cache eviction when `evict` allows it, then the L2 flush). */
static int flush_l2_counted(gp_replay_ctx *rc, const gp_replay_opts *o, int evict, int *launched,
                            gp_replay_state *st)
{
    *launched = 0;
    if (!o->flush_caches || rc->flush_failed || o->l2_bytes == 0)
        return 0;
    double loads = rc->t_loads;
    if (!rc->flush_read) { /* a smaller buffer when memory is short: a flush still */
        double t = gp_now_s();
        int ok = 0;
        for (uint64_t m = GP_FLUSH_L2_MULTIPLE; m >= 2 && !ok; m /= 2) {
            ok = flush_setup(rc, m * o->l2_bytes) == 0;
            if (!ok)
                flush_teardown(rc);
        }
        rc->t_loads += gp_now_s() - t;
        if (!ok) {
            rc->flush_failed = 1;
            return 0;
        }
    }
    *launched = evict ? evict_gpc(rc, o) : 0;
    st->t_once += rc->t_loads - loads; /* the buffer's and the eviction kernel's first loads */
    uint64_t sectors = rc->flush_bytes / 32;
    CUdeviceptr sink = rc->flush_buf;
    void *args[] = {&rc->flush_buf, &sectors, &sink};
    if (gp_drv.cuLaunchKernel(rc->flush_read, 1056, 1, 1, 512, 1, 1, 0, NULL, args, NULL) !=
        CUDA_SUCCESS)
        return 0;
    *launched += 1;
    return gp_drv.cuCtxSynchronize() == CUDA_SUCCESS;
}

static int flush_l2(gp_replay_ctx *rc, const gp_replay_opts *o, gp_replay_state *st)
{
    int launched;
    return flush_l2_counted(rc, o, 1, &launched, st);
}

static int fail(gp_replay_state *st, const char *what, const char *detail)
{
    snprintf(st->why, sizeof(st->why), "%s%s%s", what, detail && *detail ? ": " : "",
             detail ? detail : "");
    return -1;
}

/* The L2 flush of a pass: with a user range, run between CUPTI's start and
 * the range, so that whatever CUPTI writes to device memory when it starts a
 * pass is flushed too; with auto range (the library's setting) just before
 * the start, since a kernel after it would be a range of its own.  (Tried
 * against the DRAM write-backs charged to the first profiled launch of a
 * process since the instrumented pass came in; they remained:
 * docs/measurements.md.) */
typedef struct pass_flush {
    gp_replay_ctx *rc;
    const gp_replay_opts *o;
    gp_replay_state *st;
} pass_flush;

static void pass_flush_run(void *arg)
{
    pass_flush *f = arg;
    double t = gp_now_s();
    f->st->flushed |= flush_l2(f->rc, f->o, f->st);
    f->st->t_flush += gp_now_s() - t;
}

/* Starts a pass with its flush: inside the start where the pass has a user
 * range; before it otherwise (with auto range the flush would be a range). */
static int pass_start(gp_replay_ctx *rc, const gp_replay_opts *o, gp_replay_state *st, char *err,
                      size_t errlen)
{
    pass_flush f = {rc, o, st};
    int user = gp_rp_is_user_range(rc->rp);
    if (!user)
        pass_flush_run(&f);
    return gp_rp_pass_start(rc->rp, o->range_name, user ? pass_flush_run : NULL, &f, err, errlen);
}

/* One full pass issued by the profiler: flush, start, launch, end, sync. */
static int own_pass(gp_replay_ctx *rc, const gp_launch_exec *e, const gp_replay_opts *o,
                    gp_replay_state *st, int *all)
{
    char err[256] = "";
    double t = gp_now_s(), flushed = st->t_flush;
    if (pass_start(rc, o, st, err, sizeof(err)) != 0)
        return fail(st, "starting a pass", err);
    st->t_rp_start += gp_now_s() - t - (st->t_flush - flushed);
    CUresult lr = gp_launch_exec_run(e);
    t = gp_now_s();
    int er = gp_rp_pass_end(rc->rp, all, err, sizeof(err));
    st->t_rp_stop += gp_now_s() - t;
    st->passes++;
    if (lr != CUDA_SUCCESS) {
        snprintf(err, sizeof(err), "%s", gp_driver_strerror(lr));
        return fail(st, "the replayed launch failed", err);
    }
    CUresult sr = gp_drv.cuCtxSynchronize();
    if (sr != CUDA_SUCCESS)
        return fail(st, "the kernel faulted during a replay pass", gp_driver_strerror(sr));
    if (er != 0)
        return fail(st, "ending a pass", err);
    return 0;
}

/* In an open batch every kernel is a range, the snapshot's hash kernels too:
 * counts those launched since `before`. */
static void note_hash_kernels(gp_replay_ctx *rc, uint64_t before)
{
    if (rc->rp && gp_rp_batch_is_open(rc->rp) && rc->snap.dev.launches > before)
        gp_rp_batch_note(rc->rp, (int)(rc->snap.dev.launches - before));
}

static int restore(gp_replay_ctx *rc, gp_replay_state *st)
{
    char err[256];
    double t = gp_now_s();
    uint64_t before = rc->snap.stats.bytes_from_store + rc->snap.stats.bytes_zeroed;
    uint64_t k0 = rc->snap.dev.launches;
    int r = gp_snapshot_restore(&rc->snap, err, sizeof(err));
    note_hash_kernels(rc, k0);
    st->t_restore += gp_now_s() - t;
    if (r != 0)
        return fail(st, "restoring memory between passes", err);
    st->bytes_restored += rc->snap.stats.bytes_from_store + rc->snap.stats.bytes_zeroed - before;
    return 0;
}

/* The SASS pass issued by the profiler, on its worker thread (a launch of
 * its own, outside any CUPTI callback, so that CUPTI patches it). */
typedef struct sass_job {
    gp_replay_ctx *rc;
    const gp_launch_exec *e;
    gp_replay_state *st;
    int rc_;
    int launched; /* the kernel was issued */
    char err[256];
} sass_job;

static void sass_job_run(void *arg)
{
    sass_job *j = arg;
    j->rc_ = -1;
    double t = gp_now_s();
    if (gp_sass_begin(j->rc->ctx, j->err, sizeof(j->err)) != 0)
        return;
    j->st->t_sass_enable += gp_now_s() - t;
    t = gp_now_s();
    CUresult lr = gp_launch_exec_run(j->e);
    j->launched = lr == CUDA_SUCCESS;
    CUresult sr = lr == CUDA_SUCCESS ? gp_drv.cuCtxSynchronize() : lr;
    j->st->t_sass_run += gp_now_s() - t;
    t = gp_now_s();
    int er = gp_sass_end(j->rc->ctx, &j->st->sass, &j->st->n_sass, j->err, sizeof(j->err));
    j->st->t_sass_collect += gp_now_s() - t;
    if (sr != CUDA_SUCCESS) {
        snprintf(j->err, sizeof(j->err), "the kernel failed in the SASS pass: %s",
                 gp_driver_strerror(sr));
        return;
    }
    j->rc_ = er;
}

static int sass_own_pass(gp_replay_ctx *rc, const gp_launch_exec *e, gp_replay_state *st,
                         int *launched)
{
    sass_job j = {rc, e, st, -1, 0, ""};
    *launched = 0;
    if (gp_worker_run(rc->ctx, sass_job_run, &j) != 0)
        return fail(st, "cannot start the profiler's replay thread", NULL);
    *launched = j.launched;
    st->passes++;
    return j.rc_ == 0 ? 0 : fail(st, "SASS pass", j.err);
}

/* Leaves memory as the program left it after a failed pass (unless the
 * context is gone), keeping the first reason. */
static int abort_pass(gp_replay_ctx *rc, gp_replay_state *st)
{
    char why[sizeof(st->why)];
    memcpy(why, st->why, sizeof(why));
    restore(rc, st);
    memcpy(st->why, why, sizeof(why));
    return -1;
}

/* In the open batch: the GPC cache eviction and the L2 flush (a range each
 * when it launched a kernel), then the range the program's launch will
 * take.  The eviction only where the image has room for all three. */
static void program_range(gp_replay_ctx *rc, const gp_replay_opts *o, gp_replay_state *st)
{
    int launched;
    double t = gp_now_s();
    int room = gp_rp_batch_room(rc->rp) >= 3;
    if (!room && o->flush_caches == GP_CACHE_FLUSH)
        gp_debug("GPC caches not emptied before this launch: its batch has room for 2 ranges");
    st->flushed |= flush_l2_counted(rc, o, room, &launched, st);
    gp_rp_batch_note(rc->rp, launched);
    st->t_flush = gp_now_s() - t;
    st->batch_range = gp_rp_batch_note(rc->rp, 1) - 1;
    st->batched = 1;
}

/* In an open batch every kernel is a range: the SASS pass (its counters are
 * not used), the L2 flush, then the program's launch, whose range is kept. */
static int enter_batched(gp_replay_ctx *rc, const gp_launch_exec *e, const gp_replay_opts *o,
                         gp_replay_state *st, int sass)
{
    char err[256] = "";
    double t = gp_now_s();
    if (gp_rp_batch_open(rc->rp, err, sizeof(err)) != 0)
        return fail(st, "starting the range profiler", err);
    st->t_start = gp_now_s() - t;
    st->t_rp_start = st->t_start;
    if (sass) {
        int launched;
        t = gp_now_s();
        int r = sass_own_pass(rc, e, st, &launched);
        gp_rp_batch_note(rc->rp, launched);
        if (r != 0)
            return abort_pass(rc, st);
        if (restore(rc, st) != 0)
            return -1;
        st->t_sass = gp_now_s() - t;
    }
    program_range(rc, o, st);
    return 0;
}

/* Replay mode none: the program's launch is the only kernel, in the open
 * batch of its one-pass configuration (after the L2 flush, itself a range,
 * when caches are flushed), or wrapped by the SASS pass. */
static int enter_rotated(gp_replay_ctx *rc, const gp_replay_opts *o, gp_replay_state *st)
{
    char err[256] = "";
    if (o->rotate_sass) {
        if (gp_sass_begin(rc->ctx, err, sizeof(err)) != 0)
            return fail(st, "SASS pass", err);
        st->sass_open = 1;
        return 0;
    }
    if (!rc->rp)
        return fail(st, "no range profiler in this context", NULL);
    double t = gp_now_s();
    if (o->rotate_step) { /* one pass of a configuration spread over launches */
        st->set = o->rotate_set;
        st->stepped = 1;
        if (o->step_first && gp_rp_begin(rc->rp, o->rotate_set, err, sizeof(err)) != 0)
            return fail(st, "configuring the range profiler", err);
        st->t_begin = gp_now_s() - t;
        t = gp_now_s();
        double flushed = st->t_flush;
        if (pass_start(rc, o, st, err, sizeof(err)) != 0)
            return fail(st, "starting a pass", err);
        st->t_start = st->t_rp_start = gp_now_s() - t - (st->t_flush - flushed);
        st->open = 1;
        return 0;
    }
    if (gp_rp_batch_open_set(rc->rp, o->rotate_set, err, sizeof(err)) != 0)
        return fail(st, "starting the range profiler", err);
    st->t_start = st->t_rp_start = gp_now_s() - t;
    program_range(rc, o, st);
    return 0;
}

/* Every pass of the configuration just begun, each the profiler's own and
 * followed by a restore. */
static int restored_passes(gp_replay_ctx *rc, const gp_launch_exec *e, const gp_replay_opts *o,
                           gp_replay_state *st)
{
    int all = 0;
    for (int p = 0; !all; p++) {
        if (p >= 64)
            return fail(st, "more than 64 passes in one configuration", NULL);
        if (own_pass(rc, e, o, st, &all) != 0)
            return abort_pass(rc, st);
        if (restore(rc, st) != 0)
            return -1;
    }
    return 0;
}

/* A list too long for one configuration: the further ones run first
 * (restored_passes); their values are kept for the launch's finish.  The
 * first configuration's last pass still wraps the program's launch. */
static int extra_configs(gp_replay_ctx *rc, const gp_launch_exec *e, const gp_replay_opts *o,
                         gp_replay_state *st)
{
    char err[256] = "";
    for (size_t x = 0; x < gp_rp_extra_configs(rc->rp); x++) {
        if (gp_rp_begin(rc->rp, GP_RP_EXTRA + (int)x, err, sizeof(err)) != 0)
            return fail(st, "configuring the range profiler", err);
        if (restored_passes(rc, e, o, st) != 0)
            return -1;
        if (gp_rp_keep(rc->rp, err, sizeof(err)) != 0)
            return fail(st, "decoding the counters", err);
    }
    return 0;
}

/* The first launch of a context that takes several passes runs them all once
 * more, first, and discards their values.  Without it the first profiled
 * launch of a process was charged DRAM write-backs that were not its own
 * (0.4-15 MB where Nsight Compute gives 0-23 KB): work CUPTI does once per
 * context when it first runs an instrumented pass, whose dirty lines the
 * flush before the next pass did not catch (docs/measurements.md). */
static int warm_up(gp_replay_ctx *rc, const gp_launch_exec *e, const gp_replay_opts *o,
                   gp_replay_state *st, int sass)
{
    char err[256] = "";
    double t = gp_now_s();
    int passes = st->passes;
    rc->warmed = 1;
    if (sass) {
        int launched;
        if (sass_own_pass(rc, e, st, &launched) != 0)
            return abort_pass(rc, st);
        gp_sass_records_free(st->sass, st->n_sass);
        st->sass = NULL;
        st->n_sass = 0;
        if (restore(rc, st) != 0)
            return -1;
    }
    if (gp_rp_begin(rc->rp, GP_RP_FULL, err, sizeof(err)) != 0)
        return fail(st, "configuring the range profiler", err);
    if (restored_passes(rc, e, o, st) != 0)
        return -1;
    if (gp_rp_discard(rc->rp, err, sizeof(err)) != 0)
        return fail(st, "decoding the warm-up's counters", err);
    st->warmup_passes = st->passes - passes;
    st->passes = passes;
    st->t_warmup = gp_now_s() - t;
    return 0;
}

int gp_replay_enter(gp_replay_ctx *rc, const gp_launch_exec *e, const gp_range *ranges, size_t n,
                    uint64_t total, const gp_replay_opts *o, gp_replay_state *st)
{
    char err[256] = "";
    memset(st, 0, sizeof(*st));
    st->start_s = gp_now_s();
    st->set = GP_RP_FULL;
    size_t hw = rc->rp ? gp_rp_passes(rc->rp, GP_RP_FULL) : 0;
    int sass = o->want_sass;
    /* the SASS pass before the program's launch (restored after), not
     * wrapping it: with hardware passes, or when the program's launch is to
     * run unpatched (stall sampling) */
    int own_sass = sass && (hw > 0 || o->sass_own_pass);
    if (o->rotate)
        return enter_rotated(rc, o, st);

    if (o->cupti_replay && rc->rp) { /* CUPTI saves, replays and restores inside the launch */
        if (gp_rp_begin(rc->rp, GP_RP_FULL, err, sizeof(err)) != 0)
            return fail(st, "configuring the range profiler", err);
        if (pass_start(rc, o, st, err, sizeof(err)) != 0)
            return fail(st, "starting the kernel-replay pass", err);
        st->open = 1;
        st->passes = (int)hw - 1; /* run by CUPTI inside the launch */
        st->sass_dropped = sass;
        return 0;
    }

    double t = gp_now_s();
    uint64_t k0 = rc->snap.dev.launches;
    if (hw + (sass ? 1 : 0) > 1 || (own_sass && hw == 0)) {
        int saved = gp_snapshot_save(&rc->snap, ranges, n, total, o->allow_device, o->allow_host,
                                     o->reserve_bytes, err, sizeof(err));
        note_hash_kernels(rc, k0);
        if (saved == 0) {
            st->snapshot_place = rc->snap.place;
            st->bytes_saved = rc->snap.stats.bytes_to_store;
        } else if (hw == 0) { /* the SASS pass wraps the program's launch after all */
            own_sass = 0;
        } else if (hw == 1 || (hw > 1 && gp_rp_passes(rc->rp, GP_RP_ONE_PASS) == 1)) {
            st->snapshot_failed = 1;
            st->set = hw > 1 ? GP_RP_ONE_PASS : GP_RP_FULL;
            hw = 1;
            sass = own_sass = 0;
            snprintf(st->why, sizeof(st->why), "%s; collected only what one pass gives", err);
        } else {
            return fail(st, "no snapshot possible and no one-pass metric set", err);
        }
    }
    st->sass_dropped = o->want_sass && !sass;
    st->t_snapshot = gp_now_s() - t;

    if (o->batch && hw == 1 && rc->rp) /* the profiler stays started across launches */
        return enter_batched(rc, e, o, st, sass);
    if (o->warmup && !rc->warmed && hw > 1 && st->set == GP_RP_FULL &&
        (o->warmup == GP_WARMUP_ALWAYS || gp_rp_has_instrumented(rc->rp)) &&
        warm_up(rc, e, o, st, sass) != 0)
        return -1;
    if (own_sass) { /* the SASS pass first, then the hardware passes */
        int launched;
        t = gp_now_s();
        if (sass_own_pass(rc, e, st, &launched) != 0)
            return abort_pass(rc, st);
        if (restore(rc, st) != 0)
            return -1;
        st->t_sass = gp_now_s() - t;
    }
    if (hw == 0 && own_sass) { /* every pass ran: the program's launch runs alone */
        /* and starts from an empty L2, as each pass (and Nsight Compute's
         * sampling pass) does: its stall samples are not shaped by what the
         * restore left in L2 */
        t = gp_now_s();
        st->flushed |= flush_l2(rc, o, st);
        st->t_flush += gp_now_s() - t;
        st->done = 1;
        st->unpatched = 1;
        return 0;
    }
    if (hw == 0) { /* SASS metrics only: that pass wraps the program's launch */
        if (gp_sass_begin(rc->ctx, err, sizeof(err)) != 0)
            return fail(st, "SASS pass", err);
        st->sass_open = 1;
        return 0;
    }
    t = gp_now_s();
    if (st->set == GP_RP_FULL && extra_configs(rc, e, o, st) != 0)
        return -1;
    if (gp_rp_begin(rc->rp, st->set, err, sizeof(err)) != 0)
        return fail(st, "configuring the range profiler", err);
    st->t_begin = gp_now_s() - t;
    t = gp_now_s();
    size_t hw_main = gp_rp_config_passes(rc->rp, st->set);
    for (size_t p = 1; p < hw_main; p++) {
        int all = 0;
        if (own_pass(rc, e, o, st, &all) != 0)
            return abort_pass(rc, st);
        if (restore(rc, st) != 0)
            return -1;
        if (all) { /* CUPTI needed fewer passes: the program's launch runs unprofiled */
            st->done = 1;
            return 0;
        }
    }
    /* The last hardware pass wraps the program's own launch. */
    st->t_passes = gp_now_s() - t;
    t = gp_now_s();
    double flushed = st->t_flush;
    if (pass_start(rc, o, st, err, sizeof(err)) != 0)
        return fail(st, "starting the last pass", err);
    st->t_start = gp_now_s() - t - (st->t_flush - flushed);
    st->t_rp_start += st->t_start;
    st->open = 1;
    return 0;
}

int gp_replay_exit(gp_replay_ctx *rc, const gp_launch_exec *e, CUresult launch_status,
                   const gp_replay_opts *o, gp_replay_state *st, double *values)
{
    char err[256] = "";
    int all = 0;
    int rc_ = -1;
    int er = 0;
    if (st->sass_open) {
        st->sass_open = 0;
        st->passes++;
        double tx = gp_now_s();
        CUresult sr = launch_status == CUDA_SUCCESS ? gp_drv.cuCtxSynchronize() : launch_status;
        st->t_sass_run += gp_now_s() - tx;
        tx = gp_now_s();
        er = gp_sass_end(rc->ctx, &st->sass, &st->n_sass, err, sizeof(err));
        st->t_sass_collect += gp_now_s() - tx;
        if (sr != CUDA_SUCCESS)
            fail(st, "the kernel failed", gp_driver_strerror(sr));
        else if (er != 0)
            fail(st, "SASS pass", err);
        else
            rc_ = 0;
        goto out;
    }
    if (st->batched) { /* the counters come when the batch is closed */
        st->passes++;
        if (launch_status != CUDA_SUCCESS) {
            gp_rp_batch_note(rc->rp, -1);
            fail(st, "the program's launch failed", gp_driver_strerror(launch_status));
            goto out;
        }
        CUresult sr = gp_drv.cuCtxSynchronize();
        if (sr != CUDA_SUCCESS) {
            fail(st, "the kernel faulted", gp_driver_strerror(sr));
            goto out;
        }
        rc_ = 0;
        goto out;
    }
    if (st->done) {
        all = 1;
    } else {
        if (!st->open)
            return -1;
        st->open = 0;
        double ts = gp_now_s();
        er = gp_rp_pass_end(rc->rp, &all, err, sizeof(err));
        st->t_rp_stop += gp_now_s() - ts;
        st->passes++;
    }
    if (launch_status != CUDA_SUCCESS) {
        fail(st, "the program's launch failed", gp_driver_strerror(launch_status));
        goto out;
    }
    if (er != 0) {
        fail(st, "ending the last pass", err);
        goto out;
    }
    CUresult sr = gp_drv.cuCtxSynchronize();
    if (sr != CUDA_SUCCESS) {
        fail(st, "the kernel faulted", gp_driver_strerror(sr));
        goto out;
    }
    if (!all && st->stepped) { /* the next passes wrap the variant's next launches */
        st->step_pending = 1;
        rc_ = 0;
        goto out;
    }
    /* CUPTI asked for more passes than predicted: replay them from the saved
     * state; each leaves memory as one execution does. */
    while (!all) {
        if (st->snapshot_place == GP_SNAP_IN_NONE) {
            fail(st, "CUPTI asked for another pass but no snapshot was taken", NULL);
            goto out;
        }
        if (st->passes > 64) {
            fail(st, "more than 64 passes", NULL);
            goto out;
        }
        if (restore(rc, st) != 0 || own_pass(rc, e, o, st, &all) != 0)
            goto out;
    }
    double tf = gp_now_s();
    if (rc->rp && gp_rp_finish(rc->rp, values, err, sizeof(err)) != 0) {
        fail(st, "decoding the counters", err);
        goto out;
    }
    st->t_finish = gp_now_s() - tf;
    rc_ = 0;
out:
    st->ms = (gp_now_s() - st->start_s) * 1e3;
    return rc_;
}

void gp_replay_ctx_free(gp_replay_ctx *rc)
{
    gp_snapshot_free(&rc->snap);
    evict_teardown(rc);
    flush_teardown(rc);
    gp_rp_destroy(rc->rp);
    rc->rp = NULL;
}
