/* format.c - see format.h. */
#include "metrics/catalog/format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *gp_format_si(double v, const char *unit, char *buf, size_t len)
{
    static const char *const pre[] = {"", "K", "M", "G", "T", "P"};
    double a = fabs(v);
    int i = 0;
    while (a >= 1000 && i < 5) {
        a /= 1000;
        v /= 1000;
        i++;
    }
    snprintf(buf, len, "%.3g %s%s", v, pre[i], unit);
    return buf;
}

const char *gp_format_value(double v, const char *unit, char *buf, size_t len)
{
    /* an infinity is no measurement either (the model turns overflows into
     * NaN with a reason; this keeps any that slip through off the page) */
    if (!isfinite(v)) {
        snprintf(buf, len, "n/a");
        return buf;
    }
    if (strcmp(unit, "%") == 0) {
        snprintf(buf, len, "%.1f%%", v);
    } else if (strcmp(unit, "s") == 0) {
        double a = fabs(v);
        if (a == 0)
            snprintf(buf, len, "0 s");
        else if (a < 1e-6)
            snprintf(buf, len, "%.3g ns", v * 1e9);
        else if (a < 1e-3)
            snprintf(buf, len, "%.3g us", v * 1e6);
        else if (a < 1)
            snprintf(buf, len, "%.3g ms", v * 1e3);
        else
            snprintf(buf, len, "%.3g s", v);
    } else if (strcmp(unit, "byte") == 0) {
        gp_format_si(v, "B", buf, len);
    } else if (strcmp(unit, "byte/s") == 0) {
        gp_format_si(v, "B/s", buf, len);
    } else if (strcmp(unit, "flop") == 0 || strcmp(unit, "flop/s") == 0) {
        gp_format_si(v, unit[4] ? "FLOP/s" : "FLOP", buf, len);
    } else if (strcmp(unit, "Hz") == 0) {
        gp_format_si(v, "Hz", buf, len);
    } else if (strcmp(unit, "fraction") == 0) {
        snprintf(buf, len, "%.3g", v);
    } else {
        snprintf(buf, len, "%.4g %s", v, unit);
    }
    return buf;
}

const char *gp_fmt(gp_fmtbuf *fb, double v, const char *unit)
{
    char *slot = fb->s[fb->next];
    fb->next = (fb->next + 1) % (int)(sizeof fb->s / sizeof fb->s[0]);
    return gp_format_value(v, unit, slot, sizeof fb->s[0]);
}
