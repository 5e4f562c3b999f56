/* device.h - the device limits the report needs (the "device" record of the
 * JSON-lines file, docs/output-format.md), and the H100 SXM defaults used when
 * a file has no device record. */
#ifndef GP_DEVICE_H
#define GP_DEVICE_H

typedef struct {
    int ordinal;
    char name[128];
    char chip[32];
    int cc_major, cc_minor;
    int sm_count;
    int max_threads_per_sm, max_blocks_per_sm, max_warps_per_sm, warp_size;
    int max_threads_per_block;
    int regs_per_sm, max_regs_per_block, max_regs_per_thread;
    int reg_alloc_unit;         /* registers per warp allocation unit (256 on sm_90) */
    int warp_alloc_granularity; /* warps: register sub-partitions (4 on sm_90) */
    long smem_per_sm, smem_per_block, smem_per_block_optin, smem_reserved_per_block;
    int smem_alloc_unit; /* bytes (128 on sm_80 and later) */
    double l2_bytes, dram_bytes_per_s_theoretical, sm_clock_hz;
    int from_record; /* 0: these are the defaults */
} gp_device;

/* H100 SXM5 (GH100, sm_90) limits: 132 SMs, 64 warps, 32 blocks, 64 K registers
 * (256 per warp unit), 228 KB shared per SM, 1 KB reserved per block. */
void gp_device_h100(gp_device *d);

#endif
