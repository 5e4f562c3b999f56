/* estimate_load.c - see estimate_load.h.  The record carries the estimated
 * totals of the variant's N launches (means for rates and shares) and each
 * one's bound; the derived metrics are those of the mean launch (totals
 * divided by N), their bounds propagated from the counters' by
 * gp_est_derived. */
#include "metrics/model/estimate_load.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/model/devices.h"
#include "metrics/model/estimate.h"
#include "metrics/catalog/facts.h"
#include "metrics/catalog/occupancy.h"
#include "metrics/catalog/roofline.h"
#include "util/num.h"
#include "metrics/verdicts/verdict.h"

/* At most this many configurations are read from one record (the library
 * rotates at most 49). */
enum { GP_EST_MAX_CONFIGS = 256 };

static void estimate_free(gp_report_estimate *e)
{
    free(e->kernel);
    free(e->cfg_launches);
    free(e->cfg_passes);
    free(e->cfg_kind);
    free(e->why);
    free(e->verdicts);
    memset(e, 0, sizeof(*e));
}

void gp_estimates_free(gp_report *r)
{
    for (size_t i = 0; i < r->n_estimates; i++)
        estimate_free(&r->estimates[i]);
    free(r->estimates);
    r->estimates = NULL;
    r->n_estimates = r->cap_estimates = 0;
}

/* The configurations' coverage. */
static int read_configs(gp_report_estimate *e, const gp_json *cfgs)
{
    size_t n = cfgs && cfgs->type == GP_JSON_ARRAY ? cfgs->n : 0;
    if (n > GP_EST_MAX_CONFIGS)
        n = GP_EST_MAX_CONFIGS;
    e->cfg_launches = calloc(n ? n : 1, sizeof(long));
    e->cfg_kind = calloc(n ? n : 1, sizeof(*e->cfg_kind));
    e->cfg_passes = calloc(n ? n : 1, sizeof(long));
    if (!e->cfg_launches || !e->cfg_kind || !e->cfg_passes)
        return -1;
    for (size_t c = 0; c < n; c++) {
        const gp_json *o = &cfgs->items[c];
        double l = gp_json_number(gp_json_get(o, "launches"));
        const char *kind = gp_json_string(gp_json_get(o, "kind"));
        double p = gp_json_number(gp_json_get(o, "passes")); /* absent before: 1 */
        e->cfg_launches[c] = isfinite(l) && l >= 0 ? gp_num_clamp(l, 0, LONG_MAX, 0) : -1;
        e->cfg_passes[c] = isfinite(p) && p >= 1 ? gp_num_clamp(p, 1, 1024, 1) : 1;
        snprintf(e->cfg_kind[c], sizeof(e->cfg_kind[c]), "%s", kind ? kind : "?");
    }
    e->n_configs = n;
    return 0;
}

int gp_estimate_load(gp_report *r, const gp_json *obj, char *err, size_t errlen)
{
    gp_launch l;
    gp_report_estimate e;
    memset(&e, 0, sizeof(e));
    double n = gp_json_number(gp_json_get(obj, "launches"));
    long total;
    if (!isfinite(n) || n < 1 || n > 1e18) {
        snprintf(err, errlen, "variant_estimate without a launch count of at least 1");
        return -1;
    }
    /* every count added is checked: the estimates' launches, and the launch
     * records beside them, must fit a kernel's count (a sum past 2^63 was
     * printed as a negative number of launches) */
    if (__builtin_add_overflow(r->est_launches, (long)n, &total) || total > GP_EST_LAUNCHES_MAX) {
        snprintf(err, errlen,
                 "variant_estimate of %.0f launches: with the estimates before it, more than "
                 "%.0f launches, which no run makes; left out",
                 n, (double)GP_EST_LAUNCHES_MAX);
        return -1;
    }
    /* the variant's fields are a launch record's (kernel, shape, metrics) */
    if (gp_record_launch(obj, &l, err, errlen) < 0)
        return -1;
    e.launches = (long)n;
    r->est_launches = total;
    double ex = gp_json_number(gp_json_get(obj, "exact_launches"));
    e.exact = isfinite(ex) && ex >= 0 && ex <= n ? (long)ex : 0;
    double un = gp_json_number(gp_json_get(obj, "unprofiled_launches")); /* absent: none */
    e.unprofiled = isfinite(un) && un >= 0 && un <= n - (double)e.exact ? (long)un : 0;
    const gp_json *bounds = gp_json_get(obj, "bound");
    double *mb = calloc(l.n_metrics ? l.n_metrics : 1, sizeof(double));
    int rc = -1;
    if (!mb || read_configs(&e, gp_json_get(obj, "configurations")) != 0 ||
        !(e.kernel = strdup(l.kernel)) || !(e.why = calloc(GP_DERIVED_COUNT, sizeof(*e.why)))) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    /* the mean launch: totals over N divided by N; rates and shares as given */
    for (size_t i = 0; i < l.n_metrics; i++) {
        double b = gp_json_number(gp_json_get(bounds, l.names[i]));
        int add = gp_est_is_additive(l.names[i]);
        if (add && isfinite(l.values[i]))
            l.values[i] /= n;
        mb[i] = isfinite(b) && b >= 0 ? (add ? b / n : b) : NAN;
    }
    for (int d = 0; d < 3; d++) {
        e.grid[d] = l.grid[d];
        e.block[d] = l.block[d];
    }
    e.dynamic_smem = l.dynamic_smem;
    e.dev = gp_devices_of_launch(r, r->n_files - 1, l.host ? l.host : "", l.pid, l.device);
    e.device = l.device;
    const gp_device *dv = e.dev >= 0 ? &r->devices[e.dev].d : &r->dflt;
    gp_occ_result occ;
    gp_facts f;
    gp_facts_of_launch(&f, &l, dv, &r->peaks, &occ);
    gp_agg_shape_of(&e.shape, &l, &occ);
    gp_derived_row *row = malloc(sizeof(*row));
    if (!row || gp_est_derived(&f, &l, mb, row, e.bound) != 0) {
        free(row);
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    for (size_t d = 0; d < GP_DERIVED_COUNT; d++) {
        e.derived[d] = row->v[d];
        memcpy(e.why[d], row->why[d], sizeof(e.why[d]));
    }
    free(row);
    /* the verdicts over all N launches, read as a kernel's aggregate: sums
     * (counts, times) N times the mean launch's, rates and shares as they are */
    gp_roofline roof;
    gp_verdict found[GP_V_COUNT];
    gp_verdict_input vi;
    double agg[GP_DERIVED_COUNT];
    for (size_t d = 0; d < GP_DERIVED_COUNT; d++)
        agg[d] = gp_derived_agg(d) == GP_AGG_SUM ? e.derived[d] * n : e.derived[d];
    memset(&vi, 0, sizeof(vi));
    gp_roofline_compute(agg, e.why[GP_M_FLOPS_PER_S], &r->peaks, &roof);
    vi.v = agg;
    vi.device = dv;
    vi.occ = f.occ;
    vi.roof = &roof;
    vi.launches = e.launches;
    vi.threads_per_block = e.shape.threads_per_block;
    vi.blocks = e.shape.blocks;
    vi.smem_per_block = e.shape.smem_per_block;
    vi.regs_per_thread = e.shape.regs_per_thread;
    e.n_verdicts = gp_verdict_diagnose(&vi, found);
    if (e.n_verdicts && (e.verdicts = malloc(e.n_verdicts * sizeof(*found))))
        memcpy(e.verdicts, found, e.n_verdicts * sizeof(*found));
    else
        e.n_verdicts = 0;
    if (r->n_estimates == r->cap_estimates) {
        size_t cap = r->cap_estimates ? 2 * r->cap_estimates : 8;
        gp_report_estimate *g = realloc(r->estimates, cap * sizeof(*g));
        if (!g) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        r->estimates = g;
        r->cap_estimates = cap;
    }
    r->estimates[r->n_estimates++] = e;
    memset(&e, 0, sizeof(e));
    rc = 0;
out:
    estimate_free(&e);
    free(mb);
    gp_record_launch_free(&l);
    return rc;
}
