/* gpk_steps.c - see gpk_steps.h. */
#include "gpk_steps.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int gpk_cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double gpk_median(const double *v, int n)
{
    double *t = malloc(sizeof(double) * (n > 0 ? n : 1));
    double m;
    if (!t || n <= 0) {
        free(t);
        return NAN;
    }
    memcpy(t, v, sizeof(double) * n);
    qsort(t, n, sizeof(double), gpk_cmp_d);
    m = (n % 2) ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    free(t);
    return m;
}

int gpk_steps_find(const double *x, const double *y, int n, double rel, double abs_min,
                   gpk_step *out, int max, double *last_lat)
{
    double *s;
    int nsteps = 0, start = 0, i;
    if (n < 2)
        return -1;
    for (i = 0; i < n; i++)
        if (isnan(x[i]) || isnan(y[i]) || (i > 0 && !(x[i] > x[i - 1])))
            return -1;
    /* median of three: one noisy point is not a plateau change */
    s = malloc(sizeof(double) * n);
    if (!s)
        return -1;
    s[0] = y[0];
    s[n - 1] = y[n - 1];
    for (i = 1; i < n - 1; i++) {
        double a = y[i - 1], b = y[i], c = y[i + 1];
        s[i] = fmax(fmin(a, b), fmin(fmax(a, b), c));
    }
    i = 1;
    while (i < n) {
        double level = gpk_median(s + start, i - start);
        if (s[i] > level * (1 + rel) && s[i] - level > abs_min) {
            /* climbing: go on while the next point still rises noticeably */
            int top = i;
            while (top + 1 < n && s[top + 1] > s[top] * (1 + rel / 2) &&
                   s[top + 1] - s[top] > abs_min / 2)
                top++;
            if (nsteps < max) {
                out[nsteps].size_below = x[i - 1];
                out[nsteps].size_above = x[top];
                out[nsteps].lat_below = level;
                out[nsteps].lat_above = s[top];
            }
            nsteps++;
            start = top;
            i = top + 1;
            continue;
        }
        i++;
    }
    /* upper plateau latency: median of the points after each climb */
    for (int k = 0; k < nsteps && k < max; k++) {
        int a = 0, b = n;
        while (a < n && x[a] < out[k].size_above)
            a++;
        if (k + 1 < nsteps && k + 1 < max)
            for (b = a; b < n && x[b] <= out[k + 1].size_below; b++)
                ;
        if (b > a)
            out[k].lat_above = gpk_median(s + a, b - a);
    }
    if (last_lat)
        *last_lat = gpk_median(s + start, n - start);
    free(s);
    return nsteps < max ? nsteps : max;
}

double gpk_saturation(const double *x, const double *y, int n, double frac, double rel)
{
    double lo, hi = -INFINITY;
    if (n < 2)
        return NAN;
    lo = y[0];
    for (int i = 0; i < n; i++)
        hi = fmax(hi, y[i]);
    if (!(hi > lo * (1 + rel)))
        return NAN;
    for (int i = 0; i < n; i++)
        if (y[i] >= lo + frac * (hi - lo))
            return x[i];
    return NAN;
}

int gpk_two_clusters(const double *v, int n, double rel, double *lo_mean, double *hi_mean,
                     double *frac_hi)
{
    double *t, best = -1, tot = 0, left = 0;
    int cut = -1;
    if (n < 2) {
        *lo_mean = *hi_mean = n ? v[0] : NAN;
        *frac_hi = 0;
        return 0;
    }
    t = malloc(sizeof(double) * n);
    if (!t)
        return 0;
    memcpy(t, v, sizeof(double) * n);
    qsort(t, n, sizeof(double), gpk_cmp_d);
    for (int i = 0; i < n; i++)
        tot += t[i];
    /* Otsu: maximise between-class variance w0 w1 (m0 - m1)^2 */
    for (int i = 1; i < n; i++) {
        left += t[i - 1];
        double w0 = i, w1 = n - i, m0 = left / w0, m1 = (tot - left) / w1;
        double b = w0 * w1 * (m0 - m1) * (m0 - m1);
        if (b > best) {
            best = b;
            cut = i;
        }
    }
    double m0 = 0, m1 = 0;
    for (int i = 0; i < cut; i++)
        m0 += t[i];
    for (int i = cut; i < n; i++)
        m1 += t[i];
    m0 /= cut;
    m1 /= (n - cut);
    if (m1 > m0 * (1 + rel)) {
        *lo_mean = m0;
        *hi_mean = m1;
        *frac_hi = (double)(n - cut) / n;
        free(t);
        return 1;
    }
    *lo_mean = *hi_mean = (n % 2) ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
    *frac_hi = 0;
    free(t);
    return 0;
}

int gpk_assoc_find(const double *stride, int ns, const double *lines, int nl, const double *lat,
                   double rel, double abs_min, gpk_assoc *out)
{
    return gpk_assoc_find_at(stride, ns, lines, nl, lat, rel, abs_min, NAN, out);
}

int gpk_assoc_find_at(const double *stride, int ns, const double *lines, int nl,
                      const double *lat, double rel, double abs_min, double hit_lat,
                      gpk_assoc *out)
{
    gpk_step st[4];
    int last = -1, prev = -1;
    out->ways = out->way_bytes = out->lat_hit = out->lat_miss = NAN;
    out->why[0] = 0;
    if (ns < 1 || ns > GPK_ASSOC_MAXS || nl < 2)
        return -1;
    for (int i = 0; i < ns; i++) {
        const double *row = lat + (size_t)i * nl;
        int np = 0, k, q = 0;
        if (i > 0 && !(stride[i] > stride[i - 1]))
            return -1;
        while (np < nl && !isnan(row[np]))
            np++;
        for (int g = np; g < nl; g++)
            if (!isnan(row[g]))
                return -1; /* a gap inside a row */
        if (np < 2)
            return -1;
        k = gpk_steps_find(lines, row, np, rel, abs_min, st, 4, NULL);
        if (k < 0)
            return -1;
        /* the first climb past hit_lat (any climb when hit_lat is NaN) */
        while (q < k && !isnan(hit_lat) &&
               !(st[q].lat_above > hit_lat * (1 + rel) && st[q].lat_above - hit_lat > abs_min))
            q++;
        out->held[i] = q < k ? st[q].size_below : NAN;
        out->tried[i] = lines[np - 1];
        out->resolved[i] = q < k || np == nl;
        if (out->resolved[i]) {
            prev = last;
            last = i;
            out->lat_hit = q < k ? st[q].lat_below : NAN;
            out->lat_miss = q < k ? st[q].lat_above : NAN;
        }
    }
    if (prev < 0) {
        snprintf(out->why, sizeof out->why,
                 "needs at least two strides that show the step or were measured to %.0f lines "
                 "(%d resolved)",
                 lines[nl - 1], last >= 0);
        return 0;
    }
    const double a = out->held[last], b = out->held[prev];
    if (isnan(a)) {
        snprintf(out->why, sizeof out->why,
                 "no conflict misses up to %.0f lines at stride %.0f B: the set index is hashed "
                 "or there are more ways than lines tried",
                 out->tried[last], stride[last]);
        return 0;
    }
    if (isnan(b) || a != b) {
        snprintf(out->why, sizeof out->why,
                 "misses begin after %.0f lines at stride %.0f B but %.0f at %.0f B: no fixed set "
                 "of ways (hashed index or non-LRU replacement)",
                 b, stride[prev], a, stride[last]);
        return 0;
    }
    /* a shortened row past the way size that held 2 lines more than a */
    for (int i = 0; i < ns; i++)
        if (!out->resolved[i] && stride[i] > stride[last] && out->tried[i] >= a + 2) {
            snprintf(out->why, sizeof out->why,
                     "misses begin after %.0f lines at stride %.0f B but none up to %.0f at "
                     "%.0f B: no fixed set of ways (hashed index or non-LRU replacement)",
                     a, stride[last], out->tried[i], stride[i]);
            return 0;
        }
    int j = last, below = 0;
    for (int i = last - 1; i >= 0; i--) {
        if (!out->resolved[i])
            continue;
        if (out->held[i] != a) {
            below = 1;
            break;
        }
        j = i;
    }
    /* the same count at every stride: no stride below the way size was
     * seen, so the way is at most the smallest stride; a fully associative
     * cache and an index hash that spreads every stride look alike */
    if (!below) {
        snprintf(out->why, sizeof out->why,
                 "misses begin after %.0f lines at every stride from %.0f to %.0f B: no stride "
                 "below the way size, so a fully associative cache or a hashed set index "
                 "(the two cannot be told apart)",
                 a, stride[j], stride[last]);
        return 0;
    }
    out->ways = a;
    out->way_bytes = stride[j];
    return 1;
}

double gpk_assoc_lru_frac(double nb, double c, double w)
{
    if (nb <= c)
        return 0;
    if (nb * w >= c * (w + 1))
        return 1;
    return (w + 1) * (nb - c) / nb;
}

/* Sum of squared residuals of the model (c, w) with fixed plateaus. */
static double gpk_assoc_sse(const double *x, const double *y, int n, double c, double w,
                            double th, double tm)
{
    double s = 0;
    for (int i = 0; i < n; i++) {
        const double r = y[i] - (th + (tm - th) * gpk_assoc_lru_frac(x[i], c, w));
        s += r * r;
    }
    return s;
}

/* The best capacity for w ways: a scan of [lo, hi] in 1024 steps, then a
 * finer one around the best (down to a quarter line). */
static double gpk_assoc_best_c(const double *x, const double *y, int n, double w, double th,
                               double tm, double lo, double hi, double line, double *sse)
{
    double step = fmax(line, (hi - lo) / 1024), best = lo, bs = INFINITY;
    for (double c = lo; c <= hi; c += step) {
        const double s = gpk_assoc_sse(x, y, n, c, w, th, tm);
        if (s < bs)
            bs = s, best = c;
    }
    const double fine = fmax(line / 4, step / 64), a = fmax(lo, best - step),
                 b = fmin(hi, best + step);
    for (double c = a; c <= b; c += fine) {
        const double s = gpk_assoc_sse(x, y, n, c, w, th, tm);
        if (s < bs)
            bs = s, best = c;
    }
    *sse = bs;
    return best;
}

int gpk_assoc_fit_lru(const double *x, const double *y, int n, double line, double th,
                      double tm, int max_ways, double tol, gpk_assoc_fit *out)
{
    double *sse, *cap;
    int bw = 1;
    memset(out, 0, sizeof *out);
    out->ways = out->ways_lo = out->ways_hi = out->capacity_bytes = out->sets = NAN;
    out->rms_cycles = out->rms_rel = out->rms_trans_rel = out->noise_rel = out->limit_rel = NAN;
    if (n < 8 || max_ways < 1 || max_ways > 1024 || !(line > 0) || !(tm - th > 0) ||
        !(tol > 0) || !isfinite(th) || !isfinite(tm))
        return -1;
    for (int i = 0; i < n; i++)
        if (!isfinite(x[i]) || !isfinite(y[i]) || (i > 0 && !(x[i] > x[i - 1])))
            return -1;
    sse = malloc(sizeof(double) * (max_ways + 1));
    cap = malloc(sizeof(double) * (max_ways + 1));
    if (!sse || !cap) {
        free(sse);
        free(cap);
        return -1;
    }
    /* the onset needs two points at or below C: C from x[1] up */
    for (int w = 1; w <= max_ways; w++) {
        cap[w] = gpk_assoc_best_c(x, y, n, w, th, tm, x[1], x[n - 1], line, &sse[w]);
        if (sse[w] < sse[bw])
            bw = w;
    }
    const double gap = tm - th, c = cap[bw], sat = c * (bw + 1) / bw;
    double st = 0;
    out->best_w = bw;
    out->capacity_bytes = c;
    out->rms_cycles = sqrt(sse[bw] / n);
    out->rms_rel = out->rms_cycles / gap;
    for (int i = 0; i < n; i++) {
        if (x[i] <= c) {
            out->n_below++;
        } else if (x[i] >= sat) {
            out->n_above++;
        } else {
            const double r = y[i] - (th + gap * gpk_assoc_lru_frac(x[i], c, bw));
            st += r * r;
            out->n_transition++;
        }
    }
    out->rms_trans_rel = out->n_transition ? sqrt(st / out->n_transition) / gap : NAN;
    /* the noise, from second differences (a smooth curve, plateau or
     * slope, has none): var(y[i-1] - 2 y[i] + y[i+1]) = 6 var(noise) */
    {
        double ss = 0;
        for (int i = 1; i < n - 1; i++) {
            const double d = y[i - 1] - 2 * y[i] + y[i + 1];
            ss += d * d;
        }
        out->noise_rel = sqrt(ss / (6.0 * (n - 2))) / gap;
    }
    /* W as good as the best: SSE within 2x, or RMS within 0.5% of the gap */
    const double floor_sse = n * (0.005 * gap) * (0.005 * gap);
    for (int w = 1; w <= max_ways; w++)
        if (sse[w] <= fmax(2 * sse[bw], sse[bw] + floor_sse)) {
            if (isnan(out->ways_lo))
                out->ways_lo = w;
            out->ways_hi = w;
        }
    free(sse);
    free(cap);
    out->limit_rel = fmax(tol, 2 * out->noise_rel);
    if (out->rms_rel > out->limit_rel || !(out->rms_trans_rel <= out->limit_rel)) {
        snprintf(out->why, sizeof out->why,
                 "the LRU model does not fit: best fit (%d ways, C %.0f B) leaves %.1f%% of the "
                 "hit-miss gap overall and %.1f%% in the transition (limit %.1f%%): replacement "
                 "not LRU/FIFO, or the set hash not uniform",
                 bw, c, 100 * out->rms_rel, 100 * out->rms_trans_rel, 100 * out->limit_rel);
        return 0;
    }
    if (out->n_below < 2 || out->n_above < 2) {
        snprintf(out->why, sizeof out->why,
                 "the sweep does not show both ends of the transition (best fit %d ways: %d "
                 "points below C = %.0f B, %d past saturation at %.0f B; need 2 each)",
                 bw, out->n_below, c, out->n_above, sat);
        return 0;
    }
    if (out->n_transition < 4) {
        snprintf(out->why, sizeof out->why,
                 "only %d points in the transition %.0f-%.0f B (need 4)", out->n_transition, c,
                 sat);
        return 0;
    }
    if (out->ways_hi > 1.5 * out->ways_lo) {
        snprintf(out->why, sizeof out->why,
                 "ways not resolved: fits with %.0f to %.0f ways are about as good",
                 out->ways_lo, out->ways_hi);
        return 0;
    }
    out->ways = bw;
    out->sets = c / (bw * line);
    return 1;
}

int gpk_reach_find(const double *x, const double *y, int n, double min_pen, gpk_reach_fit *out)
{
    double best_sse = INFINITY, mean = 0, sse_flat = 0, *d;
    memset(out, 0, sizeof *out);
    out->reach_bytes = out->penalty_cycles = out->base_cycles = out->rms_cycles = NAN;
    out->noise_cycles = out->flat_ratio = out->best_reach = NAN;
    if (n < 8 || !(min_pen >= 0))
        return -1;
    for (int i = 0; i < n; i++)
        if (!(x[i] > 0) || !isfinite(y[i]) || (i > 0 && !(x[i] > x[i - 1])))
            return -1;
    for (int i = 0; i < n; i++)
        mean += y[i] / n;
    for (int i = 0; i < n; i++)
        sse_flat += (y[i] - mean) * (y[i] - mean);
    /* y = base + pen g(F), g = max(0, 1 - R/F): linear least squares per R */
    for (double lr = log2(x[1]); lr <= log2(x[n - 3]) + 1e-9; lr += 1.0 / 64) {
        const double r = exp2(lr);
        double sg = 0, sgg = 0, sy = 0, sgy = 0, sse = 0, base, pen;
        for (int i = 0; i < n; i++) {
            const double g = x[i] > r ? 1 - r / x[i] : 0;
            sg += g, sgg += g * g, sy += y[i], sgy += g * y[i];
        }
        const double det = n * sgg - sg * sg;
        if (!(det > 0))
            continue;
        pen = (n * sgy - sg * sy) / det;
        if (pen < 0)
            pen = 0;
        base = (sy - pen * sg) / n;
        for (int i = 0; i < n; i++) {
            const double e = y[i] - base - pen * (x[i] > r ? 1 - r / x[i] : 0);
            sse += e * e;
        }
        if (sse < best_sse) {
            best_sse = sse;
            out->best_reach = r;
            out->penalty_cycles = pen;
            out->base_cycles = base;
        }
    }
    if (!isfinite(best_sse))
        return -1;
    out->rms_cycles = sqrt(best_sse / n);
    out->flat_ratio = best_sse > 0 ? sse_flat / best_sse : INFINITY;
    /* robust noise: median |second difference| / (0.6745 sqrt(6)) */
    d = malloc(sizeof(double) * n);
    if (!d)
        return -1;
    for (int i = 1; i < n - 1; i++)
        d[i - 1] = fabs(y[i - 1] - 2 * y[i] + y[i + 1]);
    out->noise_cycles = gpk_median(d, n - 2) / (0.6745 * sqrt(6.0));
    free(d);
    for (int i = 0; i < n; i++) {
        out->n_below += x[i] <= out->best_reach;
        out->n_above += x[i] >= 2 * out->best_reach;
    }
    if (!(out->penalty_cycles >= min_pen) || !(out->penalty_cycles >= 4 * out->noise_cycles) ||
        !(out->flat_ratio >= 3)) {
        snprintf(out->why, sizeof out->why,
                 "no rise: best fit %.1f cycles from %.4g B (need >= %.1f and >= 4x the noise "
                 "%.1f), squared error %.1fx below a flat line's (need 3x)",
                 out->penalty_cycles, out->best_reach, min_pen, out->noise_cycles,
                 out->flat_ratio);
        return 0;
    }
    if (out->n_below < 3 || out->n_above < 3) {
        snprintf(out->why, sizeof out->why,
                 "a rise of %.1f cycles from %.4g B, but %d footprints below it and %d past "
                 "twice it (need 3 each): not resolved",
                 out->penalty_cycles, out->best_reach, out->n_below, out->n_above);
        return 0;
    }
    out->reach_bytes = out->best_reach;
    return 1;
}

int gpk_curve_read(const char *path, const char *series, double *x, double *y, int max)
{
    FILE *f = fopen(path, "r");
    char line[256];
    int n = 0, on = (series == NULL);
    if (!f)
        return -1;
    while (n < max && fgets(line, sizeof line, f)) {
        double a, b;
        if (strncmp(line, "# series ", 9) == 0) {
            if (series) {
                line[strcspn(line, "\r\n")] = 0;
                on = strcmp(line + 9, series) == 0;
            }
            continue;
        }
        if (line[0] == '#' || !on)
            continue;
        if (sscanf(line, "%lf,%lf", &a, &b) == 2) {
            x[n] = a;
            y[n] = b;
            n++;
        }
    }
    fclose(f);
    return n;
}

int gpk_tlb_reach(const double *x, const double *y, int n, double stride, int min_lines,
                  double min_penalty, gpk_reach_fit *out)
{
    int a = 0;
    while (a < n && x[a] < min_lines * stride)
        a++;
    return gpk_reach_find(x + a, y + a, n - a, min_penalty, out);
}
