// planted_registers - one planted problem: 2 x 96 live values per thread
// push the kernel near 200 registers, so one 256-thread block (8 warps, 12.5%)
// fits per SM, and the kernel waits on a dependent chain of DRAM loads that
// more warps would overlap.  Loads are coalesced (each warp reads 128
// consecutive bytes whose entries all name the same next group), the grid has
// several waves.
#include <vector>

#include "planted.h"

#define R 96

extern "C" __global__ void __launch_bounds__(256)
    planted_registers(const float *w, const int *next, float *out, int iters)
{
    float acc[R], wr[R];
    int lane = threadIdx.x & 31, gi = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int k = 0; k < R; k++) {
        wr[k] = w[k * 256 + threadIdx.x];
        acc[k] = 0;
    }
    int idx = (blockIdx.x * 8 + (threadIdx.x >> 5)) * 32;
    for (int it = 0; it < iters; it++) {
        idx = next[idx + lane];
        float x = 1.0f + (float)(idx & 1023) * 1e-6f;
#pragma unroll
        for (int k = 0; k < R; k++)
            acc[k] = fmaf(wr[k], x, acc[k]);
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < R; k++)
        s += acc[k];
    out[gi] = s;
}

int main()
{
    const int groups = 1 << 20, blocks = 528, threads = 256, n = blocks * threads;
    std::vector<int> perm(groups), h((size_t)groups * 32);
    for (int g = 0; g < groups; g++)
        perm[g] = g;
    unsigned r = 12345;
    for (int g = groups - 1; g > 0; g--) { // Sattolo: one cycle through all groups
        r = r * 1664525u + 1013904223u;
        int j = (int)(r % (unsigned)g);
        int t = perm[g];
        perm[g] = perm[j];
        perm[j] = t;
    }
    for (size_t j = 0; j < h.size(); j++)
        h[j] = perm[j / 32] * 32;
    int *next;
    GP_CUDA(cudaMalloc(&next, h.size() * sizeof(int)));
    GP_CUDA(cudaMemcpy(next, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice));
    float *w = gp_planted_buffer(R * 256, 0.5f), *out = gp_planted_buffer(n, 0.0f);
    for (int rep = 0; rep < 2; rep++)
        planted_registers<<<blocks, threads>>>(w, next, out, 1000);
    GP_CUDA(cudaGetLastError());
    gp_planted_checksum("planted_registers", out, n);
    return 0;
}
