/* variants.c - see variants.h.  The arithmetic (sums, rotation, estimates,
 * bounds) is metrics/model/estimate.c's; this module keeps the tables, decides per
 * launch and writes the records. */
#define _GNU_SOURCE /* program_invocation_short_name */
#include "preload/variants.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "metrics/model/estimate.h"
#include "preload/finish.h"
#include "preload/metric_set.h"
#include "preload/serialize.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/textio.h"

typedef struct gp_variant_key {
    gp_kernel *kernel; /* per (function, context): the kernel table's entry */
    unsigned grid[3], block[3], smem;
} gp_variant_key;

typedef struct gp_variant {
    gp_variant_key key;
    gp_est_variant est;
    uint64_t first_launch_id;
    int exact_done;  /* a launch with every configuration is done or pending */
    int exact_tries; /* kernel replays tried (a failed one is tried again, twice) */
    uint64_t lost;   /* rotated launches whose counters were lost */
    uint64_t unprofiled; /* launches outside the profiler's share (counted only) */
    int defer_exact;     /* this launch: the first launches' share is used up */
    uint64_t slice_seen; /* the last slice (gp_duty.slices) that profiled a launch of it */
    UT_hash_handle hh;
} gp_variant;

/* per context */
typedef struct gp_variants {
    gp_variant *table;
    size_t n;
    uint64_t beyond; /* launches of variants beyond GPUPROF_VARIANTS_MAX */
    gp_est_layout layout;
    int *config;       /* layout.config */
    size_t n_rp;       /* range-profiler configurations rotated (sets GP_RP_ROT + k) */
    int sass;          /* the SASS pass is configuration n_rp */
    int *instrumented; /* per range-profiler configuration: CUPTI instruments it */
    gp_rotation rot;
    gp_duty duty;    /* the profiler's share of the run (GPUPROF_MAX_OVERHEAD < 100) */
    int sampling;    /* the share is below 100%: slices, one configuration each */
    int slice_begins; /* the next rotated launch begins a slice: the next configuration */
    uint64_t since_new;      /* the slice's launches since its last variant new to it */
    size_t slice_variants;   /* the variants the slice has profiled */
    uint64_t seen, last_new; /* launches considered; the count at the last new variant */
    long programmed; /* the configuration the open batch holds, -1: none */
    /* per configuration: launches that gave values, and that lost them; a
     * configuration that loses its first launches and gives none is
     * refused (CUPTI cannot run it this way) and left out of the rotation */
    uint64_t *given, *failed;
    int *refused;
    size_t n_refused;
    /* stepped configurations (several passes, one per launch of a variant):
     * per configuration its passes (0: not stepped); the one in progress */
    size_t *step_passes;
    struct {
        gp_variant *v; /* whose launches take the passes; NULL: none under way */
        size_t configs; /* the stepped configurations */
        size_t c;
        size_t done;    /* its passes submitted */
        uint64_t since; /* the context's launches since its last pass */
        uint64_t passed_over; /* launches of variants passed over (step_covered), in a row */
        uint64_t round;       /* collections each variant may have before others get more */
        uint64_t completed, abandoned;
    } step;
} gp_variants;

enum { EXACT_TRIES = 3, REFUSE_AFTER = 3 };

/* Frees vs (NULL, or partly allocated, too); its table must be empty. */
static void variants_free(gp_variants *vs)
{
    if (!vs)
        return;
    free(vs->config);
    free(vs->instrumented);
    free(vs->given);
    free(vs->failed);
    free(vs->refused);
    free(vs->step_passes);
    free(vs);
}

void gp_variants_setup(gp_context *cs)
{
    gp_variants *vs = calloc(1, sizeof(*vs));
    size_t n = gp_core.n_metrics;
    if (!vs || !(vs->config = calloc(n ? n : 1, sizeof(int))) ||
        !(vs->instrumented = calloc(GP_RP_MAX_ROT + 1, sizeof(int))) ||
        !(vs->given = calloc(GP_RP_MAX_ROT + 1, sizeof(uint64_t))) ||
        !(vs->failed = calloc(GP_RP_MAX_ROT + 1, sizeof(uint64_t))) ||
        !(vs->refused = calloc(GP_RP_MAX_ROT + 1, sizeof(int))) ||
        !(vs->step_passes = calloc(GP_RP_MAX_ROT + 1, sizeof(size_t)))) {
        variants_free(vs);
        gp_log_once(GP_LOG_WARN, "none-oom",
                    "GPUPROF_REPLAY=none: out of memory; launches are profiled in kernel replay");
        return;
    }
    vs->n_rp = gp_collect_rotation_configs(cs->col);
    vs->sass = gp_core.has_sass && cs->sass_ok;
    for (size_t g = 0; g < vs->n_rp; g++)
        if (gp_collect_rotation_stepped(cs->col, g)) {
            vs->step_passes[g] = gp_collect_rotation_passes(cs->col, g);
            vs->step.configs++;
        }
    long ref = -1, cycles = -1;
    for (size_t i = 0; i < n; i++) {
        const char *name = gp_core.metric_names[i];
        vs->config[i] = GP_EST_NONE;
        if (gp_collect_is_sass(name)) {
            if (vs->sass)
                vs->config[i] = (int)vs->n_rp;
            continue;
        }
        int in = 0, first = -1;
        for (size_t g = 0; g < vs->n_rp; g++)
            if (gp_collect_rotation_has(cs->col, &gp_core.set, g, i)) {
                in++;
                if (first < 0)
                    first = (int)g;
                if (gp_collect_is_instrumented(name))
                    vs->instrumented[g] = 1;
            }
        if (in > 1 && gp_metric_set_is_spread(name))
            vs->config[i] = GP_EST_EVERY;
        else if (in >= 1)
            vs->config[i] = first;
        if (vs->config[i] == GP_EST_EVERY && strcmp(name, "smsp__inst_executed.sum") == 0)
            ref = (long)i;
        if (vs->config[i] == GP_EST_EVERY && strcmp(name, "sm__cycles_elapsed.avg") == 0)
            cycles = (long)i;
    }
    vs->layout.n = n;
    vs->layout.ref = ref >= 0 ? ref : cycles; /* the work: instructions, else cycles */
    vs->layout.n_configs = vs->n_rp + (vs->sass ? 1 : 0);
    vs->layout.config = vs->config;
    vs->layout.names = gp_core.metric_names;
    vs->programmed = -1;
    /* below 100%, the configuration changes at each slice (and only then) */
    vs->sampling = gp_core.cfg.max_overhead > 0 && gp_core.cfg.max_overhead < 100;
    gp_rotation_init(&vs->rot, vs->layout.n_configs,
                     vs->sampling ? UINT64_MAX : (uint64_t)gp_core.cfg.rotate_launches,
                     vs->sampling ? 0 : gp_core.cfg.rotate_ms / 1e3);
    gp_duty_init(&vs->duty, vs->sampling ? gp_core.cfg.max_overhead / 100.0 : 1,
                 gp_core.cfg.rotate_ms / 1e3, (uint64_t)gp_core.cfg.rotate_launches);
    const char *why = gp_collect_rotation_why(cs->col);
    if (vs->layout.n_configs == 0) {
        gp_log_once(GP_LOG_WARN, "none-impossible",
                    "GPUPROF_REPLAY=none: device %d: no configuration of one pass (%s); every "
                    "launch is profiled in kernel replay",
                    cs->device, why ? why : "no metric to rotate");
        variants_free(vs);
        return;
    }
    if (why)
        gp_log_once(GP_LOG_WARN, "none-left-out", "GPUPROF_REPLAY=none: device %d: metrics %s",
                    cs->device, why);
    if (vs->sampling)
        gp_info("device %d: replay mode none: %zu configurations (%zu of one pass%s, %zu of "
                "several passes taken over a variant's successive launches), one in each "
                "slice of at least %ld launches and %ld ms of the profiler's time, the slices "
                "spread so that the profiler takes about %ld%% of the run "
                "(GPUPROF_MAX_OVERHEAD); kernel variants' first launches in kernel replay "
                "within a quarter of that share",
                cs->device, vs->layout.n_configs, vs->layout.n_configs - vs->step.configs,
                vs->sass ? ", one the SASS pass" : "", vs->step.configs, gp_core.cfg.rotate_launches,
                gp_core.cfg.rotate_ms, gp_core.cfg.max_overhead);
    else
        gp_info("device %d: replay mode none: %zu configurations (%zu of one pass%s, %zu of "
                "several passes taken over a variant's successive launches), %ld launches "
                "each in turn; each kernel variant's first launch in kernel replay",
                cs->device, vs->layout.n_configs, vs->layout.n_configs - vs->step.configs,
                vs->sass ? ", one the SASS pass" : "", vs->step.configs, gp_core.cfg.rotate_launches);
    cs->variants = vs;
}

/* The variant of ls, added when new (NULL: beyond the limit, or out of
 * memory). */
static gp_variant *variant_of(gp_variants *vs, gp_kernel *kernel, uint64_t launch_id,
                              const gp_launch_exec *e)
{
    gp_variant_key key;
    memset(&key, 0, sizeof(key)); /* hashed as bytes: no padding left unset */
    key.kernel = kernel;
    for (int d = 0; d < 3; d++) {
        key.grid[d] = e->grid[d];
        key.block[d] = e->block[d];
    }
    key.smem = e->smem;
    gp_variant *v;
    HASH_FIND(hh, vs->table, &key, sizeof(key), v);
    if (v)
        return v;
    if (vs->n >= (size_t)gp_core.cfg.variants_max) {
        vs->beyond++;
        gp_log_once(GP_LOG_WARN, "variants-max",
                    "GPUPROF_REPLAY=none: more than %ld kernel variants in one context "
                    "(GPUPROF_VARIANTS_MAX); the launches of later new variants are profiled in "
                    "kernel replay, one record each",
                    gp_core.cfg.variants_max);
        return NULL;
    }
    if (!(v = calloc(1, sizeof(*v))))
        return NULL;
    v->key = key;
    if (gp_est_variant_init(&v->est, &vs->layout) != 0) {
        free(v);
        return NULL;
    }
    gp_uthash_oom = 0;
    HASH_ADD(hh, vs->table, key, sizeof(v->key), v);
    if (gp_uthash_oom) {
        gp_est_variant_free(&v->est);
        free(v);
        return NULL;
    }
    v->first_launch_id = launch_id;
    vs->n++;
    return v;
}

/* 1 when every configuration not refused has a launch of the variant. */
static int all_covered(const gp_variants *vs, const gp_variant *v)
{
    for (size_t c = 0; c < vs->layout.n_configs; c++)
        if (!vs->refused[c] && v->est.cover[c].n == 0)
            return 0;
    return 1;
}

/* 1 when the variant's launch is to be profiled in kernel replay: its
 * first, a retry of a first that failed, or (with a share below 100%) a
 * later one while the slices have not covered every configuration yet. */
static int needs_exact(const gp_variants *vs, const gp_variant *v)
{
    return !v->exact_done && v->exact_tries < EXACT_TRIES && !(vs->sampling && all_covered(vs, v));
}

/* The context's launches a stepped configuration waits for its variant's
 * next launch before it is given up (a program whose work moved on). */
static uint64_t step_patience(const gp_variants *vs)
{
    uint64_t p = 4 * (uint64_t)vs->n;
    return p > (uint64_t)gp_core.cfg.rotate_launches ? p : (uint64_t)gp_core.cfg.rotate_launches;
}

/* Gives up the stepped configuration under way (its passes so far are lost). */
static void step_abandon(gp_context *cs, const char *why)
{
    gp_variants *vs = cs->variants;
    if (!vs->step.v)
        return;
    char err[256] = "";
    if (gp_collect_abandon(cs->col, err, sizeof(err)) != 0)
        gp_debug("replay mode none: device %d: resetting the range profiler: %s", cs->device, err);
    gp_debug("replay mode none: device %d: configuration %zu given up after %zu of its %zu "
             "passes over launches of %s: %s",
             cs->device, vs->step.c + 1, vs->step.done, vs->step_passes[vs->step.c],
             vs->step.v->key.kernel->name->demangled, why);
    vs->step.v = NULL;
    vs->step.abandoned++;
    vs->programmed = -1;
}

/* A slice's launches that must follow the last launch of a variant new to
 * it before it may end. */
static uint64_t slice_tail(void)
{
    uint64_t t = (uint64_t)gp_core.cfg.rotate_launches / 2;
    return t > 8 ? t : 8;
}

/* The configuration the next rotated launch takes from rot: at a slice's
 * start (slice_begins) the one after the last, else the slice's own;
 * refused ones skipped. */
static size_t config_take(gp_rotation *rot, int slice_begins, const int *refused, double now,
                          int *switched)
{
    size_t c;
    if (slice_begins && rot->since >= 0) { /* a later slice: the next configuration */
        c = gp_rotation_skip(rot, now);
        *switched = 1;
    } else {
        c = gp_rotation_next(rot, now, switched);
    }
    for (size_t t = 0; refused[c] && t < rot->n_configs; t++) {
        c = gp_rotation_skip(rot, now);
        *switched = 1;
    }
    return c;
}

static size_t slice_config_take(gp_variants *vs, double now, int *switched)
{
    size_t c = config_take(&vs->rot, vs->slice_begins, vs->refused, now, switched);
    vs->slice_begins = 0;
    return c;
}

/* The same, without taking it: on a copy of the rotation alone. */
static size_t slice_config_peek(const gp_variants *vs)
{
    gp_rotation rot = vs->rot;
    int switched;
    return config_take(&rot, vs->slice_begins, vs->refused, rot.since >= 0 ? rot.since : 0,
                       &switched);
}

/* 1 when the launch of v would start a collection of a stepped
 * configuration of which v already has more than the round's count: with a
 * share below 100%, a stepped slice gives its collections to the variants
 * that have fewest (a collection holds the context's other variants back
 * for its whole length, so a variant launched often must not take them
 * all); a round ends when no such variant came within the patience. */
static int step_covered(const gp_variants *vs, const gp_variant *v)
{
    if (!vs->step.configs || !vs->sampling || vs->n_refused >= vs->layout.n_configs)
        return 0;
    size_t c = slice_config_peek(vs);
    return vs->step_passes[c] && v->est.cover[c].n > vs->step.round;
}

/* A launch of v that runs unprofiled: counted into its estimates only (1,
 * gp_variants_sample_out's answer). */
static int count_only(gp_variant *v)
{
    gp_est_launch(&v->est);
    v->unprofiled++;
    return 1;
}

int gp_variants_sample_out(gp_context *cs, gp_kernel *kernel, uint64_t launch_id,
                           const gp_launch_exec *e, double now, double spent)
{
    gp_variants *vs = cs->variants;
    if (!vs)
        return 0;
    if (vs->step.v) { /* a stepped configuration under way: its variant's launches alone */
        gp_variant *sv = variant_of(vs, kernel, launch_id, e);
        if (sv == vs->step.v) { /* not counted in the slice: a slice of a stepped
                                   * configuration lasts as many collections as
                                   * another does launches */
            vs->step.since = 0;
            return 0;
        }
        if (sv && ++vs->step.since <= step_patience(vs)) {
            gp_est_launch(&sv->est);
            sv->unprofiled++;
            return 1;
        }
        step_abandon(cs, sv ? "the variant was not launched again soon enough"
                            : "a launch of a variant beyond GPUPROF_VARIANTS_MAX");
    }
    if (!vs->sampling)
        return 0;
    gp_duty_start(&vs->duty, now, spent); /* the first launch, exact or not, is the origin */
    size_t known = vs->n;
    gp_variant *v = variant_of(vs, kernel, launch_id, e);
    vs->seen++;
    if (vs->n != known)
        vs->last_new = vs->seen;
    if (!v || vs->n_refused >= vs->layout.n_configs)
        return 0;
    v->defer_exact = 0;
    if (needs_exact(vs, v)) {
        if (gp_duty_exact(&vs->duty, now, spent))
            return 0;
        v->defer_exact = 1; /* rotated or counted, as any launch; exact at a later one */
        gp_log_once(GP_LOG_INFO, "none-defer-exact",
                    "replay mode none: the first launches in kernel replay have used their part "
                    "of the profiler's share (GPUPROF_MAX_OVERHEAD); new variants are profiled "
                    "in the slices, and in kernel replay at a later launch when the share allows");
    }
    /* a slice lasts at least as many launches as there are variants (about
     * one round of a program's repeating work: each variant gets the
     * slice's configuration), within bounds */
    uint64_t least = (uint64_t)gp_core.cfg.rotate_launches;
    if ((uint64_t)vs->n > least)
        least = (uint64_t)vs->n < 4 * least ? (uint64_t)vs->n : 4 * least;
    vs->duty.slice_launches = least;
    /* the first slice waits for the work to repeat (a round of that many
     * launches without a new variant; at most eight): a slice during a
     * program's start-up would give its configuration to few variants */
    if (vs->duty.slices == 0 && vs->seen - vs->last_new < least && vs->seen < 8 * least)
        return count_only(v);
    /* and goes on while variants new to it keep coming (a round of the
     * work that is longer than its variants' count), up to four times that */
    if (vs->duty.on && vs->slice_variants < vs->n && vs->since_new < slice_tail() &&
        vs->duty.in_slice < 4 * least)
        vs->duty.slice_launches = vs->duty.in_slice + 1;
    int slice;
    if (gp_duty_decide(&vs->duty, now, spent, &slice)) {
        vs->slice_begins |= slice;
        if (slice) {
            vs->since_new = vs->slice_variants = 0;
            gp_debug("replay mode none: device %d: slice %llu begins (%llu launches counted "
                     "only so far)",
                     cs->device, (unsigned long long)vs->duty.slices,
                     (unsigned long long)vs->duty.skipped);
        }
        if (!step_covered(vs, v)) {
            vs->step.passed_over = 0;
            if (v->slice_seen != vs->duty.slices) { /* new to the slice */
                v->slice_seen = vs->duty.slices;
                vs->slice_variants++;
                vs->since_new = 0;
            } else {
                vs->since_new++;
            }
            return 0;
        }
        /* counted only, not in the slice; when no variant lacking the
         * collection comes for a while, the slice ends and the next one
         * takes the next configuration */
        gp_duty_unprofile(&vs->duty);
        if (++vs->step.passed_over > step_patience(vs)) {
            int switched;
            (void)slice_config_take(vs, now, &switched);
            gp_duty_end_slice(&vs->duty);
            gp_debug("replay mode none: device %d: slice %llu ends: no variant with at most "
                     "%llu collections of its stepped configuration in %llu launches",
                     cs->device, (unsigned long long)vs->duty.slices,
                     (unsigned long long)vs->step.round, (unsigned long long)vs->step.passed_over);
            vs->step.passed_over = 0;
            vs->step.round++;
        }
    }
    return count_only(v);
}

/* ls is a pass of stepped configuration c (first: its first pass).  Its
 * passes share one range name: they are one range to CUPTI. */
static void step_opts(gp_launch_state *ls, size_t c, int first)
{
    ls->rot_config = (int)c;
    ls->opts.rotate = 1;
    ls->opts.rotate_set = GP_RP_ROT + (int)c;
    ls->opts.rotate_step = 1;
    ls->opts.step_first = first;
    ls->opts.range_name = "gpuprof-stepped";
}

int gp_variants_plan(gp_launch_state *ls, const gp_launch_exec *e, int *close_batch)
{
    gp_context *cs = ls->cs;
    gp_variants *vs = cs->variants;
    gp_variant *v = variant_of(vs, ls->kernel, ls->launch_id, e);
    ls->variant = v;
    ls->rot_config = GP_EST_ALL;
    *close_batch = 0;
    if (!v) /* kernel replay, a record of its own */
        return 0;
    ls->variant_ordinal = gp_est_launch(&v->est);
    if (vs->step.v == v) { /* the next pass of the stepped configuration under way */
        step_opts(ls, vs->step.c, 0);
        return 1;
    }
    int deferred = v->defer_exact;
    v->defer_exact = 0;
    if (needs_exact(vs, v) && !deferred) {
        v->exact_done = 1;
        v->exact_tries++;
        ls->opts.exact_first = 1; /* its time: the summary's first launches */
        *close_batch = 1; /* the full set is programmed for its passes */
        vs->programmed = -1;
        return 0;
    }
    if (vs->n_refused >= vs->layout.n_configs) /* nothing left to rotate */
        return 0;
    int switched;
    size_t c = slice_config_take(vs, gp_now_s(), &switched);
    ls->rot_config = (int)c;
    ls->opts.rotate = 1;
    if (vs->step_passes[c]) { /* its first pass: the profiler is configured for it */
        if (vs->step.v)
            step_abandon(cs, "another configuration was due");
        vs->step.v = v;
        vs->step.c = c;
        vs->step.done = 0;
        vs->step.since = 0;
        step_opts(ls, c, 1);
        *close_batch = gp_collect_batch_is_open(cs->col);
        vs->programmed = -1;
        if (switched)
            gp_debug("replay mode none: device %d: configuration %zu of %zu programmed (%zu "
                     "passes over a variant's successive launches)",
                     cs->device, c + 1, vs->layout.n_configs, vs->step_passes[c]);
        return 1;
    }
    if (vs->sass && c == vs->n_rp) {
        ls->opts.rotate_sass = 1;
        *close_batch = 1; /* the SASS pass wraps the launch alone */
        vs->programmed = -1;
        return 1;
    }
    ls->opts.rotate_set = GP_RP_ROT + (int)c;
    *close_batch = gp_collect_batch_is_open(cs->col) &&
                   (vs->programmed != (long)c || gp_collect_batch_room(cs->col) < 3 ||
                    cs->batch_single);
    vs->programmed = (long)c;
    if (switched)
        gp_debug("replay mode none: device %d: configuration %zu of %zu programmed", cs->device,
                 c + 1, vs->layout.n_configs);
    return 1;
}

static const char *config_kind(const gp_variants *vs, size_t c)
{
    if (vs->sass && c == vs->n_rp)
        return "sass";
    return vs->instrumented[c] ? "instrumented" : "counters";
}

/* A rotated launch of configuration c lost its values: a configuration that
 * never gave values is refused after REFUSE_AFTER such launches, said once
 * with its metrics; the others rotate on (a lost batch of a configuration
 * that works is the batch's problem, said by batch.c). */
static void config_failed(gp_context *cs, int c, const char *why)
{
    gp_variants *vs = cs->variants;
    if (!vs || c < 0 || (size_t)c >= vs->layout.n_configs)
        return;
    if (++vs->failed[c] < REFUSE_AFTER || vs->given[c] > 0 || vs->refused[c])
        return;
    vs->refused[c] = 1;
    vs->n_refused++;
    char names[600] = "";
    size_t used = 0;
    for (size_t i = 0; i < vs->layout.n && used < sizeof(names); i++)
        if (vs->config[i] == c)
            used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "",
                                     vs->layout.names[i]);
    gp_warn("replay mode none: device %d: configuration %d (%s) failed %llu launches and gave "
            "no value (%s); it is left out of the rotation, its metrics come from each "
            "variant's first launch only: %s",
            cs->device, c + 1, config_kind(vs, (size_t)c), (unsigned long long)vs->failed[c],
            why ? why : "no reason", names);
}

/* A launch that ran once, profiled, in replay mode none (the summary's
 * launches_estimated). */
static void count_estimated(void)
{
    pthread_mutex_lock(&gp_core.state_lock);
    gp_core.summary.launches_estimated++;
    pthread_mutex_unlock(&gp_core.state_lock);
}

int gp_variants_take(gp_launch_state *ls, const double *values, const char *hw_why)
{
    gp_variant *v = ls->variant;
    gp_variants *vs = ls->cs->variants;
    if (!v || !vs)
        return 0;
    if (ls->rot_config == GP_EST_ALL) {
        if (hw_why || ls->rs.snapshot_failed) /* not complete: the next launch tries again */
            v->exact_done = 0;
        if (!hw_why && !ls->rs.snapshot_failed)
            gp_est_add(&v->est, &vs->layout, GP_EST_ALL, ls->variant_ordinal, values);
        return 0;
    }
    if (ls->opts.rotate_step && !hw_why) {
        vs->step.done++;
        /* the values come with the last pass; CUPTI asking for far more
         * passes than it planned is a failure of the configuration.  Each
         * pass's launch ran once, profiled: the summary counts it so */
        if (ls->rs.step_pending) {
            count_estimated();
            if (vs->step.done < 2 * vs->step_passes[ls->rot_config] + 2)
                return 1;
            char why[160];
            snprintf(why, sizeof(why), "CUPTI asked for more than %zu passes where it planned %zu",
                     vs->step.done, vs->step_passes[ls->rot_config]);
            step_abandon(ls->cs, why);
            config_failed(ls->cs, ls->rot_config, why);
            return 1;
        }
        vs->step.v = NULL;
        vs->step.completed++;
    }
    if (hw_why) {
        v->lost++;
        if (ls->opts.rotate_step)
            step_abandon(ls->cs, hw_why);
        config_failed(ls->cs, ls->rot_config, hw_why);
    } else {
        vs->given[ls->rot_config]++;
        gp_est_add(&v->est, &vs->layout, ls->rot_config, ls->variant_ordinal, values);
    }
    count_estimated();
    return 1;
}

void gp_variants_lost(gp_launch_state *ls, const char *why)
{
    gp_variant *v = ls->variant;
    if (!v)
        return;
    if (ls->rot_config == GP_EST_ALL) {
        v->exact_done = 0;
    } else {
        v->lost++;
        if (ls->opts.rotate_step)
            step_abandon(ls->cs, why ? why : "the launch was lost");
        config_failed(ls->cs, ls->rot_config, why);
    }
}

/* ---- records --------------------------------------------------------------- */

static void json_num(FILE *f, double x)
{
    if (isfinite(x))
        fprintf(f, "%.9g", x);
    else
        fputs("null", f);
}

static void write_variant(FILE *f, const gp_context *cs, const gp_variants *vs, const gp_variant *v)
{
    const gp_est_layout *L = &vs->layout;
    const gp_kernel *k = v->key.kernel;
    double rs = gp_est_rel_spread(&v->est, L);
    fprintf(f, "{\"type\":\"variant_estimate\",\"schema\":1,\"estimated\":true,\"pid\":%ld,",
            (long)getpid());
    fputs("\"process\":", f);
    gp_text_json_string(f, program_invocation_short_name);
    fputs(",\"host\":", f);
    gp_text_json_string(f, gp_core.host);
    fprintf(f, ",\"device\":%d,\"kernel\":", cs->device);
    gp_text_json_string(f, k->name->demangled);
    fputs(",\"mangled\":", f);
    gp_text_json_string(f, k->name->mangled);
    fprintf(f,
            ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"dynamic_smem\":%u,"
            "\"regs_per_thread\":%d,\"static_smem\":%zu,\"launches\":%llu,"
            "\"exact_launches\":%llu,\"lost_launches\":%llu,\"unprofiled_launches\":%llu,"
            "\"first_launch_id\":%llu,\"rotation_block\":%ld,\"max_overhead_pct\":%ld,"
            "\"spread\":",
            v->key.grid[0], v->key.grid[1], v->key.grid[2], v->key.block[0], v->key.block[1],
            v->key.block[2], v->key.smem, k->attrs.regs, k->attrs.static_smem,
            (unsigned long long)v->est.launches, (unsigned long long)v->est.exact,
            (unsigned long long)v->lost, (unsigned long long)v->unprofiled,
            (unsigned long long)v->first_launch_id, gp_core.cfg.rotate_launches,
            vs->sampling ? gp_core.cfg.max_overhead : 100L);
    json_num(f, rs);
    fputs(",\"configurations\":[", f);
    for (size_t c = 0; c < L->n_configs; c++)
        fprintf(f,
                "%s{\"configuration\":%zu,\"kind\":\"%s\",\"passes\":%zu,\"launches\":%llu,"
                "\"first\":%llu,\"last\":%llu}",
                c ? "," : "", c + 1, config_kind(vs, c),
                vs->step_passes[c] ? vs->step_passes[c] : (size_t)1,
                (unsigned long long)v->est.cover[c].n,
                (unsigned long long)v->est.cover[c].first,
                (unsigned long long)v->est.cover[c].last);
    /* metrics: estimated totals (means for rates and shares); bound: the
     * error bound of each, same unit; collected: launches that gave it */
    char why[200];
    const char *sep[4] = {"", "", "", ""};
    double *tot = malloc((L->n ? L->n : 1) * 3 * sizeof(double));
    char **whys = calloc(L->n ? L->n : 1, sizeof(char *));
    if (!tot || !whys) {
        free(tot);
        free(whys);
        fputs("],\"metrics\":{},\"missing\":{\"*\":\"out of memory\"}}\n", f);
        return;
    }
    for (size_t i = 0; i < L->n; i++) {
        double mean;
        if (gp_est_value(&v->est, L, i, rs, &mean, &tot[i], &tot[L->n + i], why, sizeof(why)) != 0)
            whys[i] = strdup(why);
        tot[2 * L->n + i] = mean;
    }
    fputs("],\"metrics\":{", f);
    for (size_t i = 0; i < L->n; i++, sep[0] = ",") {
        fprintf(f, "%s", sep[0]);
        gp_text_json_string(f, L->names[i]);
        fputc(':', f);
        json_num(f, tot[i]);
    }
    fputs("},\"bound\":{", f);
    for (size_t i = 0; i < L->n; i++, sep[1] = ",") {
        fprintf(f, "%s", sep[1]);
        gp_text_json_string(f, L->names[i]);
        fputc(':', f);
        json_num(f, tot[L->n + i]);
    }
    fputs("},\"collected\":{", f);
    for (size_t i = 0; i < L->n; i++, sep[2] = ",") {
        fprintf(f, "%s", sep[2]);
        gp_text_json_string(f, L->names[i]);
        fprintf(f, ":%llu", (unsigned long long)v->est.acc[i].n);
    }
    fputs("},\"missing\":{", f);
    for (size_t i = 0; i < L->n; i++) {
        if (!whys[i] && isfinite(tot[i]))
            continue;
        fprintf(f, "%s", sep[3]);
        sep[3] = ",";
        gp_text_json_string(f, L->names[i]);
        fputc(':', f);
        gp_text_json_string(f, whys[i] ? whys[i] : "out of memory");
    }
    fputs("}}\n", f);
    for (size_t i = 0; i < L->n; i++)
        free(whys[i]);
    free(whys);
    free(tot);
}

void gp_variants_close(gp_context *cs)
{
    gp_variants *vs = cs->variants;
    if (!vs)
        return;
    if (vs->step.v) { /* its passes so far give no value; the profiler goes with the context */
        vs->step.v = NULL;
        vs->step.abandoned++;
    }
    if (vs->step.completed || vs->step.abandoned)
        gp_info("replay mode none: device %d: %llu stepped collections completed, %llu given up",
                cs->device, (unsigned long long)vs->step.completed,
                (unsigned long long)vs->step.abandoned);
    cs->variants = NULL;
    FILE *f = vs->n ? gp_finish_json_begin() : NULL;
    gp_variant *v, *tmp;
    HASH_ITER(hh, vs->table, v, tmp)
    {
        if (f && v->est.launches)
            write_variant(f, cs, vs, v);
        HASH_DEL(vs->table, v);
        gp_est_variant_free(&v->est);
        free(v);
    }
    if (vs->n)
        gp_finish_json_end();
    if (vs->beyond)
        gp_warn("replay mode none: device %d: %llu launches of variants beyond "
                "GPUPROF_VARIANTS_MAX=%ld were profiled in kernel replay",
                cs->device, (unsigned long long)vs->beyond, gp_core.cfg.variants_max);
    variants_free(vs);
}

/* Waits at most 10 s for the exclusive lock, as the batches do at exit. */
void gp_variants_close_all(void)
{
    if (gp_core.cfg.replay_mode != GP_REPLAY_NONE || gp_t_api_depth > 0)
        return;
    if (gp_serialize_at_exit_begin(10) != 0) {
        gp_warn("replay mode none: no variant_estimate records: another thread kept CUDA busy "
                "for 10 s");
        return;
    }
    gp_context *cs, *tmp;
    HASH_ITER(hh, gp_core.contexts, cs, tmp) gp_variants_close(cs);
    gp_serialize_at_exit_end();
}
