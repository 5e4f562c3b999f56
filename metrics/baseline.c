/* baseline.c - see baseline.h. */
#include "baseline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* What a change of code usually moves: time, occupancy, the units' use and
 * the efficiencies the verdicts quote. */
const int gp_baseline_metrics[] = {
    GP_M_DURATION,
    GP_M_ACHIEVED_OCCUPANCY,
    GP_M_THEORETICAL_OCCUPANCY,
    GP_M_DRAM_UTIL,
    GP_M_L2_UTIL,
    GP_M_FP32_UTIL,
    GP_M_FLOPS_PER_S,
    GP_M_DRAM_BYTES,
    GP_M_GLD_EFFICIENCY,
    GP_M_GST_EFFICIENCY,
    GP_M_SHARED_EFFICIENCY,
    GP_M_WARP_EXECUTION_EFFICIENCY,
    GP_M_BRANCH_EFFICIENCY,
};
const size_t gp_baseline_n_metrics = sizeof gp_baseline_metrics / sizeof gp_baseline_metrics[0];

double gp_baseline_change(int metric, double a, double b, const char **unit)
{
    int pct = strcmp(gp_derived_defs[metric].unit, "%") == 0;
    *unit = pct ? "pt" : "%";
    if (isnan(a) || isnan(b))
        return NAN;
    if (pct)
        return b - a;
    if (a == 0)
        return b == 0 ? 0 : NAN;
    /* a tiny a makes the relative change leave a double's range: n/a */
    return isfinite(100 * (b - a) / fabs(a)) ? 100 * (b - a) / fabs(a) : NAN;
}

/* Verdicts of x that y does not have (by label: id and detail). */
static size_t gp_baseline_only(const gp_kernel_report *x, const gp_kernel_report *y, size_t *out)
{
    size_t i, j, n = 0;
    char a[64], b[64];
    for (i = 0; i < x->n_verdicts; i++) {
        int found = 0;
        gp_verdict_label(&x->verdicts[i], a, sizeof a);
        for (j = 0; y && j < y->n_verdicts && !found; j++) {
            gp_verdict_label(&y->verdicts[j], b, sizeof b);
            found = strcmp(a, b) == 0;
        }
        if (!found)
            out[n++] = i;
    }
    return n;
}

static double gp_baseline_time(const gp_kernel_report *k)
{
    return k ? k->agg.row.v[GP_M_DURATION] : 0;
}

static int gp_baseline_cmp(const void *pa, const void *pb)
{
    const gp_baseline_row *a = pa, *b = pb;
    double x = isnan(a->dt) ? 0 : fabs(a->dt), y = isnan(b->dt) ? 0 : fabs(b->dt);
    if (x != y)
        return x < y ? 1 : -1;
    /* equal changes: the longer kernel first, then by name for a stable order */
    x = gp_baseline_time(a->now ? a->now : a->old);
    y = gp_baseline_time(b->now ? b->now : b->old);
    if (!isnan(x) && !isnan(y) && x != y)
        return x < y ? 1 : -1;
    return strcmp((a->now ? a->now : a->old)->agg.kernel, (b->now ? b->now : b->old)->agg.kernel);
}

int gp_baseline_compare(const gp_report *old, const gp_report *now, gp_baseline *b)
{
    char *used = calloc(old->n ? old->n : 1, 1);
    size_t i, j;
    memset(b, 0, sizeof *b);
    b->old = old;
    b->now = now;
    b->rows = calloc(old->n + now->n + 1, sizeof *b->rows);
    if (!used || !b->rows) {
        free(used);
        free(b->rows);
        b->rows = NULL;
        return -1;
    }
    for (i = 0; i < now->n; i++) {
        gp_baseline_row *row = &b->rows[b->n++];
        const gp_kernel_report *k = &now->kernels[i];
        row->now = k;
        for (j = 0; j < old->n && !row->old; j++)
            if (!used[j] && old->kernels[j].agg.device == k->agg.device &&
                strcmp(old->kernels[j].agg.kernel, k->agg.kernel) == 0) {
                used[j] = 1;
                row->old = &old->kernels[j];
            }
    }
    for (j = 0; j < old->n; j++)
        if (!used[j])
            b->rows[b->n++].old = &old->kernels[j];
    for (i = 0; i < b->n; i++) {
        gp_baseline_row *row = &b->rows[i];
        double t0 = gp_baseline_time(row->old), t1 = gp_baseline_time(row->now);
        row->dt = t1 - t0;
        row->dt_pct = row->old && row->now && t0 > 0 ? 100 * (t1 - t0) / t0 : NAN;
        if (!isfinite(row->dt_pct))
            row->dt_pct = NAN;
        if (row->now)
            row->n_gained = gp_baseline_only(row->now, row->old, row->gained);
        if (row->old)
            row->n_lost = gp_baseline_only(row->old, row->now, row->lost);
    }
    qsort(b->rows, b->n, sizeof *b->rows, gp_baseline_cmp);
    free(used);
    return 0;
}

void gp_baseline_free(gp_baseline *b)
{
    free(b->rows);
    memset(b, 0, sizeof *b);
}
