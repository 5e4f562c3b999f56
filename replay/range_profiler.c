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
#include "replay/host_group.h"
#include "replay/host_split.h"
#include "replay/range_profiler_int.h"
#include "util/clock.h"
#include "util/log.h"

static int reenable(gp_rp *rp, char *err, size_t errlen);

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

void gp_rp_set_free(rp_set *s)
{
    gp_host_config_destroy(s->cfg);
    free(s->index);
    free(s->names);
    free(s->counter_data);
    memset(s, 0, sizeof(*s));
}

/* Takes the names of s whose group is g into t (index positions kept). */
static int set_take(rp_set *t, const rp_set *s, const int *group, int g)
{
    t->index = calloc(s->n ? s->n : 1, sizeof(size_t));
    t->names = calloc(s->n ? s->n : 1, sizeof(char *));
    if (!t->index || !t->names)
        return -1;
    for (size_t k = 0; k < s->n; k++)
        if (group[k] == g) {
            t->index[t->n] = s->index[k];
            t->names[t->n++] = s->names[k];
        }
    return 0;
}

/* Asks CUPTI the size of s's counter data image.  The range profiler object
 * keeps the metrics of the last such question, and initializing an image
 * takes them from there: gp_rp_begin() asks again when it switches sets. */
static int size_counter_data(gp_rp *rp, const rp_set *s, size_t *size, char *err, size_t errlen)
{
    CUpti_RangeProfiler_GetCounterDataSize_Params sp = {
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    sp.pRangeProfilerObject = rp->obj;
    sp.pMetricNames = s->names;
    sp.numMetrics = s->n;
    sp.maxNumOfRanges = s->max_ranges;
    sp.maxNumRangeTreeNodes = s->max_ranges;
    CUptiResult r = cuptiRangeProfilerGetCounterDataSize(&sp);
    if (r != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerGetCounterDataSize", err, errlen);
    *size = sp.counterDataSize;
    rp->sized_set = s;
    return 0;
}

/* Configuration, counter data image: what every set needs once its names are known. */
int gp_rp_set_finish(gp_rp *rp, rp_set *s, const uint8_t *avail, size_t avail_size, char *err,
                      size_t errlen)
{
    if (!s->cfg)
        s->cfg = gp_host_config_create(rp->chip, avail, avail_size, s->names, s->n, err, errlen);
    if (!s->cfg)
        return GP_RP_ERR_METRICS;
    /* Only a one-pass configuration is batched; a multi-pass one records one
     * range (the kernel) per pass, and an image sized for a batch's ranges
     * costs each launch about 10 ms to initialize and each stop about 5 ms
     * (tests/gpu/bench/pass_cost.cu).  A list split over several
     * configurations keeps the batch's size: an earlier try with one range
     * for every set saw CUPTI report every pass submitted after the first
     * (not retried on split lists alone). */
    s->max_ranges =
        gp_host_config_passes(s->cfg) > 1 && (rp->n_extra == 0 || s->stepped) ? 1 : rp->max_ranges;
    size_t size = 0;
    int rc = size_counter_data(rp, s, &size, err, errlen);
    if (rc)
        return rc;
    s->counter_data_size = size;
    s->counter_data = malloc(s->counter_data_size);
    if (!s->counter_data) {
        snprintf(err, errlen, "out of memory for the counter data image");
        return GP_RP_ERR_OTHER;
    }
    return 0;
}

/* A configuration of kernel replay's split being checked (host_split.h):
 * configuration 0 becomes the full set, the others its extras, each with
 * its CUPTI host configuration and counter data image. */
typedef struct split_check {
    gp_rp *rp;
    const rp_set *whole; /* the list before the split */
    const gp_split *s;
    const uint8_t *avail;
    size_t avail_size;
    char *err;
    size_t errlen;
} split_check;

static void split_reset(void *arg)
{
    split_check *c = arg;
    gp_rp_set_free(&c->rp->sets[GP_RP_FULL]);
    for (size_t x = 0; x < GP_RP_ROT - GP_RP_EXTRA; x++)
        gp_rp_set_free(&c->rp->sets[GP_RP_EXTRA + x]);
    c->rp->n_extra = 0;
}

static int split_config(void *arg, size_t g, int stepped)
{
    split_check *c = arg;
    (void)stepped;
    rp_set *t = g == 0 ? &c->rp->sets[GP_RP_FULL] : &c->rp->sets[GP_RP_EXTRA + g - 1];
    c->rp->n_extra = c->s->groups - 1; /* before the images are sized (gp_rp_set_finish) */
    gp_rp_set_free(t);
    if (set_take(t, c->whole, c->s->group, (int)g) != 0) {
        snprintf(c->err, c->errlen, "out of memory");
        return -1;
    }
    return gp_rp_set_finish(c->rp, t, c->avail, c->avail_size, c->err, c->errlen) != 0 ? -1 : 0;
}

/* The full set could not be scheduled as one configuration, or a split of
 * it is kept from an earlier run (cached): splits it over several (s keeps
 * the first, the others become extras), as Nsight Compute does, every
 * configuration built, and names in rp->left_out those CUPTI refuses even
 * alone.  0, or -1 with s as it was (cached: no usable entry). */
static int split_full(gp_rp *rp, rp_set *s, const uint8_t *avail, size_t avail_size, int cached,
                      char *err, size_t errlen)
{
    rp_set whole = *s;
    memset(s, 0, sizeof(*s));
    int *group = calloc(whole.n ? whole.n : 1, sizeof(int));
    gp_split sp = {whole.n, group, 0, 0, NULL, GP_RP_ROT - GP_RP_EXTRA + 1};
    gp_split_in in = {rp->chip, avail, avail_size, whole.names, whole.n, NULL, sp.max_groups};
    split_check c = {rp, &whole, &sp, avail, avail_size, err, errlen};
    gp_split_check chk = {split_config, split_reset, &c};
    double t0 = gp_host_grouping_s(), t1 = gp_now_s();
    size_t groups = !group   ? 0
                    : cached ? gp_host_split_kernel_cached(&in, &sp, &chk)
                             : gp_host_split_kernel_fresh(&in, &sp, &chk);
    if (groups || !cached)
        gp_debug("%zu names split into %zu configurations for kernel replay%s in %.0f ms "
                 "(grouping %.0f ms)",
                 whole.n, groups, cached ? " from the set-up cache" : "",
                 (gp_now_s() - t1) * 1e3, (gp_host_grouping_s() - t0) * 1e3);
    if (groups == 0) {
        split_reset(&c);
        *s = whole; /* as it was */
        if (!cached && group && sp.groups > sp.max_groups)
            snprintf(err, errlen, "the metric list needs %zu configurations; at most %zu are run",
                     sp.groups, sp.max_groups);
        free(group);
        return -1;
    }
    size_t bad = 0, used = 0, named = 0;
    for (size_t k = 0; k < whole.n; k++)
        bad += group[k] < 0;
    if (bad)
        used = (size_t)snprintf(rp->left_out, sizeof(rp->left_out),
                                "CUPTI cannot schedule %zu metric%s on this device (%s), even "
                                "alone: ",
                                bad, bad == 1 ? "" : "s", rp->chip);
    for (size_t k = 0; k < whole.n && bad; k++)
        if (group[k] < 0 && used < sizeof(rp->left_out))
            used += (size_t)snprintf(rp->left_out + used, sizeof(rp->left_out) - used, "%s%s",
                                     named++ ? ", " : "", whole.names[k]);
    if (bad && used < sizeof(rp->left_out))
        snprintf(rp->left_out + used, sizeof(rp->left_out) - used,
                 "; they are left out, the other metrics are collected");
    free(group);
    gp_rp_set_free(&whole);
    return 0;
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
    /* a split kept from an earlier run first: the list whole is not tried */
    if (!one_pass && split_full(rp, s, avail, avail_size, 1, err, errlen) == 0)
        return 0;
    s->cfg = gp_host_config_create(rp->chip, avail, avail_size, s->names, s->n, err, errlen);
    if (!s->cfg && !one_pass)
        return split_full(rp, s, avail, avail_size, 0, err, errlen) == 0 ? 0 : GP_RP_ERR_METRICS;
    return gp_rp_set_finish(rp, s, avail, avail_size, err, errlen);
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
    rp->kept = malloc((n ? n : 1) * sizeof(double));
    if (!rp->kept) {
        free(rp);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        rp->kept[i] = NAN;
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
    /* the hardware names alone in one pass: not when they are the full set
     * already and that takes several passes or configurations (a long list:
     * CUPTI would schedule it whole once more for nothing) */
    int all_hw = !gp_rp_has_instrumented(rp);
    rp->have_one_pass =
        !(all_hw && (rp->n_extra > 0 || gp_host_config_passes(rp->sets[GP_RP_FULL].cfg) > 1)) &&
        set_build(rp, &rp->sets[GP_RP_ONE_PASS], names, n, 1, avail,
                  ca.counterAvailabilityImageSize, err2, sizeof(err2)) == 0 &&
        gp_host_config_passes(rp->sets[GP_RP_ONE_PASS].cfg) == 1;
    if (!rp->have_one_pass)
        gp_rp_set_free(&rp->sets[GP_RP_ONE_PASS]);
    rp->avail = avail; /* for gp_rp_rotation_build */
    rp->avail_size = ca.counterAvailabilityImageSize;
    rp->all_names = names;
    *errclass = GP_RP_OK;
    return rp;
fail:
    free(avail);
    gp_rp_destroy(rp);
    return NULL;
}

int gp_rp_chip_name(int device, char *chip, size_t len, char *err, size_t errlen)
{
    if (gp_rp_global_init(err, errlen) != 0) /* CUPTI asks for it first */
        return -1;
    CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cn.deviceIndex = (size_t)device;
    CUptiResult r = cuptiDeviceGetChipName(&cn);
    if (r != CUPTI_SUCCESS) {
        rp_fail(r, "cuptiDeviceGetChipName", err, errlen);
        return -1;
    }
    snprintf(chip, len, "%s", cn.pChipName);
    return 0;
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
    for (size_t i = 0; i < GP_RP_MAX_SETS; i++)
        gp_rp_set_free(&rp->sets[i]);
    free(rp->kept);
    free(rp->avail);
    free(rp);
}

int gp_rp_has_instrumented(const gp_rp *rp)
{
    for (size_t x = 0; rp && x <= rp->n_extra; x++) {
        const rp_set *s = &rp->sets[x == 0 ? GP_RP_FULL : GP_RP_EXTRA + (int)x - 1];
        for (size_t k = 0; k < s->n; k++)
            if (gp_metric_is_instrumented(s->names[k]))
                return 1;
    }
    return 0;
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

size_t gp_rp_config_passes(const gp_rp *rp, int set)
{
    if (set == GP_RP_ONE_PASS && !rp->have_one_pass)
        return 0;
    if (set < 0 || set >= GP_RP_MAX_SETS || !rp->sets[set].cfg)
        return 0;
    return gp_host_config_passes(rp->sets[set].cfg);
}

size_t gp_rp_passes(const gp_rp *rp, int set)
{
    size_t p = gp_rp_config_passes(rp, set);
    for (size_t x = 0; set == GP_RP_FULL && x < rp->n_extra; x++)
        p += gp_rp_config_passes(rp, GP_RP_EXTRA + (int)x);
    return p;
}

size_t gp_rp_extra_configs(const gp_rp *rp)
{
    return rp->n_extra;
}

static int one_set_has(const rp_set *s, size_t i)
{
    for (size_t k = 0; k < s->n; k++)
        if (s->index[k] == i)
            return 1;
    return 0;
}

int gp_rp_set_has(const gp_rp *rp, int set, size_t i)
{
    if (one_set_has(&rp->sets[set], i))
        return 1;
    for (size_t x = 0; set == GP_RP_FULL && x < rp->n_extra; x++)
        if (one_set_has(&rp->sets[GP_RP_EXTRA + x], i))
            return 1;
    return 0;
}

int gp_rp_abandon(gp_rp *rp, char *err, size_t errlen)
{
    if (!rp || !rp->configured || rp->started)
        return 0;
    rp->configured = 0;
    return reenable(rp, err, errlen);
}


/* A list split over configurations: a range profiler object keeps counting
 * what its first configuration asked for (a later SetConfig changes what is
 * evaluated, not what is programmed: tests/gpu/bench/pass_cost.cu, mode
 * alt), so every switch starts from a fresh object. */
static int reenable(gp_rp *rp, char *err, size_t errlen)
{
    CUpti_RangeProfiler_Disable_Params p = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    p.pRangeProfilerObject = rp->obj;
    cuptiRangeProfilerDisable(&p);
    rp->obj = NULL;
    rp->sized_set = NULL;
    CUpti_RangeProfiler_Enable_Params en = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = rp->ctx;
    CUptiResult r = cuptiRangeProfilerEnable(&en);
    if (r != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerEnable", err, errlen), -1;
    rp->obj = en.pRangeProfilerObject;
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
    /* a configuration other than the one the object was started with: a
     * fresh object (see reenable()); the configurations of a split list, and
     * the one-pass set a launch falls back to when no snapshot is possible
     * after launches with the full set */
    if (rp->configured && rp->active_set != set && reenable(rp, err, errlen) != 0)
        return -1;
    rp->active_set = set;
    rp->configured = 1;
    size_t size = 0;
    if (rp->sized_set != s && size_counter_data(rp, s, &size, err, errlen) != 0)
        return -1;
    if (size && size != s->counter_data_size) {
        snprintf(err, errlen, "CUPTI sized the counter data image %zu bytes, then %zu",
                 s->counter_data_size, size);
        return -1;
    }
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
    sc.maxRangesPerPass = s->max_ranges;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    if ((r = cuptiRangeProfilerSetConfig(&sc)) != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerSetConfig", err, errlen), -1;
    return 0;
}

int gp_rp_is_user_range(const gp_rp *rp)
{
    return !rp->auto_range && !rp->kernel_replay;
}

int gp_rp_pass_start(gp_rp *rp, const char *range_name, void (*before_range)(void *), void *arg,
                     char *err, size_t errlen)
{
    CUptiResult r;
    CUpti_RangeProfiler_Start_Params st = {CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    st.pRangeProfilerObject = rp->obj;
    if ((r = cuptiRangeProfilerStart(&st)) != CUPTI_SUCCESS)
        return rp_fail(r, "cuptiRangeProfilerStart", err, errlen), -1;
    if (rp->auto_range || rp->kernel_replay)
        return 0;
    if (before_range) /* between the start and the range: counted by nothing */
        before_range(arg);
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

/* The active set's values of its last range into values[0..n_all). */
static int last_range(gp_rp *rp, double *values, char *err, size_t errlen)
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

int gp_rp_discard(gp_rp *rp, char *err, size_t errlen)
{
    size_t ranges = 0;
    return decode(rp, &ranges, err, errlen);
}

int gp_rp_keep(gp_rp *rp, char *err, size_t errlen)
{
    double *v = malloc((rp->n_all ? rp->n_all : 1) * sizeof(double));
    if (!v) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = last_range(rp, v, err, errlen);
    const rp_set *s = &rp->sets[rp->active_set];
    for (size_t k = 0; rc == 0 && k < s->n; k++)
        rp->kept[s->index[k]] = v[s->index[k]];
    free(v);
    return rc;
}

int gp_rp_finish(gp_rp *rp, double *values, char *err, size_t errlen)
{
    int rc = last_range(rp, values, err, errlen);
    for (size_t i = 0; i < rp->n_all; i++) { /* the extras' values, then forget them */
        if (rc == 0 && isnan(values[i]))
            values[i] = rp->kept[i];
        rp->kept[i] = NAN;
    }
    return rc;
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
    return gp_rp_batch_open_set(rp, GP_RP_FULL, err, errlen);
}

int gp_rp_batch_open_set(gp_rp *rp, int set, char *err, size_t errlen)
{
    if (rp->started && rp->active_set == set)
        return 0;
    if (rp->started) {
        snprintf(err, errlen, "a batch is open with another configuration");
        return -1;
    }
    if (set < 0 || set >= GP_RP_MAX_SETS || gp_rp_config_passes(rp, set) != 1) {
        snprintf(err, errlen, "configuration %d is not of one pass", set);
        return -1;
    }
    if (gp_rp_begin(rp, set, err, errlen) != 0)
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
