/* sampling.c - see sampling.h */
#include "preload/sampling.h"

#include <stdlib.h>
#include <string.h>

#include "preload/crosscheck.h"
#include "preload/launch_hooks.h"
#include "preload/metric_set.h"
#include "preload/serialize.h"
#include "preload/source.h"
#include "replay/pc_sampling.h"
#include "util/log.h"
#include "util/textio.h"

/* a context that samples stops and reads its samples at least this often
 * (seconds): CUPTI hands samples over only after a stop, and holds the
 * sampled PCs of a run in a host buffer of bounded size meanwhile */
#define GP_SAMPLING_FLUSH_S 2.0
/* CUPTI's buffers: the device buffer the hardware writes to (CUPTI's
 * default, 512 MB, is taken from the program's GPU memory; Nsight Compute
 * uses 32 MB) and the host buffer of decoded PCs (about 5500 PCs a MB) */
#define GP_SAMPLING_HW_BUFFER (128u << 20)
#define GP_SAMPLING_HW_BUFFER_MIN (16u << 20)
#define GP_SAMPLING_HW_BUFFER_MAX (512u << 20)
#define GP_SAMPLING_SCRATCH (64u << 20)
/* how often CUPTI's threads move samples out of that buffer (CUPTI's
 * default, 100 ms, let a 32 MB buffer overflow at 2^11 cycles) */
#define GP_SAMPLING_WORKER_MS 10

enum smp_state {
    SMP_NONE,     /* not set up yet */
    SMP_ON,       /* enabled and started */
    SMP_PAUSED,   /* enabled, stopped while gpuprof works */
    SMP_COUNTERS, /* disabled: the range profiler has the context, for good (CUPTI
                   * attributes no sample once it was used there, measured) */
    SMP_FAILED    /* CUPTI refused it here */
};

typedef struct smp_ctx {
    CUcontext ctx;
    int device;
    int state;
    gp_pcs *p;
    double last_flush;
    UT_hash_handle hh;
} smp_ctx;

static smp_ctx *contexts;
/* the run's figures, for the summary (state_lock) */
static struct {
    uint64_t launches, starts, stops, switches;
    double start_s, stop_s, setup_s, switch_s;
    gp_pcs_totals totals;
    int failed;
    char why[400];
} run;

/* Sampling runs where no range profiler will be needed: a set without
 * hardware counters (@source), or no launch to take counters (-c 0).  Not
 * in the launches before a set's first counter-profiled one: the switch
 * would cost about half a second and end the cross-check for nothing the
 * report could use beside the counters. */
/* wanted(), decided at its first call and kept (every launch asks; read
 * by any thread) */
static _Atomic int want = -1;

static int wanted(void)
{
    if (want >= 0)
        return want;
    if (!gp_core.cfg.sampling || !gp_core.cfg.enabled) {
        want = 0;
        return want;
    }
    /* the list is built at start-up: its answer is taken once */
    int counters = gp_metric_set_needs_counters();
    if (gp_core.cfg.sampling == GP_SAMPLING_PROFILED)
        want = !counters && gp_core.cfg.launch_count != 0;
    else
        want = !counters || gp_core.cfg.launch_count == 0;
    return want;
}

/* GPUPROF_SAMPLING=profiled: the program's own run of the profiled
 * launches alone (the launches Nsight Compute would sample), not the
 * others. */
static int profiled_only(void)
{
    return gp_core.cfg.sampling == GP_SAMPLING_PROFILED;
}

/* GPUPROF_SAMPLING=profiled where no launch is profiled (-c 0): off, said. */
static int profiled_none(void)
{
    return profiled_only() && gp_core.cfg.launch_count == 0;
}

static smp_ctx *find(CUcontext ctx, int add)
{
    smp_ctx *c;
    HASH_FIND(hh, contexts, &ctx, sizeof(ctx), c);
    if (c || !add)
        return c;
    if (!(c = calloc(1, sizeof(*c))))
        return NULL;
    c->ctx = ctx;
    c->device = -1;
    gp_uthash_oom = 0;
    HASH_ADD(hh, contexts, ctx, sizeof(c->ctx), c);
    if (gp_uthash_oom) {
        free(c);
        return NULL;
    }
    return c;
}

/* A launch that is not profiled (state_lock held): counts it when its
 * context is sampling.  1 when the caller is to call service() in the
 * exclusive section before the launch (sampling to set up, flush or
 * resume). */
__attribute__((noinline)) static int note(const gp_launch_event *ev, const gp_kernel *k)
{
    if (!wanted() || !k)
        return 0;
    smp_ctx *c = find(ev->ctx, 1);
    if (!c)
        return 0;
    switch (c->state) {
    case SMP_NONE:
    case SMP_PAUSED:
        return !profiled_only();
    case SMP_ON:
        if (profiled_only()) /* to be stopped: this launch is not profiled */
            return 1;
        if (gp_now_s() - c->last_flush > GP_SAMPLING_FLUSH_S)
            return 1;
        run.launches++;
        gp_src_sampled_launch(gp_source_table(), c->device, k->name->mangled);
        return 0;
    default: /* the range profiler has the context, or sampling failed there */
        return 0;
    }
}

/* ---- CUPTI, in the exclusive section ------------------------------------- */

typedef struct sink_arg {
    gp_pcs *p;
    int device;
} sink_arg;

/* Samples into the source table (state_lock held by the drainer). */
static void sink(void *arg, const gp_pcs_pc *pc)
{
    const sink_arg *a = arg;
    for (size_t i = 0; i < pc->n; i++) {
        const char *reason = gp_pcs_reason_name(a->p, pc->reasons[i]);
        if (reason)
            gp_src_add_samples(gp_source_table(), a->device, pc->cubin_crc, pc->function, pc->pc, reason,
                               pc->counts[i]);
    }
}

static void drain(smp_ctx *c)
{
    char err[256];
    sink_arg a = {c->p, c->device};
    pthread_mutex_lock(&gp_core.state_lock);
    if (gp_pcs_drain(c->p, sink, &a, err, sizeof(err)) != 0)
        gp_log_once(GP_LOG_WARN, "sampling-drain", "stall samples could not be read: %s", err);
    pthread_mutex_unlock(&gp_core.state_lock);
    c->last_flush = gp_now_s();
}

static void stop(smp_ctx *c)
{
    char err[256];
    double t = gp_now_s();
    if (gp_pcs_stop(c->p, err, sizeof(err)) != 0)
        gp_log_once(GP_LOG_WARN, "sampling-stop", "stall sampling did not stop: %s", err);
    drain(c);
    pthread_mutex_lock(&gp_core.state_lock);
    run.stops++;
    run.stop_s += gp_now_s() - t;
    pthread_mutex_unlock(&gp_core.state_lock);
}

static int start(smp_ctx *c)
{
    char err[256];
    double t = gp_now_s();
    int r = gp_pcs_start(c->p, err, sizeof(err));
    pthread_mutex_lock(&gp_core.state_lock);
    run.starts++;
    run.start_s += gp_now_s() - t;
    pthread_mutex_unlock(&gp_core.state_lock);
    if (r != 0)
        gp_log_once(GP_LOG_WARN, "sampling-start", "stall sampling did not start: %s", err);
    return r;
}

/* Reads what is left, adds the context's totals to the run's and disables. */
static void finish(smp_ctx *c)
{
    if (!c->p)
        return;
    sink_arg a = {c->p, c->device};
    pthread_mutex_lock(&gp_core.state_lock);
    gp_pcs_close(c->p, sink, &a, &run.totals);
    pthread_mutex_unlock(&gp_core.state_lock);
    c->p = NULL;
}

static void fail(smp_ctx *c, const char *why)
{
    c->state = SMP_FAILED;
    pthread_mutex_lock(&gp_core.state_lock);
    if (!run.failed) {
        run.failed = 1;
        snprintf(run.why, sizeof(run.why), "%s", why);
    }
    pthread_mutex_unlock(&gp_core.state_lock);
    gp_log_once(GP_LOG_WARN, "sampling-open",
                "warp-stall sampling is off in this context: %s; every other result is collected",
                why);
}

/* The hardware's buffer: the samples of a few worker periods
 * (GP_SAMPLING_WORKER_MS) at about 120 million samples a second of kernel
 * time at 2^11 cycles on an H200 (GP_SAMPLING_HW_BUFFER), halved for each
 * doubling of the interval, doubled for each halving. */
static size_t hw_buffer_bytes(unsigned interval_log2)
{
    size_t b = GP_SAMPLING_HW_BUFFER;
    for (unsigned i = interval_log2; i < 11 && b < GP_SAMPLING_HW_BUFFER_MAX; i++)
        b *= 2;
    for (unsigned i = 11; i < interval_log2 && b > GP_SAMPLING_HW_BUFFER_MIN; i++)
        b /= 2;
    return b;
}

/* Enables sampling in c, stopped: 0, or -1 (c failed). */
static int open_only(smp_ctx *c)
{
    char err[400];
    double t = gp_now_s();
    if (c->device < 0)
        c->device = gp_collect_current_device();
    unsigned log2 = (unsigned)(5 + gp_core.cfg.sampling_interval);
    gp_pcs_config cfg = {log2, hw_buffer_bytes(log2), GP_SAMPLING_SCRATCH,
                         GP_SAMPLING_WORKER_MS};
    c->p = gp_pcs_open(c->ctx, &cfg, err, sizeof(err));
    if (!c->p) {
        fail(c, err);
        return -1;
    }
    pthread_mutex_lock(&gp_core.state_lock);
    run.setup_s += gp_now_s() - t;
    pthread_mutex_unlock(&gp_core.state_lock);
    return 0;
}

/* Enables and starts sampling in c: 0, or -1 (c failed). */
static int open_start(smp_ctx *c)
{
    if (!c->p && open_only(c) != 0)
        return -1;
    if (start(c) != 0) {
        finish(c);
        fail(c, "CUPTI did not start it");
        return -1;
    }
    c->state = SMP_ON;
    c->last_flush = gp_now_s();
    return 0;
}

/* Once sampling runs, CUPTI delivers no kernel activity record (seen on an
 * H200: every launch of a sampled run "did not execute" by the records), so
 * the cross-check ends at the launch where sampling first started: that
 * launch and later ones leave its counts, and the summary says why. */
static void crosscheck_end(const gp_launch_event *ev)
{
    gp_crosscheck_end(ev->correlation,
                      "stall sampling started there, and CUPTI's kernel records stop with it");
}

static void count_launch(const smp_ctx *c, const gp_kernel *k)
{
    if (c->state != SMP_ON || !k)
        return;
    pthread_mutex_lock(&gp_core.state_lock);
    run.launches++;
    gp_src_sampled_launch(gp_source_table(), c->device, k->name->mangled);
    pthread_mutex_unlock(&gp_core.state_lock);
}

/* Sets up, flushes or resumes the context's sampling (with
 * GPUPROF_SAMPLING=profiled: stops it), then counts the launch (k) as
 * sampled when it is. */
static void service(const gp_launch_event *ev, const gp_kernel *k)
{
    pthread_mutex_lock(&gp_core.state_lock);
    smp_ctx *c = find(ev->ctx, 1);
    pthread_mutex_unlock(&gp_core.state_lock);
    if (!c)
        return;
    if (profiled_only()) { /* a launch not profiled: not sampled */
        if (c->state == SMP_ON) {
            stop(c);
            c->state = SMP_PAUSED;
        }
        return;
    }
    switch (c->state) {
    case SMP_NONE:
        if (open_start(c) == 0)
            crosscheck_end(ev);
        break;
    case SMP_PAUSED:
        if (start(c) == 0)
            c->state = SMP_ON;
        crosscheck_end(ev);
        break;
    case SMP_ON: /* a flush */
        stop(c);
        if (start(c) != 0)
            c->state = SMP_PAUSED;
        break;
    }
    count_launch(c, k);
}

/* A profiled launch begins (exclusive section): sampling stops, and gives
 * the context up to the range profiler when the set has hardware counters.
 * 1 when the program's own launch can be sampled afterwards, so the replay
 * is to run every pass before it (gp_replay_opts.sass_own_pass). */
static int before_profile(CUcontext ctx, int device)
{
    if (!wanted())
        return 0;
    pthread_mutex_lock(&gp_core.state_lock);
    smp_ctx *c = find(ctx, 1);
    pthread_mutex_unlock(&gp_core.state_lock);
    if (!c || c->state == SMP_FAILED)
        return 0;
    c->device = device;
    int counters = gp_metric_set_needs_counters();
    if (c->state == SMP_ON) {
        stop(c);
        c->state = SMP_PAUSED;
    }
    /* CUPTI attributes no sample to a function, and the SASS pass counts
     * nothing, when sampling is enabled after the SASS pass was configured
     * on the device: enabled now, before the context's set-up configures it */
    if (!counters && c->state == SMP_NONE) {
        if (open_only(c) == 0)
            c->state = SMP_PAUSED;
    }
    if (counters && c->state != SMP_COUNTERS) {
        double t = gp_now_s();
        int was_on = c->p != NULL;
        finish(c);
        c->state = SMP_COUNTERS;
        if (was_on) {
            pthread_mutex_lock(&gp_core.state_lock);
            run.switches++;
            run.switch_s += gp_now_s() - t;
            pthread_mutex_unlock(&gp_core.state_lock);
        }
    }
    return c->state != SMP_COUNTERS;
}

/* The program's own launch of a profiled launch follows, outside every
 * counter pass (exclusive section): sampling starts again and counts it. */
static void program_launch(const gp_launch_event *ev, const gp_kernel *k, int device)
{
    if (!wanted())
        return;
    pthread_mutex_lock(&gp_core.state_lock);
    smp_ctx *c = find(ev->ctx, 0);
    pthread_mutex_unlock(&gp_core.state_lock);
    if (!c || c->state == SMP_COUNTERS || c->state == SMP_FAILED)
        return;
    c->device = device;
    if (c->state == SMP_NONE)
        open_start(c);
    else if (c->state == SMP_PAUSED && start(c) == 0)
        c->state = SMP_ON;
    if (c->state == SMP_ON)
        crosscheck_end(ev);
    count_launch(c, k);
}

/* After gpuprof ran a graph's steps itself (exclusive section): sampling
 * starts again for the graph's own run. */
static void resume(CUcontext ctx)
{
    if (!wanted())
        return;
    pthread_mutex_lock(&gp_core.state_lock);
    smp_ctx *c = find(ctx, 0);
    pthread_mutex_unlock(&gp_core.state_lock);
    if (c && c->state == SMP_PAUSED && start(c) == 0)
        c->state = SMP_ON;
}

static void end_context(smp_ctx *c)
{
    if (c->state == SMP_ON)
        stop(c);
    finish(c);
    c->state = SMP_FAILED; /* nothing more in this context */
}

/* The context is going away: its samples are read and sampling ends. */
static void context_destroying(CUcontext ctx)
{
    pthread_mutex_lock(&gp_core.state_lock);
    smp_ctx *c = find(ctx, 0);
    if (c)
        HASH_DEL(contexts, c);
    pthread_mutex_unlock(&gp_core.state_lock);
    if (!c)
        return;
    end_context(c);
    free(c);
}

/* At exit: every context's samples are read and sampling ends. */
static void shutdown_all(void)
{
    if (!contexts || gp_t_api_depth > 0)
        return;
    if (gp_serialize_at_exit_begin(10) != 0) {
        gp_warn("stall samples not read: another thread kept CUDA busy for 10 s at exit");
        return;
    }
    gp_t_in_profiler++;
    smp_ctx *c, *t;
    HASH_ITER(hh, contexts, c, t)
    {
        HASH_DEL(contexts, c);
        end_context(c);
        free(c);
    }
    gp_t_in_profiler--;
    gp_serialize_at_exit_end();
}

/* ---- the launch hooks ------------------------------------------------------ */

/* Off for the whole run: GPUPROF_SAMPLING=off, or profiling disabled (each
 * function above then returns at once: wanted()). */
static int active(void)
{
    return gp_core.cfg.sampling && gp_core.cfg.enabled;
}

/* A launch not profiled (state_lock held); a nested launch could not take
 * the exclusive section the service needs.  Once sampling is known not to
 * be wanted in this run, a test of `want` is the whole cost (note() is out
 * of line for that). */
static void at_seen(gp_hook_args *a)
{
    if (want != 0 && !a->profiled && gp_t_api_depth == 0)
        a->sample_service = note(a->ev, a->k) != 0;
}

static atomic_int seen_left; /* at_seen is off the list */

/* Sampling is not wanted in this run: its `seen` hook leaves the list. */
__attribute__((noinline)) static void leave_seen(void)
{
    pthread_mutex_lock(&gp_core.state_lock);
    gp_hooks_leave_seen(at_seen);
    atomic_store_explicit(&seen_left, 1, memory_order_relaxed);
    pthread_mutex_unlock(&gp_core.state_lock);
}

__attribute__((noinline)) static void serve(gp_hook_args *a)
{
    gp_serialize_exclusive_begin();
    service(a->ev, a->k);
    gp_serialize_exclusive_end();
}

/* Before the launch, after the batch closed (no lock held): the service
 * note() asked for.  Once sampling is known not to be wanted in this run
 * (`want` is decided at the first launch, inside the `seen` walk, where
 * its list cannot change), its `seen` hook leaves the list here. */
static void at_unprofiled(gp_hook_args *a)
{
    if (a->sample_service)
        serve(a);
    else if (want == 0 && !atomic_load_explicit(&seen_left, memory_order_relaxed))
        leave_seen();
}

static void at_before_passes(gp_hook_args *a)
{
    a->sample_program = before_profile(a->ev->ctx, gp_collect_current_device()) != 0;
}

static void at_program_launch(gp_hook_args *a)
{
    program_launch(a->ev, a->k, a->cs ? a->cs->device : gp_collect_current_device());
}

static void at_graph_run(gp_hook_args *a)
{
    resume(a->ctx);
}

static void at_context_end(gp_hook_args *a)
{
    context_destroying(a->ctx);
}

static void at_exit(gp_hook_args *a)
{
    shutdown_all(); /* the samples not read yet */
}

const gp_launch_hooks gp_sampling_hooks = {
    .name = "sampling",
    .active = active,
    .at =
        {
            [GP_AT_SEEN] = at_seen,
            [GP_AT_UNPROFILED] = at_unprofiled,
            [GP_AT_BEFORE_PASSES] = at_before_passes,
            [GP_AT_PROGRAM_LAUNCH] = at_program_launch,
            [GP_AT_GRAPH_RUN] = at_graph_run,
            [GP_AT_CONTEXT_END] = at_context_end,
            [GP_AT_EXIT] = at_exit,
        },
};

/* ---- the summary --------------------------------------------------------- */

static const char *state_word(void)
{
    return run.starts ? "on" : "off";
}

/* Why no sample was taken, when none was. */
static const char *off_why(void)
{
    if (!gp_core.cfg.sampling)
        return "GPUPROF_SAMPLING=off";
    if (run.failed)
        return run.why;
    if (!run.starts && profiled_none())
        return "GPUPROF_SAMPLING=profiled and no launch is profiled (-c 0): sample every launch "
               "with GPUPROF_SAMPLING=on";
    if (!run.starts && gp_metric_set_needs_counters() && gp_core.cfg.launch_count != 0)
        return "the metric set needs the range profiler, which excludes sampling: sample with "
               "--set source, or -c 0 for sampling alone";
    if (!run.starts)
        return "no kernel ran";
    return NULL;
}

void gp_sampling_write_json(FILE *f)
{
    const char *why = off_why();
    fprintf(f, "{\"state\":\"%s\"", state_word());
    if (why) {
        fputs(",\"why\":", f);
        gp_text_json_string(f, why);
    }
    fprintf(f,
            ",\"interval_cycles\":%llu,\"launches\":%llu,\"samples\":%llu,\"dropped\":%llu,"
            "\"non_user\":%llu,\"buffer_full\":%llu,\"starts\":%llu,\"switches\":%llu,"
            "\"setup_ms\":%.3f,\"start_ms\":%.3f,\"stop_ms\":%.3f,\"switch_ms\":%.3f,"
            "\"left_out\":%llu}",
            1ull << (5 + gp_core.cfg.sampling_interval), (unsigned long long)run.launches,
            (unsigned long long)run.totals.samples, (unsigned long long)run.totals.dropped,
            (unsigned long long)run.totals.non_user, (unsigned long long)run.totals.buffer_full,
            (unsigned long long)run.starts, (unsigned long long)run.switches, run.setup_s * 1e3,
            run.start_s * 1e3, run.stop_s * 1e3, run.switch_s * 1e3,
            (unsigned long long)gp_src_left_out(gp_core.src));
}

void gp_sampling_print(FILE *f, int pid)
{
    if (!gp_core.cfg.sampling || !gp_core.cfg.enabled)
        return;
    if (!run.starts && !run.failed && !wanted() && !profiled_none())
        return; /* the default set's runs: nothing to say on every run */
    const char *why = off_why();
    if (!run.starts) {
        fprintf(f, "[gpuprof %d]   stall sampling: off (%s)\n", pid, why ? why : "");
        return;
    }
    fprintf(f,
            "[gpuprof %d]   stall sampling: %llu launches, %llu samples every 2^%ld cycles "
            "(%llu dropped by the hardware); set-up %.0f ms, stops %.0f ms",
            pid, (unsigned long long)run.launches, (unsigned long long)run.totals.samples,
            5 + gp_core.cfg.sampling_interval, (unsigned long long)run.totals.dropped,
            run.setup_s * 1e3, run.stop_s * 1e3);
    if (run.switches)
        fprintf(f, ", %llu switches with the counters %.0f ms", (unsigned long long)run.switches,
                run.switch_s * 1e3);
    fputc('\n', f);
    /* samples lost or unattributed are said, never left out silently */
    if (run.totals.buffer_full)
        fprintf(f,
                "[gpuprof %d]   stall sampling: the hardware's sample buffer overflowed %llu "
                "times and the samples of those periods were lost; sample less often "
                "(GPUPROF_SAMPLING_INTERVAL above %ld)\n",
                pid, (unsigned long long)run.totals.buffer_full, gp_core.cfg.sampling_interval);
    if (run.totals.samples && run.totals.non_user == run.totals.samples)
        fprintf(f,
                "[gpuprof %d]   stall sampling: CUPTI attributed none of the %llu samples to a "
                "function of the program (code it does not know as the program's)\n",
                pid, (unsigned long long)run.totals.samples);
    if (gp_src_left_out(gp_core.src))
        fprintf(f, "[gpuprof %d]   instruction-level data: %llu instructions left out (the table "
                   "holds %d)\n",
                pid, (unsigned long long)gp_src_left_out(gp_core.src), GP_SRC_MAX_PCS);
}
