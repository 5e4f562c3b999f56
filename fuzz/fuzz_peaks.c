/* fuzz_peaks.c - the peaks reader (every accepted shape), then the peaks
 * used for a report's rooflines and written out. */
#include <stdlib.h>

#include "fuzz.h"
#include "metrics/report/report.h"

static const char launch[] =
    "{\"type\":\"launch\",\"kernel\":\"k\",\"grid\":[264,1,1],\"block\":[256,1,1],\"metrics\":{"
    "\"gpu__time_duration.sum\":10000,\"dram__bytes_read.sum\":1e9,"
    "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\":1e9}}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    gp_peaks peaks;
    gp_json *doc;
    gp_report *r;
    FILE *in;
    gp_peaks_none(&peaks);
    if (!(doc = gp_json_parse((const char *)data, size, err, sizeof err)))
        return 0;
    if (gp_peaks_from_json(doc, &peaks, err, sizeof err) == 0 && (r = malloc(sizeof *r))) {
        gp_report_init(r, &peaks);
        if ((in = fmemopen((void *)launch, sizeof launch - 1, "r"))) {
            gp_report_load_stream(r, in, "launch.jsonl", NULL);
            fclose(in);
        }
        gp_report_finish(r);
        gp_report_text(r, gp_fuzz_sink());
        gp_report_text_details(r, gp_fuzz_sink());
        gp_report_html(r, gp_fuzz_sink());
        gp_report_free(r);
        free(r);
    }
    gp_json_free(doc);
    return 0;
}
