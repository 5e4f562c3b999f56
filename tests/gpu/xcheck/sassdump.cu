// sassdump.cu - a contributor's diagnostic: lists the SASS Metrics API's
// metrics for this GPU (name | description), then collects every one of them
// per instruction for each access-pattern kernel of patterns.cuh and prints
//   sum KERNEL METRIC VALUE          (summed over the kernel's instructions)
//   insn KERNEL PC METRIC=VALUE ...  (per instruction)
// so that the per-instruction counters can be set beside ncu's raw values.
//   sassdump [metric-group-size]
#include "patterns.cuh"
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cupti_check.h"

static CUpti_SassMetrics_MetricDetails *metrics;
static size_t n_metrics;
static CUcontext ctx;

typedef void (*launcher)(float *in, float *out, int *idx, int *ibuf);
#define L(name, ...)                                                                               \
    {#name, [](float *in, float *out, int *idx, int *ibuf) {                                      \
         name<<<XC_BLOCKS, XC_THREADS>>>(__VA_ARGS__);                                             \
     }},
static struct {
    const char *name;
    launcher run;
} kernels[] = {
    XC_PATTERNS(L)
};

static void collect(size_t first, size_t count, float *in, float *out, int *idx, int *ibuf)
{
    CUpti_SassMetrics_Config *cfg = (CUpti_SassMetrics_Config *)calloc(count, sizeof(*cfg));
    for (size_t m = 0; m < count; m++) {
        cfg[m].metricId = metrics[first + m].metricId;
        cfg[m].outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
    }
    CUpti_SassMetricsSetConfig_Params sc = {CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
    sc.numOfMetricConfig = count;
    sc.pConfigs = cfg;
    sc.deviceIndex = 0;
    CUptiResult r = cuptiSassMetricsSetConfig(&sc);
    if (r != CUPTI_SUCCESS) {
        const char *s = "?";
        cuptiGetResultString(r, &s);
        printf("setconfig of metrics %zu..%zu: %s\n", first, first + count - 1, s);
        free(cfg);
        return;
    }
    /* one enable around every kernel (each launched once before, so that
     * modules are loaded), records split by function name */
    CUpti_SassMetricsEnable_Params en = {CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
    en.ctx = ctx;
    en.enableLazyPatching = 1;
    CU(cuptiSassMetricsEnable(&en));
    for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++)
        kernels[k].run(in, out, idx, ibuf);
    cudaDeviceSynchronize();
    CUpti_SassMetricsGetDataProperties_Params dp = {
        CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
    dp.ctx = ctx;
    CU(cuptiSassMetricsGetDataProperties(&dp));
    size_t nr = dp.numOfPatchedInstructionRecords, ni = dp.numOfInstances ? dp.numOfInstances : 1;
    CUpti_SassMetrics_Data *d = (CUpti_SassMetrics_Data *)calloc(nr + 1, sizeof(*d));
    CUpti_SassMetrics_InstanceValue *vals = (CUpti_SassMetrics_InstanceValue *)calloc(
        (nr + 1) * ni * count, sizeof(*vals));
    for (size_t i = 0; i < nr; i++) {
        d[i].structSize = sizeof(CUpti_SassMetrics_Data);
        d[i].pInstanceValues = vals + i * ni * count;
    }
    if (nr) {
        CUpti_SassMetricsFlushData_Params fd = {CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
        fd.ctx = ctx;
        fd.numOfPatchedInstructionRecords = nr;
        fd.numOfInstances = ni;
        fd.pMetricsData = d;
        CU(cuptiSassMetricsFlushData(&fd));
    }
    printf("records %zu instances %zu\n", nr, ni);
    for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
        double *sum = (double *)calloc(count, sizeof(double));
        for (size_t i = 0; i < nr; i++) {
            if (!d[i].functionName || strcmp(d[i].functionName, kernels[k].name) != 0)
                continue;
            printf("insn %s %u", kernels[k].name, d[i].pcOffset);
            for (size_t v = 0; v < ni * count; v++) {
                CUpti_SassMetrics_InstanceValue *iv = &d[i].pInstanceValues[v];
                for (size_t m = 0; m < count; m++)
                    if (iv->metricId == metrics[first + m].metricId) {
                        sum[m] += (double)iv->value;
                        if (iv->value)
                            printf(" %s=%llu", metrics[first + m].pMetricName,
                                   (unsigned long long)iv->value);
                    }
            }
            printf("\n");
        }
        for (size_t m = 0; m < count; m++)
            printf("sum %s %s %.0f\n", kernels[k].name, metrics[first + m].pMetricName, sum[m]);
        free(sum);
    }
    free(d);
    free(vals);
    CUpti_SassMetricsDisable_Params dis = {CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
    dis.ctx = ctx;
    CU(cuptiSassMetricsDisable(&dis));
    CUpti_SassMetricsUnsetConfig_Params u = {CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
    u.deviceIndex = 0;
    CU(cuptiSassMetricsUnsetConfig(&u));
    free(cfg);
}

int main(int argc, char **argv)
{
    size_t group = argc > 1 ? (size_t)atoi(argv[1]) : 0;
    cudaFree(0);
    cuCtxGetCurrent(&ctx);
    CUpti_Profiler_Initialize_Params ip = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CU(cuptiProfilerInitialize(&ip));
    CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cn.deviceIndex = 0;
    CU(cuptiDeviceGetChipName(&cn));
    printf("chip %s\n", cn.pChipName);
    CUpti_SassMetrics_GetNumOfMetrics_Params p = {
        CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE};
    p.pChipName = cn.pChipName;
    CU(cuptiSassMetricsGetNumOfMetrics(&p));
    n_metrics = p.numOfMetrics;
    metrics = (CUpti_SassMetrics_MetricDetails *)calloc(n_metrics + 1, sizeof(*metrics));
    CUpti_SassMetrics_GetMetrics_Params g = {CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE};
    g.pChipName = cn.pChipName;
    g.numOfMetrics = n_metrics;
    g.pMetricsList = metrics;
    CU(cuptiSassMetricsGetMetrics(&g));
    for (size_t i = 0; i < n_metrics; i++)
        printf("metric %s | %s\n", metrics[i].pMetricName, metrics[i].pMetricDescription);
    const size_t big = (size_t)XC_N * 32 * sizeof(float) + 64;
    float *in, *out;
    int *idx, *ibuf;
    cudaMalloc(&in, big);
    cudaMalloc(&out, big);
    cudaMalloc(&idx, XC_N * sizeof(int));
    cudaMalloc(&ibuf, XC_N * sizeof(int));
    cudaMemset(in, 0, big);
    cudaMemset(idx, 0, XC_N * sizeof(int));
    cudaMemset(ibuf, 0, XC_N * sizeof(int));
    for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++)
        kernels[k].run(in, out, idx, ibuf);
    cudaDeviceSynchronize();
    if (!group)
        group = n_metrics;
    for (size_t first = 0; first < n_metrics; first += group)
        collect(first, first + group <= n_metrics ? group : n_metrics - first, in, out, idx, ibuf);
    printf("sassdump done: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
