/* filter.h - which launches get profiled, as Nsight Compute users know it:
 * kernel-name regex (include/exclude), capture ranges (cu(da)ProfilerStart/
 * Stop, NVTX: ranges.h), launch skip and launch count (both counted over
 * launches that pass the name and range filters), at most K launches per
 * kernel.  Pure logic: the caller holds the locks and caches name matches. */
#ifndef GP_FILTER_H
#define GP_FILTER_H

#include <stdint.h>

#include "preload/config.h"

enum gp_decision {
    GP_PROFILE = 0,
    GP_SKIP_NAME,           /* name filtered out by include/exclude */
    GP_SKIP_LAUNCH,         /* among the first GPUPROF_LAUNCH_SKIP matching launches */
    GP_SKIP_COUNT,          /* GPUPROF_LAUNCH_COUNT already profiled */
    GP_SKIP_PER_KERNEL,     /* GPUPROF_MAX_PER_KERNEL already profiled for this kernel */
    GP_SKIP_PROFILER_RANGE, /* outside cu(da)ProfilerStart/Stop */
    GP_SKIP_NVTX,           /* outside the NVTX ranges asked for */
    GP_SKIP_COMMUNICATION,  /* a communication kernel (NCCL): its peers would not replay it */
    GP_DECISIONS
};

typedef struct gp_filter_state {
    uint64_t matched;  /* launches whose name matched */
    uint64_t profiled; /* launches chosen for profiling */
} gp_filter_state;

const char *gp_decision_name(int d);

/* The name the regexes see, by GPUPROF_KERNEL_NAME_BASE, written into buf. */
const char *gp_filter_name(const gp_config *cfg, const char *demangled, const char *mangled,
                           char *buf, size_t len);
/* 1 for a kernel that waits for kernels of other GPUs or processes (NCCL's
 * collectives and point-to-point kernels): replaying it alone would wait
 * for peers that run it once, forever. */
int gp_filter_is_communication(const char *demangled);
/* 1 if the include/exclude regexes let `name` through. */
int gp_filter_name_matches(const gp_config *cfg, const char *name);
/* Decides for one launch and updates the counters.  capture is the capture
 * ranges' decision for it (gp_ranges_decide: GP_PROFILE or a GP_SKIP_ value);
 * kernel_profiled is the per-kernel count of profiled launches (incremented
 * when profiled). */
int gp_filter_decide(const gp_config *cfg, gp_filter_state *st, int name_matches, int capture,
                     uint64_t *kernel_profiled);

#endif
