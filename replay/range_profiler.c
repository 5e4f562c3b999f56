/* range_profiler.c - see range_profiler.h */
#include "replay/range_profiler.h"

#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/cupti_host.h"

typedef struct rp_set {
    gp_host_config *cfg;
    size_t n;      /* names in this set */
    size_t *index; /* position of each in the caller's list */
    const char **names;
    uint8_t *counter_data;
    size_t counter_data_size;
} rp_set;

struct gp_rp {
    CUcontext ctx;
    CUpti_RangeProfiler_Object *obj;
    char chip[64];
    size_t n_all;
    rp_set sets[2];
    int have_one_pass;
    int active_set;
    int auto_range;
    int kernel_replay;
    size_t max_ranges;   /* ranges the counter data image holds */
    int started;         /* a batch is open: the profiler runs across launches */
    size_t batch_ranges; /* ranges expected in the open batch */
    char left_out[1024]; /* names CUPTI cannot schedule here, "" when none */
};

static int rp_fail(CUptiResult r, const char *what, char *err, size_t errlen)
{
    const char *s = NULL;
    cuptiGetResultString(r, &s);
    snprintf(err, errlen, "%s failed: %s", what, s ? s : "unknown CUPTI error");
    return r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ? GP_RP_ERR_PERMISSION : GP_RP_ERR_OTHER;
}

static int inject_no_permission;
void gp_rp_inject_no_permission(int on) { inject_no_permission = on; }

int gp_rp_global_init(char *err, size_t errlen)
{
    CUpti_Profiler_Initialize_Params p = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CUptiResult r = cuptiProfilerInitialize(&p);
    if (r != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiProfilerInitialize", err, errlen);
    return 0;
}

static void set_free(rp_set *s)
{
    gp_host_config_destroy(s->cfg);
    free(s->index);
    free(s->names);
    free(s->counter_data);
    memset(s, 0, sizeof(*s));
}

/* The full set could not be scheduled: finds the names that cannot be on
 * their own, takes them out of s and says which in rp->left_out (Nsight
 * Compute names them too, and collects the rest).  Returns how many. */
static size_t leave_out_unschedulable(gp_rp *rp, rp_set *s, const uint8_t *avail)
{
    unsigned char *cannot = calloc(s->n ? s->n : 1, 1);
    size_t bad = cannot ? gp_host_unschedulable(rp->chip, avail, s->names, s->n, cannot) : 0;
    if (bad == 0 || bad == s->n) {
        free(cannot);
        return 0;
    }
    size_t used = (size_t)snprintf(rp->left_out, sizeof(rp->left_out),
                                   "CUPTI cannot schedule %zu metric%s on this device (%s), alone "
                                   "or with the others: ",
                                   bad, bad == 1 ? "" : "s", rp->chip);
    size_t keep = 0, named = 0;
    for (size_t k = 0; k < s->n; k++) {
        if (cannot[k]) {
            if (used < sizeof(rp->left_out))
                used += (size_t)snprintf(rp->left_out + used, sizeof(rp->left_out) - used,
                                         "%s%s", named++ ? ", " : "", s->names[k]);
            continue;
        }
        s->index[keep] = s->index[k];
        s->names[keep++] = s->names[k];
    }
    if (used < sizeof(rp->left_out))
        snprintf(rp->left_out + used, sizeof(rp->left_out) - used,
                 "; they are left out, the other metrics are collected");
    s->n = keep;
    free(cannot);
    return bad;
}

static int set_build(gp_rp *rp, rp_set *s, const char *const *names, size_t n, int one_pass,
                     const uint8_t *avail, size_t avail_size, char *err, size_t errlen)
{
    s->index = calloc(n ? n : 1, sizeof(size_t));
    s->names = calloc(n ? n : 1, sizeof(char *));
    if (!s->index || !s->names) {
        snprintf(err, errlen, "out of memory");
        return GP_RP_ERR_OTHER;
    }
    for (size_t i = 0; i < n; i++) {
        if (one_pass && gp_metric_is_instrumented(names[i]))
            continue;
        s->index[s->n] = i;
        s->names[s->n++] = names[i];
    }
    if (s->n == 0)
        return GP_RP_ERR_METRICS;
    s->cfg = gp_host_config_create(rp->chip, avail, avail_size, s->names, s->n, err, errlen);
    if (!s->cfg && !one_pass && leave_out_unschedulable(rp, s, avail) > 0)
        s->cfg = gp_host_config_create(rp->chip, avail, avail_size, s->names, s->n, err, errlen);
    if (!s->cfg)
        return GP_RP_ERR_METRICS;
    CUpti_RangeProfiler_GetCounterDataSize_Params sp = {
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    sp.pRangeProfilerObject = rp->obj;
    sp.pMetricNames = s->names;
    sp.numMetrics = s->n;
    sp.maxNumOfRanges = rp->max_ranges;
    sp.maxNumRangeTreeNodes = rp->max_ranges;
    CUptiResult r = cuptiRangeProfilerGetCounterDataSize(&sp);
    if (r != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerGetCounterDataSize", err, errlen);
    s->counter_data_size = sp.counterDataSize;
    s->counter_data = malloc(s->counter_data_size);
    if (!s->counter_data) {
        snprintf(err, errlen, "out of memory for the counter data image");
        return GP_RP_ERR_OTHER;
    }
    return 0;
}

gp_rp *gp_rp_create(CUcontext ctx, int device, const char *const *names, size_t n,
                    size_t max_ranges, int *errclass, char *err, size_t errlen)
{
    CUptiResult r;
    uint8_t *avail = NULL;
    gp_rp *rp = calloc(1, sizeof(*rp));
    *errclass = GP_RP_ERR_OTHER;
    if (!rp) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    rp->ctx = ctx;
    rp->n_all = n;
    rp->max_ranges = max_ranges ? max_ranges : 1;
    if (inject_no_permission) {
        *errclass = rp_fail(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES,
                            "cuptiProfilerGetCounterAvailability (GPUPROF_TEST_INJECT)", err,
                            errlen);
        goto fail;
    }

    CUpti_Profiler_DeviceSupported_Params ds = {CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
    ds.cuDevice = device;
    ds.api = CUPTI_PROFILER_RANGE_PROFILING;
    r = cuptiProfilerDeviceSupported(&ds);
    if (r == CUPTI_SUCCESS && ds.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
        snprintf(err, errlen,
                 "device %d does not support counter profiling here (architecture %d, vGPU %d, "
                 "confidential compute %d, WSL %d; 3 = supported; MIG and MPS are not profiled)",
                 device, ds.architecture, ds.vGpu, ds.confidentialCompute, ds.wsl);
        *errclass = GP_RP_ERR_UNSUPPORTED;
        goto fail;
    }

    CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cn.deviceIndex = (size_t)device;
    if ((r = cuptiDeviceGetChipName(&cn)) != CUPTI_SUCCESS) {
        *errclass = rp_fail(r, "cuptiDeviceGetChipName", err, errlen);
        goto fail;
    }
    snprintf(rp->chip, sizeof(rp->chip), "%s", cn.pChipName);

    CUpti_RangeProfiler_Enable_Params en = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = ctx;
    if ((r = cuptiRangeProfilerEnable(&en)) != CUPTI_SUCCESS) {
        *errclass = rp_fail(r, "cuptiRangeProfilerEnable", err, errlen);
        goto fail;
    }
    rp->obj = en.pRangeProfilerObject;

    CUpti_Profiler_GetCounterAvailability_Params ca = {
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    ca.ctx = ctx;
    if ((r = cuptiProfilerGetCounterAvailability(&ca)) != CUPTI_SUCCESS) {
        *errclass = rp_fail(r, "cuptiProfilerGetCounterAvailability", err, errlen);
        goto fail;
    }
    avail = malloc(ca.counterAvailabilityImageSize);
    if (!avail)
        goto fail;
    ca.pCounterAvailabilityImage = avail;
    if ((r = cuptiProfilerGetCounterAvailability(&ca)) != CUPTI_SUCCESS) {
        *errclass = rp_fail(r, "cuptiProfilerGetCounterAvailability", err, errlen);
        goto fail;
    }

    int rc = set_build(rp, &rp->sets[GP_RP_FULL], names, n, 0, avail,
                       ca.counterAvailabilityImageSize, err, errlen);
    if (rc) {
        *errclass = rc;
        goto fail;
    }
    char err2[256];
    rp->have_one_pass = set_build(rp, &rp->sets[GP_RP_ONE_PASS], names, n, 1, avail,
                                  ca.counterAvailabilityImageSize, err2, sizeof(err2)) == 0 &&
                        gp_host_config_passes(rp->sets[GP_RP_ONE_PASS].cfg) == 1;
    if (!rp->have_one_pass)
        set_free(&rp->sets[GP_RP_ONE_PASS]);
    free(avail);
    *errclass = GP_RP_OK;
    return rp;
fail:
    free(avail);
    gp_rp_destroy(rp);
    return NULL;
}

void gp_rp_destroy(gp_rp *rp)
{
    if (!rp)
        return;
    if (rp->started) {
        CUpti_RangeProfiler_Stop_Params sp = {CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
        sp.pRangeProfilerObject = rp->obj;
        cuptiRangeProfilerStop(&sp);
    }
    if (rp->obj) {
        CUpti_RangeProfiler_Disable_Params p = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        p.pRangeProfilerObject = rp->obj;
        cuptiRangeProfilerDisable(&p);
    }
    set_free(&rp->sets[0]);
    set_free(&rp->sets[1]);
    free(rp);
}

const char *gp_rp_left_out(const gp_rp *rp)
{
    return rp->left_out[0] ? rp->left_out : NULL;
}

const char *gp_rp_chip(const gp_rp *rp)
{
    return rp->chip;
}
void gp_rp_set_auto_range(gp_rp *rp, int on)
{
    rp->auto_range = on;
}
void gp_rp_set_kernel_replay(gp_rp *rp, int on)
{
    rp->kernel_replay = on;
}

size_t gp_rp_passes(const gp_rp *rp, int set)
{
    if (set == GP_RP_ONE_PASS && !rp->have_one_pass)
        return 0;
    return gp_host_config_passes(rp->sets[set].cfg);
}

int gp_rp_set_has(const gp_rp *rp, int set, size_t i)
{
    const rp_set *s = &rp->sets[set];
    for (size_t k = 0; k < s->n; k++)
        if (s->index[k] == i)
            return 1;
    return 0;
}

int gp_rp_begin(gp_rp *rp, int set, char *err, size_t errlen)
{
    CUptiResult r;
    rp_set *s = &rp->sets[set];
    if (!s->cfg) {
        snprintf(err, errlen, "no one-pass metric set is available");
        return -1;
    }
    rp->active_set = set;
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    ci.pRangeProfilerObject = rp->obj;
    ci.counterDataSize = s->counter_data_size;
    ci.pCounterData = s->counter_data;
    if ((r = cuptiRangeProfilerCounterDataImageInitialize(&ci)) != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerCounterDataImageInitialize", err, errlen), -1;
    size_t image_size;
    const uint8_t *image = gp_host_config_image(s->cfg, &image_size);
    CUpti_RangeProfiler_SetConfig_Params sc = {CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    sc.pRangeProfilerObject = rp->obj;
    sc.configSize = image_size;
    sc.pConfig = image;
    sc.counterDataImageSize = s->counter_data_size;
    sc.pCounterDataImage = s->counter_data;
    sc.range = rp->auto_range || rp->kernel_replay ? CUPTI_AutoRange : CUPTI_UserRange;
    sc.replayMode = rp->kernel_replay ? CUPTI_KernelReplay : CUPTI_UserReplay;
    sc.maxRangesPerPass = rp->max_ranges;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    if ((r = cuptiRangeProfilerSetConfig(&sc)) != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerSetConfig", err, errlen), -1;
    return 0;
}

int gp_rp_pass_start(gp_rp *rp, const char *range_name, char *err, size_t errlen)
{
    CUptiResult r;
    CUpti_RangeProfiler_Start_Params st = {CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    st.pRangeProfilerObject = rp->obj;
    if ((r = cuptiRangeProfilerStart(&st)) != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerStart", err, errlen), -1;
    if (rp->auto_range || rp->kernel_replay)
        return 0;
    CUpti_RangeProfiler_PushRange_Params pu = {CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
    pu.pRangeProfilerObject = rp->obj;
    pu.pRangeName = range_name;
    if ((r = cuptiRangeProfilerPushRange(&pu)) != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerPushRange", err, errlen), -1;
    return 0;
}

int gp_rp_pass_end(gp_rp *rp, int *all_submitted, char *err, size_t errlen)
{
    CUptiResult r;
    CUpti_RangeProfiler_PopRange_Params po = {CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
    po.pRangeProfilerObject = rp->obj;
    if (!rp->auto_range && !rp->kernel_replay &&
        (r = cuptiRangeProfilerPopRange(&po)) != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerPopRange", err, errlen), -1;
    CUpti_RangeProfiler_Stop_Params sp = {CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    sp.pRangeProfilerObject = rp->obj;
    if ((r = cuptiRangeProfilerStop(&sp)) != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerStop", err, errlen), -1;
    *all_submitted = sp.isAllPassSubmitted;
    return 0;
}

/* Evaluates range `range` of the decoded image of the active set into values. */
static int evaluate_range(gp_rp *rp, size_t range, double *values, char *err, size_t errlen)
{
    rp_set *s = &rp->sets[rp->active_set];
    for (size_t i = 0; i < rp->n_all; i++)
        values[i] = NAN;
    double *v = malloc((s->n ? s->n : 1) * sizeof(double));
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = gp_host_config_evaluate(s->cfg, s->counter_data, s->counter_data_size, range, v);
    if (rc == 0)
        for (size_t k = 0; k < s->n; k++)
            values[s->index[k]] = v[k];
    else
        snprintf(err, errlen, "cuptiProfilerHostEvaluateToGpuValues failed");
    free(v);
    return rc;
}

static int decode(gp_rp *rp, size_t *ranges, char *err, size_t errlen)
{
    CUptiResult r;
    rp_set *s = &rp->sets[rp->active_set];
    CUpti_RangeProfiler_DecodeData_Params dd = {CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    dd.pRangeProfilerObject = rp->obj;
    if ((r = cuptiRangeProfilerDecodeData(&dd)) != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerDecodeData", err, errlen), -1;
    if (dd.numOfRangeDropped) {
        snprintf(err, errlen, "CUPTI dropped %zu range(s)", dd.numOfRangeDropped);
        return -1;
    }
    CUpti_RangeProfiler_GetCounterDataInfo_Params ci = {
        CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    ci.pCounterDataImage = s->counter_data;
    ci.counterDataImageSize = s->counter_data_size;
    if ((r = cuptiRangeProfilerGetCounterDataInfo(&ci)) != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerGetCounterDataInfo", err, errlen), -1;
    *ranges = ci.numTotalRanges;
    return 0;
}

int gp_rp_finish(gp_rp *rp, double *values, char *err, size_t errlen)
{
    size_t ranges = 0;
    for (size_t i = 0; i < rp->n_all; i++)
        values[i] = NAN;
    if (decode(rp, &ranges, err, errlen) != 0)
        return -1;
    if (ranges < 1) {
        snprintf(err, errlen, "CUPTI recorded no range");
        return -1;
    }
    return evaluate_range(rp, ranges - 1, values, err, errlen);
}

/* ---- batches ------------------------------------------------------------- */

size_t gp_rp_batch_room(const gp_rp *rp)
{
    return rp->started ? rp->max_ranges - rp->batch_ranges : rp->max_ranges;
}

int gp_rp_batch_is_open(const gp_rp *rp)
{
    return rp && rp->started;
}

int gp_rp_batch_open(gp_rp *rp, char *err, size_t errlen)
{
    if (rp->started)
        return 0;
    if (gp_rp_begin(rp, GP_RP_FULL, err, errlen) != 0)
        return -1;
    CUpti_RangeProfiler_Start_Params st = {CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    st.pRangeProfilerObject = rp->obj;
    CUptiResult r = cuptiRangeProfilerStart(&st);
    if (r != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerStart", err, errlen), -1;
    rp->started = 1;
    rp->batch_ranges = 0;
    return 0;
}

size_t gp_rp_batch_note(gp_rp *rp, int kernels)
{
    if (kernels < 0 && rp->batch_ranges >= (size_t)-kernels)
        rp->batch_ranges -= (size_t)-kernels;
    else if (kernels > 0)
        rp->batch_ranges += (size_t)kernels;
    return rp->batch_ranges;
}

int gp_rp_batch_close(gp_rp *rp, size_t *expected, size_t *recorded, char *err, size_t errlen)
{
    *expected = rp->batch_ranges;
    *recorded = 0;
    if (!rp->started) {
        snprintf(err, errlen, "no batch is open");
        return -1;
    }
    rp->started = 0;
    rp->batch_ranges = 0;
    CUpti_RangeProfiler_Stop_Params sp = {CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    sp.pRangeProfilerObject = rp->obj;
    CUptiResult r = cuptiRangeProfilerStop(&sp);
    if (r != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerStop", err, errlen), -1;
    if (!sp.isAllPassSubmitted) {
        snprintf(err, errlen, "the metric set needs more than one pass");
        return -1;
    }
    return decode(rp, recorded, err, errlen);
}

int gp_rp_batch_values(gp_rp *rp, size_t range, double *values, char *err, size_t errlen)
{
    return evaluate_range(rp, range, values, err, errlen);
}

const char *gp_rp_range_name(gp_rp *rp, size_t range)
{
    rp_set *s = &rp->sets[rp->active_set];
    CUpti_RangeProfiler_CounterData_GetRangeInfo_Params ri = {
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
    ri.pCounterDataImage = s->counter_data;
    ri.counterDataImageSize = s->counter_data_size;
    ri.rangeIndex = range;
    ri.rangeDelimiter = "/";
    return cuptiRangeProfilerCounterDataGetRangeInfo(&ri) == CUPTI_SUCCESS ? ri.rangeName : NULL;
}
