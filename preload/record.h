/* record.h - what gpuprof knows about a device and a profiled launch, in the
 * project's own types (no CUDA or CUPTI types), as the writers see it. */
#ifndef GP_RECORD_H
#define GP_RECORD_H

#include <stddef.h>
#include <stdint.h>

typedef struct gp_device_facts {
    int ordinal;
    char name[256];
    char chip[64];
    int cc_major, cc_minor;
    int sm_count;
    int max_threads_per_sm, max_blocks_per_sm, warp_size;
    int regs_per_sm, max_regs_per_block;
    int smem_per_sm, smem_per_block, smem_per_block_optin, smem_reserved_per_block;
    int l2_bytes;
    int mem_bus_width_bits, mem_clock_khz, sm_clock_khz;
} gp_device_facts;

typedef struct gp_launch_record {
    uint64_t launch_id;
    long pid;
    const char *host;
    const char *process; /* program name */
    long rank;           /* MPI or Slurm rank, -1 when none */
    int device;
    uint32_t context;
    uint64_t stream;
    const char *kernel;  /* demangled */
    const char *mangled;
    const char *api;     /* driver entry point */
    unsigned grid[3], block[3], cluster[3];
    int regs_per_thread;
    size_t static_smem, dynamic_smem, local_bytes_per_thread;
    int passes;
    const char *snapshot; /* none, device, host, unavailable */
    uint64_t bytes_saved, bytes_restored;
    double replay_ms;
    int caches_flushed;
    size_t n_metrics;
    const char *const *metric_names;
    const char *const *metric_units;
    const double *values;        /* NaN when missing */
    const char *const *missing;  /* reason per metric, NULL when measured */
} gp_launch_record;

#endif
