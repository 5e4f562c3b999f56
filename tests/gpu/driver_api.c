/* driver_api.c - a program that uses only the CUDA driver API: loads a cubin
 * with cuModuleLoadData and launches with cuLaunchKernel, cuLaunchKernelEx
 * (with a cluster attribute) and cuLaunchCooperativeKernel.  Prints a
 * checksum that must not change under the profiler. */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/gpu/drv_util.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s drv_kernels.cubin\n", argv[0]);
        return 2;
    }
    size_t size;
    void *image = drv_read_file(argv[1], &size);
    if (!image) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction inc, count;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CK(cuModuleLoadData(&mod, image));
    CK(cuModuleGetFunction(&inc, mod, "drv_inc"));
    CK(cuModuleGetFunction(&count, mod, "drv_count"));
    int n = 1 << 16;
    CUdeviceptr d;
    unsigned *h = malloc(n * sizeof(unsigned));
    for (int i = 0; i < n; i++)
        h[i] = (unsigned)i;
    CK(cuMemAlloc(&d, n * sizeof(unsigned)));
    CK(cuMemcpyHtoD(d, h, n * sizeof(unsigned)));
    void *args[] = {&d, &n};
    unsigned grid = (unsigned)(n + 255) / 256;
    CK(cuLaunchKernel(inc, grid, 1, 1, 256, 1, 1, 0, NULL, args, NULL));

    CUlaunchAttribute attr;
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = 2;
    attr.value.clusterDim.y = 1;
    attr.value.clusterDim.z = 1;
    CUlaunchConfig cfg = {0};
    cfg.gridDimX = grid;
    cfg.gridDimY = cfg.gridDimZ = 1;
    cfg.blockDimX = 256;
    cfg.blockDimY = cfg.blockDimZ = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CK(cuLaunchKernelEx(&cfg, inc, args, NULL));

    void *cargs[] = {&n};
    CK(cuLaunchCooperativeKernel(count, grid, 1, 1, 256, 1, 1, 0, NULL, cargs));
    CK(cuLaunchKernel(count, grid, 1, 1, 256, 1, 1, 0, NULL, cargs, NULL));
    CK(cuCtxSynchronize());

    CUdeviceptr gaddr;
    size_t gsize;
    unsigned counter = 0;
    CK(cuModuleGetGlobal(&gaddr, &gsize, mod, "drv_counter"));
    CK(cuMemcpyDtoH(&counter, gaddr, sizeof(counter)));
    CK(cuMemcpyDtoH(h, d, n * sizeof(unsigned)));
    uint64_t s = 1469598103934665603ull;
    for (int i = 0; i < n; i++)
        s = (s ^ h[i]) * 1099511628211ull;
    s = (s ^ counter) * 1099511628211ull;
    printf("checksum driver_api %016llx (counter %u)\n", (unsigned long long)s, counter);
    cuMemFree(d);
    cuModuleUnload(mod);
    cuDevicePrimaryCtxRelease(dev);
    free(h);
    free(image);
    return 0;
}
