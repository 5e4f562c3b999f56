/* graphs.c - CUDA graphs (core.h): plans taken at instantiation and kept by
 * executable graph; at cuGraphLaunch, when some kernel step is chosen, the
 * plan's steps run under the exclusive lock between a save and a restore of
 * the context's memory, the chosen kernels through the same profiled path
 * as the program's launches (profile.h); the graph then runs as asked. */
#include <stdio.h>
#include <stdlib.h>

#include "preload/contexts.h"
#include "preload/core_state.h"
#include "preload/finish.h"
#include "preload/kernels.h"
#include "preload/launch.h"
#include "preload/launch_hooks.h"
#include "preload/profile.h"
#include "preload/ranges.h"
#include "preload/serialize.h"
#include "replay/graph_plan.h"
#include "util/log.h"

typedef struct gp_graph {
    CUgraphExec exec;
    gp_graph_plan *plan;
    UT_hash_handle hh;
} gp_graph;

void gp_core_graph_instantiated(CUgraphExec exec, CUgraph graph)
{
    if (!gp_core.cuda_ready || !exec || !graph)
        return;
    gp_t_in_profiler++;
    gp_graph_plan *plan = gp_graph_plan_build(graph);
    gp_t_in_profiler--;
    if (!plan)
        return;
    pthread_mutex_lock(&gp_core.state_lock);
    gp_graph *g;
    HASH_FIND(hh, gp_core.graphs, &exec, sizeof(exec), g);
    if (!g && (g = calloc(1, sizeof(*g)))) {
        g->exec = exec;
        gp_uthash_oom = 0;
        HASH_ADD(hh, gp_core.graphs, exec, sizeof(g->exec), g);
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
    pthread_mutex_unlock(&gp_core.state_lock);
}

void gp_core_graph_forget(CUgraphExec exec)
{
    if (!gp_core.cuda_ready)
        return;
    pthread_mutex_lock(&gp_core.state_lock);
    gp_graph *g;
    HASH_FIND(hh, gp_core.graphs, &exec, sizeof(exec), g);
    if (g) {
        HASH_DEL(gp_core.graphs, g);
        gp_graph_plan_free(g->plan);
        free(g);
    }
    pthread_mutex_unlock(&gp_core.state_lock);
}

void gp_core_graph_changed(CUgraphExec exec, const char *api)
{
    if (!gp_core.cuda_ready)
        return;
    pthread_mutex_lock(&gp_core.state_lock);
    gp_graph *g;
    HASH_FIND(hh, gp_core.graphs, &exec, sizeof(exec), g);
    if (g && g->plan && !g->plan->why[0])
        snprintf(g->plan->why, sizeof(g->plan->why),
                 "the executable graph was changed after instantiation (%s)", api);
    pthread_mutex_unlock(&gp_core.state_lock);
}

/* A graph launch gpuprof cannot run step by step: counted as one launch. */
static void graph_not_profiled(const char *why)
{
    uint64_t id = gp_launch_next_id();
    char reason[300];
    snprintf(reason, sizeof(reason), "graph launch: %s", why);
    pthread_mutex_lock(&gp_core.state_lock);
    gp_core.summary.launches_seen++;
    gp_core.summary.graph_launches++;
    gp_core.summary.graph_seen++;
    gp_summary_skip(&gp_core.summary, "graph launch");
    pthread_mutex_unlock(&gp_core.state_lock);
    gp_log_once(GP_LOG_INFO, "graph-not-profiled", "kernels of a graph not profiled: %s", why);
    gp_finish_unprofiled(id, "(graph)", reason);
    gp_hook_args a = {.every_context = 1}; /* its kernels must not run inside a batch */
    gp_hooks_run(GP_AT_UNPROFILED, &a);
}

/* The graph's steps, as launches gpuprof may profile. */
typedef struct graph_steps {
    gp_launch_event *evs;
    gp_kernel **ks;
    uint64_t *ids;
    int *chosen;
} graph_steps;

/* Runs plan's steps in order (chosen kernels profiled) between a save and a
 * restore of the context's memory.  Caller is inside the exclusive section.
 * Returns NULL, or why the steps stopped. */
static const char *graph_emulate(const gp_graph_plan *plan, const graph_steps *s, CUstream stream,
                                 CUcontext ctx, char *buf, size_t len)
{
    int capturing = 0;
    if (gp_collect_capturing(stream, &capturing) != CUDA_SUCCESS)
        return "the stream cannot be queried (an earlier fault?)";
    if (capturing)
        return "the graph is launched into a stream capture";
    if (gp_collect_sync() != CUDA_SUCCESS)
        return "the context cannot be synchronized";
    pthread_mutex_lock(&gp_core.state_lock);
    gp_context *cs = gp_contexts_get(ctx);
    pthread_mutex_unlock(&gp_core.state_lock);
    if (!cs || cs->unusable)
        return cs ? cs->why : "out of memory";
    gp_replay_opts so;
    gp_profile_snapshot_policy(&so);
    if (gp_collect_graph_save(cs->col, gp_core.allocs, &so, buf, len) != 0)
        return buf;
    const char *stop = NULL;
    for (size_t i = 0; i < plan->n && !stop; i++) {
        const gp_graph_step *st = &plan->steps[i];
        CUresult r;
        if (st->kind == GP_STEP_KERNEL && s->chosen[i]) {
            gp_launch_state *ls = gp_profile_enter(&s->evs[i], s->ks[i], s->ids[i]);
            r = gp_collect_run(&s->evs[i].exec);
            if (ls) {
                ls->graph_node = 1;
                gp_profile_exit(ls, &s->evs[i], r);
            }
        } else {
            gp_hook_args a = {.ctx = ctx, .cs = cs}; /* a kernel gpuprof does not count */
            gp_hooks_run(GP_AT_UNPROFILED, &a);
            r = st->kind == GP_STEP_KERNEL ? gp_collect_run(&s->evs[i].exec)
                                           : gp_graph_step_run_transfer(st);
        }
        if (r == CUDA_SUCCESS)
            r = gp_collect_sync();
        if (r != CUDA_SUCCESS) {
            snprintf(buf, len, "step %zu of %zu failed: %s", i + 1, plan->n,
                     gp_collect_strerror(r));
            stop = buf;
        }
    }
    gp_hook_args a = {.ctx = ctx, .cs = cs}; /* the graph's own kernels follow */
    gp_hooks_run(GP_AT_UNPROFILED, &a);
    char err[300];
    if (gp_collect_graph_restore(cs->col, err, sizeof(err)) != 0) {
        gp_error("restoring memory after a graph's steps failed: %s", err);
        if (!stop) {
            snprintf(buf, len, "restoring memory failed: %s", err);
            stop = buf;
        }
    }
    gp_collect_graph_release(cs->col);
    return stop;
}

/* Why the graph's kernels cannot be run step by step now, or NULL.  Caller
 * holds state_lock. */
static const char *graph_unusable(const gp_graph_plan *plan)
{
    if (!plan)
        return "instantiated where gpuprof could not read it";
    if (plan->why[0])
        return plan->why;
    if (!plan->kernels)
        return "it holds no kernel";
    const char *why = gp_launch_blocked();
    if (why)
        return why;
    return gp_core.counters_off ? gp_core.counters_why : NULL;
}

/* Each kernel step is a launch seen and goes through the decision.  Returns
 * whether some step is chosen.  Caller holds state_lock. */
static int graph_decide(const gp_graph_plan *plan, graph_steps *s, CUstream stream, CUcontext ctx,
                        uint32_t ctx_id, int capture)
{
    int any = 0;
    gp_core.summary.graph_launches++;
    for (size_t i = 0; i < plan->n; i++) {
        const gp_graph_step *st = &plan->steps[i];
        if (st->kind != GP_STEP_KERNEL)
            continue;
        gp_launch_event *ev = &s->evs[i];
        ev->ctx = ctx;
        ev->ctx_id = ctx_id;
        ev->symbol = st->symbol;
        ev->api = "cuGraphLaunch";
        ev->graph_step = 1;
        ev->exec = st->exec;
        ev->exec.stream = stream;
        s->ids[i] = gp_launch_next_id();
        gp_core.summary.launches_seen++;
        gp_core.summary.graph_seen++;
        s->ks[i] = gp_kernels_lookup(ev);
        const char *reason;
        s->chosen[i] = gp_launch_decide(s->ks[i], capture, &reason) == GP_PROFILE;
        any |= s->chosen[i];
    }
    return any;
}

void gp_core_graph_launch(CUgraphExec exec, CUstream stream, CUcontext ctx, uint32_t ctx_id)
{
    if (!gp_core.active)
        return;
    if (!gp_core.cuda_ready) {
        graph_not_profiled("CUDA was not ready");
        return;
    }
    int capture = gp_ranges_decide(&gp_core.cfg);
    pthread_mutex_lock(&gp_core.state_lock);
    gp_graph *g;
    HASH_FIND(hh, gp_core.graphs, &exec, sizeof(exec), g);
    const gp_graph_plan *plan = g ? g->plan : NULL;
    const char *why = graph_unusable(plan);
    if (why) {
        char whycopy[600];
        snprintf(whycopy, sizeof(whycopy), "%s", why);
        pthread_mutex_unlock(&gp_core.state_lock);
        graph_not_profiled(whycopy);
        return;
    }
    size_t n = plan->n;
    graph_steps s = {calloc(n, sizeof(*s.evs)), calloc(n, sizeof(*s.ks)), calloc(n, sizeof(*s.ids)),
                     calloc(n, sizeof(*s.chosen))};
    int any = 0;
    if (s.evs && s.ks && s.ids && s.chosen)
        any = graph_decide(plan, &s, stream, ctx, ctx_id, capture);
    else
        gp_core.summary.graph_launches++;
    pthread_mutex_unlock(&gp_core.state_lock);
    if (any) {
        gp_serialize_exclusive_begin();
        double t0 = gp_now_s();
        pthread_mutex_lock(&gp_core.state_lock);
        double counted0 = gp_core.summary.profiler_s; /* the steps' launches add their own */
        pthread_mutex_unlock(&gp_core.state_lock);
        char buf[400];
        const char *stop = graph_emulate(plan, &s, stream, ctx, buf, sizeof(buf));
        if (stop)
            gp_log_once(GP_LOG_WARN, "graph-steps",
                        "the kernels of a graph were not all "
                        "profiled: %s (first seen at launch %llu)",
                        stop, (unsigned long long)(s.ids[0] ? s.ids[0] : 0));
        pthread_mutex_lock(&gp_core.state_lock);
        /* the graph's time less what its profiled steps already counted
         * (other launches wait while it runs: the difference is theirs) */
        double rest = (gp_now_s() - t0) - (gp_core.summary.profiler_s - counted0);
        if (rest > 0)
            gp_core.summary.profiler_s += rest;
        pthread_mutex_unlock(&gp_core.state_lock);
        gp_hook_args a = {.ctx = ctx}; /* sampling resumes for the graph's own run */
        gp_hooks_run(GP_AT_GRAPH_RUN, &a);
        gp_serialize_exclusive_end();
    } else {
        gp_hook_args a = {.ctx = ctx}; /* the graph's kernels must not run inside a batch */
        gp_hooks_run(GP_AT_UNPROFILED, &a);
    }
    free(s.evs);
    free(s.ks);
    free(s.ids);
    free(s.chosen);
}
