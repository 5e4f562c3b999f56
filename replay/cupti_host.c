/* cupti_host.c - host side of the CUPTI Profiler (see cupti_host.h); the
 * grouping of metric lists into configurations is host_group.c. */
#define _GNU_SOURCE
#include "replay/cupti_host.h"

#include <cupti_profiler_host.h>
#include <cupti_result.h>
#include <cupti_version.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "replay/host_obj.h"
#include "util/strutil.h"

struct gp_host_config {
    CUpti_Profiler_Host_Object *host;
    uint8_t *image;
    size_t image_size;
    size_t passes;
    size_t n;
    char **names;
};

static const char *host_strerror(CUptiResult r)
{
    const char *s = NULL;
    cuptiGetResultString(r, &s);
    return s ? s : "unknown CUPTI error";
}

CUpti_Profiler_Host_Object *gp_host_obj_open(const char *chip, const uint8_t *avail, CUptiResult *res)
{
    CUpti_Profiler_Host_Initialize_Params p = {CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip;
    p.pCounterAvailabilityImage = avail;
    *res = cuptiProfilerHostInitialize(&p);
    return *res == CUPTI_SUCCESS ? p.pHostObject : NULL;
}

void gp_host_obj_close(CUpti_Profiler_Host_Object *h)
{
    if (!h)
        return;
    CUpti_Profiler_Host_Deinitialize_Params p = {CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    p.pHostObject = h;
    cuptiProfilerHostDeinitialize(&p);
}

int gp_host_obj_add(CUpti_Profiler_Host_Object *h, const char *const *names, size_t n)
{
    CUpti_Profiler_Host_ConfigAddMetrics_Params p = {
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    p.pHostObject = h;
    p.ppMetricNames = (const char **)names;
    p.numMetrics = n;
    return cuptiProfilerHostConfigAddMetrics(&p) == CUPTI_SUCCESS ? 0 : -1;
}

/* "<size>:<mtime>" of the file holding addr, or "?". */
static void file_of(const void *addr, char *buf, size_t len)
{
    Dl_info info;
    struct stat st;
    if (addr && dladdr(addr, &info) && info.dli_fname && stat(info.dli_fname, &st) == 0)
        snprintf(buf, len, "%lld:%lld", (long long)st.st_size, (long long)st.st_mtime);
    else
        snprintf(buf, len, "?");
}

void gp_host_identity(char *buf, size_t len)
{
    uint32_t api = 0;
    char cupti[64], nvperf[64];
    if (cuptiGetVersion(&api) != CUPTI_SUCCESS)
        api = 0;
    file_of((const void *)(uintptr_t)cuptiGetVersion, cupti, sizeof(cupti));
    /* loaded by CUPTI's host API at its first host object */
    void *lib = dlopen("libnvperf_host.so", RTLD_LAZY | RTLD_LOCAL | RTLD_NOLOAD);
    file_of(lib ? dlsym(lib, "NVPW_InitializeHost") : NULL, nvperf, sizeof(nvperf));
    if (lib)
        dlclose(lib);
    snprintf(buf, len, "cupti=%u/%s nvperf=%s", (unsigned)api, cupti, nvperf);
}

int gp_metric_is_instrumented(const char *name)
{
    /* the .peak_sustained constants of sass metrics are hardware metrics */
    size_t l = strlen(name), s = strlen(".peak_sustained");
    if (l > s && strcmp(name + l - s, ".peak_sustained") == 0)
        return 0;
    return strstr(name, "__sass_") != NULL;
}

/* Calls fn once per base metric of h (type 0: counter, 1: ratio, 2:
 * throughput); a type CUPTI cannot list is left out. */
static void each_base(CUpti_Profiler_Host_Object *h,
                      void (*fn)(void *ctx, const char *name, int type), void *ctx)
{
    for (int t = CUPTI_METRIC_TYPE_COUNTER; t <= CUPTI_METRIC_TYPE_THROUGHPUT; t++) {
        CUpti_Profiler_Host_GetBaseMetrics_Params p = {
            CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
        p.pHostObject = h;
        p.metricType = (CUpti_MetricType)t;
        if (cuptiProfilerHostGetBaseMetrics(&p) != CUPTI_SUCCESS)
            continue;
        for (size_t i = 0; i < p.numMetrics; i++)
            fn(ctx, p.ppMetricNames[i], t - CUPTI_METRIC_TYPE_COUNTER);
    }
}

/* The 3 base metrics closest to base so far, nearest first. */
typedef struct {
    const char *base;
    const char *best[3];
    size_t bestd[3];
} closest;

static void closest_note(void *ctx, const char *name, int type)
{
    closest *c = ctx;
    (void)type;
    size_t d = gp_edit_distance(c->base, name);
    for (int k = 0; k < 3; k++) {
        if (d < c->bestd[k]) {
            for (int m = 2; m > k; m--) {
                c->bestd[m] = c->bestd[m - 1];
                c->best[m] = c->best[m - 1];
            }
            c->bestd[k] = d;
            c->best[k] = name;
            break;
        }
    }
}

/* Lists up to 3 base metrics of the chip closest to name's base (the part
 * before the first '.'), each with name's suffix, into buf. */
static void close_matches(CUpti_Profiler_Host_Object *h, const char *name, char *buf, size_t len)
{
    char base[256];
    const char *dot = strchr(name, '.');
    size_t bl = dot ? (size_t)(dot - name) : strlen(name);
    if (bl >= sizeof(base))
        bl = sizeof(base) - 1;
    memcpy(base, name, bl);
    base[bl] = '\0';
    closest c = {base, {0}, {(size_t)-1, (size_t)-1, (size_t)-1}};
    each_base(h, closest_note, &c);
    buf[0] = '\0';
    size_t used = 0;
    for (int k = 0; k < 3 && c.best[k]; k++)
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s%s",
                                 k ? ", " : "", c.best[k], dot ? dot : "");
}

int gp_host_each_base(const char *chip, void (*fn)(void *ctx, const char *name, int type),
                      void *ctx)
{
    CUptiResult r;
    CUpti_Profiler_Host_Object *h = gp_host_obj_open(chip, NULL, &r);
    if (!h)
        return -1;
    each_base(h, fn, ctx);
    gp_host_obj_close(h);
    return 0;
}

enum { CHECK_GROUP = 16 };

size_t gp_host_check_names_each(const char *chip, const char *const *names, size_t n, int *known,
                                char *err, size_t errlen)
{
    size_t unknown = 0;
    CUptiResult r;
    if (err && errlen)
        err[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        /* a group at once first; a group CUPTI refuses, name by name */
        if (i % CHECK_GROUP == 0 && n - i > 1) {
            size_t k = n - i < CHECK_GROUP ? n - i : CHECK_GROUP;
            CUpti_Profiler_Host_Object *h = gp_host_obj_open(chip, NULL, &r);
            int all = h && gp_host_obj_add(h, &names[i], k) == 0;
            gp_host_obj_close(h);
            if (all) {
                for (size_t j = 0; known && j < k; j++)
                    known[i + j] = 1;
                i += k - 1;
                continue;
            }
        }
        CUpti_Profiler_Host_Object *h = gp_host_obj_open(chip, NULL, &r);
        if (!h) {
            if (err)
                snprintf(err, errlen, "CUPTI does not know chip '%s' (%s)", chip, host_strerror(r));
            for (size_t j = 0; known && j < n; j++)
                known[j] = 0;
            return n;
        }
        int ok = gp_host_obj_add(h, &names[i], 1) == 0;
        if (known)
            known[i] = ok;
        if (!ok && unknown++ == 0 && err) {
            char matches[512];
            close_matches(h, names[i], matches, sizeof(matches));
            snprintf(err, errlen, "unknown metric '%s' for %s; close matches: %s", names[i], chip,
                     matches[0] ? matches : "none");
        }
        gp_host_obj_close(h);
    }
    return unknown;
}

size_t gp_host_check_names(const char *chip, const char *const *names, size_t n, char *err,
                           size_t errlen)
{
    return gp_host_check_names_each(chip, names, n, NULL, err, errlen);
}

gp_host_config *gp_host_config_create(const char *chip, const uint8_t *avail, size_t avail_size,
                                      const char *const *names, size_t n, char *err, size_t errlen)
{
    (void)avail_size;
    CUptiResult r;
    gp_host_config *cfg = calloc(1, sizeof(*cfg));
    if (!cfg) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    cfg->host = gp_host_obj_open(chip, avail, &r);
    if (!cfg->host) {
        snprintf(err, errlen, "CUPTI host profiler cannot start for chip '%s': %s", chip,
                 host_strerror(r));
        goto fail;
    }
    if (gp_host_obj_add(cfg->host, names, n) != 0) {
        if (gp_host_check_names(chip, names, n, err, errlen) == 0)
            snprintf(err, errlen, "CUPTI could not schedule this set of %zu metrics on %s", n,
                     chip);
        goto fail;
    }
    CUpti_Profiler_Host_GetConfigImageSize_Params sp = {
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    sp.pHostObject = cfg->host;
    if ((r = cuptiProfilerHostGetConfigImageSize(&sp)) != CUPTI_SUCCESS) {
        snprintf(err, errlen, "config image size: %s", host_strerror(r));
        goto fail;
    }
    cfg->image_size = sp.configImageSize;
    cfg->image = malloc(cfg->image_size);
    if (!cfg->image) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    CUpti_Profiler_Host_GetConfigImage_Params ip = {
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    ip.pHostObject = cfg->host;
    ip.configImageSize = cfg->image_size;
    ip.pConfigImage = cfg->image;
    if ((r = cuptiProfilerHostGetConfigImage(&ip)) != CUPTI_SUCCESS) {
        snprintf(err, errlen, "config image: %s", host_strerror(r));
        goto fail;
    }
    CUpti_Profiler_Host_GetNumOfPasses_Params np = {
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    np.configImageSize = cfg->image_size;
    np.pConfigImage = cfg->image;
    if ((r = cuptiProfilerHostGetNumOfPasses(&np)) != CUPTI_SUCCESS) {
        snprintf(err, errlen, "pass count: %s", host_strerror(r));
        goto fail;
    }
    cfg->passes = np.numOfPasses;
    cfg->names = calloc(n ? n : 1, sizeof(char *));
    if (!cfg->names)
        goto fail;
    for (size_t i = 0; i < n; i++) {
        cfg->names[i] = strdup(names[i]);
        if (!cfg->names[i])
            goto fail;
        cfg->n = i + 1;
    }
    return cfg;
fail:
    gp_host_config_destroy(cfg);
    return NULL;
}

void gp_host_config_destroy(gp_host_config *cfg)
{
    if (!cfg)
        return;
    gp_host_obj_close(cfg->host);
    for (size_t i = 0; i < cfg->n; i++)
        free(cfg->names[i]);
    free(cfg->names);
    free(cfg->image);
    free(cfg);
}

size_t gp_host_config_passes(const gp_host_config *cfg) { return cfg->passes; }
size_t gp_host_config_count(const gp_host_config *cfg) { return cfg->n; }
const char *gp_host_config_name(const gp_host_config *cfg, size_t i) { return cfg->names[i]; }

const uint8_t *gp_host_config_image(const gp_host_config *cfg, size_t *size)
{
    *size = cfg->image_size;
    return cfg->image;
}

int gp_host_config_evaluate(const gp_host_config *cfg, const uint8_t *counter_data, size_t size,
                            size_t range, double *values)
{
    CUpti_Profiler_Host_EvaluateToGpuValues_Params p = {
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    p.pHostObject = cfg->host;
    p.pCounterDataImage = counter_data;
    p.counterDataImageSize = size;
    p.rangeIndex = range;
    p.ppMetricNames = (const char **)cfg->names;
    p.numMetrics = cfg->n;
    p.pMetricValues = values;
    if (cuptiProfilerHostEvaluateToGpuValues(&p) != CUPTI_SUCCESS) {
        for (size_t i = 0; i < cfg->n; i++)
            values[i] = NAN;
        return -1;
    }
    return 0;
}
