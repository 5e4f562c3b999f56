/* verdict.c - the bottleneck rules; see verdict.h.
 *
 * Ranking: each verdict gets a score, a rough share of the kernel's time that
 * the problem costs.  Inefficiencies score by how much they waste (1 -
 * efficiency); "bound" verdicts (a unit near its ceiling) score low (0.1 to
 * 0.2): a kernel that runs at its roof is not slow for a fixable reason, so
 * a waste that explains the boundness (uncoalesced loads filling DRAM) comes
 * first, and a kernel with nothing wrong shows only its bound. */
#include "metrics/verdicts/verdict.h"

#include "metrics/catalog/format.h"
#include "metrics/verdicts/verdict_stall.h"
#include "metrics/verdicts/verdict_where.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* thresholds, in one place (docs/report.md quotes them) */
static const struct {
    double bound_util;       /* % of a ceiling that makes a unit "the bound" */
    double low_occupancy;    /* % theoretical or achieved occupancy below which... */
    double occ_target;       /* ...the score grows toward this occupancy */
    double not_busy_util;    /* ...provided no unit is above this % */
    double efficiency;       /* % global/shared efficiency below which access is wasteful */
    double branch_eff;       /* % branch efficiency below which warps diverge */
    double few_waves;        /* waves below which the grid does not fill the GPU */
    double tail_eff;         /* % last-wave fill below which the tail matters */
    double tail_max_waves;   /* tails matter only for few waves */
    double tiny_launch_s;    /* mean launch duration below which launch cost dominates */
    double launch_cost_s;    /* typical launch cost on the host + GPU */
    double min_global_share; /* a direction (ld/st) counts if it has this share of bytes */
} gp_verdict_t = {60, 50, 60, 60, 60, 85, 0.5, 70, 3, 10e-6, 3e-6, 0.1};

static double gp_verdict_v(const gp_verdict_input *in, int m)
{
    return in->v[m];
}

static double gp_verdict_max(double a, double b)
{
    if (isnan(a))
        return b;
    if (isnan(b))
        return a;
    return a > b ? a : b;
}

/* Unit utilizations: returns the highest and which one it is. */
static double gp_verdict_busiest(const gp_verdict_input *in, const char **which)
{
    static const struct {
        int m;
        const char *name;
    } units[] = {
        {GP_M_DRAM_UTIL, "DRAM"},     {GP_M_DRAM_UTIL_MEASURED, "DRAM"},
        {GP_M_L2_UTIL, "L2"},         {GP_M_L1_UTIL, "L1"},
        {GP_M_FP32_UTIL, "FP32"},     {GP_M_FP64_UTIL, "FP64"},
        {GP_M_FP16_UTIL, "FP16"},     {GP_M_TENSOR_UTIL, "tensor"},
    };
    double best = NAN;
    size_t i;
    *which = "none";
    for (i = 0; i < sizeof units / sizeof units[0]; i++) {
        double u = gp_verdict_v(in, units[i].m);
        if (!isnan(u) && (isnan(best) || u > best)) {
            best = u;
            *which = units[i].name;
        }
    }
    return best;
}

static void gp_verdict_bounds(const gp_verdict_input *in, gp_verdict *out, size_t *n)
{
    double dram = gp_verdict_max(gp_verdict_v(in, GP_M_DRAM_UTIL),
                                 gp_verdict_v(in, GP_M_DRAM_UTIL_MEASURED));
    double l2 = gp_verdict_v(in, GP_M_L2_UTIL);
    static const struct {
        int m;
        const char *pipe;
    } pipes[] = {{GP_M_FP32_UTIL, "fp32"}, {GP_M_FP64_UTIL, "fp64"},
                 {GP_M_FP16_UTIL, "fp16"}, {GP_M_TENSOR_UTIL, "tensor"}};
    double cu = NAN;
    const char *pipe = NULL;
    size_t i;
    gp_verdict *v;
    char roof[200];
    gp_fmtbuf fb = {.next = 0};
    if (dram >= gp_verdict_t.bound_util) {
        v = gp_verdict_add(out, n, GP_V_DRAM_BOUND, "dram_bound", 0.1 + 0.1 * dram / 100);
        snprintf(v->title, sizeof v->title, "DRAM-bandwidth bound");
        snprintf(v->evidence, sizeof v->evidence,
                 "DRAM %s = %s of the architectural ceiling (%s), %s of the measured peak "
                 "(%s); %s moved",
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_DRAM_BYTES_PER_S), "byte/s"),
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_DRAM_UTIL), "%"),
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_ARCH_DRAM_BYTES_PER_S), "byte/s"),
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_DRAM_UTIL_MEASURED), "%"),
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_DRAM_BYTES_PER_S) /
                                 gp_verdict_v(in, GP_M_DRAM_UTIL_MEASURED) * 100, "byte/s"),
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_DRAM_BYTES), "byte"));
        /* write-backs land where L2 evicts them: a verdict that holds only by
         * them says so, and ranks lower, rather than pass for a read-bound one */
        double ws = gp_verdict_v(in, GP_M_DRAM_WRITE_SHARE);
        if (!isnan(ws) && dram * (1 - ws / 100) < gp_verdict_t.bound_util) {
            size_t len = strlen(v->evidence);
            snprintf(v->evidence + len, sizeof v->evidence - len,
                     "; %s of it write-backs, without which DRAM would be below %g%%: they are "
                     "what L2 evicted during the kernel and depend on what it held before",
                     gp_fmt(&fb, ws, "%"), gp_verdict_t.bound_util);
            v->score *= 0.5;
        }
        snprintf(v->advice, sizeof v->advice,
                 "the kernel runs at the memory roof: only moving fewer bytes helps (reuse data "
                 "from shared memory or L2, fuse with the producer/consumer kernel, use smaller "
                 "types)");
    } else if (l2 >= gp_verdict_t.bound_util) {
        v = gp_verdict_add(out, n, GP_V_L2_BOUND, "l2_bound", 0.1 + 0.1 * l2 / 100);
        snprintf(v->title, sizeof v->title, "L2-bandwidth bound");
        snprintf(v->evidence, sizeof v->evidence,
                 "L2 %s = %s of the architectural ceiling (%s); DRAM at %s",
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_L2_BYTES_PER_S), "byte/s"), gp_fmt(&fb, l2, "%"),
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_ARCH_L2_BYTES_PER_S), "byte/s"),
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_DRAM_UTIL), "%"));
        snprintf(v->advice, sizeof v->advice,
                 "data is re-read from L2: tile it into shared memory or registers so each "
                 "block reads it once");
    }
    for (i = 0; i < sizeof pipes / sizeof pipes[0]; i++) {
        double u = gp_verdict_v(in, pipes[i].m);
        if (!isnan(u) && (isnan(cu) || u > cu)) {
            cu = u;
            pipe = pipes[i].pipe;
        }
    }
    if (pipe && cu >= gp_verdict_t.bound_util) {
        v = gp_verdict_add(out, n, GP_V_COMPUTE_BOUND, "compute_bound", 0.1 + 0.1 * cu / 100);
        snprintf(v->detail, sizeof v->detail, "%s", pipe);
        snprintf(v->title, sizeof v->title, "compute bound (%s pipe)", pipe);
        gp_roofline_describe(in->roof, 1, roof, sizeof roof);
        snprintf(v->evidence, sizeof v->evidence,
                 "%s pipe at %s of its ceiling; %s; roofline: %s", pipe, gp_fmt(&fb, cu, "%"),
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_FLOPS_PER_S), "flop/s"), roof);
        snprintf(v->advice, sizeof v->advice,
                 strcmp(pipe, "tensor") == 0
                     ? "the tensor cores are busy: use a lower precision or less work"
                     : "the arithmetic units are busy: use tensor cores (WMMA/wgmma, cuBLAS), a "
                       "lower precision, or fewer operations (algebra, precomputation)");
    }
}

static void gp_verdict_occupancy(const gp_verdict_input *in, gp_verdict *out, size_t *n)
{
    /* warps are what the SM schedules, threads what does work: blocks ending in
     * a partial warp (4x4 = 16 threads) fill warps but not lanes */
    double theo = gp_verdict_v(in, GP_M_THEORETICAL_OCCUPANCY),
           theo_t = gp_verdict_v(in, GP_M_THEORETICAL_THREAD_OCCUPANCY);
    double ach = gp_verdict_v(in, GP_M_ACHIEVED_OCCUPANCY);
    double waves = gp_verdict_v(in, GP_M_WAVES);
    const char *which;
    double busiest = gp_verdict_busiest(in, &which), occ;
    gp_verdict *v;
    gp_fmtbuf fb = {.next = 0};
    if (!isnan(busiest) && busiest >= gp_verdict_t.not_busy_util)
        return; /* a unit is busy: more warps would not help */
    if (!isnan(waves) && waves < gp_verdict_t.few_waves)
        return; /* the grid is too small: few_blocks says so */
    if (!isnan(theo_t) && (isnan(theo) || theo_t < theo))
        theo = theo_t;
    occ = !isnan(theo) && theo < gp_verdict_t.low_occupancy ? theo : ach;
    if (isnan(occ) || occ >= gp_verdict_t.low_occupancy)
        return;
    v = gp_verdict_add(out, n, GP_V_LOW_OCCUPANCY, "low_occupancy",
                       0.9 * (1 - occ / gp_verdict_t.occ_target));
    snprintf(v->title, sizeof v->title, "latency bound, low occupancy");
    if (!isnan(theo) && theo < gp_verdict_t.low_occupancy && in->occ &&
        in->occ->limiter != GP_OCC_LIMIT_NONE) {
        snprintf(v->detail, sizeof v->detail, "%s", gp_occupancy_limiter_name(in->occ->limiter));
        snprintf(v->evidence, sizeof v->evidence,
                 "theoretical occupancy %s of warps, %s of threads (%d warps of %d per SM, "
                 "limited by %s), achieved %s; busiest unit %s at %s; block %ld threads, %ld "
                 "registers/thread, %ld bytes shared/block",
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_THEORETICAL_OCCUPANCY), "%"),
                 gp_fmt(&fb, theo_t, "%"), in->occ->warps_per_sm, in->device->max_warps_per_sm,
                 gp_occupancy_limiter_name(in->occ->limiter), gp_fmt(&fb, ach, "%"), which,
                 gp_fmt(&fb, busiest, "%"),
                 in->threads_per_block, in->regs_per_thread, in->smem_per_block);
        snprintf(v->advice, sizeof v->advice, "%s", in->occ->advice);
    } else {
        snprintf(v->detail, sizeof v->detail, "achieved");
        snprintf(v->evidence, sizeof v->evidence,
                 "achieved occupancy %s of a theoretical %s; busiest unit %s at %s",
                 gp_fmt(&fb, ach, "%"), gp_fmt(&fb, theo, "%"), which, gp_fmt(&fb, busiest, "%"));
        snprintf(v->advice, sizeof v->advice,
                 "warps finish unevenly or blocks start slowly: balance work across blocks and "
                 "give each thread more independent work (ILP)");
    }
}

static void gp_verdict_access(const gp_verdict_input *in, gp_verdict *out, size_t *n)
{
    double ld = in->v[GP_M_GLOBAL_BYTES], gld = gp_verdict_v(in, GP_M_GLD_EFFICIENCY),
           gst = gp_verdict_v(in, GP_M_GST_EFFICIENCY),
           sh = gp_verdict_v(in, GP_M_SHARED_EFFICIENCY),
           be = gp_verdict_v(in, GP_M_BRANCH_EFFICIENCY), eff = NAN;
    const char *dir = NULL;
    gp_verdict *v;
    gp_fmtbuf fb = {.next = 0};
    /* loads and stores with a real share of the traffic, worst first */
    if (!isnan(gld) && gld > 0 && gld < gp_verdict_t.efficiency && (isnan(ld) || ld > 0)) {
        eff = gld;
        dir = "load";
    }
    if (!isnan(gst) && gst > 0 && gst < gp_verdict_t.efficiency && (isnan(eff) || gst < eff)) {
        eff = gst;
        dir = "store";
    }
    if (dir) {
        v = gp_verdict_add(out, n, GP_V_UNCOALESCED, "uncoalesced", 0.9 * (1 - eff / 100));
        snprintf(v->detail, sizeof v->detail, "%s", dir);
        snprintf(v->title, sizeof v->title, "uncoalesced global %ss", dir);
        snprintf(v->evidence, sizeof v->evidence,
                 "global %s efficiency %s: %.1f of every 32 bytes fetched are used (loads "
                 "%s, stores %s); DRAM at %s of its ceiling",
                 dir, gp_fmt(&fb, eff, "%"), 32 * eff / 100, gp_fmt(&fb, gld, "%"),
                 gp_fmt(&fb, gst, "%"), gp_fmt(&fb, gp_verdict_v(in, GP_M_DRAM_UTIL), "%"));
        snprintf(v->advice, sizeof v->advice,
                 "make consecutive threads touch consecutive addresses: index with threadIdx.x "
                 "in the fastest dimension, use structures of arrays instead of arrays of "
                 "structures, or stage strided data through shared memory");
    }
    /* Shared memory wastes bandwidth two ways: wavefronts taken over wavefronts
     * needed (the bank efficiency) is the conflict degree itself; bytes used per
     * 128-byte wavefront (Nsight Compute's shared efficiency) also falls when
     * threads of a warp read the same words or narrow values.  Either below
     * the threshold gives the verdict, titled by the cause. */
    double bank = gp_verdict_v(in, GP_M_SHARED_BANK_EFFICIENCY);
    int conflicted = !isnan(bank) && bank > 0 && bank < gp_verdict_t.efficiency &&
                     isfinite(100 / bank); /* a denormal bank efficiency is no degree */
    int underused = !isnan(sh) && sh > 0 && sh < gp_verdict_t.efficiency;
    /* both are defined only where shared wavefronts were counted: no need to
     * know the block's shared size (0 in records of launches whose dynamic
     * size the launch API does not show) */
    if (conflicted || underused) {
        double worst = conflicted && (!underused || bank < sh) ? bank : sh;
        v = gp_verdict_add(out, n, GP_V_BANK_CONFLICTS, "bank_conflicts",
                           0.9 * (1 - worst / 100));
        if (conflicted) {
            snprintf(v->title, sizeof v->title, "shared-memory bank conflicts");
            snprintf(v->evidence, sizeof v->evidence,
                     "shared accesses took %.1f wavefronts for every one they need (about "
                     "%.0f-way conflicts); shared-memory efficiency %s",
                     100 / bank, 100 / bank, gp_fmt(&fb, sh, "%"));
            snprintf(v->advice, sizeof v->advice,
                     "threads of a warp hit the same 4-byte bank: pad the array (e.g. [32][33] "
                     "instead of [32][32]), or change the index so lane i uses bank i");
        } else {
            snprintf(v->title, sizeof v->title, "shared-memory wavefronts carry few bytes");
            snprintf(v->evidence, sizeof v->evidence,
                     "shared-memory efficiency %s: each 128-byte wavefront delivers %.0f distinct "
                     "bytes, without bank conflicts (bank efficiency %s): threads of a warp read "
                     "the same words (broadcast) or narrow values",
                     gp_fmt(&fb, sh, "%"), 128 * sh / 100, gp_fmt(&fb, bank, "%"));
            snprintf(v->advice, sizeof v->advice,
                     "a broadcast costs a whole wavefront for a few bytes: where each thread needs "
                     "several neighbouring values, load them with one wider access (LDS.64/128, "
                     "ldmatrix) or keep reused values in registers");
        }
    }
    if (!isnan(be) && be < gp_verdict_t.branch_eff) {
        v = gp_verdict_add(out, n, GP_V_DIVERGENCE, "divergence", 0.9 * (1 - be / 100));
        snprintf(v->title, sizeof v->title, "warp divergence");
        snprintf(v->evidence, sizeof v->evidence,
                 "warp execution efficiency %s (%s counting only predicated-on threads) of "
                 "a possible %s for %ld-thread blocks: branch efficiency %s",
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_WARP_EXECUTION_EFFICIENCY), "%"),
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_WARP_NONPRED_EXECUTION_EFFICIENCY), "%"),
                 gp_fmt(&fb, gp_verdict_v(in, GP_M_LANE_FILL), "%"), in->threads_per_block,
                 gp_fmt(&fb, be, "%"));
        snprintf(v->advice, sizeof v->advice,
                 "threads of one warp take different paths and run them one after the other: "
                 "make the branch condition uniform per warp (branch on threadIdx.x / 32, sort "
                 "or bin the data first), or move the divergent work out of the loop");
    }
}

static void gp_verdict_grid(const gp_verdict_input *in, gp_verdict *out, size_t *n)
{
    double waves = gp_verdict_v(in, GP_M_WAVES), we = gp_verdict_v(in, GP_M_WAVE_EFFICIENCY);
    double dur = gp_verdict_v(in, GP_M_DURATION), per = in->launches > 0 ? dur / in->launches : NAN;
    int bps = in->occ ? in->occ->blocks_per_sm : 0;
    gp_verdict *v;
    gp_fmtbuf fb = {.next = 0};
    if (!isnan(waves) && waves < gp_verdict_t.few_waves) {
        long sms_used = in->blocks < in->device->sm_count ? in->blocks : in->device->sm_count;
        v = gp_verdict_add(out, n, GP_V_FEW_BLOCKS, "few_blocks", 0.95 * (1 - waves));
        snprintf(v->title, sizeof v->title, "too few blocks to fill the GPU");
        snprintf(v->evidence, sizeof v->evidence,
                 "grid of %ld blocks of %ld threads: %.1f%% of one wave (%d blocks/SM x %d SMs); "
                 "%ld of %d SMs have work; SMs busy %s of the time",
                 in->blocks, in->threads_per_block, 100 * waves, bps, in->device->sm_count,
                 sms_used, in->device->sm_count, gp_fmt(&fb, gp_verdict_v(in, GP_M_SM_BUSY), "%"));
        snprintf(v->advice, sizeof v->advice,
                 "launch at least %d blocks (%d SMs x %d resident) or split the work of each "
                 "block across more blocks; run independent kernels concurrently in streams",
                 bps * in->device->sm_count, in->device->sm_count, bps);
    } else if (!isnan(we) && waves >= 1 && waves < gp_verdict_t.tail_max_waves &&
               we < gp_verdict_t.tail_eff) {
        v = gp_verdict_add(out, n, GP_V_TAIL, "tail", 0.5 * (1 - we / 100));
        snprintf(v->title, sizeof v->title, "partial last wave (tail effect)");
        snprintf(v->evidence, sizeof v->evidence,
                 "%.2f waves of %d blocks: the last wave fills %.0f%% of the GPU", waves,
                 bps * in->device->sm_count, 100 * (waves - floor(waves)));
        snprintf(v->advice, sizeof v->advice,
                 "size the grid to a multiple of %d blocks, or use a grid-stride loop with "
                 "exactly %d blocks",
                 bps * in->device->sm_count, bps * in->device->sm_count);
    }
    if (!isnan(per) && per < gp_verdict_t.tiny_launch_s) {
        double share = gp_verdict_t.launch_cost_s / (per + gp_verdict_t.launch_cost_s);
        v = gp_verdict_add(out, n, GP_V_LAUNCH_OVERHEAD, "launch_overhead", 0.6 * share);
        snprintf(v->title, sizeof v->title, "tiny kernel, dominated by launch cost");
        snprintf(v->evidence, sizeof v->evidence,
                 "%ld launches of %.2f us on average; a launch costs about %.0f us, so launch "
                 "cost is about %.0f%% of the time",
                 in->launches, per * 1e6, gp_verdict_t.launch_cost_s * 1e6, 100 * share);
        snprintf(v->advice, sizeof v->advice,
                 "do more work per launch (fuse kernels, batch), or capture the sequence in a "
                 "CUDA graph");
    }
}

static int gp_verdict_cmp(const void *a, const void *b)
{
    const gp_verdict *x = a, *y = b;
    if (x->score != y->score)
        return x->score < y->score ? 1 : -1;
    return (int)x->kind - (int)y->kind;
}

size_t gp_verdict_diagnose(const gp_verdict_input *in, gp_verdict *out)
{
    size_t n = 0;
    gp_verdict_bounds(in, out, &n);
    gp_verdict_occupancy(in, out, &n);
    gp_verdict_access(in, out, &n);
    gp_verdict_grid(in, out, &n);
    gp_verdict_stall(in, out, &n);
    gp_verdict_where(in, out, n);
    qsort(out, n, sizeof *out, gp_verdict_cmp);
    return n;
}
