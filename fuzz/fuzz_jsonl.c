/* fuzz_jsonl.c - the report's JSON-lines reader and everything after it:
 * records, validity checks, occupancy, derived metrics, aggregation,
 * verdicts, instruction-level records and their "where" tables, and every
 * writer: text, CSV, HTML, JSON, Nsight Compute's CSV layouts (details,
 * raw, source page), gpuprof's per-instruction CSV, the comparison with a
 * baseline (the input against itself) and the exit summary. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "metrics/model/baseline.h"
#include "metrics/report/details.h"
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
    r->keep_reasons = 1;
    gp_report_load_stream(r, in, "fuzz.jsonl", NULL);
    fclose(in);
    /* source and SASS text as the report tool gives them, so the source
     * views are written too */
    for (size_t i = 0; r->source && i < r->source->n_files; i++) {
        static const char text[] = "int k()\n{\n\tx = a < b && c;\n}\n";
        char *t = malloc(sizeof text);
        if (t) {
            memcpy(t, text, sizeof text);
            gp_source_text_set_file(r->source, (int)i, t, sizeof text - 1, NULL);
        }
    }
    for (size_t i = 0; r->source && i < r->source->n_funcs; i++)
        for (long pc = 0; pc < r->source->funcs[i].code_bytes && pc < 4096; pc += 16)
            gp_source_text_set_sass(&r->source->funcs[i], pc, pc % 32 ? "@!P0 BRA 0x40" : "EXIT");
    gp_report_finish(r);
    gp_report_text(r, gp_fuzz_sink());
    gp_report_text_details(r, gp_fuzz_sink());
    gp_report_csv(r, gp_fuzz_sink());
    gp_report_html(r, gp_fuzz_sink());
    gp_report_html_details(r, gp_fuzz_sink());
    gp_report_json(r, gp_fuzz_sink());
    gp_report_source_csv(r, gp_fuzz_sink());
    gp_report_ncu_source_csv(r, gp_fuzz_sink());
    gp_report_ncu_csv(r, gp_fuzz_sink());
    gp_report_ncu_raw_csv(r, gp_fuzz_sink());
    gp_report_summary(r, gp_fuzz_sink(), 5);
    {
        /* Nsight Compute's pages: the records' own sections, and every one */
        gp_details_opts o = {0};
        gp_report_details_text(r, &o, gp_fuzz_sink());
        gp_report_details_csv(r, &o, gp_fuzz_sink());
        gp_report_summary_text(r, &o, gp_fuzz_sink());
        o.sections = gp_ncu_mask_all();
        o.base_units = 1;
        gp_report_details_csv(r, &o, gp_fuzz_sink());
        gp_report_summary_csv(r, &o, gp_fuzz_sink());
        gp_report_raw_text(r, &o, gp_fuzz_sink());
    }
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
