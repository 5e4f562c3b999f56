/* pcs_probe_rp.c - the PC Sampling probe's modes beside CUPTI's other
 * collectors (pcs_probe.c has the kernels, sampling itself and main):
 *   rp        the range profiler's pass with sampling inside it
 *   rpcycle   the range profiler enabled and disabled between sampled launches
 *   sass      CUPTI's SASS Metrics pass while sampling is enabled (stopped)
 *   combo     SASS passes and sampled launches in turn (COMBO=1..4)
 *   correlate samples with CUPTI's source line per PC and the cubin's CRC */
#include <cuda.h>
#include <cupti.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/cupti_host.h"
#include "replay/sass_metrics.h"
#include "tests/gpu/drv_util.h"
#include "tests/gpu/where/pcs_probe.h"

/* The range profiler around one launch of kernel k, sampling inside its
 * range when `sample`.  Prints the values. */
static CUpti_RangeProfiler_Object *rp_obj;
static uint8_t *rp_img;
static size_t rp_img_size;

/* A range profiler object for ctx (rp_obj). */
static void rp_open(CUcontext ctx)
{
    CUpti_RangeProfiler_Enable_Params en = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = ctx;
    CU(cuptiRangeProfilerEnable(&en));
    rp_obj = en.pRangeProfilerObject;
}

/* A counter data image of one range for names (rp_img, rp_img_size). */
static void rp_size_image(const char **names, size_t n)
{
    CUpti_RangeProfiler_GetCounterDataSize_Params gs = {
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    gs.pRangeProfilerObject = rp_obj;
    gs.pMetricNames = names;
    gs.numMetrics = n;
    gs.maxNumOfRanges = 1;
    gs.maxNumRangeTreeNodes = 1;
    CU(cuptiRangeProfilerGetCounterDataSize(&gs));
    rp_img_size = gs.counterDataSize;
    free(rp_img);
    rp_img = malloc(rp_img_size);
}

static void rp_close(void)
{
    CUpti_RangeProfiler_Disable_Params ds = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    ds.pRangeProfilerObject = rp_obj;
    CU(cuptiRangeProfilerDisable(&ds));
}

static void rp_pass(CUcontext ctx, gp_host_config *cfg, int k, int sample)
{
    size_t cfg_size;
    const uint8_t *cfg_img = gp_host_config_image(cfg, &cfg_size);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    ci.pRangeProfilerObject = rp_obj;
    ci.counterDataSize = rp_img_size;
    ci.pCounterData = rp_img;
    CU(cuptiRangeProfilerCounterDataImageInitialize(&ci));
    CUpti_RangeProfiler_SetConfig_Params sc = {CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    sc.pRangeProfilerObject = rp_obj;
    sc.configSize = cfg_size;
    sc.pConfig = cfg_img;
    sc.counterDataImageSize = rp_img_size;
    sc.pCounterDataImage = rp_img;
    sc.range = CUPTI_UserRange;
    sc.replayMode = CUPTI_UserReplay;
    sc.maxRangesPerPass = 1;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.targetNestingLevel = 1;
    CU(cuptiRangeProfilerSetConfig(&sc));
    int all = 0, passes = 0;
    while (!all && passes < 16) {
        if (sample == 2)
            pcs_start(ctx);
        CUpti_RangeProfiler_Start_Params st = {CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
        st.pRangeProfilerObject = rp_obj;
        CUptiResult sr0 = cuptiRangeProfilerStart(&st);
        if (sr0 != CUPTI_SUCCESS) {
            CU(sr0);
            printf("  range profiler pass not started: giving up on it\n");
            return;
        }
        CUpti_RangeProfiler_PushRange_Params pu = {
            CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
        pu.pRangeProfilerObject = rp_obj;
        pu.pRangeName = pcs_kernel_name[k];
        CU(cuptiRangeProfilerPushRange(&pu));
        if (sample == 1)
            pcs_start(ctx);
        pcs_launch(k);
        CUresult sr = cuCtxSynchronize();
        if (sr != CUDA_SUCCESS)
            printf("  kernel failed: %s\n", drv_error_text(sr));
        if (sample == 1)
            pcs_stop(ctx);
        CUpti_RangeProfiler_PopRange_Params po = {CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
        po.pRangeProfilerObject = rp_obj;
        CU(cuptiRangeProfilerPopRange(&po));
        CUpti_RangeProfiler_Stop_Params sp = {CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
        sp.pRangeProfilerObject = rp_obj;
        CU(cuptiRangeProfilerStop(&sp));
        if (sample == 2)
            pcs_stop(ctx);
        all = sp.isAllPassSubmitted;
        passes++;
    }
    CUpti_RangeProfiler_DecodeData_Params dd = {CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    dd.pRangeProfilerObject = rp_obj;
    CU(cuptiRangeProfilerDecodeData(&dd));
    size_t n = gp_host_config_count(cfg);
    double v[32];
    int rc = gp_host_config_evaluate(cfg, rp_img, rp_img_size, 0, v);
    printf("  %s %s sampling, %d passes%s:", pcs_kernel_name[k],
           sample == 2 ? "with outer"
           : sample    ? "with inner"
                       : "without",
           passes, rc ? " (evaluate failed)" : "");
    for (size_t i = 0; i < n && i < 32; i++)
        printf(" %s=%.4g", gp_host_config_name(cfg, i), v[i]);
    printf("\n");
}

static const char *ws_names[] = {
    "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_branch_resolving_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_drain_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_gmma_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_membar_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_misc_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_selected_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_sleeping_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_tex_throttle_per_issue_active.ratio",
    "smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",
    "smsp__average_warp_latency_per_inst_issued.ratio",
    "smsp__issue_active.avg.per_cycle_active",
    "smsp__warps_eligible.avg.per_cycle_active",
    "smsp__warps_active.avg.per_cycle_active",
};

void pcs_mode_rp(CUcontext ctx)
{
    CUpti_Profiler_Initialize_Params pi = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CU(cuptiProfilerInitialize(&pi));
    CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    CU(cuptiDeviceGetChipName(&cn));
    CUpti_Profiler_GetCounterAvailability_Params ca = {
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    ca.ctx = ctx;
    CU(cuptiProfilerGetCounterAvailability(&ca));
    uint8_t *avail = malloc(ca.counterAvailabilityImageSize);
    ca.pCounterAvailabilityImage = avail;
    CU(cuptiProfilerGetCounterAvailability(&ca));
    char err[1024];
    size_t nws = sizeof(ws_names) / sizeof(ws_names[0]);
    gp_host_config *ws = gp_host_config_create(cn.pChipName, avail, ca.counterAvailabilityImageSize,
                                               ws_names, nws, err, sizeof(err));
    printf("warp-state metrics (%zu) with this device's availability: %zu passes%s%s\n", nws,
           ws ? gp_host_config_passes(ws) : 0, ws ? "" : "; ", ws ? "" : err);
    const char *names[] = {
        "gpu__time_duration.sum",
        "smsp__inst_executed.sum",
        "sm__cycles_elapsed.avg",
        "smsp__warps_issue_stalled_long_scoreboard.sum",
        "smsp__issue_active.sum",
        "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"};
    gp_host_config *cfg = gp_host_config_create(
        cn.pChipName, avail, ca.counterAvailabilityImageSize, names, 6, err, sizeof(err));
    if (!cfg) {
        printf("config: %s\n", err);
        return;
    }
    if (pcs_enable(ctx, -1) != 0)
        return;
    rp_open(ctx);
    rp_size_image(names, 6);
    for (int k = 0; k < K_N; k++) {
        rp_pass(ctx, cfg, k, 0);
        pcs_rows_clear();
        rp_pass(ctx, cfg, k, getenv("OUTER") ? 2 : 1);
        pcs_get_data(ctx);
        char title[64];
        snprintf(title, sizeof(title), "  samples of %s inside the pass", pcs_kernel_name[k]);
        pcs_print_samples(title);
    }
    if (ws) { /* the warp-state set itself, with sampling in its last pass */
        rp_size_image(ws_names, nws);
        double t = pcs_now_us();
        rp_pass(ctx, ws, K_CHASE, 0);
        printf("  warp-state set on stall_chase: %.1f ms\n", (pcs_now_us() - t) / 1e3);
    }
    rp_close();
    pcs_disable(ctx);
}

/* the range profiler enabled and disabled between sampled launches: costs,
 * and which order CUPTI accepts */
void pcs_mode_rpcycle(CUcontext ctx)
{
    CUpti_Profiler_Initialize_Params pi = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CU(cuptiProfilerInitialize(&pi));
    CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    CU(cuptiDeviceGetChipName(&cn));
    const char *names[] = {"gpu__time_duration.sum", "smsp__inst_executed.sum"};
    char err[512];
    gp_host_config *cfg = gp_host_config_create(cn.pChipName, NULL, 0, names, 2, err, sizeof(err));
    if (!cfg || pcs_enable(ctx, -1) != 0)
        return;
    int dis = getenv("DISABLE") != NULL;
    for (int r = 0; r < 4; r++) {
        pcs_rows_clear();
        double te = pcs_now_us();
        pcs_enable(ctx, -1);
        te = pcs_now_us() - te;
        double a = pcs_start(ctx);
        pcs_launch(K_FMA);
        double b = pcs_stop(ctx);
        pcs_get_data(ctx);
        double td = pcs_now_us();
        if (dis)
            pcs_disable(ctx);
        td = pcs_now_us() - td;
        printf("round %d: sampling enable %.0f us, disable %.0f us\n", r, te, td);
        double t = pcs_now_us();
        rp_open(ctx);
        double t_en = pcs_now_us() - t;
        rp_size_image(names, 2);
        t = pcs_now_us();
        rp_pass(ctx, cfg, K_FMA, 0);
        double t_pass = pcs_now_us() - t;
        t = pcs_now_us();
        rp_close();
        double t_dis = pcs_now_us() - t;
        printf("round %d: %llu samples; sampling start %.0f us, stop %.0f us; range profiler "
               "enable %.0f us, pass %.0f us, disable %.0f us\n",
               r, (unsigned long long)pcs_tot_samples, a, b, t_en, t_pass, t_dis);
    }
    /* sampling started first, then the range profiler enabled */
    pcs_rows_clear();
    pcs_enable(ctx, -1);
    pcs_start(ctx);
    CUpti_RangeProfiler_Enable_Params en = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = ctx;
    CUptiResult er = cuptiRangeProfilerEnable(&en);
    printf("range profiler enable while sampling is started: %d\n", (int)er);
    pcs_launch(K_FMA);
    CK(cuCtxSynchronize());
    pcs_stop(ctx);
    pcs_get_data(ctx);
    printf("  samples meanwhile: %llu\n", (unsigned long long)pcs_tot_samples);
    if (er == CUPTI_SUCCESS) {
        rp_obj = en.pRangeProfilerObject;
        rp_pass(ctx, cfg, K_FMA, 0);
        rp_close();
    }
    pcs_disable(ctx);
}

void pcs_mode_sass(CUcontext ctx)
{
    CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    CU(cuptiDeviceGetChipName(&cn));
    if (pcs_enable(ctx, -1) != 0)
        return;
    char err[256];
    if (gp_sass_setup(0, cn.pChipName, err, sizeof(err)) != 0) {
        printf("sass setup: %s\n", err);
        return;
    }
    for (int k = 0; k < K_N; k++) {
        if (gp_sass_begin(ctx, err, sizeof(err)) != 0) {
            printf("sass begin: %s\n", err);
            return;
        }
        pcs_launch(k);
        CUresult sr = cuCtxSynchronize();
        gp_sass_record *r;
        size_t n;
        int er = gp_sass_end(ctx, &r, &n, err, sizeof(err));
        printf("SASS pass of %s with sampling enabled (stopped): kernel %s, %zu records%s%s\n",
               pcs_kernel_name[k], sr == CUDA_SUCCESS ? "ok" : drv_error_text(sr), n,
               er ? ": " : "", er ? err : "");
        if (k == K_CHASE)
            for (size_t i = 0; i < n; i++)
                printf("  %s +%#x inst %llu thread_pred_on %llu sectors %llu ideal %llu "
                       "divergent %llu\n",
                       r[i].function, r[i].pc, (unsigned long long)r[i].v[GP_SASS_INST],
                       (unsigned long long)r[i].v[GP_SASS_THREAD_INST],
                       (unsigned long long)r[i].v[GP_SASS_SECTORS],
                       (unsigned long long)r[i].v[GP_SASS_SECTORS_IDEAL],
                       (unsigned long long)r[i].v[GP_SASS_DIVERGENT]);
        gp_sass_records_free(r, n);
    }
    pcs_rows_clear();
    pcs_sample_all(ctx);
    pcs_print_samples("sampling after the SASS passes (unpatched launches)");
    pcs_disable(ctx);
}

/* The library's sequence: SASS passes and sampled launches in turn.
 * COMBO=1: the SASS set-up before sampling is enabled (the library's order);
 * 2: sampling enabled first; 3: as 1, the SASS set-up done again after
 * sampling is enabled; 4: as 1, the SASS configuration unset before
 * sampling is enabled. */
static int sass_pass(CUcontext ctx, int k)
{
    char err[256];
    if (getenv("LAZY") && atoi(getenv("LAZY")) == 0) { /* patched at enable, not at launch */
        CUpti_SassMetricsEnable_Params en = {CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
        en.ctx = ctx;
        en.enableLazyPatching = 0;
        CU(cuptiSassMetricsEnable(&en));
    } else if (gp_sass_begin(ctx, err, sizeof(err)) != 0) {
        printf("  sass begin: %s\n", err);
        return -1;
    }
    pcs_launch(k);
    CUresult sr = cuCtxSynchronize();
    gp_sass_record *r;
    size_t n;
    int er = gp_sass_end(ctx, &r, &n, err, sizeof(err));
    uint64_t inst = 0;
    for (size_t i = 0; i < n; i++)
        inst += r[i].v[GP_SASS_INST];
    printf("  SASS pass of %s: kernel %s, %zu records, %llu instructions%s%s\n", pcs_kernel_name[k],
           sr == CUDA_SUCCESS ? "ok" : drv_error_text(sr), n, (unsigned long long)inst,
           er ? ": " : "", er ? err : "");
    gp_sass_records_free(r, n);
    return 0;
}

static void sampled(CUcontext ctx, int k)
{
    pcs_rows_clear();
    pcs_start(ctx);
    pcs_launch(k);
    CK(cuCtxSynchronize());
    pcs_stop(ctx);
    pcs_get_data(ctx);
    uint64_t mine = 0;
    for (size_t r = 0; r < pcs_n_rows; r++)
        for (size_t j = 0; j < pcs_n_reasons; j++)
            mine += pcs_rows[r].by_reason[j];
    printf("  sampled %s: %llu samples, %llu non-user, %zu PCs, %llu in PC records\n",
           pcs_kernel_name[k], (unsigned long long)pcs_tot_samples,
           (unsigned long long)pcs_tot_nonuser, pcs_n_rows, (unsigned long long)mine);
    pcs_print_samples("   ");
    size_t order[8] = {0};
    for (int t = 0; t < 5; t++) { /* the five hottest PCs */
        size_t best = (size_t)-1;
        uint64_t bv = 0;
        for (size_t r = 0; r < pcs_n_rows; r++) {
            uint64_t v = 0;
            for (size_t j = 0; j < pcs_n_reasons; j++)
                if (!strstr(pcs_reason_name[j], "not_issued"))
                    v += pcs_rows[r].by_reason[j];
            int used = 0;
            for (int u = 0; u < t; u++)
                used |= order[u] == r;
            if (!used && v > bv)
                bv = v, best = r;
        }
        order[t] = best;
        if (best != (size_t)-1)
            printf("   hot %s +%#llx %llu\n", pcs_rows[best].fn,
                   (unsigned long long)pcs_rows[best].pc, (unsigned long long)bv);
    }
}

void pcs_mode_combo(CUcontext ctx)
{
    int v = getenv("COMBO") ? atoi(getenv("COMBO")) : 1;
    CUpti_Profiler_Initialize_Params pi = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CU(cuptiProfilerInitialize(&pi));
    CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    CU(cuptiDeviceGetChipName(&cn));
    char err[256];
    printf("combo %d\n", v);
    if (v == 2 && pcs_enable(ctx, -1) != 0)
        return;
    if (gp_sass_setup(0, cn.pChipName, err, sizeof(err)) != 0) {
        printf("sass setup: %s\n", err);
        return;
    }
    sass_pass(ctx, K_CHASE);
    if (v == 4) { /* the SASS configuration dropped before sampling is enabled */
        gp_sass_teardown(0);
        printf("  SASS configuration unset\n");
    }
    if (pcs_enable(ctx, -1) != 0)
        return;
    if (v == 3 && gp_sass_setup(0, cn.pChipName, err, sizeof(err)) != 0)
        printf("sass setup again: %s\n", err);
    sampled(ctx, K_CHASE);
    sampled(ctx, K_FMA); /* before its SASS pass */
    sass_pass(ctx, K_FMA);
    sampled(ctx, K_FMA);
    sass_pass(ctx, K_BARRIER);
    sampled(ctx, K_BARRIER);
    sampled(ctx, K_STREAM);
    pcs_disable(ctx);
}

void pcs_mode_correlate(CUcontext ctx, const void *image, size_t size)
{
    if (pcs_enable(ctx, -1) != 0)
        return;
    pcs_sample_all(ctx);
    CUpti_GetCubinCrcParams cc = {CUpti_GetCubinCrcParamsSize};
    cc.cubin = image;
    cc.cubinSize = size;
    CU(cuptiGetCubinCrc(&cc));
    printf("cubin CRC %#llx; samples' CRC %#llx\n", (unsigned long long)cc.cubinCrc,
           pcs_n_rows ? (unsigned long long)pcs_rows[0].crc : 0ull);
    for (size_t r = 0; r < pcs_n_rows; r++) {
        CUpti_GetSassToSourceCorrelationParams p = {CUpti_GetSassToSourceCorrelationParamsSize};
        p.cubin = image;
        p.cubinSize = size;
        p.functionName = pcs_rows[r].fn;
        p.pcOffset = pcs_rows[r].pc;
        CUptiResult cr = cuptiGetSassToSourceCorrelation(&p);
        uint64_t all = 0;
        size_t best = 0;
        for (size_t j = 0; j < pcs_n_reasons; j++) {
            all += pcs_rows[r].by_reason[j];
            if (pcs_rows[r].by_reason[j] > pcs_rows[r].by_reason[best])
                best = j;
        }
        printf("  %s +%#llx %s:%u (%d) %llu samples, most %s\n", pcs_rows[r].fn,
               (unsigned long long)pcs_rows[r].pc, p.fileName ? p.fileName : "?", p.lineNumber,
               (int)cr, (unsigned long long)all, pcs_reason_name[best]);
        free(p.fileName);
        free(p.dirName);
    }
    pcs_disable(ctx);
}
