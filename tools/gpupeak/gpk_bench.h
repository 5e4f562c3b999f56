/* gpk_bench.h - what gpupeak measures, as data: the rates and latencies of
 * metrics/catalog/gpupeak.def as tables indexed by their kind, and the
 * latency-versus-footprint curves, the strided associativity tests and the
 * sweeps past capacity (gpk_bench.c).  The measurement (gpk_measure.c),
 * the fits (gpk_fit.c) and the writers (gpk_write_*.c) walk these tables. */
#ifndef GPK_BENCH_H
#define GPK_BENCH_H

#include <stddef.h>

#include "gpk_device.h"
#include "gpk_steps.h"

#define KB 1024.0
#define MB (1024.0 * 1024.0)
#define GB (1024.0 * MB)

/* ------------------------------------------- rates and latencies ---- */

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
extern const gpk_tput_def gpk_tputs[GPK_T_COUNT];

typedef struct gpk_mem_def {
    const char *key;
    int kind;
    double theo; /* bytes per clock per SM; NAN: none published; GPK_THEO_DRAM */
    int quick;
    const char *what;
} gpk_mem_def;
extern const gpk_mem_def gpk_mems[GPK_M_COUNT];

typedef struct gpk_lat_def {
    const char *key;
    int kind;
    double pub_lo, pub_hi; /* published range in cycles; NAN: none in the reference */
    const char *what;
    const char *skip; /* non-NULL: not measured, and why */
} gpk_lat_def;
extern const gpk_lat_def gpk_lats[GPK_L_COUNT];

/* ------------------------------------------------------------ curves ---- */

/* Chase spaces beyond gpk_device.h's: the TLB sweeps.  GPK_C_TLB: footprints
 * 4 per octave from 2 strides up to one cudaMalloc buffer (at most 48 GB and
 * half the free memory), one 64-bit pointer per stride-sized block, so each
 * load touches a new page; the blocks in a random single cycle, or in
 * address order for the _seq sweeps.  GPK_C_TLB_VMM: the same chase over
 * memory built from separate 2 MB physical chunks, so no translation spans
 * more than one chunk (up to 16 GB and half the free memory); run last in
 * the full run, after the cross-SM matrix, so a failure there costs nothing
 * else. */
#define GPK_C_TLB 100
#define GPK_C_TLB_VMM 101
#define GPK_IS_TLB(space) ((space) == GPK_C_TLB || (space) == GPK_C_TLB_VMM)
#define GPK_TLB_MAX (48.0 * 1024 * 1024 * 1024)
#define GPK_TLB_VMM_MAX (16.0 * 1024 * 1024 * 1024)
#define GPK_TLB_LINES 24576.0 /* at most 3 MB of lines, so every load hits L2 */
#define GPK_REACH_MIN 4.0     /* cycles: the smallest TLB rise reported */
#define GPK_REACH_LINES 16    /* the fewest lines (pages) of a footprint the fit uses */

/* Latency-versus-footprint curves (full run only). */
typedef struct gpk_curve_def {
    const char *key;
    int space;
    int by_stride;    /* 0: x is footprint at fixed stride; 1: x is stride at fixed footprint */
    size_t fixed;     /* the stride (by footprint) or footprint (by stride) */
    const double *xs; /* x values in bytes, ascending, 0-terminated; NULL: TLB sweep */
    int order;        /* TLB sweeps: 0 pages in address order, 1 in a random cycle */
} gpk_curve_def;
#define GPK_NCURVE 15
#define GPK_MAXPTS 64
#define GPK_MAXSTEPS 4
extern const gpk_curve_def gpk_curves[];
/* The index of the curve named key; key must name one. */
int gpk_curve_index(const char *key);

/* ---------------------------------------------------- associativity ---- */

/* Associativity by strides (Wong et al.): m = m0..m0+GPK_AS_LINES-1 lines
 * spaced by each stride, m x stride at most max_bytes (the constant bank's
 * 64 KB: longer rows end early).  level: the cache level (0: the first
 * climb of each row is this cache missing; 1: the next level, whose misses
 * are the first climb past the footprint curve's second plateau, read from
 * the rows of the entry same_as).  The L1 and L2 rows start at 2 lines; the
 * constant rows at 1, so a direct-mapped cache would show too. */
#define GPK_AS_LINES 64
#define GPK_CONST_BYTES (64 * KB) /* the most a __constant__ array may hold */
typedef struct gpk_assoc_def {
    const char *key;
    int space;
    const char *curve;   /* the footprint curve of this cache */
    int level;
    const char *same_as; /* NULL, or the entry whose measured rows this one reads */
    int m0;              /* the fewest lines */
    double max_bytes;    /* 0: no limit */
    int ns;
    double strides[GPK_ASSOC_MAXS];
} gpk_assoc_def;
#define GPK_NASSOC 4
extern const gpk_assoc_def gpk_assocs[];
/* The index of the entry named key; key must name one. */
int gpk_assoc_index(const char *key);
/* The strided-test entry of constant-cache level k (0: L1, 1: L1.5), or -1. */
int gpk_const_assoc(int level);

/* Associativity through the hashed index (gpk_assoc_fit_lru): a chase at
 * one line (128 B) per step over footprints from `from` to `to`, `step`
 * apart up to `fine_to` and `step2` beyond, past the capacity read off the
 * footprint curve; the hit and miss plateaus come from that curve's first
 * step (L1 hit -> L2) or its last (L2: far-partition hits -> DRAM). */
#define GPK_SW_MAX 1024
#define GPK_SW_LINE 128.0
#define GPK_SW_TOL 0.025
#define GPK_SW_MAXW 64
typedef struct gpk_sweep_def {
    const char *key; /* the associativity entry it belongs to */
    int space;
    const char *curve; /* the footprint curve with the plateaus */
    int last_step;     /* 0: its first step; 1: its last */
    double from, fine_to, step, to, step2;
} gpk_sweep_def;
#define GPK_NSWEEP 2
extern const gpk_sweep_def gpk_sweeps[];
/* The sweep of the associativity entry named key, or -1. */
int gpk_sweep_index(const char *key);

#endif
