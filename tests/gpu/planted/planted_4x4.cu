// planted_4x4 - one planted problem: 4x4 thread blocks (16 threads, half a
// warp).  An SM holds at most 32 blocks: 512 of 2048 threads.  Access is
// contiguous per block, so nothing else is wrong.
#include "planted.h"

extern "C" __global__ void planted_4x4(const float *x, float *y, float a, int n)
{
    int i = (blockIdx.y * gridDim.x + blockIdx.x) * 16 + threadIdx.y * 4 + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    const int n = 1 << 24;
    float *x = gp_planted_buffer(n, 1.0f), *y = gp_planted_buffer(n, 2.0f);
    for (int rep = 0; rep < 2; rep++)
        planted_4x4<<<dim3(1024, n / 16 / 1024), dim3(4, 4)>>>(x, y, 0.5f, n);
    GP_CUDA(cudaGetLastError());
    gp_planted_checksum("planted_4x4", y, n);
    return 0;
}
