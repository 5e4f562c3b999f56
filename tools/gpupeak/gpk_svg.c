/* gpk_svg.c - see gpk_svg.h. */
#include "gpk_svg.h"

#include <math.h>

#include "util/textio.h"

static const char *gpk_svg_colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                       "#9467bd", "#8c564b", "#e377c2", "#17becf"};

static void gpk_svg_size_label(char *buf, size_t n, double v)
{
    if (v >= 1073741824.0)
        snprintf(buf, n, "%gG", v / 1073741824.0);
    else if (v >= 1048576.0)
        snprintf(buf, n, "%gM", v / 1048576.0);
    else if (v >= 1024.0)
        snprintf(buf, n, "%gK", v / 1024.0);
    else
        snprintf(buf, n, "%g", v);
}

/* The document, a white page and the title at x. */
static void gpk_svg_begin(FILE *f, double w, double h, double x, const char *title)
{
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n", w, h);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    fprintf(f, "<text x=\"%g\" y=\"24\" font-size=\"16\">", x);
    gp_text_html(f, title);
    fprintf(f, "</text>\n");
}

int gpk_svg_curves(FILE *f, const char *title, const char *xlabel, const char *ylabel,
                   const gpk_series *s, int ns)
{
    const double W = 900, H = 520, L = 80, R = 180, T = 40, B = 60;
    double xmin = INFINITY, xmax = -INFINITY, ymax = 0;
    int any = 0;
    for (int k = 0; k < ns; k++)
        for (int i = 0; i < s[k].n; i++)
            if (isfinite(s[k].y[i]) && s[k].x[i] > 0) {
                xmin = fmin(xmin, log2(s[k].x[i]));
                xmax = fmax(xmax, log2(s[k].x[i]));
                ymax = fmax(ymax, s[k].y[i]);
                any = 1;
            }
    if (!any)
        return -1;
    xmin = floor(xmin);
    xmax = ceil(xmax);
    if (xmax <= xmin)
        xmax = xmin + 1;
    if (ymax <= 0)
        ymax = 1;
    ymax *= 1.08;
    const double pw = W - L - R, ph = H - T - B;
#define GPK_PX(lx) (L + ((lx)-xmin) / (xmax - xmin) * pw)
#define GPK_PY(v) (T + ph - (v) / ymax * ph)
    gpk_svg_begin(f, W, H, L, title);
    fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" "
               "stroke=\"black\"/>\n", L, T, pw, ph);
    for (double lx = xmin; lx <= xmax + 1e-9; lx += 1) {
        char lab[32];
        gpk_svg_size_label(lab, sizeof lab, pow(2, lx));
        fprintf(f, "<line x1=\"%.1f\" y1=\"%g\" x2=\"%.1f\" y2=\"%g\" stroke=\"#ddd\"/>",
                GPK_PX(lx), T, GPK_PX(lx), T + ph);
        if (((int)(lx - xmin)) % (xmax - xmin > 16 ? 2 : 1) == 0)
            fprintf(f, "<text x=\"%.1f\" y=\"%g\" text-anchor=\"middle\">%s</text>", GPK_PX(lx),
                    T + ph + 16, lab);
        fputc('\n', f);
    }
    double step = pow(10, floor(log10(ymax / 5)));
    if (ymax / step > 10)
        step *= 2;
    if (ymax / step > 10)
        step *= 2.5;
    for (double v = 0; v <= ymax; v += step)
        fprintf(f, "<line x1=\"%g\" y1=\"%.1f\" x2=\"%g\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                   "<text x=\"%g\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
                L, GPK_PY(v), L + pw, GPK_PY(v), L - 6, GPK_PY(v) + 4, v);
    fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">", L + pw / 2, H - 18);
    gp_text_html(f, xlabel);
    fprintf(f, "</text>\n<text transform=\"translate(20,%g) rotate(-90)\" "
               "text-anchor=\"middle\">", T + ph / 2);
    gp_text_html(f, ylabel);
    fprintf(f, "</text>\n");
    for (int k = 0; k < ns; k++) {
        const char *c = gpk_svg_colors[k % 8];
        /* past the eighth series the colours repeat: dashed lines then */
        const char *dash = k >= 8 ? " stroke-dasharray=\"6,3\"" : "";
        int open = 0;
        for (int i = 0; i < s[k].n; i++) {
            int ok = isfinite(s[k].y[i]) && s[k].x[i] > 0;
            if (ok && !open) {
                fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s "
                           "points=\"", c, dash);
                open = 1;
            }
            if (ok)
                fprintf(f, "%.1f,%.1f ", GPK_PX(log2(s[k].x[i])), GPK_PY(s[k].y[i]));
            if (!ok && open) {
                fprintf(f, "\"/>\n");
                open = 0;
            }
        }
        if (open)
            fprintf(f, "\"/>\n");
        for (int i = 0; i < s[k].n; i++)
            if (isfinite(s[k].y[i]) && s[k].x[i] > 0)
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>\n",
                        GPK_PX(log2(s[k].x[i])), GPK_PY(s[k].y[i]), c);
        fprintf(f, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\" "
                   "stroke-width=\"4\"%s/><text x=\"%g\" y=\"%g\">",
                L + pw + 12, T + 14 + 20.0 * k, L + pw + 26, T + 14 + 20.0 * k, c, dash,
                L + pw + 32, T + 17 + 20.0 * k);
        gp_text_html(f, s[k].name);
        fprintf(f, "</text>\n");
    }
#undef GPK_PX
#undef GPK_PY
    fprintf(f, "</svg>\n");
    return ferror(f) ? -1 : 0;
}

/* blue (low) -> yellow (high), a simple two-segment ramp through teal */
static void gpk_svg_ramp(double t, int *r, int *g, int *b)
{
    t = fmin(1, fmax(0, t));
    if (t < 0.5) {
        double u = t / 0.5;
        *r = (int)(68 + u * (33 - 68));
        *g = (int)(1 + u * (145 - 1));
        *b = (int)(84 + u * (140 - 84));
    } else {
        double u = (t - 0.5) / 0.5;
        *r = (int)(33 + u * (253 - 33));
        *g = (int)(145 + u * (231 - 145));
        *b = (int)(140 + u * (37 - 140));
    }
}

int gpk_svg_heatmap(FILE *f, const char *title, const char *unit, const double *m, int n)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n * n; i++)
        if (isfinite(m[i])) {
            lo = fmin(lo, m[i]);
            hi = fmax(hi, m[i]);
        }
    if (!isfinite(lo))
        return -1;
    const double cell = n > 100 ? 5 : (n > 40 ? 8 : 16), L = 60, T = 50;
    const double W = L + n * cell + 140, H = T + n * cell + 50;
    gpk_svg_begin(f, W, H, L, title);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
            double v = m[i * n + j];
            int r = 200, g = 200, b = 200;
            if (isfinite(v))
                gpk_svg_ramp(hi > lo ? (v - lo) / (hi - lo) : 0.5, &r, &g, &b);
            fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" "
                       "fill=\"rgb(%d,%d,%d)\"/>", L + j * cell, T + i * cell, cell, cell, r, g, b);
        }
        fputc('\n', f);
    }
    for (int i = 0; i < n; i += (n > 40 ? 16 : 4)) {
        fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"end\" font-size=\"10\">%d</text>",
                L - 4, T + i * cell + cell, i);
        fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\" font-size=\"10\">%d</text>\n",
                L + i * cell + cell / 2, T + n * cell + 14, i);
    }
    fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\">SM</text>\n", L + n * cell / 2,
            T + n * cell + 32);
    for (int k = 0; k <= 10; k++) {
        int r, g, b;
        gpk_svg_ramp(k / 10.0, &r, &g, &b);
        fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"20\" height=\"12\" fill=\"rgb(%d,%d,%d)\"/>",
                L + n * cell + 20, T + (10 - k) * 12.0, r, g, b);
    }
    fprintf(f, "\n<text x=\"%g\" y=\"%g\">%.4g ", L + n * cell + 46, T + 10, hi);
    gp_text_html(f, unit);
    fprintf(f, "</text><text x=\"%g\" y=\"%g\">%.4g ", L + n * cell + 46, T + 130, lo);
    gp_text_html(f, unit);
    fprintf(f, "</text>\n</svg>\n");
    return ferror(f) ? -1 : 0;
}
