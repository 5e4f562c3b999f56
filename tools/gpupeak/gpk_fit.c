/* gpk_fit.c - what the measured points say (gpk_fit.h). */
#include "gpk_fit.h"

#include <math.h>
#include <stdlib.h>

void gpk_fit_curve(gpk_results *r, int c)
{
    const gpk_curve_def *d = &gpk_curves[c];
    gpk_curve *o = &r->curve[c];
    o->nsteps = 0;
    o->last_lat = NAN;
    o->sat = NAN;
    if (d->by_stride) {
        o->sat = gpk_saturation(o->x, o->y, o->n, 0.9, 0.1);
    } else if (o->n >= 2) {
        int k = gpk_steps_find(o->x, o->y, o->n, 0.15, 8, o->steps, GPK_MAXSTEPS,
                               &o->last_lat);
        o->nsteps = k < 0 ? 0 : k;
    }
    /* TLB: a translation miss that hits the next level costs a few cycles,
     * far under the step detector's 15%: fit the small rise instead */
    o->reach_rc = -1;
    if (GPK_IS_TLB(d->space))
        o->reach_rc = gpk_tlb_reach(o->x, o->y, o->n, d->fixed, GPK_REACH_LINES, GPK_REACH_MIN,
                                    &o->reach);
}

int gpk_fit_sweep_plateaus(gpk_results *r, int c)
{
    const gpk_sweep_def *d = &gpk_sweeps[c];
    gpk_sweep_res *o = &r->sweep[c];
    const gpk_curve *fc = &r->curve[gpk_curve_index(d->curve)];
    o->t_hit = o->t_miss = NAN;
    if (fc->nsteps < 1) {
        o->done = -1;
        o->why = "the footprint curve shows no step, so no hit and miss plateaus to fit with";
        return -1;
    }
    const gpk_step *st = &fc->steps[d->last_step ? fc->nsteps - 1 : 0];
    o->t_hit = st->lat_below;
    o->t_miss = st->lat_above;
    return 0;
}

void gpk_fit_sweep(gpk_results *r, int c)
{
    gpk_sweep_res *o = &r->sweep[c];
    o->rc = gpk_assoc_fit_lru(o->x, o->y, o->n, GPK_SW_LINE, o->t_hit, o->t_miss, GPK_SW_MAXW,
                              GPK_SW_TOL, &o->fit);
    o->done = o->rc >= 0 ? 1 : -1;
    if (o->rc < 0)
        o->why = "the fit refused its input (plateaus not ordered, or too few points)";
}

int gpk_fit_assoc(gpk_results *r, int c)
{
    const gpk_assoc_def *d = &gpk_assocs[c];
    gpk_assoc_res *o = &r->assoc[c];
    /* level 1: climbs past the footprint curve's second plateau (the
     * constant L1.5's hit latency); NaN: the first climb */
    o->hit_lat = NAN;
    if (d->level > 0) {
        const gpk_curve *fc = &r->curve[gpk_curve_index(d->curve)];
        o->hit_lat = fc->nsteps >= d->level ? fc->steps[d->level - 1].lat_above : NAN;
    }
    if (d->level > 0 && isnan(o->hit_lat)) {
        o->done = -1;
        o->why = "the footprint curve shows no plateau for this level";
        return -1;
    }
    o->done = gpk_assoc_find_at(d->strides, d->ns, o->lines, GPK_AS_LINES, o->lat, 0.15, 8,
                                o->hit_lat, &o->a) >= 0
                  ? 1
                  : -1;
    return 0;
}

void gpk_fit_l2_samples(gpk_results *r, const double *v, int n)
{
    r->l2nf_split = gpk_two_clusters(v, n, 0.2, &r->l2_near, &r->l2_far, &r->l2_far_frac);
    r->l2nf_done = 1;
}

void gpk_fit_cross_sm(gpk_results *r)
{
    int n = r->xsm_n, k = 0;
    double *v = malloc(sizeof(double) * n * n + 1);
    for (int i = 0; v && i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (isfinite(r->xsm_ns[i * n + j]))
                v[k++] = r->xsm_ns[i * n + j];
    if (v && k > 1) {
        qsort(v, k, sizeof(double), gpk_cmpd);
        r->xsm_min = v[0];
        r->xsm_max = v[k - 1];
        r->xsm_med = v[k / 2];
        if (!gpk_two_clusters(v, k, 0.1, &r->xsm_near, &r->xsm_far, &r->xsm_far_frac))
            r->xsm_far_frac = 0;
        r->xsm_done = k;
    }
    free(v);
}

void gpk_fit_clock(gpk_results *r)
{
    double v[GPK_T_COUNT + GPK_M_COUNT + GPK_L_COUNT];
    int k = 0;
    for (int i = 0; i < GPK_T_COUNT; i++)
        if (r->tput[i].done == 1 && isfinite(r->tput[i].clk_mhz))
            v[k++] = r->tput[i].clk_mhz;
    for (int i = 0; i < GPK_M_COUNT; i++)
        if (r->mem[i].done == 1 && isfinite(r->mem[i].clk_mhz))
            v[k++] = r->mem[i].clk_mhz;
    for (int i = 0; i < GPK_L_COUNT; i++)
        if (r->lat[i].done == 1 && isfinite(r->lat[i].clk_mhz))
            v[k++] = r->lat[i].clk_mhz;
    qsort(v, k, sizeof(double), gpk_cmpd);
    r->clk_mhz = k ? v[k / 2] : NAN;
}
