/* gpk_steps.h - reading cache levels off a latency-versus-footprint curve.
 *
 * A dependent pointer chase over a footprint that fits a cache level shows a
 * flat latency (a plateau); once the footprint passes the level's capacity
 * the latency climbs to the next level's plateau.  gpk_steps_find() returns
 * one step per climb: the largest footprint still on the lower plateau (the
 * capacity estimate), the first footprint on the upper plateau, and the two
 * latencies.  A gradual climb (several points between plateaus) is what an
 * associative cache with a non-LRU policy or a hashed index gives. */
#ifndef GPK_STEPS_H
#define GPK_STEPS_H

typedef struct gpk_step {
    double size_below; /* last x on the lower plateau: the capacity estimate */
    double size_above; /* first x on the upper plateau */
    double lat_below;  /* median latency of the lower plateau */
    double lat_above;  /* median latency of the upper plateau */
} gpk_step;

/* x ascending (footprints), y latencies; n points.  A climb counts as a step
 * when it exceeds both rel (fraction of the lower plateau) and abs_min
 * (cycles).  Writes at most max steps; returns how many, or -1 on bad input
 * (n < 2, x not ascending, NaN).  The last plateau's median latency goes to
 * *last_lat when last_lat is not NULL. */
int gpk_steps_find(const double *x, const double *y, int n, double rel, double abs_min,
                   gpk_step *out, int max, double *last_lat);

/* For a curve that rises and saturates (latency against stride: it rises
 * until the stride reaches the line size), the first x where y reaches
 * lo + frac * (hi - lo), lo = y[0], hi = max(y).  NaN if the curve never
 * rises by more than rel of lo. */
double gpk_saturation(const double *x, const double *y, int n, double frac, double rel);

/* Splits values into two clusters (Otsu's threshold on sorted values) and
 * returns 1 with their means when the upper mean exceeds the lower by more
 * than rel; else 0 with both means set to the overall median. */
int gpk_two_clusters(const double *v, int n, double rel, double *lo_mean, double *hi_mean,
                     double *frac_hi);

/* Associativity (Wong et al.'s method): a chase of m lines spaced by a
 * stride; when the stride is a multiple of the way size (sets x line) every
 * line falls in one set, so the chase hits while m <= ways and misses
 * beyond.  For a smaller stride s the lines share way_bytes / s sets and the
 * misses begin at ways x way_bytes / s lines.  Input: ns strides ascending,
 * nl line counts ascending, lat[i * nl + k] the latency at stride i with
 * lines[k] lines.  Per stride, the lines held before misses begin are the
 * first step of gpk_steps_find(lines, lat row, rel, abs_min) (NaN: no
 * step).  ways: the value at the two largest strides when they agree;
 * way_bytes: the smallest stride from which every larger stride agrees. */
#define GPK_ASSOC_MAXS 16
typedef struct gpk_assoc {
    double ways;                        /* NaN when not read */
    double way_bytes;                   /* NaN when not read */
    double held[GPK_ASSOC_MAXS];        /* per stride: lines held before misses; NaN: none */
    char why[200];                      /* empty when ways was read */
} gpk_assoc;

/* Returns 1 with ways and way_bytes, 0 with why set, -1 on bad input. */
int gpk_assoc_find(const double *stride, int ns, const double *lines, int nl, const double *lat,
                   double rel, double abs_min, gpk_assoc *out);

/* Reads "x,y" lines from path.  A line "# series NAME" starts a series; with
 * series non-NULL only that series' points are read.  Other '#' lines and
 * lines that are not two numbers are skipped.  Returns points read (at most
 * max), or -1 if the file cannot be opened. */
int gpk_curve_read(const char *path, const char *series, double *x, double *y, int max);

#endif
