/* device.c - default device limits; see device.h. */
#include "metrics/records/device.h"

#include <stdio.h>
#include <string.h>

void gp_device_h100(gp_device *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", "NVIDIA H100 80GB HBM3 (defaults)");
    snprintf(d->chip, sizeof d->chip, "%s", "GH100");
    d->cc_major = 9;
    d->sm_count = 132;
    d->max_threads_per_sm = 2048;
    d->max_blocks_per_sm = 32;
    d->max_warps_per_sm = 64;
    d->warp_size = 32;
    d->max_threads_per_block = 1024;
    d->regs_per_sm = 65536;
    d->max_regs_per_block = 65536;
    d->max_regs_per_thread = 255;
    d->reg_alloc_unit = 256;
    d->warp_alloc_granularity = 4;
    d->smem_per_sm = 233472;          /* 228 KB */
    d->smem_per_block = 49152;        /* 48 KB without opt-in */
    d->smem_per_block_optin = 232448; /* 227 KB */
    d->smem_reserved_per_block = 1024;
    d->smem_alloc_unit = 128;
    d->l2_bytes = 52428800;
    d->mem_bus_width_bits = 5120;
    d->mem_clock_khz = 2619000;
    d->sm_clock_khz = 1980000;
    d->dram_bytes_per_s_theoretical = 3.35e12;
}
