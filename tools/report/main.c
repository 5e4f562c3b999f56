/* gpuprof-report - reads gpuprof JSON-lines files and writes the bottleneck
 * report as text, CSV, HTML or JSON, the launches in Nsight Compute's CSV
 * layouts, or the comparison with a baseline run (docs/report.md).
 *
 *   gpuprof-report [options] FILE.jsonl...        ('-' reads standard input)
 *   gpuprof-report --baseline OLD.jsonl [options] NEW.jsonl...
 *   gpuprof-report --against NCU.csv [--against NCU2.csv] [--against-one-pass D.csv
 *                  [--against-one-pass D2.csv]] RUN.jsonl...
 *
 * Exit status: 0 success, 1 nothing usable read or output failed, 2 usage;
 * with --against, that of the comparison (against_cmd.h: 0 agree, 1 differ
 * or nothing compared, 3 partial). */
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "against_cmd.h"
#include "disasm.h"
#include "gpuprof.h"
#include "metrics/model/baseline.h"
#include "metrics/ncu/sections.h"
#include "metrics/report/details.h"
#include "metrics/report/report.h"
#include "pages.h"
#include "report_db.h"
#include "srctext.h"
#include "util/safefile.h"
#include "util/textio.h"

#define GP_REPORT_PROG "gpuprof-report"

static const char *const gp_report_formats[] = {
    "text",       "csv",           "html",  "json", "ncu-csv", "ncu-raw-csv",
    "source-csv", "ncu-source-csv", "sqlite"};
enum {
    GP_FMT_TEXT,
    GP_FMT_CSV,
    GP_FMT_HTML,
    GP_FMT_JSON,
    GP_FMT_NCU,
    GP_FMT_NCU_RAW,
    GP_FMT_SOURCE,
    GP_FMT_NCU_SOURCE,
    GP_FMT_SQLITE, /* a database file (report_db.h), not a stream */
    GP_FMT_N
};
/* the writer of each format, in the order of gp_report_formats */
static int (*const gp_report_writers[GP_FMT_N])(const gp_report *, FILE *) = {
    gp_report_text,        gp_report_csv,     gp_report_html,
    gp_report_json,        gp_report_ncu_csv, gp_report_ncu_raw_csv,
    gp_report_source_csv,  gp_report_ncu_source_csv, NULL};

static int gp_report_usage(FILE *f)
{
    fprintf(f,
            "usage: " GP_REPORT_PROG " [options] FILE.jsonl...   ('-' reads standard input)\n"
            "       " GP_REPORT_PROG " --baseline OLD.jsonl [options] NEW.jsonl...\n"
            "       " GP_REPORT_PROG " --against NCU.csv [--against NCU2.csv]\n"
            "                      [--against-one-pass D.csv [--against-one-pass D2.csv]]\n"
            "                      [-f text|json|csv] RUN.jsonl...\n"
            "  -f, --format FMT          text (default), csv, html, json, ncu-csv (Nsight "
            "Compute's\n"
            "                            --csv --page details layout), ncu-raw-csv (--page raw),\n"
            "                            source-csv (one row per SASS instruction), "
            "ncu-source-csv\n"
            "                            (--page source --csv --print-source sass), sqlite (a\n"
            "                            database: -o FILE.db; docs/database.md)\n"
            "  -o, --output FILE         write to FILE instead of standard output\n"
            "      --force               with --format sqlite: replace an existing database\n"
            "      --details             text and html: every derived metric of every kernel,\n"
            "                            n/a ones with their reasons (the default report shows\n"
            "                            only what was measured, briefly)\n"
            "      --peaks FILE          measured ceilings (a gpupeak peaks file)\n"
            "      --baseline OLD.jsonl  compare FILE.jsonl... (the new run) with OLD.jsonl; "
            "may be\n"
            "                            given more than once; formats text, csv, html\n"
            "      --against NCU.csv     judge FILE.jsonl... against Nsight Compute's raw CSV of "
            "the\n"
            "                            same program (ncu --csv --page raw --print-units base\n"
            "                            --clock-control none), launches matched by short name "
            "and\n"
            "                            ordinal, every (launch, metric) pair under its metric's\n"
            "                            tolerance class; per metric and in all, how many "
            "agree,\n"
            "                            the last line 'against: N agree, N differ, ...'.  "
            "Again:\n"
            "                            a later ncu run (pairs it does not repeat are set "
            "apart).\n"
            "                            Formats text, json, csv (one row per pair)\n"
            "      --against-one-pass D.csv  ncu with dram__bytes_write.sum, dram__throughput "
            "and\n"
            "                            lts__t_bytes.sum alone (one pass): those three are "
            "judged\n"
            "                            against it (--against-dram: the same); "
            "given twice,\n"
            "                            the second run sets apart the pairs it does not "
            "repeat\n"
            "      --kernel-name-base B  function (short names, the default), demangled, "
            "mangled\n"
            "Nsight Compute's pages (its option names; demangled names by default):\n"
            "      --page details|raw|source  details: per launch and section ncu's rows, names,\n"
            "                            units and values; raw: every metric; source: with --csv\n"
            "      --csv                 the page in ncu's CSV layout (default page: details)\n"
            "      --section NAME|regex:EXPR, --set NAME  the sections the details page shows\n"
            "                            (default: those the run collected, else basic)\n"
            "      --print-details header|body|all  rows of the sections' header (default) or "
            "all\n"
            "      --print-units auto|base  units scaled as ncu does (auto) or base units\n"
            "      --print-summary none|per-kernel  per kernel: launches, each row's min/max/avg\n"
            "      --list-sets, --list-sections [--verbose]  ncu's sets and sections\n"
            "      --nvdisasm PATH       the disassembler for SASS text (default: "
            "$CUDA_HOME/bin/nvdisasm,\n"
            "                            else nvdisasm on the PATH)\n"
            "      --nvdisasm-timeout S  seconds one function's disassembly may take (20)\n"
            "      --source-folders DIRS where to look for source files missing at their "
            "recorded\n"
            "                            path (DIR[:DIR...], as ncu's --source-folders)\n"
            "      --no-source-text      do not read source files\n"
            "  -V, --version             print the version\n"
            "  -h, --help                this text\n"
            "Exit status: 0 success; 1 nothing usable read or output failed; 2 usage.  With\n"
            "--against: 0 every judged pair agrees and every launch matched, 1 a pair differs,\n"
            "nothing could be compared or an input is unreadable, 3 every judged pair agrees\n"
            "but launches are in one file only or the devices differ.\n"
            "See docs/report.md.\n");
    return 2;
}

/* One message on stderr, "gpuprof-report: ...": escaped as a whole, since
 * messages quote file names, arguments and text from the input (escaping
 * text already escaped leaves it as it is). */
__attribute__((format(printf, 1, 2))) static void gp_report_err(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fputs(GP_REPORT_PROG ": ", stderr);
    gp_text_plain(stderr, msg);
    fputc('\n', stderr);
}

static int gp_report_choice(const char *opt, const char *v, const char *const *names, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (strcmp(v, names[i]) == 0)
            return i;
    char list[256];
    size_t o = 0;
    for (i = 0; i < n && o < sizeof list; i++)
        o += (size_t)snprintf(list + o, sizeof list - o, "%s%s",
                              i ? (i == n - 1 ? " or " : ", ") : "", names[i]);
    gp_report_err("%s must be %s, not '%s'", opt, list, v);
    return -1;
}

/* Where SASS text and source text come from (NULL where: the baseline of a
 * comparison, which needs neither). */
typedef struct {
    const char *nvdisasm;
    double timeout_s; /* per function, 0: the default */
    char **folders;
    size_t n_folders;
    int no_source_text;
} gp_report_where_opts;

/* Loads files into a finished report; 0 when at least one file was read. */
static int gp_report_read(gp_report *r, char **files, size_t n, const char *what,
                          const gp_report_where_opts *where)
{
    size_t i;
    int read_any = 0;
    for (i = 0; i < n; i++)
        if (gp_report_load(r, files[i], stderr) >= 0)
            read_any = 1;
    if (!read_any)
        return -1;
    if (r->bad_lines)
        gp_report_err("%ld malformed line%s skipped%s", r->bad_lines, r->bad_lines == 1 ? "" : "s",
                      what);
    /* before finishing: the verdicts quote SASS opcodes */
    if (where && r->source) {
        gp_disasm_source(r->source, where->nvdisasm, where->timeout_s, stderr);
        if (!where->no_source_text)
            gp_srctext_read(r->source, where->folders, where->n_folders);
    }
    gp_report_finish(r);
    return 0;
}

/* DIR[:DIR...] into folders[] (pointers into s, which is changed). */
static size_t gp_report_folders(char *s, char **folders, size_t max)
{
    size_t n = 0;
    char *save = NULL, *d;
    for (d = strtok_r(s, ":", &save); d && n < max; d = strtok_r(NULL, ":", &save))
        folders[n++] = d;
    return n;
}

/* --against: the comparison with Nsight Compute (against_cmd.c) written to
 * out_path or standard output; frees baseline and o->ncu.  Returns the
 * exit status. */
static int gp_report_against(gp_against_opts *o, int format, const char *out_path,
                             size_t n_baseline, char **runs, size_t n_runs, char **baseline)
{
    gp_safefile sf = {0};
    char err[512];
    int rc = 2;
    if (n_baseline) {
        gp_report_err("--against and --baseline are different comparisons; give one");
        goto out;
    }
    if (format != GP_FMT_TEXT && format != GP_FMT_JSON && format != GP_FMT_CSV) {
        gp_report_err("--against writes text, json or csv, not %s", gp_report_formats[format]);
        goto out;
    }
    o->format = format == GP_FMT_JSON  ? GP_AGAINST_JSON
                : format == GP_FMT_CSV ? GP_AGAINST_CSV
                                       : GP_AGAINST_TEXT;
    rc = 1;
    if (out_path && gp_safefile_open(&sf, out_path, err, sizeof err) < 0) {
        gp_report_err("%s", err);
        goto out;
    }
    rc = gp_against_run(o, runs, n_runs, sf.f ? sf.f : stdout, stderr);
    if (rc == -1)
        gp_report_err("writing the comparison failed");
    if (sf.f && rc < 0)
        gp_safefile_discard(&sf);
    else if (sf.f && gp_safefile_commit(&sf, err, sizeof err) < 0) {
        gp_report_err("%s", err);
        rc = -1;
    }
    if (rc < 0)
        rc = 1;
    if (!out_path && fflush(stdout) != 0) {
        gp_report_err("writing the comparison failed");
        rc = 1;
    }
out:
    free(baseline);
    free(o->ncu);
    return rc;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"peaks", required_argument, NULL, 'P'},
                                         {"baseline", required_argument, NULL, 'B'},
                                         {"against", required_argument, NULL, 'A'},
                                         {"against-one-pass", required_argument, NULL, 'R'},
                                         {"against-dram", required_argument, NULL, 'R'},
                                         {"kernel-name-base", required_argument, NULL, 'K'},
                                         {"nvdisasm", required_argument, NULL, 'D'},
                                         {"nvdisasm-timeout", required_argument, NULL, 'T'},
                                         {"source-folders", required_argument, NULL, 'S'},
                                         {"no-source-text", no_argument, NULL, 'N'},
                                         {"page", required_argument, NULL, 'G'},
                                         {"csv", no_argument, NULL, 'C'},
                                         {"print-units", required_argument, NULL, 'U'},
                                         {"print-details", required_argument, NULL, 'Q'},
                                         {"print-summary", required_argument, NULL, 'M'},
                                         {"section", required_argument, NULL, 'Z'},
                                         {"set", required_argument, NULL, 'Y'},
                                         {"list-sets", no_argument, NULL, 'L'},
                                         {"list-sections", no_argument, NULL, 'W'},
                                         {"verbose", no_argument, NULL, 'v'},
                                         {"details", no_argument, NULL, 'X'},
                                         {"force", no_argument, NULL, 'F'},
                                         {"version", no_argument, NULL, 'V'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    static const char *const bases[] = {"function", "demangled", "mangled"};
    const char *peaks_path = NULL, *out_path = NULL;
    char **baseline = NULL, err[512];
    size_t n_baseline = 0;
    gp_against_opts against = {0};
    int format = GP_FMT_TEXT, name_base = -1, details = 0, c, rc = 1, force = 0;
    gp_rdb *db = NULL;
    gp_peaks peaks;
    gp_report *r = NULL, *old = NULL;
    gp_safefile sf = {0};
    FILE *out = stdout;
    char *folders[64];
    gp_report_where_opts where = {.folders = folders};
    gp_report_page_opts page = {.page = -1};
    int format_given = 0;

    baseline = calloc((size_t)argc, sizeof *baseline);
    against.ncu = calloc((size_t)argc, sizeof *against.ncu);
    if (!baseline || !against.ncu) {
        free(baseline);
        free(against.ncu);
        return 1;
    }
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":f:o:Vh", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if ((format = gp_report_choice("--format", optarg, gp_report_formats, GP_FMT_N)) < 0)
                goto usage;
            format_given = 1;
            break;
        case 'G':
        case 'C':
        case 'U':
        case 'Q':
        case 'M':
        case 'Z':
        case 'Y':
        case 'L':
        case 'W':
        case 'v':
            if (gp_report_page_option(&page, c, optarg) < 0)
                goto usage;
            break;
        case 'o':
            out_path = optarg;
            break;
        case 'P':
            peaks_path = optarg;
            break;
        case 'B':
            baseline[n_baseline++] = optarg;
            break;
        case 'A':
            against.ncu[against.n_ncu++] = optarg;
            break;
        case 'R':
            if (against.n_one_pass == 2) {
                gp_report_err("--against-one-pass is given once or twice (ncu's one-pass run "
                              "of the DRAM writes and L2 bytes, and a second such run)");
                goto usage;
            }
            against.one_pass[against.n_one_pass++] = optarg;
            break;
        case 'K':
            if ((name_base = gp_report_choice("--kernel-name-base", optarg, bases, 3)) < 0)
                goto usage;
            break;
        case 'D':
            where.nvdisasm = optarg;
            break;
        case 'T': {
            char *end;
            where.timeout_s = strtod(optarg, &end);
            if (*end || !(where.timeout_s > 0 && where.timeout_s <= 3600)) {
                gp_report_err("--nvdisasm-timeout must be seconds, more than 0 and at most 3600, "
                              "not '%s'",
                              optarg);
                goto usage;
            }
            break;
        }
        case 'S':
            where.n_folders += gp_report_folders(optarg, folders + where.n_folders,
                                                 64 - where.n_folders);
            break;
        case 'N':
            where.no_source_text = 1;
            break;
        case 'F':
            force = 1;
            break;
        case 'X':
            details = 1;
            break;
        case 'V':
            printf(GP_REPORT_PROG " %s\n", GPUPROF_VERSION);
            free(baseline);
            free(against.ncu);
            return 0;
        case 'h':
            gp_report_usage(stdout);
            free(baseline);
            free(against.ncu);
            return 0;
        case ':':
            gp_report_err("option '%s' needs a value", argv[optind - 1]);
            gp_report_usage(stderr);
            goto usage;
        default:
            gp_report_err("unknown option '%s'", argv[optind - 1]);
            gp_report_usage(stderr);
            goto usage;
        }
    }
    if (page.list) {
        if (page.list == 'L')
            gp_ncu_list_sets(stdout);
        else
            gp_ncu_list_sections(stdout, page.verbose);
        free(baseline);
        free(against.ncu);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (optind >= argc) {
        gp_report_usage(stderr);
        goto usage;
    }
    if (gp_report_page_check(&page, format_given, n_baseline, against.n_ncu) < 0)
        goto usage;
    if (against.n_one_pass && !against.n_ncu) {
        gp_report_err("--against-one-pass needs --against (the full-list run)");
        goto usage;
    }
    if (details && (n_baseline || against.n_ncu)) {
        gp_report_err("--details is for a report, not for --baseline or --against");
        goto usage;
    }
    if (details && format != GP_FMT_TEXT && format != GP_FMT_HTML) {
        gp_report_err("--details is for --format text or html; %s holds every metric already",
                      gp_report_formats[format]);
        goto usage;
    }
    if (against.n_ncu)
        return gp_report_against(&against, format, out_path, n_baseline, argv + optind,
                                 (size_t)(argc - optind), baseline);
    if (format == GP_FMT_SQLITE && (!out_path || n_baseline)) {
        gp_report_err(n_baseline ? "--baseline compares in text, csv or html, not sqlite"
                                 : "--format sqlite writes a database file: give -o FILE.db");
        goto usage;
    }
    if (force && format != GP_FMT_SQLITE) {
        gp_report_err("--force replaces an existing database (--format sqlite); other outputs "
                      "are replaced anyway");
        goto usage;
    }
    if (n_baseline && format != GP_FMT_TEXT && format != GP_FMT_CSV && format != GP_FMT_HTML) {
        gp_report_err("--baseline compares in text, csv or html, not %s",
                      gp_report_formats[format]);
        goto usage;
    }
    /* Nsight Compute names kernels by their demangled name in its CSV output;
     * gpuprof's own reports use short names */
    if (name_base < 0)
        name_base = format == GP_FMT_NCU || format == GP_FMT_NCU_RAW ||
                            format == GP_FMT_NCU_SOURCE || page.writer
                        ? GP_REPORT_NAME_DEMANGLED
                        : GP_REPORT_NAME_FUNCTION;
    gp_peaks_none(&peaks);
    if (peaks_path && gp_peaks_load(peaks_path, &peaks, err, sizeof err) < 0) {
        gp_report_err("%s", err);
        goto out;
    }
    r = calloc(1, sizeof *r); /* zeroed: gp_report_free is safe before init */
    old = n_baseline ? calloc(1, sizeof *old) : NULL;
    if (!r || (n_baseline && !old)) {
        gp_report_err("out of memory");
        goto out;
    }
    gp_report_init(r, &peaks);
    r->name_base = name_base;
    r->keep_launches = format == GP_FMT_JSON || format == GP_FMT_NCU || format == GP_FMT_NCU_RAW ||
                       page.writer != NULL;
    r->keep_reasons = page.writer != NULL;
    if (old) {
        gp_report_init(old, &peaks);
        old->name_base = name_base;
        if (gp_report_read(old, baseline, n_baseline, " in the baseline", NULL) < 0)
            goto out;
    }
    if (format == GP_FMT_SQLITE) { /* streamed while read: created first */
        if (!(db = gp_rdb_create(out_path, force, 0, GP_REPORT_PROG, err, sizeof err))) {
            gp_report_err("%s", err);
            goto out;
        }
        gp_rdb_attach(db, r, 1);
    }
    if (gp_report_read(r, argv + optind, (size_t)(argc - optind), "", &where) < 0) {
        if (db && r->stopped)
            gp_report_err("cannot write %s (nothing written under that name)",
                          gp_rdb_error(db));
        goto out;
    }
    if (!r->records) {
        gp_report_err("nothing usable read: no valid record in the input");
        goto out;
    }
    if (gp_report_peaks_mismatch(r, err, sizeof err))
        gp_report_err("warning: %s", err);
    if (db) {
        if (r->stopped || gp_rdb_add_report(db, r, NAN) < 0) {
            gp_report_err("cannot write %s (nothing written under that name)",
                          gp_rdb_error(db));
            goto out; /* discarded there */
        }
        rc = gp_rdb_commit(db, err, sizeof err) < 0 ? 1 : 0; /* frees it */
        db = NULL;
        if (rc)
            gp_report_err("%s", err);
        goto out;
    }
    if (out_path) {
        if (gp_safefile_open(&sf, out_path, err, sizeof err) < 0) {
            gp_report_err("%s", err);
            goto out;
        }
        out = sf.f;
    }
    if (old) {
        gp_baseline b;
        if (gp_baseline_compare(old, r, &b) < 0) {
            gp_report_err("out of memory");
            goto out;
        }
        rc = format == GP_FMT_CSV    ? gp_baseline_csv(&b, out)
             : format == GP_FMT_HTML ? gp_baseline_html(&b, out)
                                     : gp_baseline_text(&b, out);
        gp_baseline_free(&b);
    } else if (page.writer) {
        rc = page.writer(r, &page.details, out);
    } else if (details) {
        rc = format == GP_FMT_HTML ? gp_report_html_details(r, out) : gp_report_text_details(r, out);
    } else {
        rc = gp_report_writers[format](r, out);
    }
    if (rc < 0)
        gp_report_err("writing the report failed");
    rc = rc < 0 ? 1 : 0;
out:
    gp_rdb_discard(db);
    if (sf.f && rc != 0)
        gp_safefile_discard(&sf);
    else if (sf.f && gp_safefile_commit(&sf, err, sizeof err) < 0) {
        gp_report_err("%s", err);
        rc = 1;
    }
    if (r)
        gp_report_free(r);
    if (old)
        gp_report_free(old);
    free(r);
    free(old);
    free(baseline);
    free(against.ncu);
    return rc;
usage:
    free(baseline);
    free(against.ncu);
    return 2;
}
