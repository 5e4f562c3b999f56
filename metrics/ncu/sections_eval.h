/* sections_eval.h - the value of a section's row (sections.def) for one
 * launch, as Nsight Compute computes it: a plain metric from the record, a
 * formula over the record's counters and the launch's facts (occupancy from
 * metrics/catalog/occupancy.c), or n/a with the reason.  The formulas may
 * use, besides facts.def's names:
 *   launch.static_smem, launch.dynamic_smem   bytes per block
 *   launch.ncu_cluster_size   blocks per cluster, 0 without clusters (ncu)
 *   device.max_blocks_per_sm, device.smem_reserved_per_block,
 *   device.cc_major, device.cc_minor
 *   occ.limit_registers, occ.limit_warps   blocks per SM each allows
 *   occ.smem_config        the shared-memory configuration the driver picks
 *                          without a carveout preference: the smallest
 *                          that holds the SM's block limit of blocks, bytes
 *   occ.limit_shared_mem   blocks per SM that configuration holds */
#ifndef GP_NCU_SECTIONS_EVAL_H
#define GP_NCU_SECTIONS_EVAL_H

#include <stddef.h>

#include "metrics/catalog/expr.h"
#include "metrics/catalog/facts.h"
#include "metrics/catalog/occupancy.h"
#include "metrics/ncu/sections.h"
#include "metrics/records/device.h"
#include "metrics/records/record.h"

/* A counter of the launch: as gp_record_counter (0 with *v, NaN with the
 * reason in why; -1 when the record does not have it). */
typedef int (*gp_ncu_counter_fn)(void *ctx, const char *name, size_t len, double *v, char *why,
                                 size_t whylen);

typedef struct {
    const gp_launch *l;
    const gp_device *d;
    gp_ncu_counter_fn counter;
    void *ctx;
    gp_occ_result occ;   /* the calculator's, with the largest carveout */
    gp_occ_result carve; /* with the carveout the driver picks (occ.smem_config) */
    gp_facts facts;
} gp_ncu_eval;

typedef enum {
    GP_NCU_OK,            /* value is the row's value */
    GP_NCU_NA,            /* measured but n/a: why */
    GP_NCU_NOT_COLLECTED, /* the run did not collect `missing`, which the row needs */
    GP_NCU_CANNOT_COLLECT /* gpuprof cannot collect it: why (the table's reason) */
} gp_ncu_status;

typedef struct {
    gp_ncu_status status;
    double value; /* NaN unless GP_NCU_OK */
    char why[2 * GP_EXPR_WHY];
    char missing[160]; /* GP_NCU_NOT_COLLECTED: the first metric the record lacks */
} gp_ncu_value;

/* Prepares the evaluation of rows for launch l on device d (never NULL):
 * its facts and occupancy.  counter(ctx, ...) reads the launch's counters. */
void gp_ncu_eval_init(gp_ncu_eval *e, const gp_launch *l, const gp_device *d,
                      gp_ncu_counter_fn counter, void *ctx);
/* The value of row r.  A value that is not finite or is negative is a bug
 * of the data, given as n/a with the reason, never as a number. */
void gp_ncu_eval_row(gp_ncu_eval *e, const gp_ncu_row *r, gp_ncu_value *out);

/* 1 when name[0..len) is one of the names above or a fact of facts.def (no
 * values needed: the table's check). */
int gp_ncu_eval_known(const char *name, size_t len);

#endif
