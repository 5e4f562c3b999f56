/* pc_sampling.h - the CUPTI PC Sampling boundary: warp-stall sampling of a
 * context's kernels while they run (no replay), and CUPTI's SASS-to-source
 * correlation of a cubin.  No CUPTI type crosses this header.
 *
 * What CUPTI allows here (measured on H100 and H200 with CUDA 13.0 and
 * driver 580, tests/gpu/where/pcs_probe.c and pcs_probe_rp.c,
 * docs/measurements.md):
 * - the range profiler and PC sampling exclude each other in a context:
 *   while a range profiler object is enabled, sampling cannot start, and
 *   once sampling has started, the range profiler cannot start a pass until
 *   sampling is disabled.  A switch costs about half a second (disable
 *   ~80 ms, enable, and a first start of ~300 ms), so the policy switches
 *   rarely;
 * - the SASS Metrics pass runs while sampling is enabled but stopped;
 * - the first start after a configuration costs ~300 ms, later starts
 *   ~0.1 ms; a stop waits for the context's work and decodes what was
 *   sampled (~30 ns a sample), and only then are the samples readable. */
#ifndef GP_PC_SAMPLING_H
#define GP_PC_SAMPLING_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

/* Sampling of one context (opaque). */
typedef struct gp_pcs gp_pcs;

typedef struct gp_pcs_config {
    unsigned interval_log2;   /* a sample every 2^interval_log2 cycles per SM sub-partition (5..31) */
    size_t hw_buffer_bytes;   /* the device buffer the hardware writes samples to */
    size_t scratch_bytes;     /* CUPTI's host buffer of decoded PCs */
    unsigned worker_ms;       /* how often CUPTI's threads empty the hardware buffer (0: CUPTI's) */
} gp_pcs_config;

/* One sampled instruction as the sink sees it: reasons are indices into
 * gp_pcs_reason_name(); counts[i] samples of reason reasons[i]. */
typedef struct gp_pcs_pc {
    uint64_t cubin_crc;
    const char *function; /* mangled; valid during the call */
    uint64_t pc;
    size_t n;
    const uint32_t *reasons;
    const uint64_t *counts;
} gp_pcs_pc;

typedef void (*gp_pcs_sink)(void *arg, const gp_pcs_pc *pc);

/* Totals of what was drained so far. */
typedef struct gp_pcs_totals {
    uint64_t samples;      /* every sample the hardware took, dropped and non-user ones included */
    uint64_t dropped;      /* samples the hardware dropped (its buffer was full) */
    uint64_t non_user;     /* samples in code CUPTI gives no PC records for */
    uint64_t buffer_full;  /* drains that found the hardware buffer full */
} gp_pcs_totals;

/* Enables sampling on ctx and configures it (start/stop control,
 * continuous collection).  NULL with one sentence in err when the device
 * or driver does not allow it. */
gp_pcs *gp_pcs_open(CUcontext ctx, const gp_pcs_config *cfg, char *err, size_t errlen);
/* Starts and stops the sampling of the context's kernels.  0, or -1 with
 * err.  A stop waits for the context's work. */
int gp_pcs_start(gp_pcs *p, char *err, size_t errlen);
int gp_pcs_stop(gp_pcs *p, char *err, size_t errlen);
int gp_pcs_started(const gp_pcs *p);
/* Hands every PC sampled since the last drain to sink (after a stop).  0, or
 * -1 with err. */
int gp_pcs_drain(gp_pcs *p, gp_pcs_sink sink, void *arg, char *err, size_t errlen);
/* Stops if needed, drains into sink, disables sampling, adds p's totals to
 * *totals (may be NULL) and frees p. */
void gp_pcs_close(gp_pcs *p, gp_pcs_sink sink, void *arg, gp_pcs_totals *totals);
const gp_pcs_totals *gp_pcs_get_totals(const gp_pcs *p);

/* A reason's name as CUPTI gives it, without the
 * "smsp__pcsamp_warps_issue_stalled_" prefix ("long_scoreboard",
 * "long_scoreboard_not_issued"); NULL for an index CUPTI did not list. */
const char *gp_pcs_reason_name(const gp_pcs *p, uint32_t reason);

/* ---- cubins -------------------------------------------------------------- */

/* The cubin's CRC as CUPTI computes it for sample records (0 when CUPTI
 * cannot say). */
uint64_t gp_pcs_cubin_crc(const void *cubin, size_t size);
/* The source line of instruction `pc` of `function` in the cubin: 0 with
 * *file (malloc'd, the directory joined in when CUPTI gives one) and *line,
 * or -1 when the cubin has no line for it. */
int gp_pcs_source_line(const void *cubin, size_t size, const char *function, uint64_t pc,
                       char **file, uint32_t *line);

#endif
