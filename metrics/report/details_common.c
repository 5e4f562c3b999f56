/* details_common.c - see details_common.h. */
#include "metrics/report/details_common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/textio.h"

void gp_dl_counters_init(gp_dl_counters *c, const gp_launch *l)
{
    c->l = l;
    c->ix = NULL;
    for (size_t i = 0; i < l->n_metrics; i++)
        if (gp_strindex_add(&c->ix, l->names[i], strlen(l->names[i]), i) < 0)
            break; /* out of memory: the rest read as not collected */
}

void gp_dl_counters_free(gp_dl_counters *c)
{
    gp_strindex_free(&c->ix);
}

int gp_dl_counter(void *ctx, const char *name, size_t len, double *v, char *why, size_t whylen)
{
    const gp_dl_counters *c = ctx;
    long i = gp_strindex_find(c->ix, name, len);
    if (i < 0)
        return -1;
    *v = c->l->values[i];
    if (isnan(*v))
        snprintf(why, whylen, "%s: %s", c->l->names[i],
                 c->l->missing && c->l->missing[i] ? c->l->missing[i] : "no value in the record");
    return 0;
}

const gp_device *gp_dl_device(const gp_report *r, const gp_report_launch *x)
{
    return x->dev >= 0 ? &r->devices[x->dev].d : &r->dflt;
}

gp_ncu_mask gp_dl_sections(const gp_details_opts *o, const gp_report_launch *x)
{
    gp_ncu_mask m = o->sections;
    if (!m && x->l.sections)
        m = gp_ncu_mask_parse(x->l.sections, NULL);
    if (!m)
        m = gp_ncu_set_mask(gp_ncu_set_find("basic"));
    return m;
}

int gp_dl_shows(const gp_details_opts *o, const gp_ncu_row *r)
{
    return r->place == GP_NCU_HEAD || (o->body && r->place == GP_NCU_BODY);
}

const char *gp_dl_kernel(const gp_report *r, const gp_report_launch *x)
{
    const gp_kernel_report *k = x->kernel >= 0 ? &r->kernels[x->kernel] : NULL;
    if (r->name_base == GP_REPORT_NAME_FUNCTION && k)
        return k->name;
    if (r->name_base == GP_REPORT_NAME_MANGLED && x->mangled)
        return x->mangled;
    return x->l.kernel;
}

double gp_dl_scale(double v, const char *unit, int base_units, char *uout, size_t ulen)
{
    static const char *const si[] = {"", "K", "M", "G", "T", "P"};
    double a = fabs(v), div = 1;
    int k = 0;
    snprintf(uout, ulen, "%s", unit);
    if (base_units || !isfinite(v))
        return 1;
    if (strcmp(unit, "ns") == 0) {
        static const char *const t[] = {"ns", "us", "ms", "s"};
        while (k < 3 && a >= 1000 * div)
            div *= 1000, k++;
        snprintf(uout, ulen, "%s", t[k]);
        return div;
    }
    if (strcmp(unit, "hz") == 0) {
        while (k < 3 && a >= 1000 * div)
            div *= 1000, k++;
        snprintf(uout, ulen, "%shz", si[k]);
        return div;
    }
    if (strncmp(unit, "byte", 4) == 0 && (unit[4] == '\0' || unit[4] == '/')) {
        while (k < 5 && a >= 1000 * div)
            div *= 1000, k++;
        snprintf(uout, ulen, "%s%s", si[k], unit);
        return div;
    }
    return 1;
}

const char *gp_dl_number(double v, int decimals, char *buf, size_t len)
{
    char plain[64];
    size_t o = 0, i = 0, digits;
    if (!len)
        return buf;
    if (!isfinite(v)) {
        snprintf(buf, len, "n/a");
        return buf;
    }
    if (!decimals && v == floor(v) && fabs(v) < 1e15)
        snprintf(plain, sizeof plain, "%.0f", v);
    else
        snprintf(plain, sizeof plain, "%.2f", v);
    /* thousands separators in the whole part, as Nsight Compute prints */
    if (plain[0] == '-')
        buf[o++] = plain[i++];
    digits = strcspn(plain + i, ".");
    for (size_t k = 0; k < digits && o + 2 < len; k++) {
        buf[o++] = plain[i + k];
        if ((digits - k - 1) % 3 == 0 && k + 1 < digits)
            buf[o++] = ',';
    }
    snprintf(buf + o, len - o, "%s", plain + i + digits);
    return buf;
}

const char *gp_dl_reason(const gp_ncu_row *row, const gp_ncu_value *v, char *buf, size_t len)
{
    int sec = gp_ncu_section_find(row->section);
    switch (v->status) {
    case GP_NCU_CANNOT_COLLECT:
        snprintf(buf, len, "gpuprof cannot collect it: %s", v->why);
        break;
    case GP_NCU_NOT_COLLECTED: {
        /* the run collected something else: which choices collect it */
        char sets[256] = "";
        size_t o = 0;
        for (size_t s = 0; s < gp_ncu_n_sets && sec >= 0 && o < sizeof sets; s++)
            if (!gp_ncu_sets[s].group[0] && (gp_ncu_set_mask((int)s) >> sec & 1)) {
                int n =
                    snprintf(sets + o, sizeof sets - o, "%s%s", o ? ", " : "", gp_ncu_sets[s].id);
                o += n > 0 ? (size_t)n : 0;
            }
        snprintf(buf, len,
                 "not collected by this run%s%s%s: gpuprof --section %s%s%s%s collects it",
                 strcmp(v->missing, row->metric) ? " (it needs " : "",
                 strcmp(v->missing, row->metric) ? v->missing : "",
                 strcmp(v->missing, row->metric) ? ")" : "", row->section,
                 sets[0] ? " (or --set " : "", sets, sets[0] ? ")" : "");
        break;
    }
    default:
        snprintf(buf, len, "n/a: %s", v->why);
    }
    return buf;
}

/* ncu pads a column to its widest cell */
static size_t gp_dl_width(const char *s)
{
    char buf[1024];
    return strlen(gp_text_plain_buf(buf, sizeof buf, s));
}

static void gp_dl_cell(FILE *out, const char *s, size_t w, int right)
{
    size_t l = gp_dl_width(s);
    if (right)
        for (size_t k = l; k < w; k++)
            fputc(' ', out);
    gp_text_plain(out, s);
    if (!right)
        for (size_t k = l; k < w; k++)
            fputc(' ', out);
}

static void gp_dl_rule(FILE *out, const char *indent, const size_t *w, size_t ncol)
{
    fputs(indent, out);
    for (size_t c = 0; c < ncol; c++) {
        for (size_t k = 0; k < w[c]; k++)
            fputc('-', out);
        fputc(c + 1 < ncol ? ' ' : '\n', out);
    }
}

void gp_dl_table(FILE *out, const char *indent, const char *const *head, const char *const *cells,
                 size_t nrow, size_t ncol)
{
    size_t w[8] = {0};
    if (ncol > 8)
        ncol = 8;
    for (size_t c = 0; c < ncol; c++) {
        w[c] = gp_dl_width(head[c]);
        for (size_t r = 0; r < nrow; r++) {
            size_t l = gp_dl_width(cells[r * ncol + c]);
            if (l > w[c])
                w[c] = l;
        }
    }
    gp_dl_rule(out, indent, w, ncol);
    fputs(indent, out);
    for (size_t c = 0; c < ncol; c++) {
        gp_dl_cell(out, head[c], w[c], c > 0);
        fputc(c + 1 < ncol ? ' ' : '\n', out);
    }
    gp_dl_rule(out, indent, w, ncol);
    for (size_t r = 0; r < nrow; r++) {
        fputs(indent, out);
        for (size_t c = 0; c < ncol; c++) {
            gp_dl_cell(out, cells[r * ncol + c], w[c], c > 0);
            fputc(c + 1 < ncol ? ' ' : '\n', out);
        }
    }
    gp_dl_rule(out, indent, w, ncol);
}

void gp_dl_process_line(FILE *out, const gp_report_launch *x, long *last, size_t *last_file)
{
    if (x->pid == *last && x->file == *last_file)
        return;
    *last = x->pid;
    *last_file = x->file;
    if (x->pid >= 0)
        fprintf(out, "[%ld] ", x->pid);
    gp_text_plain(out, x->process ? x->process : "?");
    fputc('@', out);
    gp_text_plain(out, x->host ? x->host : "?");
    fputc('\n', out);
}

void gp_dl_reasons_add(gp_dl_reasons *rs, const char *text)
{
    for (size_t i = 0; i < rs->n; i++)
        if (strcmp(rs->s[i], text) == 0)
            return;
    if (rs->n >= GP_DL_REASONS_MAX) {
        rs->dropped++;
        return;
    }
    if (rs->n == rs->cap) {
        size_t nc = rs->cap ? 2 * rs->cap : 32;
        char **ns = realloc(rs->s, nc * sizeof *ns);
        if (!ns) {
            rs->dropped++;
            return;
        }
        rs->s = ns;
        rs->cap = nc;
    }
    if (!(rs->s[rs->n] = strdup(text))) {
        rs->dropped++;
        return;
    }
    rs->n++;
}

void gp_dl_reasons_flush(gp_dl_reasons *rs, FILE *out)
{
    if (rs->n && out) {
        fputs("  n/a on this page:\n", out);
        for (size_t i = 0; i < rs->n; i++) {
            fputs("    ", out);
            gp_text_plain(out, rs->s[i]);
            fputc('\n', out);
        }
        if (rs->dropped)
            fprintf(out, "    ... and %zu more\n", rs->dropped);
    }
    for (size_t i = 0; i < rs->n; i++)
        free(rs->s[i]);
    free(rs->s);
    memset(rs, 0, sizeof *rs);
}
