/* gpuprof-report - reads gpuprof JSON-lines files and writes the bottleneck
 * report as text, CSV or one self-contained HTML page (docs/report.md).
 *
 *   gpuprof-report [--format text|csv|html] [--peaks peaks.json] [-o FILE] file.jsonl...
 *
 * Exit status: 0 success, 1 nothing usable read or output failed, 2 usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util/safefile.h"

static int gp_report_usage(FILE *f)
{
    fprintf(f, "usage: gpuprof-report [--format text|csv|html] [--peaks peaks.json] [-o FILE] "
               "file.jsonl...\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *format = "text", *peaks_path = NULL, *out_path = NULL;
    gp_peaks peaks;
    gp_report *r = NULL;
    gp_safefile sf = {0};
    FILE *out = stdout;
    int i, first_file = 0, rc = 1, read_any = 0;
    char err[512];
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            gp_report_usage(stdout);
            return 0;
        } else if ((strcmp(a, "--format") == 0 || strcmp(a, "-f") == 0) && i + 1 < argc) {
            format = argv[++i];
        } else if (strncmp(a, "--format=", 9) == 0) {
            format = a + 9;
        } else if (strcmp(a, "--peaks") == 0 && i + 1 < argc) {
            peaks_path = argv[++i];
        } else if (strncmp(a, "--peaks=", 8) == 0) {
            peaks_path = a + 8;
        } else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            out_path = argv[++i];
        } else if (strcmp(a, "--") == 0) {
            first_file = i + 1;
            break;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "gpuprof-report: unknown or incomplete option '%s'\n", a);
            return gp_report_usage(stderr);
        } else {
            first_file = i;
            break;
        }
    }
    if (!first_file || first_file >= argc)
        return gp_report_usage(stderr);
    if (strcmp(format, "text") != 0 && strcmp(format, "csv") != 0 && strcmp(format, "html") != 0) {
        fprintf(stderr, "gpuprof-report: --format must be text, csv or html, not '%s'\n", format);
        return 2;
    }
    for (i = first_file; i < argc; i++)
        if (argv[i][0] == '-' && strcmp(argv[i], "-") != 0) {
            fprintf(stderr, "gpuprof-report: options go before the files ('%s')\n", argv[i]);
            return 2;
        }
    gp_peaks_none(&peaks);
    if (peaks_path && gp_peaks_load(peaks_path, &peaks, err, sizeof err) < 0) {
        fprintf(stderr, "gpuprof-report: %s\n", err);
        return 1;
    }
    r = malloc(sizeof *r);
    if (!r) {
        fprintf(stderr, "gpuprof-report: out of memory\n");
        return 1;
    }
    gp_report_init(r, &peaks);
    for (i = first_file; i < argc; i++)
        if (gp_report_load(r, argv[i], stderr) >= 0)
            read_any = 1;
    if (!read_any)
        goto out;
    if (!r->records) {
        fprintf(stderr, "gpuprof-report: nothing usable read: no valid record in the input\n");
        goto out;
    }
    if (r->bad_lines)
        fprintf(stderr, "gpuprof-report: %ld malformed line%s skipped\n", r->bad_lines,
                r->bad_lines == 1 ? "" : "s");
    gp_report_finish(r);
    if (out_path) {
        if (gp_safefile_open(&sf, out_path, err, sizeof err) < 0) {
            fprintf(stderr, "gpuprof-report: %s\n", err);
            goto out;
        }
        out = sf.f;
    }
    if (strcmp(format, "csv") == 0)
        rc = gp_report_csv(r, out);
    else if (strcmp(format, "html") == 0)
        rc = gp_report_html(r, out);
    else
        rc = gp_report_text(r, out);
    if (rc < 0)
        fprintf(stderr, "gpuprof-report: writing the report failed\n");
    rc = rc < 0 ? 1 : 0;
out:
    if (sf.f && rc != 0)
        gp_safefile_discard(&sf);
    else if (sf.f && gp_safefile_commit(&sf, err, sizeof err) < 0) {
        fprintf(stderr, "gpuprof-report: %s\n", err);
        rc = 1;
    }
    gp_report_free(r);
    free(r);
    return rc;
}
