/* aggregate.h - launches of one kernel combined into one row: "sum" metrics
 * add up, "time" metrics are means weighted by each launch's duration
 * (derived.def says which).  A sum with a missing launch is n/a (a partial
 * sum would understate); a weighted mean uses the launches that have the
 * value and says nothing is missing only when all had it. */
#ifndef GP_AGGREGATE_H
#define GP_AGGREGATE_H

#include "metrics/catalog/derived.h"
#include "metrics/records/device.h"
#include "metrics/catalog/occupancy.h"
#include "metrics/records/record.h"

/* A kernel's metrics: each value, and the reason of each n/a ("" for a
 * value) pointing at a string the gp_kernel_agg keeps (a pointer, not
 * derived.h's 160 bytes per metric: 100,000 kernels took 1.4 GB). */
typedef struct {
    double v[GP_DERIVED_COUNT];
    const char *why[GP_DERIVED_COUNT];
} gp_agg_row;

typedef struct {
    char *kernel;
    int device;
    long launches;
    long estimated; /* of which estimated (replay mode none's repeated launches) */
    /* accumulators */
    double sum[GP_DERIVED_COUNT], wsum[GP_DERIVED_COUNT], weight[GP_DERIVED_COUNT];
    long present[GP_DERIVED_COUNT];
    char *first_why[GP_DERIVED_COUNT]; /* the first launch's reason for n/a, NULL if none */
    char *why_text[GP_DERIVED_COUNT];  /* a reason gp_aggregate_finish composed, or NULL */
    /* the launch configuration that took the most time */
    double main_time;
    long threads_per_block, blocks, smem_per_block, regs_per_thread, cluster_size;
    gp_occ_result occ;
    /* results, after gp_aggregate_finish */
    gp_agg_row row;
} gp_kernel_agg;

/* Starts an accumulator (kernel name copied).  Returns 0 or -1 (memory). */
int gp_aggregate_init(gp_kernel_agg *k, const char *kernel, int device);
void gp_aggregate_free(gp_kernel_agg *k);

/* Adds one launch's derived row; occ is the launch's occupancy. */
void gp_aggregate_add(gp_kernel_agg *k, const gp_launch *l, const gp_derived_row *row,
                      const gp_occ_result *occ);

/* The launch configuration of a variant (replay mode none): what a kernel's
 * row shows of the configuration that took the most time. */
typedef struct {
    long threads_per_block, blocks, smem_per_block, regs_per_thread, cluster_size;
    gp_occ_result occ; /* limiter GP_OCC_LIMIT_INVALID: n/a */
} gp_agg_shape;

/* The configuration of launch l, whose occupancy is occ. */
void gp_agg_shape_of(gp_agg_shape *s, const gp_launch *l, const gp_occ_result *occ);

/* Adds m launches whose derived values are v (a replay-mode-none variant's
 * estimated mean launch; NaN: not valued, counted as such in each of them),
 * launched with the configuration s (NULL: unknown). */
void gp_aggregate_add_estimated(gp_kernel_agg *k, const double *v, long m,
                                const gp_agg_shape *s);

/* Computes k->row from the accumulators. */
void gp_aggregate_finish(gp_kernel_agg *k);

#endif
