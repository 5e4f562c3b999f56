/* text_head.h - the parts the short text report (report_brief.c) and the
 * full one (report_text.c) share. */
#ifndef GP_TEXT_HEAD_H
#define GP_TEXT_HEAD_H

#include <stdio.h>

#include "metrics/report/report.h"

/* The report's header: inputs, devices, ceilings, warnings and the "where"
 * head; brief: without what was not measured, and with the one line of what
 * the run did not collect (report_missing.h). */
void gp_report_text_head(const gp_report *r, int brief, FILE *out);

/* Writes one kernel's part of a text report (rank from 1; several: more
 * than one device model in the input). */
typedef void (*gp_report_text_kernel_fn)(const gp_report *r, const gp_kernel_report *k, size_t rank,
                                         int several, FILE *out);
/* The header, then each kernel by kernel_fn (a line when there is none). */
void gp_report_text_body(const gp_report *r, int brief, gp_report_text_kernel_fn kernel_fn,
                         FILE *out);

/* " (~: N of them estimated, replay mode none)" into buf, or "". */
const char *gp_report_text_estimated(const gp_kernel_agg *a, char *buf, size_t len);

/* Replay mode none's variant i: its launches, configurations, verdicts and
 * total time (before the first, the section's heading). */
void gp_report_text_estimate_head(const gp_report *r, size_t i, FILE *out);

/* The first n verdicts of k, numbered, each with its evidence, "where" and
 * advice (strings from the input escaped). */
void gp_report_text_verdicts(const gp_kernel_report *k, size_t n, FILE *out);

#endif
