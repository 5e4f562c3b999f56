/* fuzz_jsonl.c - the report's JSON-lines reader and everything after it:
 * records, validity checks, occupancy, derived metrics, aggregation,
 * verdicts, and every writer: text, CSV, HTML, JSON, Nsight Compute's two
 * CSV layouts, the comparison with a baseline (the input against itself)
 * and the exit summary. */
#include <stdlib.h>

#include "fuzz.h"
#include "metrics/baseline.h"
#include "metrics/report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *in = fmemopen((void *)data, size, "r");
    gp_report *r;
    if (!in)
        return 0;
    if (!(r = malloc(sizeof *r))) {
        fclose(in);
        return 0;
    }
    gp_baseline b;
    gp_report_init(r, NULL);
    r->keep_launches = 1;
    gp_report_load_stream(r, in, "fuzz.jsonl", NULL);
    fclose(in);
    gp_report_finish(r);
    gp_report_text(r, gp_fuzz_sink());
    gp_report_csv(r, gp_fuzz_sink());
    gp_report_html(r, gp_fuzz_sink());
    gp_report_json(r, gp_fuzz_sink());
    gp_report_ncu_csv(r, gp_fuzz_sink());
    gp_report_ncu_raw_csv(r, gp_fuzz_sink());
    gp_report_summary(r, gp_fuzz_sink(), 5);
    if (gp_baseline_compare(r, r, &b) == 0) {
        gp_baseline_text(&b, gp_fuzz_sink());
        gp_baseline_csv(&b, gp_fuzz_sink());
        gp_baseline_html(&b, gp_fuzz_sink());
        gp_baseline_free(&b);
    }
    gp_report_free(r);
    free(r);
    return 0;
}
