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
 * lines[k] lines; a row may end early (NaN from some k on: those lines were
 * not measured, e.g. past the 64 KB of a __constant__ array), but needs 2
 * points.  Per stride, the lines held before misses begin are the first
 * step of gpk_steps_find(lines, lat row, rel, abs_min) (NaN: no step).
 * A row counts (is resolved) when it shows the step or was measured to the
 * last line count; a shortened row without the step says only that more
 * than its lines are held, and is left out, unless it tried 2 lines more
 * than the ways read from the others (then no fixed set exists).
 * ways: the value at the two largest resolved strides when they agree;
 * way_bytes: the smallest resolved stride from which every larger resolved
 * stride agrees, provided a smaller resolved stride held more lines (when
 * every stride agrees, a fully associative cache and a hashed index cannot
 * be told apart: not read). */
#define GPK_ASSOC_MAXS 16
typedef struct gpk_assoc {
    double ways;                        /* NaN when not read */
    double way_bytes;                   /* NaN when not read */
    double held[GPK_ASSOC_MAXS];        /* per stride: lines held before misses; NaN: none */
    double tried[GPK_ASSOC_MAXS];       /* per stride: the most lines measured */
    int resolved[GPK_ASSOC_MAXS];       /* per stride: 1 when the row counts (above) */
    double lat_hit, lat_miss;           /* the plateaus below and above the climb at the
                                         * largest resolved stride (NaN without one) */
    char why[240];                      /* empty when ways was read */
} gpk_assoc;

/* Returns 1 with ways and way_bytes, 0 with why set, -1 on bad input. */
int gpk_assoc_find(const double *stride, int ns, const double *lines, int nl, const double *lat,
                   double rel, double abs_min, gpk_assoc *out);
/* The same for a cache level below the first: the held lines of each row
 * are those before the first climb that ends above hit_lat (that level's
 * hit latency) by more than rel and abs_min.  A chase whose lines all fall
 * in one set misses the first level from its ways + 1 lines on (a climb to
 * hit_lat, skipped) and this level from its own ways + 1 (a climb past
 * it); where both happen at the same line count the one climb goes past
 * hit_lat and counts.  hit_lat NaN: the first climb (gpk_assoc_find). */
int gpk_assoc_find_at(const double *stride, int ns, const double *lines, int nl,
                      const double *lat, double rel, double abs_min, double hit_lat,
                      gpk_assoc *out);

/* Associativity through a hashed set index.  A chase over N contiguous
 * bytes, one load per line of L bytes, visited cyclically, in a cache of C
 * bytes, W ways and an index hash that maps every aligned block of C/W
 * bytes onto all sets once: once N = C + m L (0 < m < C/(W L)), m sets hold
 * W+1 lines and the others W.  Under LRU (or FIFO) a set that overflows
 * misses all W+1 of its lines every pass, so the miss fraction is
 *     f(N) = (W+1)(N - C) / N   for C <= N <= C (W+1)/W,
 * 0 below and 1 above, and the latency t(N) = t_hit + (t_miss - t_hit) f(N).
 * gpk_assoc_fit_lru() fits C and the whole number W (1..max_ways) to the
 * measured x (N, bytes, ascending) and y (cycles per load) by least squares,
 * t_hit and t_miss fixed (the plateaus), and judges the fit:
 *   - the residual RMS over all points and over the transition points must
 *     be at most limit = max(tol, 2 x noise) of t_miss - t_hit, noise being
 *     read off the second differences of the curve (a random or
 *     pseudo-LRU policy, or a hash that is not uniform, leaves a larger,
 *     systematic residual; with noisy points no model can be told apart);
 *   - both ends of the transition must lie inside the sweep, with at least
 *     2 points below C and 2 past the saturation C (W+1)/W, and 4 points
 *     between (W is read from where the curve saturates);
 *   - ways_lo..ways_hi, the W whose best fit is about as good (SSE within
 *     twice the best, or within 0.5% of the gap in RMS), must stay within
 *     1.5x (else W is not resolved).
 * Returns 1 with ways, 0 with ways NaN and why set, -1 on bad input. */
typedef struct gpk_assoc_fit {
    double ways;           /* NaN when not read */
    double ways_lo, ways_hi; /* every W that fits about as well as the best */
    double capacity_bytes; /* C of the best fit (also set when ways is NaN) */
    double sets;           /* C / (ways x line) */
    double rms_cycles;     /* RMS residual of the best fit, all points */
    double rms_rel;        /* rms_cycles / (t_miss - t_hit) */
    double rms_trans_rel;  /* the same over the transition points only */
    double noise_rel;      /* point-to-point noise (second differences) / (t_miss - t_hit) */
    double limit_rel;      /* the residual allowed: max(tol, 2 x noise_rel) */
    int best_w;            /* the W of the best fit, even when rejected */
    int n_below, n_transition, n_above; /* points by the best fit's regions */
    char why[240];         /* empty when ways was read */
} gpk_assoc_fit;

int gpk_assoc_fit_lru(const double *x, const double *y, int n, double line, double t_hit,
                      double t_miss, int max_ways, double tol, gpk_assoc_fit *out);
/* The model's miss fraction f(N) for capacity c and w ways (see above). */
double gpk_assoc_lru_frac(double n_bytes, double c, double w);

/* A small rise of a TLB sweep.  When the pages are visited in a random
 * order, a translation level of reach R that replaces at random (or is
 * visited with no usable order) hits with probability about R / F at
 * footprint F > R, so the chase's latency is about
 *     y(F) = base + penalty x max(0, 1 - R / F).
 * gpk_reach_find() fits R (a log grid, 64 steps per octave, from x[1] to
 * x[n-3]), base and penalty (least squares, penalty >= 0) and keeps the
 * fit only when the rise is real: penalty >= min_penalty cycles and >= 4x
 * the point noise (median absolute second difference, robust to the few
 * noisy points of tiny footprints), the model's squared error at most a
 * third of a flat line's, and at least 3 footprints <= R and 3 >= 2R.
 * Returns 1 with reach, 0 with why (no rise, or not resolved), -1 on bad
 * input. */
typedef struct gpk_reach_fit {
    double reach_bytes;    /* NaN when not read */
    double penalty_cycles; /* the rise, fully missed */
    double base_cycles;
    double rms_cycles;     /* of the fit */
    double noise_cycles;   /* robust point noise */
    double flat_ratio;     /* squared error of a flat line over the fit's */
    double best_reach;     /* R of the best fit, also when rejected */
    int n_below, n_above;  /* footprints <= R and >= 2R */
    char why[200];
} gpk_reach_fit;

int gpk_reach_find(const double *x, const double *y, int n, double min_penalty,
                   gpk_reach_fit *out);
/* gpk_reach_find() over the footprints of a TLB sweep that hold at least
 * min_lines lines of `stride` bytes: with fewer lines the average latency
 * is set by which L2 partition (near or far) each line lands in, which
 * scatters by more than the rise (H200: 305 cycles at 2 lines, 270 at 8). */
int gpk_tlb_reach(const double *x, const double *y, int n, double stride, int min_lines,
                  double min_penalty, gpk_reach_fit *out);

/* Reads "x,y" lines from path.  A line "# series NAME" starts a series; with
 * series non-NULL only that series' points are read.  Other '#' lines and
 * lines that are not two numbers are skipped.  Returns points read (at most
 * max), or -1 if the file cannot be opened. */
int gpk_curve_read(const char *path, const char *series, double *x, double *y, int max);

#endif
