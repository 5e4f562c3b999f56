/* gpupeak.c - measures the GPU's real peaks, latencies and cache geometry and
 * writes DIR/peaks.json (read by the roofline), DIR/peaks.txt and, in the
 * full run, SVG plots and the raw curves.  See docs/gpupeak.md.
 *
 *   gpupeak [--quick] [--out DIR]
 *
 * What each test is, its theoretical rate per clock per SM, and the published
 * figures it is checked against live in the tables below (data, not code). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpk_device.h"
#include "gpk_json.h"
#include "gpk_steps.h"
#include "gpk_svg.h"

/* ------------------------------------------------------------ tables ---- */

typedef struct gpk_tput_def {
    const char *key;   /* JSON key */
    int kind;          /* enum gpk_tput_kind */
    const char *unit;  /* flop/s or op/s */
    double per_count;  /* unit per counted operation (2 for an FMA) */
    double theo;       /* theoretical unit per clock per SM on sm_90; NAN: none */
    int quick;         /* measured by --quick (the roofline's peaks) */
    const char *instr; /* the SASS instruction the kernel is meant to run */
    const char *skip;  /* non-NULL: not measured, and why */
} gpk_tput_def;

/* Theoretical per-SM rates of sm_90 (H100 whitepaper): 128 FP32, 64 FP64,
 * 64 INT32 lanes, 16 SFU lanes; FP16/BF16 x2 at twice FP32; dense tensor
 * 1024 FP16 FMA per clock per SM (989 TFLOP/s = 132 SMs x 1830 MHz x 4096).
 * Integer add: ptxas issues half the adds as IADD3 (ALU pipe, 64 lanes) and
 * half as IMAD.IADD (FMA pipe, 64 lanes), so the ceiling for adds is 128. */
#define GPK_FP8_MMA_SYNC_WHY                                                                       \
    "mma.sync with e4m3 has no sm_90 instruction: ptxas lowers it to F2FP conversions and f16 "   \
    "HMMA, and with loop-invariant operands hoisted the product out of the loop (SASS showed "    \
    "FADDs), so no honest figure; see wgmma_fp8"
static const gpk_tput_def gpk_tputs[] = {
    {"fp32_fma", GPK_T_FFMA, "flop/s", 2, 256, 1, "FFMA", NULL},
    {"fp64_fma", GPK_T_DFMA, "flop/s", 2, 128, 1, "DFMA", NULL},
    {"fp16x2_fma", GPK_T_HFMA2, "flop/s", 2, 512, 1, "HFMA2", NULL},
    {"bf16x2_fma", GPK_T_BFMA2, "flop/s", 2, 512, 1, "HFMA2.BF16", NULL},
    {"int32_add", GPK_T_IADD, "op/s", 1, 128, 0, "IADD3 + IMAD.IADD", NULL},
    {"int32_mad", GPK_T_IMAD, "op/s", 1, 64, 0, "IMAD", NULL},
    {"sfu_rsqrt", GPK_T_RSQ, "op/s", 1, 16, 0, "MUFU.RSQ", NULL},
    {"sfu_sin", GPK_T_SIN, "op/s", 1, 16, 0, "MUFU.SIN", NULL},
    {"sfu_exp2", GPK_T_EX2, "op/s", 1, 16, 0, "MUFU.EX2", NULL},
    {"mma_sync_f16", GPK_T_MMA_F16, "flop/s", 1, 4096, 0, "HMMA.16816.F32", NULL},
    {"mma_sync_bf16", GPK_T_MMA_BF16, "flop/s", 1, 4096, 1, "HMMA.16816.F32.BF16", NULL},
    {"mma_sync_tf32", GPK_T_MMA_TF32, "flop/s", 1, 2048, 0, "HMMA.1688.F32.TF32", NULL},
    {"mma_sync_fp8", GPK_T_MMA_FP8, "flop/s", 1, 8192, 0, "(fp8 mma.sync)",
     GPK_FP8_MMA_SYNC_WHY},
    {"mma_sync_int8", GPK_T_MMA_INT8, "op/s", 1, 8192, 0, "IMMA.16832.S8.S8", NULL},
    {"wgmma_f16", GPK_T_WGMMA_F16, "flop/s", 1, 4096, 0, "HGMMA.64x256x16.F32", NULL},
    {"wgmma_bf16", GPK_T_WGMMA_BF16, "flop/s", 1, 4096, 1, "HGMMA.64x256x16.F32.BF16", NULL},
    {"wgmma_tf32", GPK_T_WGMMA_TF32, "flop/s", 1, 2048, 0, "HGMMA.64x256x8.F32.TF32", NULL},
    {"wgmma_fp8", GPK_T_WGMMA_FP8, "flop/s", 1, 8192, 0, "QGMMA.64x256x32.F32.E4M3.E4M3", NULL},
};
#define GPK_NTPUT ((int)(sizeof gpk_tputs / sizeof gpk_tputs[0]))

typedef struct gpk_mem_def {
    const char *key;
    int kind;
    double theo; /* bytes per clock per SM; NAN: DRAM (from attributes) or unknown */
    int quick;
    const char *what;
} gpk_mem_def;

static const gpk_mem_def gpk_mems[] = {
    {"dram_read", GPK_M_DRAM_READ, NAN, 1, "1 GiB, float4 loads, read bytes"},
    {"dram_write", GPK_M_DRAM_WRITE, NAN, 1, "1 GiB, float4 stores, written bytes"},
    {"dram_copy", GPK_M_DRAM_COPY, NAN, 1, "1 GiB to 1 GiB, read + written bytes"},
    {"l2_read", GPK_M_L2_READ, NAN, 1, "L2/4 footprint, ld.global.cg float4"},
    {"l1_read", GPK_M_L1_READ, 128, 1, "64 KB per SM, ld.global.nc float4"},
    {"shared_read_32", GPK_M_SHARED32, 128, 1, "LDS.32, conflict-free"},
    {"shared_read_128", GPK_M_SHARED128, 128, 1, "LDS.128, conflict-free"},
};
#define GPK_NMEM ((int)(sizeof gpk_mems / sizeof gpk_mems[0]))

typedef struct gpk_lat_def {
    const char *key;
    int kind;
    double pub_lo, pub_hi; /* published range in cycles; NAN: none in the reference */
    const char *what;
    const char *skip; /* non-NULL: not measured, and why */
} gpk_lat_def;

/* An add chain with loop-invariant operands is linear, and ptxas folds each
 * pair of adds into one LEA/IMAD (device run 2: 128 instructions for 256
 * adds), so no pure IADD3 latency can be read from it. */
#define GPK_IADD_LAT_WHY                                                                           \
    "ptxas folds pairs of dependent adds into one LEA/IMAD (SASS: 128 instructions for 256 "      \
    "adds); no honest IADD3 latency from this chain"

static const gpk_lat_def gpk_lats[] = {
    {"ffma", GPK_L_FFMA, 4.07, 4.07, "FFMA dependent chain", NULL},
    {"dfma", GPK_L_DFMA, 8.04, 8.04, "DFMA dependent chain", NULL},
    {"hfma2", GPK_L_HFMA2, NAN, NAN, "HFMA2 dependent chain", NULL},
    {"iadd", GPK_L_IADD, NAN, NAN, "IADD3 dependent chain", GPK_IADD_LAT_WHY},
    {"imad", GPK_L_IMAD, 4.12, 4.12, "IMAD dependent chain", NULL},
    {"imul", GPK_L_IMUL, NAN, NAN, "integer multiply (IMAD) chain", NULL},
    {"shift", GPK_L_SHL, NAN, NAN, "funnel shift (SHF) chain", NULL},
    {"cvt_f2i_i2f", GPK_L_CVT, NAN, NAN, "F2I + I2F pair", NULL},
    {"sfu_rsqrt", GPK_L_RSQ, NAN, NAN, "MUFU.RSQ chain", NULL},
    {"sfu_sin", GPK_L_SIN, NAN, NAN, "MUFU.SIN chain", NULL},
    {"sfu_exp2", GPK_L_EX2, NAN, NAN, "MUFU.EX2 chain", NULL},
    {"shared_load", GPK_L_SHARED_LD, 29, 29, "LDS pointer chase", NULL},
    {"l1_hit", GPK_L_L1_LD, 32, 41, "LDG chase in 4 KB (L1 hit)", NULL},
    {"l2_hit", GPK_L_L2_LD, 260, 560, "LDG.CG chase in 1 MB (near and far mixed)", NULL},
    {"atomic_global", GPK_L_ATOM_GLOBAL, NAN, NAN, "atomicAdd chain, global", NULL},
    {"atomic_shared", GPK_L_ATOM_SHARED, NAN, NAN, "atomicAdd chain, shared", NULL},
};
#define GPK_NLAT ((int)(sizeof gpk_lats / sizeof gpk_lats[0]))

/* Latency-versus-footprint curves (full run only). */
typedef struct gpk_curve_def {
    const char *key;
    int space;
    int by_stride;       /* 0: x is footprint at fixed stride; 1: x is stride at fixed footprint */
    size_t fixed;        /* the stride (by footprint) or footprint (by stride) */
    const double *xs;    /* x values in bytes, ascending, 0-terminated; NULL: TLB sweep */
    int order;           /* TLB sweeps: 0 pages in address order, 1 in a random cycle */
} gpk_curve_def;

/* TLB sweeps: footprints 4 per octave from 2 strides up to the buffer (at
 * most 48 GB and half the free memory), one 64-bit pointer per
 * stride-sized block, so each load touches a new page.  Since run 5 the
 * blocks are visited in a random single cycle (runs 1-4 visited them in
 * address order and saw no step; the _seq sweeps keep that order). */
#define GPK_C_TLB 100
#define GPK_TLB_MAX (48.0 * 1024 * 1024 * 1024)
#define GPK_TLB_LINES 24576.0
#define GPK_REACH_MIN 4.0 /* cycles: the smallest TLB rise reported */
#define GPK_REACH_LINES 16 /* the fewest lines (pages) of a footprint the fit uses */
/* The same chase over memory built from separate 2 MB physical chunks
 * (cuMemCreate/cuMemMap, shuffled), so no translation spans more than one
 * chunk; footprints up to 16 GB and half the free memory.  Run last in the
 * full run (after the cross-SM matrix), so a failure there costs nothing
 * else. */
#define GPK_C_TLB_VMM 101
#define GPK_TLB_VMM_MAX (16.0 * 1024 * 1024 * 1024)
#define GPK_IS_TLB(space) ((space) == GPK_C_TLB || (space) == GPK_C_TLB_VMM)

#define KB 1024.0
#define MB (1024.0 * 1024.0)
#define GB (1024.0 * MB)
static const double gpk_x_l1[] = {4 * KB,   8 * KB,   16 * KB,  32 * KB,  64 * KB,  96 * KB,
                                  128 * KB, 160 * KB, 192 * KB, 208 * KB, 224 * KB, 240 * KB,
                                  256 * KB, 288 * KB, 320 * KB, 384 * KB, 512 * KB, 1 * MB, 0};
static const double gpk_x_l2[] = {512 * KB, 1 * MB,  2 * MB,  4 * MB,  8 * MB,   12 * MB,
                                  16 * MB,  20 * MB, 24 * MB, 28 * MB, 32 * MB,  36 * MB,
                                  40 * MB,  44 * MB, 48 * MB, 52 * MB, 56 * MB,  60 * MB,
                                  64 * MB,  72 * MB, 80 * MB, 96 * MB, 128 * MB, 256 * MB, 0};
static const double gpk_x_const[] = {256,     512,     1 * KB,  2 * KB,  3 * KB,  4 * KB,
                                     6 * KB,  8 * KB,  16 * KB, 24 * KB, 32 * KB, 40 * KB,
                                     48 * KB, 56 * KB, 64 * KB, 0};
static const double gpk_x_stride[] = {4, 8, 16, 32, 64, 128, 256, 512, 0};

/* The JSON writer finds the first six by position; add new ones at the end. */
static const gpk_curve_def gpk_curves[] = {
    {"l1_footprint", GPK_C_CA, 0, 128, gpk_x_l1, 0},
    {"l2_footprint", GPK_C_CG, 0, 128, gpk_x_l2, 0},
    {"tlb_2m", GPK_C_TLB, 0, 2 << 20, NULL, 1},
    {"const_footprint", GPK_C_CONST, 0, 64, gpk_x_const, 0},
    {"l1_stride", GPK_C_CA, 1, 1 << 20, gpk_x_stride, 0},
    {"l2_stride", GPK_C_CG, 1, 256 << 20, gpk_x_stride, 0},
    {"tlb_32m", GPK_C_TLB, 0, 32 << 20, NULL, 1},
    {"tlb_vmm_2m", GPK_C_TLB_VMM, 0, 2 << 20, NULL, 1},
    {"tlb_2m_seq", GPK_C_TLB, 0, 2 << 20, NULL, 0},
    {"tlb_vmm_2m_seq", GPK_C_TLB_VMM, 0, 2 << 20, NULL, 0},
    {"tlb_64k", GPK_C_TLB, 0, 64 << 10, NULL, 1},
    {"tlb_32m_seq", GPK_C_TLB, 0, 32 << 20, NULL, 0},
    {"tlb_64m", GPK_C_TLB, 0, 64 << 20, NULL, 1},
    {"tlb_128m", GPK_C_TLB, 0, 128 << 20, NULL, 1},
    /* the constant L1's line: strides over 8 KB, 4x its 2 KB (run 7) */
    {"const_stride", GPK_C_CONST, 1, 8 << 10, gpk_x_stride, 0},
};
#define GPK_NCURVE ((int)(sizeof gpk_curves / sizeof gpk_curves[0]))
#define GPK_MAXPTS 64
#define GPK_MAXSTEPS 4

/* ----------------------------------------------------------- results ---- */

typedef struct gpk_rate {
    int done; /* 0: not run (--quick); 1: measured; -1: failed; 2: not built; 3: skipped */
    const char *why; /* for 3 */
    double value;      /* unit per second */
    double per_clk_sm; /* unit per clock per SM at the measured clock */
    double clk_mhz;
    double ms;
} gpk_rate;

typedef struct gpk_lat {
    int done; /* as gpk_rate.done */
    double cycles, ns, clk_mhz;
} gpk_lat;

typedef struct gpk_curve {
    int n;
    double x[GPK_MAXPTS], y[GPK_MAXPTS], clk[GPK_MAXPTS];
    int nsteps;
    gpk_step steps[GPK_MAXSTEPS];
    double last_lat;
    double sat; /* by-stride curves: the fetch granularity */
    /* TLB sweeps: the small rise of a random order (gpk_reach_find) */
    int reach_rc;
    gpk_reach_fit reach;
} gpk_curve;

/* Associativity by strides (Wong et al.): m = m0..m0+GPK_AS_LINES-1 lines
 * spaced by each stride, m x stride at most max_bytes (the constant bank's
 * 64 KB: longer rows end early).  level: the cache level (0: the first
 * climb of each row is this cache missing; 1: the next level, whose misses
 * are the first climb past the footprint curve's second plateau, read from
 * the rows of the entry same_as).  The L1 and L2 rows start at 2 lines (runs
 * 3-6); the constant rows at 1, so a direct-mapped cache would show too. */
#define GPK_AS_LINES 64
typedef struct gpk_assoc_def {
    const char *key;
    int space;
    int level;
    int same_as;      /* -1, or the entry whose measured rows this one reads */
    int m0;           /* the fewest lines */
    double max_bytes; /* 0: no limit */
    int ns;
    double strides[GPK_ASSOC_MAXS];
} gpk_assoc_def;
#define GPK_CONST_BYTES (64 * KB) /* the most a __constant__ array may hold */
static const gpk_assoc_def gpk_assocs[] = {
    {"l1", GPK_C_CA, 0, -1, 2, 0, 6, {8 * KB, 16 * KB, 32 * KB, 64 * KB, 128 * KB, 256 * KB}},
    {"l2", GPK_C_CG, 0, -1, 2, 0, 4, {256 * KB, 1 * MB, 4 * MB, 16 * MB}},
    {"const_l1", GPK_C_CONST, 0, -1, 1, GPK_CONST_BYTES, 9,
     {64, 128, 256, 512, 1 * KB, 2 * KB, 4 * KB, 8 * KB, 16 * KB}},
    {"const_l15", GPK_C_CONST, 1, 2, 1, GPK_CONST_BYTES, 9,
     {64, 128, 256, 512, 1 * KB, 2 * KB, 4 * KB, 8 * KB, 16 * KB}},
};
#define GPK_NASSOC ((int)(sizeof gpk_assocs / sizeof gpk_assocs[0]))

typedef struct gpk_assoc_res {
    int done;
    const char *why; /* when done is -1 and no chase failed */
    double seconds;
    double hit_lat;  /* the plateau a climb must pass (level > 0), else NaN */
    double lines[GPK_AS_LINES];
    double lat[GPK_ASSOC_MAXS * GPK_AS_LINES]; /* NaN: not measured (past max_bytes) */
    gpk_assoc a;
} gpk_assoc_res;

/* Associativity through the hashed index (gpk_assoc_fit_lru): a chase at
 * one line (128 B) per step over footprints from `from` to `to`, `step`
 * apart up to `fine_to` and `step2` beyond, past the capacity read off the
 * footprint curve; the hit and miss plateaus come from that curve's step
 * (L1: its first; L2: its last, far-partition hits to DRAM). */
#define GPK_SW_MAX 1024
#define GPK_SW_LINE 128.0
#define GPK_SW_TOL 0.025
#define GPK_SW_MAXW 64
typedef struct gpk_sweep_def {
    const char *key;
    int space;
    int curve; /* index in gpk_curves of the footprint curve with the plateaus */
    double from, fine_to, step, to, step2;
} gpk_sweep_def;
static const gpk_sweep_def gpk_sweeps[] = {
    {"l1", GPK_C_CA, 0, 192 * KB, 288 * KB, 128, 384 * KB, 1 * KB},
    {"l2", GPK_C_CG, 1, 54 * MB, 74 * MB, 512 * KB, 74 * MB, 512 * KB},
};
#define GPK_NSWEEP 2
typedef struct gpk_sweep_res {
    int done; /* 1 measured and fitted; -1 failed; 0 not run */
    const char *why; /* when the fit could not be tried */
    int n;
    double x[GPK_SW_MAX], y[GPK_SW_MAX];
    double t_hit, t_miss, seconds;
    gpk_assoc_fit fit;
    int rc; /* gpk_assoc_fit_lru's */
} gpk_sweep_res;

#define GPK_L2N 4096
#define GPK_MAXSM 256

typedef struct gpk_results {
    int quick;
    gpk_devinfo dev;
    gpk_rate tput[GPK_NTPUT], mem[GPK_NMEM];
    gpk_lat lat[GPK_NLAT];
    gpk_curve curve[GPK_NCURVE];
    int curves_done;
    double tlb_buf; /* bytes of the TLB sweep's buffer */
    /* the VMM TLB sweep: chunk size, bytes mapped, seconds to map, why not */
    double vmm_chunk, vmm_mapped, vmm_map_s;
    const char *vmm_why;
    /* the probe process: non-NULL when the bulk copy / VMM paths are skipped */
    const char *probe_bulk_why, *probe_vmm_why;
    gpk_assoc_res assoc[GPK_NASSOC];
    gpk_sweep_res sweep[GPK_NSWEEP];
    gpk_copy_var copyv[40];
    int ncopyv;
    /* L2 near/far */
    int l2nf_done, l2nf_split, l2nf_smid;
    double l2_near, l2_far, l2_far_frac;
    /* cross-SM */
    int xsm_done, xsm_n;
    double *xsm_ns, *xsm_cyc;
    double xsm_min, xsm_med, xsm_max, xsm_near, xsm_far, xsm_far_frac;
    double clk_mhz; /* median of all measured clocks */
    double seconds;
} gpk_results;

static double gpk_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int gpk_cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double gpk_dram_theo(const gpk_devinfo *d)
{
    return d->mem_clock_khz * 1e3 * 2.0 * d->mem_bus_bits / 8.0; /* double data rate */
}

/* ------------------------------------------------------------ measure ---- */

/* One latency curve: fills r->curve[c] and reads its steps. */
static void gpk_measure_curve(gpk_results *r, int c, double t0)
{
    const gpk_curve_def *d = &gpk_curves[c];
    gpk_curve *o = &r->curve[c];
    o->n = 0;
    if (GPK_IS_TLB(d->space)) {
        /* cudaMalloc: at most 48 GB and under half the free memory; VMM
         * chunks: at most 16 GB and half the memory free now */
        double cap = fmin(GPK_TLB_MAX, 0.5 * (double)r->dev.global_bytes);
        cap -= fmod(cap, 32.0 * MB);
        if (d->space == GPK_C_TLB) {
            r->tlb_buf = fmax(r->tlb_buf, cap);
        } else {
            size_t chunk = 0, mapped = 0;
            const double tm = gpk_now();
            gpk_dev_tlb_free();
            cap = fmin(GPK_TLB_VMM_MAX, 0.5 * (double)gpk_dev_free_bytes());
            if (cap < 4 * MB || gpk_dev_vmm_alloc((size_t)cap, &chunk, &mapped) != 0) {
                r->vmm_why = "could not map the chunks (cuMemCreate/cuMemMap/cuMemSetAccess; "
                             "see the log)";
                cap = 0;
            } else {
                r->vmm_chunk = (double)chunk;
                r->vmm_mapped = (double)mapped;
                r->vmm_map_s = gpk_now() - tm;
                cap = (double)mapped;
                fprintf(stderr, "gpupeak: mapped %.0f MB as %zu chunks of %zu KB in %.2f s\n",
                        cap / MB, mapped / chunk, chunk >> 10, r->vmm_map_s);
            }
        }
        /* at most GPK_TLB_LINES lines (3 MB of L2), so every load hits L2 */
        const double fp_max = fmin(cap, (double)d->fixed * GPK_TLB_LINES);
        for (int k = 0; k < 200 && o->n < GPK_MAXPTS && cap > 0; k++) {
            double fp = 4 * MB * pow(2.0, k / 4.0);
            double cyc, mhz;
            fp -= fmod(fp, (double)d->fixed);
            if (fp > fp_max)
                fp = fp_max;
            if (fp < 2.0 * d->fixed || (o->n && fp <= o->x[o->n - 1]))
                continue;
            if ((d->space == GPK_C_TLB
                     ? gpk_dev_tlb_chase((size_t)fp, d->fixed, (size_t)cap, d->order, &cyc, &mhz)
                     : gpk_dev_vmm_chase((size_t)fp, d->fixed, d->order, &cyc, &mhz)) != 0) {
                if (d->space == GPK_C_TLB_VMM)
                    r->vmm_why = "a chase over the mapped chunks failed (see the log)";
                break;
            }
            o->x[o->n] = fp;
            o->y[o->n] = cyc;
            o->clk[o->n] = mhz;
            o->n++;
            if (fp >= fp_max)
                break;
        }
    }
    for (int k = 0; d->xs && d->xs[k] > 0 && o->n < GPK_MAXPTS; k++) {
        size_t fp = d->by_stride ? d->fixed : (size_t)d->xs[k];
        size_t st = d->by_stride ? (size_t)d->xs[k] : d->fixed;
        double cyc, mhz;
        if (fp > r->dev.global_bytes / 3)
            break; /* leave room; the TLB curve stops where memory does */
        if (gpk_dev_chase(d->space, fp, st, &cyc, &mhz) != 0)
            break;
        o->x[o->n] = d->xs[k];
        o->y[o->n] = cyc;
        o->clk[o->n] = mhz;
        o->n++;
    }
    o->nsteps = 0;
    o->last_lat = NAN;
    o->sat = NAN;
    if (d->by_stride) {
        o->sat = gpk_saturation(o->x, o->y, o->n, 0.9, 0.1);
    } else if (o->n >= 2) {
        int k = gpk_steps_find(o->x, o->y, o->n, 0.15, 8, o->steps, GPK_MAXSTEPS,
                               &o->last_lat);
        o->nsteps = k < 0 ? 0 : k;
    }
    /* TLB: a translation miss that hits the next level costs a few cycles,
     * far under the step detector's 15%: fit the small rise instead */
    o->reach_rc = -1;
    if (GPK_IS_TLB(d->space))
        o->reach_rc = gpk_tlb_reach(o->x, o->y, o->n, d->fixed, GPK_REACH_LINES, GPK_REACH_MIN,
                                    &o->reach);
    fprintf(stderr, "gpupeak: curve %-16s %d points, %d steps (%.1f s)\n", d->key, o->n,
            o->nsteps, gpk_now() - t0);
    if (d->space == GPK_C_TLB_VMM)
        gpk_dev_vmm_free(); /* unmaps and releases every chunk */
}

/* One fine footprint sweep past a cache's capacity and the LRU fit. */
static void gpk_measure_sweep(gpk_results *r, int c)
{
    const gpk_sweep_def *d = &gpk_sweeps[c];
    gpk_sweep_res *o = &r->sweep[c];
    const gpk_curve *fc = &r->curve[d->curve];
    const double t0 = gpk_now();
    o->n = 0;
    o->t_hit = o->t_miss = NAN;
    if (fc->nsteps < 1) {
        o->done = -1;
        o->why = "the footprint curve shows no step, so no hit and miss plateaus to fit with";
        return;
    }
    /* L1: the first step (L1 hit -> L2); L2: the last (far L2 hit -> DRAM) */
    const gpk_step *st = &fc->steps[d->curve == 0 ? 0 : fc->nsteps - 1];
    o->t_hit = st->lat_below;
    o->t_miss = st->lat_above;
    for (double nb = d->from; nb <= d->to && o->n < GPK_SW_MAX;
         nb += nb < d->fine_to ? d->step : d->step2) {
        double cyc, mhz;
        if (gpk_dev_chase(d->space, (size_t)nb, (size_t)GPK_SW_LINE, &cyc, &mhz) != 0) {
            o->done = -1;
            o->why = "a chase of the sweep failed (see the log)";
            return;
        }
        o->x[o->n] = nb;
        o->y[o->n] = cyc;
        o->n++;
    }
    o->rc = gpk_assoc_fit_lru(o->x, o->y, o->n, GPK_SW_LINE, o->t_hit, o->t_miss, GPK_SW_MAXW,
                              GPK_SW_TOL, &o->fit);
    o->done = o->rc >= 0 ? 1 : -1;
    if (o->rc < 0)
        o->why = "the fit refused its input (plateaus not ordered, or too few points)";
    o->seconds = gpk_now() - t0;
    fprintf(stderr,
            "gpupeak: %s associativity (sweep, %d points, %.1f s): ways %.0f (best fit %d, "
            "C %.0f B, range %.0f-%.0f, rms %.1f%% / transition %.1f%%, limit %.1f%%)%s%s\n",
            d->key, o->n, o->seconds, o->fit.ways, o->fit.best_w, o->fit.capacity_bytes,
            o->fit.ways_lo, o->fit.ways_hi, 100 * o->fit.rms_rel, 100 * o->fit.rms_trans_rel,
            100 * o->fit.limit_rel, o->fit.why[0] ? ": " : "", o->fit.why);
}

static void gpk_measure(gpk_results *r)
{
    const double target = r->quick ? 15.0 : 25.0;
    const int sms = r->dev.sm_count;
    double t0;

    for (int i = 0; i < GPK_NTPUT; i++) {
        const gpk_tput_def *d = &gpk_tputs[i];
        gpk_rate *o = &r->tput[i];
        double count = 0;
        gpk_meas m;
        if (r->quick && !d->quick)
            continue;
        if (d->skip) {
            o->done = 3;
            o->why = d->skip;
            continue;
        }
        t0 = gpk_now();
        int rc = gpk_dev_tput(d->kind, target, &count, &m);
        if (rc == 1) {
            o->done = 2;
            continue;
        }
        if (rc != 0) {
            o->done = -1;
            continue;
        }
        o->done = 1;
        o->ms = m.ms;
        o->clk_mhz = m.clk_mhz;
        o->value = count * d->per_count / (m.ms * 1e-3);
        o->per_clk_sm = o->value / (m.clk_mhz * 1e6) / sms;
        fprintf(stderr, "gpupeak: %-16s %10.4g %s  %7.1f /clk/SM  at %4.0f MHz  (%.2f s)\n",
                d->key, o->value, d->unit, o->per_clk_sm, m.clk_mhz, gpk_now() - t0);
    }
    for (int i = 0; i < GPK_NMEM; i++) {
        const gpk_mem_def *d = &gpk_mems[i];
        gpk_rate *o = &r->mem[i];
        double bytes = 0;
        gpk_meas m;
        if (r->quick && !d->quick)
            continue;
        if (gpk_dev_mem(d->kind, target, &bytes, &m) != 0) {
            o->done = -1;
            continue;
        }
        o->done = 1;
        o->ms = m.ms;
        o->clk_mhz = m.clk_mhz;
        o->value = bytes / (m.ms * 1e-3);
        if (d->kind == GPK_M_DRAM_COPY)
            r->ncopyv = gpk_dev_copy_variants(r->copyv, 40);
        o->per_clk_sm = o->value / (m.clk_mhz * 1e6) / sms;
        fprintf(stderr, "gpupeak: %-16s %10.4g B/s    %7.1f B/clk/SM at %4.0f MHz\n", d->key,
                o->value, o->per_clk_sm, m.clk_mhz);
    }
    if (r->quick)
        return;
    for (int i = 0; i < GPK_NLAT; i++) {
        gpk_lat *o = &r->lat[i];
        gpk_meas m;
        if (gpk_lats[i].skip) {
            o->done = 3;
            continue;
        }
        if (gpk_dev_lat(gpk_lats[i].kind, &o->cycles, &m) != 0) {
            o->done = -1;
            continue;
        }
        o->done = 1;
        o->clk_mhz = m.clk_mhz;
        o->ns = o->cycles / m.clk_mhz * 1e3;
        fprintf(stderr, "gpupeak: latency %-14s %8.2f cycles %8.2f ns at %4.0f MHz\n",
                gpk_lats[i].key, o->cycles, o->ns, m.clk_mhz);
    }
    /* curves (the VMM TLB sweep comes last, below) */
    t0 = gpk_now();
    for (int c = 0; c < GPK_NCURVE; c++)
        if (gpk_curves[c].space != GPK_C_TLB_VMM)
            gpk_measure_curve(r, c, t0);
    gpk_dev_tlb_free();
    r->curves_done = 1;
    /* associativity: m lines spaced by a stride (Wong et al.) */
    for (int c = 0; c < GPK_NASSOC; c++) {
        const gpk_assoc_def *d = &gpk_assocs[c];
        gpk_assoc_res *o = &r->assoc[c];
        int ok = 1;
        t0 = gpk_now();
        for (int k = 0; k < GPK_AS_LINES; k++)
            o->lines[k] = d->m0 + k;
        if (d->same_as >= 0) { /* the next level of the same rows */
            ok = r->assoc[d->same_as].done == 1;
            memcpy(o->lat, r->assoc[d->same_as].lat, sizeof o->lat);
        }
        for (int i = 0; i < d->ns && ok && d->same_as < 0; i++)
            for (int k = 0; k < GPK_AS_LINES && ok; k++) {
                double cyc = NAN, mhz;
                const size_t st = (size_t)d->strides[i];
                o->lat[i * GPK_AS_LINES + k] = NAN;
                if (d->max_bytes > 0 && d->strides[i] * o->lines[k] > d->max_bytes)
                    continue; /* past the space's limit: the row ends here */
                if (gpk_dev_chase(d->space, st * (size_t)o->lines[k], st, &cyc, &mhz) != 0)
                    ok = 0;
                o->lat[i * GPK_AS_LINES + k] = cyc;
            }
        if (!ok) {
            o->done = -1;
            continue;
        }
        /* level 1: climbs past the footprint curve's second plateau (the
         * constant L1.5's hit latency); NaN: the first climb */
        o->hit_lat = NAN;
        if (d->level > 0) {
            const gpk_curve *fc = &r->curve[3];
            o->hit_lat = fc->nsteps >= d->level ? fc->steps[d->level - 1].lat_above : NAN;
        }
        if (d->level > 0 && isnan(o->hit_lat)) {
            o->done = -1;
            o->why = "the footprint curve shows no plateau for this level";
            continue;
        }
        o->done = gpk_assoc_find_at(d->strides, d->ns, o->lines, GPK_AS_LINES, o->lat, 0.15, 8,
                                    o->hit_lat, &o->a) >= 0 ? 1 : -1;
        o->seconds = gpk_now() - t0;
        fprintf(stderr, "gpupeak: %s associativity: ways %.0f, way %.0f B%s%s (%.1f s)\n", d->key,
                o->a.ways, o->a.way_bytes, o->a.why[0] ? "; " : "", o->a.why, o->seconds);
    }
    /* associativity through the hashed index: fine sweeps past capacity */
    for (int c = 0; c < GPK_NSWEEP; c++)
        gpk_measure_sweep(r, c);
    /* L2 near and far partition */
    {
        uint32_t cyc[GPK_L2N];
        double v[GPK_L2N];
        if (gpk_dev_l2_samples((size_t)GPK_L2N * 128, GPK_L2N, cyc, &r->l2nf_smid) == 0) {
            for (int i = 0; i < GPK_L2N; i++)
                v[i] = cyc[i];
            r->l2nf_split = gpk_two_clusters(v, GPK_L2N, 0.2, &r->l2_near, &r->l2_far,
                                             &r->l2_far_frac);
            r->l2nf_done = 1;
        }
    }
    /* cross-SM ping-pong */
    t0 = gpk_now();
    r->xsm_ns = malloc(sizeof(double) * GPK_MAXSM * GPK_MAXSM);
    r->xsm_cyc = malloc(sizeof(double) * GPK_MAXSM * GPK_MAXSM);
    if (r->xsm_ns && r->xsm_cyc &&
        gpk_dev_pingpong_matrix(100, GPK_MAXSM, r->xsm_ns, r->xsm_cyc, &r->xsm_n) == 0) {
        int n = r->xsm_n, k = 0;
        double *v = malloc(sizeof(double) * n * n + 1);
        for (int i = 0; v && i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (isfinite(r->xsm_ns[i * n + j]))
                    v[k++] = r->xsm_ns[i * n + j];
        if (v && k > 1) {
            qsort(v, k, sizeof(double), gpk_cmpd);
            r->xsm_min = v[0];
            r->xsm_max = v[k - 1];
            r->xsm_med = v[k / 2];
            if (!gpk_two_clusters(v, k, 0.1, &r->xsm_near, &r->xsm_far, &r->xsm_far_frac))
                r->xsm_far_frac = 0;
            r->xsm_done = k;
        }
        free(v);
    }
    fprintf(stderr, "gpupeak: cross-SM matrix %d SMs, %d pairs (%.1f s)\n", r->xsm_n,
            r->xsm_done, gpk_now() - t0);
    /* last: the TLB over separately mapped 2 MB chunks */
    t0 = gpk_now();
    for (int c = 0; c < GPK_NCURVE; c++) {
        if (gpk_curves[c].space != GPK_C_TLB_VMM)
            continue;
        if (r->probe_vmm_why)
            r->vmm_why = r->probe_vmm_why;
        else
            gpk_measure_curve(r, c, t0);
    }
}

static void gpk_median_clock(gpk_results *r)
{
    double v[GPK_NTPUT + GPK_NMEM + GPK_NLAT];
    int k = 0;
    for (int i = 0; i < GPK_NTPUT; i++)
        if (r->tput[i].done == 1 && isfinite(r->tput[i].clk_mhz))
            v[k++] = r->tput[i].clk_mhz;
    for (int i = 0; i < GPK_NMEM; i++)
        if (r->mem[i].done == 1 && isfinite(r->mem[i].clk_mhz))
            v[k++] = r->mem[i].clk_mhz;
    for (int i = 0; i < GPK_NLAT; i++)
        if (r->lat[i].done == 1 && isfinite(r->lat[i].clk_mhz))
            v[k++] = r->lat[i].clk_mhz;
    qsort(v, k, sizeof(double), gpk_cmpd);
    r->clk_mhz = k ? v[k / 2] : NAN;
}

/* ------------------------------------------------------------- output ---- */

static const char *gpk_why(int done)
{
    switch (done) {
    case 0: return "not run in --quick mode";
    case -1: return "the measurement failed (see the log)";
    case 2: return "not built into this binary";
    }
    return NULL;
}

static int gpk_curve_index(const char *key)
{
    for (int c = 0; c < GPK_NCURVE; c++)
        if (strcmp(gpk_curves[c].key, key) == 0)
            return c;
    return -1;
}

/* The strided-test entry of constant-cache level k (0: L1, 1: L1.5), or -1. */
static int gpk_const_assoc(int level)
{
    for (int c = 0; c < GPK_NASSOC; c++)
        if (gpk_assocs[c].space == GPK_C_CONST && gpk_assocs[c].level == level)
            return c;
    return -1;
}

/* Why an associativity entry has no ways.  For a constant level that the
 * footprint curve never saw exceeded within 64 KB, adds why no chase in a
 * __constant__ array can make it miss: with a plain set index, ways + 1
 * lines of one set lie a way size apart and span its whole capacity. */
static void gpk_assoc_why(const gpk_results *r, int c, char *buf, size_t n)
{
    const gpk_assoc_res *o = &r->assoc[c];
    const gpk_assoc_def *d = &gpk_assocs[c];
    const gpk_curve *cc = &r->curve[3];
    buf[0] = 0;
    if (o->done != 1) {
        snprintf(buf, n, "%s", o->why ? o->why : gpk_why(-1));
        return;
    }
    if (!o->a.why[0])
        return;
    if (d->space == GPK_C_CONST && d->level >= cc->nsteps && cc->n > 0)
        snprintf(buf, n,
                 "%s; this level is not exceeded within the %.0f B a __constant__ array may "
                 "hold (const_footprint has %d step%s up to %.0f B), and with a plain set index "
                 "ways + 1 lines of one set lie a way size apart, spanning its capacity or more, "
                 "so no chase inside one constant bank can make it miss",
                 o->a.why, GPK_CONST_BYTES, cc->nsteps, cc->nsteps == 1 ? "" : "s",
                 cc->x[cc->n - 1]);
    else
        snprintf(buf, n, "%s", o->a.why);
}

/* Wong's strided test of one entry, as geometry.associativity.*.strided. */
static void gpk_json_strided(gpk_json *j, const gpk_results *r, int c)
{
    const gpk_assoc_res *o = &r->assoc[c];
    const gpk_assoc_def *d = &gpk_assocs[c];
    char why[600], series[64];
    gpk_assoc_why(r, c, why, sizeof why);
    gpk_json_obj_begin(j, "strided");
    gpk_json_num(j, "ways", o->done == 1 ? o->a.ways : NAN);
    gpk_json_num(j, "way_bytes", o->done == 1 ? o->a.way_bytes : NAN);
    gpk_json_num(j, "implied_size_bytes", o->done == 1 ? o->a.ways * o->a.way_bytes : NAN);
    gpk_json_str(j, "why", why[0] ? why : NULL);
    if (d->level > 0)
        gpk_json_num(j, "past_latency_cycles", o->done == 1 ? o->hit_lat : NAN);
    gpk_json_arr_begin(j, "strides_bytes");
    for (int i = 0; i < d->ns; i++)
        gpk_json_num(j, NULL, d->strides[i]);
    gpk_json_arr_end(j);
    gpk_json_arr_begin(j, "lines_held_per_stride");
    for (int i = 0; i < d->ns; i++)
        gpk_json_num(j, NULL, o->done == 1 ? o->a.held[i] : NAN);
    gpk_json_arr_end(j);
    gpk_json_arr_begin(j, "lines_tried_per_stride");
    for (int i = 0; i < d->ns; i++)
        gpk_json_num(j, NULL, o->done == 1 ? o->a.tried[i] : NAN);
    gpk_json_arr_end(j);
    snprintf(series, sizeof series, "%s_assoc_STRIDE",
             gpk_assocs[d->same_as >= 0 ? d->same_as : c].key);
    gpk_json_str(j, "series", series);
    gpk_json_obj_end(j);
}

/* geometry.associativity.const_l1 / const_l15: the strided test is the
 * method (a constant cache has a plain set index, unlike L1 and L2). */
static void gpk_json_const_assoc(gpk_json *j, const gpk_results *r, int c)
{
    const gpk_assoc_res *o = &r->assoc[c];
    const gpk_assoc_def *d = &gpk_assocs[c];
    const gpk_curve *cc = &r->curve[3];
    const int ci = gpk_curve_index("const_stride");
    const int ok = o->done == 1 && !isnan(o->a.ways);
    const double line = d->level == 0 && ci >= 0 ? r->curve[ci].sat : NAN;
    char why[600], method[600];
    gpk_assoc_why(r, c, why, sizeof why);
    gpk_json_obj_begin(j, d->key);
    gpk_json_num(j, "ways", ok ? o->a.ways : NAN);
    gpk_json_str(j, "why", ok ? NULL : why);
    snprintf(method, sizeof method,
             "Wong's strided test: a dependent LDC chase (register index, byte offsets) "
             "through a __constant__ array over m = %d..%d lines spaced by a stride of "
             "%.0f-%.0f B, m x stride <= %.0f B, first pass discarded; the lines held before "
             "%s of each row, at the strides that are a multiple of the way size, are the "
             "ways, the smallest such stride the way size",
             d->m0, d->m0 + GPK_AS_LINES - 1, d->strides[0], d->strides[d->ns - 1],
             d->max_bytes,
             d->level == 0 ? "the first climb"
                           : "the first climb past this level's hit latency "
                             "(past_latency_cycles: the footprint curve's plateau)");
    gpk_json_str(j, "method", method);
    gpk_json_num(j, "way_bytes", ok ? o->a.way_bytes : NAN);
    gpk_json_num(j, "capacity_bytes", ok ? o->a.ways * o->a.way_bytes : NAN);
    gpk_json_num(j, "footprint_size_bytes",
                 d->level < cc->nsteps ? cc->steps[d->level].size_below : NAN);
    gpk_json_num(j, "line_bytes", line);
    gpk_json_num(j, "sets", ok && line > 0 ? o->a.way_bytes / line : NAN);
    gpk_json_num(j, "hit_latency_cycles",
                 ok ? (d->level > 0 ? o->hit_lat : o->a.lat_hit) : NAN);
    gpk_json_num(j, "miss_latency_cycles", ok ? o->a.lat_miss : NAN);
    gpk_json_num(j, "seconds", o->seconds);
    gpk_json_strided(j, r, c);
    gpk_json_obj_end(j);
}

static void gpk_json_rate(gpk_json *j, const char *key, const char *unit, const gpk_rate *o,
                          double theo_clk_sm, double theo_value, int sms, double max_mhz,
                          const char *instr)
{
    gpk_json_obj_begin(j, key);
    gpk_json_str(j, "unit", unit);
    if (o->done == 1) {
        gpk_json_num(j, "value", o->value);
        gpk_json_num(j, "per_clk_per_sm", o->per_clk_sm);
        gpk_json_num(j, "clock_mhz", o->clk_mhz);
    } else {
        gpk_json_num(j, "value", NAN);
        gpk_json_num(j, "per_clk_per_sm", NAN);
        gpk_json_num(j, "clock_mhz", NAN);
        gpk_json_str(j, "why", o->done == 3 ? o->why : gpk_why(o->done));
    }
    gpk_json_num(j, "theoretical_per_clk_per_sm", theo_clk_sm);
    /* theoretical rate at the device's peak clock, or from memory attributes */
    gpk_json_num(j, "theoretical", isfinite(theo_value) ? theo_value
                                                         : theo_clk_sm * sms * max_mhz * 1e6);
    gpk_json_num(j, "pct_of_theoretical",
                 o->done == 1 ? 100.0 * o->per_clk_sm / theo_clk_sm : NAN);
    if (instr)
        gpk_json_str(j, "sass", instr);
    gpk_json_obj_end(j);
}

static int gpk_write_json(const gpk_results *r, const char *path)
{
    FILE *f = fopen(path, "w");
    gpk_json j;
    char buf[64];
    const int sms = r->dev.sm_count;
    const double maxmhz = r->dev.max_clock_khz / 1e3;
    if (!f) {
        fprintf(stderr, "gpupeak: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    gpk_json_init(&j, f);
    gpk_json_obj_begin(&j, NULL);
    gpk_json_str(&j, "schema", "gpupeak/1");
    gpk_json_str(&j, "mode", r->quick ? "quick" : "full");
    gpk_json_num(&j, "seconds", r->seconds);
    gpk_json_obj_begin(&j, "device");
    gpk_json_str(&j, "name", r->dev.name);
    snprintf(buf, sizeof buf, "%d.%d", r->dev.cc_major, r->dev.cc_minor);
    gpk_json_str(&j, "compute_capability", buf);
    gpk_json_int(&j, "sm_count", sms);
    gpk_json_num(&j, "max_sm_clock_mhz", maxmhz);
    gpk_json_num(&j, "mem_clock_mhz", r->dev.mem_clock_khz / 1e3);
    gpk_json_int(&j, "mem_bus_bits", r->dev.mem_bus_bits);
    gpk_json_int(&j, "l2_bytes", r->dev.l2_bytes);
    gpk_json_int(&j, "shared_per_sm_bytes", r->dev.smem_per_sm);
    gpk_json_obj_end(&j);
    gpk_json_num(&j, "sm_clock_mhz", r->clk_mhz);

    gpk_json_obj_begin(&j, "throughput");
    for (int i = 0; i < GPK_NTPUT; i++)
        gpk_json_rate(&j, gpk_tputs[i].key, gpk_tputs[i].unit, &r->tput[i], gpk_tputs[i].theo,
                      NAN, sms, maxmhz, gpk_tputs[i].instr);
    gpk_json_obj_end(&j);

    gpk_json_obj_begin(&j, "bandwidth");
    for (int i = 0; i < GPK_NMEM; i++) {
        const gpk_mem_def *d = &gpk_mems[i];
        double theo = d->theo, theo_v = NAN;
        if (d->kind <= GPK_M_DRAM_COPY) {
            theo_v = gpk_dram_theo(&r->dev);
            /* per clock per SM at the clock the test ran at */
            theo = r->mem[i].done == 1 ? theo_v / (r->mem[i].clk_mhz * 1e6) / sms : NAN;
        }
        gpk_json_rate(&j, d->key, "B/s", &r->mem[i], theo, theo_v, sms, maxmhz, NULL);
    }
    gpk_json_obj_end(&j);

    gpk_json_arr_begin(&j, "dram_copy_variants");
    for (int i = 0; i < r->ncopyv; i++) {
        gpk_json_obj_begin(&j, NULL);
        gpk_json_str(&j, "name", r->copyv[i].name);
        gpk_json_num(&j, "value", r->copyv[i].bytes_per_s);
        gpk_json_num(&j, "pct_of_theoretical",
                     100.0 * r->copyv[i].bytes_per_s / gpk_dram_theo(&r->dev));
        gpk_json_num(&j, "clock_mhz", r->copyv[i].clk_mhz);
        gpk_json_bool(&j, "reference_only", r->copyv[i].reference);
        if (r->copyv[i].why)
            gpk_json_str(&j, "why", r->copyv[i].why);
        gpk_json_obj_end(&j);
    }
    gpk_json_arr_end(&j);

    gpk_json_obj_begin(&j, "latency");
    for (int i = 0; i < GPK_NLAT; i++) {
        const gpk_lat *o = &r->lat[i];
        gpk_json_obj_begin(&j, gpk_lats[i].key);
        gpk_json_num(&j, "cycles", o->done == 1 ? o->cycles : NAN);
        gpk_json_num(&j, "ns", o->done == 1 ? o->ns : NAN);
        gpk_json_num(&j, "clock_mhz", o->done == 1 ? o->clk_mhz : NAN);
        if (o->done != 1)
            gpk_json_str(&j, "why", o->done == 3 ? gpk_lats[i].skip : gpk_why(o->done));
        gpk_json_obj_end(&j);
    }
    gpk_json_obj_end(&j);

    /* geometry read off the curves */
    gpk_json_obj_begin(&j, "geometry");
    if (r->curves_done) {
        const gpk_curve *l1 = &r->curve[0], *l2 = &r->curve[1];
        const gpk_curve *cc = &r->curve[3], *s1 = &r->curve[4], *s2 = &r->curve[5];
        const double mhz = r->clk_mhz;
        gpk_json_obj_begin(&j, "l1");
        gpk_json_num(&j, "size_bytes", l1->nsteps > 0 ? l1->steps[0].size_below : NAN);
        gpk_json_num(&j, "size_upper_bound_bytes",
                     l1->nsteps > 0 ? l1->steps[0].size_above : NAN);
        gpk_json_num(&j, "hit_latency_cycles", l1->nsteps > 0 ? l1->steps[0].lat_below : NAN);
        gpk_json_num(&j, "miss_latency_cycles", l1->nsteps > 0 ? l1->steps[0].lat_above : NAN);
        gpk_json_num(&j, "fetch_granularity_bytes", s1->sat);
        gpk_json_obj_end(&j);
        /* One step: L2 then DRAM.  Two steps (Hopper): a footprint past the
         * first leaves the near partition's reach and is served by the far
         * one; past the second it goes to DRAM. */
        const int two = l2->nsteps >= 2;
        const gpk_step *last_step = l2->nsteps > 0 ? &l2->steps[l2->nsteps - 1] : NULL;
        gpk_json_obj_begin(&j, "l2");
        gpk_json_num(&j, "size_bytes", last_step ? last_step->size_below : NAN);
        gpk_json_num(&j, "size_upper_bound_bytes", last_step ? last_step->size_above : NAN);
        gpk_json_num(&j, "hit_latency_cycles", l2->nsteps > 0 ? l2->steps[0].lat_below : NAN);
        gpk_json_num(&j, "near_reach_bytes", two ? l2->steps[0].size_below : NAN);
        gpk_json_num(&j, "near_latency_cycles", two ? l2->steps[0].lat_below : NAN);
        gpk_json_num(&j, "far_latency_cycles", two ? l2->steps[1].lat_below : NAN);
        gpk_json_num(&j, "near_latency_ns", two ? l2->steps[0].lat_below / mhz * 1e3 : NAN);
        gpk_json_num(&j, "far_latency_ns", two ? l2->steps[1].lat_below / mhz * 1e3 : NAN);
        gpk_json_obj_begin(&j, "single_load_samples");
        gpk_json_int(&j, "from_smid", r->l2nf_smid);
        gpk_json_num(&j, "low_cycles", r->l2nf_done ? r->l2_near : NAN);
        gpk_json_num(&j, "high_cycles", r->l2nf_done && r->l2nf_split ? r->l2_far : NAN);
        gpk_json_num(&j, "high_fraction", r->l2nf_done && r->l2nf_split ? r->l2_far_frac : NAN);
        gpk_json_obj_end(&j);
        gpk_json_num(&j, "dram_fetch_granularity_bytes", s2->sat);
        gpk_json_obj_end(&j);
        gpk_json_obj_begin(&j, "dram");
        gpk_json_num(&j, "latency_cycles", l2->last_lat);
        gpk_json_num(&j, "latency_ns", l2->last_lat / mhz * 1e3);
        gpk_json_obj_end(&j);
        gpk_json_obj_begin(&j, "tlb");
        gpk_json_str(&j, "method", "dependent chase of 64-bit pointers, one load per "
                                   "stride-sized block (a new page each load), ld.global.cg, "
                                   "first pass discarded; blocks visited in a random single "
                                   "cycle (Sattolo shuffle, fixed seed), or in address order "
                                   "for the _seq sweeps");
        gpk_json_num(&j, "buffer_bytes", r->tlb_buf);
        for (int c = 0; c < GPK_NCURVE; c++) {
            const gpk_curve *t = &r->curve[c];
            if (!GPK_IS_TLB(gpk_curves[c].space))
                continue;
            gpk_json_obj_begin(&j, gpk_curves[c].key);
            if (gpk_curves[c].space == GPK_C_TLB_VMM) {
                gpk_json_str(&j, "method",
                             "the same chase over memory mapped from separate physical chunks "
                             "(cuMemCreate of the minimum granularity, at least 2 MB, mapped in "
                             "shuffled order by cuMemMap into one cuMemAddressReserve range), "
                             "so no translation covers more than one chunk");
                gpk_json_num(&j, "chunk_bytes", r->vmm_chunk > 0 ? r->vmm_chunk : NAN);
                gpk_json_num(&j, "mapped_bytes", r->vmm_mapped > 0 ? r->vmm_mapped : NAN);
                gpk_json_num(&j, "map_seconds", r->vmm_mapped > 0 ? r->vmm_map_s : NAN);
                if (r->vmm_why || t->n == 0)
                    gpk_json_str(&j, "why", r->vmm_why ? r->vmm_why : gpk_why(-1));
            }
            gpk_json_str(&j, "order", gpk_curves[c].order ? "random cycle" : "address order");
            gpk_json_num(&j, "stride_bytes", (double)gpk_curves[c].fixed);
            gpk_json_num(&j, "largest_footprint_bytes", t->n ? t->x[t->n - 1] : NAN);
            /* level k: reach = the last footprint before the k-th climb; the
             * last level's reach is open (past the largest footprint) */
            gpk_json_arr_begin(&j, "levels");
            for (int k = 0; k <= t->nsteps && t->n > 0; k++) {
                gpk_json_obj_begin(&j, NULL);
                gpk_json_num(&j, "reach_bytes", k < t->nsteps ? t->steps[k].size_below : NAN);
                gpk_json_num(&j, "reach_upper_bound_bytes",
                             k < t->nsteps ? t->steps[k].size_above : NAN);
                gpk_json_num(&j, "reach_at_least_bytes",
                             k < t->nsteps ? t->steps[k].size_below : t->x[t->n - 1]);
                gpk_json_num(&j, "latency_cycles",
                             k < t->nsteps ? t->steps[k].lat_below : t->last_lat);
                gpk_json_num(&j, "entries_if_pages_le_stride",
                             k < t->nsteps ? t->steps[k].size_below / gpk_curves[c].fixed : NAN);
                gpk_json_obj_end(&j);
            }
            gpk_json_arr_end(&j);
            /* the small rise (a next-level TLB hit), fitted */
            gpk_json_obj_begin(&j, "rise");
            {
                const gpk_reach_fit *q = &t->reach;
                const int ok = t->reach_rc == 1;
                gpk_json_str(&j, "model", "y = base + penalty max(0, 1 - reach/F)");
                gpk_json_num(&j, "reach_bytes", ok ? q->reach_bytes : NAN);
                gpk_json_num(&j, "entries_if_pages_le_stride",
                             ok ? q->reach_bytes / gpk_curves[c].fixed : NAN);
                gpk_json_num(&j, "penalty_cycles", t->reach_rc >= 0 ? q->penalty_cycles : NAN);
                gpk_json_num(&j, "base_cycles", t->reach_rc >= 0 ? q->base_cycles : NAN);
                gpk_json_num(&j, "rms_cycles", t->reach_rc >= 0 ? q->rms_cycles : NAN);
                gpk_json_num(&j, "noise_cycles", t->reach_rc >= 0 ? q->noise_cycles : NAN);
                gpk_json_num(&j, "flat_ratio", t->reach_rc >= 0 ? q->flat_ratio : NAN);
                gpk_json_num(&j, "best_fit_reach_bytes",
                             t->reach_rc >= 0 ? q->best_reach : NAN);
                gpk_json_str(&j, "why", ok ? NULL
                                           : t->reach_rc == 0 ? q->why
                                                              : "too few points to fit");
            }
            gpk_json_obj_end(&j);
            gpk_json_obj_end(&j);
        }
        gpk_json_obj_end(&j);
        /* constant-cache levels: size from const_footprint, the first
         * level's line from const_stride, ways from the strided test */
        gpk_json_arr_begin(&j, "constant");
        for (int k = 0; k <= cc->nsteps && cc->n > 0; k++) {
            const int ci = gpk_curve_index("const_stride"), ai = gpk_const_assoc(k);
            const double line = k == 0 && ci >= 0 ? r->curve[ci].sat : NAN;
            const int aok = ai >= 0 && r->assoc[ai].done == 1 && !isnan(r->assoc[ai].a.ways);
            char why[400];
            gpk_json_obj_begin(&j, NULL);
            gpk_json_str(&j, "name", k == 0 ? "L1" : k == 1 ? "L1.5" : "beyond");
            gpk_json_num(&j, "size_bytes", k < cc->nsteps ? cc->steps[k].size_below : NAN);
            gpk_json_num(&j, "size_upper_bound_bytes",
                         k < cc->nsteps ? cc->steps[k].size_above : NAN);
            gpk_json_num(&j, "size_at_least_bytes",
                         k < cc->nsteps ? cc->steps[k].size_below : cc->x[cc->n - 1]);
            gpk_json_num(&j, "latency_cycles", k < cc->nsteps ? cc->steps[k].lat_below
                                                              : cc->last_lat);
            gpk_json_num(&j, "line_bytes", line);
            gpk_json_num(&j, "ways", aok ? r->assoc[ai].a.ways : NAN);
            gpk_json_num(&j, "way_bytes", aok ? r->assoc[ai].a.way_bytes : NAN);
            why[0] = 0;
            if (k >= cc->nsteps)
                snprintf(why, sizeof why,
                         "size: not exceeded within the %.0f B a __constant__ array may hold "
                         "(size_at_least_bytes); line: needs a stride sweep past its capacity",
                         GPK_CONST_BYTES);
            else if (isnan(line))
                snprintf(why, sizeof why, "line: const_stride did not saturate");
            if (!aok)
                snprintf(why + strlen(why), sizeof why - strlen(why), "%sways: see %s",
                         why[0] ? "; " : "",
                         ai >= 0 ? (k == 0 ? "associativity.const_l1" : "associativity.const_l15")
                                 : "no strided test for this level");
            gpk_json_str(&j, "why", why[0] ? why : NULL);
            gpk_json_obj_end(&j);
        }
        gpk_json_arr_end(&j);
        gpk_json_obj_begin(&j, "associativity");
        for (int c = 0; c < GPK_NASSOC; c++) {
            const gpk_assoc_def *d = &gpk_assocs[c];
            const gpk_sweep_res *w = c < GPK_NSWEEP ? &r->sweep[c] : NULL;
            if (d->space == GPK_C_CONST) {
                gpk_json_const_assoc(&j, r, c);
                continue;
            }
            const gpk_assoc_fit *ft = w ? &w->fit : NULL;
            const int ok = w && w->done == 1 && w->rc == 1;
            gpk_json_obj_begin(&j, d->key);
            /* the footprint sweep past capacity with the LRU model fitted */
            gpk_json_num(&j, "ways", ok ? ft->ways : NAN);
            gpk_json_str(&j, "why", ok ? NULL
                                       : !w || w->done == 0 ? gpk_why(-1)
                                       : w->done < 0        ? (w->why ? w->why : gpk_why(-1))
                                                            : ft->why);
            gpk_json_str(&j, "method",
                         "footprint sweep just past capacity, one line (128 B) per step, "
                         "cyclic chase; fitted t(N) = t_hit + (t_miss - t_hit) min(1, "
                         "(W+1)(N-C)/N) for N > C (LRU or FIFO over a set index hash that maps "
                         "each way-sized block onto all sets once), C and whole W by least "
                         "squares, plateaus fixed");
            if (w && w->done == 1) {
                gpk_json_num(&j, "capacity_bytes", ft->capacity_bytes);
                gpk_json_num(&j, "sets", ok ? ft->sets : NAN);
                gpk_json_num(&j, "way_bytes", ok ? ft->capacity_bytes / ft->ways : NAN);
                gpk_json_num(&j, "line_bytes", GPK_SW_LINE);
                gpk_json_int(&j, "best_fit_ways", ft->best_w);
                gpk_json_arr_begin(&j, "ways_range");
                gpk_json_num(&j, NULL, ft->ways_lo);
                gpk_json_num(&j, NULL, ft->ways_hi);
                gpk_json_arr_end(&j);
                gpk_json_num(&j, "hit_latency_cycles", w->t_hit);
                gpk_json_num(&j, "miss_latency_cycles", w->t_miss);
                gpk_json_obj_begin(&j, "fit");
                gpk_json_num(&j, "rms_cycles", ft->rms_cycles);
                gpk_json_num(&j, "rms_rel", ft->rms_rel);
                gpk_json_num(&j, "transition_rms_rel", ft->rms_trans_rel);
                gpk_json_num(&j, "noise_rel", ft->noise_rel);
                gpk_json_num(&j, "limit_rel", ft->limit_rel);
                gpk_json_int(&j, "points_below", ft->n_below);
                gpk_json_int(&j, "points_transition", ft->n_transition);
                gpk_json_int(&j, "points_above", ft->n_above);
                gpk_json_obj_end(&j);
                gpk_json_obj_begin(&j, "sweep");
                gpk_json_num(&j, "from_bytes", w->n ? w->x[0] : NAN);
                gpk_json_num(&j, "to_bytes", w->n ? w->x[w->n - 1] : NAN);
                gpk_json_int(&j, "points", w->n);
                gpk_json_num(&j, "seconds", w->seconds);
                gpk_json_str(&j, "series", c == 0 ? "l1_assoc_sweep" : "l2_assoc_sweep");
                gpk_json_obj_end(&j);
            }
            /* Wong et al.'s m lines at a fixed stride (kept: it shows the hash) */
            gpk_json_strided(&j, r, c);
            gpk_json_obj_end(&j);
        }
        gpk_json_obj_end(&j);
    } else {
        gpk_json_str(&j, "why", gpk_why(0));
    }
    gpk_json_obj_end(&j);

    gpk_json_obj_begin(&j, "cross_sm");
    if (r->xsm_done) {
        gpk_json_str(&j, "method", "atomicCAS ping-pong, global memory, one-way = round trip / 2");
        gpk_json_int(&j, "pairs", r->xsm_done);
        gpk_json_num(&j, "min_ns", r->xsm_min);
        gpk_json_num(&j, "median_ns", r->xsm_med);
        gpk_json_num(&j, "max_ns", r->xsm_max);
        gpk_json_num(&j, "near_ns", r->xsm_near);
        gpk_json_num(&j, "far_ns", r->xsm_far);
        gpk_json_num(&j, "far_fraction", r->xsm_far_frac);
        gpk_json_str(&j, "matrix_file", "cross-sm.csv");
    } else {
        gpk_json_str(&j, "why", r->quick ? gpk_why(0) : gpk_why(-1));
    }
    gpk_json_obj_end(&j);
    gpk_json_obj_end(&j);
    int rc = gpk_json_finish(&j);
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}

static void gpk_fmt(char *buf, size_t n, double v, const char *fmt)
{
    if (isfinite(v))
        snprintf(buf, n, fmt, v);
    else
        snprintf(buf, n, "n/a");
}

static void gpk_bytes(char *buf, size_t n, double v)
{
    if (!isfinite(v))
        snprintf(buf, n, "n/a");
    else if (v >= 4.0 * GB)
        snprintf(buf, n, "%.4g GB", v / GB);
    else if (v >= 4.0 * MB)
        snprintf(buf, n, "%.4g MB", v / MB);
    else
        snprintf(buf, n, "%.4g KB", v / KB);
}

static void gpk_write_table(const gpk_results *r, FILE *f)
{
    const int sms = r->dev.sm_count;
    char a[32], b[32], c[32], d[32], e[32];
    fprintf(f, "gpupeak (%s) on %s: %d SMs, peak clock %.0f MHz, measured %.0f MHz, "
               "L2 %d MB, %.1f s\n",
            r->quick ? "quick" : "full", r->dev.name, sms, r->dev.max_clock_khz / 1e3,
            r->clk_mhz, r->dev.l2_bytes / (1 << 20), r->seconds);
    fprintf(f, "\n%-18s %12s %7s %10s %10s %6s %6s\n", "throughput", "measured", "unit",
            "/clk/SM", "theory", "%", "MHz");
    for (int i = 0; i < GPK_NTPUT; i++) {
        const gpk_rate *o = &r->tput[i];
        if (o->done == 0)
            continue;
        gpk_fmt(a, sizeof a, o->done == 1 ? o->value / 1e12 : NAN, "%.2f");
        gpk_fmt(b, sizeof b, o->done == 1 ? o->per_clk_sm : NAN, "%.1f");
        gpk_fmt(c, sizeof c, gpk_tputs[i].theo, "%.0f");
        gpk_fmt(d, sizeof d, o->done == 1 ? 100 * o->per_clk_sm / gpk_tputs[i].theo : NAN,
                "%.1f");
        gpk_fmt(e, sizeof e, o->done == 1 ? o->clk_mhz : NAN, "%.0f");
        fprintf(f, "%-18s %12s %7s %10s %10s %6s %6s%s%s\n", gpk_tputs[i].key, a,
                strcmp(gpk_tputs[i].unit, "flop/s") ? "Top/s" : "Tflop/s", b, c, d, e,
                o->done != 1 ? "  " : "",
                o->done == 3 ? "skipped (see peaks.json)" : (o->done != 1 ? gpk_why(o->done) : ""));
    }
    fprintf(f, "\n%-18s %12s %7s %10s %10s %6s %6s\n", "bandwidth", "measured", "unit",
            "B/clk/SM", "theory", "%", "MHz");
    for (int i = 0; i < GPK_NMEM; i++) {
        const gpk_rate *o = &r->mem[i];
        double theo = gpk_mems[i].theo;
        if (o->done == 0)
            continue;
        if (gpk_mems[i].kind <= GPK_M_DRAM_COPY)
            theo = o->done == 1 ? gpk_dram_theo(&r->dev) / (o->clk_mhz * 1e6) / sms : NAN;
        gpk_fmt(a, sizeof a, o->done == 1 ? o->value / 1e9 : NAN, "%.0f");
        gpk_fmt(b, sizeof b, o->done == 1 ? o->per_clk_sm : NAN, "%.1f");
        gpk_fmt(c, sizeof c, theo, "%.1f");
        gpk_fmt(d, sizeof d, o->done == 1 ? 100 * o->per_clk_sm / theo : NAN, "%.1f");
        gpk_fmt(e, sizeof e, o->done == 1 ? o->clk_mhz : NAN, "%.0f");
        fprintf(f, "%-18s %12s %7s %10s %10s %6s %6s\n", gpk_mems[i].key, a, "GB/s", b, c, d, e);
    }
    fprintf(f, "  (DRAM theory: %.0f GB/s from %d-bit bus at %.0f MHz DDR; L2 has no published "
               "theoretical rate)\n",
            gpk_dram_theo(&r->dev) / 1e9, r->dev.mem_bus_bits, r->dev.mem_clock_khz / 1e3);
    if (r->ncopyv) {
        fprintf(f, "  dram_copy variants (GB/s, %% of theory):");
        for (int i = 0; i < r->ncopyv; i++)
            if (!r->copyv[i].why)
                fprintf(f, "%s %s %.0f (%.1f)", i % 3 ? "," : "\n   ", r->copyv[i].name,
                        r->copyv[i].bytes_per_s / 1e9,
                        100 * r->copyv[i].bytes_per_s / gpk_dram_theo(&r->dev));
            else
                fprintf(f, "%s %s n/a", i % 3 ? "," : "\n   ", r->copyv[i].name);
        fputc('\n', f);
        for (int i = 0; i < r->ncopyv; i++)
            if (r->copyv[i].why)
                fprintf(f, "    %s: %s\n", r->copyv[i].name, r->copyv[i].why);
    }
    if (r->quick)
        return;
    fprintf(f, "\n%-18s %10s %10s %16s  %s\n", "latency", "cycles", "ns", "published cyc",
            "what");
    for (int i = 0; i < GPK_NLAT; i++) {
        const gpk_lat *o = &r->lat[i];
        const gpk_lat_def *l = &gpk_lats[i];
        char p[40];
        gpk_fmt(a, sizeof a, o->done == 1 ? o->cycles : NAN, "%.2f");
        gpk_fmt(b, sizeof b, o->done == 1 ? o->ns : NAN, "%.2f");
        if (!isfinite(l->pub_lo))
            snprintf(p, sizeof p, "-");
        else if (l->pub_lo == l->pub_hi)
            snprintf(p, sizeof p, "%.4g", l->pub_lo);
        else
            snprintf(p, sizeof p, "%.4g-%.4g", l->pub_lo, l->pub_hi);
        fprintf(f, "%-18s %10s %10s %16s  %s\n", l->key, a, b, p,
                o->done == 3 ? "skipped (see peaks.json)" : l->what);
    }
    if (r->curves_done) {
        fprintf(f, "\ncurves (steps read off latency vs footprint; sizes are the last footprint "
                   "before each climb)\n");
        for (int c2 = 0; c2 < GPK_NCURVE; c2++) {
            const gpk_curve *o = &r->curve[c2];
            fprintf(f, "%-16s", gpk_curves[c2].key);
            if (gpk_curves[c2].by_stride) {
                gpk_fmt(a, sizeof a, o->sat, "%.0f B");
                fprintf(f, " fetch granularity %s (latency %.0f -> %.0f cycles)\n", a,
                        o->n ? o->y[0] : NAN, o->n ? o->y[o->n - 1] : NAN);
                continue;
            }
            for (int k = 0; k < o->nsteps; k++) {
                gpk_bytes(a, sizeof a, o->steps[k].size_below);
                gpk_bytes(b, sizeof b, o->steps[k].size_above);
                fprintf(f, " [%.0f cyc up to %s -> %.0f cyc from %s]", o->steps[k].lat_below, a,
                        o->steps[k].lat_above, b);
            }
            if (gpk_curves[c2].space == GPK_C_TLB_VMM && o->n == 0) {
                fprintf(f, " n/a: %s\n", r->vmm_why ? r->vmm_why : gpk_why(-1));
                continue;
            }
            if (GPK_IS_TLB(gpk_curves[c2].space) && o->reach_rc == 1) {
                gpk_bytes(a, sizeof a, o->reach.reach_bytes);
                fprintf(f, " rise +%.1f cyc from %s (%.0f x stride)", o->reach.penalty_cycles, a,
                        o->reach.reach_bytes / gpk_curves[c2].fixed);
            } else if (GPK_IS_TLB(gpk_curves[c2].space) && o->n) {
                fprintf(f, " no rise");
            }
            if (GPK_IS_TLB(gpk_curves[c2].space) && o->n) {
                gpk_bytes(a, sizeof a, o->x[o->n - 1]);
                gpk_bytes(b, sizeof b, (double)gpk_curves[c2].fixed);
                fprintf(f, " (stride %s, %s, to %s%s)", b,
                        gpk_curves[c2].order ? "random order" : "address order", a,
                        gpk_curves[c2].space == GPK_C_TLB_VMM ? ", separate chunks" : "");
            }
            fprintf(f, " last plateau %.0f cyc\n", o->last_lat);
        }
    }
    for (int c = 0; r->curves_done && c < GPK_NSWEEP; c++) {
        const gpk_sweep_res *w = &r->sweep[c];
        const gpk_assoc_fit *ft = &w->fit;
        fprintf(f, "%-2s associativity  ", gpk_sweeps[c].key);
        if (w->done != 1) {
            fprintf(f, "n/a: %s\n", w->why ? w->why : gpk_why(-1));
            continue;
        }
        if (w->rc == 1)
            fprintf(f, "%.0f ways (fits %.0f-%.0f), capacity %.1f KB, %.0f sets of %.0f B lines",
                    ft->ways, ft->ways_lo, ft->ways_hi, ft->capacity_bytes / 1024, ft->sets,
                    GPK_SW_LINE);
        else
            fprintf(f, "n/a: %s", ft->why);
        fprintf(f, "\n                 (sweep %.0f-%.0f KB, %d points, plateaus %.0f/%.0f cyc; "
                   "best fit %d ways, C %.1f KB, residual %.1f%% / %.1f%% in the transition, "
                   "limit %.1f%%)\n",
                w->n ? w->x[0] / 1024 : NAN, w->n ? w->x[w->n - 1] / 1024 : NAN, w->n, w->t_hit,
                w->t_miss, ft->best_w, ft->capacity_bytes / 1024, 100 * ft->rms_rel,
                100 * ft->rms_trans_rel, 100 * ft->limit_rel);
    }
    for (int c = 0; r->curves_done && c < GPK_NASSOC; c++) {
        const gpk_assoc_res *o = &r->assoc[c];
        const gpk_assoc_def *d = &gpk_assocs[c];
        char why[600];
        gpk_assoc_why(r, c, why, sizeof why);
        fprintf(f, "%-9s strided (Wong) ", d->key);
        if (o->done != 1 || o->a.why[0])
            fprintf(f, "n/a: %s\n", why);
        else if (o->a.way_bytes < KB)
            fprintf(f, "%.0f ways, way %.0f B (implies %.0f B)\n", o->a.ways, o->a.way_bytes,
                    o->a.ways * o->a.way_bytes);
        else
            fprintf(f, "%.0f ways, way %.0f KB (implies %.0f KB)\n", o->a.ways,
                    o->a.way_bytes / 1024, o->a.ways * o->a.way_bytes / 1024);
        if (o->done == 1) {
            /* stride:held, or stride:-/tried when no climb came within the lines tried */
            fprintf(f, "                 lines held before misses, per stride:");
            for (int i = 0; i < d->ns; i++) {
                if (d->strides[i] < KB)
                    fprintf(f, " %.0f", d->strides[i]);
                else
                    fprintf(f, " %.0fK", d->strides[i] / 1024);
                if (isnan(o->a.held[i]))
                    fprintf(f, ":-/%.0f", o->a.tried[i]);
                else
                    fprintf(f, ":%.0f", o->a.held[i]);
            }
            fputc('\n', f);
        }
    }
    if (r->l2nf_done)
        fprintf(f, "l2 single loads  from SM %d: %s %.0f cyc, %.0f cyc (%.0f%% high;"
                   " includes the clock-read overhead)\n",
                r->l2nf_smid, r->l2nf_split ? "two clusters:" : "one cluster:", r->l2_near,
                r->l2_far, 100 * r->l2_far_frac);
    if (r->xsm_done)
        fprintf(f, "\ncross-SM one-way (%d pairs): min %.0f ns, median %.0f, max %.0f; near %.0f "
                   "ns, far %.0f ns (%.0f%% far)\n",
                r->xsm_done, r->xsm_min, r->xsm_med, r->xsm_max, r->xsm_near, r->xsm_far,
                100 * r->xsm_far_frac);
}

static int gpk_write_plots(const gpk_results *r, const char *dir)
{
    char path[4096];
    FILE *f;
    int rc = 0;
    if (r->curves_done) {
        gpk_series s[GPK_NCURVE];
        int ns = 0;
        for (int c = 0; c < GPK_NCURVE; c++) {
            if (gpk_curves[c].by_stride)
                continue;
            s[ns].name = gpk_curves[c].key;
            s[ns].x = r->curve[c].x;
            s[ns].y = r->curve[c].y;
            s[ns].n = r->curve[c].n;
            ns++;
        }
        snprintf(path, sizeof path, "%s/latency-curves.svg", dir);
        if ((f = fopen(path, "w"))) {
            char title[400];
            snprintf(title, sizeof title, "%s: dependent-load latency vs footprint", r->dev.name);
            rc |= gpk_svg_curves(f, title, "footprint (bytes)", "cycles per load", s, ns);
            fclose(f);
        }
        snprintf(path, sizeof path, "%s/curves.csv", dir);
        if ((f = fopen(path, "w"))) {
            fprintf(f, "# gpupeak latency curves on %s; x bytes, y cycles per load\n",
                    r->dev.name);
            for (int c = 0; c < GPK_NCURVE; c++) {
                fprintf(f, "# series %s\n", gpk_curves[c].key);
                for (int i = 0; i < r->curve[c].n; i++)
                    fprintf(f, "%.0f,%.3f\n", r->curve[c].x[i], r->curve[c].y[i]);
            }
            /* fine sweeps past capacity: x bytes, y cycles per load */
            for (int c = 0; c < GPK_NSWEEP; c++) {
                fprintf(f, "# series %s_assoc_sweep\n", gpk_sweeps[c].key);
                for (int i = 0; i < r->sweep[c].n; i++)
                    fprintf(f, "%.0f,%.3f\n", r->sweep[c].x[i], r->sweep[c].y[i]);
            }
            /* associativity: x = lines in the chase, y = cycles per load */
            for (int c = 0; c < GPK_NASSOC; c++) {
                if (r->assoc[c].done != 1 || gpk_assocs[c].same_as >= 0)
                    continue;
                for (int i = 0; i < gpk_assocs[c].ns; i++) {
                    fprintf(f, "# series %s_assoc_%.0f\n", gpk_assocs[c].key,
                            gpk_assocs[c].strides[i]);
                    for (int k = 0; k < GPK_AS_LINES; k++)
                        if (!isnan(r->assoc[c].lat[i * GPK_AS_LINES + k]))
                            fprintf(f, "%.0f,%.3f\n", r->assoc[c].lines[k],
                                    r->assoc[c].lat[i * GPK_AS_LINES + k]);
                }
            }
            fclose(f);
        }
        /* L1 and L2 in one plot, the constant caches (cycles 30-110) in another */
        for (int pl = 0; pl < 2; pl++) {
            gpk_series as[GPK_NASSOC * GPK_ASSOC_MAXS];
            char names[GPK_NASSOC * GPK_ASSOC_MAXS][48], title[400];
            int na = 0;
            snprintf(path, sizeof path, "%s/%s", dir,
                     pl == 0 ? "assoc-curves.svg" : "assoc-const.svg");
            for (int c = 0; c < GPK_NASSOC; c++) {
                const gpk_assoc_def *d = &gpk_assocs[c];
                if ((d->space == GPK_C_CONST) != pl || d->same_as >= 0)
                    continue;
                for (int i = 0; r->assoc[c].done == 1 && i < d->ns; i++) {
                    if (d->strides[i] < KB)
                        snprintf(names[na], sizeof names[na], "%s stride %.0f B", d->key,
                                 d->strides[i]);
                    else
                        snprintf(names[na], sizeof names[na], "%s stride %.0f KB", d->key,
                                 d->strides[i] / 1024);
                    as[na].name = names[na];
                    as[na].x = r->assoc[c].lines;
                    as[na].y = r->assoc[c].lat + i * GPK_AS_LINES;
                    as[na].n = GPK_AS_LINES;
                    na++;
                }
            }
            if (!na || !(f = fopen(path, "w")))
                continue;
            snprintf(title, sizeof title, "%s: latency vs lines at a fixed stride (%s)",
                     r->dev.name, pl == 0 ? "L1, L2 associativity" : "constant caches");
            rc |= gpk_svg_curves(f, title, "lines in the chase", "cycles per load", as, na);
            fclose(f);
        }
    }
    /* each fine sweep with the best LRU fit over it */
    for (int c = 0; r->curves_done && c < GPK_NSWEEP; c++) {
        const gpk_sweep_res *w = &r->sweep[c];
        static double model[GPK_SW_MAX];
        char title[400], fitname[96];
        if (w->done != 1 || w->n < 2)
            continue;
        for (int i = 0; i < w->n; i++)
            model[i] = w->t_hit + (w->t_miss - w->t_hit) *
                                      gpk_assoc_lru_frac(w->x[i], w->fit.capacity_bytes,
                                                         w->fit.best_w);
        snprintf(fitname, sizeof fitname, "LRU fit, %d ways%s", w->fit.best_w,
                 w->rc == 1 ? "" : " (rejected)");
        gpk_series sv[2] = {{"measured", w->x, w->y, w->n}, {fitname, w->x, model, w->n}};
        snprintf(path, sizeof path, "%s/assoc-sweep-%s.svg", dir, gpk_sweeps[c].key);
        if ((f = fopen(path, "w"))) {
            snprintf(title, sizeof title, "%s: %s latency just past capacity (associativity fit)",
                     r->dev.name, gpk_sweeps[c].key);
            rc |= gpk_svg_curves(f, title, "footprint (bytes)", "cycles per load", sv, 2);
            fclose(f);
        }
    }
    if (r->xsm_done) {
        const int n = r->xsm_n;
        snprintf(path, sizeof path, "%s/cross-sm.svg", dir);
        if ((f = fopen(path, "w"))) {
            char title[400];
            snprintf(title, sizeof title, "%s: one-way atomicCAS latency between SMs (ns)",
                     r->dev.name);
            rc |= gpk_svg_heatmap(f, title, "ns", r->xsm_ns, n);
            fclose(f);
        }
        snprintf(path, sizeof path, "%s/cross-sm.csv", dir);
        if ((f = fopen(path, "w"))) {
            fprintf(f, "# one-way ns, row and column = %%smid; empty = not measured\n");
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    if (j)
                        fputc(',', f);
                    if (isfinite(r->xsm_ns[i * n + j]))
                        fprintf(f, "%.1f", r->xsm_ns[i * n + j]);
                }
                fputc('\n', f);
            }
            fclose(f);
        }
    }
    return rc;
}

/* The probes: a child process (forked while this process has not touched
 * CUDA) runs one risky path on small buffers, every byte checked: the
 * bulk-copy variants (2 x 64 MB), or a small VMM sweep (64 MB of separately
 * mapped chunks).  A fault there (a sticky CUDA error), a hang (killed after
 * 30 s) or a wrong copy costs only the child; the main run then skips that
 * path and says why.  Returns NULL when the path works. */
static const char *gpk_probe_one(int vmm)
{
    const double limit = 30.0, t0 = gpk_now();
    const char *what = vmm ? "VMM" : "bulk-copy";
    int st = 0, done = 0;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        return "fork() for the probe process failed";
    if (pid == 0) {
        gpk_devinfo d;
        int code = 2;
        alarm((unsigned)limit + 5); /* in case the parent is gone */
        if (gpk_dev_open(&d) == 0) {
            code = (vmm ? gpk_dev_probe_vmm() : gpk_dev_probe_bulk()) != 0;
            gpk_dev_close();
        }
        _exit(code);
    }
    while (gpk_now() - t0 < limit) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid) {
            done = 1;
            break;
        }
        if (w < 0)
            break;
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
    }
    if (!done) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
    }
    fprintf(stderr, "gpupeak: %s probe: %s (%.1f s)\n", what,
            !done ? "did not finish in 30 s; killed"
                  : !WIFEXITED(st) ? "crashed"
                                   : WEXITSTATUS(st) == 0 ? "ok"
                                                          : WEXITSTATUS(st) == 1 ? "failed"
                                                                                 : "no device",
            gpk_now() - t0);
    if (!done)
        return vmm ? "the VMM probe process hung (killed after 30 s)"
                   : "the bulk-copy probe process hung (killed after 30 s)";
    if (!WIFEXITED(st))
        return vmm ? "the VMM probe process crashed (see the log)"
                   : "the bulk-copy probe process crashed (see the log)";
    if (WEXITSTATUS(st) != 0)
        return vmm ? "the VMM probe (64 MB of separately mapped 2 MB chunks, one chase) failed "
                     "(see the log)"
                   : "the bulk-copy probe (2 x 64 MB, every byte checked) failed or found a "
                     "wrong copy (see the log)";
    return NULL;
}

static void gpk_probe(gpk_results *r)
{
    r->probe_bulk_why = gpk_probe_one(0);
    if (!r->quick)
        r->probe_vmm_why = gpk_probe_one(1);
}

static void gpk_usage(FILE *f)
{
    fprintf(f, "usage: gpupeak [--quick] [--out DIR]\n"
               "  --quick    only the roofline's peaks (FP32, FP64, FP16x2, BF16x2, tensor BF16,\n"
               "             DRAM, L2, L1, shared), under 30 s\n"
               "  --out DIR  where peaks.json, peaks.txt and the plots go (default: .)\n");
}

int main(int argc, char **argv)
{
    static gpk_results r;
    const char *dir = ".";
    char path[4096];
    double t0 = gpk_now();
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            r.quick = 1;
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            dir = argv[++i];
        } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            gpk_usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "gpupeak: unknown argument '%s'\n", argv[i]);
            gpk_usage(stderr);
            return 2;
        }
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gpupeak: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    gpk_probe(&r); /* before this process touches CUDA */
    if (gpk_dev_open(&r.dev) != 0)
        return 1;
    if (r.probe_bulk_why)
        gpk_dev_skip_bulk(r.probe_bulk_why);
    fprintf(stderr, "gpupeak: %s, %d SMs, cc %d.%d (%s run)\n", r.dev.name, r.dev.sm_count,
            r.dev.cc_major, r.dev.cc_minor, r.quick ? "quick" : "full");
    gpk_measure(&r);
    gpk_median_clock(&r);
    r.seconds = gpk_now() - t0;
    snprintf(path, sizeof path, "%s/peaks.json", dir);
    int rc = gpk_write_json(&r, path);
    snprintf(path, sizeof path, "%s/peaks.txt", dir);
    FILE *f = fopen(path, "w");
    if (f) {
        gpk_write_table(&r, f);
        fclose(f);
    } else {
        rc = -1;
    }
    rc |= gpk_write_plots(&r, dir);
    gpk_write_table(&r, stdout);
    free(r.xsm_ns);
    free(r.xsm_cyc);
    gpk_dev_close();
    return rc ? 1 : 0;
}
