/* load.h - the report's model: JSON-lines files read into per-kernel rows
 * with their occupancy, roofline and verdicts, kernels sorted by total time. */
#ifndef GP_LOAD_H
#define GP_LOAD_H

#include <stdio.h>

#include "aggregate.h"
#include "device.h"
#include "peaks.h"
#include "roofline.h"
#include "verdict.h"

typedef struct {
    gp_kernel_agg agg;
    gp_roofline roof;
    gp_verdict *verdicts; /* n_verdicts of them, best first */
    size_t n_verdicts;
} gp_kernel_report;

typedef struct {
    gp_kernel_report *kernels; /* sorted by total time, longest first */
    size_t n, cap;
    gp_device *devices; /* by ordinal order of appearance */
    size_t n_devices;
    gp_device dflt; /* used for devices without a record */
    gp_peaks peaks;
    long launches, bad_lines, summaries;
    long records; /* valid records read (device, launch, summary) */
    double total_time; /* s, over kernels with a known duration */
    char **files;
    size_t n_files;
    const char *tool; /* prefix of the warnings ("gpuprof-report") */
    struct gp_strindex *index; /* kernel lookup by (device, name) */
} gp_report;

/* Empty report with the given peaks (NULL: none); warnings are prefixed
 * "gpuprof-report" unless r->tool is set to another name. */
void gp_report_init(gp_report *r, const gp_peaks *peaks);
void gp_report_free(gp_report *r);

/* Reads one JSON-lines file.  A malformed line is counted in r->bad_lines and
 * described on warn (when not NULL) as "file:line: ...".  Returns the number
 * of launches read, or -1 when the file cannot be read (a directory, a read
 * error: said on warn). */
long gp_report_load(gp_report *r, const char *path, FILE *warn);
/* The same from an open stream; name is what the warnings call it. */
long gp_report_load_stream(gp_report *r, FILE *f, const char *name, FILE *warn);

/* Aggregates, computes roofline and verdicts, sorts.  Call once after all
 * loads. */
void gp_report_finish(gp_report *r);

/* The device of a kernel (defaults when the file had no device record). */
const gp_device *gp_report_device(const gp_report *r, int ordinal);

#endif
