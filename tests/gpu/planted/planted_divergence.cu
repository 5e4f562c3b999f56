// planted_divergence - one planted problem: lanes 0-15 and 16-31 of every
// warp take different loops, which the warp runs one after the other with
// half its lanes idle.  Memory access is coalesced, occupancy full.
#include "planted.h"

extern "C" __global__ void planted_divergence(const float *in, float *out, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[i];
    if ((threadIdx.x & 31) < 16) {
        for (int k = 0; k < iters; k++)
            v = fmaf(v, 1.0001f, 0.5f);
    } else {
        for (int k = 0; k < iters; k++)
            v = __fdividef(v, 1.0002f) - 0.25f * v;
    }
    out[i] = v;
}

int main()
{
    const int blocks = 4224, threads = 256, n = blocks * threads;
    float *in = gp_planted_buffer(n, 1.0f), *out = gp_planted_buffer(n, 0.0f);
    for (int rep = 0; rep < 2; rep++)
        planted_divergence<<<blocks, threads>>>(in, out, 2048);
    GP_CUDA(cudaGetLastError());
    gp_planted_checksum("planted_divergence", out, n);
    return 0;
}
