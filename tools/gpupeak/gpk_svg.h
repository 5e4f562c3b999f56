/* gpk_svg.h - dependency-free SVG plots for gpupeak: latency curves on a
 * log2 x axis, and a heatmap of a square matrix.  NaN points are left out
 * (a gap in a line, an empty grey cell), never drawn as 0. */
#ifndef GPK_SVG_H
#define GPK_SVG_H

#include <stdio.h>

typedef struct gpk_series {
    const char *name;
    const double *x, *y;
    int n;
} gpk_series;

/* Line plot: x on a log2 axis (x > 0), y linear from 0.  Returns 0, or -1 on
 * a write error or when no series has a finite point. */
int gpk_svg_curves(FILE *f, const char *title, const char *xlabel, const char *ylabel,
                   const gpk_series *s, int ns);

/* Heatmap of an n x n row-major matrix; colour from min to max of the finite
 * cells; a legend gives the scale in unit. */
int gpk_svg_heatmap(FILE *f, const char *title, const char *unit, const double *m, int n);

#endif
