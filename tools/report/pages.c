/* pages.c - see pages.h. */
#include "pages.h"

#include <string.h>

#include "metrics/report/report.h"
#include "util/textio.h"

static int gp_page_err(const char *msg, const char *arg)
{
    fputs("gpuprof-report: ", stderr);
    gp_text_plain(stderr, msg);
    if (arg) {
        fputs(" '", stderr);
        gp_text_plain(stderr, arg);
        fputc('\'', stderr);
    }
    fputc('\n', stderr);
    return -1;
}

static int gp_page_pick(const char *opt, const char *arg, const char *const *names, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(arg, names[i]) == 0)
            return i;
    fputs("gpuprof-report: ", stderr);
    fputs(opt, stderr);
    fputs(" takes ", stderr);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s%s", i ? (i == n - 1 ? " or " : ", ") : "", names[i]);
    fputs(", not '", stderr);
    gp_text_plain(stderr, arg);
    fputs("'\n", stderr);
    return -1;
}

int gp_report_page_option(gp_report_page_opts *p, int c, const char *arg)
{
    static const char *const pages[] = {"details", "raw", "source"};
    static const char *const units[] = {"auto", "base"};
    static const char *const details[] = {"header", "body", "all"};
    static const char *const summaries[] = {"none", "per-kernel"};
    char err[2048];
    const char *group = NULL;
    int i;
    switch (c) {
    case 'G':
        if ((p->page = gp_page_pick("--page", arg, pages, 3)) < 0)
            return -1;
        return 0;
    case 'C':
        p->csv = 1;
        return 0;
    case 'U':
        if ((i = gp_page_pick("--print-units", arg, units, 2)) < 0)
            return -1;
        p->details.base_units = i == 1;
        return 0;
    case 'Q':
        if ((i = gp_page_pick("--print-details", arg, details, 3)) < 0)
            return -1;
        p->details.body = i > 0;
        return 0;
    case 'M':
        if (strcmp(arg, "per-gpu") == 0 || strcmp(arg, "per-nvtx") == 0)
            return gp_page_err("--print-summary per-gpu and per-nvtx are not gpuprof's: its "
                               "summary is per kernel (the text report groups by device in its "
                               "header);",
                               arg);
        if ((i = gp_page_pick("--print-summary", arg, summaries, 2)) < 0)
            return -1;
        p->summary = i == 1;
        return 0;
    case 'Z':
        p->chosen = 1;
        if (gp_ncu_select_section(arg, &p->details.sections, err, sizeof err) != 0)
            return gp_page_err(err, NULL);
        return 0;
    case 'Y':
        p->chosen = 1;
        if (gp_ncu_select_set(arg, &p->details.sections, &group, err, sizeof err) != 0)
            return gp_page_err(err, NULL);
        if (group)
            return gp_page_err("--set takes Nsight Compute's sets here (basic, detailed, full, "
                               "roofline): gpuprof's own sets choose what to collect, not which "
                               "sections a page shows; not",
                               arg);
        return 0;
    case 'L':
    case 'W':
        p->list = c;
        return 0;
    default: /* 'v' */
        p->verbose = 1;
        return 0;
    }
}

static int gp_page_source_csv(const gp_report *r, const gp_details_opts *o, FILE *out)
{
    (void)o;
    return gp_report_ncu_source_csv(r, out);
}

static int gp_page_raw_csv(const gp_report *r, const gp_details_opts *o, FILE *out)
{
    (void)o;
    return gp_report_ncu_raw_csv(r, out);
}

int gp_report_page_check(gp_report_page_opts *p, int format_given, size_t n_baseline,
                         size_t n_against)
{
    int any = p->page >= 0 || p->csv || p->summary || p->chosen;
    if (!any)
        return 0;
    if (format_given)
        return gp_page_err("--format and Nsight Compute's --page, --csv, --print-summary, "
                           "--section and --set choose the output each; give one or the other",
                           NULL);
    if (n_baseline || n_against)
        return gp_page_err("Nsight Compute's pages show one run: not with --baseline or "
                           "--against",
                           NULL);
    if (p->summary) {
        p->writer = p->csv ? gp_report_summary_csv : gp_report_summary_text;
        return 0;
    }
    switch (p->page) {
    case GP_PAGE_RAW:
        p->writer = p->csv ? gp_page_raw_csv : gp_report_raw_text;
        break;
    case GP_PAGE_SOURCE:
        if (!p->csv)
            return gp_page_err("--page source is written as CSV only (--csv, Nsight Compute's "
                               "--page source --csv --print-source sass); the text report shows "
                               "the source view",
                               NULL);
        p->writer = gp_page_source_csv;
        break;
    default: /* details, ncu's default page */
        p->writer = p->csv ? gp_report_details_csv : gp_report_details_text;
    }
    return 0;
}
