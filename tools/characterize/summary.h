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
#include "classes.h"
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
    /* set before gpc_summary_finish (study_db.h): called for each program
     * that is ok, before its files are loaded (finished 0) and once its
     * report is finished (1); -1 stops the summary */
    int (*on_report)(void *arg, size_t prog, gp_report *rep, int finished);
    void *on_report_arg;
} gpc_summary;

void gpc_summary_init(gpc_summary *s, const gp_peaks *peaks);
void gpc_summary_free(gpc_summary *s);

/* Adds a result directory (one holding result.json), or every
 * subdirectory of dir holding one.  A program seen twice is an error.
 * Returns the number of programs added, or -1 with the reason in err. */
long gpc_summary_add(gpc_summary *s, const char *dir, char *err, size_t errlen);

/* Sorts the programs and loads the profiler's files of those that are ok
 * (warnings about malformed lines go to warn).  Returns 0 or -1 (memory, or
 * on_report said stop). */
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
