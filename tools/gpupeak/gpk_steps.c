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
    gpk_step st[4];
    out->ways = out->way_bytes = NAN;
    out->why[0] = 0;
    if (ns < 1 || ns > GPK_ASSOC_MAXS || nl < 2)
        return -1;
    for (int i = 0; i < ns; i++) {
        int k = gpk_steps_find(lines, lat + (size_t)i * nl, nl, rel, abs_min, st, 4, NULL);
        if (k < 0 || (i > 0 && !(stride[i] > stride[i - 1])))
            return -1;
        out->held[i] = k > 0 ? st[0].size_below : NAN;
    }
    const double a = out->held[ns - 1], b = ns >= 2 ? out->held[ns - 2] : NAN;
    if (ns < 2) {
        snprintf(out->why, sizeof out->why, "needs at least two strides");
        return 0;
    }
    if (isnan(a)) {
        snprintf(out->why, sizeof out->why,
                 "no conflict misses up to %.0f lines at stride %.0f B: the set index is hashed "
                 "or there are more ways than lines tried",
                 lines[nl - 1], stride[ns - 1]);
        return 0;
    }
    if (isnan(b) || a != b) {
        snprintf(out->why, sizeof out->why,
                 "misses begin after %.0f lines at stride %.0f B but %.0f at %.0f B: no fixed set "
                 "of ways (hashed index or non-LRU replacement)",
                 b, stride[ns - 2], a, stride[ns - 1]);
        return 0;
    }
    int j = ns - 1;
    while (j > 0 && out->held[j - 1] == a)
        j--;
    out->ways = a;
    out->way_bytes = stride[j];
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
