/* test_where.c - "why and where" on the fixtures of tests/data/where
 * (make-where.py: stall_chase with Nsight Compute's own counts, four kernels
 * with one planted problem each, and a hostile file): loading and its
 * messages, the checks of the counts (defects), per-line aggregation and
 * per-launch values, ranking, processes summed (and a process read twice
 * counted once), the limits, stall verdicts
 * and their thresholds, "where" evidence, the nvdisasm listing parser on
 * the recorded listings, and each writer's output. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "capture.h"
#include "gp_test.h"
#include "metrics/records/json.h"
#include "metrics/report/report.h"
#include "metrics/report/report_api.h"
#include "metrics/instructions/sass_listing.h"
#include "metrics/records/textfile.h"
#include "metrics/verdicts/verdict_stall.h"

#define FIX "tests/data/where/"

/* A report of the files (NULL-terminated), with its warnings in *warn. */
static gp_report *load_files(const char *const *files, char **warn)
{
    gp_report *r = calloc(1, sizeof *r);
    size_t len = 0;
    FILE *w = open_memstream(warn, &len);
    gp_report_init(r, NULL);
    for (; *files; files++)
        GP_CHECK(gp_report_load(r, *files, w) >= 0);
    fclose(w);
    gp_report_finish(r);
    return r;
}

static gp_report *load1(const char *file, char **warn)
{
    const char *files[] = {file, NULL};
    return load_files(files, warn);
}

/* A report of JSON lines given as text. */
static gp_report *load_text(const char *text, char **warn)
{
    gp_report *r = calloc(1, sizeof *r);
    FILE *in = fmemopen((void *)text, strlen(text), "r");
    size_t len = 0;
    FILE *w = open_memstream(warn, &len);
    gp_report_init(r, NULL);
    gp_report_load_stream(r, in, "test.jsonl", w);
    fclose(in);
    fclose(w);
    gp_report_finish(r);
    return r;
}

static void done(gp_report *r)
{
    gp_report_free(r);
    free(r);
}

static const gp_kernel_report *kernel(const gp_report *r, const char *name)
{
    size_t i;
    for (i = 0; i < r->n; i++)
        if (strcmp(r->kernels[i].agg.kernel, name) == 0)
            return &r->kernels[i];
    return NULL;
}

static const gp_verdict *verdict(const gp_kernel_report *k, const char *id)
{
    size_t i;
    for (i = 0; k && i < k->n_verdicts; i++)
        if (strcmp(k->verdicts[i].id, id) == 0)
            return &k->verdicts[i];
    return NULL;
}

static const gp_where_row *row_of(const gp_report *r, const gp_where *w, long line)
{
    size_t i;
    for (i = 0; w && i < w->n_rows; i++)
        if (w->rows[i].line == line)
            return &w->rows[i];
    (void)r;
    return NULL;
}

/* The largest "N%" in text: a share is never over 100. */
static double max_percent(const char *text)
{
    double max = 0;
    for (const char *p = strchr(text, '%'); p; p = strchr(p + 1, '%')) {
        const char *b = p;
        while (b > text && (b[-1] == '.' || (b[-1] >= '0' && b[-1] <= '9')))
            b--;
        if (b < p && atof(b) > max)
            max = atof(b);
    }
    return max;
}

static size_t count(const char *hay, const char *needle)
{
    size_t n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* The recorded stall_chase page's numbers, summed by hand from
 * ncu-source-sass-stall_chase.csv: line 11 (the gather) holds 88
 * instructions, 85,578,240 warp instructions, 458,156,032 excess sectors. */
static void test_load_and_rank(void)
{
    char *warn;
    gp_report *r = load1(FIX "where-stall.jsonl", &warn);
    const gp_kernel_report *k = kernel(r, "stall_chase");
    const gp_where *w = k ? k->where : NULL;
    const gp_where_row *l11;
    GP_CHECK_MSG(warn[0] == 0, "warnings: %s", warn);
    GP_CHECK(r->bad_lines == 0 && r->source && r->source->n_funcs == 5);
    GP_CHECK(w && w->lines && w->by == GP_WHERE_BY_SAMPLES && w->n_funcs == 1);
    if (!w)
        goto out;
    GP_CHECK(w->rows[0].line == 11); /* the hottest line first */
    l11 = &w->rows[0];
    GP_CHECK(l11->n == 88);
    GP_CHECK_NEAR(l11->q[GP_WQ_INST], 85578240, 1e-12);
    GP_CHECK_NEAR(l11->q[GP_WQ_EXCESS], 458156032, 1e-12);
    GP_CHECK_NEAR(l11->q[GP_WQ_SAMPLES], 183415, 1e-12);
    GP_CHECK_NEAR(w->total[GP_WQ_SAMPLES], 183715, 1e-12);
    for (size_t i = 1; i < w->n_rows; i++) /* ranked */
        GP_CHECK(!(w->rows[i].q[GP_WQ_SAMPLES] > w->rows[i - 1].q[GP_WQ_SAMPLES]));
    GP_CHECK(isnan(l11->q[GP_WQ_CONFLICTS])); /* no shared access: n/a, not 0 */
    /* the kernel's dominant stall reason */
    {
        int top[2];
        double v[2];
        GP_CHECK(gp_where_top_reasons(r->source, w, NULL, 2, top, v) == 2 &&
                 top[0] == GP_STALL_LONG_SCOREBOARD && v[0] == 180664); /* ncu's column sum */
    }
    /* two launches: per launch halves the sums (barrier's loop line 34: 29
     * LDS unrolled, each 4 wavefronts for 1 needed, 8448 x 64 a launch) */
    k = kernel(r, "stall_barrier");
    w = k ? k->where : NULL;
    GP_CHECK(w && w->sass_launches == 2);
    {
        const gp_where_row *l34 = row_of(r, w, 34);
        GP_CHECK(l34 && l34->q[GP_WQ_WAVEFRONTS] == 29 * 4.0 * 8448 * 64);
        GP_CHECK(l34 && l34->q[GP_WQ_CONFLICTS] == 29 * 3.0 * 8448 * 64);
    }
    /* no line information, no samples: SASS instructions by instructions executed */
    k = kernel(r, "stall_stream");
    w = k ? k->where : NULL;
    GP_CHECK(w && !w->lines && w->by == GP_WHERE_BY_INST && w->sampled_launches == 0);
    GP_CHECK(w && w->n_rows && w->rows[0].line == 0 && isnan(w->total[GP_WQ_SAMPLES]));
    /* idle lanes of half-warp divergence at the loops of line 58 */
    k = kernel(r, "stall_diverge");
    w = k ? k->where : NULL;
    {
        const gp_where_row *l58 = row_of(r, w, 58);
        GP_CHECK(l58 && l58->q[GP_WQ_IDLE_LANES] == 16 * l58->q[GP_WQ_INST]);
    }
out:
    free(warn);
    done(r);
}

/* The rule for a record read twice: the same file named twice is read
 * once; a copy of it (another file, the same process's records) counts its
 * launches once and leaves out its instruction-level records and summary,
 * saying how many records repeated what was read before. */
static void test_repeats(void)
{
    char copy[] = "/tmp/gp-test-where-XXXXXX", cmd[600];
    int fd = mkstemp(copy);
    const char *twice[] = {FIX "where-stall.jsonl", FIX "where-stall.jsonl", NULL};
    const char *copied[] = {FIX "where-stall.jsonl", copy, NULL};
    char *warn = NULL, *warn1, *warn2;
    snprintf(cmd, sizeof cmd, "cat %swhere-stall.jsonl > %s", FIX, copy);
    if (fd < 0 || (close(fd), system(cmd)) != 0) {
        GP_CHECK(!"a temporary file");
        return;
    }
    gp_report *one = load1(FIX "where-stall.jsonl", &warn), *r1 = load_files(twice, &warn1),
              *r2 = load_files(copied, &warn2);
    unlink(copy);
    const gp_kernel_report *k = kernel(one, "stall_chase"), *k1 = kernel(r1, "stall_chase"),
                           *k2 = kernel(r2, "stall_chase");
    GP_CHECK(k && k1 && k2 && k->where && k1->where && k2->where);
    if (k && k1 && k2 && k->where && k1->where && k2->where) {
        GP_CHECK_MSG(r1->n_files == 1 && strstr(warn1, "again: read once"), "%s", warn1);
        GP_CHECK(k1->agg.launches == k->agg.launches &&
                 k1->where->total[GP_WQ_SAMPLES] == k->where->total[GP_WQ_SAMPLES]);
        GP_CHECK_MSG(k2->agg.launches == k->agg.launches && r2->launches == one->launches &&
                         k2->where->total[GP_WQ_SAMPLES] == k->where->total[GP_WQ_SAMPLES] &&
                         k2->where->sass_launches == k->where->sass_launches,
                     "a copy: %ld launches (want %ld), %g samples (want %g)", k2->agg.launches,
                     k->agg.launches, k2->where->total[GP_WQ_SAMPLES],
                     k->where->total[GP_WQ_SAMPLES]);
        GP_CHECK_MSG(strstr(warn2, "repeat what was read before") && r2->summaries == one->summaries,
                     "%s", warn2);
    }
    free(warn);
    free(warn1);
    free(warn2);
    done(one);
    done(r1);
    done(r2);
}

/* A copy of FIX/where-stall.jsonl as another process's file (its pid
 * changed) in path; 0 or -1. */
static int other_process(const char *path)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "sed 's/\"pid\":5151/\"pid\":5152/' %swhere-stall.jsonl > %s", FIX,
             path);
    return system(cmd) == 0 ? 0 : -1;
}

/* The same function from two processes: summed, per launch unchanged. */
static void test_processes_summed(void)
{
    char other[] = "/tmp/gp-test-where-XXXXXX";
    int fd = mkstemp(other);
    const char *files[] = {FIX "where-stall.jsonl", other, NULL};
    char *warn, *warn1;
    if (fd < 0 || (close(fd), other_process(other)) != 0) {
        GP_CHECK(!"a temporary file");
        return;
    }
    gp_report *r = load_files(files, &warn), *one = load1(FIX "where-stall.jsonl", &warn1);
    unlink(other);
    const gp_kernel_report *k = kernel(r, "stall_chase"), *k1 = kernel(one, "stall_chase");
    GP_CHECK(k && k->where && k1 && k1->where);
    if (k && k->where && k1 && k1->where) {
        const gp_source_func *f = &r->source->funcs[k->where->funcs[0]];
        GP_CHECK(k->where->n_funcs == 1 && f->processes == 2 && k->where->sass_launches == 2);
        GP_CHECK(k->where->total[GP_WQ_SAMPLES] == 2 * k1->where->total[GP_WQ_SAMPLES]);
        GP_CHECK(k->where->total[GP_WQ_INST] == k1->where->total[GP_WQ_INST]);
        GP_CHECK(k->where->n_rows == k1->where->n_rows);
    }
    free(warn);
    free(warn1);
    done(r);
    done(one);
}

/* Malformed records: one message each, nothing else lost; defects kept and
 * flagged, never a share over 100%. */
static void test_hostile(void)
{
    static const char *const messages[] = {
        "duplicate source_instr of",       "\"inst_executed\" is -5, not a count",
        "\"file\" without \"line\"",       "beyond the function's 1920 bytes of code",
        "\"inst_executed\" is 1e+300",     "\"wait\" is not a number",
        "without its source_function",     "duplicate source_function of",
        "\"code\" is not a string of hex", "\"code\" holds 3839 hex digits"};
    char *warn, *text;
    gp_report *r = load1(FIX "where-hostile.jsonl", &warn);
    const gp_where *w = r->n ? r->kernels[0].where : NULL;
    size_t i;
    GP_CHECK(r->bad_lines == 10);
    for (i = 0; i < sizeof messages / sizeof messages[0]; i++)
        GP_CHECK_MSG(count(warn, messages[i]) == 1, "'%s' in %s", messages[i], warn);
    GP_CHECK(!strchr(warn, '\x07') && !strstr(warn, "\xe2\x80\xae")); /* escaped names */
    GP_CHECK(w && w->defects == 2 && strstr(w->defect, "sectors_global_ideal 400 > "));
    if (w) {
        /* the defective instruction is left out of the excess sectors */
        gp_source_func *f = &r->source->funcs[w->funcs[0]];
        gp_source_instr *bad = gp_source_find(f, 0x10), *bad2 = gp_source_find(f, 0x20);
        GP_CHECK(bad && (bad->defects & GP_SRC_BAD_SECTORS) &&
                 isnan(gp_where_value(f, bad, GP_WQ_EXCESS)));
        GP_CHECK(bad2 && (bad2->defects & GP_SRC_BAD_THREADS) &&
                 (bad2->defects & GP_SRC_BAD_SAMPLES) && (bad2->defects & GP_SRC_BAD_WAVEFRONTS));
        GP_CHECK(w->total[GP_WQ_EXCESS] == 300); /* only pc 0: 400 - 100 */
        /* a reason the table lacks keeps its name; the access the report
         * does not know is "other" */
        GP_CHECK(r->source->n_reasons > GP_STALL_KNOWN);
        GP_CHECK(gp_source_find(f, 0x30) && gp_source_find(f, 0x30)->access == GP_ACCESS_OTHER);
    }
    GP_CHECK(r->source && r->source->run.results_invalid == 1 && r->source->run.off == 1);
    text = capture(r, gp_report_text);
    GP_CHECK(text && !strchr(text, '\x1b') && !strstr(text, "\xe2\x80\xae") &&
             !strchr(text, '\x07') && strstr(text, "defect in the data: 2 instructions"));
    GP_CHECK(text && max_percent(text) <= 100 && strstr(text, "not to be trusted"));
    free(text);
    text = capture(r, gp_report_html);
    GP_CHECK(text && count(text, "<script") == 1 && !strstr(text, "<script>alert") &&
             !strchr(text, '\x1b') && !strstr(text, "\xe2\x80\xae"));
    free(text);
    free(warn);
    done(r);
}

/* A function with one instruction record more than the limit: the rest
 * counted and said, memory bounded. */
static void test_limits(void)
{
    size_t cap = 0, len = 0, i;
    char *buf = NULL, *warn, *text;
    FILE *f = open_memstream(&buf, &len);
    gp_report *r;
    fprintf(f,
            "{\"type\":\"launch\",\"kernel\":\"huge\",\"device\":0,\"metrics\":{}}\n"
            "{\"type\":\"source_function\",\"device\":0,\"kernel\":\"huge\",\"mangled\":\"huge\","
            "\"module\":\"m\",\"sass_launches\":1}\n");
    for (i = 0; i < (size_t)GP_SOURCE_MAX_INSTR + 3; i++)
        fprintf(f,
                "{\"type\":\"source_instr\",\"device\":0,\"module\":\"m\",\"mangled\":\"huge\","
                "\"pc\":%zu,\"inst_executed\":1}\n",
                16 * i);
    fclose(f);
    (void)cap;
    r = load_text(buf, &warn);
    GP_CHECK(r->n == 1 && r->kernels[0].where);
    if (r->n == 1 && r->kernels[0].where) {
        const gp_where *w = r->kernels[0].where;
        GP_CHECK(w->dropped == 3 && w->n_refs == (size_t)GP_SOURCE_MAX_INSTR);
        GP_CHECK(w->total[GP_WQ_INST] == (double)GP_SOURCE_MAX_INSTR);
    }
    text = capture(r, gp_report_text);
    GP_CHECK(text && strstr(text, "3 instruction records left out (at most 262144 per function"));
    free(text);
    free(warn);
    free(buf);
    done(r);
}

/* A kernel whose stall shares are given: the verdicts' thresholds, the
 * counters preferred to samples, a roof that already explains the stall. */
static gp_report *stall_kernel(double long_sb, double other, const char *extra_metrics)
{
    char text[2048], *warn;
    gp_report *r;
    snprintf(text, sizeof text,
             "{\"type\":\"launch\",\"kernel\":\"k\",\"device\":0,\"grid\":[1000,1,1],"
             "\"block\":[256,1,1],\"metrics\":{\"gpu__time_duration.sum\":1e6%s}}\n"
             "{\"type\":\"source_function\",\"device\":0,\"kernel\":\"k\",\"mangled\":\"k\","
             "\"module\":\"m\",\"sampled_launches\":1}\n"
             "{\"type\":\"source_instr\",\"device\":0,\"module\":\"m\",\"mangled\":\"k\",\"pc\":0,"
             "\"file\":\"k.cu\",\"line\":5,\"samples\":%.0f,\"stall\":{\"long_scoreboard\":%.0f}}\n"
             "{\"type\":\"source_instr\",\"device\":0,\"module\":\"m\",\"mangled\":\"k\",\"pc\":16,"
             "\"file\":\"k.cu\",\"line\":6,\"samples\":%.0f,\"stall\":{\"wait\":%.0f}}\n",
             extra_metrics, long_sb, long_sb, other, other);
    r = load_text(text, &warn);
    GP_CHECK_MSG(!warn[0], "%s", warn);
    free(warn);
    return r;
}

static void test_stall_verdicts(void)
{
    gp_report *r = stall_kernel(39, 61, "");
    const gp_verdict *v;
    GP_CHECK(r->n == 1 && !verdict(&r->kernels[0], "memory_latency")); /* 39% < 40% */
    done(r);
    r = stall_kernel(41, 59, "");
    v = r->n ? verdict(&r->kernels[0], "memory_latency") : NULL;
    GP_CHECK(v && strstr(v->evidence, "41.0% of 100 stall samples") &&
             strstr(v->evidence, "sampled stall reasons"));
    GP_CHECK(v && strcmp(v->where, "100% of long-scoreboard samples at k.cu:5 (+0x0)") == 0);
    done(r);
    /* the counters win over the samples, and say so */
    r = stall_kernel(90, 10,
                     ",\"smsp__average_warp_latency_per_inst_issued.ratio\":10,"
                     "\"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_"
                     "active.ratio\":2");
    GP_CHECK(r->n && !verdict(&r->kernels[0], "memory_latency")); /* 20% by the counters */
    {
        gp_verdict_input vi = {
            .v = r->kernels[0].agg.row.v, .where = r->kernels[0].where, .source = r->source};
        int counters = 0;
        GP_CHECK_NEAR(gp_verdict_stall_share(&vi, GP_V_MEMORY_LATENCY, &counters), 20, 1e-9);
        GP_CHECK(counters == 1);
    }
    done(r);
    /* at the DRAM roof the latency is the bandwidth's: dram_bound says it */
    r = stall_kernel(90, 10,
                     ",\"dram__bytes_read.sum\":3e12,\"dram__bytes_write.sum\":0,"
                     "\"dram__cycles_elapsed.avg.per_second\":2.619e9,"
                     "\"dram__bytes.sum.peak_sustained\":1280");
    GP_CHECK(r->n && verdict(&r->kernels[0], "dram_bound") &&
             !verdict(&r->kernels[0], "memory_latency"));
    v = r->n ? verdict(&r->kernels[0], "dram_bound") : NULL;
    double read_score = v ? v->score : NAN;
    GP_CHECK(v && !strstr(v->evidence, "write-backs")); /* reads alone reach the bound */
    done(r);
    /* the same traffic, two thirds of it write-backs: reads alone would not be
     * DRAM-bound, so the verdict says what it rests on and ranks lower */
    r = stall_kernel(90, 10,
                     ",\"dram__bytes_read.sum\":1e9,\"dram__bytes_write.sum\":2e9,"
                     "\"dram__cycles_elapsed.avg.per_second\":2.619e9,"
                     "\"dram__bytes.sum.peak_sustained\":1280");
    v = r->n ? verdict(&r->kernels[0], "dram_bound") : NULL;
    GP_CHECK_MSG(v && strstr(v->evidence, "66.7% of it write-backs"), "%s", v ? v->evidence : "");
    GP_CHECK(v && v->score < read_score);
    done(r);
}

/* Every verdict of the planted kernels names its line. */
static void test_where_evidence(void)
{
    char *warn;
    gp_report *r = load1(FIX "where-stall.jsonl", &warn);
    static const struct {
        const char *kernel, *verdict, *where;
    } cases[] = {
        {"stall_chase", "uncoalesced",
         "100% of excess sectors of global loads at stall_kernels.cu:11, global load at +0x1b0"},
        {"stall_chase", "memory_latency", "100% of long-scoreboard samples at stall_kernels.cu:11"},
        {"stall_barrier", "bank_conflicts",
         "100% of bank-conflict wavefronts at stall_kernels.cu:34, shared load at +0x270"},
        {"stall_barrier", "barrier", "62% of barrier samples at stall_kernels.cu:33"},
        {"stall_diverge", "divergence", "100% of divergent branches at stall_kernels.cu:56"},
        {"stall_fma", "math_throttle", "of math-pipe-throttle samples at stall_kernels.cu:2"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const gp_verdict *v = verdict(kernel(r, cases[i].kernel), cases[i].verdict);
        GP_CHECK_MSG(v && strstr(v->where, cases[i].where), "%s %s: '%s'", cases[i].kernel,
                     cases[i].verdict, v ? v->where : "no verdict");
    }
    /* the counters' share for stall_fma, the samples' for the others */
    GP_CHECK(
        strstr(verdict(kernel(r, "stall_fma"), "math_throttle")->evidence, "warp-state counters"));
    /* the cause before its symptom */
    GP_CHECK(strcmp(kernel(r, "stall_chase")->verdicts[0].id, "uncoalesced") == 0);
    /* without instruction data, no where */
    free(warn);
    done(r);
    r = load1("tests/data/report/h100-planted.jsonl", &warn);
    for (i = 0; i < r->n; i++)
        for (size_t j = 0; j < r->kernels[i].n_verdicts; j++)
            GP_CHECK(r->kernels[i].verdicts[j].where[0] == 0);
    free(warn);
    done(r);
}

/* The listing parser on nvdisasm's recorded listings of stall_kernels.cubin. */
static void test_listing(void)
{
    static const char *const names[] = {"stall_diverge", "stall_stream", "stall_barrier",
                                        "stall_fma", "stall_chase"};
    char err[160];
    size_t len, i, len2;
    char *hex = gp_textfile_read(FIX "nvdisasm-hex-stall_kernels.txt", &len, err, sizeof err);
    char *g = gp_textfile_read(FIX "nvdisasm-g-stall_kernels.txt", &len2, err, sizeof err);
    gp_sass_listing a, b, c;
    const gp_sass_func *fa, *fb;
    GP_CHECK(hex && g);
    if (!hex || !g)
        goto out;
    GP_CHECK(gp_sass_listing_parse(hex, len, &a) == 0 && gp_sass_listing_parse(g, len2, &b) == 0);
    GP_CHECK(a.n == 5 && b.n == 5);
    for (i = 0; i < 5; i++)
        GP_CHECK(gp_sass_listing_find(&a, names[i]) != NULL);
    fa = gp_sass_listing_find(&a, "stall_chase");
    fb = gp_sass_listing_find(&b, "stall_chase");
    GP_CHECK(fa && fb && fa->n == 200 && fb->n == 200); /* 3200 bytes of code */
    for (i = 0; fa && fb && i < fa->n && i < fb->n; i++) {
        GP_CHECK(fa->ins[i].pc == (long)(16 * i));      /* every offset, in order */
        GP_CHECK_STR(fa->ins[i].text, fb->ins[i].text); /* -hex and -g agree */
    }
    if (fa && fa->n == 200) {
        GP_CHECK_STR(fa->ins[0x1b].text, "LDG.E R4, desc[UR4][R4.64]");
        GP_CHECK_STR(fa->ins[9].text, "@!P0 BRA `(.L_x_42)");
        GP_CHECK(fa->ins[0].file == -1); /* no line comments in -hex */
    }
    if (fb && fb->n == 200) {
        GP_CHECK(fb->ins[0x1b].line == 11 && fb->ins[0x1b].file >= 0);
        GP_CHECK_STR(b.files[fb->ins[0x1b].file], "/work/main/tests/gpu/where/stall_kernels.cu");
        GP_CHECK(fb->ins[0].line == 7);
    }
    /* nvdisasm's raw mode on the H200 (the function's code from a source_function
     * record, nvdisasm -b SM90): the same instructions as the cubin's listing,
     * branch targets as offsets instead of labels */
    {
        size_t lr;
        char *rawl = gp_textfile_read(FIX "nvdisasm-raw-stall_chase.txt", &lr, err, sizeof err);
        gp_sass_listing r;
        GP_CHECK(rawl && gp_sass_listing_parse(rawl, lr, &r) == 0);
        if (rawl && r.n == 1 && fa && r.funcs[0].n == fa->n) {
            size_t same = 0;
            for (i = 0; i < fa->n; i++) {
                GP_CHECK(r.funcs[0].ins[i].pc == (long)(16 * i));
                same += strcmp(r.funcs[0].ins[i].text, fa->ins[i].text) == 0 ||
                        (strstr(fa->ins[i].text, "`(") && strstr(r.funcs[0].ins[i].text, " 0x"));
            }
            GP_CHECK_MSG(same == fa->n, "%zu of %zu instructions as in the cubin's listing", same,
                         fa->n);
            GP_CHECK_STR(r.funcs[0].ins[0x1b].text, "LDG.E R4, desc[UR4][R4.64]");
        } else {
            GP_CHECK_MSG(0, "raw listing: %zu functions", rawl ? r.n : 0);
        }
        if (rawl)
            gp_sass_listing_free(&r);
        free(rawl);
    }
    gp_sass_listing_free(&a);
    gp_sass_listing_free(&b);
    /* raw mode: instruction lines only, one unnamed function; what is not an
     * instruction is skipped; an overlong text is cut */
    {
        char raw[1024];
        snprintf(raw, sizeof raw,
                 "        /*0000*/                   S2R R0, SR_TID.X ;  /* 0x0000000000007919 */\n"
                 "                                                       /* 0x000e220000002100 */\n"
                 ".L_x_0:\n\t.byte 1\n        /*0010*/  .byte 0x01 ;\n"
                 "        /*0020*/              @P0 EXIT ;\n"
                 "        /*0030*/   %0300d ;\n"
                 "        /* 0x1234 */ garbage\n/*zz*/ X ;\n        /*0040*/  NOP",
                 7);
        GP_CHECK(gp_sass_listing_parse(raw, strlen(raw), &c) == 0);
        GP_CHECK(c.n == 1 && strcmp(c.funcs[0].name, "") == 0 && c.funcs[0].n == 4);
        if (c.n == 1 && c.funcs[0].n == 4) {
            GP_CHECK_STR(c.funcs[0].ins[0].text, "S2R R0, SR_TID.X");
            GP_CHECK(c.funcs[0].ins[1].pc == 0x20);
            GP_CHECK_STR(c.funcs[0].ins[1].text, "@P0 EXIT");
            GP_CHECK(strlen(c.funcs[0].ins[2].text) == GP_SASS_LISTING_MAX_TEXT);
            GP_CHECK_STR(c.funcs[0].ins[3].text, "NOP"); /* no " ;", last line unterminated */
        }
        gp_sass_listing_free(&c);
        GP_CHECK(gp_sass_listing_parse("", 0, &c) == 0 && c.n == 0);
        gp_sass_listing_free(&c);
    }
out:
    free(hex);
    free(g);
}

/* Each writer on the fixture: JSON parses, CSV rows have the header's
 * columns, Nsight Compute's header is ncu's, HTML has a source view per
 * kernel. */
static size_t csv_fields(const char *line, size_t n)
{
    size_t k = 1, i;
    int q = 0;
    for (i = 0; i < n; i++) {
        if (line[i] == '"')
            q = !q;
        else if (line[i] == ',' && !q)
            k++;
    }
    return k;
}

static void test_writers(void)
{
    char *warn, *out, err[160], *ncu, *nl;
    size_t len, fields, rows = 0;
    gp_report *r = load1(FIX "where-stall.jsonl", &warn);
    gp_json *doc;
    /* text: the where section and its source line */
    out = capture(r, gp_report_text);
    GP_CHECK(out && strstr(out, "   where (source lines by stall samples") &&
             strstr(out, "stall_kernels.cu:11") && strstr(out, "long_scoreboard 98%"));
    GP_CHECK(out && strstr(out, "(SASS instructions by instructions executed"));
    free(out);
    /* JSON */
    out = capture(r, gp_report_json);
    doc = out ? gp_json_parse(out, strlen(out), err, sizeof err) : NULL;
    GP_CHECK_MSG(doc != NULL, "%s", err);
    if (doc) {
        const gp_json *ks = gp_json_get(doc, "kernels"), *w = NULL, *lines = NULL;
        size_t i;
        for (i = 0; ks && i < ks->n; i++)
            if (strcmp(gp_json_string(gp_json_get(&ks->items[i], "name")), "stall_chase") == 0)
                w = gp_json_get(&ks->items[i], "where");
        lines = gp_json_get(w, "lines");
        GP_CHECK(lines && lines->n == 6 &&
                 gp_json_number(gp_json_get(&lines->items[0], "line")) == 11);
        GP_CHECK(gp_json_number(gp_json_get(gp_json_get(doc, "sampling"), "dropped")) == 12);
        {
            const gp_json *fn = gp_json_get(w, "functions");
            const gp_json *ins = fn && fn->n ? gp_json_get(&fn->items[0], "instructions") : NULL;
            GP_CHECK(ins && ins->n == 120); /* every record of stall_chase */
        }
        gp_json_free(doc);
    }
    free(out);
    /* source-csv: as many fields in every row as in the header */
    out = capture(r, gp_report_source_csv);
    nl = out ? strchr(out, '\n') : NULL;
    GP_CHECK(nl &&
             strncmp(out, "kernel,demangled,device,function,module,pc,file,line,sass", 57) == 0);
    fields = nl ? csv_fields(out, (size_t)(nl - out)) : 0;
    for (char *p = nl ? nl + 1 : NULL; p && *p; p = strchr(p, '\n') + 1) {
        GP_CHECK(csv_fields(p, strcspn(p, "\n")) == fields);
        rows++;
    }
    GP_CHECK(rows == 810); /* one per source_instr record */
    free(out);
    /* Nsight Compute's source page: its header, as recorded */
    ncu = gp_textfile_read(FIX "ncu-source-sass-stall_chase.csv", &len, err, sizeof err);
    out = capture(r, gp_report_ncu_source_csv);
    GP_CHECK(ncu && out && strncmp(out, "\"Kernel Name\",\"stall_chase\",\n", 29) == 0);
    if (ncu && out) {
        char *h1 = strchr(ncu, '\n') + 1, *h2 = strchr(out, '\n') + 1;
        size_t n1 = strcspn(h1, "\n");
        GP_CHECK(n1 == strcspn(h2, "\n") && strncmp(h1, h2, n1) == 0);
        GP_CHECK(count(out, "\"Kernel Name\"") == 5);
    }
    free(ncu);
    free(out);
    /* HTML: one source view per kernel with data */
    out = capture(r, gp_report_html);
    GP_CHECK(out && count(out, "<section class=\"where\"") == 5 &&
             strstr(out, "i = next[i &amp; 0xfffffu];") == NULL); /* no source text read here */
    free(out);
    free(warn);
    done(r);
}

/* The library's exit summary passes the instruction-level records over. */
static void test_skip_source(void)
{
    gp_report *r = calloc(1, sizeof *r);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    size_t i;
    gp_report_init(r, NULL);
    r->skip_source = 1;
    GP_CHECK(gp_report_load(r, FIX "where-stall.jsonl", NULL) == 7 && r->bad_lines == 0);
    gp_report_finish(r);
    GP_CHECK(r->n == 5 && r->source && r->source->n_funcs == 0);
    for (i = 0; i < r->n; i++)
        GP_CHECK(r->kernels[i].where == NULL);
    done(r);
    GP_CHECK(gp_report_summarize_jsonl(FIX "where-stall.jsonl", out, 5) == 0);
    fclose(out);
    GP_CHECK(buf && strstr(buf, "stall_chase") && !strstr(buf, "stall_kernels.cu"));
    free(buf);
}

int main(void)
{
    test_load_and_rank();
    test_processes_summed();
    test_repeats();
    test_hostile();
    test_limits();
    test_stall_verdicts();
    test_where_evidence();
    test_listing();
    test_writers();
    test_skip_source();
    return gp_test_finish("where");
}
