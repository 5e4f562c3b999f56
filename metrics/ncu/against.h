/* against.h - gpuprof's records judged against Nsight Compute's raw CSV of
 * the same program (gpuprof-report --against, docs/report.md): launches
 * matched by kernel short name and the ordinal of that kernel's launch,
 * every (launch, metric) pair that both sides have judged under the
 * tolerance class of its metric (against.def).  Pure: no file is read or
 * written here.
 *
 * A pair is
 *   agreeing or differing (judged): both values within the class's
 *     tolerance of each other; a value on one side only differs, except
 *     n/a against 0 for a ratio of two sums (GP_AG_ZERO_NA);
 *   unstable (not judged): a later ncu run of the same program (again[])
 *     disagrees with the first under the same tolerance: ncu has no
 *     repeatable value to agree with (a nondeterministic kernel, DRAM
 *     write-backs that depend on what the previous pass left in L2);
 *   over 100 (not judged): a percentage ncu puts above 100.
 * A pair with n/a on both sides is not a pair.  The metrics of the
 * one-pass list (against.def: DRAM writes, DRAM throughput, L2 bytes, whose
 * ncu value depends on how many passes ncu's list needs) take ncu's value
 * from the one-pass run when one is given and it has a number for that
 * launch; a later full-list run then does not set them apart, a second
 * one-pass run does (the same rule: the one-pass value ncu does not
 * repeat has no oracle value). */
#ifndef GP_AGAINST_H
#define GP_AGAINST_H

#include <stddef.h>

#include "metrics/ncu/ncu_raw.h"

enum {
#define GP_AGAINST_CLASS(id, label, rel, abs, abs_unit, flags, doc) GP_AG_##id,
#include "metrics/ncu/against.def"
    GP_AG_N_CLASSES
};
enum { GP_AG_ZERO_NA = 1, GP_AG_OVER_100 = 2, GP_AG_SKIP = 4 };
/* what became of a pair */
enum { GP_AG_AGREE, GP_AG_DIFFER, GP_AG_UNSTABLE, GP_AG_OVER100 };
/* side of an unmatched launch */
enum { GP_AG_GPUPROF_ONLY, GP_AG_NCU_ONLY };

typedef struct {
    const char *label, *abs_unit, *doc;
    double rel, abs;
    int flags;
} gp_against_class_info;

/* One gpuprof launch, in the order of the records. */
typedef struct {
    const char *kernel; /* the demangled name */
    size_t n_metrics;
    char *const *names;
    const double *values;   /* NaN: n/a */
    const char *device;     /* the device's name, NULL: unknown */
    int cc_major, cc_minor; /* -1: unknown */
} gp_against_launch;

typedef struct {
    size_t launch, row; /* the gpuprof launch, ncu's row in the first file */
    size_t metric;      /* in gp_against_result.metrics */
    double g, n, n2;    /* NaN: n/a; n2: the later run's value (unstable pairs) */
    double rel;         /* |g - n| / |n|; INFINITY with n/a on one side or n 0 */
    int outcome;        /* GP_AG_AGREE ... */
    int agree;          /* within tolerance of the first run (unstable pairs too) */
    int from_one_pass;      /* n came from the one-pass run */
    size_t again;       /* the later run that disagreed (unstable pairs): an index of
                         * again[], or n_again for the second one-pass run */
} gp_against_pair;

typedef struct {
    const char *name; /* the launches' own string */
    int cls;
    size_t pairs, agree, unstable, over100; /* pairs: judged (agree + differ) */
    double median, worst;                   /* relative difference over the judged pairs */
    long worst_pair;                        /* the first pair with the worst difference, -1: none */
} gp_against_metric;

typedef struct {
    int side;     /* GP_AG_GPUPROF_ONLY, GP_AG_NCU_ONLY */
    size_t index; /* the launch or ncu's row */
} gp_against_unmatched;

typedef struct {
    size_t n_launches, n_rows; /* gpuprof's launches, ncu's rows (first file) */
    char **shortname;          /* per launch, then per row: the kernel's short name */
    long *ordinal;             /* per launch, then per row */
    gp_against_pair *pairs;    /* in launch order, metrics by name */
    size_t n_pairs, cap_pairs;
    gp_against_metric *metrics; /* compared metrics, by name */
    size_t n_metrics;
    gp_against_unmatched *unmatched; /* gpuprof's first, in order */
    size_t n_unmatched, n_gpuprof_only, n_ncu_only;
    const char **gpuprof_only_metrics; /* gpuprof's metrics ncu has no column for */
    size_t n_gpuprof_only_metrics;
    const char **ncu_only_metrics; /* ncu's metric columns no gpuprof launch has */
    size_t n_ncu_only_metrics;
    size_t agree, differ, unstable, unstable_agree, over100;
    size_t device_mismatch;   /* matched launches whose devices differ */
    char device_gpuprof[160]; /* the first such: gpuprof's device */
    char device_ncu[160];     /* and ncu's */
} gp_against_result;

/* The tolerance classes, in the order of against.def. */
const gp_against_class_info *gp_against_classes(void);

/* The class of a metric (the first rule of against.def that matches). */
int gp_against_class_of(const char *metric);

/* Whether g agrees with the oracle n under class cls (both numbers); the
 * relative difference into *rel (INFINITY when n is 0 and g is not). */
int gp_against_agrees(int cls, double g, double n, double *rel);

/* Whether a metric is judged against the one-pass run. */
int gp_against_is_one_pass(const char *metric);

/* Matches and judges.  again: later ncu runs of the same program (n_again
 * of them, may be 0); one_pass: the one-pass run or NULL; one_pass_again: a
 * second one-pass run or NULL.  Returns 0, or -1 when out of memory (res is
 * then empty). */
int gp_against_judge(const gp_against_launch *l, size_t n, const gp_ncu_table *oracle,
                     const gp_ncu_table *const *again, size_t n_again, const gp_ncu_table *one_pass,
                     const gp_ncu_table *one_pass_again, gp_against_result *res);
void gp_against_free(gp_against_result *res);

/* The exit status of the comparison (docs/report.md): 0 every judged pair
 * agrees and nothing was left out; 1 a pair differs, or no pair could be
 * judged; 3 every judged pair agrees but launches are in one file only or
 * the devices differ.  Metrics on one side only are listed, not counted
 * here: each tool has metrics the other lacks. */
int gp_against_status(const gp_against_result *res);

#endif
