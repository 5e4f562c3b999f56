/* query.h - what the launcher asks CUPTI without profiling: the chips CUPTI
 * knows, the metrics of a chip with their descriptions (CUPTI's host API, no
 * GPU needed given the chip's name), and the chip of device 0.  The launcher's
 * one boundary with CUPTI; no CUPTI type crosses it. */
#ifndef GP_QUERY_H
#define GP_QUERY_H

#include <stddef.h>
#include <stdio.h>

/* As Nsight Compute's --query-metrics-mode: base names, the sub-metrics
 * (suffixes) of the named base metrics, or both for every metric. */
enum { GP_QUERY_BASE, GP_QUERY_SUFFIX, GP_QUERY_ALL };

/* Prints the chips CUPTI's host API supports, one per line.  0 or -1. */
int gp_query_chips(FILE *out, char *err, size_t errlen);

/* Prints the metrics of chip: name, type, unit and description per line
 * (GP_QUERY_BASE, GP_QUERY_ALL), or the sub-metrics of each of names[0..n)
 * (GP_QUERY_SUFFIX).  Returns the number of lines, or -1 with a sentence in err. */
long gp_query_metrics(const char *chip, int mode, const char *const *names, size_t n, FILE *out,
                      char *err, size_t errlen);

/* The chip name of CUDA device 0 (needs a GPU and its driver).  0 or -1. */
int gp_query_device_chip(char *buf, size_t len, char *err, size_t errlen);

#endif
