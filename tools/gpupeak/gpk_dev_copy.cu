/* gpk_dev_copy.cu - the memory family's DRAM copy: every kernel variant of
 * gpk_copy_defs timed on the same buffers (bytes read + written) and checked
 * word by word; the best checked one is bandwidth.dram_copy, the driver's
 * cudaMemcpy is listed for reference.  The bulk-copy variants also run in
 * gpupeak's probe process first (gpk_dev_probe_bulk), since a fault there
 * would end the whole run. */
#include "gpk_dev.cuh"

/* One trip of a copy: U 16-byte loads from a + u x step, then the U stores
 * to b + u x step; streaming hints (ld.global.cs / st.global.cs:
 * evict-first) when CS. */
template <int U, bool CS>
static __device__ __forceinline__ void gpk_copy_trip(const float4 *__restrict__ a,
                                                     float4 *__restrict__ b, size_t step)
{
    float4 v[U];
#pragma unroll
    for (int u = 0; u < U; u++)
        v[u] = CS ? __ldcs(a + u * step) : a[u * step];
#pragma unroll
    for (int u = 0; u < U; u++) {
        if (CS)
            __stcs(b + u * step, v[u]);
        else
            b[u * step] = v[u];
    }
}

/* The first copies: 4 loads in flight per thread, grid-stride, plain
 * (gpk_mem_copy) or with streaming hints (gpk_mem_copy_cs). */
template <bool CS>
static __device__ __forceinline__ void gpk_copy4(const float4 *__restrict__ a,
                                                 float4 *__restrict__ b, size_t n4, int passes,
                                                 unsigned long long *clk)
{
    gpk_grid_stride<4>(n4, passes, clk, [&](size_t i, size_t stride) {
        float4 v0 = CS ? __ldcs(a + i) : a[i], v1 = CS ? __ldcs(a + i + stride) : a[i + stride];
        float4 v2 = CS ? __ldcs(a + i + 2 * stride) : a[i + 2 * stride];
        float4 v3 = CS ? __ldcs(a + i + 3 * stride) : a[i + 3 * stride];
        if (CS) {
            __stcs(b + i, v0);
            __stcs(b + i + stride, v1);
            __stcs(b + i + 2 * stride, v2);
            __stcs(b + i + 3 * stride, v3);
        } else {
            b[i] = v0;
            b[i + stride] = v1;
            b[i + 2 * stride] = v2;
            b[i + 3 * stride] = v3;
        }
    });
}
__global__ void __launch_bounds__(GPK_TPB) gpk_mem_copy(const float4 *__restrict__ a,
                                                         float4 *__restrict__ b, size_t n4,
                                                         int passes, unsigned long long *clk)
{
    gpk_copy4<false>(a, b, n4, passes, clk);
}
__global__ void __launch_bounds__(GPK_TPB) gpk_mem_copy_cs(const float4 *__restrict__ a,
                                                            float4 *__restrict__ b, size_t n4,
                                                            int passes, unsigned long long *clk)
{
    gpk_copy4<true>(a, b, n4, passes, clk);
}

/* Copy variants, to find how a kernel copies fastest: U independent 16-byte
 * loads per thread before its U stores, grid-stride, optional streaming
 * hints.  n4 is a multiple of U x grid x blockDim, so there is no tail. */
template <int U, bool CS>
__global__ void __launch_bounds__(GPK_TPB) gpk_copyv(const float4 *__restrict__ a,
                                                     float4 *__restrict__ b, size_t n4,
                                                     int passes, unsigned long long *clk)
{
    gpk_grid_stride<U>(n4, passes, clk, [&](size_t i, size_t stride) {
        gpk_copy_trip<U, CS>(a + i, b + i, stride);
    });
}

/* Chunked copy: block k streams its own contiguous chunk (buffer / grid:
 * 1-4 MB at 2-8 blocks per SM), one tile of U x 256 x 16 bytes per trip: U
 * 16-byte loads per thread, then the U stores.  MINB blocks per SM (launch
 * bounds) keep the grid one wave.  chunk4 is a multiple of U x 256, so
 * there is no tail. */
template <int U, bool CS, int MINB>
__global__ void __launch_bounds__(GPK_TPB, MINB) gpk_copychunk(const float4 *__restrict__ a,
                                                               float4 *__restrict__ b,
                                                               size_t chunk4, int passes,
                                                               unsigned long long *clk)
{
    const float4 *__restrict__ src = a + blockIdx.x * chunk4;
    float4 *__restrict__ dst = b + blockIdx.x * chunk4;
    GPK_CLK_BEGIN(clk);
    for (int q = 0; q < passes; q++) {
#pragma unroll 1
        for (size_t i = threadIdx.x; i < chunk4; i += U * GPK_TPB)
            gpk_copy_trip<U, CS>(src + i, dst + i, GPK_TPB);
    }
    GPK_CLK_END(clk);
}

/* Batched non-coherent copy: U 16-byte loads per thread through the
 * read-only path without L1 allocation (ld.global.nc.L1::no_allocate), then
 * the U stores (st.global.L1::no_allocate), both carrying an L2 evict-first policy (createpolicy;
 * sm_90 takes .L2::evict_first only on 256-bit loads, so the hint goes as a
 * cache policy); PF adds the .L2::256B prefetch-size hint to the loads.
 * Grid-stride over a persistent grid; n4 a multiple of U x grid x blockDim. */
template <bool PF>
static __device__ __forceinline__ float4 gpk_ld_nc_ef(const float4 *p, unsigned long long pol)
{
    float4 v;
    if (PF)
        asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.L2::256B.v4.f32 "
                     "{%0,%1,%2,%3}, [%4], %5;"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(p), "l"(pol));
    else
        asm volatile("ld.global.nc.L1::no_allocate.L2::cache_hint.v4.f32 "
                     "{%0,%1,%2,%3}, [%4], %5;"
                     : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                     : "l"(p), "l"(pol));
    return v;
}

template <int U, bool PF>
__global__ void __launch_bounds__(GPK_TPB) gpk_copync(const float4 *__restrict__ a,
                                                      float4 *__restrict__ b, size_t n4,
                                                      int passes, unsigned long long *clk)
{
    unsigned long long pol;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
    gpk_grid_stride<U>(n4, passes, clk, [&](size_t i, size_t stride) {
        float4 v[U];
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u] = gpk_ld_nc_ef<PF>(a + i + u * stride, pol);
#pragma unroll
        for (int u = 0; u < U; u++)
            asm volatile("st.global.L1::no_allocate.L2::cache_hint.v4.f32 "
                         "[%0], {%1,%2,%3,%4}, %5;" ::"l"(b + i + u * stride),
                         "f"(v[u].x), "f"(v[u].y), "f"(v[u].z), "f"(v[u].w), "l"(pol)
                         : "memory");
    });
}

/* Bulk-copy engine (sm_90 cp.async.bulk): one thread per block streams the
 * block's contiguous chunk through `stages` shared-memory tiles: global ->
 * shared completes on an mbarrier (expect_tx), shared -> global is a
 * bulk_group store; a tile is refilled once its store has read it
 * (wait_group.read), one tile behind, so stages-1 loads stay in flight.
 * Tiles run on over passes (tile t copies chunk tile t mod ntiles).  Every
 * mbarrier wait gives up after 200 ms (sets *err), so a fault in this path
 * cannot hang the run.  stages in 2..8; tile a multiple of 16. */
#define GPK_BULK_MAXST 8
static __device__ __forceinline__ unsigned gpk_smem_u32(const void *p)
{
    return (unsigned)__cvta_generic_to_shared(p);
}

__global__ void __launch_bounds__(32) gpk_copybulk(const char *__restrict__ a,
                                                   char *__restrict__ b, size_t chunk,
                                                   unsigned tile, int stages, int passes,
                                                   unsigned *err, unsigned long long *clk)
{
    extern __shared__ __align__(128) unsigned char gpk_bulk_buf[];
    __shared__ __align__(8) unsigned long long gpk_bar[GPK_BULK_MAXST];
    if (threadIdx.x != 0)
        return;
    const char *src = a + blockIdx.x * chunk;
    char *dst = b + blockIdx.x * chunk;
    const unsigned long long ntiles = chunk / tile;
    const unsigned long long total = ntiles * (unsigned long long)passes;
    const unsigned sbuf = gpk_smem_u32(gpk_bulk_buf), sbar = gpk_smem_u32(gpk_bar);
    for (int s = 0; s < stages; s++)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(sbar + 8 * s) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    GPK_CLK_BEGIN(clk);
    /* load tile t (chunk tile t mod ntiles) into stage s */
#define GPK_BULK_LOAD(t, s)                                                                        \
    do {                                                                                           \
        const unsigned bar_ = sbar + 8 * (s);                                                      \
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_),          \
                     "r"(tile)                                                                     \
                     : "memory");                                                                  \
        asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "          \
                     "[%0], [%1], %2, [%3];" ::"r"(sbuf + (s) * tile),                             \
                     "l"(src + ((t) % ntiles) * tile), "r"(tile), "r"(bar_)                        \
                     : "memory");                                                                  \
    } while (0)
    for (int s = 0; s < stages && (unsigned long long)s < total; s++)
        GPK_BULK_LOAD((unsigned long long)s, s);
    int st = 0;           /* stage of tile t */
    unsigned phase = 0;   /* parity of stage st's current use */
    for (unsigned long long t = 0; t < total; t++) {
        unsigned done = 0;
        const unsigned long long deadline = gpk_gtime() + 200000000ull;
        for (;;) {
            asm volatile("{\n\t.reg .pred p;\n\t"
                         "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
                         "selp.u32 %0, 1, 0, p;\n\t}"
                         : "=r"(done)
                         : "r"(sbar + 8 * st), "r"(phase)
                         : "memory");
            if (done || gpk_gtime() > deadline)
                break;
        }
        if (!done) {
            atomicOr(err, 1u);
            break;
        }
        asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(
                         dst + (t % ntiles) * tile),
                     "r"(sbuf + st * tile), "r"(tile)
                     : "memory");
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        if (t >= 1) {
            /* the store of tile t-1 has read its stage: refill it with tile t-1+stages */
            asm volatile("cp.async.bulk.wait_group.read 1;" ::: "memory");
            const int ps = st == 0 ? stages - 1 : st - 1;
            const unsigned long long tn = t - 1 + stages;
            if (tn < total)
                GPK_BULK_LOAD(tn, ps);
        }
        if (++st == stages) {
            st = 0;
            phase ^= 1u;
        }
    }
#undef GPK_BULK_LOAD
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
    GPK_CLK_END(clk);
}

/* Copy check: a pattern in, a count of differing 16-byte words out. */
__global__ void gpk_copy_fill(uint4 *a, size_t n4)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4;
         i += (size_t)gridDim.x * blockDim.x)
        a[i] = make_uint4((unsigned)i, (unsigned)(i >> 32) ^ 0x5a5a5a5au,
                          (unsigned)i * 2654435761u, ~(unsigned)i);
}

__global__ void gpk_copy_check(const uint4 *a, const uint4 *b, size_t n4,
                               unsigned long long *bad)
{
    unsigned long long k = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4;
         i += (size_t)gridDim.x * blockDim.x) {
        const uint4 x = a[i], y = b[i];
        k += (x.x != y.x) | (x.y != y.y) | (x.z != y.z) | (x.w != y.w);
    }
    if (k)
        atomicAdd(bad, k);
}

/* ------------------------------------------------------------- host ---- */

/* DRAM copy variants, measured on the same buffers, bytes read + written.
 * GRID: a grid-stride kernel over a persistent grid of SMs x bps blocks;
 * CHUNK: one contiguous chunk per block (the kernel gets n4 / blocks); BULK:
 * gpk_copybulk (u = tile KB, stages).  dst_off moves the destination from
 * the start of its allocation (not a multiple of a large power of two, so a
 * source line and the destination line of the same index do not share a
 * DRAM channel and bank); big selects the 4 GiB buffers instead of 1 GiB. */
typedef void (*gpk_copy_fn)(const float4 *, float4 *, size_t, int, unsigned long long *);
enum { GPK_CV_GRID, GPK_CV_CHUNK, GPK_CV_BULK };
#define GPK_OFF_1M2K (((size_t)1 << 20) + 2048)
static const struct gpk_copy_def {
    const char *name;
    int type;
    gpk_copy_fn fn; /* GRID, CHUNK */
    int u;          /* loads per thread per trip; BULK: tile KB */
    int stages;     /* BULK: shared tiles */
    double bps;     /* blocks per SM (0.5: a block on every other SM's worth) */
    size_t dst_off; /* bytes; a multiple of 256 */
    int big;        /* 1: 4 GiB each way; 2: in place (destination = source) */
} gpk_copy_defs[] = {
    {"u4_plain_4bps", GPK_CV_GRID, gpk_mem_copy, 4, 0, 4, 0, 0},
    {"u4_cs_4bps", GPK_CV_GRID, gpk_mem_copy_cs, 4, 0, 4, 0, 0},
    {"u8_cs_4bps", GPK_CV_GRID, gpk_copyv<8, true>, 8, 0, 4, 0, 0},
    {"u2_cs_8bps", GPK_CV_GRID, gpk_copyv<2, true>, 2, 0, 8, 0, 0},
    {"u4_cs_8bps", GPK_CV_GRID, gpk_copyv<4, true>, 4, 0, 8, 0, 0},
    {"u8_cs_8bps", GPK_CV_GRID, gpk_copyv<8, true>, 8, 0, 8, 0, 0},
    {"u4_plain_8bps", GPK_CV_GRID, gpk_copyv<4, false>, 4, 0, 8, 0, 0},
    {"u8_plain_8bps", GPK_CV_GRID, gpk_copyv<8, false>, 8, 0, 8, 0, 0},
    {"chunk_u8_cs_4bps", GPK_CV_CHUNK, gpk_copychunk<8, true, 4>, 8, 0, 4, 0, 0},
    {"chunk_u16_cs_2bps", GPK_CV_CHUNK, gpk_copychunk<16, true, 2>, 16, 0, 2, 0, 0},
    {"chunk_u2_cs_8bps", GPK_CV_CHUNK, gpk_copychunk<2, true, 8>, 2, 0, 8, 0, 0},
    {"chunk_u8_plain_4bps", GPK_CV_CHUNK, gpk_copychunk<8, false, 4>, 8, 0, 4, 0, 0},
    {"bulk_16k_x8_1bps", GPK_CV_BULK, NULL, 16, 8, 1, 0, 0},
    {"bulk_32k_x3_2bps", GPK_CV_BULK, NULL, 32, 3, 2, 0, 0},
    /* destination offsets */
    {"u8_cs_4bps_off4k", GPK_CV_GRID, gpk_copyv<8, true>, 8, 0, 4, 4096, 0},
    {"u8_cs_4bps_off64k256", GPK_CV_GRID, gpk_copyv<8, true>, 8, 0, 4, 65536 + 256, 0},
    {"u8_cs_4bps_off1m2k", GPK_CV_GRID, gpk_copyv<8, true>, 8, 0, 4, GPK_OFF_1M2K, 0},
    {"u2_cs_4bps_off1m2k", GPK_CV_GRID, gpk_copyv<2, true>, 2, 0, 4, GPK_OFF_1M2K, 0},
    /* batched non-coherent loads, no L1 allocation, L2 evict-first */
    {"nc_u8_ef_4bps", GPK_CV_GRID, gpk_copync<8, false>, 8, 0, 4, 0, 0},
    {"nc_u8_ef256_4bps", GPK_CV_GRID, gpk_copync<8, true>, 8, 0, 4, 0, 0},
    {"nc_u16_ef_2bps", GPK_CV_GRID, gpk_copync<16, false>, 16, 0, 2, 0, 0},
    {"nc_u4_ef_8bps", GPK_CV_GRID, gpk_copync<4, false>, 4, 0, 8, 0, 0},
    {"nc_u8_ef_4bps_off1m2k", GPK_CV_GRID, gpk_copync<8, false>, 8, 0, 4, GPK_OFF_1M2K, 0},
    /* 4 GiB each way */
    {"u8_cs_4bps_4g", GPK_CV_GRID, gpk_copyv<8, true>, 8, 0, 4, 0, 1},
    {"u8_cs_2bps_4g", GPK_CV_GRID, gpk_copyv<8, true>, 8, 0, 2, 0, 1},
    {"nc_u8_ef_4bps_4g", GPK_CV_GRID, gpk_copync<8, false>, 8, 0, 4, 0, 1},
    {"u8_cs_4bps_4g_off1m2k", GPK_CV_GRID, gpk_copyv<8, true>, 8, 0, 4, GPK_OFF_1M2K, 1},
    /* fewer requests in flight (1 GiB and 4 GiB) */
    {"u8_cs_2bps", GPK_CV_GRID, gpk_copyv<8, true>, 8, 0, 2, 0, 0},
    {"u8_cs_1bps", GPK_CV_GRID, gpk_copyv<8, true>, 8, 0, 1, 0, 0},
    {"u8_cs_0.5bps", GPK_CV_GRID, gpk_copyv<8, true>, 8, 0, 0.5, 0, 0},
    {"u8_cs_1bps_4g", GPK_CV_GRID, gpk_copyv<8, true>, 8, 0, 1, 0, 1},
    /* diagnostic, never the peak: each line read and written back in place,
     * so a read and the write that follows it fall in the same DRAM row;
     * against the copies it shows what source/destination bank conflicts
     * cost */
    {"u8_cs_4bps_inplace_diag", GPK_CV_GRID, gpk_copyv<8, true>, 8, 0, 4, 0, 2},
};
#define GPK_NCOPYV ((int)(sizeof gpk_copy_defs / sizeof gpk_copy_defs[0]))
#define GPK_MAXCOPYV 36    /* at least GPK_NCOPYV */
#define GPK_COPY_NREF 3    /* the driver's cudaMemcpy references */
#define GPK_COPY_SLACK ((size_t)2 << 20) /* room for dst_off past each destination */
#define GPK_COPY_BIG ((size_t)4 << 30)
static gpk_copy_var gpk_copy_res[GPK_MAXCOPYV + GPK_COPY_NREF];
static int gpk_ncopy;
static const char *gpk_bulk_skip; /* non-NULL: the bulk variants are not run, and why */
static unsigned *gpk_err_d;       /* gpk_copybulk's timeout flag */
static unsigned long long *gpk_bad_d; /* gpk_copy_check's count */

extern "C" void gpk_dev_skip_bulk(const char *why) { gpk_bulk_skip = why; }

extern "C" int gpk_dev_copy_variants(gpk_copy_var *out, int max)
{
    int n = gpk_ncopy < max ? gpk_ncopy : max;
    for (int i = 0; i < n; i++)
        out[i] = gpk_copy_res[i];
    return n;
}

/* One launch of the set-up copy variant (gpk_copy_setup). */
struct gpk_copy_launch : gpk_launch {
    int blocks, variant;
    unsigned tile, smem; /* bulk variants */
    int stages;
    float4 *a, *b;
    size_t n4;
    void go(int iters)
    {
        const gpk_copy_def &d = gpk_copy_defs[variant];
        if (d.type == GPK_CV_BULK)
            gpk_copybulk<<<blocks, 32, smem>>>((const char *)a, (char *)b, n4 / blocks * 16, tile,
                                               stages, iters, gpk_err_d, gpk_clk_d);
        else
            d.fn<<<blocks, GPK_TPB>>>(a, b, d.type == GPK_CV_CHUNK ? n4 / blocks : n4, iters,
                                      gpk_clk_d);
    }
};

/* Sets up l for copy variant v from buffer a to buffer b (allocations of
 * sz bytes, b with GPK_COPY_SLACK more): grid, destination (b + dst_off),
 * element count (a whole number of each kernel's units), bulk tile and
 * stages.  Returns NULL, or why the variant cannot run here. */
static const char *gpk_copy_setup(gpk_copy_launch &l, int v, float4 *a, float4 *b, size_t sz)
{
    const gpk_copy_def &d = gpk_copy_defs[v];
    size_t unit;
    l.variant = v;
    l.blocks = (int)(gpk_dev.sm_count * d.bps);
    if (l.blocks < 1)
        return "no block to launch";
    if (d.dst_off % 256 || d.dst_off > GPK_COPY_SLACK)
        return "bad destination offset in the variant table";
    l.a = a;
    l.b = d.big == 2 ? a : b + d.dst_off / 16;
    if (d.type == GPK_CV_BULK) {
        if (gpk_bulk_skip)
            return gpk_bulk_skip;
        if (gpk_dev.cc_major < 9)
            return "cp.async.bulk needs sm_90";
        l.tile = (unsigned)d.u * 1024;
        l.stages = d.stages;
        l.smem = l.tile * l.stages;
        if (l.stages < 2 || l.stages > GPK_BULK_MAXST || (int)l.smem > gpk_dev.smem_optin)
            return "the bulk variant's shared-memory tiles do not fit this device";
        if (cudaFuncSetAttribute(gpk_copybulk, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 (int)l.smem) != cudaSuccess) {
            (void)cudaGetLastError();
            return "cudaFuncSetAttribute(MaxDynamicSharedMemorySize) refused the bulk tiles";
        }
        unit = (size_t)l.blocks * (l.tile / 16);
    } else {
        unit = (size_t)d.u * GPK_TPB * l.blocks; /* chunk: each block's share is whole tiles */
    }
    l.n4 = sz / 16 - (sz / 16) % unit;
    if (l.n4 == 0)
        return "buffer too small for this variant";
    return NULL;
}

/* The copy check's two device words: gpk_copybulk's timeout flag and the
 * count of differing words. */
static int gpk_copy_alloc(void)
{
    if (!gpk_err_d)
        GPK_CU(cudaMalloc(&gpk_err_d, 64), fail);
    gpk_bad_d = (unsigned long long *)(gpk_err_d + 8);
    return 0;
fail:
    return -1;
}

/* One launch of the set-up variant (passes = 1) into a cleared destination,
 * then every 16-byte word of its share compared with the source.  Returns
 * NULL or why the copy is wrong (text in whybuf). */
static const char *gpk_copy_verify(gpk_copy_launch &l, int passes, char *whybuf, size_t n)
{
    unsigned long long bad = 0;
    unsigned err = 0;
    if (cudaMemset(gpk_err_d, 0, 64) != cudaSuccess || cudaMemset(l.b, 0, l.n4 * 16) != cudaSuccess)
        return "cudaMemset before the copy check failed";
    l.go(passes);
    gpk_copy_check<<<1024, 256>>>((const uint4 *)l.a, (const uint4 *)l.b, l.n4, gpk_bad_d);
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess)
        e = cudaMemcpy(&err, gpk_err_d, sizeof err, cudaMemcpyDeviceToHost);
    if (e == cudaSuccess)
        e = cudaMemcpy(&bad, gpk_bad_d, sizeof bad, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        snprintf(whybuf, n, "CUDA error in the copy check: %s", cudaGetErrorString(e));
        return whybuf;
    }
    if (err) {
        snprintf(whybuf, n, "an mbarrier wait timed out (200 ms) in the copy check");
        return whybuf;
    }
    if (bad) {
        snprintf(whybuf, n, "copy check failed: %llu of %zu 16-byte words differ", bad, l.n4);
        return whybuf;
    }
    return NULL;
}

/* The driver's cudaMemcpy device-to-device of sz bytes, median of 5, as a
 * reference entry (never the peak: its clock and code cannot be checked). */
static void gpk_copy_ref(const char *name, void *dst, const void *src, size_t sz)
{
    gpk_copy_var *o = &gpk_copy_res[gpk_ncopy++];
    double t[5];
    float f = 0;
    *o = {name, NAN, NAN, NULL, 1};
    for (int r = 0; r < 5; r++) {
        if (cudaEventRecord(gpk_ev0) != cudaSuccess ||
            cudaMemcpyAsync(dst, src, sz, cudaMemcpyDeviceToDevice) != cudaSuccess ||
            cudaEventRecord(gpk_ev1) != cudaSuccess ||
            cudaEventSynchronize(gpk_ev1) != cudaSuccess ||
            cudaEventElapsedTime(&f, gpk_ev0, gpk_ev1) != cudaSuccess) {
            (void)cudaGetLastError();
            o->why = "cudaMemcpy device-to-device failed";
            return;
        }
        t[r] = f;
    }
    qsort(t, 5, sizeof(double), gpk_cmp_dbl);
    o->bytes_per_s = 2.0 * sz / (t[2] * 1e-3);
}

/* Every copy variant (a holds a pattern; sz bytes each way, b with slack;
 * the big variants on 4 GiB buffers allocated here when the memory is
 * free): timed (bytes read + written over event time, clock by clock64),
 * then checked; a variant that fails either is kept with value NaN and why.
 * The best checked variant is the peak; -1 when none could be measured.
 * Then the driver's references. */
static int gpk_copy_all(gpk_copy_launch &l, float4 *a, float4 *b, size_t sz, double target_ms,
                        double *bytes, gpk_meas *m)
{
    static char whybuf[GPK_MAXCOPYV][160];
    float4 *a4 = NULL, *b4 = NULL;
    const char *big_why = NULL;
    double best = -1;
    size_t fr = 0, tot = 0;
    gpk_ncopy = 0;
    if (GPK_NCOPYV > GPK_MAXCOPYV || gpk_copy_alloc())
        return -1;
    /* the 4 GiB pair, with 2 GiB to spare */
    if (cudaMemGetInfo(&fr, &tot) != cudaSuccess ||
        fr < 2 * (GPK_COPY_BIG + GPK_COPY_SLACK) + ((size_t)2 << 30)) {
        big_why = "not enough free device memory for 2 x 4 GiB";
    } else if (cudaMalloc(&a4, GPK_COPY_BIG) != cudaSuccess ||
               cudaMalloc(&b4, GPK_COPY_BIG + GPK_COPY_SLACK) != cudaSuccess) {
        (void)cudaGetLastError();
        big_why = "cudaMalloc of 2 x 4 GiB failed";
    } else {
        gpk_copy_fill<<<1024, 256>>>((uint4 *)a4, GPK_COPY_BIG / 16);
        if (cudaGetLastError() != cudaSuccess)
            big_why = "filling the 4 GiB source failed";
    }
    for (int v = 0; v < GPK_NCOPYV; v++) {
        const gpk_copy_def &d = gpk_copy_defs[v];
        gpk_copy_var *o = &gpk_copy_res[gpk_ncopy++];
        gpk_meas mv;
        int it = 0;
        *o = {d.name, NAN, NAN, NULL, d.big == 2};
        if (d.big == 1 && big_why) {
            o->why = big_why;
            continue;
        }
        if ((o->why = d.big == 1 ? gpk_copy_setup(l, v, a4, b4, GPK_COPY_BIG)
                                 : gpk_copy_setup(l, v, a, b, sz)))
            continue;
        if (d.type == GPK_CV_BULK && cudaMemset(gpk_err_d, 0, 4) != cudaSuccess) {
            o->why = "cudaMemset failed";
            continue;
        }
        if (gpk_time(l, target_ms, 1, &it, &mv)) {
            o->why = "a launch failed (see the log)";
            continue;
        }
        /* the check runs 2 passes, so a pipeline that wraps is checked too
         * (in place there is nothing to check: it would clear its source) */
        if (!o->reference && (o->why = gpk_copy_verify(l, 2, whybuf[v], sizeof whybuf[v])))
            continue;
        o->bytes_per_s = 2.0 * 16.0 * l.n4 * it / (mv.ms * 1e-3);
        o->clk_mhz = mv.clk_mhz;
        if (!o->reference && o->bytes_per_s > best) {
            best = o->bytes_per_s;
            *m = mv;
            *bytes = 2.0 * 16.0 * l.n4 * it;
        }
    }
    gpk_copy_ref("cudaMemcpy_d2d_reference", b, a, sz);
    gpk_copy_ref("cudaMemcpy_d2d_reference_off1m2k", (char *)b + GPK_OFF_1M2K, a, sz);
    if (!big_why)
        gpk_copy_ref("cudaMemcpy_d2d_reference_4g", b4, a4, GPK_COPY_BIG);
    cudaFree(a4);
    cudaFree(b4);
    return best > 0 ? 0 : -1;
}

/* The bulk-copy path on small buffers (2 x 64 MB, 3 passes so every stage
 * wraps): 0 when every bulk variant copies correctly; run by gpupeak's probe
 * process so that a fault or a hang here cannot take the main run down. */
extern "C" int gpk_dev_probe_bulk(void)
{
    gpk_copy_launch l;
    const size_t sz = (size_t)64 << 20;
    char whybuf[160];
    float4 *a = NULL, *b = NULL;
    int rc = -1;
    GPK_CU(cudaMalloc(&a, sz), out);
    GPK_CU(cudaMalloc(&b, sz + GPK_COPY_SLACK), out);
    gpk_copy_fill<<<1024, 256>>>((uint4 *)a, sz / 16);
    GPK_CU(cudaGetLastError(), out);
    if (gpk_copy_alloc())
        goto out;
    rc = 0;
    for (int v = 0; v < GPK_NCOPYV; v++) {
        const char *why;
        if (gpk_copy_defs[v].type != GPK_CV_BULK)
            continue;
        if (!(why = gpk_copy_setup(l, v, a, b, sz)))
            why = gpk_copy_verify(l, 3, whybuf, sizeof whybuf);
        if (why) {
            fprintf(stderr, "gpupeak: probe: %s: %s\n", gpk_copy_defs[v].name, why);
            rc = -1;
        }
    }
out:
    cudaFree(a);
    cudaFree(b);
    return rc;
}

int gpk_copy_run(size_t sz, double target_ms, double *bytes, gpk_meas *m)
{
    gpk_copy_launch l;
    float4 *a = NULL, *b = NULL;
    int rc = -1;
    GPK_CU(cudaMalloc(&a, sz), out);
    GPK_CU(cudaMalloc(&b, sz + GPK_COPY_SLACK), out);
    gpk_copy_fill<<<1024, 256>>>((uint4 *)a, sz / 16); /* a pattern the check can see */
    GPK_CU(cudaGetLastError(), out);
    if (gpk_copy_all(l, a, b, sz, target_ms, bytes, m))
        goto out;
    for (int v = 0; v < gpk_ncopy; v++)
        fprintf(stderr, "gpupeak: dram_copy %-34s %.4g B/s%s%s\n", gpk_copy_res[v].name,
                gpk_copy_res[v].bytes_per_s, gpk_copy_res[v].why ? ": " : "",
                gpk_copy_res[v].why ? gpk_copy_res[v].why : "");
    rc = 0;
out:
    cudaFree(a);
    cudaFree(b);
    return rc;
}
