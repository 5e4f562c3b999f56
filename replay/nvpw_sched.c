/* nvpw_sched.c - see nvpw_sched.h. */
#include "nvpw_sched.h"

#include <dlfcn.h>
#include <nvperf_cuda_host.h>
#include <nvperf_host.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"

/* The PerfWorks entry points used here, looked up in libnvperf_host. */
#define GP_NVPW_FUNCS(X)                                                                           \
    X(NVPW_InitializeHost)                                                                         \
    X(NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize)                                       \
    X(NVPW_CUDA_MetricsEvaluator_Initialize)                                                       \
    X(NVPW_MetricsEvaluator_Destroy)                                                               \
    X(NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest)                                  \
    X(NVPW_MetricsEvaluator_GetMetricRawDependencies)                                              \
    X(NVPW_CUDA_RawMetricsConfig_Create_V2)                                                        \
    X(NVPW_RawMetricsConfig_BeginPassGroup)                                                        \
    X(NVPW_RawMetricsConfig_IsAddMetricsPossible)                                                  \
    X(NVPW_RawMetricsConfig_AddMetrics)                                                            \
    X(NVPW_RawMetricsConfig_Destroy)

typedef struct nvpw_api {
#define GP_NVPW_PTR(f) __typeof__(f) *f;
    GP_NVPW_FUNCS(GP_NVPW_PTR)
#undef GP_NVPW_PTR
} nvpw_api;

struct gp_nvpw {
    nvpw_api api;
    void *lib;
    const char *chip;
    const uint8_t *avail;
    uint8_t *scratch;
    NVPW_MetricsEvaluator *eval;
    NVPA_RawMetricsConfig *group; /* the open pass group's configuration */
    size_t n;
    size_t *first, *count; /* name i's raw counters: req[first[i]..+count[i]) */
    NVPA_RawMetricRequest *req;
    char **raw; /* the raw counters' names, owned */
    size_t n_raw;
};

static int load(gp_nvpw *p)
{
    p->lib = dlopen("libnvperf_host.so", RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
    if (!p->lib)
        p->lib = dlopen("libnvperf_host.so", RTLD_NOW | RTLD_LOCAL);
    if (!p->lib)
        return -1;
#define GP_NVPW_SYM(f)                                                                             \
    if (!(*(void **)&p->api.f = dlsym(p->lib, #f)))                                                \
        return -1;
    GP_NVPW_FUNCS(GP_NVPW_SYM)
#undef GP_NVPW_SYM
    NVPW_InitializeHost_Params ih = {NVPW_InitializeHost_Params_STRUCT_SIZE};
    return p->api.NVPW_InitializeHost(&ih) == NVPA_STATUS_SUCCESS ? 0 : -1;
}

static int evaluator(gp_nvpw *p)
{
    NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params s = {
        NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params_STRUCT_SIZE};
    s.pChipName = p->avail ? NULL : p->chip;
    s.pCounterAvailabilityImage = p->avail;
    if (p->api.NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize(&s) != NVPA_STATUS_SUCCESS ||
        !(p->scratch = malloc(s.scratchBufferSize)))
        return -1;
    NVPW_CUDA_MetricsEvaluator_Initialize_Params in = {
        NVPW_CUDA_MetricsEvaluator_Initialize_Params_STRUCT_SIZE};
    in.pScratchBuffer = p->scratch;
    in.scratchBufferSize = s.scratchBufferSize;
    in.pChipName = s.pChipName;
    in.pCounterAvailabilityImage = p->avail;
    if (p->api.NVPW_CUDA_MetricsEvaluator_Initialize(&in) != NVPA_STATUS_SUCCESS)
        return -1;
    p->eval = in.pMetricsEvaluator;
    return 0;
}

/* Appends name's raw counters to p->raw; their number, or -1. */
static long raw_of(gp_nvpw *p, const char *name)
{
    NVPW_MetricEvalRequest er;
    NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params c = {
        NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params_STRUCT_SIZE};
    c.pMetricsEvaluator = p->eval;
    c.pMetricName = name;
    c.pMetricEvalRequest = &er;
    c.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
    if (p->api.NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest(&c) !=
        NVPA_STATUS_SUCCESS)
        return -1;
    NVPW_MetricsEvaluator_GetMetricRawDependencies_Params d = {
        NVPW_MetricsEvaluator_GetMetricRawDependencies_Params_STRUCT_SIZE};
    d.pMetricsEvaluator = p->eval;
    d.pMetricEvalRequests = &er;
    d.numMetricEvalRequests = 1;
    d.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
    d.metricEvalRequestStrideSize = sizeof(er);
    if (p->api.NVPW_MetricsEvaluator_GetMetricRawDependencies(&d) != NVPA_STATUS_SUCCESS)
        return -1;
    size_t k = d.numRawDependencies;
    const char **deps = calloc(k ? k : 1, sizeof(char *));
    char **grown = realloc(p->raw, (p->n_raw + k + 1) * sizeof(char *));
    if (!deps || !grown) {
        free(deps);
        return -1;
    }
    p->raw = grown;
    d.ppRawDependencies = deps;
    d.numRawDependencies = k;
    long got = -1;
    if (p->api.NVPW_MetricsEvaluator_GetMetricRawDependencies(&d) == NVPA_STATUS_SUCCESS &&
        d.numRawDependencies <= k) {
        got = 0;
        for (size_t j = 0; j < d.numRawDependencies; j++) {
            if (!deps[j] || !(p->raw[p->n_raw] = strdup(deps[j]))) {
                got = -1;
                break;
            }
            p->n_raw++;
            got++;
        }
    }
    free(deps);
    return got;
}

gp_nvpw *gp_nvpw_open(const char *chip, const uint8_t *avail, const char *const *names, size_t n)
{
    gp_nvpw *p = calloc(1, sizeof(*p));
    if (!p)
        return NULL;
    p->chip = chip;
    p->avail = avail;
    p->n = n;
    p->first = calloc(n ? n : 1, sizeof(size_t));
    p->count = calloc(n ? n : 1, sizeof(size_t));
    if (!p->first || !p->count || !chip || load(p) != 0 || evaluator(p) != 0) {
        gp_debug("PerfWorks' scheduler: libnvperf_host or its metrics evaluator not available");
        goto fail;
    }
    for (size_t i = 0; i < n; i++) {
        p->first[i] = p->n_raw;
        long k = raw_of(p, names[i]);
        if (k <= 0) { /* unknown to PerfWorks, or nothing to count: not proposed here */
            gp_debug("PerfWorks' scheduler: no raw counters for %s (%ld)", names[i], k);
            goto fail;
        }
        p->count[i] = (size_t)k;
    }
    p->req = calloc(p->n_raw ? p->n_raw : 1, sizeof(NVPA_RawMetricRequest));
    if (!p->req)
        goto fail;
    for (size_t j = 0; j < p->n_raw; j++) {
        p->req[j].structSize = NVPA_RAW_METRIC_REQUEST_STRUCT_SIZE;
        p->req[j].pMetricName = p->raw[j];
        p->req[j].isolated = 1;
        p->req[j].keepInstances = 1;
    }
    return p;
fail:
    gp_nvpw_close(p);
    return NULL;
}

static void group_end(gp_nvpw *p)
{
    if (!p->group)
        return;
    NVPW_RawMetricsConfig_Destroy_Params d = {NVPW_RawMetricsConfig_Destroy_Params_STRUCT_SIZE};
    d.pRawMetricsConfig = p->group;
    p->api.NVPW_RawMetricsConfig_Destroy(&d);
    p->group = NULL;
}

void gp_nvpw_close(gp_nvpw *p)
{
    if (!p)
        return;
    group_end(p);
    if (p->eval) {
        NVPW_MetricsEvaluator_Destroy_Params d = {NVPW_MetricsEvaluator_Destroy_Params_STRUCT_SIZE};
        d.pMetricsEvaluator = p->eval;
        p->api.NVPW_MetricsEvaluator_Destroy(&d);
    }
    for (size_t j = 0; j < p->n_raw; j++)
        free(p->raw[j]);
    free(p->raw);
    free(p->req);
    free(p->first);
    free(p->count);
    free(p->scratch);
    /* the library stays loaded: CUPTI's host API uses it too */
    free(p);
}

int gp_nvpw_group_begin(gp_nvpw *p)
{
    group_end(p);
    NVPW_CUDA_RawMetricsConfig_Create_V2_Params c = {
        NVPW_CUDA_RawMetricsConfig_Create_V2_Params_STRUCT_SIZE};
    c.activityKind = NVPA_ACTIVITY_KIND_PROFILER;
    c.pChipName = p->avail ? NULL : p->chip;
    c.pCounterAvailabilityImage = p->avail;
    if (p->api.NVPW_CUDA_RawMetricsConfig_Create_V2(&c) != NVPA_STATUS_SUCCESS)
        return -1;
    p->group = c.pRawMetricsConfig;
    NVPW_RawMetricsConfig_BeginPassGroup_Params b = {
        NVPW_RawMetricsConfig_BeginPassGroup_Params_STRUCT_SIZE};
    b.pRawMetricsConfig = p->group;
    b.maxPassCount = 1;
    if (p->api.NVPW_RawMetricsConfig_BeginPassGroup(&b) != NVPA_STATUS_SUCCESS) {
        group_end(p);
        return -1;
    }
    return 0;
}

int gp_nvpw_group_add(gp_nvpw *p, size_t i)
{
    if (!p->group || i >= p->n)
        return -1;
    NVPW_RawMetricsConfig_IsAddMetricsPossible_Params q = {
        NVPW_RawMetricsConfig_IsAddMetricsPossible_Params_STRUCT_SIZE};
    q.pRawMetricsConfig = p->group;
    q.pRawMetricRequests = p->req + p->first[i];
    q.numMetricRequests = p->count[i];
    if (p->api.NVPW_RawMetricsConfig_IsAddMetricsPossible(&q) != NVPA_STATUS_SUCCESS)
        return -1;
    if (!q.isPossible)
        return 0;
    NVPW_RawMetricsConfig_AddMetrics_Params a = {
        NVPW_RawMetricsConfig_AddMetrics_Params_STRUCT_SIZE};
    a.pRawMetricsConfig = p->group;
    a.pRawMetricRequests = p->req + p->first[i];
    a.numMetricRequests = p->count[i];
    return p->api.NVPW_RawMetricsConfig_AddMetrics(&a) == NVPA_STATUS_SUCCESS ? 1 : -1;
}
