/* svg_memory.h - the memory chart of Nsight Compute's Memory Workload
 * Analysis, one kernel's, as inline SVG (svg_memory.c), and its Speed Of
 * Light breakdown bars (svg_sol.c): what the HTML page draws per kernel. */
#ifndef GP_SVG_MEMORY_H
#define GP_SVG_MEMORY_H

#include <stdio.h>

#include "metrics/model/aggregate.h"

/* The chart of kernel a: the kernel, L1/TEX cache and shared memory, L2,
 * device, system and peer memory, the links labelled with bytes, requests
 * and throughputs, the caches with their hit rates.  A link whose metrics
 * were not collected is drawn dashed and says "not collected", never 0; one
 * n/a for another reason says n/a with the reason on hover.  Every text is
 * the report's own (numbers and fixed words); the reasons go through
 * gp_text_html.  Returns 1 when drawn, 0 when the records hold none of its
 * metrics (nothing written).  out NULL: only says whether it would draw. */
int gp_svg_memory_write(const gp_kernel_agg *a, FILE *out);

/* The Speed Of Light bars of kernel a: SM and memory throughput (Nsight
 * Compute's sm__throughput and gpu__compute_memory_throughput) and the units
 * behind each: the pipes and the L1, L2 and DRAM throughputs where collected,
 * else the study's utilizations.  Each bar says which metric it shows.
 * Returns 1 when drawn, 0 when the records hold none (nothing written);
 * out NULL: only says whether it would draw. */
int gp_svg_sol_write(const gp_kernel_agg *a, FILE *out);

#endif
