/* cells.h - the cells every writer shares: a number as JSON and as a CSV
 * cell (n/a never written as 0), and a kernel's share of the report's time. */
#ifndef GP_REPORT_CELLS_H
#define GP_REPORT_CELLS_H

#include <stdio.h>

#include "metrics/model/load.h"

/* v as a JSON number; NaN and infinities as null, never 0. */
void gp_report_json_num(FILE *out, double v);

/* ",value" as one CSV cell; NaN (and an infinity) as an empty cell, never 0. */
void gp_report_csv_num(FILE *out, double v);

/* Share of the report's kernel time, %, NaN when unknown. */
double gp_report_time_share(const gp_report *r, const gp_kernel_report *k);

#endif
