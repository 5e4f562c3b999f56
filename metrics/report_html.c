/* report_html.c - one self-contained HTML page: inline CSS, inline SVG, a small
 * inline script, nothing fetched from the network.  A roofline per memory
 * level (every kernel a point, measured and architectural ceilings labelled),
 * bar charts of the study's metrics, and a table per kernel. */
#include <math.h>
#include <string.h>

#include "format.h"
#include "report.h"

#define GP_HTML_W 640
#define GP_HTML_H 400
#define GP_HTML_L 70 /* plot margins */
#define GP_HTML_R 20
#define GP_HTML_T 20
#define GP_HTML_B 50

static void gp_html_esc(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

typedef struct {
    double x0, x1, y0, y1; /* log10 ranges */
} gp_html_axes;

static double gp_html_px(const gp_html_axes *a, double x)
{
    return GP_HTML_L + (log10(x) - a->x0) / (a->x1 - a->x0) * (GP_HTML_W - GP_HTML_L - GP_HTML_R);
}

static double gp_html_py(const gp_html_axes *a, double y)
{
    return GP_HTML_H - GP_HTML_B -
           (log10(y) - a->y0) / (a->y1 - a->y0) * (GP_HTML_H - GP_HTML_T - GP_HTML_B);
}

static void gp_html_widen(double v, double *lo, double *hi)
{
    if (isnan(v) || v <= 0 || isinf(v))
        return;
    if (log10(v) < *lo)
        *lo = log10(v);
    if (log10(v) > *hi)
        *hi = log10(v);
}

static const gp_roof *gp_html_roof(const gp_kernel_report *k, gp_level l, int arch)
{
    return arch ? &k->roof.level[l].arch : &k->roof.level[l].measured;
}

/* The ceilings of the longest kernel stand for the chart (clocks differ a
 * little between kernels; each kernel's own numbers are in its table). */
static const gp_kernel_report *gp_html_reference(const gp_report *r)
{
    size_t i;
    for (i = 0; i < r->n; i++)
        if (!isnan(r->kernels[i].roof.level[0].arch.compute) ||
            !isnan(r->kernels[i].roof.level[0].measured.compute))
            return &r->kernels[i];
    return r->n ? &r->kernels[0] : NULL;
}

static void gp_html_ceiling(FILE *out, const gp_html_axes *a, const gp_roof *f, int arch,
                            const char *level, const char *prec)
{
    double xr, xl = pow(10, a->x0), xh = pow(10, a->x1);
    const char *cls = arch ? "arch" : "meas";
    gp_fmtbuf fb = {.next = 0};
    if (isnan(f->compute) || isnan(f->bandwidth))
        return;
    xr = f->compute / f->bandwidth;
    if (xr < xl)
        xr = xl;
    if (xr > xh)
        xr = xh;
    /* bandwidth slope from the left edge to the ridge, then the flat roof */
    fprintf(out,
            "<line class=\"ceiling %s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
            "<line class=\"ceiling %s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
            cls, gp_html_px(a, xl), gp_html_py(a, xl * f->bandwidth), gp_html_px(a, xr),
            gp_html_py(a, xr * f->bandwidth), cls, gp_html_px(a, xr), gp_html_py(a, f->compute),
            gp_html_px(a, xh), gp_html_py(a, f->compute));
    fprintf(out,
            "<text class=\"clabel %s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s %s %s</text>"
            "<text class=\"clabel %s\" x=\"%.1f\" y=\"%.1f\">%s %s %s</text>\n",
            cls, gp_html_px(a, xh) - 4, gp_html_py(a, f->compute) + (arch ? -4 : 12), prec,
            gp_fmt(&fb, f->compute, "flop/s"), arch ? "(architectural)" : "(measured)", cls,
            gp_html_px(a, xl) + 4, gp_html_py(a, xl * f->bandwidth) + (arch ? -6 : 14), level,
            gp_fmt(&fb, f->bandwidth, "byte/s"), arch ? "(architectural)" : "(measured)");
}

static void gp_html_roofline(const gp_report *r, gp_level l, FILE *out)
{
    gp_html_axes a = {INFINITY, -INFINITY, INFINITY, -INFINITY};
    const gp_kernel_report *ref = gp_html_reference(r);
    size_t i;
    int d, set;
    for (i = 0; i < r->n; i++) {
        const gp_kernel_report *k = &r->kernels[i];
        gp_html_widen(k->roof.level[l].ai, &a.x0, &a.x1);
        gp_html_widen(k->roof.perf, &a.y0, &a.y1);
        for (set = 0; set < 2; set++) {
            gp_html_widen(gp_html_roof(k, l, set)->compute, &a.y0, &a.y1);
            gp_html_widen(gp_html_roof(k, l, set)->ridge, &a.x0, &a.x1);
        }
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
            "<figure><svg class=\"roofline\" data-level=\"%s\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n"
            "<title>%s roofline</title>\n",
            gp_roofline_level_name(l), GP_HTML_W, GP_HTML_H, GP_HTML_W, GP_HTML_H,
            gp_roofline_level_name(l));
    for (d = (int)a.x0; d <= (int)a.x1; d++)
        fprintf(out,
                "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
                "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">1e%d</text>\n",
                gp_html_px(&a, pow(10, d)), GP_HTML_T, gp_html_px(&a, pow(10, d)),
                GP_HTML_H - GP_HTML_B, gp_html_px(&a, pow(10, d)), GP_HTML_H - GP_HTML_B + 16, d);
    for (d = (int)a.y0; d <= (int)a.y1; d++)
        fprintf(out,
                "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
                "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n",
                GP_HTML_L, gp_html_py(&a, pow(10, d)), GP_HTML_W - GP_HTML_R,
                gp_html_py(&a, pow(10, d)), GP_HTML_L - 4, gp_html_py(&a, pow(10, d)) + 4, d);
    fprintf(out,
            "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">arithmetic intensity "
            "at %s (flop/byte)</text>\n<text class=\"axis\" transform=\"translate(14 %d) "
            "rotate(-90)\" text-anchor=\"middle\">performance (flop/s)</text>\n",
            (GP_HTML_W + GP_HTML_L) / 2, GP_HTML_H - 10, gp_roofline_level_name(l),
            GP_HTML_H / 2);
    if (ref) {
        gp_html_ceiling(out, &a, gp_html_roof(ref, l, 1), 1, gp_roofline_level_name(l),
                        ref->roof.precision);
        gp_html_ceiling(out, &a, gp_html_roof(ref, l, 0), 0, gp_roofline_level_name(l),
                        ref->roof.precision);
    }
    for (i = 0; i < r->n; i++) {
        const gp_kernel_report *k = &r->kernels[i];
        double ai = k->roof.level[l].ai, perf = k->roof.perf;
        int na = isnan(ai) || isnan(perf) || ai <= 0 || perf <= 0;
        double x = na ? GP_HTML_L + 8 : gp_html_px(&a, ai);
        double y = na ? GP_HTML_H - GP_HTML_B - 8 : gp_html_py(&a, perf);
        gp_fmtbuf fb = {.next = 0};
        fprintf(out,
                "<circle class=\"kpoint%s\" data-rank=\"%zu\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\">"
                "<title>#%zu ",
                na ? " na" : "", i + 1, x, y, i + 1);
        gp_html_esc(out, k->agg.kernel);
        if (na)
            fprintf(out, ": not on the roofline (%s)",
                    perf == 0 ? "no floating-point work" : "intensity or rate n/a");
        else
            fprintf(out, ": %s at %s flop/byte", gp_fmt(&fb, perf, "flop/s"),
                    gp_fmt(&fb, ai, ""));
        fprintf(out, "</title></circle><text class=\"plabel\" x=\"%.1f\" y=\"%.1f\">%zu</text>\n",
                x + 8, y - 6, i + 1);
    }
    fprintf(out, "</svg><figcaption>%s roofline: solid lines are architectural ceilings "
                 "(per-cycle peaks x clock during the kernel), dashed lines measured ceilings "
                 "(peaks file); numbers are kernel ranks; points at the lower left have no "
                 "floating-point work or lack data.</figcaption></figure>\n",
            gp_roofline_level_name(l));
}

/* One bar chart per study metric: a bar per kernel, "n/a" where missing. */
static void gp_html_bars(const gp_report *r, int m, FILE *out)
{
    const gp_derived_def *d = &gp_derived_defs[m];
    int row_h = 18, h = (int)r->n * row_h + 30, w = 420;
    double max = 100;
    size_t i;
    for (i = 0; i < r->n; i++)
        if (!isnan(r->kernels[i].agg.row.v[m]) && r->kernels[i].agg.row.v[m] > max)
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
        if (isnan(v)) {
            fprintf(out, "<text class=\"na\" x=\"34\" y=\"%d\">n/a<title>", y + 12);
            gp_html_esc(out, r->kernels[i].agg.row.why[m]);
            fprintf(out, "</title></text>\n");
        } else {
            double bw = v <= 0 ? 0 : (v / max) * (w - 120);
            fprintf(out,
                    "<rect class=\"bar\" x=\"34\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>"
                    "<text class=\"tick\" x=\"%.1f\" y=\"%d\">%s</text>\n",
                    y, bw, row_h - 4, 38 + bw, y + 12, gp_fmt(&fb, v, d->unit));
        }
    }
    fprintf(out, "</svg></figure>\n");
}

static void gp_html_kernel(const gp_report *r, const gp_kernel_report *k, size_t rank, FILE *out)
{
    const gp_kernel_agg *a = &k->agg;
    gp_fmtbuf fb = {.next = 0};
    char roof[256];
    size_t i;
    fprintf(out, "<section class=\"kernel\" id=\"k%zu\"><h3>#%zu <code>", rank, rank);
    gp_html_esc(out, a->kernel);
    fprintf(out, "</code></h3>\n<p>%s of kernel time, %s in %ld launch%s; main launch %ld "
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
        gp_html_esc(out, k->verdicts[i].title);
        fprintf(out, "</b> <code>%s</code><br>Evidence: ", label);
        gp_html_esc(out, k->verdicts[i].evidence);
        fprintf(out, "<br>Advice: ");
        gp_html_esc(out, k->verdicts[i].advice);
        fprintf(out, "</li>\n");
    }
    fprintf(out, "</ol>\n<p>Occupancy: theoretical %s (limiter: %s), achieved %s. ",
            gp_fmt(&fb, a->row.v[GP_M_THEORETICAL_OCCUPANCY], "%"),
            gp_occupancy_limiter_name(a->occ.limiter),
            gp_fmt(&fb, a->row.v[GP_M_ACHIEVED_OCCUPANCY], "%"));
    gp_html_esc(out, a->occ.advice);
    gp_roofline_describe(&k->roof, 1, roof, sizeof roof);
    fprintf(out, "</p>\n<p>Roofline (%s): architectural: ", k->roof.precision);
    gp_html_esc(out, roof);
    gp_roofline_describe(&k->roof, 0, roof, sizeof roof);
    fprintf(out, "; measured: ");
    gp_html_esc(out, roof);
    fprintf(out, "</p>\n<table><tr><th>class</th><th>metric</th><th>value</th><th>why "
                 "n/a</th></tr>\n");
    for (i = 0; i < GP_DERIVED_COUNT; i++) {
        char val[48];
        gp_format_value(a->row.v[i], gp_derived_defs[i].unit, val, sizeof val);
        fprintf(out, "<tr%s><td>%s</td><td title=\"", isnan(a->row.v[i]) ? " class=\"na\"" : "",
                gp_derived_defs[i].cls);
        gp_html_esc(out, gp_derived_defs[i].description);
        fprintf(out, "\">%s</td><td>%s</td><td>", gp_derived_defs[i].name, val);
        if (isnan(a->row.v[i]))
            gp_html_esc(out, a->row.why[i]);
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
    ".verdict{margin:.3em 0}.summary td:first-child{text-align:right}";

/* Counts the points of each roofline into data attributes, so a headless
 * browser test can check the page rendered one point per kernel. */
static const char gp_html_script[] =
    "(function(){var svgs=document.querySelectorAll('svg.roofline');var counts=[];"
    "for(var i=0;i<svgs.length;i++){var n=svgs[i].querySelectorAll('circle.kpoint').length;"
    "svgs[i].setAttribute('data-points',String(n));counts.push(n);}"
    "document.body.setAttribute('data-roofline-points',counts.join(','));"
    "document.body.setAttribute('data-kernels',"
    "String(document.querySelectorAll('section.kernel').length));"
    "document.body.setAttribute('data-rendered','yes');})();";

int gp_report_html(const gp_report *r, FILE *out)
{
    gp_fmtbuf fb = {.next = 0};
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
            gp_html_style, r->launches, r->n, gp_fmt(&fb, r->n ? r->total_time : NAN, "s"),
            r->n_files, r->n_files == 1 ? "" : "s");
    for (i = 0; i < r->n_devices; i++) {
        fprintf(out, " Device %d: ", r->devices[i].ordinal);
        gp_html_esc(out, r->devices[i].name);
        fprintf(out, " (%d SMs).", r->devices[i].sm_count);
    }
    fprintf(out, " Measured ceilings: ");
    gp_html_esc(out, r->peaks.source[0] ? r->peaks.source : "none (architectural only)");
    fprintf(out, ".</p>\n<h2>Kernels by total time</h2>\n<table class=\"summary\"><tr><th>#</th>"
                 "<th>time</th><th>share</th><th>launches</th><th>kernel</th><th>first "
                 "verdict</th></tr>\n");
    for (i = 0; i < r->n; i++) {
        const gp_kernel_report *k = &r->kernels[i];
        fprintf(out, "<tr><td><a href=\"#k%zu\">%zu</a></td><td>%s</td><td>%s</td><td>%ld</td>"
                     "<td><code>",
                i + 1, i + 1, gp_fmt(&fb, k->agg.row.v[GP_M_DURATION], "s"),
                gp_fmt(&fb, gp_report_time_share(r, k), "%"), k->agg.launches);
        gp_html_esc(out, k->agg.kernel);
        fprintf(out, "</code></td><td>");
        gp_html_esc(out, k->n_verdicts ? k->verdicts[0].title : "none");
        fprintf(out, "</td></tr>\n");
    }
    fprintf(out, "</table>\n<h2>Roofline</h2>\n");
    for (l = 0; l < GP_LEVEL_COUNT; l++)
        gp_html_roofline(r, (gp_level)l, out);
    fprintf(out, "<h2>The study's metrics</h2>\n");
    for (i = 0; i < sizeof study / sizeof study[0]; i++)
        gp_html_bars(r, study[i], out);
    fprintf(out, "<h2>Kernels</h2>\n");
    for (i = 0; i < r->n; i++)
        gp_html_kernel(r, &r->kernels[i], i + 1, out);
    fprintf(out, "<script>%s</script>\n</body></html>\n", gp_html_script);
    return ferror(out) ? -1 : 0;
}
