/* details.h - Nsight Compute's pages of gpuprof's records, laid out as ncu
 * prints them: the details page (per launch and section, the rows of
 * metrics/ncu/sections.def with ncu's names, units and values; text and
 * `--csv`), the raw page as text, and `--print-summary per-kernel`
 * (docs/report.md, "Nsight Compute's pages").  They read the kept launches
 * (keep_launches, with keep_reasons) of a finished report. */
#ifndef GP_REPORT_DETAILS_H
#define GP_REPORT_DETAILS_H

#include <stdio.h>

#include "metrics/model/load.h"
#include "metrics/ncu/sections.h"

typedef struct {
    gp_ncu_mask sections; /* the sections to show; 0: each launch's own (its
                           * record's "sections"), or ncu's default set, basic */
    int base_units;       /* --print-units base: no scaling (ns, hz, byte) */
    int body;             /* --print-details body or all: the BODY rows too */
} gp_details_opts;

/* The details page: text (ncu's CLI layout) or ncu's --page details --csv
 * layout.  A value gpuprof does not have is n/a with its reason: after the
 * page in text, in the Rule Description column (which ncu leaves empty on
 * metric rows) in CSV.  Each returns 0, or -1 when writing failed. */
int gp_report_details_text(const gp_report *r, const gp_details_opts *o, FILE *out);
int gp_report_details_csv(const gp_report *r, const gp_details_opts *o, FILE *out);
/* --print-summary per-kernel: per kernel (process, device, name, grid and
 * block) its launches and each row's minimum, maximum and average; text or
 * CSV. */
int gp_report_summary_text(const gp_report *r, const gp_details_opts *o, FILE *out);
int gp_report_summary_csv(const gp_report *r, const gp_details_opts *o, FILE *out);
/* The raw page as text: every metric of each launch's record, by name. */
int gp_report_raw_text(const gp_report *r, const gp_details_opts *o, FILE *out);

/* The first eleven columns of Nsight Compute's CSV pages for launch id
 * (report_ncu.c). */
void gp_report_ncu_prefix(const gp_report *r, size_t id, const gp_report_launch *x, FILE *out);

#endif
