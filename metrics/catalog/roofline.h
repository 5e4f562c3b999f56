/* roofline.h - where a kernel sits on the roofline at each memory level
 * (DRAM, L2, L1), against two sets of ceilings side by side: measured (the
 * peaks file) and architectural (per-cycle peaks x the clock during the
 * kernel, derived.def's arch_* metrics).  attainable = min(compute ceiling,
 * intensity x bandwidth ceiling) (Williams, Waterman, Patterson 2009). */
#ifndef GP_ROOFLINE_H
#define GP_ROOFLINE_H

#include "metrics/catalog/derived.h"
#include "metrics/catalog/peaks.h"

typedef enum { GP_LEVEL_DRAM, GP_LEVEL_L2, GP_LEVEL_L1, GP_LEVEL_COUNT } gp_level;

typedef struct {
    double compute;    /* flop/s ceiling of the kernel's main precision */
    double bandwidth;  /* byte/s ceiling of this level */
    double ridge;      /* flop/byte where the two meet */
    double attainable; /* min(compute, ai x bandwidth) */
    double pct;        /* achieved / attainable, % */
    int memory_bound;  /* 1: the bandwidth roof is the lower one here */
} gp_roof;

typedef struct {
    double ai;   /* flop/byte at this level */
    gp_roof arch, measured;
} gp_roof_level;

typedef struct {
    const char *precision; /* "FP32", "FP64" or "FP16": the one with most flops */
    double perf;           /* achieved flop/s, all precisions */
    gp_roof_level level[GP_LEVEL_COUNT];
    /* the lowest attainable over the levels of each set: the ceiling that binds */
    int arch_binding, measured_binding; /* gp_level, or -1 when n/a */
    int arch_compute_binds, measured_compute_binds;
    char why[GP_EXPR_WHY]; /* reason when perf or every level is n/a */
    /* a ceiling that broke the invariant of roofs.h (measured above
     * architectural, or the kernel above architectural): the first one's
     * sentence, "" when none; such a measured ceiling is n/a, not drawn */
    char bug[240];
} gp_roofline;

const char *gp_roofline_level_name(gp_level l);

/* Fills r from a kernel's (or launch's) derived metrics v (GP_DERIVED_COUNT
 * of them, NaN where n/a), the reason flops_per_s is n/a (when it is), and
 * the measured peaks (may hold NaN: those ceilings are then n/a).  Measured
 * ceilings are taken at the kernel's clock and checked against the
 * architectural ones (roofs.h): one above is left out and said in bug. */
void gp_roofline_compute(const double *v, const char *perf_why, const gp_peaks *peaks,
                         gp_roofline *r);

/* One sentence: which ceiling binds and the % of attainable reached, for the
 * given set (arch = 1 architectural, 0 measured). */
void gp_roofline_describe(const gp_roofline *r, int arch, char *buf, size_t len);

#endif
