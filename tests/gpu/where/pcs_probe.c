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
 *             cubin's CRC against the samples'
 *
 * This file: the kernels, the driver set-up, PC sampling and the modes of
 * sampling alone.  pcs_probe_rp.c: the modes beside the range profiler and
 * the SASS Metrics API, and correlate.  pcs_probe.h: what the two share. */
#include <cuda.h>
#include <cupti.h>
#include <cupti_pcsampling.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/gpu/drv_util.h"
#include "tests/gpu/where/pcs_probe.h"

double pcs_now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* ---- kernels ------------------------------------------------------------- */

const char *pcs_kernel_name[K_N] = {"stall_chase", "stall_fma", "stall_barrier", "stall_stream",
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
        CK(cuModuleGetFunction(&k_fn[k], mod, pcs_kernel_name[k]));
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

void pcs_launch_all(void)
{
    for (int k = 0; k < K_N; k++)
        pcs_launch(k);
    CK(cuCtxSynchronize());
}

void pcs_sample_all(CUcontext ctx)
{
    pcs_start(ctx);
    pcs_launch_all();
    pcs_stop(ctx);
    pcs_get_data(ctx);
}

void pcs_launch(int k)
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
        pcs_launch(k);
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

size_t pcs_n_reasons;
static uint32_t *reason_index;
char **pcs_reason_name;
static CUpti_PCSamplingData cfg_buf, get_buf;

pc_row pcs_rows[MAX_PCS];
size_t pcs_n_rows;
uint64_t pcs_tot_samples, pcs_tot_nonuser;
static uint64_t tot_dropped, tot_pcs, buffer_full;

static void data_alloc(CUpti_PCSamplingData *d)
{
    memset(d, 0, sizeof(*d));
    d->size = sizeof(*d);
    d->collectNumPcs = MAX_PCS;
    d->pPcData = calloc(MAX_PCS, sizeof(CUpti_PCSamplingPCData));
    for (size_t i = 0; i < MAX_PCS; i++) {
        d->pPcData[i].size = sizeof(CUpti_PCSamplingPCData);
        d->pPcData[i].stallReason =
            calloc(pcs_n_reasons ? pcs_n_reasons : 64, sizeof(CUpti_PCSamplingStallReason));
    }
}

static size_t reason_slot(uint32_t idx)
{
    for (size_t i = 0; i < pcs_n_reasons; i++)
        if (reason_index[i] == idx)
            return i;
    return 0;
}

void pcs_rows_clear(void)
{
    for (size_t i = 0; i < pcs_n_rows; i++)
        free(pcs_rows[i].by_reason);
    pcs_n_rows = 0;
    pcs_tot_samples = tot_dropped = pcs_tot_nonuser = tot_pcs = buffer_full = 0;
}

static void take(const CUpti_PCSamplingData *d)
{
    pcs_tot_samples += d->totalSamples;
    tot_dropped += d->droppedSamples;
    pcs_tot_nonuser += d->nonUsrKernelsTotalSamples;
    tot_pcs += d->totalNumPcs;
    buffer_full += d->hardwareBufferFull;
    for (size_t i = 0; i < d->totalNumPcs; i++) {
        const CUpti_PCSamplingPCData *p = &d->pPcData[i];
        const char *fn = p->functionName ? p->functionName : "(null)";
        size_t r;
        for (r = 0; r < pcs_n_rows; r++)
            if (pcs_rows[r].pc == p->pcOffset && strcmp(pcs_rows[r].fn, fn) == 0)
                break;
        if (r == pcs_n_rows) {
            if (pcs_n_rows == MAX_PCS)
                continue;
            snprintf(pcs_rows[r].fn, sizeof(pcs_rows[r].fn), "%s", fn);
            pcs_rows[r].pc = p->pcOffset;
            pcs_rows[r].crc = p->cubinCrc;
            pcs_rows[r].by_reason = calloc(pcs_n_reasons, sizeof(uint64_t));
            pcs_n_rows++;
        }
        for (size_t j = 0; j < p->stallReasonCount; j++)
            pcs_rows[r].by_reason[reason_slot(p->stallReason[j].pcSamplingStallReasonIndex)] +=
                p->stallReason[j].samples;
    }
}

/* Drains CUPTI's data; returns the host time in microseconds. */
double pcs_get_data(CUcontext ctx)
{
    double t = pcs_now_us();
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
    return pcs_now_us() - t;
}

static int pcs_enabled;
int pcs_enable(CUcontext ctx, int period)
{
    if (pcs_enabled++)
        return 0;
    CUpti_PCSamplingEnableParams en = {CUpti_PCSamplingEnableParamsSize};
    en.ctx = ctx;
    double t = pcs_now_us();
    CUptiResult r = cuptiPCSamplingEnable(&en);
    printf("enable: %.0f us\n", pcs_now_us() - t);
    if (r != CUPTI_SUCCESS) {
        CU(r);
        return -1;
    }
    CUpti_PCSamplingGetNumStallReasonsParams nr = {CUpti_PCSamplingGetNumStallReasonsParamsSize};
    nr.ctx = ctx;
    nr.numStallReasons = &pcs_n_reasons;
    CU(cuptiPCSamplingGetNumStallReasons(&nr));
    reason_index = calloc(pcs_n_reasons, sizeof(uint32_t));
    pcs_reason_name = calloc(pcs_n_reasons, sizeof(char *));
    for (size_t i = 0; i < pcs_n_reasons; i++)
        pcs_reason_name[i] = calloc(CUPTI_STALL_REASON_STRING_SIZE, 1);
    CUpti_PCSamplingGetStallReasonsParams gr = {CUpti_PCSamplingGetStallReasonsParamsSize};
    gr.ctx = ctx;
    gr.numStallReasons = pcs_n_reasons;
    gr.stallReasonIndex = reason_index;
    gr.stallReasons = pcs_reason_name;
    CU(cuptiPCSamplingGetStallReasons(&gr));

    /* the defaults first */
    CUpti_PCSamplingConfigurationInfo q[5] = {{0}};
    q[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
    q[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE;
    q[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE;
    q[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
    q[4].attributeType =
        CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_WORKER_THREAD_PERIODIC_SLEEP_SPAN;
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
        c[nc].attributeType =
            CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_WORKER_THREAD_PERIODIC_SLEEP_SPAN;
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
    t = pcs_now_us();
    CU(cuptiPCSamplingSetConfigurationAttribute(&cp));
    printf("configure (period %d): %.0f us\n", period, pcs_now_us() - t);
    for (size_t i = 0; i < nc; i++)
        if (c[i].attributeStatus != CUPTI_SUCCESS)
            printf("  attribute %d refused: %d\n", (int)c[i].attributeType,
                   (int)c[i].attributeStatus);
    return 0;
}

double pcs_start(CUcontext ctx)
{
    CUpti_PCSamplingStartParams s = {CUpti_PCSamplingStartParamsSize};
    s.ctx = ctx;
    double t = pcs_now_us();
    CU(cuptiPCSamplingStart(&s));
    return pcs_now_us() - t;
}

double pcs_stop(CUcontext ctx)
{
    CUpti_PCSamplingStopParams s = {CUpti_PCSamplingStopParamsSize};
    s.ctx = ctx;
    double t = pcs_now_us();
    CU(cuptiPCSamplingStop(&s));
    return pcs_now_us() - t;
}

void pcs_disable(CUcontext ctx)
{
    CUpti_PCSamplingDisableParams d = {CUpti_PCSamplingDisableParamsSize};
    d.ctx = ctx;
    CU(cuptiPCSamplingDisable(&d));
    take(&cfg_buf);
    pcs_enabled = 0;
    for (size_t i = 0; i < pcs_n_reasons; i++)
        free(pcs_reason_name[i]);
    free(pcs_reason_name);
    free(reason_index);
}

/* Samples per kernel and reason (the top five reasons of each kernel). */
void pcs_print_samples(const char *title)
{
    printf("%s: %llu samples, %llu dropped, %llu non-user, %llu PCs, hardware buffer full %llu\n",
           title, (unsigned long long)pcs_tot_samples, (unsigned long long)tot_dropped,
           (unsigned long long)pcs_tot_nonuser, (unsigned long long)tot_pcs,
           (unsigned long long)buffer_full);
    for (int k = 0; k < K_N; k++) {
        uint64_t *sum = calloc(pcs_n_reasons, sizeof(uint64_t)), all = 0, npc = 0;
        for (size_t r = 0; r < pcs_n_rows; r++)
            if (strcmp(pcs_rows[r].fn, pcs_kernel_name[k]) == 0) {
                npc++;
                for (size_t j = 0; j < pcs_n_reasons; j++)
                    sum[j] += pcs_rows[r].by_reason[j], all += pcs_rows[r].by_reason[j];
            }
        printf("  %-14s %8llu samples at %3llu PCs:", pcs_kernel_name[k], (unsigned long long)all,
               (unsigned long long)npc);
        for (int top = 0; top < 6 && all; top++) {
            size_t best = 0;
            for (size_t j = 1; j < pcs_n_reasons; j++)
                if (sum[j] > sum[best])
                    best = j;
            if (!sum[best])
                break;
            printf(" %s %.1f%%",
                   pcs_reason_name[best] +
                       (strncmp(pcs_reason_name[best], "smsp__pcsamp_", 13) ? 0 : 13),
                   100.0 * sum[best] / all);
            sum[best] = 0;
        }
        printf("\n");
        free(sum);
    }
    for (size_t r = 0; r < pcs_n_rows; r++) {
        int known = 0;
        for (int k = 0; k < K_N; k++)
            known |= strcmp(pcs_rows[r].fn, pcs_kernel_name[k]) == 0;
        if (!known) {
            printf("  other function: %s (pc %#llx)\n", pcs_rows[r].fn,
                   (unsigned long long)pcs_rows[r].pc);
            break;
        }
    }
}

/* ---- modes --------------------------------------------------------------- */

static void mode_reasons(CUcontext ctx)
{
    if (pcs_enable(ctx, -1) != 0)
        return;
    printf("%zu stall reasons:\n", pcs_n_reasons);
    for (size_t i = 0; i < pcs_n_reasons; i++)
        printf("  %u %s\n", reason_index[i], pcs_reason_name[i]);
    pcs_disable(ctx);
}

static void mode_overhead(CUcontext ctx)
{
    const char *periods = getenv("PERIODS") ? getenv("PERIODS") : "-1 5 7 9 11 13 15";
    int reps = 9;
    double base[K_N];
    for (int k = 0; k < K_N; k++) {
        pcs_launch(k);
        base[k] = timed(k, reps);
    }
    printf("no sampling:      ");
    for (int k = 0; k < K_N; k++)
        printf(" %s %.1f us", pcs_kernel_name[k], base[k]);
    printf("\n");
    if (pcs_enable(ctx, -1) != 0)
        return;
    printf("enabled, stopped: ");
    for (int k = 0; k < K_N; k++)
        printf(" %s %+.2f%%", pcs_kernel_name[k], 100.0 * (timed(k, reps) / base[k] - 1));
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
        pcs_rows_clear();
        double t_start = 0, t_stop = 0, t_get = 0, d[K_N];
        for (int k = 0; k < K_N; k++) {
            t_start += pcs_start(ctx);
            d[k] = timed(k, reps);
            t_stop += pcs_stop(ctx);
            t_get += pcs_get_data(ctx);
        }
        printf("period %3d:", p);
        for (int k = 0; k < K_N; k++)
            printf(" %s %+.2f%%", pcs_kernel_name[k], 100.0 * (d[k] / base[k] - 1));
        printf("; host per start %.0f us, stop %.0f us, get-data %.0f us\n", t_start / K_N,
               t_stop / K_N, t_get / K_N);
        char title[64];
        snprintf(title, sizeof(title), "  period %d, %d launches each", p, reps);
        pcs_print_samples(title);
        /* does stop wait for the kernel?  launch, stop at once, time the stop */
        pcs_start(ctx);
        pcs_launch(K_FMA);
        double t0 = pcs_now_us();
        pcs_stop(ctx);
        double stop_us = pcs_now_us() - t0;
        CUresult q = cuStreamQuery(NULL);
        printf("  stop right after an async launch took %.0f us; kernel %s when stop returned\n",
               stop_us, q == CUDA_SUCCESS ? "had finished" : "was still running");
        CK(cuCtxSynchronize());
        pcs_get_data(ctx);
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
        pcs_launch(K_FMA);
        CK(cuCtxSynchronize());
        double a = pcs_start(ctx);
        pcs_launch(K_FMA);
        double b = pcs_stop(ctx);
        double c = pcs_get_data(ctx);
        printf("round %d: start %.0f us, stop %.0f us, get-data %.0f us\n", r, a, b, c);
    }
    /* a burst of short launches between one start and stop */
    pcs_rows_clear();
    double a = pcs_start(ctx), t = pcs_now_us();
    for (int r = 0; r < 200; r++)
        pcs_launch(K_STREAM);
    CK(cuCtxSynchronize());
    double run = pcs_now_us() - t, b = pcs_stop(ctx);
    pcs_get_data(ctx);
    printf("200 stream launches sampled: start %.0f us, run %.0f us, stop %.0f us\n", a, run, b);
    pcs_print_samples("burst");
    pcs_disable(ctx);
}

static void mode_late(CUcontext ctx)
{
    pcs_launch_all();
    if (pcs_enable(ctx, -1) != 0)
        return;
    pcs_sample_all(ctx);
    pcs_print_samples("enabled after the kernels' first launches");
    pcs_disable(ctx);
}

static void mode_getdata(CUcontext ctx)
{
    if (pcs_enable(ctx, -1) != 0)
        return;
    pcs_start(ctx);
    pcs_launch_all();
    double t = pcs_get_data(ctx);
    pcs_print_samples("get-data while started");
    printf("  get-data %.0f us\n", t);
    pcs_rows_clear();
    pcs_launch_all();
    pcs_stop(ctx);
    pcs_get_data(ctx);
    pcs_print_samples("then stop and get-data");
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
            pcs_mode_sass(ctx);
        else if (strcmp(m, "correlate") == 0)
            pcs_mode_correlate(ctx, image, size);
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
                pcs_launch(k);
        CK(cuCtxSynchronize());
        printf("ran %d kernels %d times each\n", K_N, reps);
    } else if (strcmp(m, "timed") == 0) {
        reps = reps > 0 && reps <= 64 ? reps : 21;
        for (int k = 0; k < K_N; k++) {
            pcs_launch(k); /* warm-up */
            printf("%s %.2f us median of %d\n", pcs_kernel_name[k], timed(k, reps), reps);
        }
    } else if (strcmp(m, "overhead") == 0) {
        mode_overhead(ctx);
    } else if (strcmp(m, "late") == 0) {
        mode_late(ctx);
    } else if (strcmp(m, "combo") == 0) {
        pcs_mode_combo(ctx);
    } else if (strcmp(m, "rpcycle") == 0) {
        pcs_mode_rpcycle(ctx);
    } else if (strcmp(m, "startstop") == 0) {
        mode_startstop(ctx);
    } else if (strcmp(m, "rp") == 0) {
        pcs_mode_rp(ctx);
    } else {
        fprintf(stderr, "pcs_probe: unknown mode '%s'\n", m);
        return 2;
    }
    return 0;
}
