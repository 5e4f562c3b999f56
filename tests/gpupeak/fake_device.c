/* fake_device.c - a test double of gpupeak's device layer (gpk_device.h) for
 * machines without a GPU.  Linked in place of the CUDA objects, it answers
 * every gpk_dev_* call with figures from simple cache and TLB models (an L1
 * whose sweep past capacity is LRU, an L2 whose sweep is not, constant
 * caches with a plain index, a TLB rise, an L2 with two partitions), so that
 * gpupeak's host side - the tables, the measurement loops, every fit and
 * every writer - runs end to end and writes the same files every time.
 * tests/gpupeak/test_fake_run.sh compares them with the files this double
 * gave the code before the measure/fit/write split.
 *
 * A few answers fail on purpose, to keep the failure paths in the files:
 * sfu_sin's throughput, the atomic_shared latency, and the bulk-copy probe;
 * wgmma_tf32 reports "not built".
 *
 * gpupeak's own timings would differ between runs, so this file also
 * freezes clock_gettime() for the program it is linked into: every duration
 * gpupeak prints is 0. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gpk_device.h"

int clock_gettime(clockid_t id, struct timespec *ts)
{
    (void)id;
    ts->tv_sec = 1000;
    ts->tv_nsec = 0;
    return 0;
}

#define KB 1024.0
#define MB (1024.0 * KB)
#define GB (1024.0 * MB)

static const char *fake_bulk_why;

/* A small deterministic wobble (+-0.4 cycles), so that noise estimates and
 * fit residuals are not exactly zero. */
static double fake_noise(double a, double b)
{
    uint64_t x = (uint64_t)a * 0x9e3779b97f4a7c15ull ^ (uint64_t)b * 0xc2b2ae3d27d4eb4full;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 32;
    return ((double)(x % 1000) / 1000.0 - 0.5) * 0.8;
}

/* An H200's figures, but for the name. */
int gpk_dev_open(gpk_devinfo *d, char *why, size_t n)
{
    static const gpk_devinfo h200 = {
        .name = "Fake H200 (gpupeak test double)",
        .cc_major = 9,
        .sm_count = 132,
        .max_clock_khz = 1980000,
        .mem_clock_khz = 3201000,
        .mem_bus_bits = 6016,
        .l2_bytes = 60 << 20,
        .smem_per_sm = 233472,
        .smem_optin = 232448,
        .global_bytes = (size_t)140 << 30,
    };
    *d = h200;
    return 0;
}

void gpk_dev_close(void) {}

int gpk_dev_tput(int kind, double target_ms, double *count, gpk_meas *m)
{
    if (kind == GPK_T_SIN)
        return -1;
    if (kind == GPK_T_WGMMA_TF32)
        return 1;
    *count = 1e12 * (kind + 1) * (target_ms / 25.0) * 0.97;
    m->ms = target_ms * (1.0 + kind / 100.0);
    m->clk_mhz = 1980.0 - 3.5 * kind;
    return 0;
}

int gpk_dev_mem(int kind, double target_ms, double *bytes, gpk_meas *m)
{
    *bytes = 1e11 * (GPK_M_COUNT - kind) * (target_ms / 25.0);
    m->ms = target_ms * (1.0 + kind / 50.0);
    m->clk_mhz = 1976.0 - kind;
    return 0;
}

int gpk_dev_copy_variants(gpk_copy_var *out, int max)
{
    const gpk_copy_var v[] = {
        {"u4_plain_4bps", 3.61e12, 1979.5, NULL, 0},
        {"u8_cs_1bps", 3.97e12, 1979.9, NULL, 0},
        {"bulk_16k_x8_1bps", NAN, NAN, fake_bulk_why, 0},
        {"u8_cs_4bps_4g", NAN, NAN, "not enough free device memory for 2 x 4 GiB", 0},
        {"u8_cs_4bps_inplace_diag", 3.89e12, 1979.0, NULL, 1},
        {"cudaMemcpy_d2d_reference", 4.2e12, NAN, NULL, 1},
    };
    int n = (int)(sizeof v / sizeof v[0]);
    if (n > max)
        n = max;
    for (int i = 0; i < n; i++)
        out[i] = v[i];
    return n;
}

int gpk_dev_probe_bulk(void) { return -1; }
void gpk_dev_skip_bulk(const char *why) { fake_bulk_why = why; }

int gpk_dev_lat(int kind, double *cycles, gpk_meas *m)
{
    if (kind == GPK_L_ATOM_SHARED)
        return -1;
    *cycles = 4.03 + 1.5 * kind + fake_noise(kind, 7);
    m->ms = 2.0;
    m->clk_mhz = 1980.0 - kind;
    return 0;
}

/* Lines held before misses when m lines lie `stride` apart in a cache of
 * `ways` ways of `way` bytes with a plain index. */
static double fake_held(double stride, double ways, double way)
{
    return stride >= way ? ways : ways * way / stride;
}

/* The L1 past capacity: LRU over a uniform hash, 217 KB, 4 ways. */
static double fake_lru(double n, double c, double w)
{
    if (n <= c)
        return 0;
    double f = (w + 1) * (n - c) / n;
    return f > 1 ? 1 : f;
}

int gpk_dev_chase(int space, size_t footprint, size_t stride, double *cycles, double *clk_mhz)
{
    const double fp = (double)footprint, st = (double)stride, m = fp / st;
    double y;
    *clk_mhz = 1979.0;
    if (space == GPK_C_CONST) {
        if (fp > 64 * KB)
            return -1;
        if (fp == 8 * KB && st < 64) /* const_stride: one miss per 64 B line */
            y = 28 + 70 * st / 64;
        else /* 2 KB, 4 ways of 512 B, plain index; the next level holds 64 KB */
            y = m <= fake_held(st, 4, 512) ? 28 : 98;
    } else if (space == GPK_C_CA) {
        if (fp == 1 * MB && st < 128) /* l1_stride: 32 B sectors */
            y = 39 + 248 * fmin(1.0, st / 32);
        else if (st >= 8 * KB) /* Wong: a hashed index, so every row hits */
            y = 39;
        else
            y = 39 + 248 * fake_lru(fp, 217 * KB, 4);
    } else {
        const double t = (fp - 54 * MB) / (20 * MB);
        if (fp == 256 * MB && st < 128) /* l2_stride: 64 B DRAM fetch */
            y = 286 + 406 * fmin(1.0, st / 64);
        else if (st >= 256 * KB) /* Wong */
            y = 286;
        else if (fp <= 28 * MB)
            y = 286;
        else if (t <= 0)
            y = 532;
        else /* a staircase past capacity, which no LRU curve fits */
            y = 532 + 160 * floor(fmin(t, 1.0) * 4) / 4;
    }
    *cycles = y + fake_noise(fp, st);
    return 0;
}

static double fake_tlb(size_t footprint, size_t stride, int order, double reach)
{
    const double fp = (double)footprint;
    double y = 280 + fake_noise(fp, (double)stride);
    if (order)
        y += 14 * fmax(0.0, 1 - reach / fp);
    return y;
}

int gpk_dev_tlb_chase(size_t footprint, size_t stride, size_t buf_bytes, int order,
                      double *cycles, double *clk_mhz)
{
    if (footprint / stride < 2 || footprint > buf_bytes)
        return -1;
    *cycles = fake_tlb(footprint, stride, order, 174 * MB);
    *clk_mhz = 1978.0;
    return 0;
}
void gpk_dev_tlb_free(void) {}

static size_t fake_vmm_mapped;
int gpk_dev_vmm_alloc(size_t bytes, size_t *chunk_bytes, size_t *mapped_bytes)
{
    const size_t chunk = (size_t)2 << 20;
    fake_vmm_mapped = bytes / chunk * chunk;
    *chunk_bytes = chunk;
    *mapped_bytes = fake_vmm_mapped;
    return fake_vmm_mapped >= 2 * chunk ? 0 : -1;
}
int gpk_dev_vmm_chase(size_t footprint, size_t stride, int order, double *cycles,
                      double *clk_mhz)
{
    if (footprint > fake_vmm_mapped)
        return -1;
    *cycles = fake_tlb(footprint, stride, order, 241 * MB);
    *clk_mhz = 1978.0;
    return 0;
}
void gpk_dev_vmm_free(void) { fake_vmm_mapped = 0; }
size_t gpk_dev_free_bytes(void) { return (size_t)100 << 30; }
void gpk_dev_profile_measured(int on) { (void)on; } /* no timed launches to mark */
int gpk_dev_probe_vmm(void) { return 0; }

int gpk_dev_l2_samples(size_t footprint, int n, uint32_t *cycles, int *smid)
{
    for (int i = 0; i < n; i++)
        cycles[i] = (i * 7) % 10 < 3 ? 560 + i % 5 : 288 + i % 3;
    *smid = 17;
    return 0;
}

int gpk_dev_pingpong_matrix(int rounds, int nmax, double *ns, double *cyc, int *n_out)
{
    const int n = 16 < nmax ? 16 : nmax; /* SMs seen: a small matrix */
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            double v = a / 2 == b / 2 ? 104 : 150 + (a * 7 + b * 3) % 26;
            if (a == b || (a == 5 && b == 9) || (a == 9 && b == 5))
                v = NAN;
            ns[a * n + b] = v;
            cyc[a * n + b] = v * 1.98;
        }
    *n_out = n;
    return 0;
}
