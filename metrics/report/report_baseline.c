/* report_baseline.c - the comparison with a baseline (baseline.h) as text,
 * CSV (one row per kernel) and one self-contained HTML page.  A value that is
 * n/a stays n/a (an empty CSV cell), never 0. */
#include <math.h>
#include <string.h>

#include "metrics/model/baseline.h"
#include "metrics/catalog/format.h"
#include "metrics/report/report.h"
#include "metrics/report/svg_roofline.h"
#include "util/textio.h"

static const char *gp_bl_name(const gp_baseline *b, const gp_baseline_row *row)
{
    return row->now ? gp_report_kernel_name(b->now, row->now)
                    : gp_report_kernel_name(b->old, row->old);
}

static const gp_kernel_report *gp_bl_any(const gp_baseline_row *row)
{
    return row->now ? row->now : row->old;
}

static const char *gp_bl_status(const gp_baseline_row *row)
{
    return row->old && row->now ? "both" : row->now ? "new" : "gone";
}

static void gp_bl_labels(const gp_kernel_report *k, const size_t *idx, size_t n, FILE *out,
                         const char *sep)
{
    char label[64];
    size_t i;
    for (i = 0; i < n; i++) {
        gp_verdict_label(&k->verdicts[idx[i]], label, sizeof label);
        fprintf(out, "%s%s", i ? sep : "", label);
    }
}

static void gp_bl_text_report(const char *what, const gp_report *r, FILE *out)
{
    gp_fmtbuf fb = {.next = 0};
    size_t i;
    fprintf(out, "%s %zu file%s (", what, r->n_files, r->n_files == 1 ? "" : "s");
    for (i = 0; i < r->n_files; i++) {
        fputs(i ? ", " : "", out);
        gp_text_plain(out, r->files[i]);
    }
    fprintf(out, "): %ld launches of %zu kernels, %s of kernel time\n", r->launches, r->n,
            gp_fmt(&fb, gp_report_total_time(r), "s"));
}

int gp_baseline_text(const gp_baseline *b, FILE *out)
{
    gp_fmtbuf fb = {.next = 0};
    size_t i, m;
    double t0 = gp_report_total_time(b->old), t1 = gp_report_total_time(b->now);
    fprintf(out, "gpuprof comparison with a baseline\n");
    gp_bl_text_report("baseline:", b->old, out);
    gp_bl_text_report("new:     ", b->now, out);
    fprintf(out, "total kernel time: %s -> %s", gp_fmt(&fb, t0, "s"), gp_fmt(&fb, t1, "s"));
    if (t0 > 0 && isfinite(100 * (t1 - t0) / t0))
        fprintf(out, " (%+.1f%%)", 100 * (t1 - t0) / t0);
    fprintf(out, "\nkernels by change in total time:\n");
    for (i = 0; i < b->n; i++) {
        const gp_baseline_row *row = &b->rows[i];
        const gp_kernel_report *k = gp_bl_any(row);
        fb.next = 0;
        fprintf(out, "\n#%zu ", i + 1);
        gp_text_plain(out, gp_bl_name(b, row)); /* names from the input, escaped */
        fprintf(out, " (device %d)", k->agg.device);
        if (!row->old) {
            fprintf(out, ": new in this run, %s in %ld launch%s\n",
                    gp_fmt(&fb, row->now->agg.row.v[GP_M_DURATION], "s"), row->now->agg.launches,
                    row->now->agg.launches == 1 ? "" : "es");
        } else if (!row->now) {
            fprintf(out, ": not in this run (baseline: %s in %ld launch%s)\n",
                    gp_fmt(&fb, row->old->agg.row.v[GP_M_DURATION], "s"), row->old->agg.launches,
                    row->old->agg.launches == 1 ? "" : "es");
        } else {
            fprintf(out, "\n   time %s -> %s", gp_fmt(&fb, row->old->agg.row.v[GP_M_DURATION], "s"),
                    gp_fmt(&fb, row->now->agg.row.v[GP_M_DURATION], "s"));
            if (!isnan(row->dt_pct))
                fprintf(out, " (%+.1f%%)", row->dt_pct);
            fprintf(out, "; launches %ld -> %ld\n", row->old->agg.launches, row->now->agg.launches);
            for (m = 1; m < gp_baseline_n_metrics; m++) { /* 0 is the time, said above */
                int x = gp_baseline_metrics[m];
                const char *unit;
                double a = row->old->agg.row.v[x], v = row->now->agg.row.v[x];
                double c = gp_baseline_change(x, a, v, &unit);
                char ch[32] = "";
                fb.next = 0;
                if (!isnan(c))
                    snprintf(ch, sizeof ch, "%+.1f%s%s", c, *unit == '%' ? "" : " ", unit);
                else if (!isnan(a) || !isnan(v))
                    snprintf(ch, sizeof ch, "n/a");
                fprintf(out, "   %-34s %12s -> %-12s %s\n", gp_derived_defs[x].name,
                        gp_fmt(&fb, a, gp_derived_defs[x].unit),
                        gp_fmt(&fb, v, gp_derived_defs[x].unit), ch);
            }
        }
        if (row->n_gained) {
            fputs("   verdicts gained: ", out);
            gp_bl_labels(row->now, row->gained, row->n_gained, out, ", ");
            fputc('\n', out);
        }
        if (row->n_lost) {
            fputs("   verdicts lost:   ", out);
            gp_bl_labels(row->old, row->lost, row->n_lost, out, ", ");
            fputc('\n', out);
        }
    }
    if (!b->n)
        fprintf(out, "\nno profiled launches in either run\n");
    return ferror(out) ? -1 : 0;
}

int gp_baseline_csv(const gp_baseline *b, FILE *out)
{
    size_t i, m;
    fputs("kernel,demangled,device,status,time_baseline [s],time_new [s],time_change [%],"
          "launches_baseline,launches_new",
          out);
    for (m = 0; m < gp_baseline_n_metrics; m++) {
        const gp_derived_def *d = &gp_derived_defs[gp_baseline_metrics[m]];
        const char *unit;
        gp_baseline_change(gp_baseline_metrics[m], 0, 0, &unit);
        fprintf(out, ",%s_baseline [%s],%s_new [%s],%s_change [%s]", d->name, d->unit, d->name,
                d->unit, d->name, unit);
    }
    fputs(",verdicts_gained,verdicts_lost\n", out);
    for (i = 0; i < b->n; i++) {
        const gp_baseline_row *row = &b->rows[i];
        const gp_kernel_report *k = gp_bl_any(row);
        gp_text_csv_field(out, gp_bl_name(b, row));
        fputc(',', out);
        gp_text_csv_field(out, k->agg.kernel);
        fprintf(out, ",%d,%s", k->agg.device, gp_bl_status(row));
        gp_report_csv_num(out, row->old ? row->old->agg.row.v[GP_M_DURATION] : NAN);
        gp_report_csv_num(out, row->now ? row->now->agg.row.v[GP_M_DURATION] : NAN);
        gp_report_csv_num(out, row->dt_pct);
        gp_report_csv_num(out, row->old ? (double)row->old->agg.launches : NAN);
        gp_report_csv_num(out, row->now ? (double)row->now->agg.launches : NAN);
        for (m = 0; m < gp_baseline_n_metrics; m++) {
            int x = gp_baseline_metrics[m];
            const char *unit;
            double a = row->old ? row->old->agg.row.v[x] : NAN;
            double v = row->now ? row->now->agg.row.v[x] : NAN;
            gp_report_csv_num(out, a);
            gp_report_csv_num(out, v);
            gp_report_csv_num(out, gp_baseline_change(x, a, v, &unit));
        }
        fputc(',', out);
        if (row->n_gained)
            gp_bl_labels(row->now, row->gained, row->n_gained, out, ";");
        fputc(',', out);
        if (row->n_lost)
            gp_bl_labels(row->old, row->lost, row->n_lost, out, ";");
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}

static const char gp_bl_style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}"
    "code{font-size:12px}table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}td.num{text-align:right}"
    ".better{color:#1a7f37}.worse{color:#c0392b}.na{color:#999}";

/* A change as a table cell, coloured by whether the time went down. */
static void gp_bl_html_change(FILE *out, double c, const char *unit, int lower_is_better)
{
    if (isnan(c)) {
        fputs("<td class=\"num na\">n/a</td>", out);
        return;
    }
    fprintf(out, "<td class=\"num %s\">%+.1f%s%s</td>",
            c == 0                       ? ""
            : (c < 0) == lower_is_better ? "better"
                                         : "worse",
            c, *unit == '%' ? "" : " ", unit);
}

static void gp_bl_html_verdicts(FILE *out, const gp_kernel_report *k, const size_t *idx, size_t n)
{
    char label[64];
    size_t i;
    fputs("<td>", out);
    for (i = 0; i < n; i++) {
        gp_verdict_label(&k->verdicts[idx[i]], label, sizeof label);
        fprintf(out, "%s<code title=\"", i ? " " : "");
        gp_text_html(out, k->verdicts[idx[i]].evidence);
        fputs("\">", out);
        gp_text_html(out, label);
        fputs("</code>", out);
    }
    fputs("</td>", out);
}

int gp_baseline_html(const gp_baseline *b, FILE *out)
{
    gp_fmtbuf fb = {.next = 0};
    size_t i, m;
    double t0 = gp_report_total_time(b->old), t1 = gp_report_total_time(b->now);
    fprintf(out,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>gpuprof comparison</title><style>%s</style></head>\n<body>\n"
            "<h1>gpuprof comparison with a baseline</h1>\n<p>Baseline: %ld launches of %zu "
            "kernels, %s. New: %ld launches of %zu kernels, %s",
            gp_bl_style, b->old->launches, b->old->n, gp_fmt(&fb, t0, "s"), b->now->launches,
            b->now->n, gp_fmt(&fb, t1, "s"));
    if (t0 > 0 && isfinite(100 * (t1 - t0) / t0))
        fprintf(out, " (%+.1f%%)", 100 * (t1 - t0) / t0);
    fputs(".</p>\n<h2>Kernels by change in total time</h2>\n<table class=\"kernels\"><tr><th>#"
          "</th><th>kernel</th><th>device</th><th>time, baseline</th><th>time, new</th>"
          "<th>change</th><th>launches</th><th>verdicts gained</th><th>verdicts lost</th>"
          "</tr>\n",
          out);
    for (i = 0; i < b->n; i++) {
        const gp_baseline_row *row = &b->rows[i];
        const gp_kernel_report *k = gp_bl_any(row);
        fb.next = 0;
        fprintf(out, "<tr data-status=\"%s\"><td>%zu</td><td><code title=\"", gp_bl_status(row),
                i + 1);
        gp_text_html(out, k->agg.kernel);
        fputs("\">", out);
        gp_text_html(out, gp_bl_name(b, row));
        fprintf(out, "</code></td><td>%d</td><td class=\"num\">%s</td><td class=\"num\">%s</td>",
                k->agg.device,
                row->old ? gp_fmt(&fb, row->old->agg.row.v[GP_M_DURATION], "s") : "(absent)",
                row->now ? gp_fmt(&fb, row->now->agg.row.v[GP_M_DURATION], "s") : "(absent)");
        gp_bl_html_change(out, row->dt_pct, "%", 1);
        fprintf(out, "<td class=\"num\">");
        if (row->old)
            fprintf(out, "%ld", row->old->agg.launches);
        fprintf(out, " &rarr; ");
        if (row->now)
            fprintf(out, "%ld", row->now->agg.launches);
        fputs("</td>", out);
        gp_bl_html_verdicts(out, row->now, row->gained, row->n_gained);
        gp_bl_html_verdicts(out, row->old, row->lost, row->n_lost);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n<h2>Key metrics of the kernels in both runs</h2>\n<table class=\"metrics\">"
          "<tr><th>kernel</th><th>metric</th><th>baseline</th><th>new</th><th>change</th></tr>\n",
          out);
    for (i = 0; i < b->n; i++) {
        const gp_baseline_row *row = &b->rows[i];
        if (!row->old || !row->now)
            continue;
        for (m = 0; m < gp_baseline_n_metrics; m++) {
            int x = gp_baseline_metrics[m];
            const char *unit;
            double a = row->old->agg.row.v[x], v = row->now->agg.row.v[x];
            double c = gp_baseline_change(x, a, v, &unit);
            fb.next = 0;
            fputs("<tr><td><code title=\"", out);
            gp_text_html(out, row->now->agg.kernel);
            fputs("\">", out);
            gp_text_html(out, gp_bl_name(b, row));
            fprintf(out, "</code></td><td title=\"");
            gp_text_html(out, gp_derived_defs[x].description);
            fprintf(out, "\">%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td>",
                    gp_derived_defs[x].name, gp_fmt(&fb, a, gp_derived_defs[x].unit),
                    gp_fmt(&fb, v, gp_derived_defs[x].unit));
            /* time and bytes: lower is better; utilisation and efficiency: higher */
            gp_bl_html_change(out, c, unit, x == GP_M_DURATION || x == GP_M_DRAM_BYTES);
            fputs("</tr>\n", out);
        }
    }
    fputs("</table>\n</body></html>\n", out);
    return ferror(out) ? -1 : 0;
}
