/* metric_set.h - the metrics every profiled launch collects: the default or
 * extended counters of metrics/catalog/counters.def plus GPUPROF_METRICS (its
 * names, and the metrics of the Nsight Compute sections it names,
 * metrics/ncu/sections.def), checked once against the first chip seen. */
#ifndef GP_METRIC_SET_H
#define GP_METRIC_SET_H

#include <stddef.h>

/* Builds the list from the configuration (gp_core.cfg).  0, or -1 when out
 * of memory. */
int gp_metric_set_build(void);
/* Drops the names `chip` cannot collect, saying so once, and splits the rest
 * into hardware and SASS metrics (gp_core.set).  Once per process; caller
 * holds state_lock. */
void gp_metric_set_check(const char *chip);
/* Replay mode none: the counters every one-pass configuration carries
 * (duration, instructions, cycles), added to the list in that mode. */
extern const char *const gp_metric_spread[4];
int gp_metric_set_is_spread(const char *name);
/* Position of a metric in the output list; an index whose value is NaN (the
 * last slot of a values array) when it is not collected. */
size_t gp_metric_set_index(const char *name);
/* Whether the list (before any chip is known) holds SASS metrics. */
int gp_metric_set_wants_sass(void);
/* Whether the list holds a metric the range profiler collects (hardware
 * counters, Nsight Compute's instrumented metrics): stall sampling then
 * cannot share the context (sampling.h). */
int gp_metric_set_needs_counters(void);
/* The identifiers of the Nsight Compute sections collected, comma-separated
 * (every launch record's "sections"), NULL when none were named. */
const char *gp_metric_set_sections(void);

#endif
