/* test_occupancy.c - the occupancy calculator: cases computed by hand for the
 * H100 (sm_90) limits, then every row of the table recorded on the device
 * from cuOccupancyMaxActiveBlocksPerMultiprocessor (tests/data/occupancy-h100.csv,
 * written by tests/gpu/occupancy/occupancy_sweep).  Without the table that
 * part is a SKIP, never a pass. */
#include <stdlib.h>

#include "gp_test.h"
#include "metrics/catalog/occupancy.h"

#ifndef GP_OCC_TABLE
#define GP_OCC_TABLE "tests/data/occupancy-h100.csv"
#endif

static gp_occ_result occ(int threads, int regs, long stat, long dyn, long maxdyn, int carveout)
{
    gp_device d;
    gp_occ_input in = {threads, regs, stat, dyn, maxdyn, carveout, 1};
    gp_occ_result r;
    gp_device_h100(&d);
    gp_occupancy_compute(&d, &in, &r);
    return r;
}

static void test_hand_cases(void)
{
    gp_occ_result r;
    /* 4x4 blocks: 1 (partial) warp each, 32 blocks/SM -> 32 of 64 warps
     * (50%), 512 of 2048 threads; the block limit binds */
    r = occ(16, 16, 0, 0, -1, -1);
    GP_CHECK(r.blocks_per_sm == 32 && r.warps_per_sm == 32);
    GP_CHECK_NEAR(r.occupancy, 0.5, 1e-12);
    GP_CHECK(r.limiter == GP_OCC_LIMIT_BLOCKS);
    GP_CHECK(strstr(r.advice, "16x16") != NULL);
    /* 256 threads x 64 regs: 2048 regs/warp, 8 warps per sub-partition ->
     * 32 warps -> 4 blocks, 50% */
    r = occ(256, 64, 0, 0, -1, -1);
    GP_CHECK(r.blocks_per_sm == 4 && r.limiter == GP_OCC_LIMIT_REGISTERS);
    GP_CHECK_NEAR(r.occupancy, 0.5, 1e-12);
    /* ... 32 regs lets warps bind: 8 blocks, 100%, no limiter */
    r = occ(256, 32, 0, 0, -1, -1);
    GP_CHECK(r.blocks_per_sm == 8 && r.limiter == GP_OCC_LIMIT_NONE && r.advice[0] == 0);
    /* 255 regs: 8160 -> 8192 per warp, 2 warps per sub-partition, 8 warps:
     * 1 block of 256, 12.5%; 128 regs would fit 2 */
    r = occ(256, 255, 0, 0, -1, -1);
    GP_CHECK(r.blocks_per_sm == 1 && r.regs_per_warp_alloc == 8192);
    GP_CHECK_NEAR(r.occupancy, 0.125, 1e-12);
    GP_CHECK_MSG(strstr(r.advice, "-maxrregcount=128") != NULL, "%s", r.advice);
    /* 640 threads (20 warps): 3 blocks = 60 warps; warps bind, not registers */
    r = occ(640, 32, 0, 0, -1, -1);
    GP_CHECK(r.blocks_per_sm == 3 && r.limiter == GP_OCC_LIMIT_WARPS);
    GP_CHECK_NEAR(r.occupancy, 60.0 / 64, 1e-12);
    /* 96 threads x 168 regs: 5376 regs/warp, 3 per sub-partition = 12 warps
     * -> 4 blocks of 3 warps */
    r = occ(96, 168, 0, 0, -1, -1);
    GP_CHECK(r.blocks_per_sm == 4 && r.warps_per_sm == 12);
    /* 1024 threads x 64 regs: exactly the 64 K register file: 1 block */
    r = occ(1024, 64, 0, 0, -1, -1);
    GP_CHECK(r.blocks_per_sm == 1 && r.limiter == GP_OCC_LIMIT_REGISTERS);
    /* shared memory: 32 KB + 1 KB reserved = 33792 B; 233472 / 33792 = 6 */
    r = occ(256, 16, 0, 32768, -1, -1);
    GP_CHECK(r.blocks_per_sm == 6 && r.limiter == GP_OCC_LIMIT_SMEM);
    GP_CHECK(r.smem_per_block_alloc == 33792);
    GP_CHECK_NEAR(r.occupancy, 48.0 / 64, 1e-12);
    GP_CHECK_MSG(strstr(r.advice, "32256 bytes") != NULL, "%s", r.advice); /* 7 blocks */
    /* allocation unit: 100 B static -> 1124 -> 1152 */
    r = occ(32, 16, 100, 0, -1, -1);
    GP_CHECK(r.smem_per_block_alloc == 1152);
    /* carveout 50%: 114 KB rounds up to the 132 KB configuration: 4 blocks */
    r = occ(256, 16, 0, 32768, -1, 50);
    GP_CHECK(r.blocks_per_sm == 4 && r.smem_per_sm_config == 132 * 1024);
    /* carveout 0: the driver still gives the smallest configuration that holds
     * a block (8 KB): 8 blocks of 1 KB reserved */
    r = occ(128, 16, 0, 0, -1, 0);
    GP_CHECK(r.blocks_per_sm == 8 && r.limiter == GP_OCC_LIMIT_SMEM);
    /* impossible launches */
    GP_CHECK(occ(1025, 16, 0, 0, -1, -1).limiter == GP_OCC_LIMIT_INVALID);
    GP_CHECK(occ(256, 256, 0, 0, -1, -1).limiter == GP_OCC_LIMIT_INVALID);
    GP_CHECK(occ(1024, 72, 0, 0, -1, -1).limiter == GP_OCC_LIMIT_INVALID); /* 73728 regs */
    GP_CHECK(occ(256, 16, 0, 60000, 48 * 1024, -1).limiter == GP_OCC_LIMIT_INVALID);
    GP_CHECK(occ(256, 16, 0, 60000, -1, -1).blocks_per_sm == 3); /* opted in: 61440 B */
    GP_CHECK(occ(256, 16, 0, 240000, -1, -1).limiter == GP_OCC_LIMIT_INVALID);
}

/* Every row of the recorded table. */
static void test_table(void)
{
    FILE *f = fopen(GP_OCC_TABLE, "r");
    char line[512], name[64];
    long rows = 0, bad = 0;
    gp_device d;
    if (!f) {
        gp_test_skip("occupancy table", GP_OCC_TABLE " absent: record it on a GPU with "
                                                     "build/tests/gpu/occupancy_sweep");
        return;
    }
    gp_device_h100(&d);
    while (fgets(line, sizeof line, f)) {
        int regs, carve, block, rc, blocks;
        long stat, maxdyn, dyn;
        gp_occ_input in;
        gp_occ_result r;
        if (line[0] == '#' || strncmp(line, "kernel,", 7) == 0)
            continue;
        if (sscanf(line, "%63[^,],%d,%ld,%ld,%d,%d,%ld,%d,%d", name, &regs, &stat, &maxdyn, &carve,
                   &block, &dyn, &rc, &blocks) != 9) {
            GP_CHECK_MSG(0, "unreadable table row: %s", line);
            continue;
        }
        rows++;
        in.threads_per_block = block;
        in.regs_per_thread = regs;
        in.static_smem = stat;
        in.dynamic_smem = dyn;
        in.max_dynamic_smem = maxdyn;
        in.carveout_pct = carve;
        in.cluster_size = 1;
        gp_occupancy_compute(&d, &in, &r);
        if (rc != 0)
            blocks = 0; /* the driver refused: so must we */
        if (r.blocks_per_sm != blocks) {
            if (bad++ < 15)
                fprintf(stderr,
                        "occupancy mismatch: %s regs %d static %ld maxdyn %ld carveout %d block %d "
                        "dyn %ld: driver %d (rc %d), calculator %d (%s)\n",
                        name, regs, stat, maxdyn, carve, block, dyn, blocks, rc, r.blocks_per_sm,
                        gp_occupancy_limiter_name(r.limiter));
        }
    }
    fclose(f);
    GP_CHECK_MSG(rows > 0, "no rows in " GP_OCC_TABLE);
    GP_CHECK_MSG(bad == 0, "%ld of %ld table rows disagree with the driver", bad, rows);
    if (rows)
        fprintf(stderr, "occupancy table: %ld of %ld rows agree with the driver\n", rows - bad,
                rows);
}

int main(void)
{
    test_hand_cases();
    test_table();
    return gp_test_finish("report-occupancy");
}
