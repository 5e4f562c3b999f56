/* device_facts.c - see device_facts.h */
#include "preload/device_facts.h"

#include <stdio.h>
#include <string.h>

void gp_device_facts_read(int dev, gp_device_facts *d, const char *chip)
{
    memset(d, 0, sizeof(*d));
    d->ordinal = dev;
    gp_collect_device_name(dev, d->name, sizeof(d->name));
    snprintf(d->chip, sizeof(d->chip), "%s", chip);
#define ATTR(field, a) d->field = gp_collect_device_attr(dev, a)
    ATTR(cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    ATTR(cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    ATTR(sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    ATTR(max_threads_per_sm, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    ATTR(max_blocks_per_sm, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
    ATTR(warp_size, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    ATTR(regs_per_sm, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    ATTR(max_regs_per_block, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    ATTR(smem_per_sm, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    ATTR(smem_per_block, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    ATTR(smem_per_block_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    ATTR(smem_reserved_per_block, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
    ATTR(l2_bytes, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    ATTR(mem_bus_width_bits, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    ATTR(mem_clock_khz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    ATTR(sm_clock_khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
#undef ATTR
}
