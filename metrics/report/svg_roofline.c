/* svg_roofline.c - the roofline chart of svg_roofline.h: log10 axes whose
 * decades cover the points and the ceilings with a decade to spare, a grid
 * line per decade, each ceiling set as a slope up to its ridge then a flat
 * roof (labelled at both ends), and a numbered circle per point. */
#include <math.h>

#include "metrics/catalog/format.h"
#include "metrics/report/svg_roofline.h"
#include "util/textio.h"

#define GP_SVG_L 70 /* plot margins: room for tick labels and axis titles */
#define GP_SVG_R 20
#define GP_SVG_T 20
#define GP_SVG_B 50

/* The plot: the chart's size and the log10 ranges of both axes. */
typedef struct {
    int w, h;
    double x0, x1, y0, y1;
} gp_svg_axes;

/* Positions from log10 values: a decade's line is placed from its exponent,
 * never through pow(10, d), which is 0 or infinite at the ends of a
 * double's range. */
static double gp_svg_px(const gp_svg_axes *a, double lx)
{
    return GP_SVG_L + (lx - a->x0) / (a->x1 - a->x0) * (a->w - GP_SVG_L - GP_SVG_R);
}

static double gp_svg_py(const gp_svg_axes *a, double ly)
{
    return a->h - GP_SVG_B - (ly - a->y0) / (a->y1 - a->y0) * (a->h - GP_SVG_T - GP_SVG_B);
}

/* A value a log axis can show: positive and finite. */
static int gp_svg_loggable(double v)
{
    return isfinite(v) && v > 0;
}

/* Stretches [lo, hi] (log10) to take v; values a log axis cannot show are
 * left out rather than breaking the range. */
static void gp_svg_widen(double v, double *lo, double *hi)
{
    if (!gp_svg_loggable(v))
        return;
    if (log10(v) < *lo)
        *lo = log10(v);
    if (log10(v) > *hi)
        *hi = log10(v);
}

static int gp_svg_off_chart(const gp_svg_point *p)
{
    return !gp_svg_loggable(p->ai) || !gp_svg_loggable(p->perf);
}

/* Decades of the axes, kept within a double's range of exponents so that
 * every position written is a finite number. */
#define GP_SVG_MAX_DECADE 300

static double gp_svg_clamp_decade(double d)
{
    return d < -GP_SVG_MAX_DECADE  ? -GP_SVG_MAX_DECADE
           : d > GP_SVG_MAX_DECADE ? GP_SVG_MAX_DECADE
                                   : d;
}

static void gp_svg_axes_fit(gp_svg_axes *a, const gp_svg_roofline *c, const gp_svg_point *pts,
                            size_t n)
{
    const gp_svg_ceiling *set[2] = {&c->arch, &c->measured};
    size_t i;
    a->x0 = a->y0 = INFINITY;
    a->x1 = a->y1 = -INFINITY;
    for (i = 0; i < n; i++) {
        gp_svg_widen(pts[i].ai, &a->x0, &a->x1);
        gp_svg_widen(pts[i].perf, &a->y0, &a->y1);
    }
    for (i = 0; i < 2; i++) {
        if (!gp_svg_loggable(set[i]->compute) || !gp_svg_loggable(set[i]->bandwidth))
            continue;
        gp_svg_widen(set[i]->compute, &a->y0, &a->y1);
        gp_svg_widen(set[i]->compute / set[i]->bandwidth, &a->x0, &a->x1); /* the ridge */
    }
    /* nothing to show: a typical GPU's range, so the empty chart still reads */
    if (isinf(a->x0)) {
        a->x0 = -2;
        a->x1 = 3;
    }
    if (isinf(a->y0)) {
        a->y0 = 9;
        a->y1 = 14;
    }
    a->x0 = gp_svg_clamp_decade(floor(a->x0) - 1);
    a->x1 = gp_svg_clamp_decade(ceil(a->x1) + 1);
    a->y0 = gp_svg_clamp_decade(floor(a->y0) - 1);
    a->y1 = gp_svg_clamp_decade(ceil(a->y1) + 1);
}

static void gp_svg_grid(FILE *out, const gp_svg_axes *a, const char *level)
{
    int d;
    for (d = (int)a->x0; d <= (int)a->x1; d++)
        fprintf(out,
                "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
                "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">1e%d</text>\n",
                gp_svg_px(a, d), GP_SVG_T, gp_svg_px(a, d), a->h - GP_SVG_B, gp_svg_px(a, d),
                a->h - GP_SVG_B + 16, d);
    for (d = (int)a->y0; d <= (int)a->y1; d++)
        fprintf(out,
                "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
                "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">1e%d</text>\n",
                GP_SVG_L, gp_svg_py(a, d), a->w - GP_SVG_R, gp_svg_py(a, d), GP_SVG_L - 4,
                gp_svg_py(a, d) + 4, d);
    fprintf(out,
            "<text class=\"axis\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">arithmetic intensity "
            "at %s (flop/byte)</text>\n<text class=\"axis\" transform=\"translate(14 %d) "
            "rotate(-90)\" text-anchor=\"middle\">performance (flop/s)</text>\n",
            (a->w + GP_SVG_L) / 2, a->h - 10, level, a->h / 2);
}

/* The labels of the two sets sit on opposite sides of their line (arch
 * above, measured below) so they do not overprint when the roofs are close. */
static void gp_svg_ceiling_draw(FILE *out, const gp_svg_axes *a, const gp_svg_ceiling *f,
                                int arch, const char *level, const char *prec)
{
    const char *cls = arch ? "arch" : "meas", *set = arch ? "(architectural)" : "(measured)";
    gp_fmtbuf fb = {.next = 0};
    double lc, lb, lr;
    if (!gp_svg_loggable(f->compute) || !gp_svg_loggable(f->bandwidth))
        return;
    /* in log10: the slope is y = x + lb, the roof y = lc, meeting at the ridge */
    lc = log10(f->compute);
    lb = log10(f->bandwidth);
    lr = fmin(fmax(lc - lb, a->x0), a->x1);
    /* bandwidth slope from the left edge to the ridge, then the flat roof */
    fprintf(out,
            "<line class=\"ceiling %s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
            "<line class=\"ceiling %s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
            cls, gp_svg_px(a, a->x0), gp_svg_py(a, a->x0 + lb), gp_svg_px(a, lr),
            gp_svg_py(a, lr + lb), cls, gp_svg_px(a, lr), gp_svg_py(a, lc), gp_svg_px(a, a->x1),
            gp_svg_py(a, lc));
    fprintf(out,
            "<text class=\"clabel %s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s %s %s</text>"
            "<text class=\"clabel %s\" x=\"%.1f\" y=\"%.1f\">%s %s %s</text>\n",
            cls, gp_svg_px(a, a->x1) - 4, gp_svg_py(a, lc) + (arch ? -4 : 12), prec ? prec : "",
            gp_fmt(&fb, f->compute, "flop/s"), set, cls, gp_svg_px(a, a->x0) + 4,
            gp_svg_py(a, a->x0 + lb) + (arch ? -6 : 14), level, gp_fmt(&fb, f->bandwidth, "byte/s"),
            set);
}

static void gp_svg_point_draw(FILE *out, const gp_svg_axes *a, const gp_svg_point *p,
                              const char *num_attr)
{
    int na = gp_svg_off_chart(p);
    double x = na ? GP_SVG_L + 8 : gp_svg_px(a, log10(p->ai));
    double y = na ? a->h - GP_SVG_B - 8 : gp_svg_py(a, log10(p->perf));
    gp_fmtbuf fb = {.next = 0};
    fprintf(out,
            "<circle class=\"kpoint%s%s%s\" data-%s=\"%zu\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\">"
            "<title>#%zu ",
            p->cls ? " " : "", p->cls ? p->cls : "", na ? " na" : "", num_attr, p->num, x, y,
            p->num);
    if (p->group) {
        gp_text_html(out, p->group);
        fputs(": ", out);
    }
    gp_text_html(out, p->name);
    if (na)
        fprintf(out, ": not on the roofline (%s)",
                p->perf == 0 ? "no floating-point work" : "intensity or rate n/a");
    else
        fprintf(out, ": %s at %s flop/byte", gp_fmt(&fb, p->perf, "flop/s"),
                gp_fmt(&fb, p->ai, ""));
    fprintf(out, "</title></circle><text class=\"plabel\" x=\"%.1f\" y=\"%.1f\">%zu</text>\n",
            x + 8, y - 6, p->num);
}

void gp_svg_roofline_write(const gp_svg_roofline *c, const gp_svg_point *pts, size_t n,
                           FILE *out)
{
    gp_svg_axes a = {.w = c->width, .h = c->height};
    size_t i;
    gp_svg_axes_fit(&a, c, pts, n);
    fprintf(out,
            "<svg class=\"roofline\" data-level=\"%s\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\">\n<title>",
            c->level, a.w, a.h, a.w, a.h);
    gp_text_html(out, c->title);
    fputs("</title>\n", out);
    gp_svg_grid(out, &a, c->level);
    /* architectural first, so the measured (dashed) set is drawn on top */
    gp_svg_ceiling_draw(out, &a, &c->arch, 1, c->level, c->precision);
    gp_svg_ceiling_draw(out, &a, &c->measured, 0, c->level, c->precision);
    for (i = 0; i < n; i++)
        gp_svg_point_draw(out, &a, &pts[i], c->num_attr);
    fputs("</svg>", out);
}
