/* format.h - numbers with their units for people: SI-scaled, "n/a" for NaN
 * and infinities (never 0, never "inf"). */
#ifndef GP_FORMAT_H
#define GP_FORMAT_H

#include <stddef.h>

/* Caller-owned scratch for several formatted values in one printf. */
typedef struct {
    char s[12][48];
    int next;
} gp_fmtbuf;

/* Formats v in unit ("s", "byte", "byte/s", "flop", "flop/s", "%", others
 * as "<value> <unit>") into the next slot of fb and returns it. */
const char *gp_fmt(gp_fmtbuf *fb, double v, const char *unit);

/* Same into buf. */
const char *gp_format_value(double v, const char *unit, char *buf, size_t len);

#endif
