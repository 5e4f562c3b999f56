/* sections_eval.c - see sections_eval.h. */
#include "metrics/ncu/sections_eval.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The names the section formulas add to facts.def's. */
enum {
    GP_NE_STATIC_SMEM,
    GP_NE_DYNAMIC_SMEM,
    GP_NE_CLUSTER,
    GP_NE_MAX_BLOCKS,
    GP_NE_SMEM_RESERVED,
    GP_NE_CC_MAJOR,
    GP_NE_CC_MINOR,
    GP_NE_LIMIT_REGS,
    GP_NE_LIMIT_WARPS,
    GP_NE_LIMIT_SMEM,
    GP_NE_SMEM_CONFIG,
    GP_NE_N
};
static const char *const gp_ne_names[GP_NE_N] = {"launch.static_smem",
                                                 "launch.dynamic_smem",
                                                 "launch.ncu_cluster_size",
                                                 "device.max_blocks_per_sm",
                                                 "device.smem_reserved_per_block",
                                                 "device.cc_major",
                                                 "device.cc_minor",
                                                 "occ.limit_registers",
                                                 "occ.limit_warps",
                                                 "occ.limit_shared_mem",
                                                 "occ.smem_config"};

static int gp_ne_index(const char *name, size_t len)
{
    for (int i = 0; i < GP_NE_N; i++)
        if (strlen(gp_ne_names[i]) == len && memcmp(gp_ne_names[i], name, len) == 0)
            return i;
    return -1;
}

int gp_ncu_eval_known(const char *name, size_t len)
{
    return gp_ne_index(name, len) >= 0 || gp_facts_known(name, len);
}

static void gp_ne_carveout(gp_ncu_eval *e);

void gp_ncu_eval_init(gp_ncu_eval *e, const gp_launch *l, const gp_device *d,
                      gp_ncu_counter_fn counter, void *ctx)
{
    memset(e, 0, sizeof *e);
    e->l = l;
    e->d = d;
    e->counter = counter;
    e->ctx = ctx;
    gp_facts_of_launch(&e->facts, l, d, NULL, &e->occ);
    gp_ne_carveout(e);
}

/* A blocks-per-SM limit of the calculator: INT_MAX means the resource sets
 * none. */
static double gp_ne_limit(int by, double none)
{
    return by == INT_MAX ? none : (double)by;
}

static double gp_ne_value(const gp_ncu_eval *e, int i, char *why, size_t whylen)
{
    const gp_launch *l = e->l;
    const gp_device *d = e->d;
    const gp_occ_result *o = e->facts.occ;
    long c;
    if (i >= GP_NE_LIMIT_REGS && !o) {
        snprintf(why, whylen, "the launch's shape cannot run on this device (%s)",
                 e->occ.advice[0] ? e->occ.advice : "occupancy calculator");
        return NAN;
    }
    switch (i) {
    case GP_NE_STATIC_SMEM:
        return (double)l->static_smem;
    case GP_NE_DYNAMIC_SMEM:
        return (double)l->dynamic_smem;
    case GP_NE_CLUSTER:
        /* Nsight Compute shows 0 for a launch without clusters; the record
         * writes [1, 1, 1] then */
        c = gp_record_cluster_size(l);
        return c <= 1 ? 0.0 : (double)c;
    case GP_NE_MAX_BLOCKS:
        return d->max_blocks_per_sm;
    case GP_NE_SMEM_RESERVED:
        return d->smem_reserved_per_block;
    case GP_NE_CC_MAJOR:
        return d->cc_major;
    case GP_NE_CC_MINOR:
        return d->cc_minor;
    case GP_NE_LIMIT_REGS:
        if (o->by_regs == INT_MAX) {
            snprintf(why, whylen, "the record gives no registers per thread");
            return NAN;
        }
        return o->by_regs;
    case GP_NE_LIMIT_WARPS:
        return gp_ne_limit(o->by_warps, d->max_blocks_per_sm);
    case GP_NE_LIMIT_SMEM:
        return gp_ne_limit(e->carve.by_smem, d->max_blocks_per_sm);
    default:
        return (double)e->carve.smem_per_sm_config;
    }
}

/* The shared-memory configuration the driver picks for a launch without a
 * carveout preference, as Nsight Compute's "Shared Memory Configuration
 * Size" showed it on an H100: the smallest configuration that holds the SM's
 * block limit of the launch's blocks (32 KB for blocks of no shared memory:
 * 32 x the 1 KB the driver reserves; the largest when they do not fit), and
 * the blocks that configuration holds ("Block Limit Shared Mem").  A program
 * that sets a carveout preference gets another configuration (cuBLAS's
 * sm80_xmma kernel: 100 KB, where this gives 228 KB). */
static void gp_ne_carveout(gp_ncu_eval *e)
{
    const gp_device *d = e->d;
    gp_occ_input in;
    long per_block;
    double need, pct;
    memset(&in, 0, sizeof in);
    in.threads_per_block = (int)gp_record_threads_per_block(e->l);
    in.regs_per_thread = e->l->regs_per_thread;
    in.static_smem = (long)e->l->static_smem;
    in.dynamic_smem = (long)e->l->dynamic_smem;
    in.max_dynamic_smem = -1;
    in.cluster_size = (int)gp_record_cluster_size(e->l);
    per_block = in.static_smem + in.dynamic_smem + d->smem_reserved_per_block;
    if (d->smem_alloc_unit > 0)
        per_block = (per_block + d->smem_alloc_unit - 1) / d->smem_alloc_unit * d->smem_alloc_unit;
    need = (double)per_block * d->max_blocks_per_sm;
    /* the calculator rounds a carveout request up to a configuration: the
     * first request whose configuration holds them (a percentage is coarser
     * than the configurations' steps) */
    /* clamped before the cast: a record's shared memory can be 2^40 bytes */
    pct = d->smem_per_sm > 0 ? 100.0 * need / d->smem_per_sm : 100.0;
    in.carveout_pct = !(pct >= 0) ? 0 : pct > 100 ? 100 : (int)pct;
    for (;; in.carveout_pct++) {
        gp_occupancy_compute(d, &in, &e->carve);
        if (in.carveout_pct >= 100 || (double)e->carve.smem_per_sm_config >= need)
            break;
    }
}

typedef struct {
    gp_ncu_eval *e;
    const char *missing; /* the first counter the record lacks */
    char missing_buf[160];
} gp_ne_lookup_ctx;

static int gp_ne_lookup(void *ctx, const char *name, size_t len, double *v, char *why,
                        size_t whylen)
{
    gp_ne_lookup_ctx *c = ctx;
    int i = gp_ne_index(name, len);
    if (i >= 0) {
        *v = gp_ne_value(c->e, i, why, whylen);
        return 0;
    }
    if (gp_facts_lookup(&c->e->facts, name, len, v, why, whylen) == 0)
        return 0;
    if (c->e->counter && c->e->counter(c->e->ctx, name, len, v, why, whylen) == 0)
        return 0;
    /* a counter the record lacks: n/a, and remembered as not collected */
    if (!c->missing) {
        snprintf(c->missing_buf, sizeof c->missing_buf, "%.*s", (int)len, name);
        c->missing = c->missing_buf;
    }
    *v = NAN;
    snprintf(why, whylen, "%.*s was not collected", (int)len, name);
    return 0;
}

void gp_ncu_eval_row(gp_ncu_eval *e, const gp_ncu_row *r, gp_ncu_value *out)
{
    gp_ne_lookup_ctx c = {e, NULL, {0}};
    gp_expr_value ev;
    char err[160];
    memset(out, 0, sizeof *out);
    out->value = NAN;
    switch (gp_ncu_row_how(r)) {
    case GP_NCU_CANNOT:
        out->status = GP_NCU_CANNOT_COLLECT;
        snprintf(out->why, sizeof out->why, "%s", r->value + 1);
        return;
    case GP_NCU_PLAIN:
        if (!e->counter || e->counter(e->ctx, r->metric, strlen(r->metric), &ev.value, ev.why,
                                      sizeof ev.why) != 0) {
            out->status = GP_NCU_NOT_COLLECTED;
            snprintf(out->missing, sizeof out->missing, "%s", r->metric);
            snprintf(out->why, sizeof out->why, "%s was not collected", r->metric);
            return;
        }
        break;
    default:
        if (gp_expr_eval(r->value + 1, gp_ne_lookup, &c, &ev, err, sizeof err) != 0) {
            /* cannot happen after the table's check */
            out->status = GP_NCU_NA;
            snprintf(out->why, sizeof out->why, "formula of %s: %s", r->metric, err);
            return;
        }
        if (c.missing && isnan(ev.value)) {
            snprintf(out->missing, sizeof out->missing, "%s", c.missing);
            out->status = GP_NCU_NOT_COLLECTED;
            snprintf(out->why, sizeof out->why, "%s was not collected", out->missing);
            return;
        }
    }
    if (isnan(ev.value)) {
        out->status = GP_NCU_NA;
        snprintf(out->why, sizeof out->why, "%s", ev.why[0] ? ev.why : "no value");
        return;
    }
    if (!isfinite(ev.value) || ev.value < 0) {
        out->status = GP_NCU_NA;
        snprintf(out->why, sizeof out->why,
                 "impossible value %g for %s (the record's data "
                 "disagree)",
                 ev.value, r->metric);
        return;
    }
    out->status = GP_NCU_OK;
    out->value = ev.value;
}
