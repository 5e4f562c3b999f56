/* gpk_results.h - what gpupeak found: every figure of one run, filled by
 * gpk_measure.c and gpk_fit.c and read by the writers; and the few helpers
 * they share (gpk_results.c). */
#ifndef GPK_RESULTS_H
#define GPK_RESULTS_H

#include <stddef.h>

#include "gpk_bench.h"
#include "gpk_device.h"
#include "gpk_steps.h"

typedef struct gpk_rate {
    int done; /* 0: not run (--quick); 1: measured; -1: failed; 2: not built; 3: skipped */
    const char *why; /* for 3 */
    double value;      /* unit per second */
    double per_clk_sm; /* unit per clock per SM at the measured clock */
    double clk_mhz;
    double ms;
} gpk_rate;

typedef struct gpk_lat {
    int done; /* as gpk_rate.done */
    double cycles, ns, clk_mhz;
} gpk_lat;

typedef struct gpk_curve {
    int n;
    double x[GPK_MAXPTS], y[GPK_MAXPTS], clk[GPK_MAXPTS];
    int nsteps;
    gpk_step steps[GPK_MAXSTEPS];
    double last_lat;
    double sat; /* by-stride curves: the fetch granularity */
    /* TLB sweeps: the small rise of a random order (gpk_reach_find) */
    int reach_rc;
    gpk_reach_fit reach;
} gpk_curve;

typedef struct gpk_assoc_res {
    int done;
    const char *why; /* when done is -1 and no chase failed */
    double seconds;
    double hit_lat;  /* the plateau a climb must pass (level > 0), else NaN */
    double lines[GPK_AS_LINES];
    double lat[GPK_ASSOC_MAXS * GPK_AS_LINES]; /* NaN: not measured (past max_bytes) */
    gpk_assoc a;
} gpk_assoc_res;

typedef struct gpk_sweep_res {
    int done; /* 1 measured and fitted; -1 failed; 0 not run */
    const char *why; /* when the fit could not be tried */
    int n;
    double x[GPK_SW_MAX], y[GPK_SW_MAX];
    double t_hit, t_miss, seconds;
    gpk_assoc_fit fit;
    int rc; /* gpk_assoc_fit_lru's */
} gpk_sweep_res;

#define GPK_MAXCOPYV 40 /* copy variants kept */
#define GPK_L2N 4096
#define GPK_MAXSM 256

typedef struct gpk_results {
    int quick;
    /* --only: 1 for each throughput / bandwidth line named, the rest not
     * run (quick is then set too: nothing else is measured) */
    int only, only_tput[GPK_T_COUNT], only_mem[GPK_M_COUNT];
    gpk_devinfo dev;
    gpk_rate tput[GPK_T_COUNT], mem[GPK_M_COUNT];
    gpk_lat lat[GPK_L_COUNT];
    gpk_curve curve[GPK_NCURVE];
    int curves_done;
    double tlb_buf; /* bytes of the TLB sweep's buffer */
    /* the VMM TLB sweep: chunk size, bytes mapped, seconds to map, why not */
    double vmm_chunk, vmm_mapped, vmm_map_s;
    const char *vmm_why;
    /* the probe process: non-NULL when the bulk copy / VMM paths are skipped */
    const char *probe_bulk_why, *probe_vmm_why;
    gpk_assoc_res assoc[GPK_NASSOC];
    gpk_sweep_res sweep[GPK_NSWEEP];
    gpk_copy_var copyv[GPK_MAXCOPYV];
    int ncopyv;
    /* L2 near/far */
    int l2nf_done, l2nf_split, l2nf_smid;
    double l2_near, l2_far, l2_far_frac;
    /* cross-SM */
    int xsm_done, xsm_n;
    double *xsm_ns, *xsm_cyc;
    double xsm_min, xsm_med, xsm_max, xsm_near, xsm_far, xsm_far_frac;
    double clk_mhz; /* median of all measured clocks */
    double seconds;
} gpk_results;

/* Wall-clock seconds (CLOCK_MONOTONIC). */
double gpk_now(void);
/* qsort comparison of doubles, ascending. */
int gpk_cmpd(const void *a, const void *b);
/* The DRAM's theoretical bandwidth, bytes per second, from its clock and bus. */
double gpk_dram_theo(const gpk_devinfo *d);
/* Why a rate or latency with this done code has no value (NULL for 1 and 3,
 * whose reason is the table's). */
const char *gpk_why(int done);
/* Why associativity entry c has no ways, into buf (empty when it has). */
void gpk_assoc_why(const gpk_results *r, int c, char *buf, size_t n);

#endif
