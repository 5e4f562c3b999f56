/* details_text.c - the details page and the raw page as text, laid out as
 * Nsight Compute's CLI prints them (details.h):
 *
 *   [pid] process@host
 *     kernel (gx, gy, gz)x(bx, by, bz), Context C, Stream S, Device D, CC M.m
 *       Section: GPU Speed Of Light Throughput
 *       ----------------------- ----------- ------------
 *       Metric Name             Metric Unit Metric Value
 *       ----------------------- ----------- ------------
 *       DRAM Frequency                  Ghz         2.62
 *       ...
 *
 * A value gpuprof does not have prints n/a; the page ends with each reason
 * once ("n/a on this page"), where ncu would print its rules' advice. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/report/details_common.h"
#include "util/textio.h"

/* The launch line: ncu's kernel header. */
static void gp_dt_kernel_line(const gp_report *r, const gp_report_launch *x, FILE *out)
{
    const gp_device *d = gp_dl_device(r, x);
    fputs("  ", out);
    gp_text_plain(out, gp_dl_kernel(r, x));
    fprintf(out, " (%ld, %ld, %ld)x(%ld, %ld, %ld)", x->l.grid[0], x->l.grid[1], x->l.grid[2],
            x->l.block[0], x->l.block[1], x->l.block[2]);
    if (x->context >= 0)
        fprintf(out, ", Context %ld", x->context);
    if (x->stream >= 0)
        fprintf(out, ", Stream %ld", x->stream);
    fprintf(out, ", Device %d, CC %d.%d\n", x->l.device, d->cc_major, d->cc_minor);
}

typedef struct {
    char unit[32], value[48];
} gp_dt_cell;

/* One section of one launch: its table, the reasons of its n/a values
 * added to rs.  Returns the rows written. */
static size_t gp_dt_section(const gp_details_opts *o, gp_ncu_eval *e, size_t sec, gp_dl_reasons *rs,
                            FILE *out)
{
    static const char *const head[] = {"Metric Name", "Metric Unit", "Metric Value"};
    const char **cells = malloc(gp_ncu_n_rows * 3 * sizeof *cells);
    gp_dt_cell *text = malloc(gp_ncu_n_rows * sizeof *text);
    size_t n = 0;
    if (!cells || !text)
        goto out;
    for (size_t i = 0; i < gp_ncu_n_rows; i++) {
        const gp_ncu_row *row = &gp_ncu_rows[i];
        gp_ncu_value v;
        if (strcmp(row->section, gp_ncu_sections[sec].id) != 0 || !gp_dl_shows(o, row))
            continue;
        gp_ncu_eval_row(e, row, &v);
        if (v.status == GP_NCU_OK) {
            double div =
                gp_dl_scale(v.value, row->unit, o->base_units, text[n].unit, sizeof text[n].unit);
            gp_dl_number(v.value / div, 0, text[n].value, sizeof text[n].value);
        } else {
            char why[600], line[900];
            snprintf(text[n].unit, sizeof text[n].unit, "%s", row->unit);
            snprintf(text[n].value, sizeof text[n].value, "n/a");
            snprintf(line, sizeof line, "%s / %s (%s): %s", gp_ncu_sections[sec].display,
                     row->label, row->metric, gp_dl_reason(row, &v, why, sizeof why));
            gp_dl_reasons_add(rs, line);
        }
        cells[n * 3] = row->label;
        cells[n * 3 + 1] = text[n].unit;
        cells[n * 3 + 2] = text[n].value;
        n++;
    }
    if (n) {
        fputs("    Section: ", out);
        gp_text_plain(out, gp_ncu_sections[sec].display);
        fputc('\n', out);
        gp_dl_table(out, "    ", head, cells, n, 3);
        fputc('\n', out);
    }
out:
    free(cells);
    free(text);
    return n;
}

int gp_report_details_text(const gp_report *r, const gp_details_opts *o, FILE *out)
{
    long last = -2;
    size_t last_file = (size_t)-1;
    gp_dl_reasons rs = {0};
    for (size_t i = 0; i < r->n_launch_rows; i++) {
        const gp_report_launch *x = &r->launch_rows[i];
        gp_ncu_mask m = gp_dl_sections(o, x);
        gp_dl_counters c;
        gp_ncu_eval e;
        gp_dl_process_line(out, x, &last, &last_file);
        gp_dt_kernel_line(r, x, out);
        gp_dl_counters_init(&c, &x->l);
        gp_ncu_eval_init(&e, &x->l, gp_dl_device(r, x), gp_dl_counter, &c);
        for (size_t s = 0; s < gp_ncu_n_sections; s++)
            if (m >> s & 1)
                gp_dt_section(o, &e, s, &rs, out);
        gp_dl_counters_free(&c);
    }
    gp_dl_reasons_flush(&rs, out);
    return ferror(out) ? -1 : 0;
}

/* ---- the raw page ---------------------------------------------------------- */

static const struct {
    const char *name, *unit;
} gp_dt_counters[] = {
#define GP_COUNTER(n, u, c, s, d) {n, u},
#include "metrics/catalog/counters.def"
#undef GP_COUNTER
};

/* A metric's base unit: the section table's, else counters.def's, else "". */
static const char *gp_dt_unit(const char *name)
{
    for (size_t i = 0; i < gp_ncu_n_rows; i++)
        if (strcmp(gp_ncu_rows[i].metric, name) == 0)
            return gp_ncu_rows[i].unit;
    for (size_t i = 0; i < sizeof gp_dt_counters / sizeof gp_dt_counters[0]; i++)
        if (strcmp(gp_dt_counters[i].name, name) == 0)
            return strcmp(gp_dt_counters[i].unit, "Hz") == 0 ? "hz" : gp_dt_counters[i].unit;
    return "";
}

static int gp_dt_by_name(const void *a, const void *b)
{
    return strcmp(**(const char *const *const *)a, **(const char *const *const *)b);
}

int gp_report_raw_text(const gp_report *r, const gp_details_opts *o, FILE *out)
{
    static const char *const head[] = {"Metric Name", "Metric Unit", "Metric Value"};
    long last = -2;
    size_t last_file = (size_t)-1;
    for (size_t i = 0; i < r->n_launch_rows; i++) {
        const gp_report_launch *x = &r->launch_rows[i];
        size_t n = x->l.n_metrics;
        const char ***order = malloc((n ? n : 1) * sizeof *order);
        const char **cells = malloc((n ? n : 1) * 3 * sizeof *cells);
        gp_dt_cell *text = malloc((n ? n : 1) * sizeof *text);
        if (!order || !cells || !text) {
            free(order);
            free(cells);
            free(text);
            return -1;
        }
        for (size_t k = 0; k < n; k++)
            order[k] = (const char **)&x->l.names[k];
        qsort(order, n, sizeof *order, gp_dt_by_name);
        for (size_t k = 0; k < n; k++) {
            size_t j = (size_t)(order[k] - (const char **)x->l.names);
            double v = x->l.values[j];
            double div = gp_dl_scale(v, gp_dt_unit(x->l.names[j]), o->base_units, text[k].unit,
                                     sizeof text[k].unit);
            gp_dl_number(v / div, 0, text[k].value, sizeof text[k].value);
            cells[k * 3] = x->l.names[j];
            cells[k * 3 + 1] = text[k].unit;
            cells[k * 3 + 2] = text[k].value;
        }
        gp_dl_process_line(out, x, &last, &last_file);
        gp_dt_kernel_line(r, x, out);
        gp_dl_table(out, "    ", head, cells, n, 3);
        fputc('\n', out);
        free(order);
        free(cells);
        free(text);
    }
    return ferror(out) ? -1 : 0;
}
