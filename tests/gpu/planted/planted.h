// planted.h - shared helpers of the planted-problem programs: checked CUDA
// calls, buffers, and the checksum line each program prints.
#ifndef GP_PLANTED_H
#define GP_PLANTED_H
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "../gp_check.h"

#define GP_CUDA(call)                                                                              \
    GP_CHECK_CALL(cudaError_t, cudaSuccess, cudaGetErrorString, call, #call, __FILE__, 1)

static inline float *gp_planted_buffer(size_t n, float value)
{
    float *h = (float *)malloc(n * sizeof(float)), *d;
    for (size_t i = 0; i < n; i++)
        h[i] = value + (float)(i % 7) * 0.125f;
    GP_CUDA(cudaMalloc(&d, n * sizeof(float)));
    GP_CUDA(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    free(h);
    return d;
}

static inline void gp_planted_checksum(const char *name, const float *d, size_t n)
{
    float *h = (float *)malloc(n * sizeof(float));
    double s = 0;
    GP_CUDA(cudaDeviceSynchronize());
    GP_CUDA(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++)
        s += h[i];
    printf("checksum %s %.6e\n", name, s);
    free(h);
}
#endif
