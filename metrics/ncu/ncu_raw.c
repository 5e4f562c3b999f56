/* ncu_raw.c - see ncu_raw.h. */
#include "metrics/ncu/ncu_raw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/records/textfile.h"
#include "util/strindex.h"
#include "util/strutil.h"

/* values kept at most (rows times columns): 512 MB of numbers */
#define GP_NCU_MAX_CELLS ((size_t)1 << 26)

typedef struct {
    char *s; /* unquoted, NUL-terminated in the line's buffer */
    size_t len;
} gp_ncu_field;

/* Splits line (changed in place: quotes removed, "" made ") into at most
 * max fields.  Returns the number of fields, max + 1 when there are more,
 * or -1 with the reason in why (an unterminated quote, text after one). */
static long gp_ncu_split(char *line, size_t len, gp_ncu_field *f, size_t max, char *why,
                         size_t whylen)
{
    size_t n = 0, i = 0;
    if (len && line[len - 1] == '\r') /* a file written with CR LF */
        line[--len] = 0;
    for (;;) {
        char *out = line + i;
        size_t o = 0;
        if (i < len && line[i] == '"') {
            size_t start = i++;
            for (;;) {
                if (i >= len) {
                    snprintf(why, whylen,
                             "the quote opened at column %zu is not closed on this "
                             "line",
                             start + 1);
                    return -1;
                }
                if (line[i] == '"') {
                    if (i + 1 < len && line[i + 1] == '"') {
                        out[o++] = '"';
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                out[o++] = line[i++];
            }
            if (i < len && line[i] != ',') {
                snprintf(why, whylen, "text after the closing quote at column %zu", i);
                return -1;
            }
        } else {
            while (i < len && line[i] != ',') {
                if (line[i] == '"') {
                    snprintf(why, whylen, "a quote inside an unquoted field at column %zu", i + 1);
                    return -1;
                }
                out[o++] = line[i++];
            }
        }
        if (n < max) {
            f[n].s = out;
            f[n].len = o;
        }
        n++;
        if (i >= len) {
            out[o] = 0; /* the line's own NUL, or a byte already read */
            break;
        }
        out[o] = 0; /* on or before the comma */
        i++;        /* the comma */
        if (n > max)
            return (long)max + 1;
    }
    return n > max ? (long)max + 1 : (long)n;
}

int gp_ncu_raw_number(const char *s, size_t len, double *v)
{
    char buf[128];
    size_t i = 0, o = 0, digits = 0, group = 0;
    int commas = 0;
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        buf[o++] = s[i++];
    for (; i < len && o < sizeof buf - 1; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            buf[o++] = s[i];
            digits++;
            group++;
        } else if (s[i] == ',') {
            /* 1,234,567: a first group of 1-3 digits, then groups of 3 */
            if (group == 0 || group > 3 || (commas && group != 3))
                return 0;
            commas = 1;
            group = 0;
        } else {
            break;
        }
    }
    if (!digits || (commas && group != 3))
        return 0;
    if (i < len && s[i] == '.') {
        buf[o++] = s[i++];
        while (i < len && s[i] >= '0' && s[i] <= '9' && o < sizeof buf - 1)
            buf[o++] = s[i++];
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        buf[o++] = s[i++];
        if (i < len && (s[i] == '-' || s[i] == '+') && o < sizeof buf - 1)
            buf[o++] = s[i++];
        if (i >= len || s[i] < '0' || s[i] > '9')
            return 0;
        while (i < len && s[i] >= '0' && s[i] <= '9' && o < sizeof buf - 1)
            buf[o++] = s[i++];
    }
    if (i != len) /* text after the number, or a number too long to be one */
        return 0;
    buf[o] = 0;
    *v = strtod(buf, NULL);
    return isfinite(*v);
}

long gp_ncu_raw_col(const gp_ncu_table *t, const char *name)
{
    return gp_strindex_find(t->index, name, strlen(name));
}

int gp_ncu_raw_is_metric(const gp_ncu_table *t, size_t c)
{
    return c < t->n_cols && strstr(t->cols[c], "__") != NULL;
}

int gp_ncu_raw_scaled_unit(const char *unit)
{
    const char *p = unit;
    for (;;) {
        /* one unit of a quotient: "Kbyte", "Gcycle", "KB", "KiB", "usecond" */
        if (strchr("KMGTP", p[0]) && p[0] &&
            ((p[1] >= 'a' && p[1] <= 'z') || p[1] == 'B' || (p[1] == 'i' && p[2] == 'B')))
            return 1;
        if (strncmp(p, "usecond", 7) == 0 || strncmp(p, "msecond", 7) == 0)
            return 1;
        if (!(p = strchr(p, '/')))
            return 0;
        p++;
    }
}

void gp_ncu_raw_free(gp_ncu_table *t)
{
    size_t i;
    for (i = 0; i < t->n_cols; i++) {
        free(t->cols[i]);
        if (t->units)
            free(t->units[i]);
    }
    free(t->cols);
    free(t->units);
    for (i = 0; i < t->n_rows; i++) {
        free(t->rows[i].kernel);
        free(t->rows[i].cc);
        free(t->rows[i].device);
        free(t->rows[i].v);
        free(t->rows[i].kind);
    }
    free(t->rows);
    gp_strindex_free(&t->index);
    memset(t, 0, sizeof *t);
}

/* The header: the columns, their index, the fixed columns found. */
static int gp_ncu_header(gp_ncu_table *t, const gp_ncu_field *f, size_t n, long lineno, char *err,
                         size_t errlen)
{
    size_t i;
    if (!(t->cols = calloc(n, sizeof *t->cols)) || !(t->units = calloc(n, sizeof *t->units)))
        goto oom;
    for (i = 0; i < n; i++) {
        if (!(t->cols[i] = gp_strndup(f[i].s, f[i].len)) || !(t->units[i] = gp_strndup("", 0)))
            goto oom;
        t->n_cols = i + 1;
        if (gp_strindex_find(t->index, f[i].s, f[i].len) >= 0) {
            snprintf(err, errlen,
                     "%s:%ld: malformed Nsight Compute CSV: the column '%.100s' is "
                     "named twice",
                     t->name, lineno, f[i].s);
            return -1;
        }
        if (gp_strindex_add(&t->index, f[i].s, f[i].len, i) < 0)
            goto oom;
    }
    if (gp_ncu_raw_col(t, "Metric Name") >= 0 && gp_ncu_raw_col(t, "Metric Value") >= 0) {
        snprintf(err, errlen,
                 "%s:%ld: this is Nsight Compute's --page details layout (one row per "
                 "metric); record it with --csv --page raw --print-units base",
                 t->name, lineno);
        return -1;
    }
    t->col_id = 0;
    t->col_kernel = gp_ncu_raw_col(t, "Kernel Name");
    t->col_cc = gp_ncu_raw_col(t, "CC");
    t->col_device = gp_ncu_raw_col(t, "device__attribute_display_name");
    if (t->col_kernel < 0) {
        snprintf(err, errlen,
                 "%s:%ld: malformed Nsight Compute CSV: the header has no 'Kernel "
                 "Name' column",
                 t->name, lineno);
        return -1;
    }
    return 0;
oom:
    snprintf(err, errlen, "%s: out of memory", t->name);
    return -1;
}

/* Whether the fields are the header's own (a second table). */
static int gp_ncu_same_header(const gp_ncu_table *t, const gp_ncu_field *f, size_t n)
{
    size_t i;
    if (n != t->n_cols)
        return 0;
    for (i = 0; i < n; i++)
        if (strcmp(f[i].s, t->cols[i]) != 0)
            return 0;
    return 1;
}

static int gp_ncu_units(gp_ncu_table *t, const gp_ncu_field *f)
{
    size_t i;
    for (i = 0; i < t->n_cols; i++) {
        char *u = gp_strndup(f[i].s, f[i].len);
        if (!u)
            return -1;
        free(t->units[i]);
        t->units[i] = u;
    }
    return 0;
}

static int gp_ncu_row_add(gp_ncu_table *t, const gp_ncu_field *f, long id, long lineno)
{
    gp_ncu_row *r;
    size_t i;
    if (t->n_rows == t->cap_rows) {
        size_t nc = t->cap_rows ? 2 * t->cap_rows : 64;
        gp_ncu_row *nr = realloc(t->rows, nc * sizeof *nr);
        if (!nr)
            return -1;
        t->rows = nr;
        t->cap_rows = nc;
    }
    r = &t->rows[t->n_rows];
    memset(r, 0, sizeof *r);
    r->id = id;
    r->line = lineno;
    r->v = malloc(t->n_cols * sizeof *r->v);
    r->kind = malloc(t->n_cols);
    r->kernel = gp_strndup(f[t->col_kernel].s, f[t->col_kernel].len);
    if (t->col_cc >= 0)
        r->cc = gp_strndup(f[t->col_cc].s, f[t->col_cc].len);
    if (t->col_device >= 0)
        r->device = gp_strndup(f[t->col_device].s, f[t->col_device].len);
    t->n_rows++; /* freed with the table from here on */
    if (!r->v || !r->kind || !r->kernel || (t->col_cc >= 0 && !r->cc) ||
        (t->col_device >= 0 && !r->device))
        return -1;
    for (i = 0; i < t->n_cols; i++) {
        r->v[i] = NAN;
        if (f[i].len == 0)
            r->kind[i] = GP_NCU_EMPTY;
        else if (strcmp(f[i].s, "n/a") == 0)
            r->kind[i] = GP_NCU_NA;
        else if (gp_ncu_raw_number(f[i].s, f[i].len, &r->v[i]))
            r->kind[i] = GP_NCU_NUM;
        else
            r->kind[i] = GP_NCU_TEXT;
    }
    return 0;
}

/* An integer ID ("0", "1,024"). */
static int gp_ncu_id(const gp_ncu_field *f, long *id)
{
    double v;
    size_t i;
    for (i = 0; i < f->len; i++)
        if (f->s[i] == '.' || f->s[i] == 'e' || f->s[i] == 'E' || f->s[i] == '-')
            return 0;
    if (!gp_ncu_raw_number(f->s, f->len, &v) || v > 1e15)
        return 0;
    *id = (long)v;
    return 1;
}

static int gp_ncu_starts_header(const char *line, size_t len)
{
    static const char q[] = "\"ID\",", u[] = "ID,";
    return (len >= sizeof q - 1 && memcmp(line, q, sizeof q - 1) == 0) ||
           (len >= sizeof u - 1 && memcmp(line, u, sizeof u - 1) == 0);
}

/* States of the reader: before the header, after it (a units row may
 * come), in the table. */
enum { GP_NCU_BEFORE, GP_NCU_HEAD, GP_NCU_ROWS };

static int gp_ncu_read(gp_ncu_table *t, gp_textfile *tf, char *err, size_t errlen)
{
    gp_ncu_field *f = NULL;
    size_t cap = 64;
    int state = GP_NCU_BEFORE, got, rc = -1;
    char *line, why[200];
    size_t len;
    if (!(f = malloc((cap + 1) * sizeof *f)))
        goto oom;
    while ((got = gp_textfile_line(tf, &line, &len, why, sizeof why)) != 0) {
        long n, id;
        if (got == -1) {
            snprintf(err, errlen, "%s", why);
            goto out;
        }
        if (got == -2) {
            if (state == GP_NCU_BEFORE)
                continue; /* program output */
            snprintf(err, errlen, "%s:%ld: malformed Nsight Compute CSV: %s", t->name, tf->lineno,
                     why);
            goto out;
        }
        if (state == GP_NCU_BEFORE) {
            if (!gp_ncu_starts_header(line, len))
                continue;
            /* the header: as many fields as it has, up to the limit */
            if (cap < GP_NCU_MAX_COLS) {
                gp_ncu_field *nf = realloc(f, (GP_NCU_MAX_COLS + 1) * sizeof *nf);
                if (!nf)
                    goto oom;
                f = nf;
                cap = GP_NCU_MAX_COLS;
            }
            n = gp_ncu_split(line, len, f, cap, why, sizeof why);
            if (n < 0 || n > (long)cap) {
                snprintf(err, errlen, "%s:%ld: malformed Nsight Compute CSV header: %s", t->name,
                         tf->lineno, n < 0 ? why : "more than 100000 columns");
                goto out;
            }
            if (n < 2 || strcmp(f[1].s, "Process ID") != 0)
                continue; /* "ID" alone: not ncu's table */
            if (gp_ncu_header(t, f, (size_t)n, tf->lineno, err, errlen) < 0)
                goto out;
            state = GP_NCU_HEAD;
            continue;
        }
        if (len == 0 || (len == 1 && line[0] == '\r') || (len >= 2 && memcmp(line, "==", 2) == 0))
            continue; /* an empty line, ncu's own message */
        n = gp_ncu_split(line, len, f, t->n_cols, why, sizeof why);
        if (n < 0) {
            snprintf(err, errlen, "%s:%ld: malformed Nsight Compute CSV: %s", t->name, tf->lineno,
                     why);
            goto out;
        }
        if (gp_ncu_same_header(t, f, (size_t)n)) {
            state = GP_NCU_HEAD; /* a second table with the same columns */
            continue;
        }
        if (n >= 2 && strcmp(f[0].s, "ID") == 0 && strcmp(f[1].s, "Process ID") == 0) {
            snprintf(err, errlen,
                     "%s:%ld: malformed Nsight Compute CSV: a second header with "
                     "other columns (two tables in one file?)",
                     t->name, tf->lineno);
            goto out;
        }
        if (n != (long)t->n_cols) {
            snprintf(err, errlen,
                     "%s:%ld: malformed Nsight Compute CSV: %s%ld fields where the header has %zu",
                     t->name, tf->lineno, n > (long)t->n_cols ? "more than " : "",
                     n > (long)t->n_cols ? (long)t->n_cols : n, t->n_cols);
            goto out;
        }
        if (state == GP_NCU_HEAD && f[0].len == 0) {
            if (gp_ncu_units(t, f) < 0)
                goto oom;
            state = GP_NCU_ROWS;
            continue;
        }
        if (!gp_ncu_id(&f[0], &id)) {
            snprintf(err, errlen,
                     "%s:%ld: malformed Nsight Compute CSV: the ID '%.40s' is not a "
                     "launch number",
                     t->name, tf->lineno, f[0].s);
            goto out;
        }
        if ((t->n_rows + 1) * t->n_cols > GP_NCU_MAX_CELLS) {
            snprintf(err, errlen,
                     "%s:%ld: more than %zu values; profile fewer launches or "
                     "metrics",
                     t->name, tf->lineno, (size_t)GP_NCU_MAX_CELLS);
            goto out;
        }
        if (gp_ncu_row_add(t, f, id, tf->lineno) < 0)
            goto oom;
        state = GP_NCU_ROWS;
    }
    if (state == GP_NCU_BEFORE) {
        snprintf(err, errlen,
                 "%s: no Nsight Compute raw table in it (a header row starting "
                 "\"ID\",\"Process ID\"; record it with ncu --csv --page raw "
                 "--print-units base)",
                 t->name);
        goto out;
    }
    rc = 0;
    goto out;
oom:
    snprintf(err, errlen, "%s: out of memory", t->name);
out:
    free(f);
    return rc;
}

static int gp_ncu_load_tf(gp_ncu_table *t, gp_textfile *tf, char *err, size_t errlen)
{
    int rc;
    snprintf(t->name, sizeof t->name, "%s", tf->name);
    t->col_id = t->col_kernel = t->col_cc = t->col_device = -1;
    rc = gp_ncu_read(t, tf, err, errlen);
    gp_textfile_close(tf);
    if (rc < 0)
        gp_ncu_raw_free(t);
    return rc;
}

int gp_ncu_raw_load(gp_ncu_table *t, const char *path, char *err, size_t errlen)
{
    gp_textfile tf;
    memset(t, 0, sizeof *t);
    if (gp_textfile_open(&tf, path, "Nsight Compute CSV ", GP_NCU_MAX_FILE, GP_NCU_MAX_LINE, err,
                         errlen) < 0)
        return -1;
    return gp_ncu_load_tf(t, &tf, err, errlen);
}

int gp_ncu_raw_load_stream(gp_ncu_table *t, FILE *f, const char *name, char *err, size_t errlen)
{
    gp_textfile tf;
    memset(t, 0, sizeof *t);
    gp_textfile_stream(&tf, f, name, GP_NCU_MAX_FILE, GP_NCU_MAX_LINE);
    return gp_ncu_load_tf(t, &tf, err, errlen);
}
