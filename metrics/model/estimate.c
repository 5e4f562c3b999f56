/* estimate.c - see estimate.h. */
#include "metrics/model/estimate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gp_est_variant_init(gp_est_variant *v, const gp_est_layout *L)
{
    memset(v, 0, sizeof(*v));
    v->acc = calloc(L->n ? L->n : 1, sizeof(gp_est_acc));
    v->cover = calloc(L->n_configs ? L->n_configs : 1, sizeof(gp_est_cover));
    if (!v->acc || !v->cover) {
        gp_est_variant_free(v);
        return -1;
    }
    return 0;
}

void gp_est_variant_free(gp_est_variant *v)
{
    free(v->acc);
    free(v->cover);
    memset(v, 0, sizeof(*v));
}

uint64_t gp_est_launch(gp_est_variant *v)
{
    return ++v->launches;
}

static void cover(gp_est_cover *c, uint64_t ord)
{
    if (c->n == 0 || ord < c->first)
        c->first = ord;
    if (ord > c->last)
        c->last = ord;
    c->n++;
}

void gp_est_add(gp_est_variant *v, const gp_est_layout *L, int config, uint64_t ord,
                const double *values)
{
    if (config != GP_EST_ALL && (config < 0 || (size_t)config >= L->n_configs))
        return;
    if (config == GP_EST_ALL) {
        v->exact++;
        for (size_t c = 0; c < L->n_configs; c++)
            cover(&v->cover[c], ord);
    } else {
        cover(&v->cover[config], ord);
    }
    double s = L->ref >= 0 && (size_t)L->ref < L->n ? values[L->ref] : NAN;
    for (size_t i = 0; i < L->n; i++) {
        int ci = L->config[i];
        if (config != GP_EST_ALL && ci != GP_EST_EVERY && ci != config)
            continue;
        double x = values[i];
        if (!isfinite(x))
            continue;
        gp_est_acc *a = &v->acc[i];
        a->n++;
        a->sum += x;
        a->sumsq += x * x;
        if (isfinite(s)) {
            a->nr++;
            a->rx += x;
            a->rxx += x * x;
            a->rs += s;
            a->rss += s * s;
            a->rxs += x * s;
        }
    }
}

int gp_est_is_additive(const char *name)
{
    static const char *const not_additive[] = {".per_second", ".ratio", ".pct", "peak_sustained",
                                               ".per_"};
    for (size_t k = 0; k < sizeof(not_additive) / sizeof(not_additive[0]); k++)
        if (strstr(name, not_additive[k]))
            return 0;
    return 1;
}

/* Relative standard deviation of a counter's values; NaN when it cannot be
 * said (fewer than two values, mean not positive). */
static double rel_sd(const gp_est_acc *a)
{
    if (a->n < 2)
        return NAN;
    double mean = a->sum / (double)a->n;
    if (!(mean > 0))
        return NAN;
    double var = (a->sumsq - (double)a->n * mean * mean) / (double)(a->n - 1);
    return var > 0 ? sqrt(var) / mean : 0; /* below 0: rounding of identical values */
}

/* Relative spread of a counter's residuals around its ratio to the
 * reference (x - R s, R = sum x / sum s), over its mean; NaN when it cannot
 * be said. */
static double rel_resid(const gp_est_acc *a)
{
    if (a->nr < 2 || !(a->rs > 0) || !(a->rx > 0))
        return NAN;
    double R = a->rx / a->rs;
    double sse = a->rxx - 2 * R * a->rxs + R * R * a->rss;
    double mean = a->rx / (double)a->nr;
    /* rounding: sse is a difference of large sums; below a relative 1e-12
     * of them it is noise */
    if (sse <= 1e-12 * a->rxx)
        return 0;
    return sqrt(sse / (double)(a->nr - 1)) / mean;
}

static int has_ref(const gp_est_layout *L)
{
    return L->ref >= 0 && (size_t)L->ref < L->n;
}

double gp_est_rel_spread(const gp_est_variant *v, const gp_est_layout *L)
{
    double r = NAN;
    for (size_t i = 0; i < L->n; i++) {
        if (L->config[i] != GP_EST_EVERY || (has_ref(L) && (long)i == L->ref))
            continue;
        double s = has_ref(L) ? rel_resid(&v->acc[i]) : rel_sd(&v->acc[i]);
        if (!isnan(s) && (isnan(r) || s > r))
            r = s;
    }
    return r;
}

static const struct {
    const char *prefix, *suffix;
    double share;
} est_floors[] = {
#define GP_EST_FLOOR(p, s, share, why) {p, s, share},
#include "metrics/model/estimate_floors.def"
#undef GP_EST_FLOOR
};

double gp_est_floor(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    for (size_t i = 0; n && i < sizeof est_floors / sizeof est_floors[0]; i++) {
        size_t lp = strlen(est_floors[i].prefix), ls = strlen(est_floors[i].suffix);
        if (lp + ls <= n && strncmp(name, est_floors[i].prefix, lp) == 0 &&
            strcmp(name + n - ls, est_floors[i].suffix) == 0)
            return est_floors[i].share;
    }
    return 0;
}

/* sqrt of the finite-population variance factor of a mean of n of N */
static double fpc(uint64_t n, uint64_t N)
{
    return n >= N ? 0 : sqrt((double)(N - n) / ((double)n * (double)(N - 1)));
}

int gp_est_value(const gp_est_variant *v, const gp_est_layout *L, size_t i, double rel_spread,
                 double *mean, double *total, double *bound, char *why, size_t whylen)
{
    *mean = *total = *bound = NAN;
    if (why && whylen)
        why[0] = 0;
    const gp_est_acc *a = &v->acc[i];
    uint64_t N = v->launches, n = a->n < N ? a->n : N;
    if (n == 0) {
        int c = L->config[i];
        if (why && whylen && c >= 0)
            snprintf(why, whylen,
                     "configuration %d not collected: variant launched %llu time%s, none "
                     "collected it",
                     c + 1, (unsigned long long)N, N == 1 ? "" : "s");
        else if (why && whylen)
            snprintf(why, whylen, "not collected in any launch of the variant (%llu launch%s)",
                     (unsigned long long)N, N == 1 ? "" : "es");
        return -1;
    }
    int add = gp_est_is_additive(L->names[i]);
    double m = a->sum / (double)a->n;
    if (n == N) { /* every launch collected it: the sum itself */
        *total = add ? a->sum : m;
        *mean = add ? a->sum / (double)N : m;
        *bound = 0;
        return 0;
    }
    const gp_est_acc *r = has_ref(L) ? &v->acc[L->ref] : NULL;
    int ratio = add && r && (long)i != L->ref && a->nr > 0 && a->rs > 0 && r->n > 0;
    double spread, used;
    if (ratio) {
        double ref_total = r->sum * (double)N / (double)(r->n < N ? r->n : N);
        *total = a->rx / a->rs * ref_total;
        spread = rel_resid(a);
        used = (double)a->nr;
    } else {
        *total = add ? m * (double)N : m;
        spread = !r || !add ? rel_sd(a) : rel_resid(a);
        used = (double)n;
    }
    *mean = add ? *total / (double)N : *total;
    if (isnan(spread) || (!isnan(rel_spread) && rel_spread > spread))
        spread = rel_spread;
    /* what a second run would differ by anyway, added in quadrature */
    double fl = gp_est_floor(L->names[i]);
    if (isnan(spread)) /* fewer than two launches of anything: the error cannot be said */
        return 0;
    double rel = spread * fpc((uint64_t)used, N);
    if (ratio && r->n < N) /* the reference's own total is an estimate too */
        rel += isnan(rel_sd(r)) ? 0 : rel_sd(r) * fpc(r->n, N);
    rel *= GP_EST_Z;
    *bound = sqrt(rel * rel + fl * fl) * fabs(*total);
    return 0;
}

/* The counters a derived formula may read are those of counters.def (the
 * build checks the formulas against it): only they are moved, so that a
 * record of many other counters costs no more. */
static const char *const formula_counters[] = {
#define GP_COUNTER(n, u, c, s, d) n,
#include "metrics/catalog/counters.def"
#undef GP_COUNTER
};

static int in_formulas(const char *name)
{
    for (size_t i = 0; i < sizeof(formula_counters) / sizeof(formula_counters[0]); i++)
        if (strcmp(formula_counters[i], name) == 0)
            return 1;
    return 0;
}

int gp_est_derived(const gp_facts *facts, gp_launch *mean, const double *mean_bound,
                   gp_derived_row *row, double *bound)
{
    gp_derived_row *t = malloc(sizeof(*t));
    double *dk = malloc(GP_DERIVED_COUNT * sizeof(double));
    if (!t || !dk) {
        free(t);
        free(dk);
        return -1;
    }
    gp_derived_eval(facts, row);
    for (size_t d = 0; d < GP_DERIVED_COUNT; d++)
        bound[d] = isnan(row->v[d]) ? NAN : 0;
    for (size_t k = 0; k < mean->n_metrics; k++) {
        double b = mean_bound[k], c = mean->values[k];
        if (!(b > 0) || !isfinite(c) || !in_formulas(mean->names[k]))
            continue;
        /* counter k moved up and down by its bound: a formula may be flat
         * on one side (a min, a share bounded at 100%) */
        for (size_t d = 0; d < GP_DERIVED_COUNT; d++)
            dk[d] = 0;
        for (int side = 0; side < 2; side++) {
            mean->values[k] = side ? (c - b > 0 ? c - b : 0) : c + b;
            gp_derived_eval(facts, t);
            for (size_t d = 0; d < GP_DERIVED_COUNT; d++)
                if (!isnan(row->v[d]) && !isnan(t->v[d]) && fabs(t->v[d] - row->v[d]) > dk[d])
                    dk[d] = fabs(t->v[d] - row->v[d]);
        }
        mean->values[k] = c;
        for (size_t d = 0; d < GP_DERIVED_COUNT; d++)
            if (!isnan(bound[d]))
                bound[d] += dk[d];
    }
    free(dk);
    free(t);
    return 0;
}

void gp_rotation_init(gp_rotation *r, size_t n_configs, uint64_t block, double min_s)
{
    memset(r, 0, sizeof(*r));
    r->n_configs = n_configs;
    r->block = block ? block : 1;
    r->min_s = min_s > 0 ? min_s : 0;
    r->since = -1;
}

size_t gp_rotation_next(gp_rotation *r, double now, int *switched)
{
    *switched = 0;
    if (r->n_configs == 0)
        return 0;
    if (r->since < 0)
        r->since = now;
    if (r->in_block >= r->block && r->n_configs > 1 && now - r->since >= r->min_s) {
        r->current = (r->current + 1) % r->n_configs;
        r->in_block = 0;
        r->switches++;
        r->since = now;
        *switched = 1;
    }
    r->in_block++;
    return r->current;
}

size_t gp_rotation_skip(gp_rotation *r, double now)
{
    int switched;
    r->in_block = r->block;
    r->since = now - r->min_s;
    return gp_rotation_next(r, now, &switched);
}

void gp_duty_init(gp_duty *d, double share, double slice_s, uint64_t slice_launches)
{
    memset(d, 0, sizeof(*d));
    d->share = share > 0 ? share : 0;
    d->slice_s = slice_s > 0 ? slice_s : 0;
    d->slice_launches = slice_launches ? slice_launches : 1;
    d->t0 = -1;
}

void gp_duty_start(gp_duty *d, double now, double spent)
{
    if (d->t0 < 0) {
        d->t0 = now;
        d->spent0 = spent;
    }
}

/* The first launch under way is done when the next decision comes. */
static void exact_settle(gp_duty *d, double spent)
{
    if (d->exact_open) {
        d->exact_spent += spent > d->exact_from ? spent - d->exact_from : 0;
        d->exact_open = 0;
    }
}

int gp_duty_exact(gp_duty *d, double now, double spent)
{
    gp_duty_start(d, now, spent);
    exact_settle(d, spent);
    double allowance = d->slice_s > 1 ? d->slice_s : 1; /* a short run's first few */
    if (d->share < 1 && d->exact_spent > GP_DUTY_EXACT_PART * d->share * (now - d->t0) + allowance) {
        d->exact_no++;
        return 0;
    }
    d->exact_open = 1;
    d->exact_from = spent;
    d->exact_yes++;
    return 1;
}

int gp_duty_decide(gp_duty *d, double now, double spent, int *new_slice)
{
    *new_slice = 0;
    gp_duty_start(d, now, spent);
    exact_settle(d, spent);
    if (d->share >= 1) { /* every launch: one slice */
        if (!d->on) {
            d->on = 1;
            d->slices++;
            *new_slice = 1;
        }
        d->profiled++;
        return 1;
    }
    if (d->on && d->in_slice >= d->slice_launches && spent - d->slice_spent0 >= d->slice_s)
        d->on = 0;
    if (!d->on) {
        if (spent - d->spent0 > d->share * (now - d->t0)) {
            d->skipped++;
            return 0;
        }
        d->on = 1;
        d->in_slice = 0;
        d->slice_spent0 = spent;
        d->slices++;
        *new_slice = 1;
    }
    d->in_slice++;
    d->profiled++;
    return 1;
}

void gp_duty_unprofile(gp_duty *d)
{
    if (d->in_slice > 0)
        d->in_slice--;
    if (d->profiled > 0)
        d->profiled--;
    d->skipped++;
}

void gp_duty_end_slice(gp_duty *d)
{
    if (d->share < 1)
        d->on = 0;
}
