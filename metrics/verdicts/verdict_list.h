/* verdict_list.h - what a verdict is (kind, identifier, score, title,
 * evidence, advice, where), what the rules read (gp_verdict_input), and the
 * list the rule modules (verdict.c, verdict_stall.c) add their verdicts to. */
#ifndef GP_VERDICT_LIST_H
#define GP_VERDICT_LIST_H

#include <stddef.h>

#include "metrics/catalog/derived.h"
#include "metrics/catalog/occupancy.h"
#include "metrics/catalog/roofline.h"
#include "metrics/instructions/where.h"
#include "metrics/records/device.h"

typedef enum {
    GP_V_DRAM_BOUND,
    GP_V_L2_BOUND,
    GP_V_COMPUTE_BOUND,
    GP_V_LOW_OCCUPANCY,
    GP_V_UNCOALESCED,
    GP_V_BANK_CONFLICTS,
    GP_V_DIVERGENCE,
    GP_V_FEW_BLOCKS,
    GP_V_TAIL,
    GP_V_LAUNCH_OVERHEAD,
    /* from warp stall reasons (verdict_stall.c) */
    GP_V_MEMORY_LATENCY,
    GP_V_BARRIER,
    GP_V_MIO_THROTTLE,
    GP_V_MATH_THROTTLE,
    GP_V_ICACHE,
    GP_V_BRANCH_RESOLVING,
    GP_V_COUNT
} gp_verdict_kind;

typedef struct {
    gp_verdict_kind kind;
    const char *id;  /* stable identifier, e.g. "low_occupancy" */
    char detail[32]; /* e.g. the occupancy limiter, the pipe; "" if none */
    double score;    /* ranking: rough share of the time at stake, 0..1 */
    char title[96];
    char evidence[400]; /* the numbers */
    char advice[400];   /* the change */
    char where[300];    /* the source line that holds most of it (verdict_where.c), "" if
                           no instruction-level data; raw: names from the input, escaped by
                           each writer */
} gp_verdict;

typedef struct {
    const double *v; /* the kernel's (aggregated) metrics, GP_DERIVED_COUNT */
    const gp_device *device;
    const gp_occ_result *occ; /* for the kernel's main launch configuration */
    const gp_roofline *roof;
    long launches;
    long threads_per_block, blocks, smem_per_block, regs_per_thread;
    const gp_source *source; /* instruction-level data, NULL: none */
    const gp_where *where;   /* the kernel's, NULL: none */
} gp_verdict_input;

/* For the rule modules: a new verdict at out[(*n)++], zeroed but for kind,
 * id and score (clamped to 0..1). */
gp_verdict *gp_verdict_add(gp_verdict *out, size_t *n, gp_verdict_kind kind, const char *id,
                           double score);

/* "id" or "id(detail)". */
void gp_verdict_label(const gp_verdict *v, char *buf, size_t len);

#endif
