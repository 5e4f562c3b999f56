/* summary_html.c - the suite's page: one self-contained HTML file (inline
 * CSS, inline SVG, a small inline script, nothing fetched).  One bar chart
 * per metric class of the study, kernels grouped by program, and one DRAM
 * roofline with every kernel of the suite coloured by program, drawn by the
 * report library's chart (svg_roofline.h) as the per-report pages are. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/catalog/format.h"
#include "metrics/report/report.h"
#include "metrics/report/svg_roofline.h"
#include "summary.h"
#include "util/textio.h"

#define GPC_W 720 /* roofline size, px */
#define GPC_H 460
#define GPC_COLOURS 8

/* Stretches [lo, hi] (log10) to take v, for the log-scale bar charts. */
static void gpc_widen(double v, double *lo, double *hi)
{
    if (isnan(v) || v <= 0 || isinf(v))
        return;
    if (log10(v) < *lo)
        *lo = log10(v);
    if (log10(v) > *hi)
        *hi = log10(v);
}

/* The suite-wide DRAM roofline: every kernel of every program a point, its
 * colour class the program's; the ceilings are those of the first kernel
 * that has any (the clocks differ a little between kernels). */
static int gpc_html_roofline(const gpc_summary *s, FILE *out)
{
    gp_svg_roofline c = {.level = gp_roofline_level_name(GP_LEVEL_DRAM),
                         .title = "DRAM roofline of every kernel of the suite",
                         .num_attr = "kernel",
                         .arch = {NAN, NAN},
                         .measured = {NAN, NAN},
                         .width = GPC_W,
                         .height = GPC_H};
    static const char *const colour[GPC_COLOURS] = {"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"};
    gp_svg_point *pts;
    char **names; /* the kernels' names escaped: the chart escapes only HTML */
    size_t i, j, n = 0;
    int ref = 0, rc = -1;
    for (i = 0; i < s->n; i++)
        n += s->progs[i].rep ? s->progs[i].rep->n : 0;
    pts = calloc(n ? n : 1, sizeof *pts);
    names = calloc(n ? n : 1, sizeof *names);
    if (!pts || !names)
        goto out;
    n = 0;
    for (i = 0; i < s->n; i++)
        for (j = 0; s->progs[i].rep && j < s->progs[i].rep->n; j++) {
            const gp_kernel_report *k = &s->progs[i].rep->kernels[j];
            const gp_roof_level *l = &k->roof.level[GP_LEVEL_DRAM];
            gp_svg_point p = {.ai = l->ai,
                              .perf = k->roof.perf,
                              .num = n + 1,
                              .group = s->progs[i].res.name,
                              .cls = colour[i % GPC_COLOURS]};
            if (!(names[n] = gpc_plain_dup(k->agg.kernel)))
                goto out;
            p.name = names[n];
            pts[n++] = p;
            if (!ref && (!isnan(l->arch.compute) || !isnan(l->measured.compute))) {
                ref = 1;
                c.precision = k->roof.precision;
                c.arch.compute = l->arch.compute;
                c.arch.bandwidth = l->arch.bandwidth;
                c.measured.compute = l->measured.compute;
                c.measured.bandwidth = l->measured.bandwidth;
            }
        }
    fputs("<figure>", out);
    gp_svg_roofline_write(&c, pts, n, out);
    fputs("<figcaption>DRAM roofline of every kernel of the suite, coloured by program "
          "(legend below); numbers are the kernel numbers of the table. Solid: architectural "
          "ceilings, dashed: measured (peaks file), both of the longest kernel with ceilings. "
          "Points at the lower left have no floating-point work or lack data.</figcaption>"
          "</figure>\n<p class=\"legend\">",
          out);
    for (i = 0; i < s->n; i++)
        if (s->progs[i].rep && s->progs[i].rep->n) {
            fprintf(out,
                    "<span><svg width=\"12\" height=\"12\"><circle class=\"%s\" cx=\"6\" "
                    "cy=\"6\" r=\"5\"/></svg> ",
                    colour[i % GPC_COLOURS]);
            gpc_html_str(out, s->progs[i].res.name);
            fputs("</span> ", out);
        }
    fputs("</p>\n", out);
    rc = 0;
out:
    for (i = 0; names && i < n; i++)
        free(names[i]);
    free(names);
    free(pts);
    return rc;
}

/* Bar length in [0, 1] of v on the chart's scale: linear 0..max for %,
 * log10 over [lo, hi] decades otherwise. */
static double gpc_bar_frac(double v, int pct, double max, double lo, double hi)
{
    if (pct)
        return v <= 0 ? 0 : v / max;
    if (v <= 0)
        return 0;
    return fmin(1, fmax(0, (log10(v) - lo) / (hi - lo)));
}

/* A kernel with none of what every metric of the class measures (no
 * shared-memory accesses) has no row in the class's chart. */
static int gpc_html_left_out(const gpc_class *c, int nm, const gp_kernel_report *k)
{
    int mi;
    for (mi = 0; mi < nm; mi++)
        if (!gpc_class_absent(c, mi, k))
            return 0;
    return 1;
}

/* One chart of a metric class: a row per kernel, grouped under a label per
 * program; two bars per row for a two-metric class. */
static void gpc_html_chart(const gpc_summary *s, const gpc_class *c, FILE *out)
{
    int pct = strcmp(c->unit, "%") == 0, nm = c->metric[1] >= 0 ? 2 : 1, mi;
    int row_h = 8 + 10 * nm, w = 560, bar_x = 50, bar_w = 380, y = 26;
    double max = 100, lo = INFINITY, hi = -INFINITY;
    size_t i, j, idx = 0, rows = 0, groups = 0;
    gp_fmtbuf fb = {.next = 0};
    size_t left_out[2] = {0, 0};
    for (i = 0; i < s->n; i++)
        for (j = 0; s->progs[i].rep && j < s->progs[i].rep->n; j++)
            for (mi = 0; mi < nm; mi++) {
                double v = gpc_metric_value(&s->progs[i].rep->kernels[j], c->metric[mi]);
                left_out[mi] += (size_t)gpc_class_absent(c, mi, &s->progs[i].rep->kernels[j]);
                if (!isnan(v) && v > max)
                    max = v;
                gpc_widen(v, &lo, &hi);
            }
    if (isinf(lo)) {
        lo = -2;
        hi = 2;
    }
    lo = floor(lo);
    hi = ceil(hi) > floor(lo) ? ceil(hi) : floor(lo) + 1;
    for (i = 0; i < s->n; i++) {
        size_t here = 0;
        for (j = 0; s->progs[i].rep && j < s->progs[i].rep->n; j++)
            here += !gpc_html_left_out(c, nm, &s->progs[i].rep->kernels[j]);
        groups += here > 0;
        rows += here;
    }
    fprintf(out,
            "<figure class=\"bars\"><svg class=\"chart\" data-class=\"%s\" width=\"%d\" "
            "height=\"%zu\" viewBox=\"0 0 %d %zu\" xmlns=\"http://www.w3.org/2000/svg\" "
            "role=\"img\"><title>",
            c->id, w, 40 + rows * row_h + groups * 18, w, 40 + rows * row_h + groups * 18);
    gp_text_html(out, c->title);
    fputs("</title><text class=\"axis\" x=\"0\" y=\"14\">", out);
    gp_text_html(out, c->title);
    fprintf(out, " (%s%s)%s</text>\n", c->unit, pct ? "" : ", log scale",
            nm == 2 ? " — upper bar: load, lower bar: store" : "");
    for (i = 0; i < s->n; i++) {
        const gp_report *r = s->progs[i].rep;
        size_t here = 0;
        for (j = 0; r && j < r->n; j++)
            here += !gpc_html_left_out(c, nm, &r->kernels[j]);
        if (!here) {
            idx += r ? r->n : 0;
            continue;
        }
        fprintf(out, "<text class=\"group\" x=\"0\" y=\"%d\">", y + 13);
        gpc_html_str(out, s->progs[i].res.name);
        fputs("</text>\n", out);
        y += 18;
        for (j = 0; j < r->n; j++) {
            const gp_kernel_report *k = &r->kernels[j];
            idx++;
            if (gpc_html_left_out(c, nm, k))
                continue;
            fprintf(out, "<g class=\"krow\" data-kernel=\"%zu\"><title>#%zu ", idx, idx);
            gpc_html_str(out, k->agg.kernel);
            fprintf(out,
                    "</title><text class=\"tick\" x=\"%d\" y=\"%d\" "
                    "text-anchor=\"end\">#%zu</text>",
                    bar_x - 6, y + 4 + 9 * nm, idx);
            for (mi = 0; mi < nm; mi++) {
                double v = gpc_metric_value(k, c->metric[mi]);
                int by = y + 2 + mi * 10;
                fb.next = 0;
                if (isnan(v)) {
                    fprintf(out, "<text class=\"na\" x=\"%d\" y=\"%d\">%s</text>", bar_x + 2,
                            by + 9, gpc_class_absent(c, mi, k) ? "none" : "n/a");
                    continue;
                }
                {
                    double bw = gpc_bar_frac(v, pct, max, lo, hi) * bar_w;
                    fprintf(out,
                            "<rect class=\"bar p%zu\" x=\"%d\" y=\"%d\" width=\"%.1f\" "
                            "height=\"9\"/><text class=\"tick\" x=\"%.1f\" y=\"%d\">%s</text>",
                            i % GPC_COLOURS, bar_x, by, bw, bar_x + bw + 4, by + 8,
                            gp_fmt(&fb, v, c->unit));
                }
            }
            fputs("</g>\n", out);
            y += row_h;
        }
    }
    fprintf(out, "<line class=\"base\" x1=\"%d\" y1=\"22\" x2=\"%d\" y2=\"%d\"/>", bar_x, bar_x, y);
    fputs("</svg><figcaption>", out);
    gp_text_html(out, c->title);
    fb.next = 0;
    fprintf(out, ": below %s %s, above %s %s.", gp_fmt(&fb, c->low, c->unit), c->low_means,
            gp_fmt(&fb, c->high, c->unit), c->high_means);
    for (mi = 0; mi < nm; mi++)
        if (c->absent[mi] >= 0)
            fprintf(out, " %zu kernel%s without %s%s.", left_out[mi],
                    left_out[mi] == 1 ? "" : "s", c->absent_what[mi],
                    nm == 1 || left_out[0] + left_out[1] == 0 ? " left out"
                                                            : " (bar \"none\"; left out when both are)");
    fputs("</figcaption></figure>\n", out);
}

static const char gpc_html_style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}"
    "code{font-size:12px}table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}td.num{text-align:right}"
    "tr.defect td{background:#fdd}svg{background:#fff;border:1px solid #ddd}"
    ".grid{stroke:#eee}.tick{font-size:10px;fill:#555}.axis{font-size:12px;fill:#222}"
    ".group{font-size:12px;font-weight:bold;fill:#222}.base{stroke:#999}"
    ".ceiling{stroke-width:2;fill:none}.ceiling.arch{stroke:#1f5fa8}"
    ".ceiling.meas{stroke:#c0392b;stroke-dasharray:6 4}.clabel{font-size:10px}"
    ".clabel.arch{fill:#1f5fa8}.clabel.meas{fill:#c0392b}.kpoint{stroke:#333}"
    ".kpoint.na{fill:none!important;stroke:#999}.plabel{font-size:9px}"
    ".na{fill:#a33;font-size:10px}figure{display:inline-block;margin:.5em;vertical-align:top}"
    ".p0{fill:#4a90d9}.p1{fill:#e67e22}.p2{fill:#27ae60}.p3{fill:#8e44ad}.p4{fill:#c0392b}"
    ".p5{fill:#16a085}.p6{fill:#d4ac0d}.p7{fill:#7f8c8d}.legend span{margin-right:1em}"
    ".warn{color:#a00;font-weight:bold}";

/* Counts what rendered into data attributes of <body>, for the headless
 * browser test. */
static const char gpc_html_script[] =
    "(function(){var b=document.body;"
    "b.setAttribute('data-charts',String(document.querySelectorAll('svg.chart').length));"
    "var r=document.querySelectorAll('svg.roofline');var c=[];"
    "for(var i=0;i<r.length;i++){c.push(r[i].querySelectorAll('circle.kpoint').length);}"
    "b.setAttribute('data-roofline-points',c.join(','));"
    "b.setAttribute('data-kernels',String(document.querySelectorAll('tr.kernel').length));"
    "var bars=document.querySelectorAll('svg.chart');var rows=[];"
    "for(var j=0;j<bars.length;j++){rows.push(bars[j].querySelectorAll('g.krow').length);}"
    "b.setAttribute('data-chart-rows',rows.join(','));"
    "b.setAttribute('data-rendered','yes');})();";

int gpc_summary_html(const gpc_summary *s, FILE *out)
{
    size_t i, j, idx = 0, defects = 0;
    gp_fmtbuf fb = {.next = 0};
    fprintf(out,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>gpuprof "
            "characterize</title><style>%s</style></head>\n<body>\n<h1>gpuprof-characterize: "
            "the suite's workload study</h1>\n<p>%zu programs, %zu kernels, %s of kernel time. "
            "Measured ceilings: ",
            gpc_html_style, s->n, s->n_kernels,
            gp_fmt(&fb, s->n_kernels ? s->kernel_time : NAN, "s"));
    gpc_html_str(out, s->peaks.source[0] ? s->peaks.source : "none (architectural only)");
    fputs(".</p>\n<h2>Programs</h2>\n<table><tr><th>program</th><th>status</th><th>native</th>"
          "<th>profiled</th><th>kernels</th><th>message</th></tr>\n",
          out);
    for (i = 0; i < s->n; i++) {
        const gpc_prog *p = &s->progs[i];
        fb.next = 0;
        int bad =
            p->res.status == GPC_PROFILER_DEFECT || p->res.status == GPC_PROFILER_BROKE_RESULTS;
        const gpc_validity *v = &p->res.results;
        defects += bad;
        fprintf(out, "<tr%s><td>", bad ? " class=\"defect\"" : "");
        gpc_html_str(out, p->res.name);
        fprintf(out,
                "</td><td>%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
                "<td class=\"num\">",
                gpc_status_name(p->res.status), gp_fmt(&fb, gpc_exec_wall(&p->res.native), "s"),
                gp_fmt(&fb, gpc_exec_wall(&p->res.profiled), "s"));
        if (p->rep)
            fprintf(out, "%zu", p->rep->n);
        fputs("</td><td>", out);
        gpc_html_str(out, p->res.message);
        for (j = 0; j < p->res.n_diffs; j++) {
            fputs("<br><code>", out);
            gpc_html_str(out, p->res.diffs[j].what);
            fputs(": native «", out);
            gpc_html_str(out, p->res.diffs[j].native ? p->res.diffs[j].native : "(end)");
            fputs("» profiled «", out);
            gpc_html_str(out, p->res.diffs[j].profiled ? p->res.diffs[j].profiled : "(end)");
            fputs("»</code>", out);
        }
        if (v->known && !v->valid) {
            fputs("<br><code class=\"broken\">results broken", out);
            if (v->from_launch >= 0)
                fprintf(out, " from launch %ld", v->from_launch);
            if (v->kernel) {
                fputs(" (kernel ", out);
                gpc_html_str(out, v->kernel);
                fputc(')', out);
            }
            if (v->file) {
                fputs(" in ", out);
                gpc_html_str(out, v->file);
            }
            if (v->n_invalid > 1)
                fprintf(out, " and %ld other processes", v->n_invalid - 1);
            fputs(": ", out);
            gpc_html_str(out, v->reason);
            fputs("</code>", out);
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
    if (defects)
        fprintf(out,
                "<p class=\"warn\">%zu program%s the profiler changed (PROFILER DEFECT: it "
                "failed or its output differed only under the profiler) or whose results it "
                "broke (PROFILER BROKE RESULTS: the same output, but kernels did not run as "
                "without it); their kernels are left out.</p>\n",
                defects, defects == 1 ? "" : "s");
    fputs("<h2>Roofline</h2>\n", out);
    if (gpc_html_roofline(s, out))
        return -1;
    fputs("<h2>The study's metric classes</h2>\n", out);
    for (i = 0; i < gpc_n_classes; i++)
        gpc_html_chart(s, &gpc_classes[i], out);
    fputs("<h2>Kernels</h2>\n<table><tr><th>#</th><th>program</th><th>kernel</th><th>time</th>"
          "<th>share of program</th><th>verdicts, ranked</th></tr>\n",
          out);
    for (i = 0; i < s->n; i++)
        for (j = 0; s->progs[i].rep && j < s->progs[i].rep->n; j++) {
            const gp_report *r = s->progs[i].rep;
            const gp_kernel_report *k = &r->kernels[j];
            size_t v;
            fb.next = 0;
            fprintf(out, "<tr class=\"kernel\"><td>%zu</td><td>", ++idx);
            gpc_html_str(out, s->progs[i].res.name);
            fputs("</td><td><code>", out);
            gpc_html_str(out, k->agg.kernel);
            fprintf(out, "</code></td><td class=\"num\">%s</td><td class=\"num\">%s</td><td>",
                    gp_fmt(&fb, k->agg.row.v[GP_M_DURATION], "s"),
                    gp_fmt(&fb, gp_report_time_share(r, k), "%"));
            if (!k->n_verdicts)
                fputs("none", out);
            for (v = 0; v < k->n_verdicts; v++) {
                char label[64];
                gp_verdict_label(&k->verdicts[v], label, sizeof label);
                fprintf(out, "%s%zu. ", v ? "<br>" : "", v + 1);
                gpc_html_str(out, k->verdicts[v].title);
                fprintf(out, " <code>%s</code>", label);
            }
            fputs("</td></tr>\n", out);
        }
    fprintf(out, "</table>\n<script>%s</script>\n</body></html>\n", gpc_html_script);
    return ferror(out) ? -1 : 0;
}
