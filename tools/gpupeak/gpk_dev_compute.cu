/* gpk_dev_compute.cu - the compute family: instruction throughput (many
 * independent chains in a full, single-wave grid) and instruction latency
 * (one thread, one dependent chain), for every GPK_TPUT and CHAIN line of
 * metrics/gpupeak.def.  The wgmma rates are in gpk_wgmma.cu (sm_90a). */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "gpk_dev.cuh"

#define GPK_UNR 16 /* steps of every chain per loop trip */

/* ---------------------------------------------------------------- ops ---- */
/* Each op: T (chain state), init, step (one dependent operation per chain),
 * fold (combine chains to one 32-bit pattern for the sentinel test). */

struct OpFfma {
    typedef float T;
    static __device__ void init(T &x, int i, const gpk_args &p) { x = p.f0 * (float)i; }
    static __device__ void step(T &x, const gpk_args &p) { x = fmaf(x, p.f1, p.f0); }
    static __device__ unsigned fold(T x) { return __float_as_uint(x); }
};
struct OpDfma {
    typedef double T;
    static __device__ void init(T &x, int i, const gpk_args &p) { x = p.d0 * (double)i; }
    static __device__ void step(T &x, const gpk_args &p) { x = fma(x, p.d1, p.d0); }
    static __device__ unsigned fold(T x) { return (unsigned)__double_as_longlong(x); }
};
/* FMA on a pair of 16-bit lanes: TYPE the pair, CVT its conversion from two
 * floats. */
#define GPK_FMA2_OP(NAME, TYPE, CVT)                                                               \
    struct NAME {                                                                                  \
        typedef TYPE T;                                                                            \
        static __device__ void init(T &x, int i, const gpk_args &p)                                \
        {                                                                                          \
            x = CVT(p.f0 * i, p.f0 * (i + 1));                                                     \
        }                                                                                          \
        static __device__ void step(T &x, const gpk_args &p)                                       \
        {                                                                                          \
            x = __hfma2(x, CVT(p.f1, p.f1), CVT(p.f0, p.f0));                                      \
        }                                                                                          \
        static __device__ unsigned fold(T x) { return *(unsigned *)&x; }                           \
    };
GPK_FMA2_OP(OpHfma2, __half2, __floats2half2_rn)
GPK_FMA2_OP(OpBfma2, __nv_bfloat162, __floats2bfloat162_rn)
/* Integer add: a pair of chains feeding each other (a += b; b += a), so no
 * sum of a runtime constant can be folded into one multiply. Two adds/step. */
struct OpIadd {
    struct T {
        int a, b;
    };
    static __device__ void init(T &x, int i, const gpk_args &p)
    {
        x.a = p.i0 + i;
        x.b = p.i1 ^ i;
    }
    static __device__ void step(T &x, const gpk_args &p)
    {
        x.a += x.b;
        x.b += x.a;
    }
    static __device__ unsigned fold(T x) { return (unsigned)(x.a ^ x.b); }
};
struct OpImad {
    typedef int T;
    static __device__ void init(T &x, int i, const gpk_args &p) { x = p.i0 + i; }
    static __device__ void step(T &x, const gpk_args &p) { x = x * p.i1 + p.i0; }
    static __device__ unsigned fold(T x) { return (unsigned)x; }
};
/* The SFU ops: one PTX instruction on a float chain. */
#define GPK_SFU_OP(NAME, INIT, INSTR)                                                              \
    struct NAME {                                                                                  \
        typedef float T;                                                                           \
        static __device__ void init(T &x, int i, const gpk_args &p) { x = INIT; }                  \
        static __device__ void step(T &x, const gpk_args &p) { asm volatile(INSTR : "+f"(x)); }    \
        static __device__ unsigned fold(T x) { return __float_as_uint(x); }                        \
    };
GPK_SFU_OP(OpRsq, p.f1 + i, "rsqrt.approx.ftz.f32 %0, %0;")
GPK_SFU_OP(OpSin, p.f1 + i, "sin.approx.ftz.f32 %0, %0;")
GPK_SFU_OP(OpEx2, -p.f1 * i, "ex2.approx.ftz.f32 %0, %0;")

/* Warp-level mma.sync: one chain = one 16x8 f32 (or s32) accumulator. */
struct MmaAcc {
    float c[4];
};
#define GPK_MMA_OP(NAME, SHAPE_TYPES)                                                              \
    struct NAME {                                                                                  \
        typedef MmaAcc T;                                                                          \
        static __device__ void init(T &x, int i, const gpk_args &p)                                \
        {                                                                                          \
            for (int k = 0; k < 4; k++)                                                            \
                x.c[k] = p.f0 * (i + k);                                                           \
        }                                                                                          \
        static __device__ void step(T &x, const gpk_args &p)                                       \
        {                                                                                          \
            asm volatile("mma.sync.aligned." SHAPE_TYPES                                           \
                         " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                  \
                         : "+f"(x.c[0]), "+f"(x.c[1]), "+f"(x.c[2]), "+f"(x.c[3])                  \
                         : "r"(p.a0), "r"(p.a1), "r"(p.a2), "r"(p.a3), "r"(p.b0), "r"(p.b1));      \
        }                                                                                          \
        static __device__ unsigned fold(T x)                                                       \
        {                                                                                          \
            return __float_as_uint(x.c[0] + x.c[1] + x.c[2] + x.c[3]);                             \
        }                                                                                          \
    };
GPK_MMA_OP(OpMmaF16, "m16n8k16.row.col.f32.f16.f16.f32")
GPK_MMA_OP(OpMmaBf16, "m16n8k16.row.col.f32.bf16.bf16.f32")
GPK_MMA_OP(OpMmaTf32, "m16n8k8.row.col.f32.tf32.tf32.f32")
/* No fp8 mma.sync op: on sm_90 ptxas lowers e4m3 mma.sync to conversions and
 * f16 HMMA, and hoisted the loop-invariant product out of the loop. */
struct OpMmaInt8 {
    struct T {
        int c[4];
    };
    static __device__ void init(T &x, int i, const gpk_args &p)
    {
        for (int k = 0; k < 4; k++)
            x.c[k] = p.i0 + i + k;
    }
    static __device__ void step(T &x, const gpk_args &p)
    {
        asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"
                     " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+r"(x.c[0]), "+r"(x.c[1]), "+r"(x.c[2]), "+r"(x.c[3])
                     : "r"(p.a0), "r"(p.a1), "r"(p.a2), "r"(p.a3), "r"(p.b0), "r"(p.b1));
    }
    static __device__ unsigned fold(T x) { return (unsigned)(x.c[0] ^ x.c[1] ^ x.c[2] ^ x.c[3]); }
};

/* Throughput: CH independent chains per thread, GPK_UNR steps per loop. */
template <class OP, int CH>
__global__ void __launch_bounds__(GPK_TPB) gpk_tput(int iters, gpk_args p, unsigned *sink,
                                                    unsigned long long *clk)
{
    typename OP::T x[CH];
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
    for (int c = 0; c < CH; c++)
        OP::init(x[c], tid * CH + c, p);
    GPK_CLK_BEGIN(clk);
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < GPK_UNR; u++) {
#pragma unroll
            for (int c = 0; c < CH; c++)
                OP::step(x[c], p);
        }
    }
    GPK_CLK_END(clk);
    unsigned f = 0;
#pragma unroll
    for (int c = 0; c < CH; c++)
        f ^= OP::fold(x[c]);
    if (f == p.sentinel)
        sink[tid] = f;
}

/* Latency: one thread, one chain, 256 dependent steps per loop trip. */
template <class OP>
__global__ void gpk_lat(int iters, gpk_args p, unsigned *sink, unsigned long long *clk)
{
    typename OP::T x;
    OP::init(x, threadIdx.x, p);
    GPK_CLK_BEGIN(clk);
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int u = 0; u < 256; u++)
            OP::step(x, p);
    }
    GPK_CLK_END(clk);
    unsigned f = OP::fold(x);
    if (f == p.sentinel)
        sink[0] = f;
}

/* Latency-only ops (written in PTX so NVVM cannot reassociate the chain). */
#define GPK_LAT_INT_OP(NAME, TYPE, INSTR)                                                          \
    struct NAME {                                                                                  \
        typedef TYPE T;                                                                            \
        static __device__ void init(T &x, int i, const gpk_args &p) { x = p.i0 + i; }             \
        static __device__ void step(T &x, const gpk_args &p)                                       \
        {                                                                                          \
            asm volatile(INSTR : "+r"(x) : "r"(p.i1));                                             \
        }                                                                                          \
        static __device__ unsigned fold(T x) { return (unsigned)x; }                               \
    };
GPK_LAT_INT_OP(LatIadd, int, "add.s32 %0, %0, %1;")
GPK_LAT_INT_OP(LatImul, int, "mul.lo.s32 %0, %0, %1;")
GPK_LAT_INT_OP(LatShl, unsigned, "shf.l.wrap.b32 %0, %0, %0, %1;")
/* float -> int -> float: reports the latency of the pair F2I + I2F. */
struct LatCvt {
    typedef float T;
    static __device__ void init(T &x, int i, const gpk_args &p) { x = p.f0 * i + 3.0f; }
    static __device__ void step(T &x, const gpk_args &p)
    {
        int t;
        asm volatile("cvt.rni.s32.f32 %0, %1;" : "=r"(t) : "f"(x));
        asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(x) : "r"(t));
    }
    static __device__ unsigned fold(T x) { return __float_as_uint(x); }
};
struct LatHfma2 {
    typedef __half2 T;
    static __device__ void init(T &x, int i, const gpk_args &p)
    {
        x = __floats2half2_rn(p.f0 * i, p.f0);
    }
    static __device__ void step(T &x, const gpk_args &p)
    {
        unsigned &r = *(unsigned *)&x;
        unsigned m = p.a0, a = p.a1;
        asm volatile("fma.rn.f16x2 %0, %0, %1, %2;" : "+r"(r) : "r"(m), "r"(a));
    }
    static __device__ unsigned fold(T x) { return *(unsigned *)&x; }
};
/* ------------------------------------------------------------- host ---- */

template <class OP, int CH> struct gpk_tput_launch : gpk_launch {
    gpk_args p;
    int blocks;
    void go(int iters)
    {
        gpk_tput<OP, CH><<<blocks, GPK_TPB>>>(iters, p, (unsigned *)gpk_sink_d, gpk_clk_d);
    }
};

template <class OP, int CH>
static int gpk_run_tput(double target_ms, double per_step, double *count, gpk_meas *m)
{
    gpk_tput_launch<OP, CH> l;
    int iters = 0;
    l.p = gpk_default_args();
    l.blocks = gpk_dev.sm_count * GPK_BPS;
    if (gpk_time(l, target_ms, 16, &iters, m))
        return -1;
    *count = (double)l.blocks * GPK_TPB * iters * GPK_UNR * CH * per_step;
    return 0;
}

/* One case per GPK_TPUT line: its run column says how. */
#define GPK_TPUT_RUN_CHAINS(OP, CH, PER_STEP) gpk_run_tput<OP, CH>(target_ms, PER_STEP, count, m)
#define GPK_TPUT_RUN_WGMMA(FLOP) gpk_wgmma_run(kind, target_ms, count, m)
#define GPK_TPUT_RUN_NONE 1

extern "C" int gpk_dev_tput(int kind, double target_ms, double *count, gpk_meas *m)
{
    switch (kind) {
#define GPK_TPUT(id, key, unit, per_count, theo, quick, sass, skip, peak, run)                    \
    case GPK_T_##id:                                                                               \
        return GPK_TPUT_RUN_##run;
#include "metrics/catalog/gpupeak.def"
    }
    return 1;
}

template <class OP> struct gpk_lat_launch : gpk_launch {
    gpk_args p;
    void go(int iters) { gpk_lat<OP><<<1, 1>>>(iters, p, (unsigned *)gpk_sink_d, gpk_clk_d); }
};

template <class OP> static int gpk_run_lat(double *cycles, gpk_meas *m)
{
    gpk_lat_launch<OP> l;
    int iters = 0;
    l.p = gpk_default_args();
    l.p.a0 = 0x3bff3bffu; /* half2 multiplier just under 1 */
    l.p.a1 = 0x00010001u;
    /* 2 ms is enough for the globaltimer (1 us steps) to read the clock */
    if (gpk_time(l, 2.0, 8, &iters, m))
        return -1;
    /* The last timed launch is not always the median; run once more at the
     * same iters to read cycles and clock from one launch. */
    if (gpk_time_one(l, iters, &m->ms, &m->clk_mhz))
        return -1;
    return gpk_clock_read(iters * 256.0, cycles, &m->clk_mhz);
}

/* One case per GPK_LAT line. */
#define GPK_LAT_RUN_CHAIN(OP) gpk_run_lat<OP>(cycles, m)
#define GPK_LAT_RUN_MEMCHAIN gpk_lat_memchain(kind, cycles, m)

extern "C" int gpk_dev_lat(int kind, double *cycles, gpk_meas *m)
{
    switch (kind) {
#define GPK_LAT(id, key, pub_lo, pub_hi, what, skip, run)                                         \
    case GPK_L_##id:                                                                               \
        return GPK_LAT_RUN_##run;
#include "metrics/catalog/gpupeak.def"
    }
    return -1;
}
