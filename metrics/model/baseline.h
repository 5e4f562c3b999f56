/* baseline.h - two runs compared: the kernels of a baseline report matched
 * to those of a new one by demangled name and device ordinal, with the change
 * in time and in the key metrics, and the verdicts gained and lost.  The
 * writers (text, CSV, HTML) are in report_baseline.c. */
#ifndef GP_BASELINE_H
#define GP_BASELINE_H

#include <stdio.h>

#include "metrics/model/load.h"

typedef struct {
    const gp_kernel_report *old, *now;   /* one of them is NULL: the kernel ran in one run only */
    double dt;                           /* total time, new - old, s (NaN when unknown) */
    double dt_pct;                       /* % of the old time (NaN when unknown) */
    size_t gained[GP_V_COUNT], n_gained; /* indices into now->verdicts */
    size_t lost[GP_V_COUNT], n_lost;     /* indices into old->verdicts */
} gp_baseline_row;

typedef struct {
    const gp_report *old, *now;
    gp_baseline_row *rows; /* largest change in time first; new and gone kernels included */
    size_t n;
} gp_baseline;

/* The key metrics compared, in order (indices of gp_derived_defs). */
extern const int gp_baseline_metrics[];
extern const size_t gp_baseline_n_metrics;

/* Returns 0, or -1 when out of memory. */
int gp_baseline_compare(const gp_report *old, const gp_report *now, gp_baseline *b);
void gp_baseline_free(gp_baseline *b);

/* The change of one metric from a to b: for percentages the difference in
 * points, for others the relative change in %; *unit gets "pt" or "%".  NaN
 * when either is n/a or the relative change divides by zero. */
double gp_baseline_change(int metric, double a, double b, const char **unit);

/* Writers: 0, or -1 when writing failed. */
int gp_baseline_text(const gp_baseline *b, FILE *out);
int gp_baseline_csv(const gp_baseline *b, FILE *out);
int gp_baseline_html(const gp_baseline *b, FILE *out);

#endif
