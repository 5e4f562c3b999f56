/* crosscheck.c - see crosscheck.h.  At a launch: counted into the window
 * under state_lock (`seen`), and once the window is full CUPTI's kernel
 * records are stopped outside it (`after_lock`).  Nothing re-opens a
 * window once closed (full, ended by sampling, or no activity records):
 * its `seen` hook then leaves the list, and a launch that is not profiled
 * costs what it costs without the cross-check. */
#include "preload/crosscheck.h"

#include "preload/launch_hooks.h"
#include "preload/serialize.h"
#include "util/log.h"

static int active(void)
{
    return gp_core.cfg.crosscheck != 0;
}

/* Counts the launch into the window (state_lock held); asks for the window
 * to be closed after the lock when it was filled by an earlier launch
 * (closing before the launch that fills it would lose that launch's own
 * record) and this thread holds no lock, so it can take the exclusive
 * section.  Off the list once nothing can re-open the window. */
static void at_seen(gp_hook_args *a)
{
    if (gp_core.xc_closing && gp_t_api_depth == 0) {
        gp_core.xc_closing = 0;
        a->xc_close = 1;
        a->after_lock = 1;
    }
    if (a->k && gp_core.xc_left != 0) { /* only the cross-check needs each launch's id */
        gp_summary_kernel_seen(&gp_core.summary, a->ev->correlation, a->k->name->demangled,
                               a->profiled);
        if (gp_core.xc_left > 0 && --gp_core.xc_left == 0)
            gp_core.xc_closing = 1;
    }
}

/* Stops CUPTI's kernel records once the window is full: from here on a
 * launch that is not profiled costs what it costs without the cross-check.
 * Records already taken still arrive (flushed at exit).  In the exclusive
 * section, so that no profiled launch is pausing or resuming them. */
static void at_after_lock(gp_hook_args *a)
{
    if (!a->xc_close)
        return;
    gp_serialize_exclusive_begin();
    if (gp_core.boundary.tracing)
        gp_core.boundary.tracing(-1);
    gp_serialize_exclusive_end();
    pthread_mutex_lock(&gp_core.state_lock);
    gp_hooks_leave_seen(at_seen);
    pthread_mutex_unlock(&gp_core.state_lock);
    gp_log(GP_LOG_DEBUG, "cross-check: window of %ld launches full; activity records stopped",
           gp_core.cfg.crosscheck);
}

const gp_launch_hooks gp_crosscheck_hooks = {
    .name = "cross-check",
    .active = active,
    .at = {[GP_AT_SEEN] = at_seen, [GP_AT_AFTER_LOCK] = at_after_lock},
};

long gp_core_crosscheck(void)
{
    return gp_core.cfg.crosscheck;
}

void gp_core_crosscheck_unavailable(void)
{
    pthread_mutex_lock(&gp_core.state_lock);
    gp_core.cfg.crosscheck = 0;
    gp_core.xc_left = 0;
    gp_hooks_leave_seen(at_seen);
    pthread_mutex_unlock(&gp_core.state_lock);
}

void gp_core_activity_kernels(const gp_activity_kernel *k, size_t n)
{
    if (!gp_core.active || n == 0)
        return;
    pthread_mutex_lock(&gp_core.state_lock);
    for (size_t i = 0; i < n; i++)
        gp_summary_activity(&gp_core.summary, k[i].correlation,
                            k[i].end_ns > k[i].start_ns ? k[i].end_ns - k[i].start_ns : 0,
                            k[i].name, k[i].in_graph);
    pthread_mutex_unlock(&gp_core.state_lock);
}

void gp_crosscheck_end(uint64_t correlation, const char *why)
{
    pthread_mutex_lock(&gp_core.state_lock);
    int open = !gp_core.summary.xc_ended_why;
    if (open) {
        gp_core.xc_left = 0;
        gp_core.xc_closing = 0;
        gp_summary_crosscheck_end(&gp_core.summary, correlation, why);
        gp_hooks_leave_seen(at_seen);
    }
    pthread_mutex_unlock(&gp_core.state_lock);
    if (open && gp_core.boundary.tracing)
        gp_core.boundary.tracing(-1);
}
