/* occupancy.h - theoretical occupancy from the device limits, the way the
 * hardware allocates: warps and blocks per SM, registers per warp rounded to the
 * allocation unit and warps rounded to the register sub-partitions, shared
 * memory per block plus the driver's per-block reservation rounded to the
 * allocation unit, within the carveout the driver picks.  Names the limiting
 * factor and the change that lifts it.  Checked against
 * cuOccupancyMaxActiveBlocksPerMultiprocessor (tests/data/occupancy-h100.csv). */
#ifndef GP_OCCUPANCY_H
#define GP_OCCUPANCY_H

#include "metrics/records/device.h"

typedef struct {
    int threads_per_block;
    int regs_per_thread;
    long static_smem;
    long dynamic_smem;
    /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES when the program raised it
     * (opt-in above 48 KB); -1: unknown, assume the launch was legal. */
    long max_dynamic_smem;
    int carveout_pct; /* preferred shared-memory carveout in %, -1: driver default */
    int cluster_size; /* blocks per cluster; 0 or 1: no cluster */
} gp_occ_input;

typedef enum {
    GP_OCC_LIMIT_NONE,      /* full occupancy */
    GP_OCC_LIMIT_WARPS,     /* warps per SM (block size does not divide it) */
    GP_OCC_LIMIT_BLOCKS,    /* blocks per SM (blocks too small) */
    GP_OCC_LIMIT_REGISTERS, /* register file */
    GP_OCC_LIMIT_SMEM,      /* shared memory */
    GP_OCC_LIMIT_INVALID    /* the block cannot run at all */
} gp_occ_limiter;

typedef struct {
    int blocks_per_sm;
    int warps_per_sm;
    double occupancy; /* warps_per_sm / max warps per SM, 0..1 */
    /* blocks per SM each resource alone allows (INT_MAX: no limit) */
    int by_warps, by_blocks, by_regs, by_smem;
    gp_occ_limiter limiter;
    int regs_per_warp_alloc;  /* registers per warp after rounding */
    long smem_per_block_alloc; /* bytes per block after reservation and rounding */
    long smem_per_sm_config;   /* the carveout used, bytes */
    char advice[320];          /* what lifts the limit ("" at full occupancy) */
} gp_occ_result;

/* Computes occupancy.  Returns 0, or -1 when the input is impossible (block
 * too large, too many registers or too much shared memory): the result then
 * has 0 blocks, limiter INVALID and the reason in advice. */
int gp_occupancy_compute(const gp_device *d, const gp_occ_input *in, gp_occ_result *out);

/* Short name of a limiter: "none", "warps", "blocks", "registers",
 * "shared memory", "invalid". */
const char *gp_occupancy_limiter_name(gp_occ_limiter l);

#endif
