/* against.c - see against.h.  The rules are those the project's
 * cross-check against Nsight Compute always used (tests/gpu/xcheck), the
 * tolerances a table (against.def). */
#include "metrics/ncu/against.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/kname.h"
#include "util/strindex.h"

static const gp_against_class_info gp_ag_classes[GP_AG_N_CLASSES] = {
#define GP_AGAINST_CLASS(id, label, rel, abs, abs_unit, flags, doc)                                \
    {label, abs_unit, doc, rel, abs, flags},
#include "metrics/ncu/against.def"
};

enum { GP_AG_SUFFIX, GP_AG_PREFIX, GP_AG_CONTAINS, GP_AG_ANY };
static const struct {
    int match;
    const char *pattern;
    int cls;
} gp_ag_rules[] = {
#define GP_AGAINST_RULE(match, pattern, class) {GP_AG_##match, pattern, GP_AG_##class},
#include "metrics/ncu/against.def"
};

static const char *const gp_ag_one_pass[] = {
#define GP_AGAINST_ONE_PASS(name) name,
#include "metrics/ncu/against.def"
};

const gp_against_class_info *gp_against_classes(void)
{
    return gp_ag_classes;
}

int gp_against_class_of(const char *metric)
{
    size_t i, len = strlen(metric);
    for (i = 0; i < sizeof gp_ag_rules / sizeof gp_ag_rules[0]; i++) {
        const char *p = gp_ag_rules[i].pattern;
        size_t pl = strlen(p);
        int hit = 0;
        switch (gp_ag_rules[i].match) {
        case GP_AG_SUFFIX:
            hit = len >= pl && memcmp(metric + len - pl, p, pl) == 0;
            break;
        case GP_AG_PREFIX:
            hit = strncmp(metric, p, pl) == 0;
            break;
        case GP_AG_CONTAINS:
            hit = strstr(metric, p) != NULL;
            break;
        default:
            hit = 1;
            break;
        }
        if (hit)
            return gp_ag_rules[i].cls;
    }
    return GP_AG_COUNT;
}

int gp_against_agrees(int cls, double g, double n, double *rel)
{
    const gp_against_class_info *c = &gp_ag_classes[cls];
    double d = fabs(g - n);
    *rel = n != 0 ? d / fabs(n) : (g == 0 ? 0.0 : INFINITY);
    return *rel <= c->rel || d <= c->abs;
}

int gp_against_is_one_pass(const char *metric)
{
    size_t i;
    for (i = 0; i < sizeof gp_ag_one_pass / sizeof gp_ag_one_pass[0]; i++)
        if (strcmp(metric, gp_ag_one_pass[i]) == 0)
            return 1;
    return 0;
}

/* The key of a launch: its short name, a NUL, its ordinal. */
static size_t gp_ag_key(char *buf, size_t len, const char *shortname, long ordinal)
{
    size_t n = strlen(shortname);
    if (n + 24 > len)
        n = len - 24;
    memcpy(buf, shortname, n);
    buf[n] = 0;
    return n + 1 + (size_t)snprintf(buf + n + 1, len - n - 1, "%ld", ordinal);
}

/* Short names and ordinals of n kernel names into names[]/ords[], and
 * (when index is not NULL) an index from key to position. */
static int gp_ag_number(const char *const *kernels, size_t n, char **names, long *ords,
                        gp_strindex **index)
{
    gp_strindex *seen = NULL;
    long *count = NULL;
    size_t i, n_seen = 0;
    char buf[1024], key[1100];
    int rc = -1;
    if (!(count = calloc(n ? n : 1, sizeof *count)))
        return -1;
    for (i = 0; i < n; i++) {
        long s;
        gp_kname_function(kernels[i] ? kernels[i] : "", buf, sizeof buf);
        if (!(names[i] = strdup(buf)))
            goto out;
        s = gp_strindex_find(seen, buf, strlen(buf));
        if (s < 0) {
            if (gp_strindex_add(&seen, buf, strlen(buf), n_seen) < 0)
                goto out;
            s = (long)n_seen++;
        }
        ords[i] = count[s]++;
        if (index && gp_strindex_add(index, key, gp_ag_key(key, sizeof key, buf, ords[i]), i) < 0)
            goto out;
    }
    rc = 0;
out:
    gp_strindex_free(&seen);
    free(count);
    return rc;
}

/* A table's rows keyed like the oracle's. */
static int gp_ag_index_table(const gp_ncu_table *t, gp_strindex **index)
{
    const char **k = malloc((t->n_rows ? t->n_rows : 1) * sizeof *k);
    char **names = calloc(t->n_rows ? t->n_rows : 1, sizeof *names);
    long *ords = malloc((t->n_rows ? t->n_rows : 1) * sizeof *ords);
    size_t i;
    int rc = -1;
    if (k && names && ords) {
        for (i = 0; i < t->n_rows; i++)
            k[i] = t->rows[i].kernel;
        rc = gp_ag_number(k, t->n_rows, names, ords, index);
    }
    for (i = 0; names && i < t->n_rows; i++)
        free(names[i]);
    free(k);
    free(names);
    free(ords);
    return rc;
}

/* The value of column c in row r: 1 and *v when a number. */
static int gp_ag_value(const gp_ncu_table *t, long row, long c, double *v)
{
    if (row < 0 || c < 0 || t->rows[row].kind[c] != GP_NCU_NUM)
        return 0;
    *v = t->rows[row].v[c];
    return 1;
}

static long gp_ag_find(const gp_strindex *ix, const char *shortname, long ordinal)
{
    char key[1100];
    return gp_strindex_find(ix, key, gp_ag_key(key, sizeof key, shortname, ordinal));
}

static int gp_ag_cmp_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int gp_ag_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int gp_ag_pair_add(gp_against_result *res, const gp_against_pair *p)
{
    if (res->n_pairs == res->cap_pairs) {
        size_t nc = res->cap_pairs ? 2 * res->cap_pairs : 256;
        gp_against_pair *np = realloc(res->pairs, nc * sizeof *np);
        if (!np)
            return -1;
        res->pairs = np;
        res->cap_pairs = nc;
    }
    res->pairs[res->n_pairs++] = *p;
    return 0;
}

/* Whether a matched launch ran on another device than ncu's row says. */
static void gp_ag_device(gp_against_result *res, const gp_against_launch *l, const gp_ncu_row *r)
{
    int major, minor, differ = 0;
    char c;
    if (l->cc_major >= 0 && r->cc && sscanf(r->cc, "%d.%d%c", &major, &minor, &c) == 2 &&
        (major != l->cc_major || minor != l->cc_minor))
        differ = 1;
    if (l->device && l->device[0] && r->device && r->device[0] && strcmp(l->device, r->device))
        differ = 1;
    if (!differ)
        return;
    if (res->device_mismatch++ == 0) {
        snprintf(res->device_gpuprof, sizeof res->device_gpuprof, "%s (compute capability %d.%d)",
                 l->device && l->device[0] ? l->device : "a device", l->cc_major, l->cc_minor);
        snprintf(res->device_ncu, sizeof res->device_ncu, "%s (compute capability %s)",
                 r->device && r->device[0] ? r->device : "a device", r->cc ? r->cc : "unknown");
    }
}

/* Every metric name of the launches, once, sorted; the compared ones into
 * res->metrics, the others listed. */
static int gp_ag_metrics(const gp_against_launch *l, size_t n, const gp_ncu_table *oracle,
                         gp_against_result *res, gp_strindex **index)
{
    gp_strindex *names = NULL;
    const char **all = NULL;
    size_t i, j, n_all = 0, cap = 0;
    int rc = -1;
    for (i = 0; i < n; i++)
        for (j = 0; j < l[i].n_metrics; j++) {
            const char *m = l[i].names[j];
            if (gp_strindex_find(names, m, strlen(m)) >= 0)
                continue;
            if (n_all == cap) {
                const char **na = realloc(all, (cap = cap ? 2 * cap : 64) * sizeof *na);
                if (!na)
                    goto out;
                all = na;
            }
            if (gp_strindex_add(&names, m, strlen(m), n_all) < 0)
                goto out;
            all[n_all++] = m;
        }
    if (n_all)
        qsort(all, n_all, sizeof *all, gp_ag_cmp_name);
    res->metrics = calloc(n_all ? n_all : 1, sizeof *res->metrics);
    res->gpuprof_only_metrics = calloc(n_all ? n_all : 1, sizeof *res->gpuprof_only_metrics);
    if (!res->metrics || !res->gpuprof_only_metrics)
        goto out;
    for (i = 0; i < n_all; i++) {
        int cls = gp_against_class_of(all[i]);
        if (gp_ag_classes[cls].flags & GP_AG_SKIP)
            continue;
        if (gp_ncu_raw_col(oracle, all[i]) < 0) {
            res->gpuprof_only_metrics[res->n_gpuprof_only_metrics++] = all[i];
            continue;
        }
        if (gp_strindex_add(index, all[i], strlen(all[i]), res->n_metrics) < 0)
            goto out;
        res->metrics[res->n_metrics].name = all[i];
        res->metrics[res->n_metrics].cls = cls;
        res->metrics[res->n_metrics].worst_pair = -1;
        res->metrics[res->n_metrics].worst = -1;
        res->n_metrics++;
    }
    /* ncu's metric columns no launch has */
    res->ncu_only_metrics =
        calloc(oracle->n_cols ? oracle->n_cols : 1, sizeof *res->ncu_only_metrics);
    if (!res->ncu_only_metrics)
        goto out;
    for (i = 0; i < oracle->n_cols; i++)
        if (gp_ncu_raw_is_metric(oracle, i) &&
            !(gp_ag_classes[gp_against_class_of(oracle->cols[i])].flags & GP_AG_SKIP) &&
            gp_strindex_find(names, oracle->cols[i], strlen(oracle->cols[i])) < 0)
            res->ncu_only_metrics[res->n_ncu_only_metrics++] = oracle->cols[i];
    rc = 0;
out:
    gp_strindex_free(&names);
    free(all);
    return rc;
}

/* One (launch, metric) pair, as the cross-check always judged it. */
static int gp_ag_pair(gp_against_result *res, size_t li, long row, size_t m, double g,
                      const gp_ncu_table *oracle, long col, const gp_ncu_table *const *again,
                      const gp_strindex *const *again_ix, size_t n_again, const gp_ncu_table *one_pass,
                      const gp_strindex *one_pass_ix, const gp_ncu_table *op_again,
                      const gp_strindex *op_again_ix)
{
    gp_against_metric *st = &res->metrics[m];
    const gp_against_class_info *c = &gp_ag_classes[st->cls];
    const char *sn = res->shortname[li];
    long ord = res->ordinal[li];
    gp_against_pair p = {
        .launch = li, .row = (size_t)row, .metric = m, .g = g, .n = NAN, .n2 = NAN};
    long alone = -1;
    size_t a;
    int have_g = !isnan(g), have_n;
    double n = NAN, v;
    have_n = gp_ag_value(oracle, row, col, &n);
    if (one_pass && gp_against_is_one_pass(st->name) && (alone = gp_ag_find(one_pass_ix, sn, ord)) >= 0 &&
        gp_ag_value(one_pass, alone, gp_ncu_raw_col(one_pass, st->name), &v)) {
        n = v;
        have_n = 1;
        p.from_one_pass = 1;
    } else {
        alone = -1; /* no such column or value there: judged as any other */
    }
    if (!have_n && !have_g)
        return 0;
    p.n = have_n ? n : NAN;
    if ((c->flags & GP_AG_ZERO_NA) && ((!have_g && n == 0) || (!have_n && g == 0))) {
        p.agree = 1;
        p.rel = 0;
    } else if (!have_g || !have_n) {
        p.agree = 0;
        p.rel = INFINITY;
    } else if ((c->flags & GP_AG_OVER_100) && n > 100.0 + 1e-9) {
        p.outcome = GP_AG_OVER100;
        st->over100++;
        res->over100++;
        return gp_ag_pair_add(res, &p);
    } else {
        p.agree = gp_against_agrees(st->cls, g, n, &p.rel);
    }
    /* a later run that ncu did not repeat within the tolerance: one of the
     * full-list runs, or for a one-pass metric the second one-pass run */
    for (a = 0; have_n && a <= n_again; a++) {
        int full_list = a < n_again;
        const gp_ncu_table *t = full_list ? again[a] : op_again;
        const gp_strindex *ix = full_list ? again_ix[a] : op_again_ix;
        double n2, rel2;
        if (!t || full_list != (alone < 0))
            continue;
        if (gp_ag_value(t, gp_ag_find(ix, sn, ord), gp_ncu_raw_col(t, st->name), &n2) &&
            !gp_against_agrees(st->cls, n2, n, &rel2)) {
            p.outcome = GP_AG_UNSTABLE;
            p.n2 = n2;
            p.again = a;
            st->unstable++;
            res->unstable++;
            res->unstable_agree += (size_t)p.agree;
            return gp_ag_pair_add(res, &p);
        }
    }
    p.outcome = p.agree ? GP_AG_AGREE : GP_AG_DIFFER;
    st->pairs++;
    st->agree += (size_t)p.agree;
    if (p.agree)
        res->agree++;
    else
        res->differ++;
    if (p.rel > st->worst) {
        st->worst = p.rel;
        st->worst_pair = (long)res->n_pairs;
    }
    return gp_ag_pair_add(res, &p);
}

/* The median relative difference of each metric's judged pairs: the pairs
 * grouped by metric in one pass, each group sorted. */
static int gp_ag_medians(gp_against_result *res)
{
    double *rels = malloc((res->n_pairs ? res->n_pairs : 1) * sizeof *rels);
    size_t *start = calloc(res->n_metrics + 1, sizeof *start), *fill = NULL;
    size_t m, i;
    int rc = -1;
    if (!rels || !start || !(fill = calloc(res->n_metrics + 1, sizeof *fill)))
        goto out;
    for (i = 0; i < res->n_pairs; i++)
        if (res->pairs[i].outcome <= GP_AG_DIFFER)
            start[res->pairs[i].metric + 1]++;
    for (m = 0; m < res->n_metrics; m++)
        start[m + 1] += start[m];
    for (i = 0; i < res->n_pairs; i++) {
        const gp_against_pair *p = &res->pairs[i];
        if (p->outcome <= GP_AG_DIFFER)
            rels[start[p->metric] + fill[p->metric]++] = p->rel;
    }
    for (m = 0; m < res->n_metrics; m++) {
        size_t k = start[m + 1] - start[m];
        double *r = rels + start[m];
        if (!k) {
            res->metrics[m].median = NAN;
            continue;
        }
        qsort(r, k, sizeof *r, gp_ag_cmp_double);
        res->metrics[m].median = k % 2 ? r[k / 2] : (r[k / 2 - 1] + r[k / 2]) / 2;
    }
    rc = 0;
out:
    free(rels);
    free(start);
    free(fill);
    return rc;
}

int gp_against_judge(const gp_against_launch *l, size_t n, const gp_ncu_table *oracle,
                     const gp_ncu_table *const *again, size_t n_again, const gp_ncu_table *one_pass,
                     const gp_ncu_table *one_pass_again, gp_against_result *res)
{
    gp_strindex *row_ix = NULL, *launch_ix = NULL, *metric_ix = NULL, *one_pass_ix = NULL;
    gp_strindex *op_again_ix = NULL;
    gp_strindex **again_ix = NULL;
    const char **kernels = NULL;
    long *cols = NULL, *slot = NULL;
    double *vals = NULL;
    size_t i, j, total = n + oracle->n_rows;
    int rc = -1;
    memset(res, 0, sizeof *res);
    res->n_launches = n;
    res->n_rows = oracle->n_rows;
    res->shortname = calloc(total ? total : 1, sizeof *res->shortname);
    res->ordinal = calloc(total ? total : 1, sizeof *res->ordinal);
    kernels = malloc((total ? total : 1) * sizeof *kernels);
    res->unmatched = malloc((total ? total : 1) * sizeof *res->unmatched);
    again_ix = calloc(n_again ? n_again : 1, sizeof *again_ix);
    if (!res->shortname || !res->ordinal || !kernels || !res->unmatched || !again_ix)
        goto out;
    for (i = 0; i < n; i++)
        kernels[i] = l[i].kernel;
    for (i = 0; i < oracle->n_rows; i++)
        kernels[n + i] = oracle->rows[i].kernel;
    if (gp_ag_number(kernels, n, res->shortname, res->ordinal, &launch_ix) < 0 ||
        gp_ag_number(kernels + n, oracle->n_rows, res->shortname + n, res->ordinal + n, &row_ix) <
            0)
        goto out;
    for (i = 0; i < n_again; i++)
        if (gp_ag_index_table(again[i], &again_ix[i]) < 0)
            goto out;
    if (one_pass && gp_ag_index_table(one_pass, &one_pass_ix) < 0)
        goto out;
    if (!one_pass)
        one_pass_again = NULL; /* a second one-pass run without a first one judges nothing */
    if (one_pass_again && gp_ag_index_table(one_pass_again, &op_again_ix) < 0)
        goto out;
    if (gp_ag_metrics(l, n, oracle, res, &metric_ix) < 0)
        goto out;
    cols = malloc((res->n_metrics ? res->n_metrics : 1) * sizeof *cols);
    slot = malloc((res->n_metrics ? res->n_metrics : 1) * sizeof *slot);
    vals = malloc((res->n_metrics ? res->n_metrics : 1) * sizeof *vals);
    if (!cols || !slot || !vals)
        goto out;
    for (j = 0; j < res->n_metrics; j++)
        cols[j] = gp_ncu_raw_col(oracle, res->metrics[j].name);
    for (i = 0; i < n; i++) {
        long row = gp_ag_find(row_ix, res->shortname[i], res->ordinal[i]);
        if (row < 0) {
            res->unmatched[res->n_unmatched++] = (gp_against_unmatched){GP_AG_GPUPROF_ONLY, i};
            res->n_gpuprof_only++;
            continue;
        }
        gp_ag_device(res, &l[i], &oracle->rows[row]);
        for (j = 0; j < res->n_metrics; j++)
            slot[j] = -1;
        for (j = 0; j < l[i].n_metrics; j++) {
            long m = gp_strindex_find(metric_ix, l[i].names[j], strlen(l[i].names[j]));
            if (m >= 0) {
                slot[m] = (long)j;
                vals[m] = l[i].values[j];
            }
        }
        for (j = 0; j < res->n_metrics; j++)
            if (slot[j] >= 0 &&
                gp_ag_pair(res, i, row, j, vals[j], oracle, cols[j], again,
                           (const gp_strindex *const *)again_ix, n_again, one_pass, one_pass_ix,
                           one_pass_again, op_again_ix) < 0)
                goto out;
    }
    for (i = 0; i < oracle->n_rows; i++)
        if (gp_ag_find(launch_ix, res->shortname[n + i], res->ordinal[n + i]) < 0) {
            res->unmatched[res->n_unmatched++] = (gp_against_unmatched){GP_AG_NCU_ONLY, i};
            res->n_ncu_only++;
        }
    if (gp_ag_medians(res) < 0)
        goto out;
    rc = 0;
out:
    gp_strindex_free(&row_ix);
    gp_strindex_free(&launch_ix);
    gp_strindex_free(&metric_ix);
    gp_strindex_free(&one_pass_ix);
    gp_strindex_free(&op_again_ix);
    for (i = 0; again_ix && i < n_again; i++)
        gp_strindex_free(&again_ix[i]);
    free(again_ix);
    free(kernels);
    free(cols);
    free(slot);
    free(vals);
    if (rc < 0)
        gp_against_free(res);
    return rc;
}

void gp_against_free(gp_against_result *res)
{
    size_t i;
    for (i = 0; res->shortname && i < res->n_launches + res->n_rows; i++)
        free(res->shortname[i]);
    free(res->shortname);
    free(res->ordinal);
    free(res->pairs);
    free(res->metrics);
    free(res->unmatched);
    free(res->gpuprof_only_metrics);
    free(res->ncu_only_metrics);
    memset(res, 0, sizeof *res);
}

int gp_against_status(const gp_against_result *res)
{
    if (res->differ || res->agree == 0)
        return 1;
    if (res->n_unmatched || res->device_mismatch)
        return 3;
    return 0;
}
