// planted_bank_conflict - one planted problem: every lane of a warp reads
// the same 4-byte bank of shared memory (row lane, column it: stride 32
// floats), a 32-way conflict.  Global access is coalesced, occupancy full.
#include "planted.h"

extern "C" __global__ void planted_bank_conflict(const float *in, float *out, int iters)
{
    __shared__ float s[32 * 32];
    int lane = threadIdx.x & 31, gi = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = threadIdx.x; k < 32 * 32; k += blockDim.x)
        s[k] = in[k];
    __syncthreads();
    float acc = 0;
    for (int it = 0; it < iters; it++)
        acc += s[lane * 32 + (it & 31)];
    out[gi] = acc + in[gi];
}

int main()
{
    const int blocks = 1056, threads = 256, n = blocks * threads;
    float *in = gp_planted_buffer(n, 1.0f), *out = gp_planted_buffer(n, 0.0f);
    for (int rep = 0; rep < 2; rep++)
        planted_bank_conflict<<<blocks, threads>>>(in, out, 4096);
    GP_CUDA(cudaGetLastError());
    gp_planted_checksum("planted_bank_conflict", out, n);
    return 0;
}
