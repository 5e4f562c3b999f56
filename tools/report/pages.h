/* pages.h - gpuprof-report's options for Nsight Compute's pages (--page,
 * --csv, --print-units, --print-details, --print-summary, --section,
 * --set, --list-sets, --list-sections, --verbose): which writer of
 * metrics/report/details.h they choose and with what. */
#ifndef GP_REPORT_PAGES_H
#define GP_REPORT_PAGES_H

#include <stdio.h>

#include "metrics/report/details.h"

typedef struct {
    int page;         /* GP_PAGE_*, -1: not given */
    int csv, summary; /* --csv, --print-summary per-kernel */
    int list;         /* 'L' --list-sets, 'W' --list-sections, 0 */
    int verbose;
    int chosen; /* a --section or --set was given */
    gp_details_opts details;
    /* the writer the options chose (after gp_report_page_check), NULL: none */
    int (*writer)(const gp_report *r, const gp_details_opts *o, FILE *out);
} gp_report_page_opts;

enum { GP_PAGE_DETAILS, GP_PAGE_RAW, GP_PAGE_SOURCE };

/* One option (getopt's letter c, its argument).  0, or -1 after one message
 * on stderr. */
int gp_report_page_option(gp_report_page_opts *p, int c, const char *arg);
/* After all options: picks the writer; -1 after one message when the
 * options do not go together (--format with --page, a page with
 * --baseline or --against, --page source without --csv). */
int gp_report_page_check(gp_report_page_opts *p, int format_given, size_t n_baseline,
                         size_t n_against);

#endif
