/* ranges.h - capture ranges: is a launch inside the part of the program the
 * user asked to profile?  Two sources, decided as Nsight Compute does:
 *
 *  - cu(da)ProfilerStart/Stop turn profiling on and off for the process;
 *    GPUPROF_PROFILE_FROM_START=0 starts it off (ncu --profile-from-start off).
 *  - NVTX ranges, selected by GPUPROF_NVTX_INCLUDE / GPUPROF_NVTX_EXCLUDE in
 *    Nsight Compute's --nvtx-include syntax.  Push/pop ranges form a stack per
 *    thread and domain: "A/" (A anywhere in the stack), "[A" (A at the bottom),
 *    "A]" (A at the top), "A/B" (B directly inside A); an element "*" stands
 *    for zero or more ranges, "+" for exactly one ("A/+/B").  Start/end ranges
 *    are open process-wide: "A" (inside A), "A,B" (inside both).  "Dom@..."
 *    names a domain (none: the default domain); "regex:" makes the domain and
 *    range names POSIX extended regular expressions (searched, not anchored);
 *    '\' makes the next character literal.  A launch is profiled when some
 *    include matches (or there is none) and no exclude matches.
 *
 * The expressions (nvtx_expr.h) and the range state are plain logic with no
 * CUDA type (tests/unit/test_ranges.c); callbacks.c feeds the state from
 * CUPTI's NVTX and driver callbacks. */
#ifndef GP_RANGES_H
#define GP_RANGES_H

#include <stddef.h>
#include <stdint.h>

struct gp_config;

/* ---- the process's range state (thread-safe) ------------------------------ */

/* Domains and registered strings are handles; handle 0 is the default domain. */
void gp_ranges_domain_created(uint64_t handle, const char *name);
void gp_ranges_string_registered(uint64_t handle, const char *s);
/* The registered string of a handle, copied into buf ("" when unknown). */
void gp_ranges_string(uint64_t handle, char *buf, size_t len);

/* Push/pop ranges of the calling thread.  gp_ranges_pop returns -1 when the
 * thread had no open range in that domain (pushed before gpuprof could see
 * it, e.g. before the program initialized CUDA). */
void gp_ranges_push(uint64_t domain, const char *name);
int gp_ranges_pop(uint64_t domain);
/* Start/end ranges of the process, by id. */
void gp_ranges_start(uint64_t domain, uint64_t id, const char *name);
int gp_ranges_end(uint64_t id);

/* cu(da)ProfilerStart (1) / Stop (0). */
void gp_ranges_profiler(int on);
/* Starts the profiler state as GPUPROF_PROFILE_FROM_START says (once, at
 * start-up; also resets the state for tests). */
void gp_ranges_reset(int profile_from_start);

/* For one launch on the calling thread: 0 (GP_PROFILE) when the capture
 * ranges let it through, else GP_SKIP_PROFILER_RANGE or GP_SKIP_NVTX
 * (filter.h).  Costs one atomic load when no NVTX expression is set. */
int gp_ranges_decide(const struct gp_config *cfg);

#endif
