/* gpk_fit.h - what the measured points say: the steps, saturation and TLB
 * rise of each curve, the LRU fit of each sweep past capacity, the ways of
 * each strided test, the clusters of the L2 samples and of the cross-SM
 * latencies, and the run's median clock.  Pure computation on gpk_results
 * (the numerical methods are gpk_steps.c's); the measurement calls each
 * fit as soon as its points are in, since later measurements use it. */
#ifndef GPK_FIT_H
#define GPK_FIT_H

#include "gpk_results.h"

/* Steps (footprint curves), saturation (stride curves) and, for TLB
 * sweeps, the fitted rise of curve c. */
void gpk_fit_curve(gpk_results *r, int c);
/* The hit and miss plateaus of sweep c, from its footprint curve's step;
 * -1 (done -1, why) when that curve shows no step. */
int gpk_fit_sweep_plateaus(gpk_results *r, int c);
/* The LRU model fitted to the points of sweep c (done 1, or -1 with why). */
void gpk_fit_sweep(gpk_results *r, int c);
/* Ways and way size read off the rows of strided test c (done 1 or -1);
 * -1 (done -1, why) when a level below the first has no plateau to pass. */
int gpk_fit_assoc(gpk_results *r, int c);
/* The two clusters of the n L2 single-load times v. */
void gpk_fit_l2_samples(gpk_results *r, const double *v, int n);
/* Minimum, median, maximum and the two clusters of the cross-SM matrix. */
void gpk_fit_cross_sm(gpk_results *r);
/* The median of the clocks measured during the rate and latency tests. */
void gpk_fit_clock(gpk_results *r);

#endif
