/* nvpw_sched.h - PerfWorks' pass scheduler asked directly, for grouping a
 * metric list into configurations of one pass quickly.
 *
 * CUPTI's host API answers "is this set one pass?" only by opening a host
 * object for the set (3-5 ms each on the host), and grouping a long list
 * takes thousands of such trials.  libnvperf_host, which CUPTI's host API
 * itself loads, keeps one pass group open and says whether a metric's raw
 * counters still fit it (about 0.1 ms).  Its answer is a proposal: the
 * caller verifies each configuration with CUPTI before using it.  Loaded
 * with dlopen; where it cannot be loaded, or a name cannot be resolved,
 * gp_nvpw_open() returns NULL and the caller groups the slow way. */
#ifndef GP_NVPW_SCHED_H
#define GP_NVPW_SCHED_H

#include <stddef.h>
#include <stdint.h>

typedef struct gp_nvpw gp_nvpw;

/* The names' raw counters on chip (avail: the device's counter
 * availability image, or NULL for the chip's own list).  NULL when
 * PerfWorks is not available or any name does not resolve. */
gp_nvpw *gp_nvpw_open(const char *chip, const uint8_t *avail, const char *const *names, size_t n);
void gp_nvpw_close(gp_nvpw *p);

/* Opens a new, empty pass group of at most one pass (ending the one
 * before).  0, or -1 on an error. */
int gp_nvpw_group_begin(gp_nvpw *p);

/* Adds name i to the open group when its raw counters fit in the one pass:
 * 1 added, 0 does not fit, -1 error (no group open, or PerfWorks failed). */
int gp_nvpw_group_add(gp_nvpw *p, size_t i);

#endif
