/* sass_metrics.h - CUPTI's SASS Metrics API: per-instruction counts for the
 * instrumented (smsp__sass_*) metrics, which CUPTI 13.0's range profiler
 * does not deliver.  One pass of its own: the kernel runs patched. */
#ifndef GP_SASS_METRICS_H
#define GP_SASS_METRICS_H

#include <cuda.h>
#include <stddef.h>

#include "replay/sass_derive.h"

/* Configures the per-instruction counters of sass_derive.h for a
 * device (once per device).  Returns 0 or -1 with a sentence in err. */
int gp_sass_setup(int device, const char *chip, char *err, size_t errlen);
/* 1 when CUPTI knew metric (enum gp_sass_metric) at the last set-up: the
 * records' values of the others are 0 and mean nothing. */
int gp_sass_metric_available(int metric);
/* Drops the device's configuration (its context is going away). */
void gp_sass_teardown(int device);
/* Starts collection on ctx (functions are patched at their first launch). */
int gp_sass_begin(CUcontext ctx, char *err, size_t errlen);
/* Stops collection and returns the records (malloc'd, function names
 * included; free with gp_sass_records_free).  The context must be idle. */
int gp_sass_end(CUcontext ctx, gp_sass_record **out, size_t *n, char *err, size_t errlen);
void gp_sass_records_free(gp_sass_record *r, size_t n);

#endif
