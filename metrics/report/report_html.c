/* report_html.c - one self-contained HTML page: inline CSS, inline SVG, a small
 * inline script, nothing fetched from the network.  A roofline per memory
 * level (every kernel a point, measured and architectural ceilings labelled),
 * bar charts of the study's metrics, and a table per kernel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/catalog/format.h"
#include "metrics/report/report.h"
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

/* One bar chart per study metric: a bar per kernel, "n/a" where missing. */
static void gp_html_bars(const gp_report *r, int m, FILE *out)
{
    const gp_derived_def *d = &gp_derived_defs[m];
    int row_h = 18, h = (int)r->n * row_h + 30, w = 420;
    double max = 100;
    size_t i;
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

static void gp_html_kernel(const gp_report *r, const gp_kernel_report *k, size_t rank, FILE *out)
{
    const gp_kernel_agg *a = &k->agg;
    gp_fmtbuf fb = {.next = 0};
    char roof[256];
    size_t i;
    fprintf(out, "<section class=\"kernel\" id=\"k%zu\"><h3>#%zu ", rank, rank);
    gp_html_kernel_name(r, k, out);
    fprintf(out, "</h3>\n<p class=\"demangled\"><code>");
    gp_text_html(out, a->kernel);
    fprintf(out,
            "</code></p>\n<p>%s of kernel time, %s in %ld launch%s; main launch %ld "
            "blocks &times; %ld threads, %ld registers/thread, %ld bytes shared/block.</p>\n",
            gp_fmt(&fb, gp_report_time_share(r, k), "%"), gp_fmt(&fb, a->row.v[GP_M_DURATION], "s"),
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
    fprintf(out, "<p>Occupancy: theoretical %s (limiter: %s), achieved %s. ",
            gp_fmt(&fb, a->row.v[GP_M_THEORETICAL_OCCUPANCY], "%"),
            gp_occupancy_limiter_name(a->occ.limiter),
            gp_fmt(&fb, a->row.v[GP_M_ACHIEVED_OCCUPANCY], "%"));
    gp_text_html(out, a->occ.advice);
    gp_roofline_describe(&k->roof, 1, roof, sizeof roof);
    fprintf(out, "</p>\n<p>Roofline (%s): architectural: ", k->roof.precision);
    gp_text_html(out, roof);
    gp_roofline_describe(&k->roof, 0, roof, sizeof roof);
    fprintf(out, "; measured: ");
    gp_text_html(out, roof);
    fprintf(out, "</p>\n<table><tr><th>class</th><th>metric</th><th>value</th><th>why "
                 "n/a</th></tr>\n");
    for (i = 0; i < GP_DERIVED_COUNT; i++) {
        char val[48];
        gp_format_value(a->row.v[i], gp_derived_defs[i].unit, val, sizeof val);
        fprintf(out, "<tr%s><td>%s</td><td title=\"", isnan(a->row.v[i]) ? " class=\"na\"" : "",
                gp_derived_defs[i].cls);
        gp_text_html(out, gp_derived_defs[i].description);
        fprintf(out, "\">%s</td><td>%s</td><td>", gp_derived_defs[i].name, val);
        if (isnan(a->row.v[i]))
            gp_text_html(out, a->row.why[i]);
        fprintf(out, "</td></tr>\n");
    }
    fprintf(out, "</table></section>\n");
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
    "font-weight:bold}td.sass code{font-size:11px;white-space:nowrap}tr.gap td{color:#888}.note{color:#666}";

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
    "document.body.setAttribute('data-rendered','yes');})();";

int gp_report_html(const gp_report *r, FILE *out)
{
    gp_fmtbuf fb = {.next = 0};
    char why[512];
    static const int study[] = {GP_M_ACHIEVED_OCCUPANCY,   GP_M_THEORETICAL_OCCUPANCY,
                                GP_M_GLD_EFFICIENCY,       GP_M_GST_EFFICIENCY,
                                GP_M_SHARED_EFFICIENCY,    GP_M_WARP_EXECUTION_EFFICIENCY,
                                GP_M_WARP_NONPRED_EXECUTION_EFFICIENCY, GP_M_DRAM_UTIL,
                                GP_M_FP32_UTIL,            GP_M_RF_G};
    size_t i;
    int l;
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                 "<title>gpuprof report</title><style>%s</style></head>\n<body>\n"
                 "<h1>gpuprof report</h1>\n<p>%ld launches of %zu kernels, %s of kernel time, "
                 "from %zu file%s.",
            gp_html_style, r->launches, r->n, gp_fmt(&fb, gp_report_total_time(r), "s"), r->n_files,
            r->n_files == 1 ? "" : "s");
    gp_report_each_device(r, gp_html_device, out);
    fprintf(out, " Measured ceilings: ");
    gp_text_html(out, r->peaks.source[0] ? r->peaks.source : "none (architectural only)");
    if (gp_report_peaks_mismatch(r, why, sizeof why)) {
        fprintf(out, ".</p>\n<p class=\"warning\">Warning: ");
        gp_text_html(out, why);
    }
    fprintf(out, ".</p>\n");
    gp_report_where_html_head(r, out);
    fprintf(out, "<h2>Kernels by total time</h2>\n<table class=\"summary\"><tr><th>#</th>"
                 "<th>time</th><th>share</th><th>launches</th><th>kernel</th><th>first "
                 "verdict</th></tr>\n");
    for (i = 0; i < r->n; i++) {
        const gp_kernel_report *k = &r->kernels[i];
        fprintf(out,
                "<tr><td><a href=\"#k%zu\">%zu</a></td><td>%s</td><td>%s</td><td>%ld%s</td>"
                "<td>",
                i + 1, i + 1, gp_fmt(&fb, k->agg.row.v[GP_M_DURATION], "s"),
                gp_fmt(&fb, gp_report_time_share(r, k), "%"), k->agg.launches,
                k->agg.estimated > 0 ? " (~ estimated)" : "");
        gp_html_kernel_name(r, k, out);
        fprintf(out, "</td><td>");
        gp_text_html(out, k->n_verdicts ? k->verdicts[0].title : "none");
        fprintf(out, "</td></tr>\n");
    }
    fprintf(out, "</table>\n<h2>Roofline</h2>\n");
    {
        /* one scratch array of points serves every level's chart */
        gp_svg_point *pts = calloc(r->n ? r->n : 1, sizeof *pts);
        if (!pts)
            return -1;
        for (l = 0; l < GP_LEVEL_COUNT; l++)
            gp_html_roofline(r, (gp_level)l, pts, out);
        free(pts);
    }
    fprintf(out, "<h2>The study's metrics</h2>\n");
    for (i = 0; i < sizeof study / sizeof study[0]; i++)
        gp_html_bars(r, study[i], out);
    fprintf(out, "<h2>Kernels</h2>\n");
    for (i = 0; i < r->n; i++)
        gp_html_kernel(r, &r->kernels[i], i + 1, out);
    fprintf(out, "<script>%s</script>\n</body></html>\n", gp_html_script);
    return ferror(out) ? -1 : 0;
}
