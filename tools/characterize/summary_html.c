/* summary_html.c - the suite's page: one self-contained HTML file (inline
 * CSS, inline SVG, a small inline script, nothing fetched).  One bar chart
 * per metric class of the study, kernels grouped by program, and one DRAM
 * roofline with every kernel of the suite coloured by program.  The report
 * library draws its rooflines per report (static in report_html.c), so the
 * suite-wide one is drawn here from the same gp_roofline numbers. */
#include <math.h>
#include <string.h>

#include "format.h"
#include "report.h"
#include "summary.h"

#define GPC_W 720
#define GPC_H 460
#define GPC_L 70
#define GPC_R 20
#define GPC_T 20
#define GPC_B 50
#define GPC_COLOURS 8

static void gpc_html_esc(FILE *out, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '&':
            fputs("&amp;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        default:
            fputc(*s, out);
        }
    }
}

typedef struct {
    double x0, x1, y0, y1; /* log10 ranges */
} gpc_axes;

static double gpc_px(const gpc_axes *a, double x)
{
    return GPC_L + (log10(x) - a->x0) / (a->x1 - a->x0) * (GPC_W - GPC_L - GPC_R);
}

static double gpc_py(const gpc_axes *a, double y)
{
    return GPC_H - GPC_B - (log10(y) - a->y0) / (a->y1 - a->y0) * (GPC_H - GPC_T - GPC_B);
}

static void gpc_widen(double v, double *lo, double *hi)
{
    if (isnan(v) || v <= 0 || isinf(v))
        return;
    if (log10(v) < *lo)
        *lo = log10(v);
    if (log10(v) > *hi)
        *hi = log10(v);
}

static void gpc_html_ceiling(FILE *out, const gpc_axes *a, const gp_roof *f, int arch,
                             const char *prec)
{
    double xr, xl = pow(10, a->x0), xh = pow(10, a->x1);
    const char *cls = arch ? "arch" : "meas";
    gp_fmtbuf fb = {.next = 0};
    if (isnan(f->compute) || isnan(f->bandwidth))
        return;
    xr = fmin(fmax(f->compute / f->bandwidth, xl), xh);
    fprintf(out,
            "<polyline class=\"ceiling %s\" points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>"
            "<text class=\"clabel %s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s %s, DRAM %s "
            "(%s)</text>\n",
            cls, gpc_px(a, xl), gpc_py(a, xl * f->bandwidth), gpc_px(a, xr),
            gpc_py(a, xr * f->bandwidth), gpc_px(a, xh), gpc_py(a, f->compute), cls,
            gpc_px(a, xh) - 4, gpc_py(a, f->compute) + (arch ? -4 : 12), prec,
            gp_fmt(&fb, f->compute, "flop/s"), gp_fmt(&fb, f->bandwidth, "byte/s"),
            arch ? "architectural" : "measured");
}

static void gpc_html_roofline(const gpc_summary *s, FILE *out)
{
    gpc_axes a = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    const gp_kernel_report *ref = NULL;
    size_t i, j, idx = 0;
    int d;
    for (i = 0; i < s->n; i++)
        for (j = 0; s->progs[i].rep && j < s->progs[i].rep->n; j++) {
            const gp_kernel_report *k = &s->progs[i].rep->kernels[j];
            const gp_roof_level *l = &k->roof.level[GP_LEVEL_DRAM];
            gpc_widen(l->ai, &a.x0, &a.x1);
            gpc_widen(k->roof.perf, &a.y0, &a.y1);
            gpc_widen(l->arch.compute, &a.y0, &a.y1);
            gpc_widen(l->measured.compute, &a.y0, &a.y1);
            gpc_widen(l->arch.ridge, &a.x0, &a.x1);
            if (!ref && (!isnan(l->arch.compute) || !isnan(l->measured.compute)))
                ref = k;
        }
    if (isinf(a.x0)) {
        a.x0 = -2;
        a.x1 = 3;
    }
    if (isinf(a.y0)) {
        a.y0 = 9;
        a.y1 = 14;
    }
    a.x0 = floor(a.x0) - 1;
    a.x1 = ceil(a.x1) + 1;
    a.y0 = floor(a.y0) - 1;
    a.y1 = ceil(a.y1) + 1;
    fprintf(out,
            "<figure><svg class=\"roofline\" data-level=\"DRAM\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">"
            "<title>DRAM roofline of every kernel of the suite</title>\n",
            GPC_W, GPC_H, GPC_W, GPC_H);
    for (d = (int)a.x0; d <= (int)a.x1; d++)
        fprintf(out,
                "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text "
                "class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">1e%d</text>\n",
                gpc_px(&a, pow(10, d)), GPC_T, gpc_px(&a, pow(10, d)), GPC_H - GPC_B,
                gpc_px(&a, pow(10, d)), GPC_H - GPC_B + 16, d);
    for (d = (int)a.y0; d <= (int)a.y1; d++)
        fprintf(out,
                "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/><text "
                "class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n",
                GPC_L, gpc_py(&a, pow(10, d)), GPC_W - GPC_R, gpc_py(&a, pow(10, d)), GPC_L - 4,
                gpc_py(&a, pow(10, d)) + 4, d);
    fprintf(out,
            "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">arithmetic intensity "
            "at DRAM (flop/byte)</text><text class=\"axis\" transform=\"translate(14 %d) "
            "rotate(-90)\" text-anchor=\"middle\">performance (flop/s)</text>\n",
            (GPC_W + GPC_L) / 2, GPC_H - 10, GPC_H / 2);
    if (ref) {
        gpc_html_ceiling(out, &a, &ref->roof.level[GP_LEVEL_DRAM].arch, 1, ref->roof.precision);
        gpc_html_ceiling(out, &a, &ref->roof.level[GP_LEVEL_DRAM].measured, 0, ref->roof.precision);
    }
    for (i = 0; i < s->n; i++)
        for (j = 0; s->progs[i].rep && j < s->progs[i].rep->n; j++) {
            const gp_kernel_report *k = &s->progs[i].rep->kernels[j];
            double ai = k->roof.level[GP_LEVEL_DRAM].ai, perf = k->roof.perf;
            int na = isnan(ai) || isnan(perf) || ai <= 0 || perf <= 0 || isinf(ai);
            double x = na ? GPC_L + 8 : gpc_px(&a, ai);
            double y = na ? GPC_H - GPC_B - 8 : gpc_py(&a, perf);
            gp_fmtbuf fb = {.next = 0};
            idx++;
            fprintf(out,
                    "<circle class=\"kpoint p%zu%s\" data-kernel=\"%zu\" cx=\"%.1f\" cy=\"%.1f\" "
                    "r=\"6\"><title>#%zu ",
                    i % GPC_COLOURS, na ? " na" : "", idx, x, y, idx);
            gpc_html_esc(out, s->progs[i].res.name);
            fputs(": ", out);
            gpc_html_esc(out, k->agg.kernel);
            if (na)
                fprintf(out, ": not on the roofline (%s)",
                        perf == 0 ? "no floating-point work" : "intensity or rate n/a");
            else
                fprintf(out, ": %s at %s flop/byte", gp_fmt(&fb, perf, "flop/s"),
                        gp_fmt(&fb, ai, ""));
            fprintf(out,
                    "</title></circle><text class=\"plabel\" x=\"%.1f\" y=\"%.1f\">%zu</text>\n",
                    x + 7, y - 6, idx);
        }
    fputs("</svg><figcaption>DRAM roofline of every kernel of the suite, coloured by program "
          "(legend below); numbers are the kernel numbers of the table. Solid: architectural "
          "ceilings, dashed: measured (peaks file), both of the longest kernel with ceilings. "
          "Points at the lower left have no floating-point work or lack data.</figcaption>"
          "</figure>\n<p class=\"legend\">",
          out);
    for (i = 0; i < s->n; i++)
        if (s->progs[i].rep && s->progs[i].rep->n) {
            fprintf(out,
                    "<span><svg width=\"12\" height=\"12\"><circle class=\"p%zu\" cx=\"6\" "
                    "cy=\"6\" r=\"5\"/></svg> ",
                    i % GPC_COLOURS);
            gpc_html_esc(out, s->progs[i].res.name);
            fputs("</span> ", out);
        }
    fputs("</p>\n", out);
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

/* One chart of a metric class: a row per kernel, grouped under a label per
 * program; two bars per row for a two-metric class. */
static void gpc_html_chart(const gpc_summary *s, const gpc_class *c, FILE *out)
{
    int pct = strcmp(c->unit, "%") == 0, nm = c->metric[1] >= 0 ? 2 : 1, mi;
    int row_h = 8 + 10 * nm, w = 560, bar_x = 50, bar_w = 380, y = 26;
    double max = 100, lo = INFINITY, hi = -INFINITY;
    size_t i, j, idx = 0, rows = 0, groups = 0;
    gp_fmtbuf fb = {.next = 0};
    for (i = 0; i < s->n; i++)
        for (j = 0; s->progs[i].rep && j < s->progs[i].rep->n; j++)
            for (mi = 0; mi < nm; mi++) {
                double v = gpc_metric_value(&s->progs[i].rep->kernels[j], c->metric[mi]);
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
    for (i = 0; i < s->n; i++)
        if (s->progs[i].rep && s->progs[i].rep->n) {
            groups++;
            rows += s->progs[i].rep->n;
        }
    fprintf(out,
            "<figure class=\"bars\"><svg class=\"chart\" data-class=\"%s\" width=\"%d\" "
            "height=\"%zu\" viewBox=\"0 0 %d %zu\" xmlns=\"http://www.w3.org/2000/svg\" "
            "role=\"img\"><title>",
            c->id, w, 40 + rows * row_h + groups * 18, w, 40 + rows * row_h + groups * 18);
    gpc_html_esc(out, c->title);
    fputs("</title><text class=\"axis\" x=\"0\" y=\"14\">", out);
    gpc_html_esc(out, c->title);
    fprintf(out, " (%s%s)%s</text>\n", c->unit, pct ? "" : ", log scale",
            nm == 2 ? " — upper bar: load, lower bar: store" : "");
    for (i = 0; i < s->n; i++) {
        const gp_report *r = s->progs[i].rep;
        if (!r || !r->n)
            continue;
        fprintf(out, "<text class=\"group\" x=\"0\" y=\"%d\">", y + 13);
        gpc_html_esc(out, s->progs[i].res.name);
        fputs("</text>\n", out);
        y += 18;
        for (j = 0; j < r->n; j++) {
            const gp_kernel_report *k = &r->kernels[j];
            idx++;
            fprintf(out, "<g class=\"krow\" data-kernel=\"%zu\"><title>#%zu ", idx, idx);
            gpc_html_esc(out, k->agg.kernel);
            fprintf(out,
                    "</title><text class=\"tick\" x=\"%d\" y=\"%d\" "
                    "text-anchor=\"end\">#%zu</text>",
                    bar_x - 6, y + 4 + 9 * nm, idx);
            for (mi = 0; mi < nm; mi++) {
                double v = gpc_metric_value(k, c->metric[mi]);
                int by = y + 2 + mi * 10;
                fb.next = 0;
                if (isnan(v)) {
                    fprintf(out, "<text class=\"na\" x=\"%d\" y=\"%d\">n/a</text>", bar_x + 2,
                            by + 9);
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
    gpc_html_esc(out, c->title);
    fb.next = 0;
    fprintf(out, ": below %s %s, above %s %s.</figcaption></figure>\n",
            gp_fmt(&fb, c->low, c->unit), c->low_means, gp_fmt(&fb, c->high, c->unit),
            c->high_means);
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
    gpc_html_esc(out, s->peaks.source[0] ? s->peaks.source : "none (architectural only)");
    fputs(".</p>\n<h2>Programs</h2>\n<table><tr><th>program</th><th>status</th><th>native</th>"
          "<th>profiled</th><th>kernels</th><th>message</th></tr>\n",
          out);
    for (i = 0; i < s->n; i++) {
        const gpc_prog *p = &s->progs[i];
        fb.next = 0;
        defects += p->res.status == GPC_PROFILER_DEFECT;
        fprintf(out, "<tr%s><td>", p->res.status == GPC_PROFILER_DEFECT ? " class=\"defect\"" : "");
        gpc_html_esc(out, p->res.name);
        fprintf(out,
                "</td><td>%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td>"
                "<td class=\"num\">",
                gpc_status_name(p->res.status),
                gp_fmt(&fb, p->res.native.ran ? p->res.native.wall_s : NAN, "s"),
                gp_fmt(&fb, p->res.profiled.ran ? p->res.profiled.wall_s : NAN, "s"));
        if (p->rep)
            fprintf(out, "%zu", p->rep->n);
        fputs("</td><td>", out);
        gpc_html_esc(out, p->res.message);
        for (j = 0; j < p->res.n_diffs; j++) {
            fputs("<br><code>", out);
            gpc_html_esc(out, p->res.diffs[j].what);
            fputs(": native «", out);
            gpc_html_esc(out, p->res.diffs[j].native ? p->res.diffs[j].native : "(end)");
            fputs("» profiled «", out);
            gpc_html_esc(out, p->res.diffs[j].profiled ? p->res.diffs[j].profiled : "(end)");
            fputs("»</code>", out);
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
    if (defects)
        fprintf(out,
                "<p class=\"warn\">%zu PROFILER DEFECT%s: the program failed or its output "
                "differed only under the profiler; its kernels are left out.</p>\n",
                defects, defects == 1 ? "" : "S");
    fputs("<h2>Roofline</h2>\n", out);
    gpc_html_roofline(s, out);
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
            gpc_html_esc(out, s->progs[i].res.name);
            fputs("</td><td><code>", out);
            gpc_html_esc(out, k->agg.kernel);
            fprintf(out, "</code></td><td class=\"num\">%s</td><td class=\"num\">%s</td><td>",
                    gp_fmt(&fb, k->agg.row.v[GP_M_DURATION], "s"),
                    gp_fmt(&fb, gp_report_time_share(r, k), "%"));
            if (!k->n_verdicts)
                fputs("none", out);
            for (v = 0; v < k->n_verdicts; v++) {
                char label[64];
                gp_verdict_label(&k->verdicts[v], label, sizeof label);
                fprintf(out, "%s%zu. ", v ? "<br>" : "", v + 1);
                gpc_html_esc(out, k->verdicts[v].title);
                fprintf(out, " <code>%s</code>", label);
            }
            fputs("</td></tr>\n", out);
        }
    fprintf(out, "</table>\n<script>%s</script>\n</body></html>\n", gpc_html_script);
    return ferror(out) ? -1 : 0;
}
