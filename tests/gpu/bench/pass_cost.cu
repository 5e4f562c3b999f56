/* pass_cost.cu - what one counter pass costs with each of CUPTI's two target
 * APIs, measured call by call, outside the profiler.
 *
 *   pass_cost METRICS MODE LAUNCHES
 *
 * METRICS is a comma-separated list or @file (lines starting with '#' are
 * skipped).  MODE:
 *   range    the range profiler (cupti_range_profiler.h), as libgpuprof
 *            uses it: per pass Start, PushRange, launch, PopRange, Stop
 *   session  the profiler target API (cupti_profiler_target.h): one session
 *            per launch, per pass BeginPass, EnableProfiling, PushRange,
 *            launch, PopRange, DisableProfiling, EndPass
 *   keep     the same, one session for every launch (SetConfig per launch)
 *   alt      range, then a second configuration (ALT_METRICS, a list or
 *            @file) on the same object at every launch
 * RANGES=n sizes the images for n ranges (libgpuprof sizes them for its
 * batches).  PASS_INDEX=1 gives SetConfig the passes the object has run so
 * far instead of 0.
 * Prints, per launch, the time of each call summed over its passes, and the
 * first metrics' values (so the modes can be compared).  A benchmark, not a
 * test: it decides nothing. */
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#include <nvperf_cuda_host.h>
#include <nvperf_host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern "C" {
#include "replay/cupti_host.h"
}

#define CK(x)                                                                                      \
    do {                                                                                           \
        CUptiResult r_ = (x);                                                                      \
        if (r_ != CUPTI_SUCCESS) {                                                                 \
            const char *s_ = NULL;                                                                 \
            cuptiGetResultString(r_, &s_);                                                         \
            fprintf(stderr, "pass_cost: %s failed: %s\n", #x, s_ ? s_ : "?");                    \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define NK(x)                                                                                      \
    do {                                                                                           \
        NVPA_Status s_ = (x);                                                                      \
        if (s_ != NVPA_STATUS_SUCCESS) {                                                           \
            fprintf(stderr, "pass_cost: %s failed: %d\n", #x, (int)s_);                           \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

__global__ void saxpy(float *y, const float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

enum { T_CONFIG, T_BEGIN, T_PUSH, T_KERNEL, T_POP, T_END, T_DECODE, T_N };
static const char *t_name[T_N] = {"config", "begin", "push", "kernel", "pop", "end", "decode"};
static double t_sum[T_N];
#define TIMED(slot, call)                                                                          \
    do {                                                                                           \
        double t0_ = now_ms();                                                                     \
        call;                                                                                      \
        t_sum[slot] += now_ms() - t0_;                                                             \
    } while (0)

static float *d_x, *d_y;
static const int N = 1 << 22;
static void launch(void)
{
    saxpy<<<(N + 255) / 256, 256>>>(d_y, d_x, 1.0f, N);
    cudaDeviceSynchronize();
}

static char *read_list(const char *arg)
{
    if (arg[0] != '@')
        return strdup(arg);
    FILE *f = fopen(arg + 1, "r");
    if (!f) {
        perror(arg + 1);
        exit(1);
    }
    char *out = (char *)calloc(1, 1 << 20), line[1 << 16];
    while (fgets(line, sizeof(line), f))
        if (line[0] != '#') {
            line[strcspn(line, "\r\n")] = 0;
            if (*out && *line)
                strcat(out, ",");
            strcat(out, line);
        }
    fclose(f);
    return out;
}

/* A metric list (comma-separated or @file) as names, and its configuration
 * for this device; exits with CUPTI's sentence when it cannot be made. */
enum { MAX_NAMES = 4096 };
typedef struct {
    const char *names[MAX_NAMES];
    size_t n;
    gp_host_config *cfg;
} metric_list;

static void metric_list_make(metric_list *m, const char *arg, const char *chip,
                             const uint8_t *avail, size_t avail_size)
{
    m->n = 0;
    for (char *tok = strtok(read_list(arg), ","); tok && m->n < MAX_NAMES; tok = strtok(NULL, ","))
        m->names[m->n++] = tok;
    char err[512];
    m->cfg = gp_host_config_create(chip, avail, avail_size, m->names, m->n, err, sizeof(err));
    if (!m->cfg) {
        fprintf(stderr, "pass_cost: %s\n", err);
        exit(1);
    }
}

/* The target API's counter data image needs a prefix built with the host
 * library (NVPW): the raw counters behind the metric names. */
static uint8_t *nvpw_prefix(const char *chip, const uint8_t *avail, const char **names, size_t n,
                            size_t *size)
{
    NVPW_InitializeHost_Params ih = {NVPW_InitializeHost_Params_STRUCT_SIZE};
    NK(NVPW_InitializeHost(&ih));
    NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params ss = {
        NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize_Params_STRUCT_SIZE};
    ss.pChipName = chip;
    ss.pCounterAvailabilityImage = avail;
    NK(NVPW_CUDA_MetricsEvaluator_CalculateScratchBufferSize(&ss));
    uint8_t *scratch = (uint8_t *)malloc(ss.scratchBufferSize);
    NVPW_CUDA_MetricsEvaluator_Initialize_Params mi = {
        NVPW_CUDA_MetricsEvaluator_Initialize_Params_STRUCT_SIZE};
    mi.pScratchBuffer = scratch;
    mi.scratchBufferSize = ss.scratchBufferSize;
    mi.pChipName = chip;
    mi.pCounterAvailabilityImage = avail;
    NK(NVPW_CUDA_MetricsEvaluator_Initialize(&mi));
    NVPW_MetricEvalRequest *req = (NVPW_MetricEvalRequest *)calloc(n, sizeof(*req));
    for (size_t i = 0; i < n; i++) {
        NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params cv = {
            NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest_Params_STRUCT_SIZE};
        cv.pMetricsEvaluator = mi.pMetricsEvaluator;
        cv.pMetricName = names[i];
        cv.pMetricEvalRequest = &req[i];
        cv.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
        NK(NVPW_MetricsEvaluator_ConvertMetricNameToMetricEvalRequest(&cv));
    }
    NVPW_MetricsEvaluator_GetMetricRawDependencies_Params rd = {
        NVPW_MetricsEvaluator_GetMetricRawDependencies_Params_STRUCT_SIZE};
    rd.pMetricsEvaluator = mi.pMetricsEvaluator;
    rd.pMetricEvalRequests = req;
    rd.numMetricEvalRequests = n;
    rd.metricEvalRequestStructSize = NVPW_MetricEvalRequest_STRUCT_SIZE;
    rd.metricEvalRequestStrideSize = sizeof(NVPW_MetricEvalRequest);
    NK(NVPW_MetricsEvaluator_GetMetricRawDependencies(&rd));
    const char **raw = (const char **)calloc(rd.numRawDependencies + 1, sizeof(char *));
    rd.ppRawDependencies = raw;
    NK(NVPW_MetricsEvaluator_GetMetricRawDependencies(&rd));
    NVPA_RawMetricRequest *rr =
        (NVPA_RawMetricRequest *)calloc(rd.numRawDependencies + 1, sizeof(*rr));
    for (size_t i = 0; i < rd.numRawDependencies; i++) {
        rr[i].structSize = NVPA_RAW_METRIC_REQUEST_STRUCT_SIZE;
        rr[i].pMetricName = raw[i];
        rr[i].isolated = 1;
        rr[i].keepInstances = 1;
    }
    NVPW_CUDA_CounterDataBuilder_Create_Params cb = {
        NVPW_CUDA_CounterDataBuilder_Create_Params_STRUCT_SIZE};
    cb.pChipName = chip;
    cb.pCounterAvailabilityImage = avail;
    NK(NVPW_CUDA_CounterDataBuilder_Create(&cb));
    NVPW_CounterDataBuilder_AddMetrics_Params am = {NVPW_CounterDataBuilder_AddMetrics_Params_STRUCT_SIZE};
    am.pCounterDataBuilder = cb.pCounterDataBuilder;
    am.pRawMetricRequests = rr;
    am.numMetricRequests = rd.numRawDependencies;
    NK(NVPW_CounterDataBuilder_AddMetrics(&am));
    NVPW_CounterDataBuilder_GetCounterDataPrefix_Params gp = {
        NVPW_CounterDataBuilder_GetCounterDataPrefix_Params_STRUCT_SIZE};
    gp.pCounterDataBuilder = cb.pCounterDataBuilder;
    NK(NVPW_CounterDataBuilder_GetCounterDataPrefix(&gp));
    uint8_t *prefix = (uint8_t *)malloc(gp.bytesCopied);
    gp.bytesAllocated = gp.bytesCopied;
    gp.pBuffer = prefix;
    NK(NVPW_CounterDataBuilder_GetCounterDataPrefix(&gp));
    *size = gp.bytesCopied;
    fprintf(stderr, "pass_cost: %zu metrics need %zu raw counters; prefix %zu bytes\n", n,
            rd.numRawDependencies, *size);
    return prefix;
}

typedef struct {
    uint8_t *img;
    size_t size;
} rp_image;

/* The image size for these names; the object also takes them as the
 * metrics its next image initialization is for. */
static size_t rp_image_size(CUpti_RangeProfiler_Object *obj, const char **names, size_t n,
                            size_t ranges)
{
    CUpti_RangeProfiler_GetCounterDataSize_Params gs = {
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    gs.pRangeProfilerObject = obj;
    gs.pMetricNames = names;
    gs.numMetrics = n;
    gs.maxNumOfRanges = ranges;
    gs.maxNumRangeTreeNodes = ranges;
    CK(cuptiRangeProfilerGetCounterDataSize(&gs));
    return gs.counterDataSize;
}

/* A counter data image for these names, sized by the object. */
static rp_image rp_image_make(CUpti_RangeProfiler_Object *obj, const char **names, size_t n,
                              size_t ranges)
{
    size_t size = rp_image_size(obj, names, n, ranges);
    rp_image r = {(uint8_t *)malloc(size), size};
    return r;
}

/* One launch profiled with the range profiler as libgpuprof does: the
 * configuration set, then Start, PushRange, launch, PopRange, Stop per pass. */
static size_t passes_so_far;
static int range_launch(CUpti_RangeProfiler_Object *obj, rp_image *im, const uint8_t *cfg_img,
                        size_t cfg_size, const char **names, size_t n, size_t ranges)
{
    int passes = 0;
    TIMED(T_CONFIG, {
        /* the object initializes images for the metrics it was last asked about */
        rp_image_size(obj, names, n, ranges);
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
            CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
        ci.pRangeProfilerObject = obj;
        ci.counterDataSize = im->size;
        ci.pCounterData = im->img;
        CK(cuptiRangeProfilerCounterDataImageInitialize(&ci));
        CUpti_RangeProfiler_SetConfig_Params sc = {CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
        sc.pRangeProfilerObject = obj;
        sc.configSize = cfg_size;
        sc.pConfig = cfg_img;
        sc.counterDataImageSize = im->size;
        sc.pCounterDataImage = im->img;
        sc.range = CUPTI_UserRange;
        sc.replayMode = CUPTI_UserReplay;
        sc.maxRangesPerPass = ranges;
        sc.numNestingLevels = 1;
        sc.minNestingLevel = 1;
        /* PASS_INDEX=running: the passes this object has run so far (a
         * trial: does a second configuration on one object need it?) */
        sc.passIndex = getenv("PASS_INDEX") ? passes_so_far : 0;
        sc.targetNestingLevel = 1;
        CK(cuptiRangeProfilerSetConfig(&sc));
    });
    int all = 0;
    while (!all) {
        CUpti_RangeProfiler_Start_Params st = {CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
        st.pRangeProfilerObject = obj;
        TIMED(T_BEGIN, CK(cuptiRangeProfilerStart(&st)));
        CUpti_RangeProfiler_PushRange_Params pu = {CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
        pu.pRangeProfilerObject = obj;
        pu.pRangeName = "saxpy";
        TIMED(T_PUSH, CK(cuptiRangeProfilerPushRange(&pu)));
        TIMED(T_KERNEL, launch());
        CUpti_RangeProfiler_PopRange_Params po = {CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
        po.pRangeProfilerObject = obj;
        TIMED(T_POP, CK(cuptiRangeProfilerPopRange(&po)));
        CUpti_RangeProfiler_Stop_Params sp = {CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
        sp.pRangeProfilerObject = obj;
        TIMED(T_END, CK(cuptiRangeProfilerStop(&sp)));
        all = sp.isAllPassSubmitted;
        passes++;
    }
    CUpti_RangeProfiler_DecodeData_Params dd = {CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    dd.pRangeProfilerObject = obj;
    TIMED(T_DECODE, CK(cuptiRangeProfilerDecodeData(&dd)));
    passes_so_far += (size_t)passes;
    return passes;
}

static void print_launch(const char *mode, int l, int passes, double total,
                         const gp_host_config *cfg, const uint8_t *img, size_t img_size,
                         size_t range)
{
    printf("%s launch %d: %d passes, %.2f ms;", mode, l, passes, total);
    for (int s = 0; s < T_N; s++)
        printf(" %s %.2f", t_name[s], t_sum[s]);
    size_t n = gp_host_config_count(cfg);
    double *v = (double *)calloc(n, sizeof(double));
    int rc = gp_host_config_evaluate(cfg, img, img_size, range, v);
    printf("; values%s:", rc ? " (evaluate failed)" : "");
    for (size_t i = 0; i < n && i < 6; i++)
        printf(" %s=%.0f", gp_host_config_name(cfg, i), v[i]);
    printf("\n");
    free(v);
    memset(t_sum, 0, sizeof(t_sum));
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: pass_cost METRICS|@FILE range|session|keep|alt LAUNCHES\n");
        return 2;
    }
    const char *mode = argv[2];
    int launches = atoi(argv[3]);

    cudaSetDevice(0);
    cudaMalloc(&d_x, N * sizeof(float));
    cudaMalloc(&d_y, N * sizeof(float));
    cudaMemset(d_x, 0, N * sizeof(float));
    cudaMemset(d_y, 0, N * sizeof(float));
    launch();
    CUcontext ctx;
    cuCtxGetCurrent(&ctx);

    CUpti_Profiler_Initialize_Params pi = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CK(cuptiProfilerInitialize(&pi));
    CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cn.deviceIndex = 0;
    CK(cuptiDeviceGetChipName(&cn));
    CUpti_Profiler_GetCounterAvailability_Params ca = {
        CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    ca.ctx = ctx;
    CK(cuptiProfilerGetCounterAvailability(&ca));
    uint8_t *avail = (uint8_t *)malloc(ca.counterAvailabilityImageSize);
    ca.pCounterAvailabilityImage = avail;
    CK(cuptiProfilerGetCounterAvailability(&ca));

    static metric_list first, second;
    metric_list_make(&first, argv[1], cn.pChipName, avail, ca.counterAvailabilityImageSize);
    const char **names = first.names;
    size_t n = first.n;
    gp_host_config *cfg = first.cfg;
    size_t cfg_size;
    const uint8_t *cfg_img = gp_host_config_image(cfg, &cfg_size);
    printf("pass_cost %s: %zu metrics, %zu passes by the host API, chip %s\n", mode, n,
           gp_host_config_passes(cfg), cn.pChipName);

    if (strcmp(mode, "range") == 0 || strcmp(mode, "alt") == 0) {
        /* alt: a second configuration (ALT_METRICS) on the same object, run
         * after the first at every launch, each with its own image */
        gp_host_config *cfg2 = NULL;
        if (strcmp(mode, "alt") == 0) {
            const char *a = getenv("ALT_METRICS");
            if (!a) {
                fprintf(stderr, "pass_cost: alt needs ALT_METRICS\n");
                return 2;
            }
            metric_list_make(&second, a, cn.pChipName, avail, ca.counterAvailabilityImageSize);
            cfg2 = second.cfg;
            printf("alt: second configuration %zu metrics, %zu passes\n", second.n,
                   gp_host_config_passes(cfg2));
        }
        size_t ranges = getenv("RANGES") ? (size_t)atol(getenv("RANGES")) : 1;
        double t0 = now_ms();
        CUpti_RangeProfiler_Enable_Params en = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
        en.ctx = ctx;
        CK(cuptiRangeProfilerEnable(&en));
        rp_image a = rp_image_make(en.pRangeProfilerObject, names, n, ranges), b = {0};
        if (cfg2)
            b = rp_image_make(en.pRangeProfilerObject, second.names, second.n, ranges);
        printf("range: enable and size %.2f ms; images %zu and %zu bytes for %zu ranges\n",
               now_ms() - t0, a.size, b.size, ranges);
        for (int l = 0; l < launches; l++) {
            double tl = now_ms();
            int passes = range_launch(en.pRangeProfilerObject, &a, cfg_img, cfg_size, names, n,
                                      ranges);
            print_launch(mode, l, passes, now_ms() - tl, cfg, a.img, a.size, 0);
            if (cfg2) {
                size_t sz2;
                const uint8_t *img2 = gp_host_config_image(cfg2, &sz2);
                tl = now_ms();
                passes = range_launch(en.pRangeProfilerObject, &b, img2, sz2, second.names,
                                      second.n, ranges);
                print_launch("alt-second", l, passes, now_ms() - tl, cfg2, b.img, b.size, 0);
            }
        }
        return 0;
    }

    int keep = strcmp(mode, "keep") == 0;
    if (!keep && strcmp(mode, "session") != 0) {
        fprintf(stderr, "pass_cost: unknown mode '%s'\n", mode);
        return 2;
    }
    double t0 = now_ms();
    size_t prefix_size;
    uint8_t *prefix = nvpw_prefix(cn.pChipName, avail, names, n, &prefix_size);
    CUpti_Profiler_CounterDataImageOptions op = {CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE};
    op.pCounterDataPrefix = prefix;
    op.counterDataPrefixSize = prefix_size;
    op.maxNumRanges = keep ? launches : 1;
    op.maxNumRangeTreeNodes = op.maxNumRanges;
    op.maxRangeNameLength = 64;
    CUpti_Profiler_CounterDataImage_CalculateSize_Params cs = {
        CUpti_Profiler_CounterDataImage_CalculateSize_Params_STRUCT_SIZE};
    cs.sizeofCounterDataImageOptions = CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE;
    cs.pOptions = &op;
    CK(cuptiProfilerCounterDataImageCalculateSize(&cs));
    uint8_t *img = (uint8_t *)malloc(cs.counterDataImageSize);
    uint8_t *scratch = NULL;
    size_t scratch_size = 0;
    printf("%s: prefix and image size %.2f ms\n", mode, now_ms() - t0);

    for (int l = 0; l < launches; l++) {
        double tl = now_ms();
        int passes = 0;
        if (!keep || l == 0) {
            TIMED(T_CONFIG, {
                CUpti_Profiler_CounterDataImage_Initialize_Params ii = {
                    CUpti_Profiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
                ii.sizeofCounterDataImageOptions = CUpti_Profiler_CounterDataImageOptions_STRUCT_SIZE;
                ii.pOptions = &op;
                ii.counterDataImageSize = cs.counterDataImageSize;
                ii.pCounterDataImage = img;
                CK(cuptiProfilerCounterDataImageInitialize(&ii));
                CUpti_Profiler_CounterDataImage_CalculateScratchBufferSize_Params sb = {
                    CUpti_Profiler_CounterDataImage_CalculateScratchBufferSize_Params_STRUCT_SIZE};
                sb.counterDataImageSize = cs.counterDataImageSize;
                sb.pCounterDataImage = img;
                CK(cuptiProfilerCounterDataImageCalculateScratchBufferSize(&sb));
                if (!scratch) {
                    scratch_size = sb.counterDataScratchBufferSize;
                    scratch = (uint8_t *)malloc(scratch_size);
                }
                CUpti_Profiler_CounterDataImage_InitializeScratchBuffer_Params is = {
                    CUpti_Profiler_CounterDataImage_InitializeScratchBuffer_Params_STRUCT_SIZE};
                is.counterDataImageSize = cs.counterDataImageSize;
                is.pCounterDataImage = img;
                is.counterDataScratchBufferSize = scratch_size;
                is.pCounterDataScratchBuffer = scratch;
                CK(cuptiProfilerCounterDataImageInitializeScratchBuffer(&is));
                CUpti_Profiler_BeginSession_Params bs = {CUpti_Profiler_BeginSession_Params_STRUCT_SIZE};
                bs.ctx = ctx;
                bs.counterDataImageSize = cs.counterDataImageSize;
                bs.pCounterDataImage = img;
                bs.counterDataScratchBufferSize = scratch_size;
                bs.pCounterDataScratchBuffer = scratch;
                bs.range = CUPTI_UserRange;
                bs.replayMode = CUPTI_UserReplay;
                bs.maxRangesPerPass = 1;
                bs.maxLaunchesPerPass = 1;
                CK(cuptiProfilerBeginSession(&bs));
            });
        }
        TIMED(T_CONFIG, {
            CUpti_Profiler_SetConfig_Params sc = {CUpti_Profiler_SetConfig_Params_STRUCT_SIZE};
            sc.ctx = ctx;
            sc.pConfig = cfg_img;
            sc.configSize = cfg_size;
            sc.minNestingLevel = 1;
            sc.numNestingLevels = 1;
            sc.passIndex = 0;
            sc.targetNestingLevel = 1;
            CK(cuptiProfilerSetConfig(&sc));
        });
        int all = 0;
        while (!all) {
            CUpti_Profiler_BeginPass_Params bp = {CUpti_Profiler_BeginPass_Params_STRUCT_SIZE};
            bp.ctx = ctx;
            CUpti_Profiler_EnableProfiling_Params ep = {CUpti_Profiler_EnableProfiling_Params_STRUCT_SIZE};
            ep.ctx = ctx;
            TIMED(T_BEGIN, {
                CK(cuptiProfilerBeginPass(&bp));
                CK(cuptiProfilerEnableProfiling(&ep));
            });
            CUpti_Profiler_PushRange_Params pu = {CUpti_Profiler_PushRange_Params_STRUCT_SIZE};
            pu.ctx = ctx;
            pu.pRangeName = "saxpy";
            pu.rangeNameLength = 5;
            TIMED(T_PUSH, CK(cuptiProfilerPushRange(&pu)));
            TIMED(T_KERNEL, launch());
            CUpti_Profiler_PopRange_Params po = {CUpti_Profiler_PopRange_Params_STRUCT_SIZE};
            po.ctx = ctx;
            TIMED(T_POP, CK(cuptiProfilerPopRange(&po)));
            CUpti_Profiler_DisableProfiling_Params dp = {CUpti_Profiler_DisableProfiling_Params_STRUCT_SIZE};
            dp.ctx = ctx;
            CUpti_Profiler_EndPass_Params ep2 = {CUpti_Profiler_EndPass_Params_STRUCT_SIZE};
            ep2.ctx = ctx;
            TIMED(T_END, {
                CK(cuptiProfilerDisableProfiling(&dp));
                CK(cuptiProfilerEndPass(&ep2));
            });
            all = ep2.allPassesSubmitted;
            passes++;
        }
        TIMED(T_DECODE, {
            CUpti_Profiler_FlushCounterData_Params fc = {CUpti_Profiler_FlushCounterData_Params_STRUCT_SIZE};
            fc.ctx = ctx;
            CK(cuptiProfilerFlushCounterData(&fc));
            CUpti_Profiler_UnsetConfig_Params uc = {CUpti_Profiler_UnsetConfig_Params_STRUCT_SIZE};
            uc.ctx = ctx;
            CK(cuptiProfilerUnsetConfig(&uc));
            if (!keep || l == launches - 1) {
                CUpti_Profiler_EndSession_Params es = {CUpti_Profiler_EndSession_Params_STRUCT_SIZE};
                es.ctx = ctx;
                CK(cuptiProfilerEndSession(&es));
            }
        });
        print_launch(mode, l, passes, now_ms() - tl, cfg, img, cs.counterDataImageSize,
                     keep ? (size_t)l : 0);
    }
    return 0;
}
