/* stall_kernels.cu - kernels whose warps wait for known reasons, for the
 * warp-stall sampling probe and the "why and where" GPU tests (compiled to a
 * cubin with -lineinfo and loaded through the driver API).  Each one's main
 * stall is named above it; the source lines matter to the tests. */

/* memory latency: a dependent chain of global loads (long scoreboard) */
extern "C" __global__ void stall_chase(const unsigned *next, unsigned *out, int steps)
{
    unsigned i = (blockIdx.x * blockDim.x + threadIdx.x) * 97u;
    for (int s = 0; s < steps; s++)
        i = next[i & 0xfffffu];
    out[blockIdx.x * blockDim.x + threadIdx.x] = i;
}

/* dependent arithmetic (wait, math pipe) */
extern "C" __global__ void stall_fma(float *out, int iters)
{
    float a = threadIdx.x * 1e-3f, b = 1.0001f, c = 0.9999f;
    for (int k = 0; k < iters; k++) {
        a = a * b + c;
        b = b * c + a;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a + b;
}

/* shared memory and barriers (barrier, short scoreboard, MIO throttle) */
extern "C" __global__ void stall_barrier(float *out, int iters)
{
    __shared__ float s[1024];
    float acc = 0.0f;
    for (int k = 0; k < iters; k++) {
        s[threadIdx.x] = acc + k;
        __syncthreads();
        acc += s[(threadIdx.x * 33u) & 1023u];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

/* streaming through DRAM (long scoreboard, LG throttle) */
extern "C" __global__ void stall_stream(const float4 *in, float4 *out, long n)
{
    long stride = (long)gridDim.x * blockDim.x;
    for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += stride) {
        float4 v = in[i];
        v.x += 1.0f;
        v.w *= 2.0f;
        out[i] = v;
    }
}

/* half of each warp takes a branch (divergence, predicated-off threads) */
extern "C" __global__ void stall_diverge(float *out, int iters)
{
    float a = threadIdx.x;
    if (threadIdx.x & 16) {
        for (int k = 0; k < iters; k++)
            a = a * 0.999f + 1.0f;
    } else {
        for (int k = 0; k < iters / 2; k++)
            a = a * 1.001f - 1.0f;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
