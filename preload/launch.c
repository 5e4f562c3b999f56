/* launch.c - see launch.h.  A launch that is not profiled takes the shared
 * lock and goes on (the cost of an excluded launch: keep it small); a
 * profiled one runs in the exclusive section from its entry to its exit
 * callback, around the program's own launch (profile.h). */
#include "preload/launch.h"

#include "preload/finish.h"
#include "preload/kernels.h"
#include "preload/launch_hooks.h"
#include "preload/profile.h"
#include "preload/ranges.h"
#include "preload/serialize.h"
#include "util/log.h"

/* The launch this thread is making, for its exit callback. */
static __thread uint64_t t_launch_id;
static __thread const char *t_kernel;

/* A launch of the program returned an error: its results are not valid from
 * there on (the first such launch is kept). */
static void launch_failed(CUresult status)
{
    char why[200];
    snprintf(why, sizeof(why), "the launch failed: %s%s", gp_collect_strerror(status),
             status == CUDA_ERROR_ILLEGAL_ADDRESS || status == CUDA_ERROR_LAUNCH_FAILED
                 ? " (the context is lost: every later kernel of the program fails)"
                 : "");
    pthread_mutex_lock(&gp_core.state_lock);
    gp_summary_invalid(&gp_core.summary, t_launch_id, t_kernel, why);
    pthread_mutex_unlock(&gp_core.state_lock);
}

uint64_t gp_launch_next_id(void)
{
    return atomic_fetch_add(&gp_core.launch_seq, 1) + 1;
}

const char *gp_launch_blocked(void)
{
    if (!gp_core.cfg.enabled)
        return "profiling disabled (GPUPROF_ENABLE=0)";
    if (gp_t_api_depth > 0) /* it could not take the exclusive lock */
        return "launched from inside another CUDA call";
    return NULL;
}

int gp_launch_decide(gp_kernel *k, int capture, const char **reason)
{
    int decision = -1;
    *reason = NULL;
    if (!k) {
        *reason = "out of memory for the kernel table";
    } else if (!(*reason = gp_launch_blocked()) && k->name->communication) {
        decision = GP_SKIP_COMMUNICATION;
        gp_log_once(GP_LOG_INFO, "communication-kernel",
                    "NCCL kernels are not profiled: each waits for its peers on other GPUs or "
                    "processes, which run it once, so a replay would never end");
    } else if (!*reason) {
        decision = gp_filter_decide(&gp_core.cfg, &gp_core.filter, k->name->name_matches, capture,
                                    &k->name->profiled);
        if (decision == GP_PROFILE && gp_core.counters_off) {
            *reason = gp_core.counters_why;
            decision = -1;
        }
    }
    if (decision != GP_PROFILE)
        gp_summary_skip(&gp_core.summary, decision >= 0 ? gp_decision_name(decision) : *reason);
    return decision;
}

void gp_core_launch_enter(const gp_launch_event *ev, uint64_t *slot)
{
    *slot = GP_SLOT_NONE;
    if (!gp_core.cuda_ready)
        return;
    uint64_t id = gp_launch_next_id();
    const char *reason = NULL;
    int capture = gp_ranges_decide(&gp_core.cfg);
    gp_hook_args a = {.ev = ev, .id = id, .ctx = ev->ctx};

    pthread_mutex_lock(&gp_core.state_lock);
    gp_core.summary.launches_seen++;
    gp_kernel *k = a.k = gp_kernels_lookup(ev);
    t_launch_id = id;
    t_kernel = k ? k->name->demangled : ev->symbol;
    int decision = gp_launch_decide(k, capture, &reason);
    a.profiled = decision == GP_PROFILE;
    gp_hooks_run(GP_AT_SEEN, &a); /* the cross-check's count; sampling's note */
    pthread_mutex_unlock(&gp_core.state_lock);
    if (a.after_lock)
        gp_hooks_run(GP_AT_AFTER_LOCK, &a); /* the cross-check's window closed */

    if (decision != GP_PROFILE) {
        if (decision < 0 && k)
            gp_finish_unprofiled(id, k->name->demangled, reason);
        /* this kernel must not run inside a batch; stall sampling to set
         * up, flush or resume first */
        gp_hooks_run(GP_AT_UNPROFILED, &a);
        gp_serialize_shared(slot);
        return;
    }
    gp_serialize_exclusive_begin();
    gp_launch_state *ls = gp_profile_enter(ev, k, id);
    if (ls) {
        gp_t_in_profiler--; /* the program's launch follows: its exit must be seen */
        *slot = (uint64_t)(uintptr_t)ls;
        return;
    }
    gp_serialize_exclusive_end();
    gp_serialize_shared(slot);
}

void gp_core_launch_exit(const gp_launch_event *ev, CUresult status, uint64_t *slot)
{
    if (status != CUDA_SUCCESS && gp_core.cuda_ready && *slot != GP_SLOT_NONE)
        launch_failed(status);
    if (*slot == GP_SLOT_NONE) {
        if (gp_t_api_depth > 0 && gp_core.cuda_ready)
            gp_t_api_depth--; /* nested call: enter took no lock */
        return;
    }
    if (*slot == GP_SLOT_SHARED) {
        gp_serialize_shared_end(slot);
        return;
    }
    gp_launch_state *ls = (gp_launch_state *)(uintptr_t)*slot;
    *slot = GP_SLOT_NONE;
    gp_t_in_profiler++;
    gp_profile_exit(ls, ev, status);
    gp_serialize_exclusive_end();
}

void gp_core_launch_unprofilable(const char *what, int is_graph)
{
    if (!gp_core.active)
        return;
    uint64_t id = gp_launch_next_id();
    const char *why = is_graph ? "graph launch: kernels inside CUDA graphs are not profiled"
                               : "a launch API gpuprof does not replay (legacy cuLaunch*)";
    pthread_mutex_lock(&gp_core.state_lock);
    gp_core.summary.launches_seen++;
    if (is_graph) {
        gp_core.summary.graph_launches++;
        gp_core.summary.graph_seen++;
    }
    gp_summary_skip(&gp_core.summary, is_graph ? "graph launch" : "launch API not replayed");
    pthread_mutex_unlock(&gp_core.state_lock);
    gp_finish_unprofiled(id, what, why);
    gp_hook_args a = {.every_context = 1}; /* its kernels must not run inside a batch */
    gp_hooks_run(GP_AT_UNPROFILED, &a);
}

void gp_core_count_internal_launch(void)
{
    atomic_fetch_add(&gp_core.summary.internal_launches, 1);
}
