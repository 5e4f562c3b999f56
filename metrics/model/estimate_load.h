/* estimate_load.h - the report's reading of replay mode none's
 * variant_estimate records: per variant its launches, each configuration's
 * coverage, and the derived metrics of its mean launch with their error
 * bounds (estimate.h gp_est_derived), kept beside the kernels. */
#ifndef GP_ESTIMATE_LOAD_H
#define GP_ESTIMATE_LOAD_H

#include "metrics/records/json.h"
#include "metrics/model/report_types.h"

/* Reads one variant_estimate record into r->estimates.  0, or -1 with a
 * sentence in err (no kernel, a shape beyond CUDA's limits, no launch
 * count). */
int gp_estimate_load(gp_report *r, const gp_json *obj, char *err, size_t errlen);
void gp_estimates_free(gp_report *r);

#endif
