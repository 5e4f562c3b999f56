/* cupti_host.h - the host side of the CUPTI Profiler: metric names to a
 * config image, pass counts, and counter data to values.  Needs no GPU: a chip
 * name ("GH100") is enough, so `make test` covers it.  This header exposes no
 * CUPTI types. */
#ifndef GP_CUPTI_HOST_H
#define GP_CUPTI_HOST_H

#include <stddef.h>
#include <stdint.h>

typedef struct gp_host_config gp_host_config;

/* Builds a config for `names` on `chip`.  `avail` may be NULL (offline).  On
 * failure returns NULL and writes one sentence into err (close matches for an
 * unknown name included). */
gp_host_config *gp_host_config_create(const char *chip, const uint8_t *avail, size_t avail_size,
                                      const char *const *names, size_t n, char *err,
                                      size_t errlen);
void gp_host_config_destroy(gp_host_config *cfg);

size_t gp_host_config_passes(const gp_host_config *cfg);
const uint8_t *gp_host_config_image(const gp_host_config *cfg, size_t *size);
size_t gp_host_config_count(const gp_host_config *cfg);
const char *gp_host_config_name(const gp_host_config *cfg, size_t i);

/* Evaluates every metric of cfg for range `range` of a counter-data image into
 * values[0..count).  Returns 0 or -1 (values then all NaN). */
int gp_host_config_evaluate(const gp_host_config *cfg, const uint8_t *counter_data, size_t size,
                            size_t range, double *values);

/* Calls fn for every base metric of chip with its type (0 counter, 1 ratio,
 * 2 throughput, as ncu --query-metrics lists them).  0, or -1 when CUPTI
 * does not know the chip. */
int gp_host_each_base(const char *chip, void (*fn)(void *ctx, const char *name, int type),
                      void *ctx);
/* Checks each name on its own.  Returns the number of unknown names; for the
 * first one writes "unknown metric 'x'; close matches: a, b, c" into err.
 * Sixteen names are tried at once first (a host object each time: 254
 * names one by one took about 1 s on an H100), a group CUPTI refuses name
 * by name.  known[i], when known is not NULL: 1 when CUPTI knows names[i]. */
size_t gp_host_check_names_each(const char *chip, const char *const *names, size_t n, int *known,
                                char *err, size_t errlen);
size_t gp_host_check_names(const char *chip, const char *const *names, size_t n, char *err,
                           size_t errlen);

/* Splits names over configurations CUPTI accepts on this device (with the
 * availability image `avail`), as Nsight Compute does with a list too long
 * for one: group[i] is the configuration of names[i] (0, 1, ...), or -1 for
 * a name CUPTI refuses even alone (metrics of units the device or its
 * configuration does not expose, such as NVLink counters without NVLink).
 * Greedy in the caller's order: each configuration takes the remaining
 * names until CUPTI refuses one that it takes alone.  Returns the number of
 * configurations (0 when CUPTI cannot be asked).  Called only after a whole
 * set failed. */
size_t gp_host_partition(const char *chip, const uint8_t *avail, const char *const *names,
                         size_t n, int *group);

/* Replay mode none: splits names over configurations of one pass each.
 * Names with every[i] set are carried by every configuration that can take
 * them (group[i] = GP_HOST_EVERY; as many of them as one pass takes, in
 * order); every other name is placed in the first configuration, greedy in
 * the caller's order, with which it stays one pass (group[i] = 0, 1, ...),
 * or -1 when it needs more than one pass even alone, is refused, or more
 * than max_groups configurations would be needed.  Instrumented names
 * (gp_metric_is_instrumented) never share a configuration with the every
 * names: instrumentation changes durations and instruction counts.  carries_every[g]: 1 when
 * configuration g carries the every names (a name that fits with none of
 * them gets configurations without them).  Returns the number of
 * configurations (0: none possible).  Each trial is first answered by
 * PerfWorks' scheduler (replay/nvpw_sched.h: about 0.1 ms a trial), and
 * each configuration so made checked with a CUPTI host configuration; where
 * that is not possible or a check fails, the trials open a host
 * configuration each (3-8 ms on the host), on up to half the machine's
 * processors at once (at most 8; the result is the same as one at a time).
 * Called once per process and chip. */
#define GP_HOST_EVERY (-2)
size_t gp_host_partition_one_pass(const char *chip, const uint8_t *avail, const char *const *names,
                                  size_t n, const int *every, int *group, int *carries_every,
                                  size_t max_groups);
/* The same with `threads` trials at once (1: one at a time; the tests
 * compare the two). */
/* 0: the trials always open host configurations (the tests compare both
 * ways); 1, the default: PerfWorks' scheduler first. */
void gp_host_fast_grouping(int on);
/* Tests: the one-pass check refuses lists of more than `names` names, as
 * CUPTI did on a GPU for a configuration PerfWorks' scheduler proposed (0:
 * off).  Not for the library's own use. */
void gp_host_inject_one_pass_limit(size_t names);
/* 1 when the last one-pass grouping was PerfWorks' (0: the slow way). */
int gp_host_last_grouping_fast(void);
size_t gp_host_partition_one_pass_threads(const char *chip, const uint8_t *avail,
                                          const char *const *names, size_t n, const int *every,
                                          int *group, int *carries_every, size_t max_groups,
                                          size_t threads);

/* Seconds this process has spent in gp_host_partition() and
 * gp_host_partition_one_pass*() (wall time, all calls together): the
 * splitting of a metric list into configurations, for the summary's set-up
 * parts. */
double gp_host_grouping_s(void);

/* True when the name is collected by SASS instrumentation (its own pass). */
int gp_metric_is_instrumented(const char *name);

#endif
