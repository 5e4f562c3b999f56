/* svg_roofline.h - one log-log roofline chart as inline SVG, shared by the
 * per-report page (report_html.c, one chart per memory level) and the suite
 * page of gpuprof-characterize (one DRAM chart of every kernel), so the axes,
 * grid, ceilings and points are drawn by one piece of code.  The caller picks
 * the points and the reference ceilings; this draws them. */
#ifndef GP_SVG_ROOFLINE_H
#define GP_SVG_ROOFLINE_H

#include <stddef.h>
#include <stdio.h>

/* One set of ceilings: a flat compute roof and a bandwidth slope.  Either
 * NaN: the set is not drawn (e.g. no peaks file for the measured set). */
typedef struct {
    double compute;   /* flop/s */
    double bandwidth; /* byte/s of the chart's level */
} gp_svg_ceiling;

/* One kernel.  ai or perf NaN, <= 0 or infinite: the point is parked at the
 * lower left and its tooltip says why, so every kernel still has a point. */
typedef struct {
    double ai;         /* x: flop/byte at the chart's level */
    double perf;       /* y: achieved flop/s */
    size_t num;        /* printed beside the point and in its tooltip: "#num" */
    const char *group; /* tooltip prefix (the program), or NULL */
    const char *name;  /* the kernel, escaped here */
    const char *cls;   /* extra CSS class of the circle (a colour), or NULL */
} gp_svg_point;

typedef struct {
    const char *level;     /* "DRAM", "L2", "L1": data-level and the labels */
    const char *title;     /* the chart's <title> */
    const char *precision; /* names the compute roof ("FP32"), may be NULL */
    const char *num_attr;  /* data-<num_attr>="num" on each circle, for tests/scripts */
    gp_svg_ceiling arch, measured;
    int width, height;     /* px; the margins are fixed */
} gp_svg_roofline;

/* Writes <svg class="roofline" data-level=...> ... </svg> with one
 * circle.kpoint per point; the page supplies the CSS (classes grid, tick,
 * axis, ceiling arch/meas, clabel, kpoint, na, plabel). */
void gp_svg_roofline_write(const gp_svg_roofline *c, const gp_svg_point *pts, size_t n,
                           FILE *out);

#endif
