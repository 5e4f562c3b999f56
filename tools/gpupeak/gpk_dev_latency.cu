/* gpk_dev_latency.cu - the latency family: dependent chains through memory
 * (the memory lines of the latency table), the pointer chases of the
 * latency-versus-footprint curves (ordinary, .cg and constant loads), the
 * TLB chase, and the L2 single-load samples.  The TLB over separately
 * mapped chunks is gpk_dev_vmm.cu's. */
#include "gpk_dev.cuh"

/* Dependent chains through memory; one thread; a[] holds the next index. */
__global__ void gpk_lat_mem(int kind, const unsigned *a, unsigned *ag, int warm, int iters,
                            gpk_args p, unsigned *sink, unsigned long long *clk)
{
    __shared__ unsigned sm[1024];
    unsigned j = 0;
    if (kind == GPK_L_SHARED_LD || kind == GPK_L_ATOM_SHARED) {
        for (int k = 0; k < 1024; k++)
            sm[k] = (k + p.i0) & 1023; /* p.i0 = stride in words */
        __syncthreads();
    }
    unsigned long long c0 = 0, g0 = 0;
#define GPK_LATMEM_LOOP(STEP)                                                                      \
    for (int r = 0; r < 2; r++) {                                                                  \
        if (r == 1) {                                                                              \
            g0 = gpk_gtime();                                                                      \
            c0 = clock64();                                                                        \
        }                                                                                          \
        for (int i = 0; i < (r ? iters : warm); i++) {                                             \
            _Pragma("unroll") for (int u = 0; u < 256; u++) { STEP; }                             \
        }                                                                                          \
    }
    switch (kind) {
    case GPK_L_SHARED_LD:
        GPK_LATMEM_LOOP(j = *(volatile unsigned *)&sm[j]);
        break;
    case GPK_L_L1_LD:
        GPK_LATMEM_LOOP(j = __ldca(a + j));
        break;
    case GPK_L_L2_LD:
        GPK_LATMEM_LOOP(j = __ldcg(a + j));
        break;
    case GPK_L_ATOM_GLOBAL:
        GPK_LATMEM_LOOP(j = atomicAdd(ag + j, 0u));
        break;
    case GPK_L_ATOM_SHARED:
        GPK_LATMEM_LOOP(j = atomicAdd(&sm[j], 0u));
        break;
    }
    unsigned long long c1 = clock64(), g1 = gpk_gtime();
    clk[0] = c0;
    clk[1] = g0;
    clk[2] = c1;
    clk[3] = g1;
    if (j == p.sentinel)
        sink[0] = j;
}

/* Pointer chase for the latency-vs-footprint curves. */
__constant__ unsigned gpk_cchain[16384];

/* The constant-memory chase: each element holds the byte offset of the
 * next, so every step is one LDC with a register index (c[0x3][R]) and no
 * address arithmetic.  j starts at threadIdx.x x 4 (0: one thread), which
 * ptxas cannot treat as warp-uniform, so the loads stay LDC, not ULDC. */
__global__ void gpk_cchase(int warm, int n, gpk_args p, unsigned *sink, unsigned long long *clk)
{
    unsigned j = threadIdx.x * 4u;
    gpk_warm_then_timed(warm, n, clk, [&](int cnt) {
        for (int i = 0; i < cnt; i += 16) {
#pragma unroll
            for (int u = 0; u < 16; u++)
                j = *(const unsigned *)((const char *)gpk_cchain + j);
        }
    });
    if (j == p.sentinel)
        sink[0] = j;
}

__global__ void gpk_chase(int space, const unsigned *a, int warm, int n, gpk_args p,
                          unsigned *sink, unsigned long long *clk)
{
    unsigned j = 0;
    gpk_warm_then_timed(warm, n, clk, [&](int cnt) {
        if (space == GPK_C_CA) {
            for (int i = 0; i < cnt; i += 16) {
#pragma unroll
                for (int u = 0; u < 16; u++)
                    j = __ldca(a + j);
            }
        } else {
            for (int i = 0; i < cnt; i += 16) {
#pragma unroll
                for (int u = 0; u < 16; u++)
                    j = __ldcg(a + j);
            }
        }
    });
    if (j == p.sentinel)
        sink[0] = j;
}

/* Chain init on the device: element k*stride points to (k+1)*stride, wrapping. */
__global__ void gpk_chain_init(unsigned *a, size_t lines, size_t stride_words)
{
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < lines;
         k += (size_t)gridDim.x * blockDim.x)
        a[k * stride_words] = (unsigned)(((k + 1) % lines) * stride_words);
}

/* TLB chase: 64-bit pointers (no index arithmetic, no 4 GB limit).  Line k
 * lies in the k-th stride-sized block at offset (k mod 8192) x 256 (below
 * the stride, so one page per line), which spreads the lines over L2 sets;
 * it holds the address of line next[k] (a single cycle), or of line k+1
 * (wrapping) when next is NULL: pages in address order, which a
 * translation prefetcher or coalesced entries could hide. */
__global__ void gpk_tlb_init(char *base, size_t lines, size_t stride, const unsigned *next)
{
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < lines;
         k += (size_t)gridDim.x * blockDim.x) {
        const size_t n = next ? next[k] : (k + 1) % lines;
        const size_t off = (k % 8192) * 256 % stride, noff = (n % 8192) * 256 % stride;
        *(unsigned long long *)(base + k * stride + off) =
            (unsigned long long)(base + n * stride + noff);
    }
}

__global__ void gpk_tlb_chase(const unsigned long long *start, int warm, int n, gpk_args p,
                              unsigned *sink, unsigned long long *clk)
{
    const unsigned long long *q = start;
    gpk_warm_then_timed(warm, n, clk, [&](int cnt) {
        for (int i = 0; i < cnt; i += 8) {
#pragma unroll
            for (int u = 0; u < 8; u++)
                q = (const unsigned long long *)__ldcg(q);
        }
    });
    if ((unsigned)(size_t)q == p.sentinel)
        sink[0] = 1;
}

/* One thread times each load on its own: t0; load; store value (waits for it);
 * t1.  Near and far L2 partitions show as two clusters of times. */
__global__ void gpk_l2_each(const unsigned *a, int n, unsigned *out, int *smid)
{
    __shared__ unsigned idx[4096];
    __shared__ unsigned tv[4096];
    unsigned j = 0;
    /* the chain has exactly n lines: pass 0 warms them, pass 1 is kept */
    for (int r = 0; r < 2; r++) {
        for (int k = 0; k < n; k++) {
            unsigned t0 = (unsigned)clock();
            j = __ldcg(a + j);
            idx[k] = j;
            unsigned t1 = (unsigned)clock();
            tv[k] = t1 - t0;
        }
    }
    for (int k = 0; k < n; k++)
        out[k] = tv[k] + (idx[k] == 0xffffffffu); /* keeps idx[] live */
    *smid = (int)gpk_smid();
}

/* ------------------------------------------------------------- host ---- */

/* The memory chains of the latency table: shared memory, an L1 hit (4 KB),
 * an L2 hit (1 MB read with .cg), global and shared atomics; one launch,
 * its warm pass discarded on the device. */
struct gpk_latmem_launch : gpk_launch {
    int kind, warm;
    const unsigned *a;
    unsigned *ag;
    gpk_args p;
    void go(int iters)
    {
        gpk_lat_mem<<<1, 1>>>(kind, a, ag, warm, iters, p, (unsigned *)gpk_sink_d, gpk_clk_d);
    }
};

int gpk_lat_memchain(int kind, double *cycles, gpk_meas *m)
{
    gpk_latmem_launch l;
    unsigned *a = NULL, *ag = NULL;
    int rc = -1, iters;
    const size_t l1_words = 1024;           /* 4 KB: an L1 hit */
    const size_t l2_words = (1u << 20) / 4; /* 1 MB, read with .cg, which skips L1 */
    const size_t stride = 32;               /* 128 B: one line per step */
    GPK_CU(cudaMalloc(&a, l2_words * 4), out);
    GPK_CU(cudaMalloc(&ag, l1_words * 4), out);
    gpk_chain_init<<<64, 256>>>(a, (kind == GPK_L_L2_LD ? l2_words : l1_words) / stride, stride);
    gpk_chain_init<<<4, 256>>>(ag, l1_words / stride, stride);
    GPK_CU(cudaGetLastError(), out);
    l.kind = kind;
    l.a = a;
    l.ag = ag;
    l.p = gpk_default_args();
    l.p.i0 = 32; /* shared chain stride in words: 128 B */
    /* L2: the warm pass walks the whole 1 MB chain (8192 lines) first */
    iters = kind == GPK_L_L2_LD ? 32 : (kind == GPK_L_ATOM_GLOBAL ? 16 : 64);
    l.warm = kind == GPK_L_L2_LD ? 32 : 2;
    if (gpk_time_one(l, iters, &m->ms, &m->clk_mhz) ||
        gpk_clock_read(iters * 256.0, cycles, &m->clk_mhz))
        goto out;
    rc = 0;
out:
    cudaFree(a);
    cudaFree(ag);
    return rc;
}

static unsigned *gpk_chase_buf;
static size_t gpk_chase_cap;

extern "C" int gpk_dev_chase(int space, size_t footprint, size_t stride, double *cycles,
                             double *clk_mhz)
{
    const size_t lines = footprint / stride;
    const size_t sw = stride / 4;
    gpk_args p = gpk_default_args();
    int n, warm;
    if (lines < 1 || stride % 4)
        return -1;
    if (space == GPK_C_CONST) {
        unsigned *h = (unsigned *)malloc(sizeof(unsigned) * 16384);
        if (!h || footprint > 16384 * 4) {
            free(h);
            return -1;
        }
        memset(h, 0, sizeof(unsigned) * 16384);
        for (size_t k = 0; k < lines; k++) /* byte offsets (gpk_cchase) */
            h[k * sw] = (unsigned)(((k + 1) % lines) * stride);
        cudaError_t e = cudaMemcpyToSymbol(gpk_cchain, h, sizeof(unsigned) * 16384);
        free(h);
        GPK_CU(e, fail);
    } else {
        if (footprint > gpk_chase_cap) {
            cudaFree(gpk_chase_buf);
            gpk_chase_buf = NULL;
            gpk_chase_cap = 0;
            GPK_CU(cudaMalloc(&gpk_chase_buf, footprint), fail);
            gpk_chase_cap = footprint;
        }
        if (footprint / 4 > 0xffffffffu)
            return -1;
        gpk_chain_init<<<256, 256>>>(gpk_chase_buf, lines, sw);
        GPK_CU(cudaGetLastError(), fail);
    }
    /* one full pass to warm (capped), then a timed run of the same length */
    n = (int)(lines < 4096 ? 4096 : (lines > (1u << 20) ? (1u << 20) : lines));
    n = (n + 15) & ~15;
    warm = n;
    if (space == GPK_C_CONST)
        gpk_cchase<<<1, 1>>>(warm, n, p, (unsigned *)gpk_sink_d, gpk_clk_d);
    else
        gpk_chase<<<1, 1>>>(space, gpk_chase_buf, warm, n, p, (unsigned *)gpk_sink_d, gpk_clk_d);
    GPK_CU(cudaGetLastError(), fail);
    GPK_CU(cudaDeviceSynchronize(), fail);
    return gpk_clock_read(n, cycles, clk_mhz);
fail:
    return -1;
}

/* TLB: one buffer of buf_bytes, allocated on the first call and kept
 * (footprints only grow inside one sweep; a larger request reallocates);
 * the random visiting order's next[] array on the device. */
static char *gpk_tlb_buf;
static size_t gpk_tlb_cap;
static unsigned *gpk_tlb_next_d;
static size_t gpk_tlb_next_cap;

extern "C" void gpk_dev_tlb_free(void)
{
    cudaFree(gpk_tlb_buf);
    gpk_tlb_buf = NULL;
    gpk_tlb_cap = 0;
    cudaFree(gpk_tlb_next_d);
    gpk_tlb_next_d = NULL;
    gpk_tlb_next_cap = 0;
}
/* The random visiting order: next[k] for lines lines, one cycle through
 * all of them (Sattolo's shuffle, fixed seed: the same order every run). */
static int gpk_tlb_order(size_t lines, const unsigned **next_d)
{
    unsigned *h = NULL;
    unsigned long long x = 0x2545f4914f6cdd1dull;
    *next_d = NULL;
    if (lines > 0xffffffffu)
        return -1;
    if (lines > gpk_tlb_next_cap) {
        cudaFree(gpk_tlb_next_d);
        gpk_tlb_next_d = NULL;
        gpk_tlb_next_cap = 0;
        GPK_CU(cudaMalloc(&gpk_tlb_next_d, lines * sizeof(unsigned)), fail);
        gpk_tlb_next_cap = lines;
    }
    h = (unsigned *)malloc(lines * sizeof(unsigned));
    if (!h)
        goto fail;
    for (size_t k = 0; k < lines; k++)
        h[k] = (unsigned)k;
    for (size_t i = lines - 1; i > 0; i--) { /* j < i: the result is one cycle */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const size_t j = (size_t)(x % i);
        const unsigned t = h[i];
        h[i] = h[j];
        h[j] = t;
    }
    GPK_CU(cudaMemcpy(gpk_tlb_next_d, h, lines * sizeof(unsigned), cudaMemcpyHostToDevice), fail);
    free(h);
    *next_d = gpk_tlb_next_d;
    return 0;
fail:
    free(h);
    return -1;
}

/* The chase over footprint bytes of base (lines one stride apart), pages
 * in address order (order 0) or in a random single cycle (order 1). */
int gpk_tlb_chase_at(char *base, size_t footprint, size_t stride, int order, double *cycles,
                     double *clk_mhz)
{
    const size_t lines = footprint / stride;
    const unsigned *next = NULL;
    gpk_args p = gpk_default_args();
    int n;
    if (order && gpk_tlb_order(lines, &next))
        return -1;
    gpk_tlb_init<<<128, 256>>>(base, lines, stride, next);
    GPK_CU(cudaGetLastError(), fail);
    /* every page once per pass; at least 4096 loads; first pass discarded */
    n = (int)(lines < 4096 ? 4096 : (lines > (1u << 20) ? (1u << 20) : lines));
    n = (n + 7) & ~7;
    gpk_tlb_chase<<<1, 1>>>((const unsigned long long *)base, n, n, p, (unsigned *)gpk_sink_d,
                            gpk_clk_d);
    GPK_CU(cudaGetLastError(), fail);
    GPK_CU(cudaDeviceSynchronize(), fail);
    return gpk_clock_read(n, cycles, clk_mhz);
fail:
    return -1;
}

extern "C" int gpk_dev_tlb_chase(size_t footprint, size_t stride, size_t buf_bytes, int order,
                                 double *cycles, double *clk_mhz)
{
    if (footprint / stride < 2 || stride < 256 || stride % 256 || footprint > buf_bytes)
        return -1;
    if (buf_bytes > gpk_tlb_cap) {
        gpk_dev_tlb_free();
        GPK_CU(cudaMalloc(&gpk_tlb_buf, buf_bytes), fail);
        gpk_tlb_cap = buf_bytes;
    }
    return gpk_tlb_chase_at(gpk_tlb_buf, footprint, stride, order, cycles, clk_mhz);
fail:
    return -1;
}

extern "C" int gpk_dev_l2_samples(size_t footprint, int n, uint32_t *cycles, int *smid)
{
    const size_t stride = 128, lines = footprint / stride;
    unsigned *a = NULL, *out = NULL;
    int *sm = NULL, rc = -1;
    if (n > 4096 || (size_t)n > lines)
        return -1;
    GPK_CU(cudaMalloc(&a, footprint), out);
    GPK_CU(cudaMalloc(&out, n * sizeof(unsigned)), out);
    GPK_CU(cudaMalloc(&sm, sizeof(int)), out);
    gpk_chain_init<<<64, 256>>>(a, lines, stride / 4);
    gpk_l2_each<<<1, 1>>>(a, n, out, sm);
    GPK_CU(cudaGetLastError(), out);
    GPK_CU(cudaMemcpy(cycles, out, n * sizeof(unsigned), cudaMemcpyDeviceToHost), out);
    GPK_CU(cudaMemcpy(smid, sm, sizeof(int), cudaMemcpyDeviceToHost), out);
    rc = 0;
out:
    cudaFree(a);
    cudaFree(out);
    cudaFree(sm);
    return rc;
}
