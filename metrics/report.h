/* report.h - the writers of a finished gp_report (load.h): text for a
 * terminal, CSV with one row per kernel, one self-contained HTML page. */
#ifndef GP_REPORT_H
#define GP_REPORT_H

#include <stdio.h>

#include "load.h"

/* Each returns 0, or -1 when writing failed. */
int gp_report_text(const gp_report *r, FILE *out);
int gp_report_csv(const gp_report *r, FILE *out);
int gp_report_html(const gp_report *r, FILE *out);

/* The short terminal summary: the top_n kernels by total time with their
 * first verdicts. */
int gp_report_summary(const gp_report *r, FILE *out, int top_n);

/* Share of the report's kernel time, %, NaN when unknown. */
double gp_report_time_share(const gp_report *r, const gp_kernel_report *k);

#endif
