/* gpk_measure.h - running gpupeak's benchmarks (gpk_measure.c). */
#ifndef GPK_MEASURE_H
#define GPK_MEASURE_H

#include "gpk_results.h"

/* Runs the probe processes for the risky paths (the bulk copy; in the full
 * run also the VMM chunks) and sets r->probe_bulk_why / probe_vmm_why for
 * those that failed.  Call before this process touches CUDA (fork). */
void gpk_probe(gpk_results *r);
/* Every measurement of r->quick's run on the device opened into r->dev,
 * with the fits each later one needs; progress on stderr. */
void gpk_measure(gpk_results *r);

#endif
