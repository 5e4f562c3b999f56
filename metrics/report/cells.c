/* cells.c - see cells.h. */
#include "metrics/report/cells.h"

#include <math.h>

/* 15 significant digits: counts below 1e15 exactly, without binary noise. */
void gp_report_json_num(FILE *out, double v)
{
    fprintf(out, isnan(v) || isinf(v) ? "null" : "%.15g", v);
}

void gp_report_csv_num(FILE *out, double v)
{
    fputc(',', out);
    if (isfinite(v)) /* n/a, and any infinity, is an empty cell */
        fprintf(out, "%.9g", v);
}

double gp_report_time_share(const gp_report *r, const gp_kernel_report *k)
{
    double t = k->agg.row.v[GP_M_DURATION];
    return r->total_time > 0 && !isnan(t) ? 100 * t / r->total_time : NAN;
}
