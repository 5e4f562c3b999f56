/* record.c - JSON launch/device records to the report's structs; see record.h. */
#include "record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *gp_record_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* [x, y, z] with missing elements as 1; -1 when the value is not an array of
 * positive numbers. */
static int gp_record_dim3(const gp_json *v, long out[3])
{
    size_t i;
    out[0] = out[1] = out[2] = 1;
    if (!v)
        return 0;
    if (v->type != GP_JSON_ARRAY || v->n > 3)
        return -1;
    for (i = 0; i < v->n; i++) {
        double x = gp_json_number(&v->items[i]);
        if (isnan(x) || x < 0 || x > 2147483647.0)
            return -1;
        out[i] = x < 1 ? 1 : (long)x;
    }
    return 0;
}

static long gp_record_long(const gp_json *obj, const char *key, long dflt)
{
    double x = gp_json_number(gp_json_get(obj, key));
    return isnan(x) ? dflt : (long)x;
}

int gp_record_launch(const gp_json *obj, gp_launch *l, char *err, size_t errlen)
{
    const gp_json *m = gp_json_get(obj, "metrics"), *miss = gp_json_get(obj, "missing");
    const char *kernel = gp_json_string(gp_json_get(obj, "kernel"));
    size_t i;
    memset(l, 0, sizeof *l);
    if (!kernel) {
        snprintf(err, errlen, "launch record without a \"kernel\" string");
        return -1;
    }
    if (gp_record_dim3(gp_json_get(obj, "grid"), l->grid) < 0 ||
        gp_record_dim3(gp_json_get(obj, "block"), l->block) < 0 ||
        gp_record_dim3(gp_json_get(obj, "cluster"), l->cluster) < 0) {
        snprintf(err, errlen, "launch of %.80s: grid, block or cluster is not [x, y, z]", kernel);
        return -1;
    }
    if (m && m->type != GP_JSON_OBJECT) {
        snprintf(err, errlen, "launch of %.80s: \"metrics\" is not an object", kernel);
        return -1;
    }
    l->launch_id = gp_record_long(obj, "launch_id", 0);
    l->device = (int)gp_record_long(obj, "device", 0);
    l->regs_per_thread = (int)gp_record_long(obj, "regs_per_thread", 0);
    l->static_smem = gp_record_long(obj, "static_smem", 0);
    l->dynamic_smem = gp_record_long(obj, "dynamic_smem", 0);
    l->local_bytes_per_thread = gp_record_long(obj, "local_bytes_per_thread", 0);
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
            l->names[i] = gp_record_strdup(m->keys[i]);
            l->values[i] = gp_json_number(&m->items[i]);
            l->n_metrics = i + 1;
            if (!l->names[i])
                goto oom;
            if (isnan(l->values[i])) {
                l->missing[i] = gp_record_strdup(reason ? reason : "null in the profile");
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

int gp_record_device(const gp_json *obj, gp_device *d, char *err, size_t errlen)
{
    const char *s;
    const gp_json *cc = gp_json_get(obj, "cc");
    gp_device_h100(d);
    d->from_record = 1;
    d->ordinal = (int)gp_record_long(obj, "device", 0);
    if ((s = gp_json_string(gp_json_get(obj, "name"))))
        snprintf(d->name, sizeof d->name, "%s", s);
    if ((s = gp_json_string(gp_json_get(obj, "chip"))))
        snprintf(d->chip, sizeof d->chip, "%s", s);
    if (cc && cc->type == GP_JSON_ARRAY && cc->n == 2) {
        d->cc_major = (int)gp_json_number(&cc->items[0]);
        d->cc_minor = (int)gp_json_number(&cc->items[1]);
    }
#define GP_RECORD_INT(field) d->field = (int)gp_record_long(obj, #field, d->field)
#define GP_RECORD_LONG(field) d->field = gp_record_long(obj, #field, d->field)
    GP_RECORD_INT(sm_count);
    GP_RECORD_INT(max_threads_per_sm);
    GP_RECORD_INT(max_blocks_per_sm);
    GP_RECORD_INT(max_warps_per_sm);
    GP_RECORD_INT(warp_size);
    GP_RECORD_INT(max_threads_per_block);
    GP_RECORD_INT(regs_per_sm);
    GP_RECORD_INT(max_regs_per_block);
    GP_RECORD_INT(max_regs_per_thread);
    GP_RECORD_INT(reg_alloc_unit);
    GP_RECORD_INT(warp_alloc_granularity);
    GP_RECORD_LONG(smem_per_sm);
    GP_RECORD_LONG(smem_per_block);
    GP_RECORD_LONG(smem_per_block_optin);
    GP_RECORD_LONG(smem_reserved_per_block);
#undef GP_RECORD_INT
#undef GP_RECORD_LONG
    {
        double x = gp_json_number(gp_json_get(obj, "l2_bytes"));
        if (!isnan(x))
            d->l2_bytes = x;
        x = gp_json_number(gp_json_get(obj, "dram_bytes_per_s_theoretical"));
        if (!isnan(x))
            d->dram_bytes_per_s_theoretical = x;
        x = gp_json_number(gp_json_get(obj, "sm_clock_khz"));
        if (!isnan(x))
            d->sm_clock_hz = x * 1e3;
    }
    if (d->sm_count <= 0 || d->warp_size <= 0 || d->max_warps_per_sm <= 0 ||
        d->reg_alloc_unit <= 0 || d->warp_alloc_granularity <= 0) {
        snprintf(err, errlen, "device record %d has a zero or negative limit", d->ordinal);
        return -1;
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

long gp_record_threads_per_block(const gp_launch *l)
{
    return l->block[0] * l->block[1] * l->block[2];
}

long gp_record_blocks(const gp_launch *l)
{
    return l->grid[0] * l->grid[1] * l->grid[2];
}
