/* filter.c - see filter.h */
#include "preload/filter.h"

#include <stdio.h>
#include <string.h>

#include "util/kname.h"

const char *gp_decision_name(int d)
{
    static const char *const names[GP_DECISIONS] = {"profiled",
                                                    "name filter",
                                                    "launch skip",
                                                    "launch count reached",
                                                    "per-kernel limit reached",
                                                    "outside cudaProfilerStart/Stop",
                                                    "outside the NVTX ranges asked for",
                                                    "communication kernel (NCCL)"};
    return d >= 0 && d < GP_DECISIONS ? names[d] : "?";
}

int gp_filter_is_communication(const char *demangled)
{
    return strncmp(demangled, "ncclKernel", 10) == 0 ||
           strncmp(demangled, "ncclDevKernel", 13) == 0;
}

const char *gp_filter_name(const gp_config *cfg, const char *demangled, const char *mangled,
                           char *buf, size_t len)
{
    switch (cfg->name_base) {
    case GP_NAME_MANGLED:
        return mangled;
    case GP_NAME_DEMANGLED:
        return demangled;
    default:
        gp_kname_function(demangled, buf, len);
        return buf;
    }
}

int gp_filter_name_matches(const gp_config *cfg, const char *name)
{
    if (cfg->have_include && regexec(&cfg->include_re, name, 0, NULL, 0) != 0)
        return 0;
    if (cfg->have_exclude && regexec(&cfg->exclude_re, name, 0, NULL, 0) == 0)
        return 0;
    return 1;
}

int gp_filter_decide(const gp_config *cfg, gp_filter_state *st, int name_matches, int capture,
                     uint64_t *kernel_profiled)
{
    if (!name_matches)
        return GP_SKIP_NAME;
    if (capture != GP_PROFILE)
        return capture;
    st->matched++;
    if (st->matched <= (uint64_t)cfg->launch_skip)
        return GP_SKIP_LAUNCH;
    if (cfg->launch_count >= 0 && st->profiled >= (uint64_t)cfg->launch_count)
        return GP_SKIP_COUNT;
    if (cfg->max_per_kernel >= 0 && *kernel_profiled >= (uint64_t)cfg->max_per_kernel)
        return GP_SKIP_PER_KERNEL;
    st->profiled++;
    (*kernel_profiled)++;
    return GP_PROFILE;
}
