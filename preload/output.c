/* output.c - see output.h.  The fields, their order and the CSV columns are
 * those of metrics/record_fields.def. */
#include "preload/output.h"

#include "util/textio.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

static void json_number(FILE *f, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", f);
    else if (v == floor(v) && fabs(v) < 9e15)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.9g", v);
}

/* ---- device record ----------------------------------------------------- */

#define W_DEV_INT(key, m) fprintf(f, ",\"%s\":%d", key, c.m)
#define W_DEV_DBL(key, m)                                                                          \
    do {                                                                                           \
        fprintf(f, ",\"%s\":", key);                                                               \
        json_number(f, c.m);                                                                       \
    } while (0)
#define W_DEV_TEXT(key, m)                                                                         \
    do {                                                                                           \
        fprintf(f, ",\"%s\":", key);                                                               \
        gp_text_json_string(f, c.m);                                                               \
    } while (0)
#define W_DEV_PAIR(key, m) fprintf(f, ",\"%s\":[%d,%d]", key, c.m##_major, c.m##_minor)
/* the facts the profiler leaves 0 that are constants or follow from others */
#define FILL_DEV_INT(m, fill)                                                                      \
    if (!c.m)                                                                                      \
        c.m = (fill);
#define FILL_DEV_DBL FILL_DEV_INT
#define FILL_DEV_TEXT(m, fill)
#define FILL_DEV_PAIR(m, fill)

void gp_json_write_device(FILE *f, const gp_device_facts *dev)
{
    gp_device_facts c = *dev;
    const gp_device_facts *d = dev;
#define GP_DEVICE_FIELD(key, member, kind, lo, hi, fill, doc) FILL_DEV_##kind(member, fill)
#include "metrics/records/record_fields.def"
    (void)d;
    fputs("{\"type\":\"device\",\"schema\":1", f);
#define GP_DEVICE_FIELD(key, member, kind, lo, hi, fill, doc) W_DEV_##kind(key, member);
#include "metrics/records/record_fields.def"
    fputs("}\n", f);
}

/* ---- launch record and CSV row ----------------------------------------- */

enum { K_U64, K_LONG, K_INT, K_STR, K_DIM3, K_DBL, K_FLAG, K_METRICS, K_MISSING };

static const struct {
    const char *key, *unit;
    int kind, flags;
    size_t off; /* in gp_launch_record */
} fields[] = {
#define OFF(m) offsetof(gp_launch_record, m)
#define OFF_U64 OFF
#define OFF_LONG OFF
#define OFF_INT OFF
#define OFF_STR OFF
#define OFF_DIM3 OFF
#define OFF_DBL OFF
#define OFF_FLAG OFF
#define OFF_METRICS(m) 0
#define OFF_MISSING(m) 0
#define GP_LAUNCH_FIELD(key, member, kind, flags, lo, hi, dflt, unit, doc)                         \
    {key, unit, K_##kind, flags, OFF_##kind(member)},
#include "metrics/records/record_fields.def"
};
#define N_FIELDS (sizeof fields / sizeof fields[0])

#define AT(r, i, type) (*(const type *)((const char *)(r) + fields[i].off))

static void json_metrics(FILE *f, const gp_launch_record *r)
{
    fputc('{', f);
    for (size_t i = 0; i < r->n_metrics; i++) {
        if (i)
            fputc(',', f);
        gp_text_json_string(f, r->metric_names[i]);
        fputc(':', f);
        json_number(f, r->values[i]);
    }
    fputc('}', f);
}

static void json_missing(FILE *f, const gp_launch_record *r)
{
    int first = 1;
    fputc('{', f);
    for (size_t i = 0; i < r->n_metrics; i++) {
        if (!isnan(r->values[i]))
            continue;
        if (!first)
            fputc(',', f);
        first = 0;
        gp_text_json_string(f, r->metric_names[i]);
        fputc(':', f);
        gp_text_json_string(f, r->missing && r->missing[i] ? r->missing[i] : "not measured");
    }
    fputc('}', f);
}

static void csv_number(FILE *f, double v)
{
    fprintf(f, "%.3f", v);
}

/* What JSON and CSV write differently for the kinds of one value. */
typedef struct {
    void (*text)(FILE *f, const char *s);
    void (*number)(FILE *f, double v);
    const char *open, *close; /* around the three components of a dim3 */
    const char *flag[3];      /* for a flag of 0, 1 and 2 (caches: L2 only) */
} value_format;

static const value_format json_format = {
    gp_text_json_string, json_number, "[", "]", {"\"not-flushed\"", "\"flushed\"", "\"l2-flushed\""}};
static const value_format csv_format = {
    gp_text_csv_field, csv_number, "", "", {"not-flushed", "flushed", "l2-flushed"}};

/* Field i's value, for every kind but the metric maps (JSON's alone). */
static void write_value(FILE *f, const gp_launch_record *r, size_t i, const value_format *fmt)
{
    switch (fields[i].kind) {
    case K_U64:
        fprintf(f, "%llu", (unsigned long long)AT(r, i, uint64_t));
        break;
    case K_LONG:
        fprintf(f, "%ld", AT(r, i, long));
        break;
    case K_INT:
        fprintf(f, "%d", AT(r, i, int));
        break;
    case K_STR:
        fmt->text(f, AT(r, i, const char *));
        break;
    case K_DIM3: {
        const unsigned *v = &AT(r, i, unsigned);
        fprintf(f, "%s%u,%u,%u%s", fmt->open, v[0], v[1], v[2], fmt->close);
        break;
    }
    case K_DBL:
        fmt->number(f, AT(r, i, double));
        break;
    case K_FLAG:
        fputs(fmt->flag[AT(r, i, int) == 2 ? 2 : AT(r, i, int) != 0], f);
        break;
    default:
        break; /* the metric maps: JSON's own; CSV's metric columns follow the fixed ones */
    }
}

void gp_json_write_launch(FILE *f, const gp_launch_record *r)
{
    fputs("{\"type\":\"launch\",\"schema\":1", f);
    for (size_t i = 0; i < N_FIELDS; i++) {
        int opt = fields[i].flags & GP_RF_OPT;
        if (opt && ((fields[i].kind == K_STR && !AT(r, i, const char *)) ||
                    (fields[i].kind == K_LONG && AT(r, i, long) < 0) ||
                    (fields[i].kind == K_DBL && !(AT(r, i, double) >= 0))))
            continue;
        fprintf(f, ",\"%s\":", fields[i].key);
        if (fields[i].kind == K_METRICS)
            json_metrics(f, r);
        else if (fields[i].kind == K_MISSING)
            json_missing(f, r);
        else
            write_value(f, r, i, &json_format);
    }
    fputs("}\n", f);
}

void gp_csv_write_header(FILE *f, const gp_launch_record *r)
{
    const char *sep = "";
    for (size_t i = 0; i < N_FIELDS; i++) {
        if (!(fields[i].flags & GP_RF_CSV))
            continue;
        if (fields[i].kind == K_DIM3)
            fprintf(f, "%s%s_x,%s_y,%s_z", sep, fields[i].key, fields[i].key, fields[i].key);
        else if (fields[i].unit[0])
            fprintf(f, "%s%s [%s]", sep, fields[i].key, fields[i].unit);
        else
            fprintf(f, "%s%s", sep, fields[i].key);
        sep = ",";
    }
    for (size_t i = 0; i < r->n_metrics; i++) {
        char col[512];
        snprintf(col, sizeof(col), "%s [%s]", r->metric_names[i],
                 r->metric_units && r->metric_units[i] ? r->metric_units[i] : "");
        fputc(',', f);
        gp_text_csv_field(f, col);
    }
    fputc('\n', f);
}

void gp_csv_write_launch(FILE *f, const gp_launch_record *r)
{
    const char *sep = "";
    for (size_t i = 0; i < N_FIELDS; i++) {
        if (!(fields[i].flags & GP_RF_CSV))
            continue;
        fputs(sep, f);
        sep = ",";
        write_value(f, r, i, &csv_format);
    }
    for (size_t i = 0; i < r->n_metrics; i++) {
        fputc(',', f);
        if (!isnan(r->values[i]))
            fprintf(f, "%.9g", r->values[i]);
    }
    fputc('\n', f);
}
