/* test_launch_hooks.c - the launch path as a list (preload/launch_hooks.h)
 * without a GPU: the real path (launch.c, profile.c, graphs.c) and the real
 * list (launch_hooks.c) with four stand-in subsystems in place of the
 * cross-check, the variants, the batch and sampling.  Each stand-in has the
 * hooks of the subsystem it stands for and writes "who.moment" into a trace
 * at each call; the collection side, the kernel table and the output are
 * stand-ins too.  For each path (a launch not profiled, one whose
 * cross-check window closes and whose sampling is serviced, a profiled
 * launch, one only counted, one during stream capture, one given up, one
 * batched, one whose values are lost or taken, a graph's steps, a graph
 * not run step by step, a launch gpuprof cannot replay, a context's end,
 * exit, a run with subsystems off, and `seen` hooks that left their list)
 * the trace must be exactly today's sequence: a hook called out of order,
 * twice, outside its moment or with the wrong lock fails.  Where one hook
 * reads another's result (the variants' counted_only, rotated and
 * close_batch read by the batch; the batch's pending and the variants'
 * taken read by the caller) the stand-ins write it and the trace shows
 * what the reader saw. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preload/contexts.h"
#include "preload/core_state.h"
#include "preload/finish.h"
#include "preload/kernels.h"
#include "preload/launch.h"
#include "preload/launch_hooks.h"
#include "preload/metric_set.h"
#include "preload/ranges.h"
#include "preload/serialize.h"
#include "replay/graph_plan.h"
#include "tests/unit/gp_test.h"


/* ---- the trace ------------------------------------------------------------- */

static char trace[4096];

static void note(const char *what)
{
    size_t l = strlen(trace);
    snprintf(trace + l, sizeof(trace) - l, "%s%s", l ? " " : "", what);
}

static int in_section; /* the exclusive section (serialize.h) */

static int state_lock_held(void)
{
    if (pthread_mutex_trylock(&gp_core.state_lock) == EBUSY)
        return 1;
    pthread_mutex_unlock(&gp_core.state_lock);
    return 0;
}

/* every hook but `seen` runs without state_lock */
static void hook(const char *what, int locked)
{
    GP_CHECK_MSG(state_lock_held() == locked, "%s: state_lock %s", what,
                 locked ? "not held" : "held");
    note(what);
}

/* ---- the stand-in subsystems ------------------------------------------------ */

static struct {
    int xc_close, sample_service, counted_only, sample_program, rotated, close_batch, taken;
    int sampling_off, variants_off;
} knob;
static gp_context ctx_state;
static gp_launch_state *queued; /* the launch the batch stand-in kept */

static int xc_active(void)
{
    return 1;
}
static void xc_seen(gp_hook_args *a)
{
    hook("xc.seen", 1);
    if (knob.xc_close)
        a->xc_close = a->after_lock = 1;
}
static void xc_after_lock(gp_hook_args *a)
{
    hook("xc.after_lock", 0);
    GP_CHECK(a->xc_close);
}
const gp_launch_hooks gp_crosscheck_hooks = {
    .name = "cross-check",
    .active = xc_active,
    .at = {[GP_AT_SEEN] = xc_seen, [GP_AT_AFTER_LOCK] = xc_after_lock},
};

static int var_active(void)
{
    return !knob.variants_off;
}
static void var_profile_begin(gp_hook_args *a)
{
    hook("var.profile_begin", 0);
    GP_CHECK(in_section && a->ev && a->k && a->id && !a->ls);
    if (knob.counted_only) {
        a->cs = &ctx_state;
        a->counted_only = 1;
    }
}
static void var_plan(gp_hook_args *a)
{
    hook("var.plan", 0);
    GP_CHECK(in_section && a->cs == &ctx_state && a->ls && a->ls->cs == a->cs);
    a->rotated = knob.rotated;
    a->close_batch = knob.close_batch;
}
static void var_values(gp_hook_args *a)
{
    hook("var.values", 0);
    GP_CHECK(in_section && a->ls && a->values && !a->why); /* at exit: all collected */
    a->taken = knob.taken;
}
static void var_lost(gp_hook_args *a)
{
    hook("var.lost", 0);
    GP_CHECK(in_section && a->ls && a->why);
}
static void var_context_end(gp_hook_args *a)
{
    hook("var.context_end", 0);
}
static void var_exit(gp_hook_args *a)
{
    hook("var.exit", 0);
}
const gp_launch_hooks gp_variants_hooks = {
    .name = "variants",
    .active = var_active,
    .at =
        {
            [GP_AT_PROFILE_BEGIN] = var_profile_begin,
            [GP_AT_PLAN] = var_plan,
            [GP_AT_VALUES] = var_values,
            [GP_AT_LOST] = var_lost,
            [GP_AT_CONTEXT_END] = var_context_end,
            [GP_AT_EXIT] = var_exit,
        },
};

static void bat_unprofiled(gp_hook_args *a)
{
    /* inside the exclusive section exactly when it is given the context's state */
    GP_CHECK_MSG(in_section == (a->cs != NULL), "unprofiled: cs %p, in section %d", (void *)a->cs,
                 in_section);
    hook(a->cs              ? "bat.unprofiled:cs"
         : a->every_context ? "bat.unprofiled:all"
                            : "bat.unprofiled:ctx",
         0);
}
static void bat_profile_begin(gp_hook_args *a)
{
    hook(a->counted_only ? "bat.profile_begin:counted" : "bat.profile_begin", 0);
    GP_CHECK(!a->counted_only || a->cs == &ctx_state);
}
static void bat_plan(gp_hook_args *a)
{
    char w[64];
    snprintf(w, sizeof(w), "bat.plan%s%s", a->rotated ? ":rotated" : "",
             a->close_batch ? ":close" : "");
    hook(w, 0);
}
static void bat_profile_end(gp_hook_args *a)
{
    if (a->ok && a->ls->rs.batched) {
        a->ls->values = a->values;
        queued = a->ls;
        a->pending = 1;
    }
    hook(a->pending ? "bat.profile_end:pending" : "bat.profile_end", 0);
}
static void bat_context_end(gp_hook_args *a)
{
    hook("bat.context_end", 0);
}
static void bat_exit(gp_hook_args *a)
{
    hook("bat.exit", 0);
}
const gp_launch_hooks gp_batch_hooks = {
    .name = "batch",
    .at =
        {
            [GP_AT_UNPROFILED] = bat_unprofiled,
            [GP_AT_PROFILE_BEGIN] = bat_profile_begin,
            [GP_AT_PLAN] = bat_plan,
            [GP_AT_PROFILE_END] = bat_profile_end,
            [GP_AT_CONTEXT_END] = bat_context_end,
            [GP_AT_EXIT] = bat_exit,
        },
};

static int smp_active(void)
{
    return !knob.sampling_off;
}
static void smp_seen(gp_hook_args *a)
{
    hook("smp.seen", 1);
    if (!a->profiled)
        a->sample_service = knob.sample_service;
}
static void smp_unprofiled(gp_hook_args *a)
{
    hook(a->sample_service ? "smp.unprofiled:service" : "smp.unprofiled", 0);
}
static void smp_before_passes(gp_hook_args *a)
{
    hook("smp.before_passes", 0);
    GP_CHECK(in_section && a->ls && !a->cs);
    a->sample_program = knob.sample_program;
}
static void smp_program_launch(gp_hook_args *a)
{
    hook("smp.program_launch", 0);
    GP_CHECK(in_section && a->ev && a->k);
}
static void smp_graph_run(gp_hook_args *a)
{
    hook("smp.graph_run", 0);
    GP_CHECK(in_section && a->ctx);
}
static void smp_context_end(gp_hook_args *a)
{
    hook("smp.context_end", 0);
}
static void smp_exit(gp_hook_args *a)
{
    hook("smp.exit", 0);
}
const gp_launch_hooks gp_sampling_hooks = {
    .name = "sampling",
    .active = smp_active,
    .at =
        {
            [GP_AT_SEEN] = smp_seen,
            [GP_AT_UNPROFILED] = smp_unprofiled,
            [GP_AT_BEFORE_PASSES] = smp_before_passes,
            [GP_AT_PROGRAM_LAUNCH] = smp_program_launch,
            [GP_AT_GRAPH_RUN] = smp_graph_run,
            [GP_AT_CONTEXT_END] = smp_context_end,
            [GP_AT_EXIT] = smp_exit,
        },
};

/* ---- the rest of the policy and the collection side --------------------------- */

static struct {
    int capturing, begin_fails, unpatched, batched, end_fails;
} col;

static gp_kernel_name name_p = {.mangled = "_Z1pv", .demangled = "p()", .name_matches = 1};
static gp_kernel_name name_s = {.mangled = "_Z1sv", .demangled = "s()", .name_matches = 0};
static gp_kernel kern_p = {.name = &name_p}, kern_s = {.name = &name_s};

gp_kernel *gp_kernels_lookup(const gp_launch_event *ev)
{
    return strcmp(ev->symbol, "_Z1pv") == 0 ? &kern_p : &kern_s;
}
void gp_kernels_attrs(gp_kernel *k)
{
    (void)k;
}
void gp_kernels_resolve_globals(CUmodule mod, CUcontext ctx)
{
    (void)mod, (void)ctx;
}
int gp_filter_decide(const gp_config *cfg, gp_filter_state *st, int name_matches, int capture,
                     uint64_t *profiled)
{
    (void)cfg, (void)st, (void)capture, (void)profiled;
    return name_matches ? GP_PROFILE : GP_SKIP_NAME;
}
const char *gp_decision_name(int d)
{
    return d == GP_SKIP_NAME ? "name" : "other";
}
int gp_ranges_decide(const struct gp_config *cfg)
{
    (void)cfg;
    return GP_PROFILE;
}
gp_context *gp_contexts_get(CUcontext ctx)
{
    (void)ctx;
    return &ctx_state;
}
size_t gp_metric_set_index(const char *name)
{
    (void)name;
    return 0;
}
void gp_finish_unprofiled(uint64_t launch_id, const char *kernel, const char *reason)
{
    (void)launch_id, (void)kernel, (void)reason;
    GP_CHECK(!state_lock_held());
    note("finish.unprofiled");
}
void gp_finish_abandon(gp_launch_state *ls, const char *why)
{
    (void)ls, (void)why;
    note("finish.abandon");
}
void gp_finish_launch(gp_launch_state *ls, double *values, const char *hw_why)
{
    (void)ls, (void)values, (void)hw_why;
    note("finish.launch");
}
void gp_summary_skip(gp_summary *s, const char *reason)
{
    (void)s, (void)reason;
}
void gp_summary_invalid(gp_summary *s, uint64_t launch_id, const char *kernel, const char *reason)
{
    (void)s, (void)launch_id, (void)kernel, (void)reason;
}
void gp_summary_profiled(gp_summary *s, uint64_t correlation, const char *name, double duration_ns,
                         int executed)
{
    (void)s, (void)correlation, (void)name, (void)duration_ns, (void)executed;
}

void gp_serialize_shared(uint64_t *slot)
{
    *slot = gp_t_api_depth++ == 0 ? GP_SLOT_SHARED : GP_SLOT_NONE;
}
void gp_serialize_shared_end(uint64_t *slot)
{
    gp_t_api_depth--;
    *slot = GP_SLOT_NONE;
}
void gp_serialize_exclusive_begin(void)
{
    GP_CHECK_MSG(!in_section, "the exclusive section taken twice");
    in_section = 1;
    gp_t_api_depth++;
    gp_t_in_profiler++;
}
void gp_serialize_exclusive_end(void)
{
    GP_CHECK_MSG(in_section, "the exclusive section left while outside");
    in_section = 0;
    gp_t_in_profiler--;
    gp_t_api_depth--;
}

const char *gp_collect_strerror(CUresult r)
{
    (void)r;
    return "error";
}
CUresult gp_collect_capturing(CUstream stream, int *capturing)
{
    (void)stream;
    *capturing = col.capturing;
    return CUDA_SUCCESS;
}
CUresult gp_collect_sync(void)
{
    return CUDA_SUCCESS;
}
CUresult gp_collect_wait_program(void)
{
    return CUDA_SUCCESS;
}
int gp_collect_batch_is_open(const gp_collect_ctx *c)
{
    (void)c;
    return 0;
}
int gp_collect_begin(gp_collect_ctx *c, gp_alloc_table *allocs, const gp_launch_exec *e,
                     const gp_replay_opts *o, gp_replay_state *st)
{
    (void)c, (void)allocs, (void)e, (void)o;
    if (col.begin_fails) {
        snprintf(st->why, sizeof(st->why), "stand-in refused");
        return -1;
    }
    st->unpatched = col.unpatched;
    return 0;
}
int gp_collect_end(gp_collect_ctx *c, const gp_launch_exec *e, CUresult status,
                   const gp_collect_set *set, const char *kernel, const gp_replay_opts *o,
                   gp_replay_state *st, double *values, int *code_missing)
{
    (void)c, (void)e, (void)status, (void)set, (void)kernel, (void)o, (void)code_missing;
    values[0] = NAN;
    st->batched = col.batched;
    return col.end_fails ? -1 : 0;
}
void gp_collect_release(gp_collect_ctx *c)
{
    (void)c;
}
const gp_snapshot_stats *gp_collect_snapshot_stats(const gp_collect_ctx *c)
{
    (void)c;
    return NULL;
}
CUresult gp_collect_run(const gp_launch_exec *e)
{
    (void)e;
    note("run");
    return CUDA_SUCCESS;
}
int gp_collect_graph_save(gp_collect_ctx *c, gp_alloc_table *allocs, const gp_replay_opts *o,
                          char *err, size_t errlen)
{
    (void)c, (void)allocs, (void)o, (void)err, (void)errlen;
    return 0;
}
int gp_collect_graph_restore(gp_collect_ctx *c, char *err, size_t errlen)
{
    (void)c, (void)err, (void)errlen;
    return 0;
}
void gp_collect_graph_release(gp_collect_ctx *c)
{
    (void)c;
}

/* a graph of two kernels: p (chosen by the filter) and s (not) */
static const char *graph_kernels[2] = {"_Z1pv", "_Z1sv"};
gp_graph_plan *gp_graph_plan_build(CUgraph g)
{
    (void)g;
    gp_graph_plan *p = calloc(1, sizeof(*p));
    p->steps = calloc(2, sizeof(*p->steps));
    p->n = p->cap = p->kernels = 2;
    for (int i = 0; i < 2; i++) {
        p->steps[i].kind = GP_STEP_KERNEL;
        p->steps[i].symbol = graph_kernels[i];
    }
    return p;
}
void gp_graph_plan_free(gp_graph_plan *p)
{
    if (p)
        free(p->steps);
    free(p);
}
CUresult gp_graph_step_run_transfer(const gp_graph_step *st)
{
    (void)st;
    return CUDA_SUCCESS;
}

/* ---- the paths ---------------------------------------------------------------- */

/* Clears the trace and the knobs' effects for the next path. */
static void reset(void)
{
    trace[0] = '\0';
    memset(&knob, 0, sizeof(knob));
    memset(&col, 0, sizeof(col));
    gp_core.counters_off = 0;
    gp_hooks_start();
}

/* One launch of kernel `symbol`: enter, (the program's launch), exit. */
static void launch(const char *symbol)
{
    gp_launch_event ev = {.ctx = (CUcontext)0x1000, .symbol = symbol, .api = "cuLaunchKernel"};
    uint64_t slot;
    gp_core_launch_enter(&ev, &slot);
    note("|"); /* the program's launch */
    gp_core_launch_exit(&ev, CUDA_SUCCESS, &slot);
    GP_CHECK_MSG(!in_section && gp_t_api_depth == 0 && gp_t_in_profiler == 0,
                 "after the launch: section %d, depth %d, guard %d", in_section, gp_t_api_depth,
                 gp_t_in_profiler);
}

#define EXPECT(path, want)                                                                         \
    GP_CHECK_MSG(strcmp(trace, want) == 0, "%s:\n  got  %s\n  want %s", path, trace, want)

static void launches(void)
{
    reset();
    launch("_Z1sv");
    EXPECT("not profiled", "xc.seen smp.seen bat.unprofiled:ctx smp.unprofiled |");

    reset();
    gp_core.counters_off = 1; /* not profiled for a reason: listed as unprofiled */
    snprintf(gp_core.counters_why, sizeof(gp_core.counters_why), "counters off");
    launch("_Z1pv");
    EXPECT("not profiled, a reason",
           "xc.seen smp.seen finish.unprofiled bat.unprofiled:ctx smp.unprofiled |");

    reset();
    knob.xc_close = knob.sample_service = 1;
    launch("_Z1sv");
    EXPECT("not profiled, window full, sampling serviced",
           "xc.seen smp.seen xc.after_lock bat.unprofiled:ctx smp.unprofiled:service |");

    reset();
    col.unpatched = 1;
    launch("_Z1pv");
    EXPECT("profiled", "xc.seen smp.seen var.profile_begin bat.profile_begin smp.before_passes "
                       "var.plan bat.plan smp.program_launch | bat.profile_end var.values "
                       "finish.launch");

    reset();
    knob.rotated = knob.close_batch = 1;
    launch("_Z1pv");
    EXPECT("profiled, rotated (patched: no program launch hook)",
           "xc.seen smp.seen var.profile_begin bat.profile_begin smp.before_passes var.plan "
           "bat.plan:rotated:close | bat.profile_end var.values finish.launch");

    reset();
    knob.counted_only = 1;
    uint64_t counted = gp_core.summary.launches_counted;
    launch("_Z1pv");
    EXPECT("counted only", "xc.seen smp.seen var.profile_begin bat.profile_begin:counted |");
    GP_CHECK(gp_core.summary.launches_counted == counted + 1);

    reset();
    col.capturing = 1;
    launch("_Z1pv");
    EXPECT("during stream capture",
           "xc.seen smp.seen var.profile_begin bat.profile_begin finish.unprofiled |");

    reset();
    col.begin_fails = 1;
    knob.sample_program = 1;
    launch("_Z1pv");
    EXPECT("given up before the passes",
           "xc.seen smp.seen var.profile_begin bat.profile_begin smp.before_passes var.plan "
           "bat.plan bat.unprofiled:cs smp.unprofiled smp.program_launch var.lost "
           "finish.abandon |");

    reset();
    col.begin_fails = 1;
    launch("_Z1pv");
    EXPECT("given up, not sampled",
           "xc.seen smp.seen var.profile_begin bat.profile_begin smp.before_passes var.plan "
           "bat.plan bat.unprofiled:cs smp.unprofiled var.lost finish.abandon |");

    reset();
    col.batched = 1;
    launch("_Z1pv");
    EXPECT("batched", "xc.seen smp.seen var.profile_begin bat.profile_begin smp.before_passes "
                      "var.plan bat.plan | bat.profile_end:pending");
    GP_CHECK(queued != NULL);
    if (queued) {
        free(queued->values);
        free(queued);
        queued = NULL;
    }

    reset();
    col.end_fails = 1;
    launch("_Z1pv");
    EXPECT("values lost at exit", "xc.seen smp.seen var.profile_begin bat.profile_begin "
                                  "smp.before_passes var.plan bat.plan | bat.profile_end "
                                  "var.lost finish.abandon");

    reset();
    knob.taken = 1;
    launch("_Z1pv");
    EXPECT("values taken by the variants", "xc.seen smp.seen var.profile_begin bat.profile_begin "
                                           "smp.before_passes var.plan bat.plan | "
                                           "bat.profile_end var.values");

    reset();
    gp_core_launch_unprofilable("cuLaunch", 0);
    EXPECT("a launch gpuprof cannot replay", "finish.unprofiled bat.unprofiled:all smp.unprofiled");
}

static void graphs(void)
{
    CUgraphExec exec = (CUgraphExec)0x2000;
    gp_core_graph_instantiated(exec, (CUgraph)0x3000);

    reset();
    gp_core_graph_launch(exec, NULL, (CUcontext)0x1000, 1);
    EXPECT("graph steps", "var.profile_begin bat.profile_begin smp.before_passes var.plan "
                          "bat.plan run bat.profile_end var.values finish.launch "
                          "bat.unprofiled:cs smp.unprofiled run bat.unprofiled:cs smp.unprofiled "
                          "smp.graph_run");
    GP_CHECK(!in_section);

    reset();
    graph_kernels[0] = "_Z1sv"; /* no step chosen */
    gp_core_graph_instantiated(exec, (CUgraph)0x3000);
    gp_core_graph_launch(exec, NULL, (CUcontext)0x1000, 1);
    EXPECT("graph, no step chosen", "bat.unprofiled:ctx smp.unprofiled");

    reset();
    gp_core_graph_launch((CUgraphExec)0x2001, NULL, (CUcontext)0x1000, 1);
    EXPECT("graph without a plan", "finish.unprofiled bat.unprofiled:all smp.unprofiled");
    gp_core_graph_forget(exec);
}

static void teardown(void)
{
    reset();
    gp_hook_args a = {.ctx = (CUcontext)0x1000, .cs = &ctx_state};
    gp_hooks_run(GP_AT_CONTEXT_END, &a);
    EXPECT("a context's end", "smp.context_end bat.context_end var.context_end");

    reset();
    gp_hook_args b = {0};
    gp_hooks_run(GP_AT_EXIT, &b);
    EXPECT("exit", "bat.exit var.exit smp.exit");
}

/* Subsystems that are off are in no list: their hooks are never called. */
static void off(void)
{
    reset();
    knob.sampling_off = knob.variants_off = 1;
    gp_hooks_start();
    knob.sample_service = knob.counted_only = 1; /* would show if they were called */
    launch("_Z1sv");
    launch("_Z1pv");
    EXPECT("sampling and variants off", "xc.seen bat.unprofiled:ctx | xc.seen bat.profile_begin "
                                        "bat.plan | bat.profile_end finish.launch");
    gp_hook_args a = {0};
    trace[0] = '\0';
    gp_hooks_run(GP_AT_EXIT, &a);
    gp_hooks_run(GP_AT_GRAPH_RUN, &a); /* no active subsystem has it */
    EXPECT("exit, sampling and variants off", "bat.exit");
    GP_CHECK(gp_hook_lists[GP_AT_GRAPH_RUN].n == 0 && gp_hook_lists[GP_AT_SEEN].n == 1);
}

/* A `seen` hook done for the run leaves its list (under state_lock); the
 * others keep their order, and leaving twice or a hook never listed changes
 * nothing. */
static void leave(void)
{
    reset();
    pthread_mutex_lock(&gp_core.state_lock);
    gp_hooks_leave_seen(xc_seen);
    gp_hooks_leave_seen(xc_seen);
    gp_hooks_leave_seen(smp_unprofiled); /* not a seen hook */
    pthread_mutex_unlock(&gp_core.state_lock);
    GP_CHECK(gp_hook_lists[GP_AT_SEEN].n == 1 && gp_hook_lists[GP_AT_SEEN].fn[1] == NULL);
    knob.xc_close = 1; /* would show if xc.seen were called */
    launch("_Z1sv");
    EXPECT("the cross-check left seen", "smp.seen bat.unprofiled:ctx smp.unprofiled |");
    pthread_mutex_lock(&gp_core.state_lock);
    gp_hooks_leave_seen(smp_seen);
    pthread_mutex_unlock(&gp_core.state_lock);
    trace[0] = '\0';
    launch("_Z1sv");
    EXPECT("both left seen", "bat.unprofiled:ctx smp.unprofiled |");
    GP_CHECK(gp_hook_lists[GP_AT_SEEN].n == 0 && gp_hook_lists[GP_AT_SEEN].fn[0] == NULL);
}

int main(void)
{
    gp_core.cfg.enabled = 1;
    gp_core.cuda_ready = gp_core.active = 1;
    gp_core.cfg.launch_count = -1;
    pthread_mutex_init(&gp_core.state_lock, NULL);
    pthread_rwlock_init(&gp_core.launch_lock, NULL);
    /* before gp_hooks_start every moment is empty */
    GP_CHECK(gp_hook_lists[GP_AT_SEEN].n == 0 && gp_hook_lists[GP_AT_EXIT].n == 0);
    launches();
    graphs();
    teardown();
    off();
    leave();
    return gp_test_finish("launch_hooks");
}
