/* replay.c - see replay.h */
#include "replay/replay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "replay/driver.h"

double gp_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

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

/* Writes over a buffer twice the size of L2 so that the next pass starts
 * with cold caches, as Nsight Compute does by default. */
static int flush_l2(gp_replay_ctx *rc, const gp_replay_opts *o)
{
    if (!o->flush_caches || rc->flush_failed || o->l2_bytes == 0)
        return 0;
    uint64_t want = 2 * o->l2_bytes;
    if (!rc->flush_buf) {
        if (gp_drv.cuMemAlloc(&rc->flush_buf, want) != CUDA_SUCCESS) {
            rc->flush_buf = 0;
            rc->flush_failed = 1;
            return 0;
        }
        rc->flush_bytes = want;
    }
    if (gp_drv.cuMemsetD32(rc->flush_buf, 0x5a5a5a5a, rc->flush_bytes / 4) != CUDA_SUCCESS)
        return 0;
    return gp_drv.cuCtxSynchronize() == CUDA_SUCCESS;
}

static int fail(gp_replay_state *st, const char *what, const char *detail)
{
    snprintf(st->why, sizeof(st->why), "%s%s%s", what, detail && *detail ? ": " : "",
             detail ? detail : "");
    return -1;
}

/* One full pass issued by the profiler: flush, start, launch, end, sync. */
static int own_pass(gp_replay_ctx *rc, const gp_launch_exec *e, const gp_replay_opts *o,
                    gp_replay_state *st, int *all)
{
    char err[256] = "";
    st->flushed |= flush_l2(rc, o);
    if (gp_rp_pass_start(rc->rp, o->range_name, err, sizeof(err)) != 0)
        return fail(st, "starting a pass", err);
    CUresult lr = gp_launch_exec_run(e);
    int er = gp_rp_pass_end(rc->rp, all, err, sizeof(err));
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

static int restore(gp_replay_ctx *rc, gp_replay_state *st)
{
    char err[256];
    if (gp_snapshot_restore(&rc->snap, err, sizeof(err)) != 0)
        return fail(st, "restoring memory between passes", err);
    st->bytes_restored += rc->snap.bytes;
    return 0;
}

int gp_replay_enter(gp_replay_ctx *rc, const gp_launch_exec *e, const gp_range *ranges, size_t n,
                    uint64_t total, const gp_replay_opts *o, gp_replay_state *st)
{
    char err[256] = "";
    memset(st, 0, sizeof(*st));
    st->start_s = gp_now_s();
    st->set = GP_RP_FULL;
    size_t predicted = gp_rp_passes(rc->rp, GP_RP_FULL);

    if (predicted > 1 || o->all_own) {
        if (gp_snapshot_save(&rc->snap, ranges, n, total, o->allow_device, o->allow_host,
                             o->reserve_bytes, err, sizeof(err)) == 0) {
            st->snapshot_place = rc->snap.place;
            st->bytes_saved = total;
        } else if (gp_rp_passes(rc->rp, GP_RP_ONE_PASS) == 1) {
            st->snapshot_failed = 1;
            st->set = GP_RP_ONE_PASS;
            predicted = 1;
            snprintf(st->why, sizeof(st->why), "%s; collected only what one pass gives", err);
        } else {
            return fail(st, "no snapshot possible and no one-pass metric set", err);
        }
    }
    if (gp_rp_begin(rc->rp, st->set, err, sizeof(err)) != 0)
        return fail(st, "configuring the range profiler", err);

    /* The first passes (all of them with all_own): the profiler's own
     * launches, memory put back after each. */
    for (size_t p = 1; o->all_own ? p <= 64 : p < predicted; p++) {
        int all = 0;
        if (own_pass(rc, e, o, st, &all) != 0) {
            /* leave memory as the program left it, unless the context is gone */
            char why[sizeof(st->why)];
            memcpy(why, st->why, sizeof(why));
            restore(rc, st);
            memcpy(st->why, why, sizeof(why));
            return -1;
        }
        if (restore(rc, st) != 0)
            return -1;
        if (all) { /* all passes done: the program's launch runs unprofiled */
            st->done = 1;
            return 0;
        }
    }
    if (o->all_own)
        return fail(st, "CUPTI asked for more than 64 passes", NULL);
    /* The last pass wraps the program's own launch. */
    st->flushed |= flush_l2(rc, o);
    if (gp_rp_pass_start(rc->rp, o->range_name, err, sizeof(err)) != 0)
        return fail(st, "starting the last pass", err);
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
    if (st->done) {
        all = 1;
    } else {
        if (!st->open)
            return -1;
        st->open = 0;
        er = gp_rp_pass_end(rc->rp, &all, err, sizeof(err));
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
    if (gp_rp_finish(rc->rp, values, err, sizeof(err)) != 0) {
        fail(st, "decoding the counters", err);
        goto out;
    }
    rc_ = 0;
out:
    st->ms = (gp_now_s() - st->start_s) * 1e3;
    return rc_;
}

void gp_replay_ctx_free(gp_replay_ctx *rc)
{
    gp_snapshot_free(&rc->snap);
    if (rc->flush_buf)
        gp_drv.cuMemFree(rc->flush_buf);
    rc->flush_buf = 0;
    gp_rp_destroy(rc->rp);
    rc->rp = NULL;
}
