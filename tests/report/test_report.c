/* test_report.c - report generation from the fixtures in tests/data/report:
 * the planted problem of each kernel named first, no false alarm on the
 * streaming copy, time-weighted aggregation over launches and files, n/a
 * never printed as 0, malformed input, and gp_report_summarize_jsonl. */
#include <math.h>
#include <stdlib.h>

#include "capture.h"
#include "gp_test.h"
#include "metrics/report/report.h"
#include "metrics/report/report_api.h"

#define FIX "tests/data/report/"

static const gp_kernel_report *find(const gp_report *r, const char *prefix)
{
    size_t i;
    for (i = 0; i < r->n; i++)
        if (strncmp(r->kernels[i].agg.kernel, prefix, strlen(prefix)) == 0)
            return &r->kernels[i];
    return NULL;
}

static void check_first(const gp_report *r, const char *kernel, const char *label)
{
    const gp_kernel_report *k = find(r, kernel);
    char got[64] = "(none)";
    if (k && k->n_verdicts)
        gp_verdict_label(&k->verdicts[0], got, sizeof got);
    GP_CHECK_MSG(k && strcmp(got, label) == 0, "%s: first verdict %s, want %s", kernel, got, label);
}

static void test_planted(void)
{
    gp_report *r = malloc(sizeof *r);
    const gp_kernel_report *k;
    char *text, *csv, *html;
    gp_report_init(r, NULL);
    GP_CHECK(gp_report_load(r, FIX "h100-planted.jsonl", stderr) == 12);
    gp_report_finish(r);
    GP_CHECK(r->n == 10 && r->bad_lines == 0 && r->summaries == 1);
    GP_CHECK(r->n_devices == 1 && r->devices[0].d.sm_count == 132);
    /* sorted by total time: one_block (2 ms) first, tiny_kernel (6.3 us) last */
    GP_CHECK(strncmp(r->kernels[0].agg.kernel, "one_block", 9) == 0);
    GP_CHECK(strncmp(r->kernels[r->n - 1].agg.kernel, "tiny_kernel", 11) == 0);

    check_first(r, "saxpy_4x4", "low_occupancy(blocks)");
    check_first(r, "smem_bank_conflict", "bank_conflicts");
    check_first(r, "strided_load", "uncoalesced(load)");
    check_first(r, "half_warp_divergent", "divergence");
    check_first(r, "one_block", "few_blocks");
    check_first(r, "register_heavy", "low_occupancy(registers)");
    check_first(r, "tiny_kernel", "launch_overhead");
    check_first(r, "sgemm_tiled", "compute_bound(fp32)");
    /* the coalesced copy: DRAM bound and nothing else */
    k = find(r, "copy_coalesced");
    GP_CHECK(k && k->n_verdicts == 1 && k->verdicts[0].kind == GP_V_DRAM_BOUND);
    /* the strided load is also DRAM bound, but its waste ranks first */
    k = find(r, "strided_load");
    GP_CHECK(k && k->n_verdicts == 2 && k->verdicts[1].kind == GP_V_DRAM_BOUND);
    /* evidence quotes the numbers */
    GP_CHECK(k && strstr(k->verdicts[0].evidence, "12.5%") != NULL);
    k = find(r, "saxpy_4x4");
    GP_CHECK(k && strstr(k->verdicts[0].evidence, "25.0% of threads") != NULL);
    GP_CHECK(k && strstr(k->verdicts[0].advice, "16x16") != NULL);
    GP_CHECK(k && k->n_verdicts == 1); /* half-empty warps are not divergence */

    /* time-weighted aggregation: 3 launches of 2.1, 2.3, 1.9 us at 60, 70, 80%
     * achieved occupancy -> (126 + 161 + 152) / 6.3 */
    k = find(r, "tiny_kernel");
    GP_CHECK(k && k->agg.launches == 3);
    GP_CHECK_NEAR(k->agg.row.v[GP_M_DURATION], 6.3e-6, 1e-9);
    GP_CHECK_NEAR(k->agg.row.v[GP_M_ACHIEVED_OCCUPANCY], 439.0 / 6.3, 1e-9);
    GP_CHECK_NEAR(k->agg.row.v[GP_M_DRAM_BYTES], 3 * 2 * 2112 * 128 * 4.0, 1e-12); /* summed */

    /* the instrumented pass failed: n/a with the reason, never 0 */
    k = find(r, "reduce_partial");
    GP_CHECK(k && isnan(k->agg.row.v[GP_M_FP32_FLOPS]) && isnan(k->agg.row.v[GP_M_RF_G]));
    GP_CHECK(k && strstr(k->agg.row.why[GP_M_RF_G], "CUPTI_ERROR_NOT_SUPPORTED") != NULL);

    text = capture(r, gp_report_text);
    csv = capture(r, gp_report_csv);
    html = capture(r, gp_report_html);
    GP_CHECK(strstr(text, "nan") == NULL && strstr(csv, "nan") == NULL);
    GP_CHECK(strstr(text, "instrumented pass failed") != NULL);
    GP_CHECK(strstr(csv, "\n1,one_block,\"one_block(const float*, float*, int)\",0,1,") != NULL);
    GP_CHECK(strstr(csv, ",low_occupancy(registers),") != NULL);
    GP_CHECK(strstr(html, "<svg") != NULL);
    GP_CHECK(strstr(html, "<script src") == NULL && strstr(html, "<link") == NULL);
    free(text);
    free(csv);
    free(html);
    gp_report_free(r);
    free(r);
}

static void test_two_files_and_peaks(void)
{
    gp_report *r = malloc(sizeof *r);
    gp_peaks p;
    char err[256];
    const gp_kernel_report *k;
    GP_CHECK(gp_peaks_load(FIX "peaks-h100.json", &p, err, sizeof err) == 0);
    GP_CHECK_NEAR(p.dram_bytes_per_s, 3.0e12, 1e-12);
    GP_CHECK(isnan(p.fp16_flops_per_s));
    GP_CHECK(gp_peaks_load(FIX "peaks-gpupeak1.json", &p, err, sizeof err) == 0);
    GP_CHECK_NEAR(p.dram_bytes_per_s, 2.95e12, 1e-12); /* dram_copy wins over dram_read */
    GP_CHECK_NEAR(p.fp32_flops_per_s, 5.9e13, 1e-12);
    GP_CHECK_NEAR(p.l2_bytes_per_s, 8.1e12, 1e-12);
    GP_CHECK(isnan(p.fp16_flops_per_s)); /* null with "why": n/a, not 0 */
    GP_CHECK_STR(p.device, "NVIDIA H100 80GB HBM3");
    GP_CHECK(gp_peaks_load(FIX "malformed.jsonl", &p, err, sizeof err) == -1);
    GP_CHECK(gp_peaks_load(FIX "h100-planted.jsonl", &p, err, sizeof err) == -1);
    GP_CHECK(gp_peaks_load(FIX "peaks-h100.json", &p, err, sizeof err) == 0);
    gp_report_init(r, &p);
    GP_CHECK(gp_report_load(r, FIX "h100-planted.jsonl", NULL) == 12);
    GP_CHECK(gp_report_load(r, FIX "h100-second.jsonl", NULL) == 1);
    gp_report_finish(r);
    k = find(r, "copy_coalesced");
    /* 180 us + 360 us; bytes add; utilization weighted by time:
     * (2.983 TB/s x 180 + 2.983 TB/s x 360) / 540 */
    GP_CHECK(k && k->agg.launches == 2);
    GP_CHECK_NEAR(k->agg.row.v[GP_M_DURATION], 540e-6, 1e-9);
    GP_CHECK_NEAR(k->agg.row.v[GP_M_DRAM_BYTES], 6.0 * 268435456, 1e-12);
    GP_CHECK_NEAR(k->agg.row.v[GP_M_DRAM_BYTES_PER_S], 2.0 * 268435456 / 180e-6, 1e-9);
    GP_CHECK_NEAR(k->agg.row.v[GP_M_DRAM_UTIL_MEASURED], 100 * 2.0 * 268435456 / 180e-6 / 3e12,
                  1e-9);
    /* sgemm: measured FP32 ceiling 52 TFLOP/s */
    k = find(r, "sgemm_tiled");
    GP_CHECK(k && k->roof.measured_binding >= 0 && k->roof.measured_compute_binds);
    GP_CHECK_NEAR(k->roof.level[GP_LEVEL_DRAM].measured.pct,
                  100 * k->agg.row.v[GP_M_FLOPS_PER_S] / 5.2e13, 1e-9);
    gp_report_free(r);
    free(r);
}

static void test_malformed_and_api(void)
{
    gp_report *r = malloc(sizeof *r);
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    gp_report_init(r, NULL);
    GP_CHECK(gp_report_load(r, FIX "malformed.jsonl", NULL) == 1);
    GP_CHECK(r->bad_lines == 1);
    GP_CHECK(gp_report_load(r, FIX "does-not-exist.jsonl", NULL) == -1);
    gp_report_free(r);
    free(r);

    f = open_memstream(&buf, &len);
    GP_CHECK(gp_report_summarize_jsonl(FIX "malformed.jsonl", f, 5) == -1);
    GP_CHECK(gp_report_summarize_jsonl(FIX "does-not-exist.jsonl", f, 5) == -1);
    GP_CHECK(gp_report_summarize_jsonl(NULL, f, 5) == -1);
    fflush(f);
    GP_CHECK(len == 0); /* nothing printed on failure */
    GP_CHECK(gp_report_summarize_jsonl(FIX "h100-planted.jsonl", f, 3) == 0);
    fclose(f);
    GP_CHECK(buf && strstr(buf, "top 3") && strstr(buf, "one_block") &&
             strstr(buf, "too few blocks") && !strstr(buf, "tiny_kernel"));
    free(buf);
}

int main(void)
{
    test_planted();
    test_two_files_and_peaks();
    test_malformed_and_api();
    return gp_test_finish("report-model");
}
