/* clock.h - seconds on the monotonic clock, for the profiler's own timings
 * (set-up, passes, the share of the run).  Inline, so that host-only
 * modules and tests use it without another object to link. */
#ifndef GP_UTIL_CLOCK_H
#define GP_UTIL_CLOCK_H

#include <time.h>

static inline double gp_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#endif
