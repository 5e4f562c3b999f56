/* report_html.c - one self-contained HTML page: inline CSS, inline SVG, a small
 * inline script, nothing fetched from the network.  A roofline per memory
 * level (every kernel a point, measured and architectural ceilings labelled),
 * bar charts of the study's metrics, and per kernel its verdicts, source
 * view, Speed Of Light bars and memory chart (svg_memory.h) and a table of
 * its metrics.  Only what the records can fill: a chart or panel whose
 * metrics were not collected is left out, and what the run did not collect
 * is said once (report_missing.h); the details page's tables list every
 * metric, n/a ones with their reasons. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/catalog/format.h"
#include "metrics/report/report.h"
#include "metrics/report/report_missing.h"
#include "metrics/report/svg_memory.h"
#include "metrics/report/svg_roofline.h"
#include "util/textio.h"

#define GP_HTML_W 640 /* roofline size, px */
#define GP_HTML_H 400

/* The ceilings of the first kernel that has any (kernels are sorted by
 * time) stand for the chart: clocks differ a little between kernels; each
 * kernel's own numbers are in its table. */
static const gp_kernel_report *gp_html_reference(const gp_report *r)
{
    size_t i;
    for (i = 0; i < r->n; i++)
        if (!isnan(r->kernels[i].roof.level[0].arch.compute) ||
            !isnan(r->kernels[i].roof.level[0].measured.compute))
            return &r->kernels[i];
    return r->n ? &r->kernels[0] : NULL;
}

/* 1 when some kernel has a point on level l's chart (an intensity and a
 * rate): a chart without one would be empty. */
static int gp_html_roofline_drawable(const gp_report *r, gp_level l)
{
    for (size_t i = 0; i < r->n; i++) {
        const gp_roofline *f = &r->kernels[i].roof;
        if (isfinite(f->level[l].ai) && f->level[l].ai > 0 && isfinite(f->perf) && f->perf > 0)
            return 1;
    }
    return 0;
}

static gp_svg_ceiling gp_html_ceiling(const gp_roof *f)
{
    gp_svg_ceiling c = {f->compute, f->bandwidth};
    return c;
}

static void gp_html_roofline(const gp_report *r, gp_level l, gp_svg_point *pts, FILE *out)
{
    const gp_kernel_report *ref = gp_html_reference(r);
    const char *level = gp_roofline_level_name(l);
    char title[64];
    gp_svg_roofline c = {.level = level, .title = title, .num_attr = "rank",
                         .arch = {NAN, NAN}, .measured = {NAN, NAN},
                         .width = GP_HTML_W, .height = GP_HTML_H};
    size_t i;
    snprintf(title, sizeof title, "%s roofline", level);
    if (ref) {
        c.precision = ref->roof.precision;
        c.arch = gp_html_ceiling(&ref->roof.level[l].arch);
        c.measured = gp_html_ceiling(&ref->roof.level[l].measured);
    }
    for (i = 0; i < r->n; i++) {
        const gp_kernel_report *k = &r->kernels[i];
        gp_svg_point p = {.ai = k->roof.level[l].ai,
                          .perf = k->roof.perf,
                          .num = i + 1,
                          .name = gp_report_kernel_name(r, k)};
        pts[i] = p;
    }
    fputs("<figure>", out);
    gp_svg_roofline_write(&c, pts, r->n, out);
    fprintf(out, "<figcaption>%s roofline: solid lines are architectural ceilings "
                 "(per-cycle peaks x clock during the kernel), dashed lines measured ceilings "
                 "(peaks file); numbers are kernel ranks; points at the lower left have no "
                 "floating-point work or lack data.</figcaption></figure>\n",
            level);
}

/* 1 when some kernel has a value of metric m. */
static int gp_html_any(const gp_report *r, int m)
{
    for (size_t i = 0; i < r->n; i++)
        if (isfinite(r->kernels[i].agg.row.v[m]))
            return 1;
    return 0;
}

/* One bar chart per study metric that some kernel has: a bar per kernel,
 * "n/a" where missing (the reason on hover). */
static void gp_html_bars(const gp_report *r, int m, FILE *out)
{
    const gp_derived_def *d = &gp_derived_defs[m];
    int row_h = 18, h = (int)r->n * row_h + 30, w = 420;
    double max = 100;
    size_t i;
    if (!gp_html_any(r, m))
        return;
    for (i = 0; i < r->n; i++)
        if (isfinite(r->kernels[i].agg.row.v[m]) && r->kernels[i].agg.row.v[m] > max)
            max = r->kernels[i].agg.row.v[m];
    fprintf(out,
            "<figure class=\"bars\"><svg class=\"chart\" data-metric=\"%s\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\">"
            "<text class=\"axis\" x=\"0\" y=\"14\">%s (%s)</text>\n",
            d->name, w, h, w, h, d->name, d->unit);
    for (i = 0; i < r->n; i++) {
        double v = r->kernels[i].agg.row.v[m];
        int y = 24 + (int)i * row_h;
        gp_fmtbuf fb = {.next = 0};
        fprintf(out, "<text class=\"tick\" x=\"28\" y=\"%d\" text-anchor=\"end\">#%zu</text>", y + 12,
                i + 1);
        if (!isfinite(v)) {
            fprintf(out, "<text class=\"na\" x=\"34\" y=\"%d\">n/a<title>", y + 12);
            gp_text_html(out, r->kernels[i].agg.row.why[m]);
            fprintf(out, "</title></text>\n");
        } else {
            /* within [0, the chart's width] whatever the values: an SVG length
             * is never negative, NaN or infinite */
            double bw = v <= 0 ? 0 : fmin(v / max, 1) * (w - 120);
            fprintf(out,
                    "<rect class=\"bar\" x=\"34\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>"
                    "<text class=\"tick\" x=\"%.1f\" y=\"%d\">%s</text>\n",
                    y, bw, row_h - 4, 38 + bw, y + 12, gp_fmt(&fb, v, d->unit));
        }
    }
    fprintf(out, "</svg></figure>\n");
}

/* The kernel's name as asked for, its demangled name on hover. */
static void gp_html_kernel_name(const gp_report *r, const gp_kernel_report *k, FILE *out)
{
    fputs("<code title=\"", out);
    gp_text_html(out, k->agg.kernel);
    fputs("\">", out);
    gp_text_html(out, gp_report_kernel_name(r, k));
    fputs("</code>", out);
}

static void gp_html_device(const gp_device *d, size_t inputs, void *arg)
{
    fprintf(arg, " Device %d: ", d->ordinal);
    gp_text_html(arg, d->name);
    fprintf(arg, " (%d SMs%s).", d->sm_count, inputs > 1 ? ", several processes" : "");
}

/* A kernel's table of metrics: all of them (details), or those with a
 * value and those n/a for a reason other than "not collected", and one row
 * counting the rest. */
static void gp_html_table(const gp_kernel_agg *a, int details, FILE *out)
{
    size_t i, left = 0, shown = 0;
    for (i = 0; i < GP_DERIVED_COUNT; i++)
        shown += details || gp_report_has(a->row.v[i], a->row.why[i]) != 0;
    /* the page stays short: the table folded, unless every metric was asked for */
    if (!details)
        fprintf(out, "<details class=\"metrics\"><summary>its %zu measured metrics</summary>",
                shown);
    fprintf(out, "<table class=\"metrics\"><tr><th>class</th><th>metric</th><th>value</th>"
                 "<th>why n/a</th></tr>\n");
    for (i = 0; i < GP_DERIVED_COUNT; i++) {
        char val[48];
        if (!details && !gp_report_has(a->row.v[i], a->row.why[i])) {
            left++;
            continue;
        }
        gp_format_value(a->row.v[i], gp_derived_defs[i].unit, val, sizeof val);
        fprintf(out, "<tr%s><td>%s</td><td title=\"", isnan(a->row.v[i]) ? " class=\"na\"" : "",
                gp_derived_defs[i].cls);
        gp_text_html(out, gp_derived_defs[i].description);
        fprintf(out, "\">%s</td><td>%s</td><td>", gp_derived_defs[i].name, val);
        if (isnan(a->row.v[i]))
            gp_text_html(out, a->row.why[i]);
        fprintf(out, "</td></tr>\n");
    }
    if (left)
        fprintf(out, "<tr class=\"left\"><td colspan=\"4\">%zu more metric%s not collected in "
                     "this run (see the note at the top; gpuprof-report --details lists "
                     "them)</td></tr>\n",
                left, left == 1 ? "" : "s");
    fprintf(out, "</table>%s\n", details ? "" : "</details>");
}

static void gp_html_kernel(const gp_report *r, const gp_kernel_report *k, size_t rank,
                           int details, FILE *out)
{
    const gp_kernel_agg *a = &k->agg;
    gp_fmtbuf fb = {.next = 0};
    char roof[256];
    size_t i;
    int th, ach;
    fprintf(out, "<section class=\"kernel\" id=\"k%zu\"><h3>#%zu ", rank, rank);
    gp_html_kernel_name(r, k, out);
    fprintf(out, "</h3>\n<p class=\"demangled\"><code>");
    gp_text_html(out, a->kernel);
    fputs("</code></p>\n<p>", out);
    if (details || gp_report_has(a->row.v[GP_M_DURATION], a->row.why[GP_M_DURATION]))
        fprintf(out, "%s of kernel time, %s in ", gp_fmt(&fb, gp_report_time_share(r, k), "%"),
                gp_fmt(&fb, a->row.v[GP_M_DURATION], "s"));
    fprintf(out,
            "%ld launch%s; main launch %ld blocks &times; %ld threads, %ld registers/thread, "
            "%ld bytes shared/block.</p>\n",
            a->launches, a->launches == 1 ? "" : "es", a->blocks, a->threads_per_block,
            a->regs_per_thread, a->smem_per_block);
    if (!k->n_verdicts)
        fprintf(out, "<p class=\"verdict none\">No bottleneck rule fired.</p>\n");
    fprintf(out, "<ol class=\"verdicts\">\n");
    for (i = 0; i < k->n_verdicts; i++) {
        char label[64];
        gp_verdict_label(&k->verdicts[i], label, sizeof label);
        fprintf(out, "<li class=\"verdict\" data-id=\"%s\"><b>", label);
        gp_text_html(out, k->verdicts[i].title);
        fprintf(out, "</b> <code>%s</code><br>Evidence: ", label);
        gp_text_html(out, k->verdicts[i].evidence);
        if (k->verdicts[i].where[0]) {
            fprintf(out, "<br>Where: ");
            gp_text_html(out, k->verdicts[i].where);
        }
        fprintf(out, "<br>Advice: ");
        gp_text_html(out, k->verdicts[i].advice);
        fprintf(out, "</li>\n");
    }
    fprintf(out, "</ol>\n");
    gp_report_where_html(r, k, out);
    /* the Speed Of Light bars and the memory chart, each only when the
     * records hold some of it */
    if (gp_svg_sol_write(a, NULL) || gp_svg_memory_write(a, NULL)) {
        fputs("<div class=\"panels\">", out);
        if (gp_svg_sol_write(a, NULL)) {
            fputs("<figure class=\"sol\">", out);
            gp_svg_sol_write(a, out);
            fputs("<figcaption>Speed Of Light: Nsight Compute's SM and memory throughputs and "
                  "the units behind them; \"(study)\" marks the study's utilizations where "
                  "Nsight Compute's unit throughputs were not collected.</figcaption></figure>",
                  out);
        }
        if (gp_svg_memory_write(a, NULL)) {
            fputs("<figure class=\"mem\">", out);
            gp_svg_memory_write(a, out);
            fputs("<figcaption>Memory chart (Nsight Compute's Memory Workload Analysis): the "
                  "kernel, L1/TEX cache and shared memory, L2, device, system and peer "
                  "memory.</figcaption></figure>",
                  out);
        }
        fputs("</div>\n", out);
    }
    th = details || gp_report_has(a->row.v[GP_M_THEORETICAL_OCCUPANCY],
                                  a->row.why[GP_M_THEORETICAL_OCCUPANCY]);
    ach = details ||
          gp_report_has(a->row.v[GP_M_ACHIEVED_OCCUPANCY], a->row.why[GP_M_ACHIEVED_OCCUPANCY]);
    if (th || ach) {
        fputs("<p>Occupancy:", out);
        if (th)
            fprintf(out, " theoretical %s (limiter: %s)%s",
                    gp_fmt(&fb, a->row.v[GP_M_THEORETICAL_OCCUPANCY], "%"),
                    gp_occupancy_limiter_name(a->occ.limiter), ach ? "," : "");
        if (ach)
            fprintf(out, " achieved %s", gp_fmt(&fb, a->row.v[GP_M_ACHIEVED_OCCUPANCY], "%"));
        fputs(". ", out);
        gp_text_html(out, a->occ.advice);
        fputs("</p>\n", out);
    }
    /* the roofline's verdict, unless its counters were not collected */
    if (details || k->roof.arch_binding >= 0 || k->roof.measured_binding >= 0 ||
        (k->roof.why[0] && !gp_report_not_collected(k->roof.why))) {
        gp_roofline_describe(&k->roof, 1, roof, sizeof roof);
        fprintf(out, "<p>Roofline (%s): architectural: ", k->roof.precision);
        gp_text_html(out, roof);
        gp_roofline_describe(&k->roof, 0, roof, sizeof roof);
        fprintf(out, "; measured: ");
        gp_text_html(out, roof);
        fputs("</p>\n", out);
    }
    gp_html_table(a, details, out);
    fprintf(out, "</section>\n");
}

static const char gp_html_style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}"
    "code{font-size:12px}table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}tr.na td{color:#a33}"
    "svg{background:#fff;border:1px solid #ddd}.grid{stroke:#eee}.tick{font-size:10px;fill:#555}"
    ".axis{font-size:12px;fill:#222}.ceiling{stroke-width:2;fill:none}.ceiling.arch{stroke:#1f5fa8}"
    ".ceiling.meas{stroke:#c0392b;stroke-dasharray:6 4}.clabel{font-size:10px}"
    ".clabel.arch{fill:#1f5fa8}.clabel.meas{fill:#c0392b}.kpoint{fill:#e67e22;stroke:#333}"
    ".kpoint.na{fill:none;stroke:#999}.plabel{font-size:10px}.bar{fill:#4a90d9}"
    ".na{fill:#a33;font-size:11px}figure{display:inline-block;margin:.5em}"
    ".verdict{margin:.3em 0}.summary td:first-child{text-align:right}"
    ".demangled{color:#666;margin:0}.warning{color:#a33}"
    /* the source view (where_html.c) */
    ".where td.num{text-align:right;white-space:nowrap}.wbar{display:inline-block;height:9px;"
    "background:#e67e22}.wbar.excess{background:#8e44ad}td.code{font:12px monospace;"
    "white-space:pre}td.ln{color:#888;text-align:right}tr.srcline.data td.ln{color:#222;"
    "font-weight:bold}td.sass code{font-size:11px;white-space:nowrap}tr.gap td{color:#888}.note{color:#666}"
    /* the Speed Of Light bars and the memory chart (svg_sol.c, svg_memory.c) */
    ".panels{display:flex;flex-wrap:wrap;align-items:flex-start}.sgroup{font-size:11px;"
    "font-weight:bold;fill:#222}.sback{fill:#eef2f6}.munit{fill:#f4f7fb;stroke:#4a6d8c}"
    ".mtitle{font-size:12px;font-weight:bold;fill:#222}.mval{font-size:10px;fill:#222}"
    ".mnc{font-size:10px;fill:#999;font-style:italic}.mline{stroke:#4a6d8c;stroke-width:2}"
    ".mline.nc{stroke:#bbb;stroke-dasharray:4 3}.marrow{fill:#4a6d8c}.marrow.nc{fill:#bbb}"
    ".mkind{font-size:10px;fill:#555}tr.left td{color:#666;font-style:italic}";

/* Counts the points of each roofline into data attributes, so a headless
 * browser test can check the page rendered one point per kernel. */
static const char gp_html_script[] =
    "(function(){var svgs=document.querySelectorAll('svg.roofline');var counts=[];"
    "for(var i=0;i<svgs.length;i++){var n=svgs[i].querySelectorAll('circle.kpoint').length;"
    "svgs[i].setAttribute('data-points',String(n));counts.push(n);}"
    "document.body.setAttribute('data-roofline-points',counts.join(','));"
    "document.body.setAttribute('data-kernels',"
    "String(document.querySelectorAll('section.kernel').length));"
    "document.body.setAttribute('data-where-sections',"
    "String(document.querySelectorAll('section.where').length));"
    "document.body.setAttribute('data-where-lines',"
    "String(document.querySelectorAll('tr.srcline.data').length));"
    "document.body.setAttribute('data-mem-charts',"
    "String(document.querySelectorAll('svg.memchart').length));"
    "document.body.setAttribute('data-sol-charts',"
    "String(document.querySelectorAll('svg.solchart').length));"
    "var ml=document.querySelectorAll('g.mlink'),bare=0;"
    "for(var j=0;j<ml.length;j++)if(!ml[j].querySelector('text'))bare++;"
    "document.body.setAttribute('data-mem-links',String(ml.length));"
    "document.body.setAttribute('data-mem-links-bare',String(bare));"
    "document.body.setAttribute('data-rendered','yes');})();";

/* The page; details: every metric in each kernel's table. */
static int gp_html_page(const gp_report *r, int details, FILE *out)
{
    gp_fmtbuf fb = {.next = 0};
    char why[512], missing[512];
    static const int study[] = {GP_M_ACHIEVED_OCCUPANCY,   GP_M_THEORETICAL_OCCUPANCY,
                                GP_M_GLD_EFFICIENCY,       GP_M_GST_EFFICIENCY,
                                GP_M_SHARED_EFFICIENCY,    GP_M_WARP_EXECUTION_EFFICIENCY,
                                GP_M_WARP_NONPRED_EXECUTION_EFFICIENCY, GP_M_DRAM_UTIL,
                                GP_M_FP32_UTIL,            GP_M_RF_G};
    size_t i, drawn = 0;
    int l, timed = details || !isnan(gp_report_total_time(r)), any = 0;
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                 "<title>gpuprof report</title><style>%s</style></head>\n<body>\n"
                 "<h1>gpuprof report</h1>\n<p>%ld launches of %zu kernels",
            gp_html_style, r->launches, r->n);
    if (timed)
        fprintf(out, ", %s of kernel time", gp_fmt(&fb, gp_report_total_time(r), "s"));
    fprintf(out, ", from %zu file%s.", r->n_files, r->n_files == 1 ? "" : "s");
    gp_report_each_device(r, gp_html_device, out);
    fprintf(out, " Measured ceilings: ");
    gp_text_html(out, r->peaks.source[0] ? r->peaks.source : "none (architectural only)");
    if (gp_report_peaks_mismatch(r, why, sizeof why)) {
        fprintf(out, ".</p>\n<p class=\"warning\">Warning: ");
        gp_text_html(out, why);
    }
    fprintf(out, ".</p>\n");
    if (gp_report_missing_line(r, missing, sizeof missing))
        fprintf(out, "<p class=\"note missing\">Not collected in this run: %s. The charts, "
                     "panels and tables below leave them out; <code>gpuprof-report --details "
                     "--format html</code> lists them in each kernel's table.</p>\n",
                missing);
    gp_report_where_html_head(r, out);
    fprintf(out, "<h2>Kernels by total time</h2>\n<table class=\"summary\"><tr><th>#</th>%s"
                 "<th>launches</th><th>kernel</th><th>first verdict</th></tr>\n",
            timed ? "<th>time</th><th>share</th>" : "");
    for (i = 0; i < r->n; i++) {
        const gp_kernel_report *k = &r->kernels[i];
        fprintf(out, "<tr><td><a href=\"#k%zu\">%zu</a></td>", i + 1, i + 1);
        if (timed)
            fprintf(out, "<td>%s</td><td>%s</td>", gp_fmt(&fb, k->agg.row.v[GP_M_DURATION], "s"),
                    gp_fmt(&fb, gp_report_time_share(r, k), "%"));
        fprintf(out, "<td>%ld%s</td><td>", k->agg.launches,
                k->agg.estimated > 0 ? " (~ estimated)" : "");
        gp_html_kernel_name(r, k, out);
        fprintf(out, "</td><td>");
        gp_text_html(out, k->n_verdicts ? k->verdicts[0].title : "none");
        fprintf(out, "</td></tr>\n");
    }
    fprintf(out, "</table>\n");
    /* a roofline per level some kernel has a point on: never an empty chart */
    for (l = 0; l < GP_LEVEL_COUNT; l++)
        drawn += gp_html_roofline_drawable(r, (gp_level)l);
    if (drawn) {
        /* one scratch array of points serves every level's chart */
        gp_svg_point *pts = calloc(r->n ? r->n : 1, sizeof *pts);
        if (!pts)
            return -1;
        fprintf(out, "<h2>Roofline</h2>\n");
        for (l = 0; l < GP_LEVEL_COUNT; l++)
            if (gp_html_roofline_drawable(r, (gp_level)l))
                gp_html_roofline(r, (gp_level)l, pts, out);
        free(pts);
    } else if (r->n) {
        const char *w = r->kernels[0].roof.why;
        fputs("<p class=\"note\">No roofline: ", out);
        if (!w[0] || gp_report_not_collected(w))
            fputs("no kernel has both a floating-point rate and an arithmetic intensity in "
                  "these records (their counters were not collected)",
                  out);
        else
            gp_text_html(out, w);
        fputs(".</p>\n", out);
    }
    for (i = 0; i < sizeof study / sizeof study[0]; i++)
        any |= gp_html_any(r, study[i]);
    if (any)
        fprintf(out, "<h2>The study's metrics</h2>\n");
    for (i = 0; i < sizeof study / sizeof study[0]; i++)
        gp_html_bars(r, study[i], out);
    fprintf(out, "<h2>Kernels</h2>\n");
    for (i = 0; i < r->n; i++)
        gp_html_kernel(r, &r->kernels[i], i + 1, details, out);
    fprintf(out, "<script>%s</script>\n</body></html>\n", gp_html_script);
    return ferror(out) ? -1 : 0;
}

int gp_report_html(const gp_report *r, FILE *out)
{
    return gp_html_page(r, 0, out);
}

int gp_report_html_details(const gp_report *r, FILE *out)
{
    return gp_html_page(r, 1, out);
}
