/* verdict_stall.h - the verdicts that come from why warps stall: memory
 * latency, barriers, full memory queues, a busy math pipe, instruction
 * fetch, branch resolution.  Rules and thresholds are the table of
 * verdict_stall.c. */
#ifndef GP_VERDICT_STALL_H
#define GP_VERDICT_STALL_H

#include "metrics/verdicts/verdict_list.h"

/* Adds the stall verdicts that apply to out[*n...] (after the other rules:
 * a verdict that already explains a stall keeps it quiet). */
void gp_verdict_stall(const gp_verdict_input *in, gp_verdict *out, size_t *n);

/* The share (%) of a warp's time one stall verdict stands for, and whether it
 * came from the warp-state counters (1) or from the sampled stall reasons
 * (0); NaN when neither exists. */
double gp_verdict_stall_share(const gp_verdict_input *in, gp_verdict_kind kind, int *counters);

/* Whether why warps wait was measured for a kernel: a stall share from the
 * warp-state counters (v: its derived metrics) or stall samples (w, NULL:
 * none). */
int gp_verdict_stall_measured(const double *v, const gp_where *w);

#endif
