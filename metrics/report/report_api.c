/* report_api.c - see report_api.h. */
#include "metrics/report/report_api.h"

#include <stdlib.h>

#include "metrics/report/report.h"

int gp_report_summarize_jsonl(const char *jsonl_path, FILE *out, int top_n)
{
    gp_report *r;
    int rc = -1;
    if (!jsonl_path || !out)
        return -1;
    r = malloc(sizeof *r);
    if (!r)
        return -1;
    gp_report_init(r, NULL);
    r->skip_source = 1; /* the top kernels need no instruction-level data */
    if (gp_report_load(r, jsonl_path, NULL) < 0 || r->bad_lines)
        goto out;
    gp_report_finish(r);
    rc = gp_report_summary(r, out, top_n);
out:
    gp_report_free(r);
    free(r);
    return rc;
}
