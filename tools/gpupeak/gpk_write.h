/* gpk_write.h - gpupeak's output files, written from gpk_results:
 * peaks.json (gpk_write_json.c), the table, curves.csv, cross-sm.csv and the
 * SVG plots (gpk_write_text.c). */
#ifndef GPK_WRITE_H
#define GPK_WRITE_H

#include <stdio.h>

#include "gpk_results.h"

/* peaks.json at path; 0, or -1 after saying what failed. */
int gpk_write_json(const gpk_results *r, const char *path);
/* The table of figures to f (peaks.txt, stdout). */
void gpk_write_table(const gpk_results *r, FILE *f);
/* In dir, the full run's curves.csv, latency and associativity plots, and
 * the cross-SM matrix (svg, csv); 0, or -1 when a plot failed. */
int gpk_write_plots(const gpk_results *r, const char *dir);

#endif
