/* test_derived.c - derived metrics on a hand-made launch whose values are
 * computed by hand: unit conversion, precision sums, utilization against the
 * architectural and measured ceilings, division by zero, a counter that is
 * null with a reason, a counter that was not collected, the roofline. */
#include <math.h>
#include <stdlib.h>

#include "metrics/catalog/derived.h"
#include "gp_test.h"
#include "metrics/catalog/roofline.h"

static const char *launch_json =
    "{\"type\":\"launch\",\"kernel\":\"k\",\"grid\":[1056,1,1],\"block\":[256,1,1],"
    "\"regs_per_thread\":32,\"static_smem\":0,\"dynamic_smem\":0,\"metrics\":{"
    "\"gpu__time_duration.sum\":250000,"
    "\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum\":1e9,"
    "\"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum\":5e8,"
    "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\":2e9,"
    "\"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum\":0,"
    "\"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum\":0,"
    "\"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum\":0,"
    "\"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum\":0,"
    "\"smsp__sass_thread_inst_executed_op_hmul_pred_on.sum\":0,"
    "\"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum\":0,"
    "\"l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum\":1e9,"
    "\"l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum\":0,"
    "\"dram__bytes_read.sum\":6e8,\"dram__bytes_write.sum\":1.2e8,"
    "\"dram__bytes.sum.peak_sustained\":1280,\"dram__cycles_elapsed.avg.per_second\":2.5e9,"
    "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained\":16896,"
    "\"sm__cycles_elapsed.avg.per_second\":1.755e9,"
    "\"lts__t_bytes.sum\":0,"
    "\"l1tex__t_bytes.sum\":null,"
    "\"sm__warps_active.avg.pct_of_peak_sustained_active\":80,"
    "\"smsp__average_thread_inst_executed_per_inst_executed.ratio\":24,"
    "\"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct\":50"
    "},\"missing\":{\"l1tex__t_bytes.sum\":\"pass 2 failed\"}}";

static void eval(const char *json, const gp_peaks *peaks, gp_derived_row *row, gp_occ_result *occ)
{
    char err[160];
    gp_json *j = gp_json_parse(json, strlen(json), err, sizeof err);
    gp_launch l;
    gp_device d;
    gp_occ_input in;
    gp_facts f;
    GP_CHECK_MSG(j != NULL, "%s", err);
    GP_CHECK(gp_record_launch(j, &l, err, sizeof err) == 0);
    gp_device_h100(&d);
    memset(&in, 0, sizeof in);
    in.threads_per_block = (int)gp_record_threads_per_block(&l);
    in.regs_per_thread = l.regs_per_thread;
    in.max_dynamic_smem = in.carveout_pct = -1;
    gp_occupancy_compute(&d, &in, occ);
    f.launch = &l;
    f.device = &d;
    f.occ = occ;
    f.peaks = peaks;
    GP_CHECK(gp_derived_eval(&f, row) == 0);
    gp_record_launch_free(&l);
    gp_json_free(j);
}

int main(void)
{
    gp_derived_row *row = malloc(sizeof *row);
    gp_occ_result occ;
    gp_peaks peaks;
    gp_roofline roof;
    gp_peaks_none(&peaks);
    peaks.dram_bytes_per_s = 3.0e12;
    peaks.fp32_flops_per_s = 5.0e13;
    snprintf(peaks.source, sizeof peaks.source, "test");
    eval(launch_json, &peaks, row, &occ);

    GP_CHECK_NEAR(row->v[GP_M_DURATION], 2.5e-4, 1e-12);      /* ns -> s */
    GP_CHECK_NEAR(row->v[GP_M_FP32_FLOPS], 5.5e9, 1e-12);     /* 1e9 + 5e8 + 2 x 2e9 */
    GP_CHECK_NEAR(row->v[GP_M_FLOPS], 5.5e9, 1e-12);
    GP_CHECK_NEAR(row->v[GP_M_RF_G], 5.5, 1e-12);             /* / 1e9 global bytes */
    GP_CHECK_NEAR(row->v[GP_M_FP32_FLOPS_PER_S], 2.2e13, 1e-12);
    GP_CHECK_NEAR(row->v[GP_M_ARCH_FP32_FLOPS_PER_S], 2 * 16896 * 1.755e9, 1e-12);
    GP_CHECK_NEAR(row->v[GP_M_FP32_UTIL], 100 * 2.2e13 / 5.930496e13, 1e-9);
    GP_CHECK_NEAR(row->v[GP_M_DRAM_BYTES_PER_S], 2.88e12, 1e-12); /* 7.2e8 B / 250 us */
    GP_CHECK_NEAR(row->v[GP_M_ARCH_DRAM_BYTES_PER_S], 3.2e12, 1e-12);
    GP_CHECK_NEAR(row->v[GP_M_DRAM_UTIL], 90, 1e-12);
    GP_CHECK_NEAR(row->v[GP_M_DRAM_UTIL_MEASURED], 96, 1e-12);
    GP_CHECK_NEAR(row->v[GP_M_AI_DRAM], 5.5e9 / 7.2e8, 1e-12);
    GP_CHECK_NEAR(row->v[GP_M_WARP_EXECUTION_EFFICIENCY], 75, 1e-12);
    GP_CHECK_NEAR(row->v[GP_M_LANE_FILL], 100, 1e-12);
    GP_CHECK_NEAR(row->v[GP_M_BRANCH_EFFICIENCY], 75, 1e-12);
    GP_CHECK_NEAR(row->v[GP_M_THEORETICAL_OCCUPANCY], 100, 1e-12);
    GP_CHECK_NEAR(row->v[GP_M_OCCUPANCY_RATIO], 80, 1e-12);
    GP_CHECK_NEAR(row->v[GP_M_WAVES], 1, 1e-12);               /* 1056 / (8 x 132) */
    GP_CHECK_NEAR(row->v[GP_M_WAVE_EFFICIENCY], 100, 1e-12);
    GP_CHECK_NEAR(row->v[GP_M_GLD_BYTES_PER_REQUEST_SECTOR], 16, 1e-12);

    /* no L2 bytes: no intensity at L2, saying so */
    GP_CHECK(isnan(row->v[GP_M_AI_L2]));
    GP_CHECK_MSG(strstr(row->why[GP_M_AI_L2], "no L2 traffic") != NULL, "%s",
                 row->why[GP_M_AI_L2]);
    GP_CHECK_NEAR(row->v[GP_M_L2_BYTES_PER_S], 0, 1); /* 0 B/s is a real zero */
    /* null counter: n/a with the profiler's reason, through two formulas */
    GP_CHECK(isnan(row->v[GP_M_L1_BYTES_PER_S]) && isnan(row->v[GP_M_AI_L1]));
    GP_CHECK_MSG(strstr(row->why[GP_M_AI_L1], "pass 2 failed") != NULL, "%s",
                 row->why[GP_M_AI_L1]);
    /* counter not collected at all */
    GP_CHECK(isnan(row->v[GP_M_GST_EFFICIENCY]));
    GP_CHECK_MSG(strstr(row->why[GP_M_GST_EFFICIENCY], "not collected") != NULL, "%s",
                 row->why[GP_M_GST_EFFICIENCY]);
    /* a peak the file lacks */
    GP_CHECK(isnan(row->v[GP_M_ARCH_FP64_FLOPS_PER_S]));

    /* roofline: ai 7.64 x 3.2e12 = 2.44e13 < 5.93e13: DRAM binds (arch);
     * measured 7.64 x 3e12 = 2.29e13 */
    gp_roofline_compute(row->v, row->why[GP_M_FLOPS_PER_S], &peaks, &roof);
    GP_CHECK_STR(roof.precision, "FP32");
    GP_CHECK(roof.arch_binding == GP_LEVEL_DRAM && !roof.arch_compute_binds);
    GP_CHECK_NEAR(roof.level[GP_LEVEL_DRAM].arch.attainable, 5.5e9 / 7.2e8 * 3.2e12, 1e-12);
    GP_CHECK_NEAR(roof.level[GP_LEVEL_DRAM].arch.pct, 90, 1e-9); /* = DRAM utilization */
    GP_CHECK_NEAR(roof.level[GP_LEVEL_DRAM].measured.pct, 96, 1e-9);
    GP_CHECK_NEAR(roof.level[GP_LEVEL_DRAM].arch.ridge, 5.930496e13 / 3.2e12, 1e-12);
    GP_CHECK(isnan(roof.level[GP_LEVEL_L2].arch.attainable)); /* n/a, not 0 */

    /* impossible values are n/a where they are derived: a share its
     * definition bounds beyond 100%, a difference of counters below 0, a
     * rate over a duration too small to divide by */
    eval("{\"type\":\"launch\",\"kernel\":\"k\",\"block\":[256,1,1],\"grid\":[1056,1,1],"
         "\"metrics\":{\"gpu__time_duration.sum\":1e-310,"
         "\"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum\":5,"
         "\"gpuprof__sass_thread_inst_executed_op_hfma_move_pred_on.sum\":9,"
         "\"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum\":0,"
         "\"smsp__sass_thread_inst_executed_op_hmul_pred_on.sum\":0,"
         "\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum\":1e9,"
         "\"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum\":0,"
         "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\":0,"
         "\"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct\":150,"
         "\"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct\":100.3,"
         "\"sm__warps_active.avg.pct_of_peak_sustained_active\":1e308}}",
         &peaks, row, &occ);
    GP_CHECK(isnan(row->v[GP_M_FP16_FLOPS]));
    GP_CHECK_MSG(strstr(row->why[GP_M_FP16_FLOPS], "impossible negative value -16"), "%s",
                 row->why[GP_M_FP16_FLOPS]);
    GP_CHECK(isnan(row->v[GP_M_GLD_EFFICIENCY]));
    GP_CHECK_MSG(strstr(row->why[GP_M_GLD_EFFICIENCY], "impossible value 150"), "%s",
                 row->why[GP_M_GLD_EFFICIENCY]);
    GP_CHECK_NEAR(row->v[GP_M_GST_EFFICIENCY], 100.3, 1e-12); /* rounding, kept as measured */
    GP_CHECK(isnan(row->v[GP_M_ACHIEVED_OCCUPANCY]) && isnan(row->v[GP_M_OCCUPANCY_RATIO]));
    GP_CHECK(isnan(row->v[GP_M_FP32_FLOPS_PER_S]));
    GP_CHECK_MSG(strstr(row->why[GP_M_FP32_FLOPS_PER_S], "overflow"), "%s",
                 row->why[GP_M_FP32_FLOPS_PER_S]);
    {
        size_t i;
        for (i = 0; i < GP_DERIVED_COUNT; i++)
            GP_CHECK_MSG(!isinf(row->v[i]) && !(row->v[i] < 0), "%s = %g", gp_derived_defs[i].name,
                         row->v[i]);
    }
    gp_roofline_compute(row->v, row->why[GP_M_FLOPS_PER_S], &peaks, &roof);
    GP_CHECK(isnan(roof.perf));
    for (size_t l = 0; l < GP_LEVEL_COUNT; l++)
        GP_CHECK(!isinf(roof.level[l].arch.pct) && !isinf(roof.level[l].measured.pct));
    {
        char buf[256];
        gp_roofline_describe(&roof, 1, buf, sizeof buf);
        GP_CHECK_MSG(!strstr(buf, "nan") && !strstr(buf, "inf") && strstr(buf, "n/a ("), "%s", buf);
    }

    /* metadata */
    GP_CHECK(gp_derived_index("rf_g") == GP_M_RF_G);
    GP_CHECK(gp_derived_index("nope") == -1);
    GP_CHECK(gp_derived_agg(GP_M_DRAM_BYTES) == GP_AGG_SUM);
    GP_CHECK(gp_derived_agg(GP_M_DRAM_UTIL) == GP_AGG_TIME);
    free(row);
    return gp_test_finish("report-derived");
}
