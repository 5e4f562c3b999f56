/* baseline.c - see baseline.h. */
#include "metrics/model/baseline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/strindex.h"

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

/* The key a kernel is matched by: its device ordinal, then its demangled
 * name (malloc'd; NULL out of memory). */
static char *gp_baseline_key(const gp_kernel_report *k, size_t *len)
{
    size_t n = strlen(k->agg.kernel);
    char *key = malloc(sizeof k->agg.device + n);
    if (key) {
        memcpy(key, &k->agg.device, sizeof k->agg.device);
        memcpy(key + sizeof k->agg.device, k->agg.kernel, n);
        *len = sizeof k->agg.device + n;
    }
    return key;
}

int gp_baseline_compare(const gp_report *old, const gp_report *now, gp_baseline *b)
{
    /* the old kernels of one key in report order, a chain through next[];
     * first[] of each key moves past those taken, so each new kernel takes
     * the first unused one in constant time (a scan of the old kernels for
     * each new one made two runs of 100,000 kernels quadratic) */
    size_t m = old->n ? old->n : 1, i, j, n_keys = 0;
    char *used = calloc(m, 1), *key;
    long *next = malloc(m * sizeof *next), *first = malloc(m * sizeof *first),
         *last = malloc(m * sizeof *last);
    gp_strindex *ix = NULL;
    int rc = -1;
    memset(b, 0, sizeof *b);
    b->old = old;
    b->now = now;
    b->rows = calloc(old->n + now->n + 1, sizeof *b->rows);
    if (!used || !next || !first || !last || !b->rows)
        goto out;
    for (j = 0; j < old->n; j++) {
        size_t len;
        long at;
        if (!(key = gp_baseline_key(&old->kernels[j], &len)))
            goto out;
        at = gp_strindex_find(ix, key, len);
        if (at < 0 && gp_strindex_add(&ix, key, len, n_keys) < 0) {
            free(key);
            goto out;
        }
        free(key);
        next[j] = -1;
        if (at < 0) {
            first[n_keys] = last[n_keys] = (long)j;
            n_keys++;
        } else {
            next[last[at]] = (long)j;
            last[at] = (long)j;
        }
    }
    for (i = 0; i < now->n; i++) {
        gp_baseline_row *row = &b->rows[b->n++];
        size_t len;
        long at;
        row->now = &now->kernels[i];
        if (!(key = gp_baseline_key(row->now, &len)))
            goto out;
        at = gp_strindex_find(ix, key, len);
        free(key);
        if (at >= 0 && first[at] >= 0) {
            used[first[at]] = 1;
            row->old = &old->kernels[first[at]];
            first[at] = next[first[at]];
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
    rc = 0;
out:
    if (rc < 0) {
        free(b->rows);
        b->rows = NULL;
        b->n = 0;
    }
    gp_strindex_free(&ix);
    free(used);
    free(next);
    free(first);
    free(last);
    return rc;
}

void gp_baseline_free(gp_baseline *b)
{
    free(b->rows);
    memset(b, 0, sizeof *b);
}
