/* estimate.h - estimates of a kernel variant's totals from launches that each
 * collected one configuration of the metric list (GPUPROF_REPLAY=none), and
 * their error bounds.  Pure arithmetic: the library accumulates with it, the
 * report and the tests evaluate with it.
 *
 * A variant's launches are numbered 1..N.  Some collected every metric (an
 * exact launch: the first one, in kernel replay); the others collected one
 * configuration each, and every configuration carries the spread counters
 * (duration, instructions, cycles).  One of them is the reference (the
 * layout's `ref`, instructions executed where collected): an additive counter
 * x collected by n of the N launches is estimated as a ratio estimator,
 *     total(x) = (sum of x / sum of ref over those n launches) x total(ref),
 * total(ref) being known from (nearly) every launch.  For identical launches
 * this is mean x N; when the work drifts over the run (a shrinking loop), it
 * follows the drift that a plain mean x N misses: configurations are
 * programmed in blocks, so a configuration's launches sit at other points of
 * the drift than the run's average (tests/report/test_estimate.c shows the
 * plain estimate's bias beyond its bound on drifting data).  Without a
 * reference the estimate is mean x N.  Rates, ratios and percentages are the
 * mean over the launches that collected them.
 *
 * The bound is GP_EST_Z standard errors of the estimate, with the
 * finite-population factor (0 when every launch collected the counter):
 * from the counter's own residual spread around the ratio (n >= 2), and never
 * less than the largest residual spread of the other spread counters
 * (gp_est_rel_spread), so that a counter seen in one launch still gets the
 * variant's launch-to-launch variation; that sampling error is added in
 * quadrature to the counter's run-to-run share (estimate_floors.def), which
 * no number of launches removes: the bound covers what kernel replay of
 * every launch would measure in another run.  See docs/user-guide.md
 * ("Replay mode none"). */
#ifndef GP_ESTIMATE_H
#define GP_ESTIMATE_H

#include <stddef.h>
#include <stdint.h>

#include "metrics/catalog/derived.h"
#include "metrics/catalog/facts.h"
#include "metrics/records/record.h"

/* The share of a metric's value by which two runs of the same launches
 * differ (estimate_floors.def); 0 when none is known. */
double gp_est_floor(const char *name);

/* Standard errors in a bound (about 95% for a normal mean). */
#define GP_EST_Z 2.0

/* configuration of a metric carried by every configuration (the spread counters) */
enum { GP_EST_EVERY = -2, GP_EST_NONE = -1 };
/* the configuration argument of gp_est_add for an exact launch */
enum { GP_EST_ALL = -1 };

/* Which configuration carries each metric position. */
typedef struct gp_est_layout {
    size_t n;          /* metric positions */
    long ref;          /* position of the reference spread counter, -1: none */
    size_t n_configs;  /* configurations rotated */
    const int *config; /* per position: 0..n_configs-1, GP_EST_EVERY, or GP_EST_NONE */
    const char *const *names;
} gp_est_layout;

typedef struct gp_est_cover { /* launches that collected one configuration */
    uint64_t n, first, last;  /* count, first and last ordinal (0: none) */
} gp_est_cover;

/* One counter's sums over the launches that collected it; r*: over those
 * whose reference was finite too (x: the counter, s: the reference). */
typedef struct gp_est_acc {
    uint64_t n, nr;
    double sum, sumsq;
    double rx, rxx, rs, rss, rxs;
} gp_est_acc;

typedef struct gp_est_variant {
    uint64_t launches;   /* N: launches of the variant counted so far */
    uint64_t exact;      /* of which collected every configuration */
    gp_est_acc *acc;     /* per position */
    gp_est_cover *cover; /* per configuration (exact launches included) */
} gp_est_variant;

/* 0, or -1 when out of memory (v is then empty and needs no free). */
int gp_est_variant_init(gp_est_variant *v, const gp_est_layout *L);
void gp_est_variant_free(gp_est_variant *v);
/* Counts one launch of the variant; returns its ordinal (1-based). */
uint64_t gp_est_launch(gp_est_variant *v);
/* Adds the values (L->n of them, NaN: not collected) of launch `ord`, which
 * collected configuration `config` (GP_EST_ALL: every one).  Only the
 * positions that configuration carries are added. */
void gp_est_add(gp_est_variant *v, const gp_est_layout *L, int config, uint64_t ord,
                const double *values);

/* 1 when a counter adds up over launches (counts, times, cycles), 0 for a
 * rate, ratio, percentage or peak (its estimate is the mean launch's). */
int gp_est_is_additive(const char *name);

/* The variant's launch-to-launch variation the reference does not explain:
 * the largest relative residual spread of the spread counters other than
 * the reference (or, without a reference, their relative standard
 * deviation), over those with at least two launches and a positive mean;
 * NaN when none. */
double gp_est_rel_spread(const gp_est_variant *v, const gp_est_layout *L);

/* Estimate of position i: *mean (per launch: *total / N for an additive
 * counter), *total (the estimated sum over the N launches for an additive
 * counter, else the mean), *bound (on *total, same unit; 0 when every launch
 * collected it; NaN when no spread is known).  A layout without a reference
 * gives the plain mean x N.  Returns 0, or -1
 * with NaN values and a sentence in why (no launch collected it). */
int gp_est_value(const gp_est_variant *v, const gp_est_layout *L, size_t i, double rel_spread,
                 double *mean, double *total, double *bound, char *why, size_t whylen);

/* Derived metrics of a variant's mean launch with their bounds.  facts->launch
 * is a launch whose values are the mean counters; mean_bound[k] is the bound
 * on the mean of its value k (NaN or 0: none).  Each derived metric's bound is
 * the sum over counters of |d(c_k + b_k) - d(c)| (first order, absolute
 * values added: never smaller than the bound the counters' errors allow when
 * they are independent or move together; only counters of counters.def are
 * moved, the only ones a formula may read).  The launch's values are changed
 * and put back.  bound[i] is NaN where the value is.  0, or -1 when out of
 * memory. */
int gp_est_derived(const gp_facts *facts, gp_launch *mean, const double *mean_bound,
                   gp_derived_row *row, double *bound);

/* Rotation of configurations in a context: one stays programmed for a block
 * of `block` profiled launches and at least `min_s` seconds, then the next
 * (a switch restarts CUPTI's range profiler, about 0.3 s: the time floor
 * bounds that cost to a share of the run whatever the launch rate). */
typedef struct gp_rotation {
    size_t n_configs;
    size_t current;
    uint64_t block, in_block;
    uint64_t switches;
    double min_s, since; /* since: when the current one was programmed; < 0: not yet */
} gp_rotation;

void gp_rotation_init(gp_rotation *r, size_t n_configs, uint64_t block, double min_s);
/* The configuration the next launch, at time now (seconds, any origin), is
 * to collect: the current one, or the next when the block is full and its
 * time is up (then *switched is 1). */
size_t gp_rotation_next(gp_rotation *r, double now, int *switched);
/* The next configuration now, whatever the block and the time (the current
 * one is refused); it counts the launch as gp_rotation_next does. */
size_t gp_rotation_skip(gp_rotation *r, double now);

/* The profiler's share of a run (replay mode none, GPUPROF_MAX_OVERHEAD).
 * Launches are profiled in slices: a slice goes on until the profiler has
 * spent `slice_s` seconds in it and profiled `slice_launches` launches; the
 * launches after it run unprofiled (counted, not measured) until the
 * profiler's time since the first decision is at most `share` of the wall
 * time since then; the next launch begins the next slice.  So the
 * profiler's time stays near `share` of the run's (a run profiled at share
 * s takes about 1 / (1 - s) of its own time), and the slices are spread
 * evenly over it.  A share of 1 or more profiles every launch (one slice).
 * `spent` is the profiler's time so far, on any origin, in seconds, and
 * counts what it spends outside the decisions too (a variant's first
 * launch in kernel replay, gp_duty_exact), which delays the next slice. */
typedef struct gp_duty {
    double share, slice_s;
    uint64_t slice_launches;
    int on;
    double t0, spent0; /* the first decision: wall time and profiler time; t0 < 0: none yet */
    double slice_spent0;
    uint64_t in_slice;
    uint64_t slices, profiled, skipped;
    /* first launches in kernel replay: what they cost, the one under way */
    double exact_spent, exact_from;
    int exact_open;
    uint64_t exact_yes, exact_no;
} gp_duty;

void gp_duty_init(gp_duty *d, double share, double slice_s, uint64_t slice_launches);
/* Sets the origin (the first launch considered), when not set yet; the
 * first decision sets it otherwise. */
void gp_duty_start(gp_duty *d, double now, double spent);
/* 1 when a kernel variant's first launch may be profiled in kernel replay
 * (every configuration) now: the first launches' own cost stays within a
 * quarter of the share of the run (GP_DUTY_EXACT_PART), plus an allowance of
 * one slice's time and at least 1 s (so that a short run's first few are
 * exact), and the slices keep the rest: a slice gives one configuration to
 * every variant it meets, a first launch every configuration to one
 * variant, at the cost of a few dozen slice launches.  Its cost is what
 * `spent` grows by until the next call. */
#define GP_DUTY_EXACT_PART 0.25
int gp_duty_exact(gp_duty *d, double now, double spent);
/* 1: profile the launch at wall time now (*new_slice: it begins a slice);
 * 0: run it unprofiled. */
int gp_duty_decide(gp_duty *d, double now, double spent, int *new_slice);
/* The launch gp_duty_decide just chose runs unprofiled after all: it is not
 * one of the slice's launches. */
void gp_duty_unprofile(gp_duty *d);
/* Ends the slice under way: the next launch the share allows begins the
 * next one. */
void gp_duty_end_slice(gp_duty *d);

#endif
