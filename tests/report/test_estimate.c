/* test_estimate.c - the estimates of GPUPROF_REPLAY=none (metrics/model/estimate.c):
 * the rotation of configurations, the accumulation, the scaling, the error
 * bound and the derived metrics with their bounds.
 *
 * On recorded data: every launch record of a recorded H100 run
 * (tests/data/report/h100-planted.jsonl) is the base of a variant launched
 * N times; the rotation is simulated over those launches exactly as the
 * library runs it (the first launch exact, then blocks of K launches per
 * configuration), once with identical launches (the estimates must equal
 * the exact sums) and once with drifting work (a loop that shrinks to 40%
 * over the run, 1% noise per counter and launch): the printed bound must
 * cover the difference from the exact sums on at least 95% of the
 * (variant, metric) pairs, for counters and derived metrics; and the plain
 * mean x N estimate, which the ratio to the reference replaces, must be
 * shown to miss (its bias under drift is the reason for the replacement). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "metrics/model/estimate.h"
#include "metrics/model/estimate_load.h"
#include "gp_test.h"
#include "metrics/records/json.h"
#include "metrics/model/load.h"
#include "metrics/catalog/occupancy.h"
#include "metrics/report/report.h"

static void test_rotation(void)
{
    gp_rotation r;
    int sw, switches = 0;
    size_t seq[10];
    gp_rotation_init(&r, 3, 2, 0);
    for (int i = 0; i < 10; i++) {
        seq[i] = gp_rotation_next(&r, 0, &sw);
        switches += sw;
    }
    size_t want[10] = {0, 0, 1, 1, 2, 2, 0, 0, 1, 1};
    for (int i = 0; i < 10; i++)
        GP_CHECK_MSG(seq[i] == want[i], "launch %d: configuration %zu, want %zu", i, seq[i],
                     want[i]);
    GP_CHECK(switches == 4 && r.switches == 4);
    gp_rotation_init(&r, 1, 64, 0); /* one configuration: never switches */
    for (int i = 0; i < 200; i++)
        GP_CHECK(gp_rotation_next(&r, i, &sw) == 0 && sw == 0);
    /* the time floor: a full block waits until its second is up */
    gp_rotation_init(&r, 2, 2, 1.0);
    GP_CHECK(gp_rotation_next(&r, 10.0, &sw) == 0 && !sw);
    GP_CHECK(gp_rotation_next(&r, 10.1, &sw) == 0 && !sw);
    GP_CHECK(gp_rotation_next(&r, 10.5, &sw) == 0 && !sw); /* block full, 0.5 s */
    GP_CHECK(gp_rotation_next(&r, 10.9, &sw) == 0 && !sw);
    GP_CHECK(gp_rotation_next(&r, 11.0, &sw) == 1 && sw);  /* 1 s: next */
    GP_CHECK(gp_rotation_next(&r, 11.0, &sw) == 1 && !sw);
    GP_CHECK(gp_rotation_next(&r, 13.0, &sw) == 0 && sw && r.switches == 2);
    /* a refused configuration is skipped at once, block and time regardless */
    GP_CHECK(gp_rotation_skip(&r, 13.0) == 1 && r.switches == 3 && r.in_block == 1);
}

/* The profiler's share of a run: a program of 1 ms launches, a profiled one
 * costing 3 ms more. */
static double duty_run(gp_duty *d, uint64_t launches, uint64_t *first_half, uint64_t *second_half)
{
    double spent = 0;
    int slice;
    uint64_t slices = 0;
    *first_half = *second_half = 0;
    for (uint64_t t = 0; t < launches; t++) {
        double now = (double)t * 0.001 + spent;
        if (gp_duty_decide(d, now, spent, &slice)) {
            spent += 0.003;
            *(t < launches / 2 ? first_half : second_half) += 1;
        }
        slices += (uint64_t)slice;
    }
    GP_CHECK(slices == d->slices);
    return spent / ((double)launches * 0.001 + spent); /* the profiler's share of the wall time */
}

static void test_duty(void)
{
    gp_duty d;
    uint64_t a, b;
    gp_duty_init(&d, 1, 1.0, 64); /* a share of 1: every launch, one slice */
    duty_run(&d, 1000, &a, &b);
    GP_CHECK(d.profiled == 1000 && d.skipped == 0 && d.slices == 1);
    gp_duty_init(&d, 0.25, 0.05, 8); /* a quarter of the run, slices of 50 ms */
    double share = duty_run(&d, 100000, &a, &b);
    GP_CHECK_MSG(share > 0.2 && share < 0.26, "share %.3f", share);
    GP_CHECK_MSG(d.slices > 100, "%llu slices", (unsigned long long)d.slices);
    /* spread evenly: as many profiled launches in each half, within a slice */
    GP_CHECK_MSG(a + b == d.profiled && (a > b ? a - b : b - a) <= 2 * 17, "%llu and %llu",
                 (unsigned long long)a, (unsigned long long)b);
    GP_CHECK(d.profiled + d.skipped == 100000);
    /* a slice lasts its launches and its time: 8 launches of 3 ms < 50 ms */
    GP_CHECK(d.profiled >= 17 * d.slices - 17 && d.profiled <= 18 * d.slices);
    /* time spent outside the decisions (a variant's first launch) delays the next slice */
    gp_duty_init(&d, 0.5, 0, 1);
    int slice;
    GP_CHECK(gp_duty_decide(&d, 0, 0, &slice) == 1 && slice);   /* first: a slice */
    GP_CHECK(gp_duty_decide(&d, 1, 10, &slice) == 0 && !slice); /* 10 s spent in 1 s */
    GP_CHECK(gp_duty_decide(&d, 19, 10, &slice) == 0);          /* 10 > 0.5 x 19 */
    GP_CHECK(gp_duty_decide(&d, 20, 10, &slice) == 1 && slice); /* 10 <= 0.5 x 20 */
    GP_CHECK(d.skipped == 2 && d.slices == 2);
    /* first launches in kernel replay: a quarter of the share, plus one
     * slice's time (at least 1 s) */
    gp_duty_init(&d, 0.5, 1.0, 1);
    GP_CHECK(gp_duty_exact(&d, 0, 0) == 1);   /* nothing spent: yes */
    GP_CHECK(gp_duty_exact(&d, 1, 3) == 0);   /* it cost 3 s: 3 > 0.125 x 1 + 1 */
    GP_CHECK(d.exact_spent == 3);
    GP_CHECK(gp_duty_exact(&d, 15, 3) == 0);  /* 3 > 0.125 x 15 + 1 */
    GP_CHECK(gp_duty_exact(&d, 16, 3) == 1);  /* 3 <= 0.125 x 16 + 1 */
    GP_CHECK(gp_duty_decide(&d, 17, 4, &slice) == 1 && slice); /* settles: it cost 1 s */
    GP_CHECK(d.exact_spent == 4 && d.exact_yes == 2 && d.exact_no == 2);
    gp_duty_init(&d, 1, 1.0, 1); /* a share of 1: always */
    GP_CHECK(gp_duty_exact(&d, 0, 0) == 1 && gp_duty_exact(&d, 0, 1e9) == 1);
}

/* The run-to-run shares: the first matching line, 0 for deterministic counts. */
static void test_floors(void)
{
    GP_CHECK(gp_est_floor("smsp__inst_executed.sum") == 0);
    GP_CHECK(gp_est_floor("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum") == 0);
    GP_CHECK(gp_est_floor("sm__cycles_elapsed.avg.per_second") == 0.002); /* suffix first */
    GP_CHECK(gp_est_floor("sm__cycles_elapsed.avg") == 0.02);
    GP_CHECK(gp_est_floor("lts__t_bytes.sum") == 0.01);
    GP_CHECK(gp_est_floor("dram__bytes_write.sum") == 0.05);
    GP_CHECK(gp_est_floor("dram__throughput.avg.pct_of_peak_sustained_elapsed") == 0.02);
    GP_CHECK(gp_est_floor("") == 0 && gp_est_floor(NULL) == 0);
}

/* Three positions: a spread counter (reference), a counter of configuration
 * 0, a percentage of configuration 1. */
static void test_small(void)
{
    const char *names[] = {"smsp__inst_executed.sum", "dram__bytes_read.sum", "x.pct"};
    int config[] = {GP_EST_EVERY, 0, 1};
    gp_est_layout L = {3, 0, 2, config, names};
    gp_est_variant v;
    double mean, total, bound;
    char why[200];
    GP_CHECK(gp_est_variant_init(&v, &L) == 0);
    double a[] = {100, 1000, 50};
    uint64_t o = gp_est_launch(&v);
    gp_est_add(&v, &L, GP_EST_ALL, o, a);
    /* one exact launch: every estimate is that launch, bound 0 */
    GP_CHECK(gp_est_value(&v, &L, 1, NAN, &mean, &total, &bound, why, sizeof why) == 0);
    GP_CHECK(total == 1000 && bound == 0);
    /* three more launches, identical, alternating configurations */
    for (int k = 0; k < 3; k++) {
        o = gp_est_launch(&v);
        gp_est_add(&v, &L, k % 2, o, a);
    }
    double rs = gp_est_rel_spread(&v, &L);
    GP_CHECK(isnan(rs)); /* no spread counter besides the reference */
    GP_CHECK(gp_est_value(&v, &L, 0, rs, &mean, &total, &bound, why, sizeof why) == 0);
    GP_CHECK(total == 400 && bound == 0); /* every launch had it: exact */
    GP_CHECK(gp_est_value(&v, &L, 1, rs, &mean, &total, &bound, why, sizeof why) == 0);
    GP_CHECK_NEAR(total, 4000, 1e-12);
    /* identical launches: no residual; what is left is DRAM reads' run-to-run
     * share (estimate_floors.def) */
    GP_CHECK_NEAR(bound, gp_est_floor("dram__bytes_read.sum") * 4000, 1e-9);
    GP_CHECK(gp_est_floor("dram__bytes_read.sum") > 0);
    GP_CHECK_NEAR(mean, 1000, 1e-12);
    GP_CHECK(gp_est_value(&v, &L, 2, rs, &mean, &total, &bound, why, sizeof why) == 0);
    GP_CHECK(total == 50 && mean == 50); /* a percentage is a mean, not scaled */
    GP_CHECK(v.cover[0].n == 3 && v.cover[0].first == 1 && v.cover[0].last == 4);
    GP_CHECK(v.cover[1].n == 2 && v.cover[1].first == 1 && v.cover[1].last == 3);
    GP_CHECK(v.exact == 1 && v.launches == 4);
    GP_CHECK(gp_est_is_additive("gpu__time_duration.sum"));
    GP_CHECK(gp_est_is_additive("sm__cycles_elapsed.avg"));
    GP_CHECK(!gp_est_is_additive("sm__cycles_elapsed.avg.per_second"));
    GP_CHECK(!gp_est_is_additive("dram__bytes.sum.peak_sustained"));
    GP_CHECK(!gp_est_is_additive("smsp__average_thread_inst_executed_per_inst_executed.ratio"));
    gp_est_variant_free(&v);

    /* no exact launch (the first could not be replayed), two launches of
     * configuration 0: configuration 1 is null with its reason, never 0 */
    GP_CHECK(gp_est_variant_init(&v, &L) == 0);
    for (int k = 0; k < 2; k++) {
        o = gp_est_launch(&v);
        gp_est_add(&v, &L, 0, o, a);
    }
    GP_CHECK(gp_est_value(&v, &L, 2, NAN, &mean, &total, &bound, why, sizeof why) == -1);
    GP_CHECK(isnan(total) && isnan(bound));
    GP_CHECK_STR(why, "configuration 2 not collected: variant launched 2 times, none collected it");
    /* a configuration index out of range adds nothing */
    gp_est_add(&v, &L, 7, 3, a);
    GP_CHECK(v.acc[0].n == 2);
    gp_est_variant_free(&v);
}

/* ---- recorded data ------------------------------------------------------ */

typedef struct base {
    gp_launch l;
} base;

static size_t load_bases(const char *path, base *b, size_t cap)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t len = 0, n = 0;
    ssize_t got;
    if (!f)
        return 0;
    while (n < cap && (got = getline(&line, &len, f)) > 0) {
        char err[200];
        gp_json *j = gp_json_parse(line, (size_t)got, err, sizeof err);
        const char *type = j ? gp_json_string(gp_json_get(j, "type")) : NULL;
        if (type && strcmp(type, "launch") == 0 &&
            gp_record_launch(j, &b[n].l, err, sizeof err) == 0)
            n++;
        gp_json_free(j);
    }
    free(line);
    fclose(f);
    return n;
}

static int is_spread(const char *name)
{
    return strcmp(name, "gpu__time_duration.sum") == 0 ||
           strcmp(name, "smsp__inst_executed.sum") == 0 ||
           strcmp(name, "sm__cycles_elapsed.avg") == 0 ||
           strcmp(name, "sm__cycles_elapsed.max") == 0;
}

/* a uniform number of mean 0 and standard deviation 1 */
static double noise(uint64_t *st)
{
    return ((double)(gp_test_rand(st) >> 11) / 9007199254740992.0 - 0.5) * 3.4641016151377544;
}

enum { N_LAUNCH = 257, N_CONFIGS = 4, BLOCK = 16 };

typedef struct sim_result {
    size_t pairs, covered, exact_ok, derived_pairs, derived_covered, derived_exact_ok;
    uint64_t profiled, launches;
} sim_result;

/* One variant: launches from base b (drift: the work shrinks to 40% over the
 * run, 1% noise per counter and launch; the reference, instructions, follows
 * the work exactly), rotated over N_CONFIGS configurations in blocks of
 * BLOCK; estimates against the exact sums.  use_ref: 0 for the plain
 * mean x N.  sampled: the profiler's share is 25% (gp_duty: a launch takes
 * 1 ms, a profiled one 3 ms more; slices of 4 launches and 10 ms, one
 * configuration each), so that most launches are counted only. */
static void simulate(const gp_launch *b, int drift, int use_ref, int sampled, uint64_t seed,
                     sim_result *res)
{
    size_t n = b->n_metrics;
    int *config = calloc(n, sizeof(int));
    double *x = calloc(n, sizeof(double)), *exact = calloc(n, sizeof(double));
    long ref = -1;
    size_t rr = 0;
    for (size_t i = 0; i < n; i++) {
        if (is_spread(b->names[i]))
            config[i] = GP_EST_EVERY;
        else
            config[i] = (int)(rr++ % N_CONFIGS);
        if (strcmp(b->names[i], "smsp__inst_executed.sum") == 0 && use_ref)
            ref = (long)i;
    }
    gp_est_layout L = {n, ref, N_CONFIGS, config, (const char *const *)b->names};
    gp_est_variant v;
    gp_rotation rot;
    GP_CHECK(gp_est_variant_init(&v, &L) == 0);
    gp_rotation_init(&rot, N_CONFIGS, sampled ? UINT64_MAX : BLOCK, 0);
    gp_duty duty;
    gp_duty_init(&duty, sampled ? 0.25 : 1, 0.010, 4);
    double now = 0, spent = 0;
    uint64_t st = seed;
    for (uint64_t t = 1; t <= N_LAUNCH; t++) {
        double f = drift ? 1.0 - 0.6 * (double)(t - 1) / (N_LAUNCH - 1) : 1.0;
        for (size_t i = 0; i < n; i++) {
            int add = gp_est_is_additive(b->names[i]);
            double e = drift && strcmp(b->names[i], "smsp__inst_executed.sum") != 0
                           ? 1 + 0.01 * noise(&st)
                           : 1;
            x[i] = b->values[i] * (add ? f : 1) * e;
            exact[i] += x[i];
        }
        uint64_t o = gp_est_launch(&v);
        int sw, slice;
        now = (double)(t - 1) * 0.001 + spent; /* wall: the native time and the profiler's */
        if (t == 1) {
            gp_est_add(&v, &L, GP_EST_ALL, o, x); /* kernel replay: every pass */
            spent += 0.003 * N_CONFIGS;
        } else if (gp_duty_decide(&duty, now, spent, &slice)) {
            size_t c = slice && sampled ? gp_rotation_skip(&rot, now) : gp_rotation_next(&rot, 0, &sw);
            gp_est_add(&v, &L, (int)c, o, x);
            spent += 0.003;
        }
    }
    res->profiled += duty.profiled;
    res->launches += N_LAUNCH - 1;
    double rs = gp_est_rel_spread(&v, &L);
    /* the mean launch, estimated and exact, for the derived metrics */
    gp_launch est = *b, tru = *b;
    double *ev = calloc(n, sizeof(double)), *tv = calloc(n, sizeof(double));
    double *eb = calloc(n, sizeof(double));
    est.values = ev;
    tru.values = tv;
    est.by_name = tru.by_name = NULL; /* looked up by name in the arrays */
    for (size_t i = 0; i < n; i++) {
        double mean, total, bound;
        char why[200];
        int add = gp_est_is_additive(b->names[i]);
        double truth = add ? exact[i] : exact[i] / N_LAUNCH;
        tv[i] = exact[i] / N_LAUNCH;
        if (gp_est_value(&v, &L, i, rs, &mean, &total, &bound, why, sizeof why) != 0 ||
            !isfinite(b->values[i])) {
            ev[i] = NAN;
            continue;
        }
        ev[i] = mean;
        eb[i] = add ? bound / N_LAUNCH : bound;
        res->pairs++;
        double diff = fabs(total - truth);
        res->exact_ok += diff <= 1e-9 * fabs(truth);
        res->covered += diff <= bound + 1e-9 * fabs(truth);
    }
    gp_device d;
    gp_occ_input in;
    gp_occ_result occ;
    gp_device_h100(&d);
    memset(&in, 0, sizeof in);
    in.threads_per_block = (int)gp_record_threads_per_block(b);
    in.regs_per_thread = b->regs_per_thread;
    in.max_dynamic_smem = in.carveout_pct = -1;
    gp_occupancy_compute(&d, &in, &occ);
    gp_facts fe = {&est, &d, &occ, NULL}, ft = {&tru, &d, &occ, NULL};
    gp_derived_row *re = malloc(sizeof *re), *rt = malloc(sizeof *rt);
    double *db = calloc(GP_DERIVED_COUNT, sizeof(double));
    GP_CHECK(gp_est_derived(&fe, &est, eb, re, db) == 0);
    gp_derived_eval(&ft, rt);
    for (size_t k = 0; k < GP_DERIVED_COUNT; k++) {
        if (isnan(rt->v[k]) || isnan(re->v[k]))
            continue;
        res->derived_pairs++;
        double diff = fabs(re->v[k] - rt->v[k]);
        res->derived_exact_ok += diff <= 1e-9 * fabs(rt->v[k]);
        res->derived_covered += diff <= db[k] + 1e-9 * fabs(rt->v[k]);
    }
    free(re);
    free(rt);
    free(db);
    free(ev);
    free(tv);
    free(eb);
    gp_est_variant_free(&v);
    free(config);
    free(x);
    free(exact);
}

static void test_recorded(void)
{
    enum { CAP = 64 };
    base *b = calloc(CAP, sizeof(base));
    size_t nb = load_bases("tests/data/report/h100-planted.jsonl", b, CAP);
    GP_CHECK_MSG(nb >= 10, "%zu launch records read", nb);
    sim_result fixed = {0}, drift = {0}, plain = {0}, sfixed = {0}, sdrift = {0};
    for (size_t k = 0; k < nb; k++) {
        simulate(&b[k].l, 0, 1, 0, 0x9e3779b97f4a7c15ull + k, &fixed);
        simulate(&b[k].l, 0, 1, 1, 0x9e3779b97f4a7c15ull + k, &sfixed);
        for (uint64_t s = 0; s < 8; s++) { /* several noise draws per variant */
            simulate(&b[k].l, 1, 1, 0, 0x1234567ull + 977 * k + s, &drift);
            simulate(&b[k].l, 1, 0, 0, 0x1234567ull + 977 * k + s, &plain);
            simulate(&b[k].l, 1, 1, 1, 0x1234567ull + 977 * k + s, &sdrift);
        }
    }
    for (size_t k = 0; k < nb; k++)
        gp_record_launch_free(&b[k].l);
    free(b);
    printf("identical launches: %zu/%zu counters and %zu/%zu derived metrics equal to the "
           "exact sums\n",
           fixed.exact_ok, fixed.pairs, fixed.derived_exact_ok, fixed.derived_pairs);
    printf("drifting launches: bound covers %zu/%zu counters (%.1f%%), %zu/%zu derived metrics "
           "(%.1f%%); plain mean x N: %zu/%zu (%.1f%%)\n",
           drift.covered, drift.pairs, 100.0 * drift.covered / drift.pairs, drift.derived_covered,
           drift.derived_pairs, 100.0 * drift.derived_covered / drift.derived_pairs, plain.covered,
           plain.pairs, 100.0 * plain.covered / plain.pairs);
    printf("a 25%% share of the run: %llu of %llu launches profiled; identical launches "
           "%zu/%zu counters equal; drifting: bound covers %zu/%zu counters (%.1f%%), %zu/%zu "
           "derived (%.1f%%)\n",
           (unsigned long long)sdrift.profiled, (unsigned long long)sdrift.launches,
           sfixed.exact_ok, sfixed.pairs, sdrift.covered, sdrift.pairs,
           100.0 * sdrift.covered / sdrift.pairs, sdrift.derived_covered, sdrift.derived_pairs,
           100.0 * sdrift.derived_covered / sdrift.derived_pairs);
    GP_CHECK(fixed.profiled == fixed.launches); /* a share of 1: every launch */
    GP_CHECK(sdrift.profiled > 0 && sdrift.profiled < sdrift.launches / 4);
    GP_CHECK(sfixed.pairs == fixed.pairs && sfixed.exact_ok == sfixed.pairs);
    GP_CHECK(sdrift.covered >= 0.95 * sdrift.pairs);
    GP_CHECK(sdrift.derived_covered >= 0.95 * sdrift.derived_pairs);
    GP_CHECK(fixed.pairs > 300 && fixed.exact_ok == fixed.pairs);
    GP_CHECK(fixed.derived_pairs > 300 && fixed.derived_exact_ok == fixed.derived_pairs);
    GP_CHECK(drift.covered >= 0.95 * drift.pairs);
    GP_CHECK(drift.derived_covered >= 0.95 * drift.derived_pairs);
    /* the plain estimate does not follow the drift: its bound misses */
    GP_CHECK(plain.covered < 0.9 * plain.pairs);
}

/* The report reads a variant_estimate record beside launch records: the
 * exact first launch stays a launch of its kernel, the variant's derived
 * metrics are those of its mean launch with bounds; a record without a
 * launch count is refused with a reason. */
/* tests/data/report/none-mode.jsonl with the first `from` of its
 * variant_estimate record replaced by `to`, loaded into r. */
static void load_edited(gp_report *r, const char *from, const char *to, char **all)
{
    FILE *in = fopen("tests/data/report/none-mode.jsonl", "r");
    size_t all_len = 0;
    FILE *doc = open_memstream(all, &all_len);
    char line[1 << 16];
    while (in && fgets(line, sizeof line, in)) {
        char *at = strstr(line, "variant_estimate") ? strstr(line, from) : NULL;
        if (at) {
            fwrite(line, 1, (size_t)(at - line), doc);
            fputs(to, doc);
            fputs(at + strlen(from), doc);
        } else {
            fputs(line, doc);
        }
    }
    if (in)
        fclose(in);
    fclose(doc);
    gp_report_init(r, NULL);
    FILE *f = fmemopen(*all, all_len, "r");
    gp_report_load_stream(r, f, "edited.jsonl", stderr);
    fclose(f);
    gp_report_finish(r);
}

/* A variant of which most launches ran outside the profiler's share: the
 * report reads their count (beyond N minus the exact ones: 0) and says it. */
static void report_unprofiled(const char *count, long want, const char *text_want)
{
    char *all = NULL, *out = NULL, to[64];
    size_t out_len = 0;
    snprintf(to, sizeof to, "\"unprofiled_launches\":%s,\"exact_launches\":", count);
    gp_report r;
    load_edited(&r, "\"exact_launches\":", to, &all);
    GP_CHECK_MSG(r.n_estimates == 1 && r.estimates[0].unprofiled == want, "%s: %ld", count,
                 r.n_estimates ? r.estimates[0].unprofiled : -1L);
    FILE *txt = open_memstream(&out, &out_len);
    gp_report_text(&r, txt);
    fclose(txt);
    GP_CHECK_MSG(text_want ? strstr(out, text_want) != NULL : strstr(out, "counted only") == NULL,
                 "%s: %s", count, text_want ? text_want : "no count");
    free(out);
    free(all);
    gp_report_free(&r);
}

/* A stepped configuration (its passes over successive launches): the report
 * says its passes and counts collections, not launches; a record without
 * passes (before they were written) reads as one pass each. */
static void test_report_stepped(void)
{
    char *all = NULL, *out = NULL;
    size_t out_len = 0;
    gp_report r;
    load_edited(&r, "{\"configuration\":1,\"kind\":\"counters\",\"launches\":67,",
                "{\"configuration\":1,\"kind\":\"counters\",\"passes\":13,\"launches\":5,", &all);
    GP_CHECK(r.n_estimates == 1);
    if (r.n_estimates == 1) {
        const gp_report_estimate *e = &r.estimates[0];
        GP_CHECK(e->cfg_passes[0] == 13 && e->cfg_launches[0] == 5 && e->cfg_passes[1] == 1);
    }
    FILE *txt = open_memstream(&out, &out_len);
    gp_report_text(&r, txt);
    fclose(txt);
    GP_CHECK_MSG(strstr(out, "1 (counters, 13 passes over successive launches) 5 collections, "
                             "2 (instrumented) 67 launches") != NULL,
                 "%s", out);
    free(out);
    free(all);
    gp_report_free(&r);
}

/* A kernel seen only through a variant's estimate (its first launch was
 * not profiled in kernel replay): its row still has the variant's grid,
 * block and occupancy, never a grid of 0 blocks of 0 threads. */
static void test_report_estimate_only(void)
{
    FILE *in = fopen("tests/data/report/none-mode.jsonl", "r");
    char *all = NULL, line[1 << 16];
    size_t all_len = 0;
    FILE *doc = open_memstream(&all, &all_len);
    while (in && fgets(line, sizeof line, in))
        if (!strstr(line, "\"type\":\"launch\""))
            fputs(line, doc);
    if (in)
        fclose(in);
    fclose(doc);
    gp_report r;
    gp_report_init(&r, NULL);
    FILE *f = fmemopen(all, all_len, "r");
    gp_report_load_stream(&r, f, "estimate-only.jsonl", stderr);
    fclose(f);
    gp_report_finish(&r);
    GP_CHECK_MSG(r.n == 1 && r.launches == 0 && r.n_estimates == 1, "%zu kernels, %ld launches",
                 r.n, r.launches);
    if (r.n == 1) {
        const gp_kernel_agg *a = &r.kernels[0].agg;
        GP_CHECK_MSG(a->blocks == 262144 && a->threads_per_block == 256 &&
                         a->regs_per_thread == 16 && a->occ.limiter != GP_OCC_LIMIT_INVALID &&
                         a->occ.blocks_per_sm > 0,
                     "%ld blocks of %ld threads, %ld registers, %d blocks/SM", a->blocks,
                     a->threads_per_block, a->regs_per_thread, a->occ.blocks_per_sm);
        GP_CHECK(a->launches == 199);
    }
    char *out = NULL;
    size_t out_len = 0;
    FILE *txt = open_memstream(&out, &out_len);
    gp_report_text(&r, txt);
    fclose(txt);
    GP_CHECK_MSG(out && !strstr(out, "of 0 blocks") && !strstr(out, "0 blocks/SM"), "%s",
                 out ? out : "");
    free(out);
    free(all);
    gp_report_free(&r);
}

static void test_report_unprofiled(void)
{
    test_report_estimate_only();
    report_unprofiled("150", 150, "200 launches, 1 in kernel replay, 49 profiled once, 150 counted "
                                  "only (outside the profiler's share)");
    report_unprofiled("200", 0, NULL); /* more than N minus the exact launch: not believed */
    report_unprofiled("-3", 0, NULL);
    test_report_stepped();
}

static void test_report_load(void)
{
    gp_report r;
    gp_report_init(&r, NULL);
    long got = gp_report_load(&r, "tests/data/report/none-mode.jsonl", stderr);
    gp_report_finish(&r);
    GP_CHECK_MSG(got == 1 && r.launches == 1 && r.n == 1, "%ld launches, %zu kernels", got, r.n);
    GP_CHECK(r.n_estimates == 1 && r.bad_lines == 0);
    if (r.n_estimates == 1) {
        const gp_report_estimate *e = &r.estimates[0];
        GP_CHECK(e->launches == 200 && e->exact == 1 && e->n_configs == 3 &&
                 e->cfg_launches[2] == 68 && strcmp(e->cfg_kind[1], "instrumented") == 0);
        GP_CHECK_NEAR(e->derived[GP_M_DURATION], 180e-6, 1e-9); /* 200 x 180 us / 200 */
        GP_CHECK_NEAR(e->bound[GP_M_DURATION], 1.8e-6, 1e-6);   /* 1% of the total, per launch */
        /* the DRAM bandwidth moves with bytes and time: its bound adds both */
        GP_CHECK(e->bound[GP_M_DRAM_BYTES_PER_S] > 0.019 * e->derived[GP_M_DRAM_BYTES_PER_S]);
        GP_CHECK(e->dev == 0);
        /* the verdicts read the variant as a kernel of 200 launches: DRAM-bound,
         * 200 x 537 MB moved (not one launch's bytes, not a launch-cost kernel) */
        GP_CHECK_MSG(e->n_verdicts == 1 && strcmp(e->verdicts[0].id, "dram_bound") == 0 &&
                         strstr(e->verdicts[0].evidence, "107 GB moved"),
                     "%zu verdicts: %s", e->n_verdicts,
                     e->n_verdicts ? e->verdicts[0].evidence : "");
    }
    /* the kernel's row counts every launch: the exact first one and 199 of
     * the estimated mean launch, marked as estimated */
    if (r.n == 1) {
        const gp_kernel_agg *a = &r.kernels[0].agg;
        GP_CHECK_MSG(a->launches == 200 && a->estimated == 199, "%ld launches, %ld estimated",
                     a->launches, a->estimated);
        GP_CHECK_NEAR(a->row.v[GP_M_DURATION], 200 * 180e-6, 1e-9);
        GP_CHECK_NEAR(gp_report_total_time(&r), 200 * 180e-6, 1e-9);
    }
    /* finishing again adds nothing twice */
    gp_report_finish(&r);
    GP_CHECK(r.n == 1 && r.kernels[0].agg.launches == 200);
    gp_report_free(&r);
    gp_report_init(&r, NULL);
    const char *bad = "{\"type\":\"variant_estimate\",\"kernel\":\"k\",\"grid\":[1,1,1],"
                      "\"block\":[1,1,1],\"metrics\":{}}\n";
    FILE *f = fmemopen((void *)bad, strlen(bad), "r");
    char *msg = NULL;
    size_t msglen = 0;
    FILE *warn = open_memstream(&msg, &msglen);
    gp_report_load_stream(&r, f, "bad.jsonl", warn);
    fclose(f);
    fclose(warn);
    GP_CHECK(r.n_estimates == 0 && r.bad_lines == 1);
    GP_CHECK_MSG(msg && strstr(msg, "without a launch count"), "%s", msg ? msg : "");
    free(msg);
    gp_report_free(&r);
    test_report_unprofiled();
}

int main(void)
{
    test_report_load();
    test_rotation();
    test_duty();
    test_floors();
    test_small();
    test_recorded();
    return gp_test_finish("report-estimate");
}
