/* pcs_probe.h - what the two files of the PC Sampling probe share:
 * pcs_probe.c (the kernels, the driver set-up, PC sampling, the modes of
 * sampling alone, main) and pcs_probe_rp.c (the modes beside the range
 * profiler and the SASS Metrics API, and correlate).  A diagnostic program,
 * not a library: a failed driver call ends it, a failed CUPTI call is
 * printed and the mode goes on. */
#ifndef PCS_PROBE_H
#define PCS_PROBE_H

#include <cuda.h>
#include <cupti.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../cupti_check.h" /* CU(x): a failed CUPTI call printed, the mode goes on */

/* The host's monotonic clock in microseconds. */
double pcs_now_us(void);

/* ---- kernels (stall_kernels.cu) ------------------------------------------ */

enum { K_CHASE, K_FMA, K_BARRIER, K_STREAM, K_DIVERGE, K_N };
extern const char *pcs_kernel_name[K_N];
/* One launch of kernel k on the null stream (asynchronous). */
void pcs_launch(int k);
/* One launch of each kernel, then a synchronize. */
void pcs_launch_all(void);

/* ---- PC sampling ---------------------------------------------------------- */

enum { MAX_PCS = 20000 };
/* The stall reasons of the context (set by pcs_enable). */
extern size_t pcs_n_reasons;
extern char **pcs_reason_name;

/* Samples gathered since pcs_rows_clear, by function and PC. */
typedef struct {
    char fn[128];
    uint64_t pc, crc;
    uint64_t *by_reason; /* pcs_n_reasons */
} pc_row;
extern pc_row pcs_rows[MAX_PCS];
extern size_t pcs_n_rows;
extern uint64_t pcs_tot_samples, pcs_tot_nonuser;

/* Enables sampling in ctx (once: later calls count) with start/stop control,
 * at 2^period cycles (CUPTI's default when period < 5); prints the defaults
 * and the costs.  0, or -1 when CUPTI refuses. */
int pcs_enable(CUcontext ctx, int period);
/* Start and stop; each returns its host time in microseconds. */
double pcs_start(CUcontext ctx);
double pcs_stop(CUcontext ctx);
/* Disables sampling and takes what the configuration buffer holds. */
void pcs_disable(CUcontext ctx);
/* Forgets the samples and totals gathered so far. */
void pcs_rows_clear(void);
/* Drains CUPTI's data; returns the host time in microseconds. */
double pcs_get_data(CUcontext ctx);
/* Samples per kernel and reason (the top five reasons of each kernel). */
void pcs_print_samples(const char *title);
/* Start, one launch of each kernel, stop, and the samples drained. */
void pcs_sample_all(CUcontext ctx);

/* ---- modes of pcs_probe_rp.c ---------------------------------------------- */

void pcs_mode_rp(CUcontext ctx);
void pcs_mode_rpcycle(CUcontext ctx);
void pcs_mode_sass(CUcontext ctx);
void pcs_mode_combo(CUcontext ctx);
void pcs_mode_correlate(CUcontext ctx, const void *image, size_t size);

#endif
