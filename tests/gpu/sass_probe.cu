// sass_probe.cu - a contributor's diagnostic: collects one SASS-instrumented
// metric and one hardware metric for a known kernel through the range
// profiler directly (no libgpuprof.so), with and without a CUPTI callback
// subscriber, to tell whether the instrumented metrics work at all here.
//   sass_probe [subscribe]
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_sass_metrics.h>
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
extern "C" {
#include "replay/range_profiler.h"
}

__global__ void fma_sp(float *out, int iters, float b, float c)
{
    float a0 = threadIdx.x, a1 = a0 + 1.0f;
    for (int i = 0; i < iters; i++) {
        a0 = fmaf(a0, b, c);
        a1 = fmaf(a1, b, c);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a0 + a1;
}

static void CUPTIAPI cb(void *, CUpti_CallbackDomain, CUpti_CallbackId, const void *) {}

int main(int argc, char **argv)
{
    int subscribe = argc > 1 && strcmp(argv[1], "subscribe") == 0;
    int mode = argc > 2 ? atoi(argv[2]) : 0; // 0 user range, 1 auto range, 2 kernel replay
    CUpti_SubscriberHandle sub;
    if (subscribe) {
        printf("subscribe: %d\n", cuptiSubscribe(&sub, cb, NULL));
        cuptiEnableDomain(1, sub, CUPTI_CB_DOMAIN_DRIVER_API);
    }
    int warm = !(argc > 3 && strcmp(argv[3], "cold") == 0);
    float *out;
    cudaMalloc(&out, 128 * 256 * sizeof(float));
    if (warm) /* loads the module before the profiler starts */
        fma_sp<<<128, 256>>>(out, 100, 0.5f, 1.0f);
    cudaDeviceSynchronize();
    CUcontext ctx;
    cuCtxGetCurrent(&ctx);
    char err[512];
    printf("init: %d\n", gp_rp_global_init(err, sizeof err));
    if (mode == 3) { /* the SASS Metrics API, per instruction */
        const char *mn[] = {"smsp__sass_thread_inst_executed_pred_on", "smsp__sass_inst_executed",
                            "smsp__sass_sectors_mem_global", "smsp__sass_sectors_mem_global_ideal"};
        CUpti_SassMetrics_Config cfg[4];
        for (int i = 0; i < 4; i++) {
            CUpti_SassMetrics_GetProperties_Params pp = {CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
            pp.pChipName = "GH100";
            pp.pMetricName = mn[i];
            printf("props %s: %d id %llu\n", mn[i], cuptiSassMetricsGetProperties(&pp),
                   (unsigned long long)pp.metric.metricId);
            cfg[i].metricId = pp.metric.metricId;
            cfg[i].outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
        }
        CUpti_SassMetricsSetConfig_Params sc = {CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
        sc.numOfMetricConfig = 4;
        sc.pConfigs = cfg;
        sc.deviceIndex = 0;
        printf("setconfig %d\n", cuptiSassMetricsSetConfig(&sc));
        CUpti_SassMetricsEnable_Params en = {CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
        en.ctx = ctx;
        en.enableLazyPatching = 1;
        printf("enable %d\n", cuptiSassMetricsEnable(&en));
        fma_sp<<<128, 256>>>(out, 100, 0.5f, 1.0f);
        cudaDeviceSynchronize();
        CUpti_SassMetricsGetDataProperties_Params dp = {CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
        dp.ctx = ctx;
        printf("props %d records %zu instances %zu\n", cuptiSassMetricsGetDataProperties(&dp),
               dp.numOfPatchedInstructionRecords, dp.numOfInstances);
        size_t nr = dp.numOfPatchedInstructionRecords, ni = dp.numOfInstances;
        CUpti_SassMetrics_Data *d = (CUpti_SassMetrics_Data *)calloc(nr, sizeof *d);
        for (size_t i = 0; i < nr; i++) {
            d[i].structSize = sizeof(CUpti_SassMetrics_Data);
            d[i].pInstanceValues = (CUpti_SassMetrics_InstanceValue *)calloc(ni * 4, sizeof(CUpti_SassMetrics_InstanceValue));
        }
        CUpti_SassMetricsFlushData_Params fd = {CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
        fd.ctx = ctx;
        fd.numOfPatchedInstructionRecords = nr;
        fd.numOfInstances = ni;
        fd.pMetricsData = d;
        printf("flush %d\n", cuptiSassMetricsFlushData(&fd));
        unsigned long long sum[4] = {0, 0, 0, 0};
        for (size_t i = 0; i < nr; i++) {
            printf("  %s pc %u:", d[i].functionName, d[i].pcOffset);
            for (size_t k = 0; k < ni * 4; k++) {
                for (int m = 0; m < 4; m++)
                    if (d[i].pInstanceValues[k].metricId == cfg[m].metricId)
                        sum[m] += d[i].pInstanceValues[k].value;
                printf(" %llu", (unsigned long long)d[i].pInstanceValues[k].value);
            }
            printf("\n");
        }
        printf("sums: thread_inst_pred_on %llu inst %llu sectors %llu ideal %llu\n", sum[0], sum[1], sum[2], sum[3]);
        return 0;
    }
    if (mode == 4 || mode == 5) { /* the SASS Metrics API configured on the device (5: and enabled) */
        CUpti_SassMetrics_GetProperties_Params pp = {CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
        pp.pChipName = "GH100";
        pp.pMetricName = "smsp__sass_inst_executed";
        cuptiSassMetricsGetProperties(&pp);
        CUpti_SassMetrics_Config cfg = {pp.metric.metricId, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU};
        CUpti_SassMetricsSetConfig_Params sc = {CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
        sc.numOfMetricConfig = 1;
        sc.pConfigs = &cfg;
        sc.deviceIndex = 0;
        printf("sass setconfig %d\n", cuptiSassMetricsSetConfig(&sc));
        if (mode == 5) {
            CUpti_SassMetricsEnable_Params en = {CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
            en.ctx = ctx;
            en.enableLazyPatching = 1;
            printf("sass enable %d\n", cuptiSassMetricsEnable(&en));
        }
    }
    const char *names[] = {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                           "smsp__sass_inst_executed.sum", "smsp__inst_executed.sum",
                           "gpu__time_duration.sum"};
    /* SASS_PROBE_METRICS=a,b,c,d replaces the four (e.g. sm__ counters) */
    static char own[1024];
    const char *env = getenv("SASS_PROBE_METRICS");
    if (env && strlen(env) < sizeof own) {
        strcpy(own, env);
        char *save = NULL;
        for (int i = 0; i < 4; i++) {
            char *t = strtok_r(i ? NULL : own, ",", &save);
            if (t)
                names[i] = t;
        }
    }
    int ec;
    gp_rp *rp = gp_rp_create(ctx, 0, names, 4, 1, &ec, err, sizeof err);
    if (!rp) {
        printf("create failed: %s\n", err);
        return 1;
    }
    gp_rp_set_auto_range(rp, mode == 1);
    if (mode >= 4)
        mode = 0;
    gp_rp_set_kernel_replay(rp, mode == 2);
    printf("passes %zu\n", gp_rp_passes(rp, GP_RP_FULL));
    for (int rep = 0; rep < 2; rep++) {
        if (gp_rp_begin(rp, GP_RP_FULL, err, sizeof err)) {
            printf("begin: %s\n", err);
            return 1;
        }
        int all = 0, p = 0;
        while (!all && p < 8) {
            gp_rp_pass_start(rp, "r", NULL, NULL, err, sizeof err);
            fma_sp<<<128, 256>>>(out, 100, 0.5f, 1.0f);
            if (gp_rp_pass_end(rp, &all, err, sizeof err))
                printf("end: %s\n", err);
            cudaDeviceSynchronize();
            p++;
        }
        double v[4];
        int rc = gp_rp_finish(rp, v, err, sizeof err);
        printf("rep %d passes %d rc %d: %s=%g %s=%g %s=%g %s=%g %s\n", rep, p, rc, names[0], v[0],
               names[1], v[1], names[2], v[2], names[3], v[3], rc ? err : "");
    }
    return 0;
}
