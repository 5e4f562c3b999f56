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

/* What identifies CUPTI's host side here, for keys of what is kept between
 * runs (setup_cache.h): CUPTI's API version and the size and time of
 * libcupti and of the PerfWorks host library it loads (the scheduler that
 * splits lists), into buf ("cupti=...").  Always a string; parts that
 * cannot be found read "?". */
void gp_host_identity(char *buf, size_t len);

/* True when the name is collected by SASS instrumentation (its own pass). */
int gp_metric_is_instrumented(const char *name);

#endif
