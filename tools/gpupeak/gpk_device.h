/* gpk_device.h - the only boundary between gpupeak's host code (plain C) and
 * the GPU (gpk_dev*.cu and gpk_wgmma.cu, CUDA runtime).  Every function
 * returns 0 on success or -1 after printing one sentence that says what
 * failed, except gpk_dev_open, which hands its sentence to the caller. */
#ifndef GPK_DEVICE_H
#define GPK_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpk_devinfo {
    char name[256];
    int cc_major, cc_minor;
    int sm_count;
    int max_clock_khz;   /* cudaDevAttrClockRate: the peak SM clock */
    int mem_clock_khz;   /* cudaDevAttrMemoryClockRate */
    int mem_bus_bits;    /* cudaDevAttrGlobalMemoryBusWidth */
    int l2_bytes;
    int smem_per_sm;     /* bytes */
    int smem_optin;      /* largest dynamic shared memory one block may ask for */
    size_t global_bytes; /* free device memory at start */
} gpk_devinfo;

/* One measurement: the median of several launches. */
typedef struct gpk_meas {
    double ms;      /* kernel time by CUDA events (median launch) */
    double clk_mhz; /* SM clock during that launch: clock64 over %globaltimer */
} gpk_meas;

/* The kinds of metrics/catalog/gpupeak.def, numbered in its order: throughput
 * (independent chains in a full, single-wave grid), memory bandwidth, and
 * latency (one thread, one dependent chain). */
enum gpk_tput_kind {
#define GPK_TPUT(id, ...) GPK_T_##id,
#include "metrics/catalog/gpupeak.def"
    GPK_T_COUNT
};
enum gpk_mem_kind {
#define GPK_MEM(id, ...) GPK_M_##id,
#include "metrics/catalog/gpupeak.def"
    GPK_M_COUNT
};
enum gpk_lat_kind {
#define GPK_LAT(id, ...) GPK_L_##id,
#include "metrics/catalog/gpupeak.def"
    GPK_L_COUNT
};

/* Pointer-chase spaces. */
enum gpk_chase_space {
    GPK_C_CA,    /* ordinary global load, cached in L1 */
    GPK_C_CG,    /* ld.global.cg: L2 and beyond */
    GPK_C_CONST, /* __constant__ memory (at most 64 KB) */
};

/* Opens device 0; on failure returns -1 with one sentence in why (n bytes)
 * and prints nothing, so the caller says it once. */
int gpk_dev_open(gpk_devinfo *info, char *why, size_t n);
/* on: the timed launches of every line (not the calibration before them)
 * run between cudaProfilerStart and cudaProfilerStop, so that a profiler
 * started with profiling off (gpuprof --profile-from-start off) sees exactly
 * the launches whose times give the figures (--profile-measured). */
void gpk_dev_profile_measured(int on);
/* cudaProfilerStart (begin) or Stop around a line's timed launches, when
 * gpk_dev_profile_measured(1) was called; nothing otherwise */
void gpk_measured_range(int begin);
void gpk_dev_close(void);

/* Runs kind for about target_ms per launch.  *count: operations executed
 * (lanes x FMAs for FMA kinds, one per lane for integer/SFU kinds, flops for
 * matrix kinds).  Returns 1 (not -1) when the kind is not built in. */
int gpk_dev_tput(int kind, double target_ms, double *count, gpk_meas *m);
/* *bytes: bytes moved (read + written) per launch. */
int gpk_dev_mem(int kind, double target_ms, double *bytes, gpk_meas *m);
/* *cycles: cycles per dependent operation (loop overhead amortised over 256). */
int gpk_dev_lat(int kind, double *cycles, gpk_meas *m);
/* Average cycles per load of a dependent chase over footprint bytes with the
 * given stride (footprint / stride lines, at least 1), first pass
 * discarded.  GPK_C_CONST: one LDC per step through a __constant__ array
 * holding byte offsets (footprint at most 64 KB). */
int gpk_dev_chase(int space, size_t footprint, size_t stride, double *cycles, double *clk_mhz);
/* TLB: average cycles per load of a dependent chase of 64-bit pointers, one
 * line per stride-sized block (so one page per load when stride >= page
 * size), over footprint bytes of a buf_bytes buffer allocated on the first
 * call and kept until gpk_dev_tlb_free(); loads are ld.global.cg (L2 hits:
 * the lines fit L2, the pages do not fit the TLBs); first pass discarded.
 * order 0: the blocks in address order; 1: in a random single cycle (a
 * fixed shuffle), which no translation prefetcher can follow. */
int gpk_dev_tlb_chase(size_t footprint, size_t stride, size_t buf_bytes, int order,
                      double *cycles, double *clk_mhz);
void gpk_dev_tlb_free(void);

/* The DRAM copy variants measured by the last gpk_dev_mem(GPK_M_DRAM_COPY):
 * name, bytes (read + written) per second, SM clock (NaN for the driver's
 * cudaMemcpy, listed for reference and never taken as the peak). */
typedef struct gpk_copy_var {
    const char *name;
    double bytes_per_s; /* NaN when not measured (see why) */
    double clk_mhz;
    const char *why;    /* NULL when measured; else why not (not run, failed, wrong copy) */
    int reference;      /* 1: listed for reference only, never the peak (the driver's
                         * cudaMemcpy; the in-place diagnostic, which copies nothing) */
} gpk_copy_var;
int gpk_dev_copy_variants(gpk_copy_var *out, int max);
/* The bulk-copy (cp.async.bulk) variants on small buffers, every byte
 * checked: 0 when correct.  Meant for a separate probe process. */
int gpk_dev_probe_bulk(void);
/* Makes gpk_dev_mem(GPK_M_DRAM_COPY) skip the bulk variants, giving why. */
void gpk_dev_skip_bulk(const char *why);

/* TLB over memory built from separate physical chunks (cuMemCreate of the
 * minimum granularity, at least 2 MB, mapped in shuffled order into one
 * reserved range with cuMemMap/cuMemSetAccess), so no translation covers
 * more than one chunk.  gpk_dev_vmm_alloc maps bytes (rounded down to whole
 * chunks; *chunk_bytes: the chunk size) and keeps the range until
 * gpk_dev_vmm_free(), which unmaps and releases everything; the chase is
 * gpk_dev_tlb_chase's, over footprint bytes of that range. */
int gpk_dev_vmm_alloc(size_t bytes, size_t *chunk_bytes, size_t *mapped_bytes);
int gpk_dev_vmm_chase(size_t footprint, size_t stride, int order, double *cycles,
                      double *clk_mhz);
void gpk_dev_vmm_free(void);
/* Free device memory now (cudaMemGetInfo), 0 on error. */
size_t gpk_dev_free_bytes(void);
/* A small VMM sweep (64 MB of chunks, one chase) for the probe process. */
int gpk_dev_probe_vmm(void);

/* n single-load latencies (cycles, timing overhead included) of lines of a
 * footprint already in L2, from one thread on whichever SM runs block 0. */
int gpk_dev_l2_samples(size_t footprint, int n, uint32_t *cycles, int *smid);
/* Cross-SM: one-way latency of an atomicCAS ping-pong between the blocks that
 * run on SMs a and b, for every pair of SM ids seen (%smid < nmax); the
 * matrices are (*n_out) x (*n_out), row-major, NaN where a pair did not meet. */
int gpk_dev_pingpong_matrix(int rounds, int nmax, double *ns_oneway, double *cyc_oneway,
                            int *n_out);

#ifdef __cplusplus
}
#endif
#endif
