/* gpk_dev_memory.cu - the memory family's bandwidths: DRAM read and write
 * over 1 GiB, L2 over a quarter of it, L1 and shared memory reread in every
 * block, for the GPK_MEM lines of metrics/catalog/gpupeak.def (the DRAM copy is
 * gpk_dev_copy.cu's).  float4 accesses, a grid of GPK_BPS blocks per SM. */
#include "gpk_dev.cuh"

/* DRAM read (gpk_mem_read) and L2 read (gpk_mem_l2, over a footprint that
 * fits L2, loads marked .cg so L1 never serves them): grid-stride float4, 4
 * loads in flight per thread. */
template <bool CG>
static __device__ __forceinline__ void gpk_read4(const float4 *__restrict__ a, size_t n4,
                                                 int passes, gpk_args p, unsigned *sink,
                                                 unsigned long long *clk)
{
    float s = 0.f;
    gpk_grid_stride<4>(n4, passes, clk, [&](size_t i, size_t stride) {
        float4 v0 = CG ? __ldcg(a + i) : a[i], v1 = CG ? __ldcg(a + i + stride) : a[i + stride];
        float4 v2 = CG ? __ldcg(a + i + 2 * stride) : a[i + 2 * stride];
        float4 v3 = CG ? __ldcg(a + i + 3 * stride) : a[i + 3 * stride];
        /* every component, or the compiler narrows the loads to 32 bits */
        s += ((v0.x + v0.y) + (v0.z + v0.w)) + ((v1.x + v1.y) + (v1.z + v1.w)) +
             ((v2.x + v2.y) + (v2.z + v2.w)) + ((v3.x + v3.y) + (v3.z + v3.w));
    });
    if (__float_as_uint(s) == p.sentinel)
        sink[0] = __float_as_uint(s);
}
__global__ void __launch_bounds__(GPK_TPB) gpk_mem_read(const float4 *__restrict__ a, size_t n4,
                                                         int passes, gpk_args p, unsigned *sink,
                                                         unsigned long long *clk)
{
    gpk_read4<false>(a, n4, passes, p, sink, clk);
}
__global__ void __launch_bounds__(GPK_TPB) gpk_mem_l2(const float4 *__restrict__ a, size_t n4,
                                                       int passes, gpk_args p, unsigned *sink,
                                                       unsigned long long *clk)
{
    gpk_read4<true>(a, n4, passes, p, sink, clk);
}

/* DRAM write: the same grid, 4 stores per thread and trip. */
__global__ void __launch_bounds__(GPK_TPB) gpk_mem_write(float4 *__restrict__ a, size_t n4,
                                                          int passes, gpk_args p,
                                                          unsigned long long *clk)
{
    const float4 v = make_float4(p.f0, p.f1, p.f0, p.f1);
    gpk_grid_stride<4>(n4, passes, clk, [&](size_t i, size_t stride) {
        a[i] = v;
        a[i + stride] = v;
        a[i + 2 * stride] = v;
        a[i + 3 * stride] = v;
    });
}

/* L1: every block reads the same 64 KB; the base rotates with a power-of-two
 * mask each trip and the 8 loads use immediate offsets, so the address
 * arithmetic is one add and one and per 8 loads. */
#define GPK_L1_UNR 8
#define GPK_L1_MASK 2047 /* float4 units: rotation over 32 KB */
__global__ void __launch_bounds__(GPK_TPB) gpk_mem_l1(const float4 *__restrict__ a, int iters,
                                                       gpk_args p, unsigned *sink,
                                                       unsigned long long *clk)
{
    float s0 = 0.f, s1 = 0.f, s2 = 0.f, s3 = 0.f;
    GPK_CLK_BEGIN(clk);
    for (int i = 0; i < iters; i++) {
        const float4 *q = a + ((i * GPK_TPB) & GPK_L1_MASK) + threadIdx.x;
#pragma unroll
        for (int u = 0; u < GPK_L1_UNR; u++) {
            float4 v = __ldg(q + u * GPK_TPB);
            s0 += v.x;
            s1 += v.y;
            s2 += v.z;
            s3 += v.w;
        }
    }
    GPK_CLK_END(clk);
    float s = (s0 + s1) + (s2 + s3);
    if (__float_as_uint(s) == p.sentinel)
        sink[0] = __float_as_uint(s);
}

/* Shared memory, 32-bit or 128-bit per thread; same rotation as L1.  ROT
 * rotation slots plus UNR x 256 unrolled elements. */
template <class V, int ROT, int UNR>
__global__ void __launch_bounds__(GPK_TPB) gpk_mem_shared(int iters, gpk_args p, unsigned *sink,
                                                           unsigned long long *clk)
{
    __shared__ V sm[ROT + UNR * GPK_TPB];
    for (int k = threadIdx.x; k < ROT + UNR * GPK_TPB; k += GPK_TPB) {
        float f = p.f0 * k;
        memset(&sm[k], 0, sizeof(V));
        memcpy(&sm[k], &f, sizeof(float));
    }
    __syncthreads();
    float s = 0.f;
    GPK_CLK_BEGIN(clk);
    for (int i = 0; i < iters; i++) {
        const unsigned q = (unsigned)__cvta_generic_to_shared(
            (void *)(sm + ((i * GPK_TPB) & (ROT - 1)) + threadIdx.x));
#pragma unroll
        for (int u = 0; u < UNR; u++) {
            if (sizeof(V) == 4) {
                float v;
                asm volatile("ld.volatile.shared.f32 %0, [%1];"
                             : "=f"(v)
                             : "r"(q + u * GPK_TPB * (unsigned)sizeof(V)));
                s += v;
            } else {
                float4 v;
                asm volatile("ld.volatile.shared.v4.f32 {%0,%1,%2,%3}, [%4];"
                             : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                             : "r"(q + u * GPK_TPB * (unsigned)sizeof(V)));
                s += (v.x + v.y) + (v.z + v.w);
            }
        }
    }
    GPK_CLK_END(clk);
    if (__float_as_uint(s) == p.sentinel)
        sink[0] = __float_as_uint(s);
}

/* ------------------------------------------------------------- host ---- */

/* The buffer of a LOAD, STORE or COPY line, a whole number of grid-stride
 * trips (4 loads by every thread of the grid). */
enum { GPK_BUF_DRAM, GPK_BUF_L2 };
static size_t gpk_bw_size(int buffer, int blocks)
{
    size_t sz;
    if (buffer == GPK_BUF_DRAM) {
        sz = (size_t)1 << 30; /* 1 GiB per buffer: 20x any Hopper L2 */
        while (sz * 3 > gpk_dev.global_bytes && sz > ((size_t)64 << 20))
            sz >>= 1;
    } else {
        sz = (size_t)gpk_dev.l2_bytes / 4; /* well inside L2, even one partition */
        if (sz < (size_t)GPK_TPB * 16 * 4 * blocks)
            sz = (size_t)GPK_TPB * 16 * 4 * blocks;
    }
    return sz - sz % ((size_t)GPK_TPB * blocks * 16 * 4);
}

typedef void (*gpk_load_fn)(const float4 *, size_t, int, gpk_args, unsigned *,
                            unsigned long long *);
typedef void (*gpk_store_fn)(float4 *, size_t, int, gpk_args, unsigned long long *);
typedef void (*gpk_reread_fn)(const float4 *, int, gpk_args, unsigned *, unsigned long long *);
typedef void (*gpk_shared_fn)(int, gpk_args, unsigned *, unsigned long long *);

/* One launch of a bandwidth kernel (the one set) over buffer a. */
struct gpk_bw_launch : gpk_launch {
    gpk_load_fn load = NULL;
    gpk_store_fn store = NULL;
    gpk_reread_fn reread = NULL;
    gpk_shared_fn shared = NULL;
    int blocks = gpk_dev.sm_count * GPK_BPS;
    gpk_args p = gpk_default_args();
    float4 *a = NULL;
    size_t n4 = 0;
    void go(int iters)
    {
        unsigned *s = (unsigned *)gpk_sink_d;
        if (load)
            load<<<blocks, GPK_TPB>>>(a, n4, iters, p, s, gpk_clk_d);
        else if (store)
            store<<<blocks, GPK_TPB>>>(a, n4, iters, p, gpk_clk_d);
        else if (reread)
            reread<<<blocks, GPK_TPB>>>(a, iters, p, s, gpk_clk_d);
        else
            shared<<<blocks, GPK_TPB>>>(iters, p, s, gpk_clk_d);
    }
};

/* Times l over a buffer of sz bytes (none when 0) holding non-zero data;
 * *bytes = bytes_per_iter x the loop count used. */
static int gpk_bw_run(gpk_bw_launch &l, size_t sz, double bytes_per_iter, double target_ms,
                      double *bytes, gpk_meas *m)
{
    int iters = 0, rc = -1;
    l.n4 = sz / 16;
    if (sz) {
        GPK_CU(cudaMalloc(&l.a, sz), out);
        GPK_CU(cudaMemset(l.a, 0x3c, sz), out);
    }
    if (gpk_time(l, target_ms, 1, &iters, m))
        goto out;
    *bytes = bytes_per_iter * iters;
    rc = 0;
out:
    cudaFree(l.a);
    return rc;
}

/* LOAD and STORE: bytes = the buffer, per pass. */
static int gpk_bw_stream(gpk_load_fn load, gpk_store_fn store, int buffer, double target_ms,
                         double *bytes, gpk_meas *m)
{
    gpk_bw_launch l;
    const size_t sz = gpk_bw_size(buffer, l.blocks);
    l.load = load;
    l.store = store;
    return gpk_bw_run(l, sz, (double)sz, target_ms, bytes, m);
}

/* REREAD: every thread's GPK_L1_UNR loads per trip, from a buffer that
 * holds the rotation and the unrolled offsets. */
static int gpk_bw_reread(gpk_reread_fn k, double target_ms, double *bytes, gpk_meas *m)
{
    gpk_bw_launch l;
    l.reread = k;
    return gpk_bw_run(l, (size_t)(GPK_L1_MASK + 1 + GPK_L1_UNR * GPK_TPB) * 16,
                      (double)l.blocks * GPK_TPB * GPK_L1_UNR * 16.0, target_ms, bytes, m);
}

/* SHARED: UNR loads of a V per thread and trip, no global buffer. */
template <class V, int ROT, int UNR>
static int gpk_bw_shared(double target_ms, double *bytes, gpk_meas *m)
{
    gpk_bw_launch l;
    l.shared = gpk_mem_shared<V, ROT, UNR>;
    return gpk_bw_run(l, 0, (double)l.blocks * GPK_TPB * UNR * (double)sizeof(V), target_ms,
                      bytes, m);
}

/* One case per GPK_MEM line: its run column says how. */
#define GPK_MEM_RUN_LOAD(K, BUF) gpk_bw_stream(K, NULL, GPK_BUF_##BUF, target_ms, bytes, m)
#define GPK_MEM_RUN_STORE(K, BUF) gpk_bw_stream(NULL, K, GPK_BUF_##BUF, target_ms, bytes, m)
#define GPK_MEM_RUN_COPY(BUF)                                                                      \
    gpk_copy_run(gpk_bw_size(GPK_BUF_##BUF, gpk_dev.sm_count * GPK_BPS), target_ms, bytes, m)
#define GPK_MEM_RUN_REREAD(K) gpk_bw_reread(K, target_ms, bytes, m)
#define GPK_MEM_RUN_SHARED(V, ROT, UNR) gpk_bw_shared<V, ROT, UNR>(target_ms, bytes, m)

extern "C" int gpk_dev_mem(int kind, double target_ms, double *bytes, gpk_meas *m)
{
    switch (kind) {
#define GPK_MEM(id, key, quick, theo, what, peak, run)                                             \
    case GPK_M_##id:                                                                               \
        return GPK_MEM_RUN_##run;
#include "metrics/catalog/gpupeak.def"
    }
    return -1;
}
