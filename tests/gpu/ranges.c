/* ranges.c - capture ranges on the GPU: a C program (driver API) that
 * launches one kernel per place in the program, around NVTX push/pop ranges
 * (default domain and a domain of its own), an NVTX start/end range,
 * cuProfilerStart/Stop, and a launch from a second thread while the main
 * thread is inside a range.  tests/gpu/run-gpu-tests.sh runs it under
 * build/gpuprof with --nvtx-include/--nvtx-exclude/--profile-from-start and
 * checks which kernels have records.  Prints a checksum that must not change
 * under the profiler.
 *
 *   ranges range_kernels.cubin
 *
 * Places, in order: rk_outside (no range), rk_warmup (push "warmup"),
 * rk_step (push "train", push "step"), rk_other_thread (another thread,
 * while main is inside "train"/"step"), rk_fwd (domain "model", push
 * "fwd"), rk_phase (start/end "phase2"), rk_profiled (between
 * cuProfilerStart and cuProfilerStop), rk_after_stop (after cuProfilerStop). */
#include <cuda.h>
#include <cudaProfiler.h>
#include <nvtx3/nvToolsExt.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/gpu/drv_util.h"

static CUmodule mod;
static CUcontext ctx;
static CUdeviceptr buf;
static int n = 1 << 16;

static void launch(const char *name)
{
    CUfunction f;
    void *args[] = {&buf, &n};
    CK(cuModuleGetFunction(&f, mod, name));
    CK(cuLaunchKernel(f, (unsigned)(n + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
    CK(cuCtxSynchronize());
}

static void *other_thread(void *arg)
{
    (void)arg;
    CK(cuCtxSetCurrent(ctx));
    launch("rk_other_thread");
    return NULL;
}

int main(int argc, char **argv)
{
    CUdevice dev;
    size_t size;
    void *image;
    unsigned *h, sum = 0;
    pthread_t th;
    nvtxDomainHandle_t model;
    nvtxEventAttributes_t a = {0};
    nvtxRangeId_t phase;
    int i;
    if (argc < 2 || !(image = drv_read_file(argv[1], &size))) {
        fprintf(stderr, "usage: %s range_kernels.cubin\n", argv[0]);
        return 2;
    }
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CK(cuModuleLoadData(&mod, image));
    h = malloc((size_t)n * sizeof *h);
    for (i = 0; i < n; i++)
        h[i] = (unsigned)i;
    CK(cuMemAlloc(&buf, (size_t)n * sizeof *h));
    CK(cuMemcpyHtoD(buf, h, (size_t)n * sizeof *h));

    launch("rk_outside");
    nvtxRangePushA("warmup");
    launch("rk_warmup");
    nvtxRangePop();
    nvtxRangePushA("train");
    nvtxRangePushA("step");
    launch("rk_step");
    pthread_create(&th, NULL, other_thread, NULL); /* its stack has no range */
    pthread_join(th, NULL);
    nvtxRangePop();
    nvtxRangePop();
    model = nvtxDomainCreateA("model");
    a.version = NVTX_VERSION;
    a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    a.messageType = NVTX_MESSAGE_TYPE_ASCII;
    a.message.ascii = "fwd";
    nvtxDomainRangePushEx(model, &a);
    launch("rk_fwd");
    nvtxDomainRangePop(model);
    phase = nvtxRangeStartA("phase2");
    launch("rk_phase");
    nvtxRangeEnd(phase);
    (void)cuProfilerStart(); /* a no-op without a profiler; its status is not ours to check */
    launch("rk_profiled");
    (void)cuProfilerStop();
    launch("rk_after_stop");

    CK(cuMemcpyDtoH(h, buf, (size_t)n * sizeof *h));
    for (i = 0; i < n; i++)
        sum = sum * 31u + h[i];
    printf("ranges checksum %08x\n", sum);
    nvtxDomainDestroy(model);
    CK(cuMemFree(buf));
    CK(cuDevicePrimaryCtxRelease(dev));
    free(h);
    free(image);
    return 0;
}
