/* query.c - see query.h. */
#include "query.h"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_target.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static const char *gp_query_strerror(CUptiResult r)
{
    const char *s = NULL;
    cuptiGetResultString(r, &s);
    return s ? s : "unknown CUPTI error";
}

int gp_query_chips(FILE *out, char *err, size_t errlen)
{
    CUpti_Profiler_Host_GetSupportedChips_Params p = {
        CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE};
    CUptiResult r = cuptiProfilerHostGetSupportedChips(&p);
    size_t i;
    if (r != CUPTI_SUCCESS) {
        snprintf(err, errlen, "CUPTI cannot list its chips (%s)", gp_query_strerror(r));
        return -1;
    }
    for (i = 0; i < p.numChips; i++)
        fprintf(out, "%s\n", p.ppChipNames[i]);
    return 0;
}

static const char *gp_query_type(CUpti_MetricType t)
{
    return t == CUPTI_METRIC_TYPE_COUNTER ? "counter"
           : t == CUPTI_METRIC_TYPE_RATIO ? "ratio"
                                          : "throughput";
}

/* One line: name, type, unit, description. */
static void gp_query_line(CUpti_Profiler_Host_Object *h, const char *name, FILE *out)
{
    CUpti_Profiler_Host_GetMetricProperties_Params p = {
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
    p.pHostObject = h;
    p.pMetricName = name;
    if (cuptiProfilerHostGetMetricProperties(&p) != CUPTI_SUCCESS) {
        fprintf(out, "%-64s %-10s %-10s\n", name, "?", "?");
        return;
    }
    fprintf(out, "%-64s %-10s %-10s %s\n", name, gp_query_type(p.metricType),
            p.pDimUnit && *p.pDimUnit ? p.pDimUnit : "-", p.pDescription ? p.pDescription : "");
}

/* The sub-metrics of one metric, one line each; -1 when CUPTI does not know it. */
static long gp_query_subs(CUpti_Profiler_Host_Object *h, const char *name, FILE *out)
{
    CUpti_Profiler_Host_GetMetricProperties_Params mp = {
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
    CUpti_Profiler_Host_GetSubMetrics_Params sp = {
        CUpti_Profiler_Host_GetSubMetrics_Params_STRUCT_SIZE};
    size_t i;
    mp.pHostObject = h;
    mp.pMetricName = name;
    if (cuptiProfilerHostGetMetricProperties(&mp) != CUPTI_SUCCESS)
        return -1;
    sp.pHostObject = h;
    sp.metricType = mp.metricType;
    sp.pMetricName = name;
    if (cuptiProfilerHostGetSubMetrics(&sp) != CUPTI_SUCCESS)
        return -1;
    for (i = 0; i < sp.numOfSubmetrics; i++)
        fprintf(out, "%s%s%s\n", name, sp.ppSubMetrics[i][0] == '.' ? "" : ".", sp.ppSubMetrics[i]);
    return (long)sp.numOfSubmetrics;
}

long gp_query_metrics(const char *chip, int mode, const char *const *names, size_t n, FILE *out,
                      char *err, size_t errlen)
{
    CUpti_Profiler_Host_Initialize_Params ip = {CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    CUpti_Profiler_Host_Deinitialize_Params dp = {
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    CUptiResult r;
    long lines = 0, got;
    size_t i;
    int t;
    ip.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    ip.pChipName = chip;
    if ((r = cuptiProfilerHostInitialize(&ip)) != CUPTI_SUCCESS) {
        snprintf(err, errlen, "CUPTI does not know chip '%s' (%s); --list-chips lists them", chip,
                 gp_query_strerror(r));
        return -1;
    }
    if (mode == GP_QUERY_SUFFIX) {
        for (i = 0; i < n; i++) {
            if ((got = gp_query_subs(ip.pHostObject, names[i], out)) < 0) {
                snprintf(err, errlen, "'%s' is not a metric of %s (--query-metrics lists them)",
                         names[i], chip);
                lines = -1;
                break;
            }
            lines += got;
        }
        goto out;
    }
    fprintf(out, "%-64s %-10s %-10s %s\n", "Metric Name", "Type", "Unit", "Description");
    for (t = CUPTI_METRIC_TYPE_COUNTER; t < CUPTI_METRIC_TYPE__COUNT; t++) {
        CUpti_Profiler_Host_GetBaseMetrics_Params bp = {
            CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
        bp.pHostObject = ip.pHostObject;
        bp.metricType = (CUpti_MetricType)t;
        if ((r = cuptiProfilerHostGetBaseMetrics(&bp)) != CUPTI_SUCCESS) {
            snprintf(err, errlen, "CUPTI cannot list the metrics of %s (%s)", chip,
                     gp_query_strerror(r));
            lines = -1;
            goto out;
        }
        for (i = 0; i < bp.numMetrics; i++) {
            gp_query_line(ip.pHostObject, bp.ppMetricNames[i], out);
            lines++;
            if (mode == GP_QUERY_ALL &&
                (got = gp_query_subs(ip.pHostObject, bp.ppMetricNames[i], out)) > 0)
                lines += got;
        }
    }
out:
    dp.pHostObject = ip.pHostObject;
    cuptiProfilerHostDeinitialize(&dp);
    return lines;
}

int gp_query_device_chip(char *buf, size_t len, char *err, size_t errlen)
{
    CUpti_Profiler_Initialize_Params pi = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    int (*cu_init)(unsigned) = NULL;
    CUptiResult r;
    if (!cuda) {
        snprintf(err, errlen, "no NVIDIA driver on this machine (libcuda.so.1 cannot be loaded)");
        return -1;
    }
    *(void **)&cu_init = dlsym(cuda, "cuInit");
    if (!cu_init || cu_init(0) != 0) {
        snprintf(err, errlen, "the CUDA driver finds no GPU (cuInit failed)");
        return -1;
    }
    if ((r = cuptiProfilerInitialize(&pi)) != CUPTI_SUCCESS ||
        (r = cuptiDeviceGetChipName(&cn)) != CUPTI_SUCCESS) {
        snprintf(err, errlen, "CUPTI cannot tell the chip of device 0 (%s)", gp_query_strerror(r));
        return -1;
    }
    snprintf(buf, len, "%s", cn.pChipName);
    return 0;
}
