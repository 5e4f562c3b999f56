/* test_record_fields.c - the record format round trip: a device record and
 * launch records with every field of record_fields.def set to a value of its
 * own (none of them a default the reader would fall back to; strings that
 * need escapes; null metrics with reasons) are written by the profiler's
 * writers (preload/output.c) and read back by the report's reader
 * (record.c), field by field as the table lists them, so a field that one
 * side drops or misspells fails here.  The CSV row is read back the same
 * way, column by column (its strings escaped as every CSV cell is). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "metrics/records/json.h"
#include "preload/output.h"
#include "metrics/records/record.h"
#include "util/textio.h"

/* ---- values ------------------------------------------------------------ */

static char strs[64][160];
static int n_strs;

/* A string of its own for field n, with what JSON and CSV must escape. */
static const char *text(const char *key, int n)
{
    char *s = strs[n_strs++ % 64];
    snprintf(s, sizeof strs[0], "%s %d: \"q\" back\\slash, tab\tnl\nctl\x01 \xc3\xa9", key, n);
    return s;
}

/* ---- launch ------------------------------------------------------------ */

static const char *mnames[] = {"dram__bytes_read.sum", "odd,\"name\"\\x", "x.pct", "zero.sum"};
static const char *munits[] = {"byte", "%", "ns", "inst"};
static const double mvalues[] = {1048576.0, 2500.5, NAN, 0};
static const char *mmissing[] = {NULL, NULL, "not collected: \"why\"\n", NULL};

#define FILL_U64(m) w->m = 1000 + n
#define FILL_LONG(m) w->m = 1000 + n
#define FILL_INT(m) w->m = 1000 + n
#define FILL_STR(m) w->m = text(#m, n)
#define FILL_DIM3(m) w->m[0] = n + 2, w->m[1] = n + 3, w->m[2] = n + 4
#define FILL_DBL(m) w->m = 1000.25 + n
#define FILL_FLAG(m) w->m = 1
#define FILL_METRICS(m)                                                                            \
    w->n_metrics = 4, w->metric_names = mnames, w->metric_units = munits, w->values = mvalues
#define FILL_MISSING(m) w->missing = mmissing

/* the reader's default is never what was written */
#define DFLT_NUM(m, dflt) GP_CHECK_MSG((double)w->m != (double)(dflt), "%s is its default", #m)
#define DFLT_U64 DFLT_NUM
#define DFLT_LONG DFLT_NUM
#define DFLT_INT DFLT_NUM
#define DFLT_DBL DFLT_NUM
#define DFLT_FLAG DFLT_NUM
#define DFLT_STR(m, dflt) GP_CHECK(w->m != NULL)
#define DFLT_DIM3(m, dflt) GP_CHECK(w->m[0] > 1 && w->m[1] > 1 && w->m[2] > 1)
#define DFLT_METRICS(m, dflt)
#define DFLT_MISSING(m, dflt)

static void fill_launch(gp_launch_record *w)
{
    int n = 0;
    memset(w, 0, sizeof *w);
#define GP_LAUNCH_FIELD(key, member, kind, flags, lo, hi, dflt, unit, doc)                          \
    FILL_##kind(member);                                                                           \
    DFLT_##kind(member, dflt);                                                                     \
    n++;
#include "metrics/records/record_fields.def"
}

static void same_num(const char *key, double w, double r)
{
    GP_CHECK_MSG(w == r || (isnan(w) && isnan(r)), "launch field %s: wrote %.17g, read %.17g",
                 key, w, r);
}

static void same_str(const char *what, const char *w, const char *r)
{
    GP_CHECK_MSG((!w && !r) || (w && r && strcmp(w, r) == 0), "%s: wrote \"%s\", read \"%s\"",
                 what, w ? w : "(none)", r ? r : "(none)");
}

static void same_metrics(const gp_launch_record *w, const gp_launch *l)
{
    size_t i;
    GP_CHECK_MSG(l->n_metrics == w->n_metrics, "wrote %zu metrics, read %zu", w->n_metrics,
                 l->n_metrics);
    for (i = 0; i < w->n_metrics && i < l->n_metrics; i++) {
        same_str("metric name", w->metric_names[i], l->names[i]);
        same_num(w->metric_names[i], w->values[i], l->values[i]);
    }
}

static void same_missing(const gp_launch_record *w, const gp_launch *l)
{
    size_t i;
    for (i = 0; i < w->n_metrics && i < l->n_metrics; i++)
        if (isnan(w->values[i]))
            same_str("reason", w->missing && w->missing[i] ? w->missing[i] : "not measured",
                     l->missing[i]);
}

#define SAME_U64(key, m) same_num(key, (double)w->m, (double)l->m)
#define SAME_LONG SAME_U64
#define SAME_INT SAME_U64
#define SAME_DBL SAME_U64
#define SAME_FLAG SAME_U64
#define SAME_STR(key, m) same_str(key, w->m, l->m)
#define SAME_DIM3(key, m)                                                                          \
    for (int k = 0; k < 3; k++)                                                                    \
    same_num(key, w->m[k], l->m[k])
#define SAME_METRICS(key, m) same_metrics(w, l)
#define SAME_MISSING(key, m) same_missing(w, l)

static void w_launch(FILE *f, const void *r) { gp_json_write_launch(f, r); }
static void w_device(FILE *f, const void *d) { gp_json_write_device(f, d); }
static void w_csv(FILE *f, const void *r)
{
    gp_csv_write_header(f, r);
    gp_csv_write_launch(f, r);
}

static void round_trip_launch(const gp_launch_record *w)
{
    char err[256] = "", perr[128] = "";
    char *line = gp_test_capture(w_launch, w);
    gp_json *obj = gp_json_parse(line, strlen(line), perr, sizeof perr);
    gp_launch rl, *l = &rl;
    GP_CHECK_MSG(obj != NULL, "%s in %s", perr, line);
    GP_CHECK(strchr(line, '\n') == line + strlen(line) - 1); /* one line */
    if (!obj) {
        free(line);
        return;
    }
    GP_CHECK_MSG(gp_record_launch(obj, l, err, sizeof err) == 0, "%s", err);
#define GP_LAUNCH_FIELD(key, member, kind, flags, lo, hi, dflt, unit, doc) SAME_##kind(key, member);
#include "metrics/records/record_fields.def"
    gp_record_launch_free(l);
    gp_json_free(obj);
    free(line);
}

/* ---- CSV --------------------------------------------------------------- */

/* Splits one CSV line (RFC 4180 quotes) into at most max fields, in place;
 * the formula guard's quote after an opening '"' is kept. */
static size_t csv_split(char *s, char **out, size_t max)
{
    size_t n = 0;
    while (n < max) {
        char *d = s;
        out[n++] = s;
        if (*s == '"') {
            s++;
            for (;;) {
                if (*s == '"' && s[1] == '"')
                    *d++ = '"', s += 2;
                else if (*s == '"')
                    break;
                else if (!*s)
                    return n;
                else
                    *d++ = *s++;
            }
            s++;
        } else {
            while (*s && *s != ',' && *s != '\n')
                *d++ = *s++;
        }
        if (*s != ',') {
            *d = 0;
            return n;
        }
        *d = 0;
        s++;
    }
    return n;
}

static const char *csv_col(char **head, char **row, size_t n, const char *name)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(head[i], name) == 0)
            return row[i];
    return NULL;
}

static void csv_same(const char *col, const char *got, const char *want)
{
    GP_CHECK_MSG(got && strcmp(got, want) == 0, "CSV column %s: \"%s\", want \"%s\"", col,
                 got ? got : "(absent)", want);
}

static void csv_field(char **head, char **row, size_t n, const char *key, const char *unit,
                      const char *want)
{
    char col[128];
    snprintf(col, sizeof col, unit[0] ? "%s [%s]" : "%s", key, unit);
    csv_same(col, csv_col(head, row, n, col), want);
}

#define CSV_NUM(key, unit, fmt, v)                                                                 \
    do {                                                                                           \
        snprintf(want, sizeof want, fmt, v);                                                       \
        csv_field(head, row, n, key, unit, want);                                                  \
        fixed++;                                                                                   \
    } while (0)
#define CSV_U64(key, m, unit) CSV_NUM(key, unit, "%llu", (unsigned long long)w->m)
#define CSV_LONG(key, m, unit) CSV_NUM(key, unit, "%ld", w->m)
#define CSV_INT(key, m, unit) CSV_NUM(key, unit, "%d", w->m)
#define CSV_DBL(key, m, unit) CSV_NUM(key, unit, "%.3f", w->m)
#define CSV_FLAG(key, m, unit) CSV_NUM(key, unit, "%s", w->m ? "flushed" : "not-flushed")
/* a string cell as the CSV writer shows it: escaped as plain text, tabs kept */
static const char *csv_shown(const char *s, char *out, size_t len)
{
    size_t o = 0;
    out[0] = 0;
    while (*s && o + 1 < len) {
        size_t seg = strcspn(s, "\t");
        char part[400], piece[1600];
        snprintf(part, sizeof part, "%.*s", (int)seg, s);
        gp_text_plain_buf(piece, sizeof piece, part);
        o += (size_t)snprintf(out + o, len - o, "%s%s", piece, s[seg] == '\t' ? "\t" : "");
        s += seg + (s[seg] == '\t');
    }
    return out;
}
#define CSV_STR(key, m, unit)                                                                      \
    do {                                                                                           \
        char shown_[1600];                                                                         \
        CSV_NUM(key, unit, "%s", csv_shown(w->m, shown_, sizeof shown_));                          \
    } while (0)
#define CSV_DIM3(key, m, unit)                                                                     \
    do {                                                                                           \
        static const char *const axis[] = {"_x", "_y", "_z"};                                      \
        for (int k = 0; k < 3; k++) {                                                              \
            char c_[64];                                                                           \
            snprintf(c_, sizeof c_, "%s%s", key, axis[k]);                                         \
            snprintf(want, sizeof want, "%u", w->m[k]);                                            \
            csv_same(c_, csv_col(head, row, n, c_), want);                                         \
            fixed++;                                                                               \
        }                                                                                          \
    } while (0)
#define CSV_METRICS(key, m, unit)
#define CSV_MISSING(key, m, unit)
#define CSV_IF(flags, x)                                                                           \
    if ((flags)&GP_RF_CSV) {                                                                       \
        x;                                                                                         \
    }

static void round_trip_csv(const gp_launch_record *w)
{
    char *text = gp_test_capture(w_csv, w), *nl = strchr(text, '\n'), want[256];
    char *head[64], *row[64];
    size_t n, nr, fixed = 0;
    if (!nl) {
        GP_CHECK(nl != NULL);
        free(text);
        return;
    }
    *nl = 0;
    n = csv_split(text, head, 64);
    nr = csv_split(nl + 1, row, 64);
    GP_CHECK_MSG(n == nr, "%zu columns in the header, %zu in the row", n, nr);
#define GP_LAUNCH_FIELD(key, member, kind, flags, lo, hi, dflt, unit, doc)                          \
    CSV_IF(flags, CSV_##kind(key, member, unit))
#include "metrics/records/record_fields.def"
    /* then one column per metric, missing ones empty */
    GP_CHECK_MSG(n == fixed + w->n_metrics, "%zu columns, %zu fixed and %zu metrics", n, fixed,
                 w->n_metrics);
    for (size_t i = 0; i < w->n_metrics && fixed + i < n && fixed + i < nr; i++) {
        char col[128];
        snprintf(col, sizeof col, "%s [%s]", w->metric_names[i], w->metric_units[i]);
        csv_same("metric name", head[fixed + i], col);
        if (isnan(w->values[i]))
            snprintf(want, sizeof want, "%s", "");
        else
            snprintf(want, sizeof want, "%.9g", w->values[i]);
        csv_same(col, row[fixed + i], want);
    }
    free(text);
}

/* ---- device ------------------------------------------------------------ */

#define DFILL_INT(m) d->m = 1000 + n
#define DFILL_DBL(m) d->m = 1000.25 + n
#define DFILL_TEXT(m) snprintf(d->m, sizeof d->m, "%s", text(#m, n))
#define DFILL_PAIR(m) d->m##_major = n + 1, d->m##_minor = n + 2
#define DSAME_INT(key, m)                                                                          \
    GP_CHECK_MSG(d->m != h.m && d->m == r.m, "device field %s: wrote %d, read %d (default %d)",    \
                 key, d->m, r.m, h.m)
#define DSAME_DBL(key, m)                                                                          \
    GP_CHECK_MSG(d->m != h.m && d->m == r.m, "device field %s: wrote %g, read %g (default %g)",    \
                 key, d->m, r.m, h.m)
#define DSAME_TEXT(key, m)                                                                         \
    GP_CHECK_MSG(strcmp(d->m, h.m) != 0 && strcmp(d->m, r.m) == 0,                                 \
                 "device field %s: wrote \"%s\", read \"%s\"", key, d->m, r.m)
#define DSAME_PAIR(key, m)                                                                         \
    GP_CHECK_MSG(d->m##_major != h.m##_major && d->m##_major == r.m##_major &&                     \
                     d->m##_minor != h.m##_minor && d->m##_minor == r.m##_minor,                   \
                 "device field %s: wrote [%d, %d], read [%d, %d]", key, d->m##_major,             \
                 d->m##_minor, r.m##_major, r.m##_minor)

static void round_trip_device(void)
{
    gp_device_facts dv, *d = &dv;
    gp_device h, r;
    char err[256] = "", perr[128] = "", *line;
    gp_json *obj;
    int n = 0;
    memset(d, 0, sizeof *d);
#define GP_DEVICE_FIELD(key, member, kind, lo, hi, fill, doc)                                      \
    DFILL_##kind(member);                                                                          \
    n++;
#include "metrics/records/record_fields.def"
    gp_device_h100(&h);
    line = gp_test_capture(w_device, d);
    obj = gp_json_parse(line, strlen(line), perr, sizeof perr);
    GP_CHECK_MSG(obj != NULL, "%s in %s", perr, line);
    if (obj) {
        GP_CHECK_MSG(gp_record_device(obj, &r, err, sizeof err) == 0, "%s", err);
#define GP_DEVICE_FIELD(key, member, kind, lo, hi, fill, doc) DSAME_##kind(key, member);
#include "metrics/records/record_fields.def"
        gp_json_free(obj);
    }
    free(line);
}

/* The facts the profiler does not fill are written from the others or as the
 * architecture's constants, and read back as such. */
static void device_fill(void)
{
    gp_device_facts d;
    gp_device r;
    char err[256] = "", perr[128] = "", *line;
    gp_json *obj;
    memset(&d, 0, sizeof d); /* what the profiler fills from the driver: */
    snprintf(d.name, sizeof d.name, "%s", "NVIDIA H100 PCIe");
    snprintf(d.chip, sizeof d.chip, "%s", "GH100");
    d.cc_major = 9;
    d.sm_count = 114;
    d.max_threads_per_sm = 1536;
    d.max_blocks_per_sm = 24;
    d.warp_size = 32;
    d.regs_per_sm = d.max_regs_per_block = 65536;
    d.smem_per_sm = 233472;
    d.smem_per_block = 49152;
    d.smem_per_block_optin = 232448;
    d.smem_reserved_per_block = 1024;
    d.l2_bytes = 52428800;
    d.mem_clock_khz = 1593000;
    d.mem_bus_width_bits = 5120;
    d.sm_clock_khz = 1755000;
    line = gp_test_capture(w_device, &d);
    GP_CHECK(strstr(line, "\"max_warps_per_sm\":48,") != NULL);
    GP_CHECK(strstr(line, "\"max_regs_per_thread\":255,\"reg_alloc_unit\":256,"
                          "\"warp_alloc_granularity\":4,") != NULL);
    GP_CHECK(strstr(line, "\"dram_bytes_per_s_theoretical\":2039040000000}") != NULL);
    obj = gp_json_parse(line, strlen(line), perr, sizeof perr);
    GP_CHECK(obj != NULL);
    if (obj) {
        GP_CHECK_MSG(gp_record_device(obj, &r, err, sizeof err) == 0, "%s", err);
        GP_CHECK(r.max_warps_per_sm == 48 && r.max_regs_per_thread == 255 &&
                 r.reg_alloc_unit == 256 && r.warp_alloc_granularity == 4);
        GP_CHECK(r.dram_bytes_per_s_theoretical == 2039040000000.0 && r.sm_count == 114);
        gp_json_free(obj);
    }
    free(line);
}

int main(void)
{
    gp_launch_record w;
    fill_launch(&w);
    round_trip_launch(&w);
    round_trip_csv(&w);
    /* what the writer leaves out or writes as null reads back as none */
    w.process = NULL;
    w.rank = -1;
    w.host = NULL;
    w.api = NULL;
    w.replay_ms = NAN;
    w.caches_flushed = 0;
    w.missing = NULL;
    round_trip_launch(&w);
    round_trip_csv(&w);
    round_trip_device();
    device_fill();
    return gp_test_finish("record-fields");
}
