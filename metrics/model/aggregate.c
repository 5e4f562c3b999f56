/* aggregate.c - see aggregate.h. */
#include "metrics/model/aggregate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/num.h"

int gp_aggregate_init(gp_kernel_agg *k, const char *kernel, int device)
{
    size_t n = strlen(kernel) + 1;
    memset(k, 0, sizeof *k);
    k->kernel = malloc(n);
    if (!k->kernel)
        return -1;
    memcpy(k->kernel, kernel, n);
    k->device = device;
    k->main_time = -1;
    return 0;
}

void gp_aggregate_free(gp_kernel_agg *k)
{
    size_t i;
    free(k->kernel);
    k->kernel = NULL;
    for (i = 0; i < GP_DERIVED_COUNT; i++) {
        free(k->first_why[i]);
        free(k->why_text[i]);
        k->first_why[i] = k->why_text[i] = NULL;
    }
}

void gp_agg_shape_of(gp_agg_shape *s, const gp_launch *l, const gp_occ_result *occ)
{
    s->threads_per_block = gp_record_threads_per_block(l);
    s->blocks = gp_record_blocks(l);
    s->smem_per_block = gp_num_add_sat(l->static_smem, l->dynamic_smem);
    s->regs_per_thread = l->regs_per_thread;
    s->cluster_size = gp_record_cluster_size(l);
    s->occ = *occ;
}

/* The kernel's row shows the configuration s when it took more time (w)
 * than the one it shows. */
static void take_shape(gp_kernel_agg *k, double w, const gp_agg_shape *s)
{
    if (!s || w <= k->main_time)
        return;
    k->main_time = w;
    k->threads_per_block = s->threads_per_block;
    k->blocks = s->blocks;
    k->smem_per_block = s->smem_per_block;
    k->regs_per_thread = s->regs_per_thread;
    k->cluster_size = s->cluster_size;
    k->occ = s->occ;
}

void gp_aggregate_add(gp_kernel_agg *k, const gp_launch *l, const gp_derived_row *row,
                      const gp_occ_result *occ)
{
    double t = row->v[GP_M_DURATION];
    double w = isnan(t) ? 0 : t;
    size_t i;
    k->launches++;
    for (i = 0; i < GP_DERIVED_COUNT; i++) {
        double v = row->v[i];
        if (isnan(v)) {
            /* a pointer, not an array: most metrics of most kernels have a
             * value, and 50,000 kernels must not cost a gigabyte */
            if (!k->first_why[i])
                k->first_why[i] = strdup(row->why[i]);
            continue;
        }
        k->present[i]++;
        k->sum[i] += v;
        k->wsum[i] += v * w;
        k->weight[i] += w;
    }
    /* a launch without a duration still defines the configuration if it is
     * the first one */
    gp_agg_shape s;
    gp_agg_shape_of(&s, l, occ);
    take_shape(k, w, &s);
}

void gp_aggregate_add_estimated(gp_kernel_agg *k, const double *v, long m,
                                const gp_agg_shape *s)
{
    long launches, estimated;
    /* checked (the report bounds the estimates' launches as it reads them,
     * so this never refuses one; a count must never wrap to a negative) */
    if (m <= 0 || __builtin_add_overflow(k->launches, m, &launches) ||
        __builtin_add_overflow(k->estimated, m, &estimated))
        return;
    double t = v[GP_M_DURATION];
    double w = isnan(t) ? 0 : t * (double)m;
    /* the variant's m launches together, as one configuration: a kernel seen
     * only through estimates still has its grid, block and occupancy */
    take_shape(k, w, s);
    k->launches = launches;
    k->estimated = estimated;
    for (size_t i = 0; i < GP_DERIVED_COUNT; i++) {
        if (isnan(v[i])) {
            if (!k->first_why[i])
                k->first_why[i] = strdup("not estimated for the variant (replay mode none)");
            continue;
        }
        k->present[i] += m;
        k->sum[i] += v[i] * (double)m;
        k->wsum[i] += v[i] * w;
        k->weight[i] += w;
    }
}

void gp_aggregate_finish(gp_kernel_agg *k)
{
    size_t i;
    for (i = 0; i < GP_DERIVED_COUNT; i++) {
        double *v = &k->row.v[i];
        const char *first = k->first_why[i];
        const char **why = &k->row.why[i];
        free(k->why_text[i]);
        k->why_text[i] = NULL;
        *why = "";
        if (k->present[i] == 0) {
            *v = NAN;
            *why = first ? first : "no launches";
        } else if (gp_derived_agg(i) == GP_AGG_SUM) {
            if (k->present[i] < k->launches) {
                char buf[GP_EXPR_WHY];
                *v = NAN;
                snprintf(buf, sizeof buf, "n/a in %ld of %ld launches: %s",
                         k->launches - k->present[i], k->launches, first ? first : "?");
                *why = (k->why_text[i] = strdup(buf)) ? k->why_text[i] : "n/a in some launches";
            } else {
                *v = k->sum[i];
            }
        } else if (k->weight[i] > 0) {
            *v = k->wsum[i] / k->weight[i];
        } else {
            /* no durations: the plain mean is the best there is */
            *v = k->sum[i] / (double)k->present[i];
        }
        /* each launch's value is finite, their sum or weighted sum need not
         * be (absurd values in the records): no infinity leaves here, and
         * no NaN without its reason (inf / inf) */
        if (isinf(*v) || (isnan(*v) && !**why)) {
            *v = NAN;
            *why = "overflow: the launches' values add up beyond a double's range";
        }
    }
}
