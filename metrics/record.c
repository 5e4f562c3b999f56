/* record.c - JSON launch/device records to the report's structs; see record.h. */
#include "record.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/num.h"

static char *gp_record_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* The validity checks of every record: what CUDA allows for a launch's
 * shape, and for sizes and device facts bounds far beyond any GPU but low
 * enough that the report's sums and products of them cannot overflow.  A
 * value outside its bounds makes the record malformed, with a reason that
 * names the field and the value. */
#define GP_RECORD_BIG (1L << 40) /* bytes: 1 TiB */

static const long gp_record_dim_max[3][3] = {
    {2147483647L, 65535, 65535}, /* grid */
    {1024, 1024, 64},            /* block */
    {1024, 1024, 1024},          /* cluster (products stay below 2^31) */
};

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

int gp_record_launch(const gp_json *obj, gp_launch *l, char *err, size_t errlen)
{
    const gp_json *m = gp_json_get(obj, "metrics"), *miss = gp_json_get(obj, "missing");
    const char *kernel = gp_json_string(gp_json_get(obj, "kernel"));
    char what[128];
    long dev, regs;
    size_t i;
    memset(l, 0, sizeof *l);
    if (!kernel) {
        snprintf(err, errlen, "launch record without a \"kernel\" string");
        return -1;
    }
    snprintf(what, sizeof what, "launch of %.80s", kernel);
    if (gp_record_dim3(obj, "grid", gp_record_dim_max[0], l->grid, what, err, errlen) < 0 ||
        gp_record_dim3(obj, "block", gp_record_dim_max[1], l->block, what, err, errlen) < 0 ||
        gp_record_dim3(obj, "cluster", gp_record_dim_max[2], l->cluster, what, err, errlen) < 0)
        return -1;
    if (m && m->type != GP_JSON_OBJECT) {
        snprintf(err, errlen, "%s: \"metrics\" is not an object", what);
        return -1;
    }
    l->launch_id = gp_num_clamp(gp_json_number(gp_json_get(obj, "launch_id")), 0, LONG_MAX, 0);
    if (gp_record_int(obj, "device", 0, 65535, 0, &dev, what, err, errlen) < 0 ||
        gp_record_int(obj, "regs_per_thread", 0, 65535, 0, &regs, what, err, errlen) < 0 ||
        gp_record_int(obj, "static_smem", 0, GP_RECORD_BIG, 0, &l->static_smem, what, err,
                      errlen) < 0 ||
        gp_record_int(obj, "dynamic_smem", 0, GP_RECORD_BIG, 0, &l->dynamic_smem, what, err,
                      errlen) < 0 ||
        gp_record_int(obj, "local_bytes_per_thread", 0, GP_RECORD_BIG, 0,
                      &l->local_bytes_per_thread, what, err, errlen) < 0)
        return -1;
    l->device = (int)dev;
    l->regs_per_thread = (int)regs;
    l->kernel = gp_record_strdup(kernel);
    if (!l->kernel)
        goto oom;
    if (m && m->n) {
        l->names = calloc(m->n, sizeof *l->names);
        l->values = calloc(m->n, sizeof *l->values);
        l->missing = calloc(m->n, sizeof *l->missing);
        if (!l->names || !l->values || !l->missing)
            goto oom;
        for (i = 0; i < m->n; i++) {
            const char *reason = gp_json_string(gp_json_get(miss, m->keys[i]));
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
                snprintf(bad, sizeof bad, "invalid value %g in the record (negative or infinite)",
                         x);
            l->values[i] = bad[0] ? NAN : x;
            if (isnan(l->values[i])) {
                l->missing[i] =
                    gp_record_strdup(bad[0] ? bad : reason ? reason : "null in the profile");
                if (!l->missing[i])
                    goto oom;
            }
        }
    }
    return 0;
oom:
    gp_record_launch_free(l);
    snprintf(err, errlen, "out of memory");
    return -1;
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
    free(l->kernel);
    memset(l, 0, sizeof *l);
}

/* The device facts a record may set, with their bounds (see above). */
static const struct {
    const char *key;
    size_t off;
    int is_long;
    long lo, hi;
} gp_record_device_fields[] = {
#define GP_RECORD_I(f, lo, hi) {#f, offsetof(gp_device, f), 0, lo, hi}
#define GP_RECORD_L(f, lo, hi) {#f, offsetof(gp_device, f), 1, lo, hi}
    GP_RECORD_I(sm_count, 1, 65535),
    GP_RECORD_I(max_threads_per_sm, 1, 1 << 20),
    GP_RECORD_I(max_blocks_per_sm, 1, 1024),
    GP_RECORD_I(max_warps_per_sm, 1, 1 << 16),
    GP_RECORD_I(warp_size, 1, 1024),
    GP_RECORD_I(max_threads_per_block, 1, 1 << 20),
    GP_RECORD_I(regs_per_sm, 1, 1 << 24),
    GP_RECORD_I(max_regs_per_block, 1, 1 << 24),
    GP_RECORD_I(max_regs_per_thread, 1, 65535),
    GP_RECORD_I(reg_alloc_unit, 1, 1 << 16),
    GP_RECORD_I(warp_alloc_granularity, 1, 1024),
    /* older GPUs reserve no shared memory per block: 0 is valid */
    GP_RECORD_L(smem_per_sm, 0, GP_RECORD_BIG),
    GP_RECORD_L(smem_per_block, 0, GP_RECORD_BIG),
    GP_RECORD_L(smem_per_block_optin, 0, GP_RECORD_BIG),
    GP_RECORD_L(smem_reserved_per_block, 0, GP_RECORD_BIG),
#undef GP_RECORD_I
#undef GP_RECORD_L
};

int gp_record_device(const gp_json *obj, gp_device *d, char *err, size_t errlen)
{
    static const char *const doubles[] = {"l2_bytes", "dram_bytes_per_s_theoretical",
                                          "sm_clock_khz"};
    const char *s;
    const gp_json *cc = gp_json_get(obj, "cc");
    char what[64];
    long x;
    size_t i;
    gp_device_h100(d);
    d->from_record = 1;
    if (gp_record_int(obj, "device", 0, 65535, 0, &x, "device record", err, errlen) < 0)
        return -1;
    d->ordinal = (int)x;
    snprintf(what, sizeof what, "device record %d", d->ordinal);
    if ((s = gp_json_string(gp_json_get(obj, "name"))))
        snprintf(d->name, sizeof d->name, "%s", s);
    if ((s = gp_json_string(gp_json_get(obj, "chip"))))
        snprintf(d->chip, sizeof d->chip, "%s", s);
    if (cc && cc->type == GP_JSON_ARRAY && cc->n == 2) {
        long major, minor;
        if (gp_num_in_range(gp_json_number(&cc->items[0]), 0, 1000, &major) < 0 ||
            gp_num_in_range(gp_json_number(&cc->items[1]), 0, 1000, &minor) < 0) {
            snprintf(err, errlen, "%s: \"cc\" is not [major, minor] within 0..1000", what);
            return -1;
        }
        d->cc_major = (int)major;
        d->cc_minor = (int)minor;
    }
    for (i = 0; i < sizeof gp_record_device_fields / sizeof gp_record_device_fields[0]; i++) {
        char *field = (char *)d + gp_record_device_fields[i].off;
        int is_long = gp_record_device_fields[i].is_long;
        long dflt = is_long ? *(long *)field : *(int *)field;
        if (gp_record_int(obj, gp_record_device_fields[i].key, gp_record_device_fields[i].lo,
                          gp_record_device_fields[i].hi, dflt, &x, what, err, errlen) < 0)
            return -1;
        if (is_long)
            *(long *)field = x;
        else
            *(int *)field = (int)x;
    }
    for (i = 0; i < sizeof doubles / sizeof doubles[0]; i++) {
        double v = gp_json_number(gp_json_get(obj, doubles[i]));
        if (isnan(v))
            continue;
        if (isinf(v) || v <= 0) {
            snprintf(err, errlen, "%s: \"%s\" is %g, not a positive number", what, doubles[i], v);
            return -1;
        }
        if (i == 0)
            d->l2_bytes = v;
        else if (i == 1)
            d->dram_bytes_per_s_theoretical = v;
        else
            d->sm_clock_hz = v * 1e3;
    }
    return 0;
}

int gp_record_counter(const gp_launch *l, const char *name, size_t len, double *v, char *why,
                      size_t whylen)
{
    size_t i;
    for (i = 0; i < l->n_metrics; i++) {
        if (strncmp(l->names[i], name, len) == 0 && l->names[i][len] == 0) {
            *v = l->values[i];
            if (isnan(*v))
                snprintf(why, whylen, "%s: %s", l->names[i],
                         l->missing[i] ? l->missing[i] : "null");
            return 0;
        }
    }
    return -1;
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
