/* estimate_load.h - the report's reading of replay mode none's
 * variant_estimate records: per variant its launches, each configuration's
 * coverage, and the derived metrics of its mean launch with their error
 * bounds (estimate.h gp_est_derived), kept beside the kernels. */
#ifndef GP_ESTIMATE_LOAD_H
#define GP_ESTIMATE_LOAD_H

#include "metrics/records/json.h"
#include "metrics/model/report_types.h"

/* The most launches all variant_estimate records of a report may count
 * together: far beyond any run, and with room for the launch records beside
 * them, so that no kernel's launch count can overflow. */
#define GP_EST_LAUNCHES_MAX (1L << 62)

/* Reads one variant_estimate record into r->estimates.  0, or -1 with a
 * sentence in err (no kernel, a shape beyond CUDA's limits, no launch
 * count, launches that would take the estimates past GP_EST_LAUNCHES_MAX). */
int gp_estimate_load(gp_report *r, const gp_json *obj, char *err, size_t errlen);
void gp_estimates_free(gp_report *r);

#endif
