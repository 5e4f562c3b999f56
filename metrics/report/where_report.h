/* where_report.h - what the writers of the "where" parts share
 * (where_text.c, where_json.c, where_csv.c, where_ncu.c, where_html.c). */
#ifndef GP_WHERE_REPORT_H
#define GP_WHERE_REPORT_H

#include <stdio.h>

#include "metrics/model/load.h"

/* "1234", "12.3K", "4.56M"; "n/a" for NaN. */
const char *gp_report_where_count(double v, char *buf, size_t len);
/* A row's value v of quantity q: the count, "-" when the kernel has the
 * quantity but no instruction of the row does (not applicable), "n/a" when
 * it was not measured. */
const char *gp_report_where_cell(const gp_where *w, double v, int q, char *buf, size_t len);
/* "stall_kernels.cu:11", or "+0x1a0 LDG.E" for a row without a line (raw:
 * the caller escapes). */
void gp_report_where_location(const gp_source *s, const gp_where *w, const gp_where_row *row,
                              char *buf, size_t len);
/* The n dominant stall reasons of a row (the kernel's when row is NULL):
 * "long_scoreboard 99%, wait 1%" (names escaped for a terminal). */
void gp_report_where_reasons(const gp_source *s, const gp_where *w, const gp_where_row *row,
                             size_t n, char *buf, size_t len);
/* "on in 1 of 1 processes, 4.86K samples (...)" or "off"; "" without a
 * sampling object in any summary. */
void gp_report_where_sampling(const gp_report *r, char *buf, size_t len);
/* How many of the report's kernels have no measure of why warps wait
 * (neither warp-state counters nor stall samples), and the commands that
 * take one (gp_report_why_ask). */
size_t gp_report_why_missing(const gp_report *r);
/* The same count, returned, and its phrase in buf ("not measured for N of M
 * kernels (...)"), for the text and HTML heads. */
size_t gp_report_why_missing_text(const gp_report *r, char *buf, size_t len);
extern const char gp_report_why_ask[];

#endif
