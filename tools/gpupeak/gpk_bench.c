/* gpk_bench.c - gpupeak's benchmark tables (gpk_bench.h). */
#include "gpk_bench.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* One entry per line of metrics/catalog/gpupeak.def, at the index of its kind. */
const gpk_tput_def gpk_tputs[GPK_T_COUNT] = {
#define GPK_TPUT(id, key, unit, per_count, theo, quick, sass, skip, peak, run)                    \
    {key, GPK_T_##id, unit, per_count, theo, quick, sass, skip},
#include "metrics/catalog/gpupeak.def"
};

const gpk_mem_def gpk_mems[GPK_M_COUNT] = {
#define GPK_MEM(id, key, quick, theo, what, peak, run) {key, GPK_M_##id, theo, quick, what},
#include "metrics/catalog/gpupeak.def"
};

const gpk_lat_def gpk_lats[GPK_L_COUNT] = {
#define GPK_LAT(id, key, pub_lo, pub_hi, what, skip, run)                                         \
    {key, GPK_L_##id, pub_lo, pub_hi, what, skip},
#include "metrics/catalog/gpupeak.def"
};

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

/* The order is the order of curves.csv, the TLB objects of peaks.json and
 * the table. */
const gpk_curve_def gpk_curves[] = {
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
    /* the constant L1's line: strides over 8 KB, 4x its 2 KB */
    {"const_stride", GPK_C_CONST, 1, 8 << 10, gpk_x_stride, 0},
};
_Static_assert(sizeof gpk_curves / sizeof gpk_curves[0] == GPK_NCURVE, "GPK_NCURVE");

/* The index of the entry named key in a table of n entries of size bytes,
 * each starting with its name; -1 when none is. */
static int gpk_find(const void *table, size_t size, int n, const char *key)
{
    for (int c = 0; c < n; c++)
        if (strcmp(*(const char *const *)((const char *)table + c * size), key) == 0)
            return c;
    return -1;
}

int gpk_curve_index(const char *key)
{
    const int c = gpk_find(gpk_curves, sizeof gpk_curves[0], GPK_NCURVE, key);
    assert(c >= 0 && "no such curve");
    return c;
}

const gpk_assoc_def gpk_assocs[] = {
    {"l1", GPK_C_CA, "l1_footprint", 0, NULL, 2, 0, 6,
     {8 * KB, 16 * KB, 32 * KB, 64 * KB, 128 * KB, 256 * KB}},
    {"l2", GPK_C_CG, "l2_footprint", 0, NULL, 2, 0, 4, {256 * KB, 1 * MB, 4 * MB, 16 * MB}},
    {"const_l1", GPK_C_CONST, "const_footprint", 0, NULL, 1, GPK_CONST_BYTES, 9,
     {64, 128, 256, 512, 1 * KB, 2 * KB, 4 * KB, 8 * KB, 16 * KB}},
    {"const_l15", GPK_C_CONST, "const_footprint", 1, "const_l1", 1, GPK_CONST_BYTES, 9,
     {64, 128, 256, 512, 1 * KB, 2 * KB, 4 * KB, 8 * KB, 16 * KB}},
};
_Static_assert(sizeof gpk_assocs / sizeof gpk_assocs[0] == GPK_NASSOC, "GPK_NASSOC");

int gpk_assoc_index(const char *key)
{
    const int c = gpk_find(gpk_assocs, sizeof gpk_assocs[0], GPK_NASSOC, key);
    assert(c >= 0 && "no such associativity entry");
    return c;
}

int gpk_const_assoc(int level)
{
    for (int c = 0; c < GPK_NASSOC; c++)
        if (gpk_assocs[c].space == GPK_C_CONST && gpk_assocs[c].level == level)
            return c;
    return -1;
}

const gpk_sweep_def gpk_sweeps[] = {
    {"l1", GPK_C_CA, "l1_footprint", 0, 192 * KB, 288 * KB, 128, 384 * KB, 1 * KB},
    {"l2", GPK_C_CG, "l2_footprint", 1, 54 * MB, 74 * MB, 512 * KB, 74 * MB, 512 * KB},
};
_Static_assert(sizeof gpk_sweeps / sizeof gpk_sweeps[0] == GPK_NSWEEP, "GPK_NSWEEP");

int gpk_sweep_index(const char *key)
{
    return gpk_find(gpk_sweeps, sizeof gpk_sweeps[0], GPK_NSWEEP, key);
}
