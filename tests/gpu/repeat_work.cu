// repeat_work.cu - two kernels launched many times, for replay mode none
// (tests/gpu/replay_none.sh): fixed_work does the same work at every launch
// (one variant whose launches are identical), drift_work a loop whose trip
// count shrinks with the launch index (one variant whose work drifts, as in a
// solver whose active set shrinks).  Each kernel's result feeds the next
// launch, so a launch that ran twice or not at all changes the checksum.
//
//   repeat_work [LAUNCHES]    (default 300 of each)
// Prints the checksum on stdout.
#include <stdio.h>
#include <stdlib.h>

#include "rt_check.h"

enum { N = 1 << 20, THREADS = 256 };

__global__ void fixed_work(float *x, const float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        for (int k = 0; k < 16; k++)
            v = v * 0.999f + y[i] * 0.001f;
        x[i] = v;
    }
}

__global__ void drift_work(float *x, int n, int trips)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        for (int k = 0; k < trips; k++)
            v = v * 0.9999f + 0.0001f * (float)(k & 7);
        x[i] = v;
    }
}

int main(int argc, char **argv)
{
    int launches = argc > 1 ? atoi(argv[1]) : 300;
    if (launches < 1)
        launches = 1;
    float *x, *y, *z;
    CHECK(cudaMalloc(&x, N * sizeof(float)));
    CHECK(cudaMalloc(&y, N * sizeof(float)));
    CHECK(cudaMalloc(&z, N * sizeof(float)));
    float *h = (float *)malloc(N * sizeof(float));
    for (int i = 0; i < N; i++)
        h[i] = (float)(i % 97) / 97.0f;
    CHECK(cudaMemcpy(x, h, N * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, h, N * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(z, h, N * sizeof(float), cudaMemcpyHostToDevice));
    int blocks = (N + THREADS - 1) / THREADS;
    for (int l = 0; l < launches; l++) {
        fixed_work<<<blocks, THREADS>>>(x, y, N);
        CHECK(cudaGetLastError());
        // from 64 trips down to 16 over the run
        int trips = 64 - (48 * l) / launches;
        drift_work<<<blocks, THREADS>>>(z, N, trips);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, x, N * sizeof(float), cudaMemcpyDeviceToHost));
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += h[i];
    CHECK(cudaMemcpy(h, z, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        sum += 3 * h[i];
    printf("repeat_work: %d launches of each kernel, checksum %.6f\n", launches, sum);
    free(h);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(z));
    return 0;
}
