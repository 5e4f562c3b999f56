/* verdict_where.c - see verdict_where.h. */
#include "metrics/verdicts/verdict_where.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GP_BIT(id) (1UL << GP_STALL_##id)

/* What each verdict is about at the instruction level, tried in order (the
 * first that some instruction has wins): the waste itself where the SASS
 * pass counts it, else the stall samples or instructions that show where
 * the time goes.  A verdict about the launch as a whole (few_blocks, tail,
 * launch_overhead) points at the busiest line: not the cause, but where the
 * kernel's time is. */
static const struct {
    gp_verdict_kind kind;
    const char *detail; /* NULL: any */
    gp_where_what what;
    const char *words; /* NULL: the quantity's own label */
} gp_verdict_where_map[] = {
    {GP_V_DRAM_BOUND, NULL, {GP_WQ_SECTORS, 0}, NULL},
    {GP_V_DRAM_BOUND, NULL, {GP_WQ_SAMPLES, GP_BIT(LONG_SCOREBOARD)}, "long-scoreboard samples"},
    {GP_V_L2_BOUND, NULL, {GP_WQ_SECTORS, 0}, NULL},
    {GP_V_COMPUTE_BOUND, NULL, {GP_WQ_THREAD, 0}, NULL},
    {GP_V_COMPUTE_BOUND, NULL, {GP_WQ_SAMPLES, 0}, NULL},
    {GP_V_LOW_OCCUPANCY, NULL, {GP_WQ_SAMPLES, 0}, NULL},
    {GP_V_LOW_OCCUPANCY, NULL, {GP_WQ_INST, 0}, NULL},
    {GP_V_UNCOALESCED, "load", {GP_WQ_EXCESS_LD, 0}, NULL},
    {GP_V_UNCOALESCED, "store", {GP_WQ_EXCESS_ST, 0}, NULL},
    {GP_V_UNCOALESCED, NULL, {GP_WQ_EXCESS, 0}, NULL},
    {GP_V_BANK_CONFLICTS, NULL, {GP_WQ_CONFLICTS, 0}, NULL},
    {GP_V_BANK_CONFLICTS, NULL, {GP_WQ_WAVEFRONTS, 0}, NULL},
    {GP_V_DIVERGENCE, NULL, {GP_WQ_DIVERGENT, 0}, NULL},
    {GP_V_DIVERGENCE, NULL, {GP_WQ_IDLE_LANES, 0}, NULL},
    {GP_V_FEW_BLOCKS, NULL, {GP_WQ_SAMPLES, 0}, NULL},
    {GP_V_FEW_BLOCKS, NULL, {GP_WQ_INST, 0}, NULL},
    {GP_V_TAIL, NULL, {GP_WQ_SAMPLES, 0}, NULL},
    {GP_V_TAIL, NULL, {GP_WQ_INST, 0}, NULL},
    {GP_V_LAUNCH_OVERHEAD, NULL, {GP_WQ_SAMPLES, 0}, NULL},
    {GP_V_LAUNCH_OVERHEAD, NULL, {GP_WQ_INST, 0}, NULL},
    {GP_V_MEMORY_LATENCY,
     NULL,
     {GP_WQ_SAMPLES, GP_BIT(LONG_SCOREBOARD)},
     "long-scoreboard samples"},
    {GP_V_MEMORY_LATENCY, NULL, {GP_WQ_EXCESS, 0}, NULL},
    {GP_V_BARRIER, NULL, {GP_WQ_SAMPLES, GP_BIT(BARRIER)}, "barrier samples"},
    {GP_V_MIO_THROTTLE,
     NULL,
     {GP_WQ_SAMPLES, GP_BIT(MIO_THROTTLE) | GP_BIT(LG_THROTTLE)},
     "MIO/LSU-throttle samples"},
    {GP_V_MATH_THROTTLE,
     NULL,
     {GP_WQ_SAMPLES, GP_BIT(MATH_PIPE_THROTTLE)},
     "math-pipe-throttle samples"},
    {GP_V_ICACHE,
     NULL,
     {GP_WQ_SAMPLES, GP_BIT(NO_INSTRUCTIONS) | GP_BIT(IMC_MISS)},
     "instruction-fetch samples"},
    {GP_V_BRANCH_RESOLVING,
     NULL,
     {GP_WQ_SAMPLES, GP_BIT(BRANCH_RESOLVING)},
     "branch-resolving samples"},
    {GP_V_BRANCH_RESOLVING, NULL, {GP_WQ_DIVERGENT, 0}, NULL},
};

void gp_verdict_where(const gp_verdict_input *in, gp_verdict *out, size_t n)
{
    size_t i, j;
    if (!in->where || !in->source || !in->where->n_rows)
        return;
    for (i = 0; i < n; i++) {
        const char *first = NULL;
        for (j = 0; j < sizeof gp_verdict_where_map / sizeof gp_verdict_where_map[0]; j++) {
            gp_where_top top;
            const char *words;
            if (gp_verdict_where_map[j].kind != out[i].kind ||
                (gp_verdict_where_map[j].detail &&
                 strcmp(gp_verdict_where_map[j].detail, out[i].detail) != 0))
                continue;
            words = gp_verdict_where_map[j].words
                        ? gp_verdict_where_map[j].words
                        : gp_where_q_label(gp_verdict_where_map[j].what.q);
            if (!first)
                first = words;
            gp_where_attribute(in->source, in->where, gp_verdict_where_map[j].what, &top);
            if (!top.row)
                continue;
            gp_where_describe(in->source, in->where, &top, words, out[i].where,
                              sizeof out[i].where);
            break;
        }
        if (!out[i].where[0] && first) /* data, but none of it: said, not left blank */
            snprintf(out[i].where, sizeof out[i].where, "the instruction-level data show no %s",
                     first);
    }
}
