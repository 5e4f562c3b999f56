/* num.h - numbers from files and the environment turned into integers
 * without undefined behaviour: the one clamped number-to-integer conversion
 * and saturating products.  A cast of NaN or of a double beyond the target
 * type is undefined in C, and so is a signed product that overflows; input
 * written by someone else may hold either. */
#ifndef GP_NUM_H
#define GP_NUM_H

/* x truncated toward zero and clamped to [lo, hi]; NaN gives nan_value. */
long gp_num_clamp(double x, long lo, long hi, long nan_value);

/* 0 and *out = x truncated when x is a number within [lo, hi]; -1 (and *out
 * clamped as gp_num_clamp does, NaN giving lo) otherwise. */
int gp_num_in_range(double x, long lo, long hi, long *out);

/* a * b, saturated at LONG_MAX / LONG_MIN instead of overflowing. */
long gp_num_mul_sat(long a, long b);
/* a + b, saturated the same way. */
long gp_num_add_sat(long a, long b);

#endif
