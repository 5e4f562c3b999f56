/* num.c - see num.h. */
#include "util/num.h"

#include <limits.h>
#include <math.h>

long gp_num_clamp(double x, long lo, long hi, long nan_value)
{
    if (isnan(x))
        return nan_value;
    /* compare as doubles first: (double)hi may round up (LONG_MAX becomes
     * 2^63), and every x below it converts without overflow */
    if (x <= (double)lo)
        return lo;
    if (x >= (double)hi)
        return hi;
    long v = (long)x;
    return v < lo ? lo : v > hi ? hi : v;
}

int gp_num_in_range(double x, long lo, long hi, long *out)
{
    *out = gp_num_clamp(x, lo, hi, lo);
    return isnan(x) || x < (double)lo || x > (double)hi ? -1 : 0;
}

long gp_num_mul_sat(long a, long b)
{
    long r;
    if (!__builtin_mul_overflow(a, b, &r))
        return r;
    return (a < 0) != (b < 0) ? LONG_MIN : LONG_MAX;
}

long gp_num_add_sat(long a, long b)
{
    long r;
    if (!__builtin_add_overflow(a, b, &r))
        return r;
    return a < 0 ? LONG_MIN : LONG_MAX;
}
