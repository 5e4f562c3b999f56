/* load.h - the report's model (report_types.h): JSON-lines files read into per-kernel rows
 * with their occupancy, roofline and verdicts, kernels sorted by total time.
 *
 * Devices are keyed by host, process and ordinal (a device record belongs to
 * the process whose launches follow it), so device 0 of one process or host
 * never stands for device 0 of another.  Launches of the
 * same kernel (demangled name) on the same device ordinal and GPU model are
 * combined, whatever process or rank they come from. */
#ifndef GP_LOAD_H
#define GP_LOAD_H

#include <stdio.h>

#include "metrics/model/report_types.h"

/* Empty report with the given peaks (NULL: none); warnings are prefixed
 * "gpuprof-report" unless r->tool is set to another name. */
void gp_report_init(gp_report *r, const gp_peaks *peaks);
void gp_report_free(gp_report *r);

/* Reads one JSON-lines file ("-": standard input), a regular file or a pipe
 * within the limits above (textfile.h).  A malformed line, or one over the
 * line limit, is counted in r->bad_lines and described on warn (when not
 * NULL) as "file:line: ...", escaped.  Returns the number of launches read,
 * or -1 when the file cannot be read (a directory, a device, a read error,
 * over the size limit: said on warn; what came before the error is kept). */
long gp_report_load(gp_report *r, const char *path, FILE *warn);
/* The same from an open stream; name is what the warnings call it. */
long gp_report_load_stream(gp_report *r, FILE *f, const char *name, FILE *warn);

/* Aggregates, computes roofline and verdicts, sorts, names.  Call once after
 * all loads. */
void gp_report_finish(gp_report *r);

/* The kernels' total time, s: NaN (n/a) when no kernel has a known
 * duration, never 0 for "unknown". */
double gp_report_total_time(const gp_report *r);

/* The device of a kernel (H100 defaults when its input had no device record). */
const gp_device *gp_report_kernel_device(const gp_report *r, const gp_kernel_report *k);

/* The kernel's name as r->name_base asks (short name, demangled, mangled). */
const char *gp_report_kernel_name(const gp_report *r, const gp_kernel_report *k);

/* The number of distinct GPU models among the device records. */
int gp_report_n_models(const gp_report *r);

/* When the peaks file names a GPU and no profiled device is that GPU: 1 and
 * one sentence naming both into buf.  Otherwise 0. */
int gp_report_peaks_mismatch(const gp_report *r, char *buf, size_t len);

/* Distinct device models, for headers: calls fn once per (ordinal, model)
 * with the number of inputs (processes) that used it. */
void gp_report_each_device(const gp_report *r,
                           void (*fn)(const gp_device *d, size_t inputs, void *arg), void *arg);

#endif
