/* pcs_probe.c - what CUPTI's PC Sampling API does on this GPU, outside the
 * profiler: a diagnostic, not a test (it decides nothing).
 *
 *   pcs_probe CUBIN MODE
 *
 * CUBIN holds the kernels of stall_kernels.cu.  MODE:
 *   work      runs each kernel REPS times (default 1), nothing else (for ncu
 *             and the profiler)
 *   timed     each kernel's median duration over REPS launches (default 21),
 *             measured with events by the program itself, nothing else (run
 *             with and without a profiler to see what it costs the kernels)
 *   reasons   the stall reasons and the default configuration
 *   overhead  each kernel's median duration without sampling, with sampling
 *             enabled but stopped, and sampled at each period of PERIODS
 *             (default "-1 5 7 9 11 13 15"; -1: CUPTI's default); samples,
 *             dropped samples, and the host cost of start, stop and get-data
 *   late      kernels run first, sampling is enabled afterwards: are the
 *             later samples still attributed to their functions?
 *   getdata   get-data while sampling is started (no stop first)
 *   rp        the range profiler's pass with sampling inside it: errors,
 *             counter values with and without, samples; pass counts of the
 *             warp-state metrics with this device's counter availability
 *   sass      CUPTI's SASS Metrics pass while sampling is enabled (stopped),
 *             then sampling again; per-instruction counts of stall_chase
 *   correlate samples of each kernel with CUPTI's source line per PC and the
 *             cubin's CRC against the samples' */
#include <cuda.h>
#include <cupti.h>
#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "replay/cupti_host.h"
#include "replay/sass_metrics.h"
#include "tests/gpu/drv_util.h"

#define CU(x)                                                                                      \
    do {                                                                                           \
        CUptiResult r_ = (x);                                                                      \
        if (r_ != CUPTI_SUCCESS) {                                                                 \
            const char *s_ = "?";                                                                  \
            cuptiGetResultString(r_, &s_);                                                         \
            printf("CUPTI ERROR %s: %s (%d)\n", #x, s_, (int)r_);                                  \
        }                                                                                          \
    } while (0)

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* ---- kernels ------------------------------------------------------------- */

enum { K_CHASE, K_FMA, K_BARRIER, K_STREAM, K_DIVERGE, K_N };
static const char *k_name[K_N] = {"stall_chase", "stall_fma", "stall_barrier", "stall_stream",
                                  "stall_diverge"};
static CUfunction k_fn[K_N];
static CUdeviceptr d_next, d_out, d_in, d_big;
static const long STREAM_N = 1L << 24; /* float4: 256 MB each way */

static void setup(CUcontext *ctx, const char *cubin, void **image, size_t *image_size)
{
    CUdevice dev;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(ctx, dev));
    CK(cuCtxSetCurrent(*ctx));
    *image = drv_read_file(cubin, image_size);
    if (!*image) {
        fprintf(stderr, "pcs_probe: cannot read %s\n", cubin);
        exit(2);
    }
}

static void load(void *image)
{
    CUmodule mod;
    CK(cuModuleLoadData(&mod, image));
    for (int k = 0; k < K_N; k++)
        CK(cuModuleGetFunction(&k_fn[k], mod, k_name[k]));
    CK(cuMemAlloc(&d_next, (1u << 20) * 4));
    CK(cuMemAlloc(&d_out, 132 * 8 * 256 * 16));
    CK(cuMemAlloc(&d_in, STREAM_N * 16));
    CK(cuMemAlloc(&d_big, STREAM_N * 16));
    unsigned *h = malloc((1u << 20) * 4);
    for (unsigned i = 0; i < (1u << 20); i++)
        h[i] = (i * 2654435761u) >> 12;
    CK(cuMemcpyHtoD(d_next, h, (1u << 20) * 4));
    free(h);
    CK(cuMemsetD32(d_in, 0x3f800000u, STREAM_N * 4));
}

static void launch(int k)
{
    int steps = 2000, iters = 20000, iters_b = 4000, iters_d = 20000;
    long n = STREAM_N;
    void *a_chase[] = {&d_next, &d_out, &steps};
    void *a_fma[] = {&d_out, &iters};
    void *a_bar[] = {&d_out, &iters_b};
    void *a_stream[] = {&d_in, &d_big, &n};
    void *a_div[] = {&d_out, &iters_d};
    void **args[K_N] = {a_chase, a_fma, a_bar, a_stream, a_div};
    unsigned blocks = k == K_STREAM ? 132 * 16 : 132 * 8;
    CK(cuLaunchKernel(k_fn[k], blocks, 1, 1, 256, 1, 1, 0, NULL, args[k], NULL));
}

/* Median duration in microseconds of `reps` launches of kernel k. */
static double timed(int k, int reps)
{
    double t[64];
    CUevent a, b;
    CK(cuEventCreate(&a, 0));
    CK(cuEventCreate(&b, 0));
    for (int r = 0; r < reps && r < 64; r++) {
        CK(cuEventRecord(a, NULL));
        launch(k);
        CK(cuEventRecord(b, NULL));
        CK(cuEventSynchronize(b));
        float ms;
        CK(cuEventElapsedTime(&ms, a, b));
        t[r] = ms * 1e3;
    }
    for (int i = 0; i < reps; i++) /* insertion sort: few values */
        for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
            double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    cuEventDestroy(a);
    cuEventDestroy(b);
    return t[reps / 2];
}

/* ---- PC sampling --------------------------------------------------------- */

enum { MAX_PCS = 20000 };
static size_t n_reasons;
static uint32_t *reason_index;
static char **reason_name;
static CUpti_PCSamplingData cfg_buf, get_buf;

typedef struct {
    char fn[128];
    uint64_t pc, crc;
    uint64_t *by_reason; /* n_reasons */
} pc_row;
static pc_row rows[MAX_PCS];
static size_t n_rows;
static uint64_t tot_samples, tot_dropped, tot_nonuser, tot_pcs, buffer_full;

static void data_alloc(CUpti_PCSamplingData *d)
{
    memset(d, 0, sizeof(*d));
    d->size = sizeof(*d);
    d->collectNumPcs = MAX_PCS;
    d->pPcData = calloc(MAX_PCS, sizeof(CUpti_PCSamplingPCData));
    for (size_t i = 0; i < MAX_PCS; i++) {
        d->pPcData[i].size = sizeof(CUpti_PCSamplingPCData);
        d->pPcData[i].stallReason = calloc(n_reasons ? n_reasons : 64,
                                           sizeof(CUpti_PCSamplingStallReason));
    }
}

static size_t reason_slot(uint32_t idx)
{
    for (size_t i = 0; i < n_reasons; i++)
        if (reason_index[i] == idx)
            return i;
    return 0;
}

static void rows_clear(void)
{
    for (size_t i = 0; i < n_rows; i++)
        free(rows[i].by_reason);
    n_rows = 0;
    tot_samples = tot_dropped = tot_nonuser = tot_pcs = buffer_full = 0;
}

static void take(const CUpti_PCSamplingData *d)
{
    tot_samples += d->totalSamples;
    tot_dropped += d->droppedSamples;
    tot_nonuser += d->nonUsrKernelsTotalSamples;
    tot_pcs += d->totalNumPcs;
    buffer_full += d->hardwareBufferFull;
    for (size_t i = 0; i < d->totalNumPcs; i++) {
        const CUpti_PCSamplingPCData *p = &d->pPcData[i];
        const char *fn = p->functionName ? p->functionName : "(null)";
        size_t r;
        for (r = 0; r < n_rows; r++)
            if (rows[r].pc == p->pcOffset && strcmp(rows[r].fn, fn) == 0)
                break;
        if (r == n_rows) {
            if (n_rows == MAX_PCS)
                continue;
            snprintf(rows[r].fn, sizeof(rows[r].fn), "%s", fn);
            rows[r].pc = p->pcOffset;
            rows[r].crc = p->cubinCrc;
            rows[r].by_reason = calloc(n_reasons, sizeof(uint64_t));
            n_rows++;
        }
        for (size_t j = 0; j < p->stallReasonCount; j++)
            rows[r].by_reason[reason_slot(p->stallReason[j].pcSamplingStallReasonIndex)] +=
                p->stallReason[j].samples;
    }
}

/* Drains CUPTI's data; returns the host time in microseconds. */
static double get_data(CUcontext ctx)
{
    double t = now_us();
    for (int round = 0; round < 100; round++) {
        CUpti_PCSamplingGetDataParams g = {CUpti_PCSamplingGetDataParamsSize};
        g.ctx = ctx;
        g.pcSamplingData = &get_buf;
        CUptiResult r = cuptiPCSamplingGetData(&g);
        if (r != CUPTI_SUCCESS) {
            const char *s = "?";
            cuptiGetResultString(r, &s);
            printf("  getdata: %s (%d)\n", s, (int)r);
            break;
        }
        take(&get_buf);
        if (get_buf.remainingNumPcs == 0)
            break;
    }
    return now_us() - t;
}

static int pcs_enabled;
static int pcs_enable(CUcontext ctx, int period)
{
    if (pcs_enabled++)
        return 0;
    CUpti_PCSamplingEnableParams en = {CUpti_PCSamplingEnableParamsSize};
    en.ctx = ctx;
    double t = now_us();
    CUptiResult r = cuptiPCSamplingEnable(&en);
    printf("enable: %.0f us\n", now_us() - t);
    if (r != CUPTI_SUCCESS) {
        CU(r);
        return -1;
    }
    CUpti_PCSamplingGetNumStallReasonsParams nr = {CUpti_PCSamplingGetNumStallReasonsParamsSize};
    nr.ctx = ctx;
    nr.numStallReasons = &n_reasons;
    CU(cuptiPCSamplingGetNumStallReasons(&nr));
    reason_index = calloc(n_reasons, sizeof(uint32_t));
    reason_name = calloc(n_reasons, sizeof(char *));
    for (size_t i = 0; i < n_reasons; i++)
        reason_name[i] = calloc(CUPTI_STALL_REASON_STRING_SIZE, 1);
    CUpti_PCSamplingGetStallReasonsParams gr = {CUpti_PCSamplingGetStallReasonsParamsSize};
    gr.ctx = ctx;
    gr.numStallReasons = n_reasons;
    gr.stallReasonIndex = reason_index;
    gr.stallReasons = reason_name;
    CU(cuptiPCSamplingGetStallReasons(&gr));

    /* the defaults first */
    CUpti_PCSamplingConfigurationInfo q[5] = {{0}};
    q[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
    q[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE;
    q[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE;
    q[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
    q[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_WORKER_THREAD_PERIODIC_SLEEP_SPAN;
    CUpti_PCSamplingConfigurationInfoParams qp = {CUpti_PCSamplingConfigurationInfoParamsSize};
    qp.ctx = ctx;
    qp.numAttributes = 5;
    qp.pPCSamplingConfigurationInfo = q;
    CU(cuptiPCSamplingGetConfigurationAttribute(&qp));
    printf("defaults: period 2^%u cycles, scratch %zu bytes, hardware buffer %zu bytes, mode %d, "
           "worker sleep %u ms (statuses %d %d %d %d %d)\n",
           q[0].attributeData.samplingPeriodData.samplingPeriod,
           q[1].attributeData.scratchBufferSizeData.scratchBufferSize,
           q[2].attributeData.hardwareBufferSizeData.hardwareBufferSize,
           (int)q[3].attributeData.collectionModeData.collectionMode,
           q[4].attributeData.workerThreadPeriodicSleepSpanData.workerThreadPeriodicSleepSpan,
           q[0].attributeStatus, q[1].attributeStatus, q[2].attributeStatus, q[3].attributeStatus,
           q[4].attributeStatus);

    data_alloc(&cfg_buf);
    data_alloc(&get_buf);
    CUpti_PCSamplingConfigurationInfo c[8] = {{0}};
    size_t nc = 0;
    c[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
    c[nc++].attributeData.enableStartStopControlData.enableStartStopControl = 1;
    c[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
    c[nc++].attributeData.samplingDataBufferData.samplingDataBuffer = &cfg_buf;
    c[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
    c[nc++].attributeData.collectionModeData.collectionMode =
        getenv("SERIALIZED") ? CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED
                             : CUPTI_PC_SAMPLING_COLLECTION_MODE_CONTINUOUS;
    c[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT;
    c[nc++].attributeData.outputDataFormatData.outputDataFormat =
        CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
    if (period >= 5) {
        c[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
        c[nc++].attributeData.samplingPeriodData.samplingPeriod = (uint32_t)period;
    }
    /* WORKER_SLEEP (ms), HWBUF and SCRATCH (bytes): CUPTI's worker threads and buffers */
    if (getenv("WORKER_SLEEP")) {
        c[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_WORKER_THREAD_PERIODIC_SLEEP_SPAN;
        c[nc++].attributeData.workerThreadPeriodicSleepSpanData.workerThreadPeriodicSleepSpan =
            (uint32_t)atoi(getenv("WORKER_SLEEP"));
    }
    if (getenv("HWBUF")) {
        c[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE;
        c[nc++].attributeData.hardwareBufferSizeData.hardwareBufferSize =
            (size_t)atoll(getenv("HWBUF"));
    }
    if (getenv("SCRATCH")) {
        c[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE;
        c[nc++].attributeData.scratchBufferSizeData.scratchBufferSize =
            (size_t)atoll(getenv("SCRATCH"));
    }
    CUpti_PCSamplingConfigurationInfoParams cp = {CUpti_PCSamplingConfigurationInfoParamsSize};
    cp.ctx = ctx;
    cp.numAttributes = nc;
    cp.pPCSamplingConfigurationInfo = c;
    t = now_us();
    CU(cuptiPCSamplingSetConfigurationAttribute(&cp));
    printf("configure (period %d): %.0f us\n", period, now_us() - t);
    for (size_t i = 0; i < nc; i++)
        if (c[i].attributeStatus != CUPTI_SUCCESS)
            printf("  attribute %d refused: %d\n", (int)c[i].attributeType,
                   (int)c[i].attributeStatus);
    return 0;
}

static double pcs_start(CUcontext ctx)
{
    CUpti_PCSamplingStartParams s = {CUpti_PCSamplingStartParamsSize};
    s.ctx = ctx;
    double t = now_us();
    CU(cuptiPCSamplingStart(&s));
    return now_us() - t;
}

static double pcs_stop(CUcontext ctx)
{
    CUpti_PCSamplingStopParams s = {CUpti_PCSamplingStopParamsSize};
    s.ctx = ctx;
    double t = now_us();
    CU(cuptiPCSamplingStop(&s));
    return now_us() - t;
}

static void pcs_disable(CUcontext ctx)
{
    CUpti_PCSamplingDisableParams d = {CUpti_PCSamplingDisableParamsSize};
    d.ctx = ctx;
    CU(cuptiPCSamplingDisable(&d));
    take(&cfg_buf);
    pcs_enabled = 0;
    for (size_t i = 0; i < n_reasons; i++)
        free(reason_name[i]);
    free(reason_name);
    free(reason_index);
}

/* Samples per kernel and reason (the top five reasons of each kernel). */
static void print_samples(const char *title)
{
    printf("%s: %llu samples, %llu dropped, %llu non-user, %llu PCs, hardware buffer full %llu\n",
           title, (unsigned long long)tot_samples, (unsigned long long)tot_dropped,
           (unsigned long long)tot_nonuser, (unsigned long long)tot_pcs,
           (unsigned long long)buffer_full);
    for (int k = 0; k < K_N; k++) {
        uint64_t *sum = calloc(n_reasons, sizeof(uint64_t)), all = 0, npc = 0;
        for (size_t r = 0; r < n_rows; r++)
            if (strcmp(rows[r].fn, k_name[k]) == 0) {
                npc++;
                for (size_t j = 0; j < n_reasons; j++)
                    sum[j] += rows[r].by_reason[j], all += rows[r].by_reason[j];
            }
        printf("  %-14s %8llu samples at %3llu PCs:", k_name[k], (unsigned long long)all,
               (unsigned long long)npc);
        for (int top = 0; top < 6 && all; top++) {
            size_t best = 0;
            for (size_t j = 1; j < n_reasons; j++)
                if (sum[j] > sum[best])
                    best = j;
            if (!sum[best])
                break;
            printf(" %s %.1f%%", reason_name[best] + (strncmp(reason_name[best], "smsp__pcsamp_", 13) ? 0 : 13),
                   100.0 * sum[best] / all);
            sum[best] = 0;
        }
        printf("\n");
        free(sum);
    }
    for (size_t r = 0; r < n_rows; r++) {
        int known = 0;
        for (int k = 0; k < K_N; k++)
            known |= strcmp(rows[r].fn, k_name[k]) == 0;
        if (!known) {
            printf("  other function: %s (pc %#llx)\n", rows[r].fn, (unsigned long long)rows[r].pc);
            break;
        }
    }
}

/* ---- modes --------------------------------------------------------------- */

static void mode_reasons(CUcontext ctx)
{
    if (pcs_enable(ctx, -1) != 0)
        return;
    printf("%zu stall reasons:\n", n_reasons);
    for (size_t i = 0; i < n_reasons; i++)
        printf("  %u %s\n", reason_index[i], reason_name[i]);
    pcs_disable(ctx);
}

static void mode_overhead(CUcontext ctx)
{
    const char *periods = getenv("PERIODS") ? getenv("PERIODS") : "-1 5 7 9 11 13 15";
    int reps = 9;
    double base[K_N];
    for (int k = 0; k < K_N; k++) {
        launch(k);
        base[k] = timed(k, reps);
    }
    printf("no sampling:      ");
    for (int k = 0; k < K_N; k++)
        printf(" %s %.1f us", k_name[k], base[k]);
    printf("\n");
    if (pcs_enable(ctx, -1) != 0)
        return;
    printf("enabled, stopped: ");
    for (int k = 0; k < K_N; k++)
        printf(" %s %+.2f%%", k_name[k], 100.0 * (timed(k, reps) / base[k] - 1));
    printf("\n");
    char *list = strdup(periods);
    for (char *tok = strtok(list, " "); tok; tok = strtok(NULL, " ")) {
        int p = atoi(tok);
        if (p >= 5) {
            CUpti_PCSamplingConfigurationInfo c = {0};
            c.attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
            c.attributeData.samplingPeriodData.samplingPeriod = (uint32_t)p;
            CUpti_PCSamplingConfigurationInfoParams cp = {
                CUpti_PCSamplingConfigurationInfoParamsSize};
            cp.ctx = ctx;
            cp.numAttributes = 1;
            cp.pPCSamplingConfigurationInfo = &c;
            CU(cuptiPCSamplingSetConfigurationAttribute(&cp));
        }
        rows_clear();
        double t_start = 0, t_stop = 0, t_get = 0, d[K_N];
        for (int k = 0; k < K_N; k++) {
            t_start += pcs_start(ctx);
            d[k] = timed(k, reps);
            t_stop += pcs_stop(ctx);
            t_get += get_data(ctx);
        }
        printf("period %3d:", p);
        for (int k = 0; k < K_N; k++)
            printf(" %s %+.2f%%", k_name[k], 100.0 * (d[k] / base[k] - 1));
        printf("; host per start %.0f us, stop %.0f us, get-data %.0f us\n", t_start / K_N,
               t_stop / K_N, t_get / K_N);
        char title[64];
        snprintf(title, sizeof(title), "  period %d, %d launches each", p, reps);
        print_samples(title);
        /* does stop wait for the kernel?  launch, stop at once, time the stop */
        pcs_start(ctx);
        launch(K_FMA);
        double t0 = now_us();
        pcs_stop(ctx);
        double stop_us = now_us() - t0;
        CUresult q = cuStreamQuery(NULL);
        printf("  stop right after an async launch took %.0f us; kernel %s when stop returned\n",
               stop_us, q == CUDA_SUCCESS ? "had finished" : "was still running");
        CK(cuCtxSynchronize());
        get_data(ctx);
    }
    free(list);
    pcs_disable(ctx);
}

/* start/stop cost: launch, start, launch, stop, get-data, repeated */
static void mode_startstop(CUcontext ctx)
{
    if (pcs_enable(ctx, getenv("PERIOD") ? atoi(getenv("PERIOD")) : -1) != 0)
        return;
    for (int r = 0; r < 6; r++) {
        launch(K_FMA);
        CK(cuCtxSynchronize());
        double a = pcs_start(ctx);
        launch(K_FMA);
        double b = pcs_stop(ctx);
        double c = get_data(ctx);
        printf("round %d: start %.0f us, stop %.0f us, get-data %.0f us\n", r, a, b, c);
    }
    /* a burst of short launches between one start and stop */
    rows_clear();
    double a = pcs_start(ctx), t = now_us();
    for (int r = 0; r < 200; r++)
        launch(K_STREAM);
    CK(cuCtxSynchronize());
    double run = now_us() - t, b = pcs_stop(ctx);
    get_data(ctx);
    printf("200 stream launches sampled: start %.0f us, run %.0f us, stop %.0f us\n", a, run, b);
    print_samples("burst");
    pcs_disable(ctx);
}

static void mode_late(CUcontext ctx)
{
    for (int k = 0; k < K_N; k++)
        launch(k);
    CK(cuCtxSynchronize());
    if (pcs_enable(ctx, -1) != 0)
        return;
    pcs_start(ctx);
    for (int k = 0; k < K_N; k++)
        launch(k);
    CK(cuCtxSynchronize());
    pcs_stop(ctx);
    get_data(ctx);
    print_samples("enabled after the kernels' first launches");
    pcs_disable(ctx);
}

static void mode_getdata(CUcontext ctx)
{
    if (pcs_enable(ctx, -1) != 0)
        return;
    pcs_start(ctx);
    for (int k = 0; k < K_N; k++)
        launch(k);
    CK(cuCtxSynchronize());
    double t = get_data(ctx);
    print_samples("get-data while started");
    printf("  get-data %.0f us\n", t);
    rows_clear();
    for (int k = 0; k < K_N; k++)
        launch(k);
    CK(cuCtxSynchronize());
    pcs_stop(ctx);
    get_data(ctx);
    print_samples("then stop and get-data");
    pcs_disable(ctx);
}

/* The range profiler around one launch of kernel k, sampling inside its
 * range when `sample`.  Prints the values. */
static CUpti_RangeProfiler_Object *rp_obj;
static uint8_t *rp_img;
static size_t rp_img_size;

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
        pu.pRangeName = k_name[k];
        CU(cuptiRangeProfilerPushRange(&pu));
        if (sample == 1)
            pcs_start(ctx);
        launch(k);
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
    printf("  %s %s sampling, %d passes%s:", k_name[k],
           sample == 2 ? "with outer" : sample ? "with inner" : "without", passes,
           rc ? " (evaluate failed)" : "");
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

static void mode_rp(CUcontext ctx)
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
    const char *names[] = {"gpu__time_duration.sum",
                           "smsp__inst_executed.sum",
                           "sm__cycles_elapsed.avg",
                           "smsp__warps_issue_stalled_long_scoreboard.sum",
                           "smsp__issue_active.sum",
                           "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"};
    gp_host_config *cfg = gp_host_config_create(cn.pChipName, avail, ca.counterAvailabilityImageSize,
                                                names, 6, err, sizeof(err));
    if (!cfg) {
        printf("config: %s\n", err);
        return;
    }
    if (pcs_enable(ctx, -1) != 0)
        return;
    CUpti_RangeProfiler_Enable_Params en = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = ctx;
    CU(cuptiRangeProfilerEnable(&en));
    rp_obj = en.pRangeProfilerObject;
    CUpti_RangeProfiler_GetCounterDataSize_Params gs = {
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    gs.pRangeProfilerObject = rp_obj;
    gs.pMetricNames = names;
    gs.numMetrics = 6;
    gs.maxNumOfRanges = 1;
    gs.maxNumRangeTreeNodes = 1;
    CU(cuptiRangeProfilerGetCounterDataSize(&gs));
    rp_img_size = gs.counterDataSize;
    rp_img = malloc(rp_img_size);
    for (int k = 0; k < K_N; k++) {
        rp_pass(ctx, cfg, k, 0);
        rows_clear();
        rp_pass(ctx, cfg, k, getenv("OUTER") ? 2 : 1);
        get_data(ctx);
        char title[64];
        snprintf(title, sizeof(title), "  samples of %s inside the pass", k_name[k]);
        print_samples(title);
    }
    if (ws) { /* the warp-state set itself, with sampling in its last pass */
        CUpti_RangeProfiler_GetCounterDataSize_Params g2 = {
            CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
        g2.pRangeProfilerObject = rp_obj;
        g2.pMetricNames = ws_names;
        g2.numMetrics = nws;
        g2.maxNumOfRanges = 1;
        g2.maxNumRangeTreeNodes = 1;
        CU(cuptiRangeProfilerGetCounterDataSize(&g2));
        free(rp_img);
        rp_img_size = g2.counterDataSize;
        rp_img = malloc(rp_img_size);
        double t = now_us();
        rp_pass(ctx, ws, K_CHASE, 0);
        printf("  warp-state set on stall_chase: %.1f ms\n", (now_us() - t) / 1e3);
    }
    CUpti_RangeProfiler_Disable_Params ds = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    ds.pRangeProfilerObject = rp_obj;
    CU(cuptiRangeProfilerDisable(&ds));
    pcs_disable(ctx);
}

/* the range profiler enabled and disabled between sampled launches: costs,
 * and which order CUPTI accepts */
static void mode_rpcycle(CUcontext ctx)
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
        rows_clear();
        double te = now_us();
        pcs_enable(ctx, -1);
        te = now_us() - te;
        double a = pcs_start(ctx);
        launch(K_FMA);
        double b = pcs_stop(ctx);
        get_data(ctx);
        double td = now_us();
        if (dis)
            pcs_disable(ctx);
        td = now_us() - td;
        printf("round %d: sampling enable %.0f us, disable %.0f us\n", r, te, td);
        double t = now_us();
        CUpti_RangeProfiler_Enable_Params en = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
        en.ctx = ctx;
        CU(cuptiRangeProfilerEnable(&en));
        double t_en = now_us() - t;
        rp_obj = en.pRangeProfilerObject;
        CUpti_RangeProfiler_GetCounterDataSize_Params gs = {
            CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
        gs.pRangeProfilerObject = rp_obj;
        gs.pMetricNames = names;
        gs.numMetrics = 2;
        gs.maxNumOfRanges = 1;
        gs.maxNumRangeTreeNodes = 1;
        CU(cuptiRangeProfilerGetCounterDataSize(&gs));
        rp_img_size = gs.counterDataSize;
        free(rp_img);
        rp_img = malloc(rp_img_size);
        t = now_us();
        rp_pass(ctx, cfg, K_FMA, 0);
        double t_pass = now_us() - t;
        t = now_us();
        CUpti_RangeProfiler_Disable_Params ds = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        ds.pRangeProfilerObject = rp_obj;
        CU(cuptiRangeProfilerDisable(&ds));
        double t_dis = now_us() - t;
        printf("round %d: %llu samples; sampling start %.0f us, stop %.0f us; range profiler "
               "enable %.0f us, pass %.0f us, disable %.0f us\n",
               r, (unsigned long long)tot_samples, a, b, t_en, t_pass, t_dis);
    }
    /* sampling started first, then the range profiler enabled */
    rows_clear();
    pcs_enable(ctx, -1);
    pcs_start(ctx);
    CUpti_RangeProfiler_Enable_Params en = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = ctx;
    CUptiResult er = cuptiRangeProfilerEnable(&en);
    printf("range profiler enable while sampling is started: %d\n", (int)er);
    launch(K_FMA);
    CK(cuCtxSynchronize());
    pcs_stop(ctx);
    get_data(ctx);
    printf("  samples meanwhile: %llu\n", (unsigned long long)tot_samples);
    if (er == CUPTI_SUCCESS) {
        rp_obj = en.pRangeProfilerObject;
        rp_pass(ctx, cfg, K_FMA, 0);
        CUpti_RangeProfiler_Disable_Params ds = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        ds.pRangeProfilerObject = rp_obj;
        CU(cuptiRangeProfilerDisable(&ds));
    }
    pcs_disable(ctx);
}

static void mode_sass(CUcontext ctx)
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
        launch(k);
        CUresult sr = cuCtxSynchronize();
        gp_sass_record *r;
        size_t n;
        int er = gp_sass_end(ctx, &r, &n, err, sizeof(err));
        printf("SASS pass of %s with sampling enabled (stopped): kernel %s, %zu records%s%s\n",
               k_name[k], sr == CUDA_SUCCESS ? "ok" : drv_error_text(sr), n, er ? ": " : "",
               er ? err : "");
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
    rows_clear();
    pcs_start(ctx);
    for (int k = 0; k < K_N; k++)
        launch(k);
    CK(cuCtxSynchronize());
    pcs_stop(ctx);
    get_data(ctx);
    print_samples("sampling after the SASS passes (unpatched launches)");
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
    launch(k);
    CUresult sr = cuCtxSynchronize();
    gp_sass_record *r;
    size_t n;
    int er = gp_sass_end(ctx, &r, &n, err, sizeof(err));
    uint64_t inst = 0;
    for (size_t i = 0; i < n; i++)
        inst += r[i].v[GP_SASS_INST];
    printf("  SASS pass of %s: kernel %s, %zu records, %llu instructions%s%s\n", k_name[k],
           sr == CUDA_SUCCESS ? "ok" : drv_error_text(sr), n, (unsigned long long)inst,
           er ? ": " : "", er ? err : "");
    gp_sass_records_free(r, n);
    return 0;
}

static void sampled(CUcontext ctx, int k)
{
    rows_clear();
    pcs_start(ctx);
    launch(k);
    CK(cuCtxSynchronize());
    pcs_stop(ctx);
    get_data(ctx);
    uint64_t mine = 0;
    for (size_t r = 0; r < n_rows; r++)
        for (size_t j = 0; j < n_reasons; j++)
            mine += rows[r].by_reason[j];
    printf("  sampled %s: %llu samples, %llu non-user, %zu PCs, %llu in PC records\n", k_name[k],
           (unsigned long long)tot_samples, (unsigned long long)tot_nonuser, n_rows,
           (unsigned long long)mine);
    print_samples("   ");
    size_t order[8] = {0};
    for (int t = 0; t < 5; t++) { /* the five hottest PCs */
        size_t best = (size_t)-1;
        uint64_t bv = 0;
        for (size_t r = 0; r < n_rows; r++) {
            uint64_t v = 0;
            for (size_t j = 0; j < n_reasons; j++)
                if (!strstr(reason_name[j], "not_issued"))
                    v += rows[r].by_reason[j];
            int used = 0;
            for (int u = 0; u < t; u++)
                used |= order[u] == r;
            if (!used && v > bv)
                bv = v, best = r;
        }
        order[t] = best;
        if (best != (size_t)-1)
            printf("   hot %s +%#llx %llu\n", rows[best].fn, (unsigned long long)rows[best].pc,
                   (unsigned long long)bv);
    }
}

static void mode_combo(CUcontext ctx)
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

static void mode_correlate(CUcontext ctx, const void *image, size_t size)
{
    if (pcs_enable(ctx, -1) != 0)
        return;
    pcs_start(ctx);
    for (int k = 0; k < K_N; k++)
        launch(k);
    CK(cuCtxSynchronize());
    pcs_stop(ctx);
    get_data(ctx);
    CUpti_GetCubinCrcParams cc = {CUpti_GetCubinCrcParamsSize};
    cc.cubin = image;
    cc.cubinSize = size;
    CU(cuptiGetCubinCrc(&cc));
    printf("cubin CRC %#llx; samples' CRC %#llx\n", (unsigned long long)cc.cubinCrc,
           n_rows ? (unsigned long long)rows[0].crc : 0ull);
    for (size_t r = 0; r < n_rows; r++) {
        CUpti_GetSassToSourceCorrelationParams p = {CUpti_GetSassToSourceCorrelationParamsSize};
        p.cubin = image;
        p.cubinSize = size;
        p.functionName = rows[r].fn;
        p.pcOffset = rows[r].pc;
        CUptiResult cr = cuptiGetSassToSourceCorrelation(&p);
        uint64_t all = 0;
        size_t best = 0;
        for (size_t j = 0; j < n_reasons; j++) {
            all += rows[r].by_reason[j];
            if (rows[r].by_reason[j] > rows[r].by_reason[best])
                best = j;
        }
        printf("  %s +%#llx %s:%u (%d) %llu samples, most %s\n", rows[r].fn,
               (unsigned long long)rows[r].pc, p.fileName ? p.fileName : "?", p.lineNumber,
               (int)cr, (unsigned long long)all, reason_name[best]);
        free(p.fileName);
        free(p.dirName);
    }
    pcs_disable(ctx);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: pcs_probe CUBIN work|reasons|overhead|late|getdata|rp|sass|"
                        "correlate\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    CUcontext ctx;
    void *image;
    size_t size;
    setup(&ctx, argv[1], &image, &size);
    const char *m = argv[2];
    if (strcmp(m, "reasons") == 0) {
        mode_reasons(ctx);
        return 0;
    }
    if (strcmp(m, "sass") == 0 || strcmp(m, "correlate") == 0 || strcmp(m, "getdata") == 0) {
        /* enabled before the module loads, as a tool that starts with the context would */
        if (pcs_enable(ctx, -1) != 0)
            return 1;
        load(image);
        if (strcmp(m, "sass") == 0)
            mode_sass(ctx);
        else if (strcmp(m, "correlate") == 0)
            mode_correlate(ctx, image, size);
        else
            mode_getdata(ctx);
        return 0;
    }
    load(image);
    int reps = getenv("REPS") ? atoi(getenv("REPS")) : 0;
    if (strcmp(m, "work") == 0) {
        reps = reps > 0 ? reps : 1;
        for (int r = 0; r < reps; r++)
            for (int k = 0; k < K_N; k++)
                launch(k);
        CK(cuCtxSynchronize());
        printf("ran %d kernels %d times each\n", K_N, reps);
    } else if (strcmp(m, "timed") == 0) {
        reps = reps > 0 && reps <= 64 ? reps : 21;
        for (int k = 0; k < K_N; k++) {
            launch(k); /* warm-up */
            printf("%s %.2f us median of %d\n", k_name[k], timed(k, reps), reps);
        }
    } else if (strcmp(m, "overhead") == 0) {
        mode_overhead(ctx);
    } else if (strcmp(m, "late") == 0) {
        mode_late(ctx);
    } else if (strcmp(m, "combo") == 0) {
        mode_combo(ctx);
    } else if (strcmp(m, "rpcycle") == 0) {
        mode_rpcycle(ctx);
    } else if (strcmp(m, "startstop") == 0) {
        mode_startstop(ctx);
    } else if (strcmp(m, "rp") == 0) {
        mode_rp(ctx);
    } else {
        fprintf(stderr, "pcs_probe: unknown mode '%s'\n", m);
        return 2;
    }
    return 0;
}
