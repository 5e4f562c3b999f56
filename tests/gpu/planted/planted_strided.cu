// planted_strided - one planted problem: consecutive threads load floats 128
// bytes apart, so each 32-byte sector fetched serves 4 bytes (12.5%).  The
// store is coalesced; blocks and occupancy are fine.
#include "planted.h"

extern "C" __global__ void planted_strided(const float *in, float *out, int n, long m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[((long)i * 32) & (m - 1)];
}

int main()
{
    const int n = 1 << 22;
    const long m = 1L << 26;
    float *in = gp_planted_buffer(m, 1.0f), *out = gp_planted_buffer(n, 0.0f);
    for (int rep = 0; rep < 2; rep++)
        planted_strided<<<n / 256, 256>>>(in, out, n, m);
    GP_CUDA(cudaGetLastError());
    gp_planted_checksum("planted_strided", out, n);
    return 0;
}
