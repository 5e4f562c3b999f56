// planted_one_block - one planted problem: the whole job in one block of 256
// threads, so 131 of 132 SMs sit idle.  Access is coalesced.
#include "planted.h"

extern "C" __global__ void planted_one_block(const float *in, float *out, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        out[i] = 2.0f * in[i] + 1.0f;
}

int main()
{
    const int n = 1 << 22;
    float *in = gp_planted_buffer(n, 1.0f), *out = gp_planted_buffer(n, 0.0f);
    for (int rep = 0; rep < 2; rep++)
        planted_one_block<<<1, 256>>>(in, out, n);
    GP_CUDA(cudaGetLastError());
    gp_planted_checksum("planted_one_block", out, n);
    return 0;
}
