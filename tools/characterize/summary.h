/* summary.h - the suite's study: every kernel of every program that ran the
 * same with and without the profiler, aggregated by the report library
 * (one gp_report per program), written as kernels CSV/JSON, a programs CSV,
 * a text summary in the study's manner and one HTML page.  The summary is a
 * function of the result directories only (programs sorted by name), so a
 * merge of shards writes the same bytes as one run. */
#ifndef GPC_SUMMARY_H
#define GPC_SUMMARY_H

#include <stdio.h>

#include "metrics/model/load.h"
#include "result.h"

typedef struct {
    gpc_result res;
    char *dir;      /* the result directory */
    gp_report *rep; /* status ok: its kernels (possibly none); NULL otherwise */
} gpc_prog;

typedef struct {
    gpc_prog *progs; /* sorted by name after gpc_summary_finish */
    size_t n;
    size_t cap;
    struct gp_strindex *by_name; /* positions in progs until finish sorts them */
    gp_peaks peaks;
    size_t n_kernels;
    double kernel_time; /* s, over all kernels with a duration */
} gpc_summary;

/* The study's metric classes: one chart each, counts against two
 * thresholds, extremes.  metric[1] is -1 for one-metric classes; metric[0]
 * is GPC_FP_MAIN for the FP-unit utilization of each kernel's main
 * precision (the roofline's). */
#define GPC_FP_MAIN (-2)
typedef struct {
    const char *id, *title, *unit;
    int metric[2];
    double low, high;
    const char *low_means, *high_means;
    /* per metric: the guard (metrics/records/guards.def) whose reason marks a kernel
     * that did none of what the metric measures, or -1; such kernels have no
     * place in the class and are counted apart, "N kernels without <what>" */
    int absent[2];
    const char *absent_what[2];
} gpc_class;

extern const gpc_class gpc_classes[];
extern const size_t gpc_n_classes;

/* A metric's name, for GPC_FP_MAIN "fp_util". */
const char *gpc_metric_name(int m);
/* A kernel's value of metric m (GPC_FP_MAIN included), NaN when n/a. */
double gpc_metric_value(const gp_kernel_report *k, int m);

/* 1 when kernel k has no value of class c's metric number mi (0 or 1)
 * because it did none of what that metric measures (no shared-memory
 * accesses for the shared-memory efficiency). */
int gpc_class_absent(const gpc_class *c, int mi, const gp_kernel_report *k);

void gpc_summary_init(gpc_summary *s, const gp_peaks *peaks);
void gpc_summary_free(gpc_summary *s);

/* Adds a result directory (one holding result.json), or every
 * subdirectory of dir holding one.  A program seen twice is an error.
 * Returns the number of programs added, or -1 with the reason in err. */
long gpc_summary_add(gpc_summary *s, const char *dir, char *err, size_t errlen);

/* Sorts the programs and loads the profiler's files of those that are ok
 * (warnings about malformed lines go to warn).  Returns 0 or -1 (memory). */
int gpc_summary_finish(gpc_summary *s, FILE *warn);

int gpc_summary_kernels_csv(const gpc_summary *s, FILE *out);
int gpc_summary_kernels_json(const gpc_summary *s, FILE *out);
int gpc_summary_programs_csv(const gpc_summary *s, FILE *out);
int gpc_summary_text(const gpc_summary *s, FILE *out);
/* One difference as the text summary and the terminal show it: what, where,
 * the first differing lines (escaped). */
void gpc_diff_text(const gpc_diff *d, FILE *out);
/* A result's broken-results line as the text summary and the terminal show
 * it (nothing when the results are valid or unknown), escaped. */
void gpc_validity_text(const gpc_validity *v, FILE *out);
int gpc_summary_html(const gpc_summary *s, FILE *out);

/* Writes every file above into out_dir (created).  Returns 0, or -1 with
 * the reason in err. */
int gpc_summary_write(const gpc_summary *s, const char *out_dir, char *err, size_t errlen);

#endif
