/* peaks.c - reading measured ceilings; see peaks.h. */
#include "metrics/catalog/peaks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/records/textfile.h"
#include "util/textio.h"

void gp_peaks_none(gp_peaks *p)
{
    int i;
    memset(p, 0, sizeof *p);
    p->fp32_flops_per_s = p->fp64_flops_per_s = p->fp16_flops_per_s = NAN;
    p->tensor_flops_per_s = p->shared_bytes_per_s = NAN;
    p->dram_bytes_per_s = p->l2_bytes_per_s = p->l1_bytes_per_s = NAN;
    for (i = 0; i < GP_PEAK_COUNT; i++)
        p->clock_mhz[i] = NAN;
}

static const struct {
    const char *key;
    size_t off;
} gp_peaks_map[GP_PEAK_COUNT] = {
#define X(k) {#k, offsetof(gp_peaks, k)},
    GP_PEAKS_KEYS
#undef X
};

int gp_peaks_key(const char *key)
{
    int i;
    for (i = 0; key && i < GP_PEAK_COUNT; i++)
        if (strcmp(gp_peaks_map[i].key, key) == 0)
            return i;
    return -1;
}

const char *gp_peaks_key_name(int i)
{
    return i >= 0 && i < GP_PEAK_COUNT ? gp_peaks_map[i].key : "?";
}

double gp_peaks_get(const gp_peaks *p, int i)
{
    if (i < 0 || i >= GP_PEAK_COUNT)
        return NAN;
    return *(const double *)((const char *)p + gp_peaks_map[i].off);
}

void gp_peaks_set(gp_peaks *p, const gp_peaks *given)
{
    if (given)
        *p = *given;
    else
        gp_peaks_none(p);
}

static double *gp_peaks_slot(gp_peaks *p, const char *key)
{
    int i = gp_peaks_key(key);
    return i < 0 ? NULL : (double *)((char *)p + gp_peaks_map[i].off);
}

/* Number from a plain number or from {"value": x} (a measured figure with
 * its statistics). */
static double gp_peaks_value(const gp_json *v)
{
    if (v && v->type == GP_JSON_OBJECT) {
        double x = gp_json_number(gp_json_get(v, "value"));
        if (isnan(x))
            x = gp_json_number(gp_json_get(v, "median"));
        return x;
    }
    return gp_json_number(v);
}

/* 1 when key is a peak and x its value, 0 when not a peak (or no number),
 * -1 with the reason in err for a peak that is zero, negative or infinite. */
static int gp_peaks_take(gp_peaks *p, const char *key, double x, char *err, size_t errlen)
{
    double *slot = gp_peaks_slot(p, key);
    if (!slot || isnan(x))
        return 0;
    if (x <= 0 || isinf(x)) {
        snprintf(err, errlen, "the peak %s is %g: a peak must be a positive number", key, x);
        return -1;
    }
    *slot = x;
    return 1;
}

int gp_peaks_from_json(const gp_json *doc, gp_peaks *p, char *err, size_t errlen)
{
    const gp_json *obj = doc, *res;
    const char *dev;
    size_t i;
    int found = 0, r;
    if (!doc || doc->type != GP_JSON_OBJECT) {
        snprintf(err, errlen, "the peaks file is not a JSON object");
        return -1;
    }
    /* a schema this reader does not know may mean other keys or units:
     * refused rather than half read */
    if ((res = gp_json_get(doc, "schema"))) {
        const char *schema = gp_json_string(res);
        char shown[96];
        if (!schema || strcmp(schema, GP_PEAKS_SCHEMA) != 0) {
            snprintf(err, errlen,
                     "the peaks file's schema is %s%s%s, not " GP_PEAKS_SCHEMA
                     " (the only one this version reads; a file without \"schema\" is read as "
                     "flat keys)",
                     schema ? "\"" : "",
                     schema ? gp_text_plain_buf(shown, sizeof shown, schema) : "not a string",
                     schema ? "\"" : "");
            return -1;
        }
    }
    if (gp_json_get(doc, "peaks"))
        obj = gp_json_get(doc, "peaks");
    if ((dev = gp_json_string(gp_json_get(doc, "device"))))
        snprintf(p->device, sizeof p->device, "%s", dev);
    if (obj->type == GP_JSON_OBJECT) {
        for (i = 0; i < obj->n; i++) {
            if ((r = gp_peaks_take(p, obj->keys[i], gp_peaks_value(&obj->items[i]), err, errlen)) < 0)
                goto bad;
            found += r;
        }
    }
    /* gpupeak/1 (docs/gpupeak.md): throughput.<name>.value, bandwidth.<name>.value, for
     * the lines of gpupeak's list that name a peak key (a later line wins) */
    {
        static const struct {
            const char *group, *name, *key;
            double factor;
        } g1[] = {
#define ROOF(key, factor) key, factor
#define NOROOF NULL, 1
#define GPK_TPUT(id, name, unit, per_count, theo, quick, sass, skip, peak, run)                   \
    {"throughput", name, peak},
#define GPK_MEM(id, name, quick, theo, what, peak, run) {"bandwidth", name, peak},
#include "metrics/catalog/gpupeak.def"
#undef ROOF
#undef NOROOF
        };
        const gp_json *devobj = gp_json_get(doc, "device");
        if ((dev = gp_json_string(gp_json_get(devobj, "name"))))
            snprintf(p->device, sizeof p->device, "%s", dev);
        for (i = 0; i < sizeof g1 / sizeof g1[0]; i++) {
            if (!g1[i].key)
                continue;
            const gp_json *v = gp_json_get(gp_json_get(doc, g1[i].group), g1[i].name);
            double x = gp_peaks_value(v) * g1[i].factor;
            if (v && (r = gp_peaks_take(p, g1[i].key, x, err, errlen)) < 0)
                goto bad;
            if (v && r > 0)
                p->clock_mhz[gp_peaks_key(g1[i].key)] =
                    gp_json_number(gp_json_get(v, "clock_mhz")) > 0
                        ? gp_json_number(gp_json_get(v, "clock_mhz"))
                        : NAN;
            found += v ? r : 0;
        }
    }
    res = gp_json_get(doc, "results");
    if (res && res->type == GP_JSON_ARRAY) {
        for (i = 0; i < res->n; i++) {
            const char *name = gp_json_string(gp_json_get(&res->items[i], "name"));
            if (name && (r = gp_peaks_take(p, name, gp_peaks_value(&res->items[i]), err, errlen)) < 0)
                goto bad;
            found += name ? r : 0;
        }
    }
    if (!found) {
        snprintf(err, errlen,
                 "the peaks file has none of fp32_flops_per_s, fp64_flops_per_s, "
                 "fp16_flops_per_s, tensor_flops_per_s, dram_bytes_per_s, l2_bytes_per_s, "
                 "l1_bytes_per_s, shared_bytes_per_s");
        return -1;
    }
    return 0;
bad:
    return -1;
}

int gp_peaks_load(const char *path, gp_peaks *p, char *err, size_t errlen)
{
    char perr[160], shown[320];
    size_t len;
    char *text;
    gp_json *doc;
    int rc = -1;
    gp_peaks_none(p);
    gp_text_plain_buf(shown, sizeof shown, path);
    text = gp_textfile_read_max(path, "peaks file ", GP_PEAKS_MAX_SIZE, &len, err, errlen);
    if (!text)
        return -1;
    doc = gp_json_parse(text, len, perr, sizeof perr);
    if (!doc) {
        snprintf(err, errlen, "peaks file %s is not valid JSON (%s)", shown, perr);
        goto out;
    }
    if (gp_peaks_from_json(doc, p, perr, sizeof perr) < 0) {
        snprintf(err, errlen, "%s: %s", shown, perr);
        goto out;
    }
    snprintf(p->source, sizeof p->source, "%s", path);
    rc = 0;
out:
    gp_json_free(doc);
    free(text);
    return rc;
}
