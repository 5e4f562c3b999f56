/* verdict_stall.c - see verdict_stall.h.
 *
 * A stall share is the part of the cycles between two issued instructions
 * of a warp that warps spend stalled for the verdict's reasons.  From the
 * launch records' warp-state counters (Nsight Compute's WarpStateStats
 * section) when they were collected: the derived stall_*_pct metrics; else
 * from the stall samples of the instruction-level records (each sample is a
 * warp caught in one state, so a reason's share of the samples estimates the
 * same quantity).  The evidence says which.  A stall is a symptom: its score
 * is a fraction of its share, below the inefficiencies that cause it (an
 * uncoalesced load at 12% efficiency scores 0.79, the long-scoreboard stalls
 * it causes at 80% score 0.4), so the cause comes first. */
#include "metrics/verdicts/verdict_stall.h"

#include <math.h>
#include <stdio.h>

#include "metrics/catalog/format.h"

#define GP_BIT(id) (1UL << GP_STALL_##id)

static const struct {
    gp_verdict_kind kind;
    const char *id, *title, *what;
    int metric;               /* the share from the warp-state counters */
    unsigned long reasons;    /* the sampled reasons of the same share */
    double threshold;         /* share, %, from which it fires; why in the comments */
    double weight;            /* score = weight x share / 100 */
    gp_verdict_kind quiet_if; /* a verdict that already explains it, or GP_V_COUNT */
    const char *advice;
} gp_verdict_stall_rules[] = {
    /* 40%: a latency-bound kernel spends most of its warp time here (Nsight
     * Compute's chase-type kernels show 70 to 99%); below 40% other reasons
     * share the time and hiding latency better buys less.  At the DRAM or
     * L2 roof the latency is the bandwidth's: dram_bound/l2_bound say it. */
    {GP_V_MEMORY_LATENCY, "memory_latency", "latency bound: warps wait for memory",
     "waiting for global, local or texture memory (long scoreboard)",
     GP_M_STALL_LONG_SCOREBOARD_PCT, GP_BIT(LONG_SCOREBOARD), 40, 0.5, GP_V_DRAM_BOUND,
     "keep more memory requests in flight: more independent loads per thread (unroll, load "
     "several elements before using them), more resident warps, or prefetch into shared memory "
     "(cp.async, TMA); and fetch fewer sectors per request (coalescing, reuse from shared "
     "memory or L1)"},
    /* 25%: a quarter of the time at __syncthreads means the warps of a block
     * reach their barriers far apart, or the work between barriers is short */
    {GP_V_BARRIER, "barrier", "warps wait at block barriers", "waiting at a block barrier",
     GP_M_STALL_BARRIER_PCT, GP_BIT(BARRIER), 25, 0.6, GP_V_COUNT,
     "give every warp of a block the same work between barriers, do more work between two "
     "barriers, synchronize only the warps that share data (__syncwarp, cooperative groups), "
     "or run more, smaller blocks per SM so some run while others wait"},
    /* 25%: the MIO and LSU queues fill when shared-memory, special-function or
     * memory instructions come faster than the pipes take them */
    {GP_V_MIO_THROTTLE, "mio_throttle", "memory instruction queues full (MIO/LSU throttle)",
     "waiting for room in the MIO or load/store queue (mio_throttle, lg_throttle)",
     GP_M_STALL_MIO_LG_THROTTLE_PCT, GP_BIT(MIO_THROTTLE) | GP_BIT(LG_THROTTLE), 25, 0.5,
     GP_V_COUNT,
     "issue fewer, wider memory instructions (128-bit loads and stores, LDS.128, ldmatrix), "
     "remove shared-memory bank conflicts (each conflict replays the instruction), and keep "
     "values in registers instead of re-reading them"},
    /* 30%: one pipe at its issue rate; when a compute_bound verdict fired it
     * already says so, with the pipe's utilization */
    {GP_V_MATH_THROTTLE, "math_throttle", "a math pipe is saturated",
     "waiting for a busy math pipe (math_pipe_throttle)", GP_M_STALL_MATH_PIPE_THROTTLE_PCT,
     GP_BIT(MATH_PIPE_THROTTLE), 30, 0.4, GP_V_COMPUTE_BOUND,
     "one pipe takes all the work: move operations to another pipe (FP32 and integer, FMA "
     "instead of separate multiply and add), use tensor cores or a lower precision, or do "
     "fewer operations"},
    /* 15%: a healthy kernel fetches its instructions ahead of need; this many
     * fetch stalls mean the code does not fit the instruction cache */
    {GP_V_ICACHE, "icache", "warps wait for instructions (instruction cache)",
     "waiting for instructions or immediate constants (no_instructions, imc_miss)",
     GP_M_STALL_ICACHE_PCT, GP_BIT(NO_INSTRUCTIONS) | GP_BIT(IMC_MISS), 15, 0.5, GP_V_COUNT,
     "the code does not fit the instruction cache: unroll less, keep rarely taken paths out "
     "of line (__noinline__), avoid many template instances of one kernel running together, "
     "and keep constants in registers rather than reloading them"},
    /* 15%: branch resolution is short; this much of it means branches in the
     * innermost loops, often divergent ones */
    {GP_V_BRANCH_RESOLVING, "branch_resolving", "warps wait for branch targets",
     "waiting for a branch target (branch_resolving)", GP_M_STALL_BRANCH_RESOLVING_PCT,
     GP_BIT(BRANCH_RESOLVING), 15, 0.4, GP_V_COUNT,
     "take branches out of the innermost loop (hoist invariant conditions), replace short "
     "if/else by selects or predication, and make the remaining branches uniform per warp"},
};
#define GP_N_STALL_RULES (sizeof gp_verdict_stall_rules / sizeof gp_verdict_stall_rules[0])

double gp_verdict_stall_share(const gp_verdict_input *in, gp_verdict_kind kind, int *counters)
{
    size_t i, r;
    double part = 0, all = 0;
    *counters = 0;
    for (i = 0; i < GP_N_STALL_RULES && gp_verdict_stall_rules[i].kind != kind; i++)
        ;
    if (i == GP_N_STALL_RULES)
        return NAN;
    if (!isnan(in->v[gp_verdict_stall_rules[i].metric])) {
        *counters = 1;
        return in->v[gp_verdict_stall_rules[i].metric];
    }
    if (!in->where)
        return NAN;
    for (r = 0; r < in->where->n_stall; r++) {
        all += in->where->stall[r];
        if (r < GP_STALL_KNOWN && (gp_verdict_stall_rules[i].reasons >> r & 1))
            part += in->where->stall[r];
    }
    return all > 0 ? 100 * part / all : NAN;
}

int gp_verdict_stall_measured(const double *v, const gp_where *w)
{
    size_t i;
    for (i = 0; i < GP_N_STALL_RULES; i++)
        if (!isnan(v[gp_verdict_stall_rules[i].metric]))
            return 1;
    for (i = 0; w && i < w->n_stall; i++)
        if (w->stall[i] > 0)
            return 1;
    return 0;
}

/* A plain number with 3 digits, n/a when not measured. */
static const char *gp_verdict_stall_num(double v, char *buf, size_t len)
{
    if (isnan(v))
        snprintf(buf, len, "n/a");
    else
        snprintf(buf, len, "%.3g", v);
    return buf;
}

static int gp_verdict_fired(const gp_verdict *out, size_t n, gp_verdict_kind kind)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (out[i].kind == kind ||
            (kind == GP_V_DRAM_BOUND && out[i].kind == GP_V_L2_BOUND)) /* either roof */
            return 1;
    return 0;
}

void gp_verdict_stall(const gp_verdict_input *in, gp_verdict *out, size_t *n)
{
    size_t i, fired = *n, r;
    double all = 0;
    for (r = 0; in->where && r < in->where->n_stall; r++)
        all += in->where->stall[r];
    for (i = 0; i < GP_N_STALL_RULES; i++) {
        int counters;
        double share = gp_verdict_stall_share(in, gp_verdict_stall_rules[i].kind, &counters);
        gp_verdict *v;
        gp_fmtbuf fb = {.next = 0};
        char c1[32], c2[32];
        if (isnan(share) || share < gp_verdict_stall_rules[i].threshold)
            continue;
        if (gp_verdict_stall_rules[i].quiet_if != GP_V_COUNT &&
            gp_verdict_fired(out, fired, gp_verdict_stall_rules[i].quiet_if))
            continue;
        v = gp_verdict_add(out, n, gp_verdict_stall_rules[i].kind, gp_verdict_stall_rules[i].id,
                           gp_verdict_stall_rules[i].weight * share / 100);
        snprintf(v->title, sizeof v->title, "%s", gp_verdict_stall_rules[i].title);
        if (counters)
            snprintf(
                v->evidence, sizeof v->evidence,
                "warps spend %s of the %s cycles between two issued instructions %s "
                "(warp-state counters); issue slots used %s, %s warps eligible per "
                "scheduler",
                gp_fmt(&fb, share, "%"),
                gp_verdict_stall_num(in->v[GP_M_WARP_CYCLES_PER_ISSUED_INST], c1, sizeof c1),
                gp_verdict_stall_rules[i].what, gp_fmt(&fb, in->v[GP_M_ISSUE_SLOT_UTIL], "%"),
                gp_verdict_stall_num(in->v[GP_M_ELIGIBLE_WARPS_PER_SCHEDULER], c2, sizeof c2));
        else
            snprintf(v->evidence, sizeof v->evidence,
                     "%s of %.0f stall samples are warps %s (sampled stall reasons; the records "
                     "have no warp-state counters)",
                     gp_fmt(&fb, share, "%"), all, gp_verdict_stall_rules[i].what);
        snprintf(v->advice, sizeof v->advice, "%s", gp_verdict_stall_rules[i].advice);
    }
}
