// patterns.cu - runs each access-pattern kernel of patterns.cuh once (or
// `repeat` times) and prints a checksum of the outputs that are
// deterministic.  The cross-check profiles it with gpuprof and with ncu.
//   patterns [repeat] [only-this-kernel]
#include "patterns.cuh"
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../rt_check.h"

static const char *only;
static int want(const char *name) { return !only || strcmp(only, name) == 0; }
#define RUN(name, ...)                                                                             \
    if (want(#name)) {                                                                             \
        name<<<XC_BLOCKS, XC_THREADS>>>(__VA_ARGS__);                                              \
        CHECK(cudaGetLastError());                                                                 \
    }

int main(int argc, char **argv)
{
    int repeat = argc > 1 ? atoi(argv[1]) : 1;
    only = argc > 2 ? argv[2] : NULL;
    const size_t big = (size_t)XC_N * 32 * sizeof(float) + 64; /* stride-32 reads */
    float *in, *out;
    int *idx, *ibuf;
    CHECK(cudaMalloc(&in, big));
    CHECK(cudaMalloc(&out, big));
    CHECK(cudaMalloc(&idx, XC_N * sizeof(int)));
    CHECK(cudaMalloc(&ibuf, XC_N * sizeof(int)));
    {
        size_t n = big / sizeof(float);
        float *h = (float *)malloc(big);
        int *hi = (int *)malloc(XC_N * sizeof(int));
        unsigned s = 12345;
        for (size_t i = 0; i < n; i++)
            h[i] = (float)(i % 1000) * 0.25f;
        for (int i = 0; i < XC_N; i++) {
            s = s * 1103515245u + 12345u;
            hi[i] = (int)((s >> 8) % (1u << 20)); /* 4 MB of floats */
        }
        CHECK(cudaMemcpy(in, h, big, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(idx, hi, XC_N * sizeof(int), cudaMemcpyHostToDevice));
        CHECK(cudaMemset(ibuf, 0, XC_N * sizeof(int)));
        free(h);
        free(hi);
    }
    CHECK(cudaMemset(out, 0, big));
    double sum = 0;
    float *h = (float *)malloc(big);
    for (int r = 0; r < repeat; r++) {
        XC_PATTERNS(RUN)
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(h, out, XC_N * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < XC_N; i++)
            sum += h[i];
    }
    CHECK(cudaMemcpy(h, ibuf, XC_N * sizeof(int), cudaMemcpyDeviceToHost));
    long isum = 0;
    for (int i = 0; i < XC_N; i++)
        isum += ((int *)h)[i];
    printf("patterns checksum %.6e %ld\n", sum, isum);
    free(h);
    return 0;
}
