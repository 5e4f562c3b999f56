/* load.h - the report's model: JSON-lines files read into per-kernel rows
 * with their occupancy, roofline and verdicts, kernels sorted by total time.
 *
 * Devices are keyed by host, process and ordinal (a device record belongs to
 * the process whose launches follow it), so device 0 of one process or host
 * never stands for device 0 of another.  Launches of the
 * same kernel (demangled name) on the same device ordinal and GPU model are
 * combined, whatever process or rank they come from. */
#ifndef GP_LOAD_H
#define GP_LOAD_H

#include <stdint.h>
#include <stdio.h>

#include "metrics/model/aggregate.h"
#include "metrics/records/device.h"
#include "metrics/catalog/peaks.h"
#include "metrics/catalog/roofline.h"
#include "metrics/instructions/source.h"
#include "metrics/instructions/source_group.h"
#include "metrics/instructions/source_text.h"
#include "metrics/verdicts/verdict.h"
#include "metrics/instructions/where.h"

/* The limits on a record file (docs/report.md): a line (one record) of at
 * most 32 MiB, which holds some 500,000 metrics where the profiler writes a
 * few kilobytes, and a file of at most 16 GiB, some six million profiled
 * launches.  Lines are read one at a time, so memory follows the kernels
 * (and, for the formats that list launches, the launches), never the size
 * of a line beyond the limit. */
#define GP_REPORT_MAX_LINE ((size_t)32 << 20)
#define GP_REPORT_MAX_FILE ((uint64_t)16 << 30)

/* How kernels are named in the reports, as Nsight Compute's name bases:
 * function (short, unique in the report), demangled, mangled. */
enum { GP_REPORT_NAME_FUNCTION, GP_REPORT_NAME_DEMANGLED, GP_REPORT_NAME_MANGLED };

typedef struct {
    gp_device d;
    size_t file;   /* the input it came from */
    char host[64]; /* the process whose launches use it ("" and -1 until one does) */
    long pid;
    int model;  /* index of the first device entry describing the same GPU */
    long below; /* the next older unclaimed entry of its input and ordinal, -1: none */
} gp_report_device;

typedef struct {
    gp_kernel_agg agg;
    gp_roofline roof;
    gp_verdict *verdicts; /* n_verdicts of them, best first */
    size_t n_verdicts;
    long dev;       /* its device entry (of its first launch), -1: no device record */
    char *mangled;  /* of its first launch; NULL when the input has none */
    char name[256]; /* short name, unique in the report (set by gp_report_finish) */
    size_t seq;     /* creation order (the launch rows refer to it while loading) */
    const gp_where *where; /* its instruction-level data (r->source's), NULL: none */
} gp_kernel_report;

/* One launch as read, kept when gp_report.keep_launches is set (the JSON and
 * Nsight Compute CSV formats write launches, not kernels). */
typedef struct {
    size_t file;
    long pid, rank; /* rank -1 when the record has none */
    long context, stream;
    char *host, *process, *mangled; /* NULL when the record lacks them (l's own strings) */
    long dev;                       /* device entry, -1: none */
    gp_launch l; /* kernel, launch facts, raw metrics: names shared (gp_report.pool), no
                  * reasons (missing NULL) */
    double derived[GP_DERIVED_COUNT];
    long kernel; /* index into kernels (after gp_report_finish) */
} gp_report_launch;

/* A kernel variant estimated in replay mode none (estimate_load.h). */
typedef struct {
    char *kernel; /* demangled */
    long dev;     /* device entry, -1: none */
    int device;   /* the record's device ordinal */
    long grid[3], block[3], dynamic_smem;
    gp_agg_shape shape; /* its configuration and occupancy, for its kernel's row */
    long launches, exact; /* N, and those profiled in kernel replay */
    long unprofiled;      /* of N, those that ran outside the profiler's share (counted only) */
    size_t n_configs;
    long *cfg_launches;               /* per configuration: launches that collected it (a
                                       * stepped one: its collections) */
    long *cfg_passes;                 /* its passes: 1, or those of a stepped one (each
                                       * collection over that many launches) */
    char (*cfg_kind)[16];             /* counters, instrumented, sass */
    double derived[GP_DERIVED_COUNT]; /* of the mean launch; NaN: n/a */
    double bound[GP_DERIVED_COUNT];   /* their error bounds, same unit; NaN: unknown */
    char (*why)[GP_EXPR_WHY];         /* reason of each n/a */
    gp_verdict *verdicts;             /* on the mean launch's estimates, best first */
    size_t n_verdicts;
} gp_report_estimate;

typedef struct {
    gp_kernel_report *kernels; /* sorted by total time, longest first */
    size_t n, cap;
    gp_report_device *devices; /* in order of appearance */
    size_t n_devices;
    gp_device dflt; /* used for devices without a record */
    gp_peaks peaks;
    long launches, bad_lines, summaries;
    long records; /* valid records read (device, launch, summary) */
    double total_time; /* s, over kernels with a known duration */
    char **files;
    size_t n_files;
    int name_base;     /* GP_REPORT_NAME_*, how the writers name kernels */
    int keep_launches; /* set before loading to keep every launch (launch_rows) */
    gp_report_launch *launch_rows;
    size_t n_launch_rows, cap_launch_rows;
    const char *tool; /* prefix of the warnings ("gpuprof-report") */
    struct gp_strindex *index; /* kernel lookup by (device, name) */
    size_t n_timed;            /* kernels with a known duration (gp_report_finish) */
    size_t cap_devices;
    struct gp_devices_index *devindex; /* device lookups (devices.c) */
    char **pool;                       /* the kept launches' metric names, one copy each */
    size_t n_pool, cap_pool;
    struct gp_strindex *pool_index;
    gp_source *source; /* instruction-level records and sampling (source.h), NULL: none */
    gp_report_estimate *estimates; /* replay mode none's variants, in order read */
    size_t n_folded;               /* estimates added to their kernels (gp_report_finish) */
    size_t n_estimates, cap_estimates;
    int skip_source;   /* set before loading: instruction-level records written as the
                          library writes them ({"type":"source_...) are passed over unread
                          (the library's exit summary needs none and must be quick) */
} gp_report;

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
