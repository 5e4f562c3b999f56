// planted_copy - no planted problem: a coalesced float4 streaming copy of
// 256 MB.  It should be DRAM-bound near its roof and get no other verdict.
#include "planted.h"

extern "C" __global__ void planted_copy(const float4 *in, float4 *out, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

int main()
{
    const long n4 = 1L << 24; // float4s: 256 MB
    float *in = gp_planted_buffer(n4 * 4, 1.0f), *out = gp_planted_buffer(n4 * 4, 0.0f);
    for (int rep = 0; rep < 2; rep++)
        planted_copy<<<(unsigned)(n4 / 256), 256>>>((const float4 *)in, (float4 *)out, n4);
    GP_CUDA(cudaGetLastError());
    gp_planted_checksum("planted_copy", out, n4 * 4);
    return 0;
}
