/* record.c - JSON launch/device records to the report's structs; see record.h. */
#include "metrics/records/record.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/records/guard.h"
#include "util/num.h"
#include "util/strhash.h"

/* The validity checks of every record (record_fields.def): what CUDA allows
 * for a launch's shape, and for sizes and device facts bounds far beyond any
 * GPU but low enough that the report's sums and products of them cannot
 * overflow.  A value outside its bounds makes the record malformed, with a
 * reason that names the field and the value. */

/* An integer field: absent or null gives dflt; anything else must be a
 * number within [lo, hi].  Returns 0, or -1 with the reason in err. */
static int gp_record_int(const gp_json *obj, const char *key, long lo, long hi, long dflt,
                         long *out, const char *what, char *err, size_t errlen)
{
    const gp_json *v = gp_json_get(obj, key);
    double x;
    if (!v || v->type == GP_JSON_NULL) {
        *out = dflt;
        return 0;
    }
    x = gp_json_number(v);
    if (isnan(x)) {
        snprintf(err, errlen, "%s: \"%s\" is not a number", what, key);
        return -1;
    }
    if (gp_num_in_range(x, lo, hi, out) < 0) {
        if (x < 0 && lo >= 0)
            snprintf(err, errlen, "%s: \"%s\" is negative (%.15g)", what, key, x);
        else
            snprintf(err, errlen, "%s: \"%s\" is %.15g, outside %ld..%ld", what, key, x, lo, hi);
        return -1;
    }
    return 0;
}

/* [x, y, z] with missing elements as 1 (and 0 read as 1). */
static int gp_record_dim3(const gp_json *obj, const char *key, const long max[3], long out[3],
                          const char *what, char *err, size_t errlen)
{
    const gp_json *v = gp_json_get(obj, key);
    size_t i;
    out[0] = out[1] = out[2] = 1;
    if (!v)
        return 0;
    if (v->type != GP_JSON_ARRAY || v->n > 3) {
        snprintf(err, errlen, "%s: \"%s\" is not [x, y, z]", what, key);
        return -1;
    }
    for (i = 0; i < v->n; i++) {
        double x = gp_json_number(&v->items[i]);
        if (isnan(x) || gp_num_in_range(x, 0, max[i], &out[i]) < 0) {
            snprintf(err, errlen, "%s: \"%s\" is not [x, y, z] within [%ld, %ld, %ld]", what,
                     key, max[0], max[1], max[2]);
            return -1;
        }
        if (out[i] < 1)
            out[i] = 1;
    }
    return 0;
}

enum {
    GP_RK_U64,
    GP_RK_LONG,
    GP_RK_INT,
    GP_RK_STR,
    GP_RK_DIM3,
    GP_RK_DBL,
    GP_RK_FLAG,
    GP_RK_METRICS,
    GP_RK_MISSING
};

/* The launch fields as the reader walks them. */
typedef struct {
    const char *key;
    int kind, flags;
    size_t off; /* in gp_launch */
    long lo, hi;
    double dflt;
    long dim[3]; /* DIM3: largest x, y, z */
} gp_record_lfield;

/* offsetof for the kinds with one member of their own */
#define GP_RF_OFF(m) offsetof(gp_launch, m)
#define GP_RF_OFF_U64(m) GP_RF_OFF(m)
#define GP_RF_OFF_LONG(m) GP_RF_OFF(m)
#define GP_RF_OFF_INT(m) GP_RF_OFF(m)
#define GP_RF_OFF_STR(m) GP_RF_OFF(m)
#define GP_RF_OFF_DIM3(m) GP_RF_OFF(m)
#define GP_RF_OFF_DBL(m) GP_RF_OFF(m)
#define GP_RF_OFF_FLAG(m) GP_RF_OFF(m)
#define GP_RF_OFF_METRICS(m) 0
#define GP_RF_OFF_MISSING(m) 0
/* the bounds: DIM3's hi is (x, y, z) */
#define GP_RF_BOUNDS(l_, h_) .lo = (l_), .hi = (h_)
#define GP_RF_BOUNDS_U64 GP_RF_BOUNDS
#define GP_RF_BOUNDS_LONG GP_RF_BOUNDS
#define GP_RF_BOUNDS_INT GP_RF_BOUNDS
#define GP_RF_BOUNDS_STR GP_RF_BOUNDS
#define GP_RF_BOUNDS_DIM3(l_, h_) .dim = GP_RF_DIM(h_)
#define GP_RF_BOUNDS_DBL GP_RF_BOUNDS
#define GP_RF_BOUNDS_FLAG GP_RF_BOUNDS
#define GP_RF_BOUNDS_METRICS GP_RF_BOUNDS
#define GP_RF_BOUNDS_MISSING GP_RF_BOUNDS

static const gp_record_lfield gp_record_lfields[] = {
/* clang-format off */
#define GP_LAUNCH_FIELD(key, member, kind, flags, lo, hi, dflt_, unit, doc)                        \
    {key, GP_RK_##kind, flags, GP_RF_OFF_##kind(member), GP_RF_BOUNDS_##kind(lo, hi),              \
     .dflt = dflt_},
/* clang-format on */
#include "metrics/records/record_fields.def"
};
#define GP_RECORD_NLFIELDS (sizeof gp_record_lfields / sizeof gp_record_lfields[0])

static char *gp_record_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* The metric names by hash: open addressing, positions + 1, at most half
 * full.  Also finds each "missing" reason's metric, so neither the derived
 * metrics' lookups nor a record of 40,000 metrics costs a scan per name. */
static uint64_t gp_record_hash(const char *s, size_t len)
{
    return gp_strhash(s, len); /* keyed: names cannot be chosen to collide */
}

static long gp_record_find(const gp_launch *l, const char *name, size_t len)
{
    size_t at, mask = l->by_name_cap - 1;
    for (at = gp_record_hash(name, len) & mask; l->by_name[at]; at = (at + 1) & mask) {
        const char *n = l->names[l->by_name[at] - 1];
        if (n[0] == name[0] && strncmp(n, name, len) == 0 && n[len] == 0)
            return (long)(l->by_name[at] - 1);
    }
    return -1;
}

static int gp_record_index(gp_launch *l)
{
    size_t cap = 16, i;
    while (cap < 2 * l->n_metrics)
        cap *= 2;
    if (!(l->by_name = calloc(cap, sizeof *l->by_name)))
        return -1;
    l->by_name_cap = cap;
    for (i = 0; i < l->n_metrics; i++) {
        size_t at = gp_record_hash(l->names[i], strlen(l->names[i])) & (cap - 1);
        while (l->by_name[at])
            at = (at + 1) & (cap - 1);
        l->by_name[at] = i + 1;
    }
    return 0;
}

void gp_record_launch_unindex(gp_launch *l)
{
    free(l->by_name);
    l->by_name = NULL;
    l->by_name_cap = 0;
}

typedef struct {
    gp_launch *l;
    int oom;
} gp_record_guarded;

static void gp_record_guard_why(void *ctx, size_t i, const char *reason)
{
    gp_record_guarded *g = ctx;
    char *why = gp_record_strdup(reason);
    if (!why) {
        g->oom = 1;
        return;
    }
    free(g->l->missing[i]);
    g->l->missing[i] = why;
}

/* The metric object and the reasons of its null values. */
static int gp_record_metrics(const gp_json *obj, gp_launch *l, const char *what, char *err,
                             size_t errlen)
{
    const gp_json *m = gp_json_get(obj, "metrics"), *miss = gp_json_get(obj, "missing");
    size_t i;
    if (m && m->type != GP_JSON_OBJECT) {
        snprintf(err, errlen, "%s: \"metrics\" is not an object", what);
        return -1;
    }
    if (!m || !m->n)
        return 0;
    l->names = calloc(m->n, sizeof *l->names);
    l->values = calloc(m->n, sizeof *l->values);
    l->missing = calloc(m->n, sizeof *l->missing);
    if (!l->names || !l->values || !l->missing)
        goto oom;
    for (i = 0; i < m->n; i++) {
        char bad[96];
        double x = gp_json_number(&m->items[i]);
        l->names[i] = gp_record_strdup(m->keys[i]);
        l->n_metrics = i + 1;
        if (!l->names[i])
            goto oom;
        /* counters and durations are never negative: such a value is
         * corrupt, and shown as n/a with that reason, never used */
        bad[0] = 0;
        if (isinf(x) || x < 0)
            snprintf(bad, sizeof bad, "invalid value %g in the record (negative or infinite)", x);
        l->values[i] = bad[0] ? NAN : x;
        if (bad[0] && !(l->missing[i] = gp_record_strdup(bad)))
            goto oom;
    }
    if (gp_record_index(l) < 0)
        goto oom;
    /* the profiler's reasons, for the values that are null */
    for (i = 0; miss && miss->type == GP_JSON_OBJECT && i < miss->n; i++) {
        long at = gp_record_find(l, miss->keys[i], strlen(miss->keys[i]));
        const char *reason = gp_json_string(&miss->items[i]);
        if (at >= 0 && reason && isnan(l->values[at]) && !l->missing[at] &&
            !(l->missing[at] = gp_record_strdup(reason)))
            goto oom;
    }
    for (i = 0; i < l->n_metrics; i++)
        if (isnan(l->values[i]) && !l->missing[i] &&
            !(l->missing[i] = gp_record_strdup("null in the profile")))
            goto oom;
    /* a record written before the library withheld an efficiency of
     * nothing still has CUPTI's 0 there */
    {
        gp_record_guarded g = {l, 0};
        gp_guard_apply((const char *const *)l->names, l->values, l->n_metrics, gp_record_guard_why,
                       &g);
        if (g.oom)
            goto oom;
    }
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

/* One launch field into l: 0, or -1 with the reason in err. */
static int gp_record_lfield_read(const gp_json *obj, const gp_record_lfield *f, gp_launch *l,
                                 const char *what, char *err, size_t errlen)
{
    char *at = (char *)l + f->off;
    const gp_json *v = gp_json_get(obj, f->key);
    double x = gp_json_number(v);
    long n;
    switch (f->kind) {
    case GP_RK_U64:
    case GP_RK_LONG:
    case GP_RK_INT:
        if (f->flags & GP_RF_STRICT) {
            if (gp_record_int(obj, f->key, f->lo, f->hi, (long)f->dflt, &n, what, err, errlen) < 0)
                return -1;
        } else {
            n = gp_num_clamp(x, f->lo, f->hi, (long)f->dflt);
        }
        if (f->kind == GP_RK_INT)
            *(int *)at = (int)n;
        else
            *(long *)at = n;
        return 0;
    case GP_RK_STR:
        if (gp_json_string(v)) {
            *(char **)at = gp_record_strdup(gp_json_string(v));
            if (!*(char **)at) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
        }
        return 0;
    case GP_RK_DIM3:
        return gp_record_dim3(obj, f->key, f->dim, (long *)at, what, err, errlen);
    case GP_RK_DBL:
        *(double *)at = isnan(x) ? f->dflt : x;
        return 0;
    case GP_RK_FLAG: {
        const char *s = gp_json_string(v);
        *(int *)at = s ? strcmp(s, "flushed") == 0 || strcmp(s, "l2-flushed") == 0 : (int)f->dflt;
        return 0;
    }
    case GP_RK_METRICS:
        return gp_record_metrics(obj, l, what, err, errlen);
    default: /* MISSING: read with METRICS */
        return 0;
    }
}

int gp_record_launch(const gp_json *obj, gp_launch *l, char *err, size_t errlen)
{
    char what[128];
    size_t i;
    memset(l, 0, sizeof *l);
    snprintf(what, sizeof what, "launch record");
    /* the name first: the messages about the other fields name the launch */
    for (i = 0; i < GP_RECORD_NLFIELDS; i++) {
        const char *s;
        if (!(gp_record_lfields[i].flags & GP_RF_NAME))
            continue;
        s = gp_json_string(gp_json_get(obj, gp_record_lfields[i].key));
        if (!s) {
            snprintf(err, errlen, "launch record without a \"%s\" string",
                     gp_record_lfields[i].key);
            return -1;
        }
        snprintf(what, sizeof what, "launch of %.80s", s);
    }
    for (i = 0; i < GP_RECORD_NLFIELDS; i++)
        if (gp_record_lfield_read(obj, &gp_record_lfields[i], l, what, err, errlen) < 0) {
            gp_record_launch_free(l);
            return -1;
        }
    /* a launch that allocates no shared memory accessed none: CUPTI's 0
     * efficiency of a record without the wavefront count is no measurement */
    if (gp_json_get(obj, "static_smem") && gp_json_get(obj, "dynamic_smem") &&
        l->static_smem == 0 && l->dynamic_smem == 0) {
        gp_record_guarded g = {l, 0};
        gp_guard_unallocated_shared((const char *const *)l->names, l->values, l->n_metrics,
                                    gp_record_guard_why, &g);
        if (g.oom) {
            gp_record_launch_free(l);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

void gp_record_launch_free(gp_launch *l)
{
    size_t i;
    for (i = 0; i < l->n_metrics; i++) {
        free(l->names[i]);
        free(l->missing[i]);
    }
    free(l->names);
    free(l->values);
    free(l->missing);
    free(l->by_name);
    for (i = 0; i < GP_RECORD_NLFIELDS; i++)
        if (gp_record_lfields[i].kind == GP_RK_STR)
            free(*(char **)((char *)l + gp_record_lfields[i].off));
    memset(l, 0, sizeof *l);
}

/* One device field into d, which holds the default: 0, or -1 with the
 * reason in err. */
#define GP_RECORD_DEV_INT(key, m, lo, hi)                                                          \
    do {                                                                                           \
        long x_;                                                                                   \
        if (gp_record_int(obj, key, lo, hi, d->m, &x_, what, err, errlen) < 0)                     \
            return -1;                                                                             \
        d->m = (int)x_;                                                                            \
    } while (0)

static int gp_record_dev_dbl(const gp_json *obj, const char *key, double *out, const char *what,
                             char *err, size_t errlen)
{
    double v = gp_json_number(gp_json_get(obj, key));
    if (isnan(v))
        return 0;
    if (isinf(v) || v <= 0) {
        snprintf(err, errlen, "%s: \"%s\" is %g, not a positive number", what, key, v);
        return -1;
    }
    *out = v;
    return 0;
}

static void gp_record_dev_text(const gp_json *obj, const char *key, char *out, size_t size)
{
    const char *s = gp_json_string(gp_json_get(obj, key));
    if (s)
        snprintf(out, size, "%s", s);
}

static int gp_record_dev_pair(const gp_json *obj, const char *key, long lo, long hi, int *major,
                              int *minor, const char *what, char *err, size_t errlen)
{
    const gp_json *p = gp_json_get(obj, key);
    long a, b;
    if (!p || p->type != GP_JSON_ARRAY || p->n != 2)
        return 0;
    if (gp_num_in_range(gp_json_number(&p->items[0]), lo, hi, &a) < 0 ||
        gp_num_in_range(gp_json_number(&p->items[1]), lo, hi, &b) < 0) {
        snprintf(err, errlen, "%s: \"%s\" is not [major, minor] within %ld..%ld", what, key, lo,
                 hi);
        return -1;
    }
    *major = (int)a;
    *minor = (int)b;
    return 0;
}

#define GP_RECORD_DEV_INT_F(key, m, lo, hi) GP_RECORD_DEV_INT(key, m, lo, hi)
#define GP_RECORD_DEV_DBL_F(key, m, lo, hi)                                                        \
    if (gp_record_dev_dbl(obj, key, &d->m, what, err, errlen) < 0)                                 \
        return -1;
#define GP_RECORD_DEV_TEXT_F(key, m, lo, hi) gp_record_dev_text(obj, key, d->m, sizeof d->m);
#define GP_RECORD_DEV_PAIR_F(key, m, lo, hi)                                                       \
    if (gp_record_dev_pair(obj, key, lo, hi, &d->m##_major, &d->m##_minor, what, err, errlen) < 0) \
        return -1;

int gp_record_device(const gp_json *obj, gp_device *d, char *err, size_t errlen)
{
    char what[64];
    long x;
    gp_device_h100(d);
    d->from_record = 1;
    /* the ordinal first: the messages about the other fields name it */
    if (gp_record_int(obj, "device", 0, 65535, 0, &x, "device record", err, errlen) < 0)
        return -1;
    d->ordinal = (int)x;
    snprintf(what, sizeof what, "device record %d", d->ordinal);
#define GP_DEVICE_FIELD(key, member, kind, lo, hi, fill, doc)                                      \
    GP_RECORD_DEV_##kind##_F(key, member, lo, hi);
#include "metrics/records/record_fields.def"
    return 0;
}

int gp_record_counter(const gp_launch *l, const char *name, size_t len, double *v, char *why,
                      size_t whylen)
{
    long i = -1;
    size_t k;
    if (l->by_name)
        i = gp_record_find(l, name, len);
    else /* a launch filled by other means */
        for (k = 0; k < l->n_metrics && i < 0; k++)
            if (strncmp(l->names[k], name, len) == 0 && l->names[k][len] == 0)
                i = (long)k;
    if (i < 0)
        return -1;
    *v = l->values[i];
    if (isnan(*v))
        snprintf(why, whylen, "%s: %s", l->names[i], l->missing[i] ? l->missing[i] : "null");
    return 0;
}

/* The products below cannot overflow for a record that passed the checks
 * above; saturating keeps it so for a struct filled by other means. */
long gp_record_threads_per_block(const gp_launch *l)
{
    return gp_num_mul_sat(gp_num_mul_sat(l->block[0], l->block[1]), l->block[2]);
}

long gp_record_blocks(const gp_launch *l)
{
    return gp_num_mul_sat(gp_num_mul_sat(l->grid[0], l->grid[1]), l->grid[2]);
}

long gp_record_cluster_size(const gp_launch *l)
{
    return gp_num_mul_sat(gp_num_mul_sat(l->cluster[0], l->cluster[1]), l->cluster[2]);
}
