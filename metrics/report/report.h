/* report.h - the writers of a finished gp_report (load.h): text for a
 * terminal, CSV with one row per kernel, one self-contained HTML page, JSON,
 * and the launches in Nsight Compute's CSV layouts.
 *
 * metrics/report/ - the writers, beside the model they write; the room's
 * face is this header (the library's exit summary is report_api.h).  A file
 * here includes only util/ and the rooms below; the model never includes a
 * writer (tests/unit/test_layers.sh).
 * May use: util, records, catalog, instructions, verdicts, model, ncu
 */
#ifndef GP_REPORT_H
#define GP_REPORT_H

#include <stdio.h>

#include "metrics/model/load.h"
#include "metrics/report/cells.h"

/* Each returns 0, or -1 when writing failed. */
/* The short text report (report_brief.c): per kernel its verdicts, "where"
 * and key figures, only what was measured; what the run did not collect in
 * one line of the header. */
int gp_report_text(const gp_report *r, FILE *out);
/* The full one (gpuprof-report --details, report_text.c): every derived
 * metric of every kernel, each n/a with its reason. */
int gp_report_text_details(const gp_report *r, FILE *out);
int gp_report_csv(const gp_report *r, FILE *out);
/* The HTML page: only the charts and panels the records can fill, each
 * kernel's table of its measured metrics (report_html.c); details: every
 * derived metric in each kernel's table, n/a ones with their reasons. */
int gp_report_html(const gp_report *r, FILE *out);
int gp_report_html_details(const gp_report *r, FILE *out);
/* One JSON document: devices, kernels (metrics, verdicts, roofline) and, when
 * the report kept them (keep_launches), every launch with its derived
 * metrics (report_json.c). */
int gp_report_json(const gp_report *r, FILE *out);
/* Launches (keep_launches) in Nsight Compute's CSV layouts, so scripts written
 * for `ncu --csv` read them: --page details (one row per launch and metric)
 * and --page raw (one row per launch, a units row under the header). */
int gp_report_ncu_csv(const gp_report *r, FILE *out);
int gp_report_ncu_raw_csv(const gp_report *r, FILE *out);

/* "Why and where" (docs/report.md): the text report's parts (where_text.c),
 * a kernel's "where" object of the JSON document (where_json.c), the HTML
 * source view (where_html.c), and the per-instruction tables: gpuprof's
 * (--format source-csv, where_csv.c) and Nsight Compute's source page
 * (--format ncu-source-csv, `ncu --page source --csv --print-source sass`,
 * where_ncu.c). */
void gp_report_where_text_head(const gp_report *r, FILE *out);
void gp_report_where_text(const gp_report *r, const gp_kernel_report *k, FILE *out);
/* The same with at most rows source lines (gp_report_where_text: 5). */
void gp_report_where_text_rows(const gp_report *r, const gp_kernel_report *k, size_t rows,
                               FILE *out);
void gp_report_where_json(const gp_report *r, const gp_kernel_report *k, FILE *out);
void gp_report_where_json_head(const gp_report *r, FILE *out);
void gp_report_where_html(const gp_report *r, const gp_kernel_report *k, FILE *out);
void gp_report_where_html_head(const gp_report *r, FILE *out);
int gp_report_source_csv(const gp_report *r, FILE *out);
int gp_report_ncu_source_csv(const gp_report *r, FILE *out);

/* The short terminal summary: the top_n kernels by total time with their
 * first verdicts. */
int gp_report_summary(const gp_report *r, FILE *out, int top_n);

#endif
