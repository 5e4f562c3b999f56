/* details_common.h - what the writers of Nsight Compute's pages share
 * (details_text.c, details_csv.c, details_summary.c): a kept launch's
 * counters by name, its device and sections, the rows a page shows, the
 * reasons of what it cannot show, ncu's unit scaling and number format,
 * and ncu's text table. */
#ifndef GP_REPORT_DETAILS_COMMON_H
#define GP_REPORT_DETAILS_COMMON_H

#include <stdio.h>

#include "metrics/ncu/sections_eval.h"
#include "metrics/report/details.h"
#include "util/strindex.h"

/* A kept launch's counters by name (its record's hash was dropped). */
typedef struct {
    const gp_launch *l;
    gp_strindex *ix;
} gp_dl_counters;

void gp_dl_counters_init(gp_dl_counters *c, const gp_launch *l);
void gp_dl_counters_free(gp_dl_counters *c);
/* gp_ncu_counter_fn over c (a gp_dl_counters *). */
int gp_dl_counter(void *c, const char *name, size_t len, double *v, char *why, size_t whylen);

const gp_device *gp_dl_device(const gp_report *r, const gp_report_launch *x);
/* The sections a page shows for x: the options', else the record's own,
 * else Nsight Compute's default set (basic). */
gp_ncu_mask gp_dl_sections(const gp_details_opts *o, const gp_report_launch *x);
/* Whether the page shows row r (HEAD rows; BODY with --print-details
 * body/all). */
int gp_dl_shows(const gp_details_opts *o, const gp_ncu_row *r);
/* The kernel's name as the report names it (--kernel-name-base). */
const char *gp_dl_kernel(const gp_report *r, const gp_report_launch *x);

/* Nsight Compute's unit for value v of a row in base unit `unit`, scaled as
 * its default (--print-units auto) does: ns to us, ms, s; hz to Khz, Mhz,
 * Ghz; byte (and byte/s, byte/block) to Kbyte ... Tbyte, by 1000s; other
 * units as they are.  Writes the unit to uout and returns the divisor. */
double gp_dl_scale(double v, const char *unit, int base_units, char *uout, size_t ulen);
/* A value as Nsight Compute prints it: with thousands separators; whole
 * numbers without decimals, others with two (decimals: always two, as its
 * summary prints them); "n/a" when not finite. */
const char *gp_dl_number(double v, int decimals, char *buf, size_t len);
/* Why a row's value is not shown: not collected by the run (and which
 * section or set collects it), not collectable by gpuprof, or n/a. */
const char *gp_dl_reason(const gp_ncu_row *row, const gp_ncu_value *v, char *buf, size_t len);

/* ncu's text table: a dashed rule, the header, a rule, the rows, a rule;
 * columns as wide as their widest cell, the first left-aligned, the others
 * right-aligned, each line after `indent`.  cells[row * ncol + col];
 * every string is written through gp_text_plain. */
void gp_dl_table(FILE *out, const char *indent, const char *const *head, const char *const *cells,
                 size_t nrow, size_t ncol);

/* "[pid] process@host" before the first launch of each process; *last
 * remembers the previous one (start with -2). */
void gp_dl_process_line(FILE *out, const gp_report_launch *x, long *last, size_t *last_file);

/* Distinct reasons, in the order first seen (at most GP_DL_REASONS_MAX). */
#define GP_DL_REASONS_MAX 400
typedef struct {
    char **s;
    size_t n, cap, dropped;
} gp_dl_reasons;
void gp_dl_reasons_add(gp_dl_reasons *rs, const char *text);
/* Writes them after the page ("n/a on this page: ...") and frees them
 * (out NULL: frees them only). */
void gp_dl_reasons_flush(gp_dl_reasons *rs, FILE *out);

#endif
