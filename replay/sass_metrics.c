/* sass_metrics.c - see sass_metrics.h */
#include "replay/sass_metrics.h"

#include <cupti.h>
#include <cupti_sass_metrics.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t metric_ids[GP_SASS_N];
/* metrics this CUPTI knows (a later one may drop or rename one: the others are
 * still collected, and that one's values are absent, never 0) */
static int metric_ok[GP_SASS_N];

int gp_sass_metric_available(int metric)
{
    return metric >= 0 && metric < GP_SASS_N && metric_ok[metric];
}

static int sass_fail(CUptiResult r, const char *what, char *err, size_t errlen)
{
    const char *s = NULL;
    cuptiGetResultString(r, &s);
    snprintf(err, errlen, "%s failed: %s", what, s ? s : "unknown CUPTI error");
    return -1;
}

int gp_sass_setup(int device, const char *chip, char *err, size_t errlen)
{
    CUpti_SassMetrics_Config cfg[GP_SASS_N];
    size_t n = 0;
    for (int m = 0; m < GP_SASS_N; m++) {
        CUpti_SassMetrics_GetProperties_Params pp = {
            CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
        pp.pChipName = chip;
        pp.pMetricName = gp_sass_metric_names[m];
        CUptiResult r = cuptiSassMetricsGetProperties(&pp);
        metric_ok[m] = r == CUPTI_SUCCESS;
        if (r != CUPTI_SUCCESS && m <= GP_SASS_DIVERGENT) { /* the derivation needs these */
            char what[160];
            snprintf(what, sizeof(what), "cuptiSassMetricsGetProperties(%s)",
                     gp_sass_metric_names[m]);
            return sass_fail(r, what, err, errlen);
        }
        if (!metric_ok[m])
            continue;
        metric_ids[m] = pp.metric.metricId;
        cfg[n].metricId = pp.metric.metricId;
        cfg[n].outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
        n++;
    }
    CUpti_SassMetricsSetConfig_Params sc = {CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
    sc.numOfMetricConfig = n;
    sc.pConfigs = cfg;
    sc.deviceIndex = (uint32_t)device;
    CUptiResult r = cuptiSassMetricsSetConfig(&sc);
    return r == CUPTI_SUCCESS ? 0 : sass_fail(r, "cuptiSassMetricsSetConfig", err, errlen);
}

void gp_sass_teardown(int device)
{
    CUpti_SassMetricsUnsetConfig_Params u = {CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
    u.deviceIndex = (uint32_t)device;
    cuptiSassMetricsUnsetConfig(&u);
}

int gp_sass_begin(CUcontext ctx, char *err, size_t errlen)
{
    CUpti_SassMetricsEnable_Params en = {CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
    en.ctx = ctx;
    en.enableLazyPatching = 1;
    CUptiResult r = cuptiSassMetricsEnable(&en);
    return r == CUPTI_SUCCESS ? 0 : sass_fail(r, "cuptiSassMetricsEnable", err, errlen);
}

void gp_sass_records_free(gp_sass_record *r, size_t n)
{
    for (size_t i = 0; r && i < n; i++)
        free((char *)r[i].function);
    free(r);
}

static void disable(CUcontext ctx)
{
    CUpti_SassMetricsDisable_Params d = {CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
    d.ctx = ctx;
    cuptiSassMetricsDisable(&d);
}

int gp_sass_end(CUcontext ctx, gp_sass_record **out, size_t *n, char *err, size_t errlen)
{
    *out = NULL;
    *n = 0;
    CUpti_SassMetricsGetDataProperties_Params dp = {
        CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
    dp.ctx = ctx;
    CUptiResult r = cuptiSassMetricsGetDataProperties(&dp);
    if (r != CUPTI_SUCCESS) {
        disable(ctx);
        return sass_fail(r, "cuptiSassMetricsGetDataProperties", err, errlen);
    }
    size_t nr = dp.numOfPatchedInstructionRecords, ni = dp.numOfInstances ? dp.numOfInstances : 1;
    CUpti_SassMetrics_Data *d = calloc(nr ? nr : 1, sizeof(*d));
    CUpti_SassMetrics_InstanceValue *vals = calloc((nr ? nr : 1) * ni * GP_SASS_N, sizeof(*vals));
    /* CUPTI fills as many instance values per record as metrics configured:
     * the buffer has room for all of them */
    gp_sass_record *rec = calloc(nr ? nr : 1, sizeof(*rec));
    int rc = -1;
    if (!d || !vals || !rec) {
        snprintf(err, errlen, "out of memory for %zu SASS records", nr);
        goto out;
    }
    for (size_t i = 0; i < nr; i++) {
        d[i].structSize = sizeof(CUpti_SassMetrics_Data);
        d[i].pInstanceValues = vals + i * ni * GP_SASS_N;
    }
    if (nr) {
        CUpti_SassMetricsFlushData_Params fd = {CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
        fd.ctx = ctx;
        fd.numOfPatchedInstructionRecords = nr;
        fd.numOfInstances = ni;
        fd.pMetricsData = d;
        if ((r = cuptiSassMetricsFlushData(&fd)) != CUPTI_SUCCESS) {
            sass_fail(r, "cuptiSassMetricsFlushData", err, errlen);
            goto out;
        }
    }
    for (size_t i = 0; i < nr; i++) {
        rec[i].function = strdup(d[i].functionName ? d[i].functionName : "?");
        rec[i].pc = d[i].pcOffset;
        for (size_t k = 0; k < ni * GP_SASS_N; k++)
            for (int m = 0; m < GP_SASS_N; m++)
                if (metric_ok[m] && d[i].pInstanceValues[k].metricId == metric_ids[m])
                    rec[i].v[m] += d[i].pInstanceValues[k].value;
    }
    *out = rec;
    *n = nr;
    rec = NULL;
    rc = 0;
out:
    disable(ctx);
    free(d);
    free(vals);
    free(rec);
    return rc;
}
