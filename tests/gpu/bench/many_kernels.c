/* many_kernels.c - a program with many distinct kernels and many launches,
 * for the library's load benchmark: N kernels (one PTX module, compiled by
 * the driver at start), L launches round-robin over them on one stream.
 *
 *   many_kernels [N] [L]        (defaults 10000 and 1000000)
 *
 * Prints a checksum on stdout; on stderr the time of the launches and the
 * process's peak resident memory (VmHWM), so the same numbers come with and
 * without a profiler.  A benchmark: it decides nothing. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/gpu/drv_util.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static long peak_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof(line), f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kb = atol(line + 6);
    if (f)
        fclose(f);
    return kb;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10000;
    long launches = argc > 2 ? atol(argv[2]) : 1000000;
    if (n < 1 || n > 100000 || launches < 1) {
        fprintf(stderr, "usage: many_kernels [N (1..100000)] [LAUNCHES]\n");
        return 2;
    }
    /* each kernel adds its own number to out[tid]: the sum says every launch ran */
    size_t cap = (size_t)n * 400 + 100;
    char *ptx = malloc(cap), *p = ptx;
    p += sprintf(p, ".version 8.0\n.target sm_90\n.address_size 64\n");
    for (int i = 0; i < n; i++)
        p += sprintf(p,
                     ".visible .entry many_k%05d(.param .u64 out)\n{\n .reg .b64 %%rd<4>;\n"
                     " .reg .b32 %%r<4>;\n ld.param.u64 %%rd1, [out];\n"
                     " cvta.to.global.u64 %%rd2, %%rd1;\n mov.u32 %%r1, %%tid.x;\n"
                     " mul.wide.u32 %%rd3, %%r1, 4;\n add.u64 %%rd2, %%rd2, %%rd3;\n"
                     " atom.global.add.u32 %%r2, [%%rd2], %d;\n ret;\n}\n",
                     i, i % 7 + 1);
    CUdevice dev;
    CUcontext ctx;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    double t0 = now_s();
    CUmodule mod;
    CK(cuModuleLoadData(&mod, ptx));
    CUfunction *f = malloc((size_t)n * sizeof(*f));
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof(name), "many_k%05d", i);
        CK(cuModuleGetFunction(&f[i], mod, name));
    }
    double t1 = now_s();
    CUdeviceptr out;
    CK(cuMemAlloc(&out, 32 * sizeof(unsigned)));
    CK(cuMemsetD32(out, 0, 32));
    void *args[] = {&out};
    for (long l = 0; l < launches; l++) {
        CK(cuLaunchKernel(f[l % n], 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
        if (l % 65536 == 65535)
            CK(cuCtxSynchronize());
    }
    CK(cuCtxSynchronize());
    double t2 = now_s();
    unsigned h[32];
    CK(cuMemcpyDtoH(h, out, sizeof(h)));
    unsigned long long sum = 0;
    for (int i = 0; i < 32; i++)
        sum += h[i];
    printf("many_kernels %d kernels, %ld launches: checksum %llu\n", n, launches, sum);
    fprintf(stderr, "many_kernels: module %.1f s, launches %.2f s (%.2f us each), peak RSS %ld MB\n",
            t1 - t0, t2 - t1, (t2 - t1) * 1e6 / launches, peak_kb() / 1024);
    free(f);
    free(ptx);
    return 0;
}
