/* occupancy.c - theoretical occupancy calculator; see occupancy.h. */
#include "metrics/catalog/occupancy.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static long gp_occupancy_round_up(long x, long unit)
{
    return unit > 0 ? (x + unit - 1) / unit * unit : x;
}

/* Shared-memory configurations of sm_90 in KB; the driver rounds a carveout
 * request up to the next one. */
static const long gp_occupancy_carveouts_kb[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};

static long gp_occupancy_align_carveout(const gp_device *d, long bytes)
{
    size_t i;
    for (i = 0; i < sizeof gp_occupancy_carveouts_kb / sizeof gp_occupancy_carveouts_kb[0]; i++)
        if (bytes <= gp_occupancy_carveouts_kb[i] * 1024 &&
            gp_occupancy_carveouts_kb[i] * 1024 <= d->smem_per_sm)
            return gp_occupancy_carveouts_kb[i] * 1024;
    return d->smem_per_sm;
}

const char *gp_occupancy_limiter_name(gp_occ_limiter l)
{
    switch (l) {
    case GP_OCC_LIMIT_NONE: return "none";
    case GP_OCC_LIMIT_WARPS: return "warps";
    case GP_OCC_LIMIT_BLOCKS: return "blocks";
    case GP_OCC_LIMIT_REGISTERS: return "registers";
    case GP_OCC_LIMIT_SMEM: return "shared memory";
    default: return "invalid";
    }
}

static int gp_occupancy_invalid(gp_occ_result *out, const char *why, long a, long b)
{
    out->blocks_per_sm = out->warps_per_sm = 0;
    out->occupancy = 0;
    out->limiter = GP_OCC_LIMIT_INVALID;
    snprintf(out->advice, sizeof out->advice, why, a, b);
    return -1;
}

/* Registers per thread at most that let `blocks` blocks of `wpb` warps fit. */
static int gp_occupancy_regs_for(const gp_device *d, int blocks, int wpb)
{
    int sub = d->warp_alloc_granularity;
    int warps_per_sub = (blocks * wpb + sub - 1) / sub;
    long per_warp = warps_per_sub ? (long)d->regs_per_sm / sub / warps_per_sub : 0;
    per_warp = per_warp / d->reg_alloc_unit * d->reg_alloc_unit;
    per_warp /= d->warp_size;
    /* the compiler allocates registers in multiples of 8 */
    per_warp = per_warp / 8 * 8;
    return per_warp > d->max_regs_per_thread ? d->max_regs_per_thread : (int)per_warp;
}

static void gp_occupancy_advise(const gp_device *d, const gp_occ_input *in, gp_occ_result *r,
                                int wpb)
{
    int next = r->blocks_per_sm + 1, t = in->threads_per_block;
    switch (r->limiter) {
    case GP_OCC_LIMIT_BLOCKS: {
        int need = (d->max_threads_per_sm + d->max_blocks_per_sm - 1) / d->max_blocks_per_sm;
        snprintf(r->advice, sizeof r->advice,
                 "blocks of %d threads: an SM holds at most %d blocks, so only %d of %d threads; "
                 "use at least %d threads per block (e.g. 16x16 = 256 instead of %d)",
                 t, d->max_blocks_per_sm, r->blocks_per_sm * t, d->max_threads_per_sm, need, t);
        break;
    }
    case GP_OCC_LIMIT_WARPS:
        snprintf(r->advice, sizeof r->advice,
                 "%d warps per block fit %d times in %d warps per SM, leaving %d warps idle; use a "
                 "block size that divides %d threads (e.g. 256 or 512)",
                 wpb, r->blocks_per_sm, d->max_warps_per_sm,
                 d->max_warps_per_sm - r->warps_per_sm, d->max_threads_per_sm);
        break;
    case GP_OCC_LIMIT_REGISTERS: {
        int regs = gp_occupancy_regs_for(d, next, wpb);
        if (regs >= 16)
            snprintf(r->advice, sizeof r->advice,
                     "%d registers per thread (%d per warp after rounding) fit %d blocks of %d "
                     "threads; at most %d registers per thread fit %d: use "
                     "__launch_bounds__(%d, %d) or -maxrregcount=%d (watch for spills)",
                     in->regs_per_thread, r->regs_per_warp_alloc, r->blocks_per_sm, t, regs,
                     next, t, next, regs);
        else
            snprintf(r->advice, sizeof r->advice,
                     "%d registers per thread fit %d blocks of %d threads; use smaller blocks "
                     "or fewer registers",
                     in->regs_per_thread, r->blocks_per_sm, t);
        break;
    }
    case GP_OCC_LIMIT_SMEM: {
        long per_block = r->smem_per_sm_config / next - d->smem_reserved_per_block;
        per_block = per_block / d->smem_alloc_unit * d->smem_alloc_unit;
        snprintf(r->advice, sizeof r->advice,
                 "%ld bytes of shared memory per block (%ld with the driver's reservation) fit %d "
                 "blocks in %ld bytes per SM; at most %ld bytes per block fit %d blocks",
                 in->static_smem + in->dynamic_smem, r->smem_per_block_alloc, r->blocks_per_sm,
                 r->smem_per_sm_config, per_block > 0 ? per_block : 0, next);
        break;
    }
    default:
        r->advice[0] = 0;
    }
}

int gp_occupancy_compute(const gp_device *d, const gp_occ_input *in, gp_occ_result *out)
{
    int wpb, min, cluster = in->cluster_size > 1 ? in->cluster_size : 1;
    long smem_total, block_limit, pref;
    memset(out, 0, sizeof *out);
    out->by_warps = out->by_blocks = out->by_regs = out->by_smem = INT_MAX;
    if (in->threads_per_block <= 0 || in->threads_per_block > d->max_threads_per_block)
        return gp_occupancy_invalid(out, "block of %ld threads: the limit is %ld",
                                    in->threads_per_block, d->max_threads_per_block);
    if (cluster > 16)
        return gp_occupancy_invalid(out, "cluster of %ld blocks: the limit is %ld", cluster, 16);
    wpb = (in->threads_per_block + d->warp_size - 1) / d->warp_size;

    out->by_warps = d->max_warps_per_sm / wpb;
    out->by_blocks = d->max_blocks_per_sm;

    if (in->regs_per_thread > 0) {
        int sub = d->warp_alloc_granularity;
        long per_warp = gp_occupancy_round_up((long)in->regs_per_thread * d->warp_size,
                                              d->reg_alloc_unit);
        /* the hardware checks a block as if its warps were spread over all
         * sub-partitions at once */
        long assumed = per_warp * gp_occupancy_round_up(wpb, sub);
        out->regs_per_warp_alloc = (int)per_warp;
        if (in->regs_per_thread > d->max_regs_per_thread)
            return gp_occupancy_invalid(out, "%ld registers per thread: the limit is %ld",
                                        in->regs_per_thread, d->max_regs_per_thread);
        if (assumed > d->max_regs_per_block || per_warp * wpb > d->max_regs_per_block)
            return gp_occupancy_invalid(out,
                                        "%ld registers per block after rounding: the limit is %ld",
                                        assumed, d->max_regs_per_block);
        out->by_regs = (int)((d->regs_per_sm / sub / per_warp) * sub / wpb);
    }

    smem_total = in->static_smem + in->dynamic_smem + d->smem_reserved_per_block;
    out->smem_per_block_alloc = gp_occupancy_round_up(smem_total, d->smem_alloc_unit);
    if (in->max_dynamic_smem >= 0 && in->dynamic_smem > in->max_dynamic_smem)
        return gp_occupancy_invalid(out, "%ld bytes of dynamic shared memory: the kernel allows %ld",
                                    in->dynamic_smem, in->max_dynamic_smem);
    /* above 48 KB per block only with opt-in; with an unknown attribute assume
     * the program opted in (its launch ran) */
    block_limit = d->smem_per_block;
    if (in->max_dynamic_smem < 0 ? in->static_smem + in->dynamic_smem > d->smem_per_block
                                 : in->static_smem + in->max_dynamic_smem > d->smem_per_block)
        block_limit = d->smem_per_block_optin;
    block_limit += d->smem_reserved_per_block;
    if (out->smem_per_block_alloc > block_limit)
        return gp_occupancy_invalid(out, "%ld bytes of shared memory per block: the limit is %ld",
                                    out->smem_per_block_alloc, block_limit);
    pref = in->carveout_pct < 0 ? d->smem_per_sm : (long)in->carveout_pct * d->smem_per_sm / 100;
    pref = gp_occupancy_align_carveout(d, pref);
    /* a carveout too small for one block is overridden by the driver */
    if (pref < out->smem_per_block_alloc)
        pref = gp_occupancy_align_carveout(d, out->smem_per_block_alloc);
    out->smem_per_sm_config = pref;
    /* a block that needs no shared memory at all (none declared and no
     * per-block reservation, as on GPUs before sm_80) is not limited by it */
    if (out->smem_per_block_alloc > 0) {
        long fit = pref / out->smem_per_block_alloc;
        out->by_smem = fit > INT_MAX ? INT_MAX : (int)fit;
    }

    /* on a tie name the structural limit first: fewer registers or less shared
     * memory would not help while warps or blocks per SM bind as well */
    min = out->by_warps;
    out->limiter = GP_OCC_LIMIT_WARPS;
    if (out->by_blocks < min) {
        min = out->by_blocks;
        out->limiter = GP_OCC_LIMIT_BLOCKS;
    }
    if (out->by_regs < min) {
        min = out->by_regs;
        out->limiter = GP_OCC_LIMIT_REGISTERS;
    }
    if (out->by_smem < min) {
        min = out->by_smem;
        out->limiter = GP_OCC_LIMIT_SMEM;
    }
    out->blocks_per_sm = min;
    out->warps_per_sm = min * wpb;
    out->occupancy = (double)out->warps_per_sm / d->max_warps_per_sm;
    if (min == 0)
        return gp_occupancy_invalid(out, "no block fits on an SM (%ld registers per warp, %ld bytes "
                                    "of shared memory per block)",
                                    out->regs_per_warp_alloc, out->smem_per_block_alloc);
    if (out->warps_per_sm >= d->max_warps_per_sm)
        out->limiter = GP_OCC_LIMIT_NONE;
    gp_occupancy_advise(d, in, out, wpb);
    return 0;
}
