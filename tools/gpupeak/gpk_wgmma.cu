/* gpk_wgmma.cu - Hopper warpgroup matrix throughput (sm_90a only).
 *
 * Each warpgroup (4 warps) issues wgmma.mma_async m64n256kK with A and B
 * read from shared memory through descriptors (no swizzle, K-major core
 * matrices), accumulating into 128 f32 registers per thread; groups of 4 are
 * committed and at most one group is left in flight, the pattern of a GEMM
 * main loop.  The operands are small non-zero numbers; the results are kept
 * live by the sentinel store as everywhere in gpupeak. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpk_device.h"

#define GPK_WG_SMEM 32768
#define GPK_WG_THREADS 256 /* two warpgroups per block, one block per SM */
#define GPK_WG_PER_GROUP 4

/* One warpgroup instruction, d += A x B: 128 f32 accumulators per thread,
 * A and B by descriptor (%128, %129), d scaled by the predicate set from
 * scale_d, then the immediates: the scales of A and B, and for f16 and bf16
 * (which can transpose) the two transpose flags. */
#define GPK_WG_ACC "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}"
#define GPK_WG_D "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
#define GPK_WGMMA_FN(NAME, INSTR, IMM, ...)                                                        \
    static __device__ __forceinline__ void NAME(float(&d)[128], uint64_t da, uint64_t db,        \
                                                int scale_d)                                       \
    {                                                                                              \
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n" INSTR " " GPK_WG_ACC           \
                     ", %128, %129, p, " IMM ";\n}\n"                                              \
                     : GPK_WG_D                                                                    \
                     : "l"(da), "l"(db), "r"(scale_d), __VA_ARGS__);                               \
    }
GPK_WGMMA_FN(gpk_wgmma_f16, "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16",
             "%131, %132, %133, %134", "n"(1), "n"(1), "n"(0), "n"(0))
GPK_WGMMA_FN(gpk_wgmma_bf16, "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16",
             "%131, %132, %133, %134", "n"(1), "n"(1), "n"(0), "n"(0))
GPK_WGMMA_FN(gpk_wgmma_tf32, "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32", "%131, %132",
             "n"(1), "n"(1))
GPK_WGMMA_FN(gpk_wgmma_fp8, "wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3", "%131, %132",
             "n"(1), "n"(1))

/* Shared-memory matrix descriptor: start address, leading and stride byte
 * offsets (all >> 4), no swizzle. */
static __device__ __forceinline__ uint64_t gpk_desc(const void *p, unsigned lbo, unsigned sbo)
{
    uint64_t a = (uint64_t)(((unsigned)__cvta_generic_to_shared(p) & 0x3ffff) >> 4);
    return a | ((uint64_t)((lbo >> 4) & 0x3fff) << 16) | ((uint64_t)((sbo >> 4) & 0x3fff) << 32);
}

template <int KIND>
__global__ void __launch_bounds__(GPK_WG_THREADS, 1)
    gpk_wgmma_kernel(int iters, unsigned fill, unsigned sentinel, unsigned *sink,
                     unsigned long long *clk)
{
    extern __shared__ __align__(1024) unsigned char gpk_wsm[];
    float d[128];
    for (int k = threadIdx.x; k < GPK_WG_SMEM / 4; k += blockDim.x)
        ((unsigned *)gpk_wsm)[k] = fill ^ (k & 0x00070007u);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 128; k++)
        d[k] = 0.f;
    const int wg = threadIdx.x / 128;
    const uint64_t da = gpk_desc(gpk_wsm + wg * 4096, 128, 256);
    const uint64_t db = gpk_desc(gpk_wsm + 8192 + wg * 8192, 128, 256);
    unsigned long long c0 = 0, g0 = 0;
    const bool lead = threadIdx.x == 0 && blockIdx.x == 0;
    if (lead) {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
        c0 = clock64();
    }
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < GPK_WG_PER_GROUP; u++) {
            if (KIND == GPK_T_WGMMA_F16)
                gpk_wgmma_f16(d, da, db, 1);
            else if (KIND == GPK_T_WGMMA_BF16)
                gpk_wgmma_bf16(d, da, db, 1);
            else if (KIND == GPK_T_WGMMA_TF32)
                gpk_wgmma_tf32(d, da, db, 1);
            else
                gpk_wgmma_fp8(d, da, db, 1);
        }
        asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
        asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory");
    }
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    if (lead) {
        unsigned long long c1 = clock64(), g1;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
        clk[0] = c0;
        clk[1] = g0;
        clk[2] = c1;
        clk[3] = g1;
    }
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < 128; k++)
        s += d[k];
    if (__float_as_uint(s) == sentinel)
        sink[threadIdx.x] = __float_as_uint(s);
}

static int gpk_wg_check(cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    fprintf(stderr, "gpupeak: %s failed: %s\n", what, cudaGetErrorString(e));
    return -1;
}

template <int KIND>
static int gpk_wg_launch(int blocks, int iters, unsigned fill, unsigned *sink,
                         unsigned long long *clk, cudaEvent_t e0, cudaEvent_t e1, double *ms,
                         double *mhz)
{
    unsigned long long c[4];
    float f = 0;
    cudaEventRecord(e0);
    gpk_wgmma_kernel<KIND><<<blocks, GPK_WG_THREADS, GPK_WG_SMEM>>>(iters, fill, 0x7fbadbadu,
                                                                     sink, clk);
    if (gpk_wg_check(cudaGetLastError(), "wgmma launch"))
        return -1;
    cudaEventRecord(e1);
    if (gpk_wg_check(cudaEventSynchronize(e1), "wgmma kernel"))
        return -1;
    cudaEventElapsedTime(&f, e0, e1);
    if (gpk_wg_check(cudaMemcpy(c, clk, sizeof c, cudaMemcpyDeviceToHost), "clock copy"))
        return -1;
    *ms = f;
    *mhz = c[3] > c[1] ? (double)(c[2] - c[0]) / (double)(c[3] - c[1]) * 1e3 : NAN;
    return 0;
}

template <int KIND>
static int gpk_wg_run(double target_ms, double flop_per_inst, double *count, gpk_meas *m)
{
    int sms = 0, iters = 16, rc = -1;
    unsigned *sink = NULL;
    unsigned long long *clk = NULL;
    cudaEvent_t e0 = NULL, e1 = NULL;
    double ms[5], mhz[5], t = 0, c = 0;
    /* small non-zero operands: 0.5-ish in f16/bf16/fp8 lanes, tiny in tf32 */
    const unsigned fill = KIND == GPK_T_WGMMA_F16    ? 0x38003800u
                          : KIND == GPK_T_WGMMA_BF16 ? 0x3f003f00u
                          : KIND == GPK_T_WGMMA_TF32 ? 0x3f000000u
                                                     : 0x30303030u;
    if (gpk_wg_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attr") ||
        gpk_wg_check(cudaMalloc(&sink, 4096), "cudaMalloc") ||
        gpk_wg_check(cudaMalloc(&clk, 32), "cudaMalloc") ||
        gpk_wg_check(cudaEventCreate(&e0), "event") || gpk_wg_check(cudaEventCreate(&e1), "event"))
        goto out;
    for (int k = 0; k < 2; k++)
        if (gpk_wg_launch<KIND>(sms, iters, fill, sink, clk, e0, e1, &t, &c))
            goto out;
    if (t > 0) {
        double s = target_ms / t * iters;
        iters = s > 1e8 ? 100000000 : (s < 1 ? 1 : (int)s);
    }
    gpk_measured_range(1);
    for (int r = 0; r < 5; r++)
        if (gpk_wg_launch<KIND>(sms, iters, fill, sink, clk, e0, e1, &ms[r], &mhz[r])) {
            gpk_measured_range(0);
            goto out;
        }
    gpk_measured_range(0);
    {
        /* median of five by duration */
        int idx[5] = {0, 1, 2, 3, 4};
        for (int a = 0; a < 5; a++)
            for (int b = a + 1; b < 5; b++)
                if (ms[idx[b]] < ms[idx[a]]) {
                    int tmp = idx[a];
                    idx[a] = idx[b];
                    idx[b] = tmp;
                }
        m->ms = ms[idx[2]];
        m->clk_mhz = mhz[idx[2]];
    }
    *count = (double)sms * (GPK_WG_THREADS / 128) * iters * GPK_WG_PER_GROUP * flop_per_inst;
    rc = 0;
out:
    cudaFree(sink);
    cudaFree(clk);
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    return rc;
}

/* One case per GPK_TPUT line of metrics/catalog/gpupeak.def; a WGMMA line runs the
 * kernel of its kind (a compile-time constant: it picks the instruction). */
#define GPK_WG_RUN_WGMMA(FLOP) return gpk_wg_run<K>(target_ms, FLOP, count, m)
#define GPK_WG_RUN_CHAINS(...) break
#define GPK_WG_RUN_NONE break

extern "C" int gpk_wgmma_run(int kind, double target_ms, double *count, gpk_meas *m)
{
    switch (kind) {
#define GPK_TPUT(id, key, unit, per_count, theo, quick, sass, skip, peak, run)                    \
    case GPK_T_##id: {                                                                             \
        enum { K = GPK_T_##id };                                                                   \
        GPK_WG_RUN_##run;                                                                          \
    }
#include "metrics/catalog/gpupeak.def"
    }
    return 1;
}
