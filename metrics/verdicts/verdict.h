/* verdict.h - ranked bottleneck verdicts for one kernel, each quoting the
 * numbers behind it and saying what to change.  The rules and their
 * thresholds are in one table in verdict.c; docs/report.md explains them. */
#ifndef GP_VERDICT_H
#define GP_VERDICT_H

#include "metrics/verdicts/verdict_list.h"

/* Fills out[0..GP_V_COUNT) with the verdicts that apply, best first.  Returns
 * how many (each kind at most once, so GP_V_COUNT slots always suffice). */
size_t gp_verdict_diagnose(const gp_verdict_input *in, gp_verdict *out);

#endif
