/* test_roofs.c - one definition per ceiling (metrics/catalog/roofs.def): the table
 * is consistent with derived.def, peaks.h and gpupeak.def; a gpupeak file
 * recorded on an H200 is read into each roof's quantity; every
 * measured ceiling of that file lands at or below the architectural one
 * computed from the H200's per-cycle peaks (the defects this table fixes:
 * FP16 131 TFLOP/s measured over 66.8 architectural, L1 at 25% of a tag-stage
 * roof no kernel reaches), per cycle whatever the clocks; and a measured
 * ceiling above the architectural one is a bug that is said and not drawn. */
#include <math.h>
#include <stdlib.h>

#include "metrics/catalog/derived.h"
#include "gp_test.h"
#include "metrics/catalog/roofline.h"
#include "metrics/catalog/roofs.h"

#define H200_PEAKS "tools/gpupeak/results/h200-peaks.json"

/* An H200 launch at clock hz: the per-cycle peaks CUPTI gives for GH100
 * (per SM: 128 FFMA, 64 DFMA, 128 HFMA thread instructions, 512 tag-stage
 * L1 bytes, one data-stage wavefront, one shared wavefront, 8192 tensor
 * operations (the 2:4 sparse rate: the dense roof is half), 128 bytes per
 * L1 writeback cycle, one per SM and cycle), 132 SMs, and a kernel doing the
 * given work in 1 ms. */
static void h200_launch(double hz, const char *work, gp_derived_row *row)
{
    char json[4096], err[160];
    gp_json *j;
    gp_launch l;
    gp_device d;
    gp_occ_input in;
    gp_occ_result occ;
    gp_facts f;
    gp_peaks none;
    snprintf(
        json, sizeof json,
        "{\"type\":\"launch\",\"kernel\":\"k\",\"grid\":[1056,1,1],\"block\":[256,1,1],"
        "\"metrics\":{\"gpu__time_duration.sum\":1e6,"
        "\"sm__cycles_elapsed.avg.per_second\":%.17g,"
        "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained\":16896,"
        "\"sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained\":8448,"
        "\"sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained\":16896,"
        "\"l1tex__t_bytes.sum.peak_sustained\":67584,"
        "\"l1tex__lsu_writeback_active_mem_lgds.sum.peak_sustained\":132,"
        "\"l1tex__cycles_elapsed.avg.per_second\":%.17g,"
        "\"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.peak_sustained\":132,"
        "\"sm__ops_path_tensor_src_fp16.sum.peak_sustained\":1081344,"
        "\"dram__bytes.sum.peak_sustained\":1536,\"dram__cycles_elapsed.avg.per_second\":3.2e9,"
        "\"lts__t_bytes.sum.peak_sustained\":5632,\"lts__cycles_elapsed.avg.per_second\":%.17g"
        "%s}}",
        hz, hz, hz, work);
    j = gp_json_parse(json, strlen(json), err, sizeof err);
    GP_CHECK_MSG(j != NULL, "%s", err);
    GP_CHECK_MSG(gp_record_launch(j, &l, err, sizeof err) == 0, "%s", err);
    gp_device_h100(&d);
    memset(&in, 0, sizeof in);
    in.threads_per_block = 256;
    in.max_dynamic_smem = in.carveout_pct = -1;
    gp_occupancy_compute(&d, &in, &occ);
    gp_peaks_none(&none);
    f.launch = &l;
    f.device = &d;
    f.occ = &occ;
    f.peaks = &none;
    GP_CHECK(gp_derived_eval(&f, row) == 0);
    gp_record_launch_free(&l);
    gp_json_free(j);
}

static void test_table(void)
{
    static const struct {
        const char *name, *key;
    } roofs_of_gpupeak[] = {
#define ROOF(key, factor) key
#define NOROOF NULL
#define GPK_TPUT(id, name, unit, per_count, theo, quick, sass, skip, peak, run) {name, peak},
#define GPK_MEM(id, name, quick, theo, what, peak, run) {name, peak},
#include "metrics/catalog/gpupeak.def"
#undef ROOF
#undef NOROOF
    };
    size_t i, k;
    for (i = 0; i < GP_ROOF_COUNT; i++) {
        const gp_roof_def *d = &gp_roof_defs[i];
        int found = 0;
        GP_CHECK_MSG(gp_derived_index(d->achieved) >= 0, "%s: no metric %s", d->name, d->achieved);
        GP_CHECK_MSG(gp_derived_index(d->arch) >= 0, "%s: no metric %s", d->name, d->arch);
        GP_CHECK_MSG(gp_peaks_key(d->peak) >= 0, "%s: no peaks key %s", d->name, d->peak);
        /* the benchmark the self-check profiles is one that fills this key */
        for (k = 0; k < sizeof roofs_of_gpupeak / sizeof roofs_of_gpupeak[0]; k++)
            if (strcmp(roofs_of_gpupeak[k].name, d->bench) == 0)
                found = roofs_of_gpupeak[k].key && strcmp(roofs_of_gpupeak[k].key, d->peak) == 0;
        GP_CHECK_MSG(found, "%s: gpupeak's %s does not measure %s", d->name, d->bench, d->peak);
        GP_CHECK(d->quantity[0] && d->ncu[0]);
    }
    /* every peaks key is some roof's */
    for (k = 0; k < GP_PEAK_COUNT; k++) {
        int used = 0;
        for (i = 0; i < GP_ROOF_COUNT; i++)
            used |= strcmp(gp_roof_defs[i].peak, gp_peaks_key_name((int)k)) == 0;
        GP_CHECK_MSG(used, "peaks key %s has no roof", gp_peaks_key_name((int)k));
    }
}

/* The recorded H200 run in each roof's quantity. */
static void test_recorded(gp_peaks *p)
{
    char err[300];
    GP_CHECK_MSG(gp_peaks_load(H200_PEAKS, p, err, sizeof err) == 0, "%s", err);
    GP_CHECK_NEAR(p->fp32_flops_per_s, 65289160000000.0, 1e-12);
    GP_CHECK_NEAR(p->fp16_flops_per_s, 131326640000000.0, 1e-12);   /* HFMA2 = 4, as ncu */
    GP_CHECK_NEAR(p->tensor_flops_per_s, 887438590000000.0, 1e-12); /* wgmma_bf16 */
    GP_CHECK_NEAR(p->dram_bytes_per_s, 3965270300000.0, 1e-12);     /* dram_copy wins */
    GP_CHECK_NEAR(p->l1_bytes_per_s, 32859350000000.0, 1e-12);
    GP_CHECK_NEAR(p->shared_bytes_per_s, 33058055000000.0, 1e-12); /* LDS.128 */
    GP_CHECK_NEAR(p->clock_mhz[GP_PEAK_tensor_flops_per_s], 1657.1205, 1e-12);
    GP_CHECK_NEAR(p->clock_mhz[GP_PEAK_l1_bytes_per_s], 1979.9692, 1e-12);
}

static void test_arithmetic(const gp_peaks *p)
{
    gp_derived_row *row = malloc(sizeof *row);
    gp_roof_check c[GP_ROOF_COUNT];
    double hz;
    int i;
    /* at the clock gpupeak ran at, and throttled: per cycle the measured
     * ceilings stay under the architectural ones, by at most a few per cent */
    for (hz = 1.98e9; hz > 1.5e9; hz -= 0.225e9) {
        h200_launch(hz, "", row);
        GP_CHECK_NEAR(row->v[GP_M_ARCH_FP16_FLOPS_PER_S], 4 * 16896 * hz, 1e-12);
        GP_CHECK_NEAR(row->v[GP_M_ARCH_L1_BYTES_PER_S], 128 * 132 * hz, 1e-12);
        GP_CHECK_NEAR(row->v[GP_M_ARCH_SHARED_BYTES_PER_S], 128 * 132 * hz, 1e-12);
        GP_CHECK_NEAR(row->v[GP_M_ARCH_TENSOR_OPS_PER_S], 4096 * 132 * hz, 1e-12);
        GP_CHECK_MSG(gp_roofs_check(row->v, p, c) == 0, "at %.3g Hz: %s %s %s", hz, c[0].why,
                     c[2].why, c[6].why);
        for (i = 0; i < GP_ROOF_COUNT; i++) {
            double share = c[i].measured_here / c[i].arch;
            if (i == GP_ROOF_DRAM || i == GP_ROOF_L2)
                continue; /* the H200's DRAM and L2 peaks are not these made-up ones */
            GP_CHECK_MSG(share > 0.95 && share <= 1 + GP_ROOFS_SLACK, "%s at %.3g Hz: %.4f",
                         gp_roof_defs[i].name, hz, share);
        }
    }
    free(row);
}

/* A measured FP16 ceiling twice the architectural one (the old defect: the
 * architectural roof counted an HFMA2 as 2 flops, gpupeak as 4) is a bug,
 * said, and the roofline does not draw it; the architectural roof stays. */
static void test_invariant(const gp_peaks *rec)
{
    gp_derived_row *row = malloc(sizeof *row);
    gp_roof_check c[GP_ROOF_COUNT];
    gp_roofline roof;
    gp_peaks p = *rec;
    p.fp16_flops_per_s = 2 * 131326640000000.0;
    h200_launch(1.98e9,
                ",\"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum\":1e10,"
                "\"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum\":0,"
                "\"smsp__sass_thread_inst_executed_op_hmul_pred_on.sum\":0,"
                "\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum\":0,"
                "\"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum\":0,"
                "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\":0,"
                "\"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum\":0,"
                "\"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum\":0,"
                "\"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum\":0,"
                "\"l1tex__t_bytes.sum\":1e9,\"lts__t_bytes.sum\":1e9,"
                "\"dram__bytes_read.sum\":1e9,\"dram__bytes_write.sum\":0",
                row);
    GP_CHECK(gp_roofs_check(row->v, &p, c) == 1);
    GP_CHECK(c[GP_ROOF_FP16].bug && !c[GP_ROOF_FP32].bug);
    GP_CHECK_MSG(strstr(c[GP_ROOF_FP16].why, "measured FP16 ceiling") &&
                     strstr(c[GP_ROOF_FP16].why, "above the architectural"),
                 "%s", c[GP_ROOF_FP16].why);
    gp_roofline_compute(row->v, row->why[GP_M_FLOPS_PER_S], &p, &roof);
    GP_CHECK_STR(roof.precision, "FP16");
    GP_CHECK(isnan(roof.level[GP_LEVEL_L1].measured.compute));                      /* not drawn */
    GP_CHECK_NEAR(roof.level[GP_LEVEL_L1].arch.compute, 4 * 16896 * 1.98e9, 1e-12); /* drawn */
    GP_CHECK(strstr(roof.bug, "FP16") != NULL);
    /* the same kernel against the file as read: no bug, the FP16 roof drawn */
    gp_roofline_compute(row->v, row->why[GP_M_FLOPS_PER_S], rec, &roof);
    GP_CHECK(!roof.bug[0] && !isnan(roof.level[GP_LEVEL_L1].measured.compute));
    /* a kernel above the architectural ceiling: its counters disagree */
    h200_launch(1.98e9, ",\"l1tex__t_bytes.sum\":1e11", row); /* 100 TB/s in 1 ms */
    GP_CHECK(gp_roofs_check(row->v, rec, c) == 1 && c[GP_ROOF_L1].bug);
    GP_CHECK_MSG(strstr(c[GP_ROOF_L1].why, "kernel's L1 rate"), "%s", c[GP_ROOF_L1].why);
    free(row);
}

int main(void)
{
    gp_peaks p;
    test_table();
    test_recorded(&p);
    test_arithmetic(&p);
    test_invariant(&p);
    return gp_test_finish("report-roofs");
}
