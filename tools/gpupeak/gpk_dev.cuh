/* gpk_dev.cuh - what gpupeak's device files share (gpk_dev.cu and the
 * families: gpk_dev_compute.cu, gpk_dev_memory.cu, gpk_dev_copy.cu,
 * gpk_dev_latency.cu, gpk_dev_vmm.cu, gpk_dev_xsm.cu).
 *
 * Rules every kernel follows, so that a figure can be trusted:
 *  - operands come from kernel parameters (runtime values), so nothing folds;
 *  - results are stored only when they equal a runtime sentinel, a condition
 *    that never holds, so the work is live but nothing is written;
 *  - thread 0 of block 0 reads clock64 and %globaltimer at its start and end,
 *    so every measurement carries the SM clock it ran at;
 *  - throughput grids are one wave (a few blocks per SM), so block 0 lives as
 *    long as the kernel.
 * Clocks are never set; the card is measured as found. */
#ifndef GPK_DEV_CUH
#define GPK_DEV_CUH

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpk_device.h"

/* One checked runtime call: on failure one line naming the call and the
 * error, then goto label. */
#define GPK_CU(call, label)                                                                        \
    do {                                                                                           \
        cudaError_t gpk_e_ = (call);                                                               \
        if (gpk_e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "gpupeak: %s failed: %s (%s:%d)\n", #call,                             \
                    cudaGetErrorString(gpk_e_), __FILE__, __LINE__);                               \
            goto label;                                                                            \
        }                                                                                          \
    } while (0)

#define GPK_SENTINEL 0x7fbadbadu /* a NaN payload no chain produces */
#define GPK_TPB 256              /* threads per block for throughput kernels */
#define GPK_BPS 4                /* blocks per SM: 1024 threads, one wave */

/* The operands of every kernel (gpk_default_args()): runtime values, so
 * nothing folds, and the sentinel no result equals. */
struct gpk_args {
    float f0, f1;
    double d0, d1;
    int i0, i1;
    unsigned sentinel;
    unsigned a0, a1, a2, a3, b0, b1; /* matrix operand bits */
};

/* ------------------------------------------------------ on the device ---- */

static __device__ __forceinline__ unsigned long long gpk_gtime(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

static __device__ __forceinline__ unsigned gpk_smid(void)
{
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

/* The clock words of a launch, read by thread 0 of block 0 at the start
 * and the end of the timed part: clk[0..3] = clock0, gtime0, clock1, gtime1. */
#define GPK_CLK_BEGIN(clk)                                                                         \
    unsigned long long gpk_c0_ = 0, gpk_g0_ = 0;                                                   \
    const bool gpk_lead_ = (threadIdx.x == 0 && blockIdx.x == 0);                                 \
    if (gpk_lead_) {                                                                               \
        gpk_g0_ = gpk_gtime();                                                                     \
        gpk_c0_ = clock64();                                                                       \
    }
#define GPK_CLK_END(clk)                                                                           \
    if (gpk_lead_) {                                                                               \
        unsigned long long c1 = clock64(), g1 = gpk_gtime();                                       \
        (clk)[0] = gpk_c0_;                                                                        \
        (clk)[1] = gpk_g0_;                                                                        \
        (clk)[2] = c1;                                                                             \
        (clk)[3] = g1;                                                                             \
    }

/* The grid-stride kernels: passes over n4 float4s, every thread starting at
 * its index in the grid and stepping U grids, trip(i, stride) per step;
 * timed by thread 0 of block 0. */
template <int U, class TRIP>
static __device__ __forceinline__ void gpk_grid_stride(size_t n4, int passes,
                                                       unsigned long long *clk, TRIP trip)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    GPK_CLK_BEGIN(clk);
    for (int q = 0; q < passes; q++) {
        for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += U * stride)
            trip(i, stride);
    }
    GPK_CLK_END(clk);
}

/* The single-thread chases: pass(steps) runs twice, first over warm steps
 * (the caches and TLBs fill), then over n steps, timed: clock64 and
 * %globaltimer at the start of the timed pass and at its end go to
 * clk[0..3]. */
template <class PASS>
static __device__ __forceinline__ void gpk_warm_then_timed(int warm, int n, unsigned long long *clk,
                                                           PASS pass)
{
    unsigned long long c0 = 0, g0 = 0;
    for (int r = 0; r < 2; r++) {
        if (r == 1) {
            g0 = gpk_gtime();
            c0 = clock64();
        }
        pass(r ? n : warm);
    }
    unsigned long long c1 = clock64(), g1 = gpk_gtime();
    clk[0] = c0;
    clk[1] = g0;
    clk[2] = c1;
    clk[3] = g1;
}

/* --------------------------------------------------------- on the host ---- */

/* The device opened by gpk_dev_open(), and the buffers every launch uses. */
extern gpk_devinfo gpk_dev;
extern unsigned long long *gpk_clk_d; /* [4]: clock0, gtime0, clock1, gtime1 */
extern void *gpk_sink_d;              /* never written in practice */
extern cudaEvent_t gpk_ev0, gpk_ev1;

/* The operands every kernel gets: small non-zero numbers, the sentinel. */
gpk_args gpk_default_args(void);

/* A launch as a callable, so one timing routine serves every kernel. */
struct gpk_launch {
    virtual void go(int iters) = 0;
};

/* Times one launch: events for the duration, clock64/globaltimer for the clock. */
int gpk_time_one(gpk_launch &l, int iters, double *ms, double *mhz);
/* Calibrates iters so that a launch takes about target_ms, then returns the
 * median of 5 launches (and that launch's clock).  *iters_out: iters used. */
int gpk_time(gpk_launch &l, double target_ms, int iters0, int *iters_out, gpk_meas *m);
/* Reads the clock words of the last launch (after it finished): cycles per
 * operation over ops operations (cycles NULL: not wanted) and the SM clock
 * in MHz (NaN when the globaltimer did not advance). */
int gpk_clock_read(double ops, double *cycles, double *mhz);
int gpk_cmp_dbl(const void *a, const void *b);

/* Across the families.  The wgmma rates (gpk_wgmma.cu, sm_90a); 1 for a
 * kind that is not a wgmma one. */
extern "C" int gpk_wgmma_run(int kind, double target_ms, double *count, gpk_meas *m);
/* The memory chains of the latency table (gpk_dev_latency.cu). */
int gpk_lat_memchain(int kind, double *cycles, gpk_meas *m);
/* The DRAM copy: every copy variant over buffers of sz bytes, the best
 * checked one as the peak (gpk_dev_copy.cu). */
int gpk_copy_run(size_t sz, double target_ms, double *bytes, gpk_meas *m);
/* The TLB chase over footprint bytes of base (gpk_dev_latency.cu). */
int gpk_tlb_chase_at(char *base, size_t footprint, size_t stride, int order, double *cycles,
                     double *clk_mhz);

#endif
