/* report_types.h - the loaded report's structs (gp_report: devices,
 * kernels, kept launches, variant estimates, instruction-level data) and its
 * limits; load.h reads records into them, devices.c and estimate_load.c fill
 * their parts, the writers (metrics/report/) read them. */
#ifndef GP_REPORT_TYPES_H
#define GP_REPORT_TYPES_H

#include <stdint.h>
#include <stdio.h>

#include "metrics/catalog/peaks.h"
#include "metrics/catalog/roofline.h"
#include "metrics/instructions/source.h"
#include "metrics/instructions/source_group.h"
#include "metrics/instructions/source_text.h"
#include "metrics/instructions/where.h"
#include "metrics/model/aggregate.h"
#include "metrics/records/device.h"
#include "metrics/verdicts/verdict.h"
#include "util/strhash.h"

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
    long dev;              /* its device entry (of its first launch), -1: no device record */
    char *mangled;         /* of its first launch; NULL when the input has none */
    char name[256];        /* short name, unique in the report (set by gp_report_finish) */
    size_t seq;            /* creation order (the launch rows refer to it while loading) */
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
    gp_agg_shape shape;   /* its configuration and occupancy, for its kernel's row */
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

/* One record as it is read, for a caller that streams the records
 * (gp_report.on_record: the SQLite writer) instead of keeping them. */
typedef struct {
    const char *type;   /* the record's "type" */
    const gp_json *obj; /* the record as parsed */
    size_t file;        /* its input (index into gp_report.files) */
    long line;          /* its line in that input */
    long dev;           /* device and launch records: the device entry, -1: none */
    /* launch records only (NULL otherwise): */
    const gp_launch *launch;        /* as read and checked */
    const gp_derived_row *derived;  /* its derived metrics */
    size_t kernel_seq;              /* its kernel's creation order (gp_kernel_report.seq) */
} gp_report_record;

typedef struct gp_report gp_report;
/* Called with each valid record, after the report took it in; a non-zero
 * return stops the loading (gp_report.stopped is set). */
typedef int (*gp_report_record_fn)(void *arg, const gp_report *r, const gp_report_record *rec);

struct gp_report {
    gp_kernel_report *kernels; /* sorted by total time, longest first */
    size_t n, cap;
    gp_report_device *devices; /* in order of appearance */
    size_t n_devices;
    gp_device dflt; /* used for devices without a record */
    gp_peaks peaks;
    long launches, bad_lines, summaries;
    long records;      /* valid records read (device, launch, summary) */
    double total_time; /* s, over kernels with a known duration */
    char **files;
    size_t n_files;
    int name_base;     /* GP_REPORT_NAME_*, how the writers name kernels */
    int keep_launches; /* set before loading to keep every launch (launch_rows) */
    int keep_reasons;  /* ... and set with it: the kept launches keep the reasons of their
                        * null values (the details page says them) */
    gp_report_launch *launch_rows;
    size_t n_launch_rows, cap_launch_rows;
    const char *tool;          /* prefix of the warnings ("gpuprof-report") */
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
    int skip_source; /* set before loading: instruction-level records written as the
                        library writes them ({"type":"source_...) are passed over unread
                        (the library's exit summary needs none and must be quick) */
    /* the rule for a record read twice: a launch or variant_estimate line
     * read before (its digest here) is counted once, and said per file */
    gp_digestset seen;
    long repeats;                  /* such lines left out, all files */
    struct gp_strindex *file_ids;  /* (device, inode) of the files read: one file named
                                      twice is read once */
    long est_launches;             /* launches of every variant_estimate, checked */
    /* launch and estimate records of the process being read (since the
     * file's start or its last summary record): new, and read before.  A
     * process all of whose records were read before is read again, and its
     * instruction-level records (which name no process) are left out too */
    long proc_new, proc_repeats;
    gp_report_record_fn on_record; /* set before loading: each valid record streamed */
    void *on_record_arg;
    int stopped; /* on_record asked to stop: the loads read nothing more */
};

#endif
