/* test_characterize.c - gpuprof-characterize without a GPU: suite-file
 * parsing (errors name the line), the output comparison with ignore rules,
 * result files, aggregation of fixture JSON-lines per program, and a merge of
 * shards writing the same bytes as one directory. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
#include "gp_test.h"
#include "metrics/report/report.h"
#include "result.h"
#include "run.h"
#include "suite.h"
#include "summary.h"
#include "validity.h"

static void test_parse_ok(void)
{
    gpc_suite s;
    char err[512] = "";
    const char *text = "# a comment\n"
                       "\n"
                       "[first]\n"
                       "  dir = sub/dir  \n"
                       "cmd = ./prog --n 3 # not a comment\n"
                       "env = A=1\n"
                       "env = B=x=y\n"
                       "timeout = 2.5\n"
                       "compare = out.txt\n"
                       "compare = sub/./out2.txt\n"
                       "ignore = ^Time:\n"
                       "ignore = ms$\n"
                       "   # indented comment\n"
                       "[second.v2]\n"
                       "cmd=echo hi\n"
                       "dir = /abs\n";
    int rc = gpc_suite_parse(&s, "t.suite", "/base", text, err, sizeof err);
    GP_CHECK_MSG(rc == 0, "%s", err);
    if (rc)
        return;
    GP_CHECK(s.n == 2);
    GP_CHECK_STR(s.progs[0].name, "first");
    GP_CHECK(s.progs[0].line == 3);
    GP_CHECK_STR(s.progs[0].dir, "/base/sub/dir");
    GP_CHECK_STR(s.progs[0].cmd, "./prog --n 3 # not a comment");
    GP_CHECK(s.progs[0].n_env == 2);
    GP_CHECK_STR(s.progs[0].env[1], "B=x=y");
    GP_CHECK(s.progs[0].timeout == 2.5);
    GP_CHECK(s.progs[0].n_compare == 2);
    GP_CHECK_STR(s.progs[0].compare[1], "sub/out2.txt"); /* one spelling per file */
    GP_CHECK(s.progs[0].n_ignore == 2);
    GP_CHECK_STR(s.progs[1].name, "second.v2");
    GP_CHECK_STR(s.progs[1].cmd, "echo hi");
    GP_CHECK_STR(s.progs[1].dir, "/abs");
    GP_CHECK(s.progs[1].timeout == GPC_DEFAULT_TIMEOUT);
    GP_CHECK(gpc_suite_find(&s, "second.v2") == &s.progs[1]);
    GP_CHECK(gpc_suite_find(&s, "third") == NULL);
    gpc_suite_free(&s);
    /* no dir: the suite file's directory */
    rc = gpc_suite_parse(&s, "t.suite", "/base", "[a]\ncmd = true\n", err, sizeof err);
    GP_CHECK(rc == 0 && s.n == 1 && strcmp(s.progs[0].dir, "/base") == 0);
    if (rc == 0)
        gpc_suite_free(&s);
}

/* Each bad suite must fail with "t.suite:LINE:" and a word of the reason. */
static void test_parse_errors(void)
{
    static const struct {
        const char *text, *where, *word;
    } cases[] = {
        {"[a]\ncmd = x\ncmdd = y\n", "t.suite:3:", "unknown key"},
        {"cmd = x\n", "t.suite:1:", "before the first"},
        {"[a]\ncmd = x\n[a]\ncmd = y\n", "t.suite:3:", "line 1"},
        {"[a]\ndir = d\n\n[b]\ncmd = y\n", "t.suite:1:", "no 'cmd"},
        {"[a]\ncmd = y\n[b]\ndir = x\n", "t.suite:3:", "no 'cmd"},
        {"[a]\ncmd = x\ntimeout = soon\n", "t.suite:3:", "timeout"},
        {"[a]\ncmd = x\ntimeout = -1\n", "t.suite:3:", "timeout"},
        {"[a]\ncmd = x\nenv = NOEQUALS\n", "t.suite:3:", "env"},
        {"[a]\ncmd = x\nenv = 1X=2\n", "t.suite:3:", "env"},
        {"[a]\ncmd = x\nignore = ([unclosed\n", "t.suite:3:", "regular expression"},
        {"[a]\ncmd = x\njust words\n", "t.suite:3:", "key = value"},
        {"[a]\ncmd = x\ncmd = y\n", "t.suite:3:", "twice"},
        {"\n\n[bad name]\ncmd = x\n", "t.suite:3:", "bad program name"},
        {"[../up]\ncmd = x\n", "t.suite:1:", "bad program name"},
        {"[summary]\ncmd = x\n", "t.suite:1:", "bad program name"},
        {"[a\ncmd = x\n", "t.suite:1:", "[name]"},
        {"[a]\ncmd =\n", "t.suite:2:", "needs a value"},
        {"# only comments\n", "t.suite", "no [program]"},
        /* compare names an output inside the program's directory */
        {"[a]\ncmd = x\ncompare = /etc/passwd\n", "t.suite:3:", "inside the program's directory"},
        {"[a]\ncmd = x\ncompare = ../elsewhere.txt\n", "t.suite:3:", "without '..'"},
        {"[a]\ncmd = x\ncompare = out/../../up.txt\n", "t.suite:3:", "without '..'"},
        {"[a]\ncmd = x\ncompare = out/..\n", "t.suite:3:", "without '..'"},
        {"[a]\ncmd = x\ncompare = outdir/\n", "t.suite:3:", "inside"},
        /* the same output listed twice would be moved away by the first
         * listing and reported missing by the second */
        {"[a]\ncmd = x\ncompare = x\ncompare = x\n", "t.suite:4:", "already listed at line 3"},
        {"[a]\ncmd = x\ncompare = ./y\ncompare = y\n", "t.suite:4:", "already listed at line 3"},
        {"[a]\ncmd = x\ncompare = d//z\n\ncompare = d/./z\n", "t.suite:5:", "line 3 for [a]"},
        {"[a]\ncmd = x\ncompare = .\n", "t.suite:3:", "the program's directory, not a file"},
        {"[a]\ncmd = x\ncompare = ./.\n", "t.suite:3:", "not a file"},
        /* an ignore rule that would hide every difference, or hang */
        {"[a]\ncmd = x\nignore =\n", "t.suite:3:", "empty one would match every line"},
        {"[a]\ncmd = x\nignore = .*\n", "t.suite:3:", "matches every line"},
        {"[a]\ncmd = x\nignore = x*\n", "t.suite:3:", "matches every line"},
        {"[a]\ncmd = x\nignore = a+++++++++++++++++++++\n", "t.suite:3:", "multiply"},
        {"[a]\ncmd = x\nignore = ((a{50}){50}){50}\n", "t.suite:3:", "multiply"},
        {"[a]\ncmd = x\nignore = (a*)\\1b\n", "t.suite:3:", "back-reference"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpc_suite s;
        char err[512] = "";
        int rc = gpc_suite_parse(&s, "t.suite", "/base", cases[i].text, err, sizeof err);
        GP_CHECK_MSG(rc < 0, "case %zu parsed", i);
        if (rc == 0) {
            gpc_suite_free(&s);
            continue;
        }
        GP_CHECK_MSG(strncmp(err, cases[i].where, strlen(cases[i].where)) == 0,
                     "case %zu: '%s' does not start with %s", i, err, cases[i].where);
        GP_CHECK_MSG(strstr(err, cases[i].word) != NULL, "case %zu: '%s' lacks '%s'", i, err,
                     cases[i].word);
    }
}

/* A NUL byte would cut the line's C string: refused, naming the line, also
 * where the text comes with its length (a suite on standard input). */
static void test_parse_nul(void)
{
    static const char text[] = "[a]\ncmd = echo hi\0; rm -rf x\n";
    static const char later[] = "[a]\ncmd = true\n\n[b]\ncmd = x\nenv = A=\0\n";
    gpc_suite s;
    char err[512] = "";
    int rc = gpc_suite_parse_n(&s, "t.suite", "/b", text, sizeof text - 1, err, sizeof err);
    GP_CHECK_MSG(rc < 0 && strstr(err, "t.suite:2: NUL byte"), "a NUL in cmd: rc %d, '%s'", rc,
                 err);
    if (rc == 0)
        gpc_suite_free(&s);
    rc = gpc_suite_parse_n(&s, "t.suite", "/b", later, sizeof later - 1, err, sizeof err);
    GP_CHECK_MSG(rc < 0 && strstr(err, "t.suite:6: NUL byte"), "a NUL in env: rc %d, '%s'", rc,
                 err);
    if (rc == 0)
        gpc_suite_free(&s);
    /* without a NUL the length form parses as the string form does */
    rc = gpc_suite_parse_n(&s, "t.suite", "/b", text, 14, err, sizeof err);
    GP_CHECK_MSG(rc == 0 && s.n == 1 && strcmp(s.progs[0].cmd, "echo") == 0, "%s", err);
    if (rc == 0)
        gpc_suite_free(&s);
}

static int compare(const gpc_program *p, const char *a, const char *b, gpc_result *r)
{
    return gpc_compare_text(p, "stdout", a, strlen(a), b, strlen(b), NULL, r);
}

static void test_compare(void)
{
    gpc_suite s;
    gpc_result r;
    char err[256];
    int rc =
        gpc_suite_parse(&s, "t.suite", "/b", "[p]\ncmd = x\nignore = ^Time:\nignore = [0-9]+ ms$\n",
                        err, sizeof err);
    const gpc_program *p = rc == 0 ? &s.progs[0] : NULL;
    GP_CHECK_MSG(rc == 0, "%s", err);
    if (!p)
        return;
    memset(&r, 0, sizeof r);
    GP_CHECK(compare(p, "a\nb\n", "a\nb\n", &r) == 0);
    /* ignored lines may differ, appear or vanish */
    GP_CHECK(compare(p, "a\nTime: 1\nb\ntook 5 ms\n", "a\nTime: 99\nb\ntook 77 ms\n", &r) == 0);
    GP_CHECK(compare(p, "a\nTime: 1\nb\n", "a\nb\nTime: 2\nTime: 3\n", &r) == 0);
    GP_CHECK(r.n_diffs == 0);
    /* no ignore rule for this line: differs, first difference named */
    GP_CHECK(compare(p, "a\nTime: 1\nx 1\ny\n", "a\nTime: 2\nx 2\ny\n", &r) == 1);
    GP_CHECK(r.n_diffs == 1);
    if (r.n_diffs == 1) {
        GP_CHECK_STR(r.diffs[0].what, "stdout");
        GP_CHECK(r.diffs[0].line == 3 && r.diffs[0].line_prof == 3);
        GP_CHECK_STR(r.diffs[0].native, "x 1");
        GP_CHECK_STR(r.diffs[0].profiled, "x 2");
        GP_CHECK(r.diffs[0].n_differ == 1);
    }
    /* the profiled output ends early: its side is NULL */
    GP_CHECK(compare(p, "a\nb\nc\n", "Time: 0\na\n", &r) == 1);
    GP_CHECK(r.n_diffs == 2);
    if (r.n_diffs == 2) {
        GP_CHECK(r.diffs[1].line == 2 && r.diffs[1].line_prof == 3);
        GP_CHECK_STR(r.diffs[1].native, "b");
        GP_CHECK(r.diffs[1].profiled == NULL);
        GP_CHECK(r.diffs[1].n_differ == 2);
    }
    /* a missing final newline is not a difference; an extra empty line is */
    GP_CHECK(compare(p, "a\nb", "a\nb\n", &r) == 0);
    GP_CHECK(compare(p, "a\n", "a\n\n", &r) == 1);
    /* without ignore rules the timing line counts */
    GP_CHECK(compare(NULL, "Time: 1\n", "Time: 2\n", &r) == 1);
    gpc_result_free(&r);
    gpc_suite_free(&s);
}

/* A comparison gives up when told to stop or past its deadline (every few
 * thousand lines), and a differing line is cut before a character. */
static void test_compare_bound(void)
{
    static volatile sig_atomic_t stop = 1;
    gpc_bound stopped = {0, &stop}, late = {1, NULL}, open_ = {0, NULL};
    size_t n = 20000 * 2, i;
    char *big = malloc(n + 1), *cut;
    gpc_result r;
    memset(&r, 0, sizeof r);
    if (!big)
        return;
    for (i = 0; i < n; i += 2)
        memcpy(big + i, "a\n", 2);
    big[n] = 0;
    GP_CHECK(gpc_compare_text(NULL, "stdout", big, n, big, n, &stopped, &r) == GPC_CMP_STOPPED);
    GP_CHECK(gpc_compare_text(NULL, "stdout", big, n, big, n, &late, &r) == GPC_CMP_LATE);
    GP_CHECK(gpc_compare_text(NULL, "stdout", big, n, big, n, &open_, &r) == 0);
    GP_CHECK(r.n_diffs == 0);
    free(big);
    /* "xé" cut at 2 bytes would end in half of é */
    cut = gpc_excerpt("x\xc3\xa9y", 4, 2);
    GP_CHECK(cut && strcmp(cut, "x") == 0);
    free(cut);
    cut = gpc_excerpt("x\xc3\xa9y", 4, 3);
    GP_CHECK(cut && strcmp(cut, "x\xc3\xa9") == 0);
    free(cut);
}

static void test_result_roundtrip(const char *tmp)
{
    gpc_result r, back;
    char err[512];
    memset(&r, 0, sizeof r);
    r.name = strdup("prog");
    r.cmd = strdup("echo \"quoted\"\t\\ tab");
    r.dir = strdup("/d");
    r.gpu = strdup("1");
    r.message = strdup("stdout differs");
    r.status = GPC_PROFILER_DEFECT;
    r.native = (gpc_exec){1, 0, 0, 0, 1.25};
    r.profiled = (gpc_exec){1, -1, 11, 0, 2.5};
    gpc_result_add_diff(&r, "stdout", 3, 4, "native \"line\"", NULL, 2);
    r.jsonl = calloc(1, sizeof *r.jsonl);
    r.jsonl[0] = strdup("gpuprof-12.jsonl");
    r.n_jsonl = 1;
    r.results = (gpc_validity){
        1, 0, 17, strdup("k<1>"), strdup("context \"lost\""), strdup("gpuprof-12.jsonl"), 2};
    GP_CHECK_MSG(gpc_result_save(&r, tmp, err, sizeof err) == 0, "%s", err);
    GP_CHECK_MSG(gpc_result_load(&back, tmp, err, sizeof err) == 0, "%s", err);
    GP_CHECK_STR(back.name, "prog");
    GP_CHECK_STR(back.cmd, r.cmd);
    GP_CHECK_STR(back.gpu, "1");
    GP_CHECK(back.status == GPC_PROFILER_DEFECT);
    GP_CHECK(back.native.ran && back.native.wall_s == 1.25 && back.native.exit_code == 0);
    GP_CHECK(back.profiled.signal == 11 && back.profiled.exit_code == -1);
    GP_CHECK(back.n_diffs == 1 && back.diffs[0].line == 3 && back.diffs[0].line_prof == 4 &&
             back.diffs[0].profiled == NULL && back.diffs[0].n_differ == 2);
    if (back.n_diffs)
        GP_CHECK_STR(back.diffs[0].native, "native \"line\"");
    GP_CHECK(back.n_jsonl == 1);
    GP_CHECK(back.results.known && !back.results.valid && back.results.from_launch == 17 &&
             back.results.n_invalid == 2);
    if (back.results.kernel && back.results.reason && back.results.file) {
        GP_CHECK_STR(back.results.kernel, "k<1>");
        GP_CHECK_STR(back.results.reason, "context \"lost\"");
        GP_CHECK_STR(back.results.file, "gpuprof-12.jsonl");
    } else {
        GP_CHECK_MSG(0, "broken results lost their kernel, reason or file");
    }
    gpc_result_free(&back);
    /* valid, and unknown (no summary record read) */
    free(r.results.kernel);
    free(r.results.reason);
    free(r.results.file);
    r.results = (gpc_validity){1, 1, -1, NULL, NULL, NULL, 0};
    GP_CHECK(gpc_result_save(&r, tmp, err, sizeof err) == 0 &&
             gpc_result_load(&back, tmp, err, sizeof err) == 0);
    GP_CHECK(back.results.known && back.results.valid && !back.results.reason);
    gpc_result_free(&back);
    r.results.known = 0;
    GP_CHECK(gpc_result_save(&r, tmp, err, sizeof err) == 0 &&
             gpc_result_load(&back, tmp, err, sizeof err) == 0);
    GP_CHECK(!back.results.known);
    gpc_result_free(&back);
    gpc_result_free(&r);
}

/* One profiler file of dir with the given text. */
static void put(const char *dir, const char *name, const char *text)
{
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if ((f = fopen(path, "w"))) {
        fputs(text, f);
        fclose(f);
    }
}

/* The profiled run's validity from the last line of each profiler file. */
static void test_validity(const char *tmp)
{
    static const char launch[] = "{\"type\":\"launch\",\"kernel\":\"k\"}\n";
    char dir[1024], *names[] = {"gpuprof-1.jsonl", "gpuprof-2.jsonl", "gpuprof-3.jsonl"};
    char text[1024], fifo[1100];
    gpc_validity v;
    snprintf(dir, sizeof dir, "%s/validity", tmp);
    mkdir(dir, 0777);
    /* no summary record (the process died): unknown */
    put(dir, names[0], launch);
    GP_CHECK(gpc_validity_read(&v, dir, names, 1) == 0 && !v.known && v.valid);
    /* the library's judgement, after blank lines, without a final newline */
    snprintf(text, sizeof text,
             "%s{\"type\":\"summary\",\"launches_not_executed\":0,\"results\":{\"valid\":false,"
             "\"from_launch\":5,\"kernel\":\"k\",\"reason\":\"fault\"}}\n\n",
             launch);
    put(dir, names[1], text);
    GP_CHECK(gpc_validity_read(&v, dir, names, 2) == 0);
    GP_CHECK(v.known && !v.valid && v.from_launch == 5 && v.n_invalid == 1);
    GP_CHECK(v.reason && strcmp(v.reason, "fault") == 0 && v.file &&
             strcmp(v.file, names[1]) == 0 && v.kernel && strcmp(v.kernel, "k") == 0);
    free(v.kernel);
    free(v.reason);
    free(v.file);
    /* valid says so even with launches not executed; an older record without
     * "results" counts them; an absurd launch number is dropped */
    put(dir, names[0],
        "{\"type\":\"summary\",\"launches_not_executed\":4,\"results\":{\"valid\":true}}");
    put(dir, names[1], "{\"type\":\"summary\",\"launches_not_executed\":1}\n");
    put(dir, names[2], "{\"type\":\"summary\",\"results\":{\"valid\":false,\"from_launch\":-3}}\n");
    GP_CHECK(gpc_validity_read(&v, dir, names, 1) == 0 && v.known && v.valid);
    GP_CHECK(gpc_validity_read(&v, dir, names, 3) == 0 && v.known && !v.valid && v.n_invalid == 2);
    GP_CHECK(v.reason && strstr(v.reason, "1 kernel launch the profiler intercepted never ran"));
    GP_CHECK(v.file && strcmp(v.file, names[1]) == 0 && v.from_launch == -1 && !v.kernel);
    free(v.reason);
    free(v.file);
    /* a FIFO under the name is never opened (it would block) */
    snprintf(fifo, sizeof fifo, "%s/%s", dir, names[0]);
    unlink(fifo);
    if (mkfifo(fifo, 0600) == 0) {
        GP_CHECK(gpc_validity_read(&v, dir, names, 1) == 0 && !v.known);
    }
}

/* A result directory of an ok program with a copy of a fixture. */
static void make_prog(const char *root, const char *name, const char *fixture, gpc_status st)
{
    char dir[1024], cmd[2048], err[256];
    gpc_result r;
    memset(&r, 0, sizeof r);
    snprintf(dir, sizeof dir, "%s/%s", root, name);
    mkdir(root, 0777);
    mkdir(dir, 0777);
    r.name = strdup(name);
    r.cmd = strdup("true");
    r.dir = strdup("/nowhere");
    r.message = strdup(st == GPC_OK ? "" : "differs");
    r.status = st;
    r.native = (gpc_exec){1, 0, 0, 0, 0.5};
    r.profiled = (gpc_exec){1, 0, 0, 0, 1.5};
    if (fixture) {
        snprintf(cmd, sizeof cmd, "cp tests/data/report/%s %s/gpuprof-7.jsonl", fixture, dir);
        GP_CHECK(system(cmd) == 0);
        r.jsonl = calloc(1, sizeof *r.jsonl);
        r.jsonl[0] = strdup("gpuprof-7.jsonl");
        r.n_jsonl = 1;
    }
    GP_CHECK_MSG(gpc_result_save(&r, dir, err, sizeof err) == 0, "%s", err);
    gpc_result_free(&r);
}

static char *summarize(char **dirs, size_t n, size_t *n_kernels,
                       int (*w)(const gpc_summary *, FILE *))
{
    gpc_summary s;
    char err[512], *buf = NULL;
    size_t len = 0, i;
    FILE *f;
    gpc_summary_init(&s, NULL);
    for (i = 0; i < n; i++)
        GP_CHECK_MSG(gpc_summary_add(&s, dirs[i], err, sizeof err) >= 0, "%s", err);
    GP_CHECK(gpc_summary_finish(&s, stderr) == 0);
    if (n_kernels)
        *n_kernels = s.n_kernels;
    f = open_memstream(&buf, &len);
    GP_CHECK(w(&s, f) == 0);
    fclose(f);
    gpc_summary_free(&s);
    return buf;
}

static void test_aggregate_and_merge(const char *tmp)
{
    char all[1024], sh1[1024], sh2[1024], err[512];
    char *one[1] = {all}, *two[2] = {sh1, sh2}, *rev[2] = {sh2, sh1};
    int (*writers[])(const gpc_summary *,
                     FILE *) = {gpc_summary_kernels_csv, gpc_summary_kernels_json,
                                gpc_summary_programs_csv, gpc_summary_text, gpc_summary_html};
    gp_report ref;
    gpc_summary s;
    size_t i, j, nk = 0;
    snprintf(all, sizeof all, "%s/all", tmp);
    snprintf(sh1, sizeof sh1, "%s/shard1", tmp);
    snprintf(sh2, sizeof sh2, "%s/shard2", tmp);
    make_prog(all, "planted", "h100-planted.jsonl", GPC_OK);
    make_prog(all, "second", "h100-second.jsonl", GPC_OK);
    make_prog(all, "broken", "h100-second.jsonl", GPC_PROFILER_DEFECT);
    make_prog(all, "nokernels", NULL, GPC_OK);
    make_prog(sh1, "second", "h100-second.jsonl", GPC_OK);
    make_prog(sh1, "nokernels", NULL, GPC_OK);
    make_prog(sh2, "planted", "h100-planted.jsonl", GPC_OK);
    make_prog(sh2, "broken", "h100-second.jsonl", GPC_PROFILER_DEFECT);

    /* aggregation: each program's kernels are the report library's */
    gpc_summary_init(&s, NULL);
    GP_CHECK(gpc_summary_add(&s, all, err, sizeof err) == 4);
    GP_CHECK(gpc_summary_finish(&s, stderr) == 0);
    gp_report_init(&ref, NULL);
    GP_CHECK(gp_report_load(&ref, "tests/data/report/h100-planted.jsonl", stderr) > 0);
    gp_report_finish(&ref);
    GP_CHECK(s.n == 4);
    if (s.n == 4) {
        GP_CHECK_STR(s.progs[0].res.name, "broken");
        GP_CHECK_STR(s.progs[1].res.name, "nokernels");
        GP_CHECK_STR(s.progs[2].res.name, "planted");
        GP_CHECK(s.progs[0].rep == NULL); /* a defect's kernels are left out */
        GP_CHECK(s.progs[1].rep && s.progs[1].rep->n == 0);
        GP_CHECK(s.progs[2].rep && s.progs[2].rep->n == ref.n);
        GP_CHECK(s.progs[3].rep && s.progs[3].rep->n == 1);
        GP_CHECK(s.n_kernels == ref.n + 1);
        for (i = 0; s.progs[2].rep && i < ref.n && i < s.progs[2].rep->n; i++) {
            const gp_kernel_report *a = &s.progs[2].rep->kernels[i], *b = &ref.kernels[i];
            GP_CHECK_STR(a->agg.kernel, b->agg.kernel);
            for (j = 0; j < gpc_n_classes; j++) {
                int m = gpc_classes[j].metric[0];
                double va = gpc_metric_value(a, m), vb = gpc_metric_value(b, m);
                GP_CHECK_MSG((isnan(va) && isnan(vb)) || va == vb, "%s %s", b->agg.kernel,
                             gpc_metric_name(m));
            }
            /* the FP class takes the kernel's main precision */
            {
                double fp = gpc_metric_value(a, GPC_FP_MAIN);
                int want = strcmp(a->roof.precision, "FP64") == 0   ? GP_M_FP64_UTIL
                           : strcmp(a->roof.precision, "FP16") == 0 ? GP_M_FP16_UTIL
                                                                    : GP_M_FP32_UTIL;
                GP_CHECK((isnan(fp) && isnan(a->agg.row.v[want])) || fp == a->agg.row.v[want]);
            }
        }
    }
    gp_report_free(&ref);
    gpc_summary_free(&s);

    /* merge: shards in any order give the same bytes as one directory */
    for (i = 0; i < sizeof writers / sizeof writers[0]; i++) {
        char *a = summarize(one, 1, &nk, writers[i]);
        char *b = summarize(two, 2, NULL, writers[i]);
        char *c = summarize(rev, 2, NULL, writers[i]);
        GP_CHECK_MSG(a && b && strcmp(a, b) == 0, "writer %zu: merge of shards differs", i);
        GP_CHECK_MSG(a && c && strcmp(a, c) == 0, "writer %zu: shard order matters", i);
        if (i == 0) { /* one CSV row per kernel */
            size_t rows = 0;
            const char *p;
            for (p = a; p && *p; p++)
                rows += *p == '\n';
            GP_CHECK_MSG(rows == nk + 1, "%zu CSV lines for %zu kernels", rows, nk);
        }
        if (i == 3) { /* the text names the planted problems and the defect */
            GP_CHECK(a && strstr(a, "[uncoalesced(load)]") && strstr(a, "[bank_conflicts]"));
            GP_CHECK(a && strstr(a, "PROFILER DEFECT in broken"));
            GP_CHECK_MSG(a && strstr(a, "below 50.0% (uncoalesced, strided, broadcast or narrow "
                                        "accesses): 1"),
                         "%s", a ? a : "");
        }
        free(a);
        free(b);
        free(c);
    }
    /* the same program twice is an error naming both */
    {
        gpc_summary d;
        gpc_summary_init(&d, NULL);
        GP_CHECK(gpc_summary_add(&d, all, err, sizeof err) == 4);
        GP_CHECK(gpc_summary_add(&d, sh1, err, sizeof err) < 0);
        GP_CHECK(strstr(err, "two results") != NULL);
        gpc_summary_free(&d);
    }
}

/* Kernels that never touch shared memory (0 shared wavefronts) have no
 * shared-memory efficiency: left out of the class, counted apart, never
 * "below 50%" (the old study put 0% and "bank conflicts" on them). */
static void test_absent(const char *tmp)
{
    char root[1024], *dirs[1] = {root};
    char *text, *html;
    snprintf(root, sizeof root, "%s/absent", tmp);
    make_prog(root, "planted", "h100-planted-wavefronts.jsonl", GPC_OK);
    text = summarize(dirs, 1, NULL, gpc_summary_text);
    html = summarize(dirs, 1, NULL, gpc_summary_html);
    /* 11 kernels (tiny_kernel's three launches are one): 8 of them have no
     * shared access, smem_bank_conflict (3.1%) and sgemm_tiled (100%) have
     * a value, reduce_partial's record lacks the counters */
    GP_CHECK_MSG(text && strstr(text, "shared_efficiency: 2 kernels with a value, 1 n/a; 7 kernels "
                                      "without shared-memory accesses (left out)"),
                 "%s", text ? text : "");
    GP_CHECK_MSG(text && strstr(text, "below 50.0% (bank conflicts, broadcasts or narrow "
                                      "accesses): 1   between: 0   above 90.0% (wavefronts "
                                      "mostly full): 1"),
                 "%s", text ? text : "");
    GP_CHECK(html && strstr(html, "7 kernels without shared-memory accesses left out."));
    free(text);
    free(html);
}

int main(void)
{
    char tmp[] = "/tmp/gpc-test.XXXXXX", cmd[256];
    test_parse_ok();
    test_parse_errors();
    test_parse_nul();
    test_compare();
    test_compare_bound();
    if (!mkdtemp(tmp)) {
        gp_test_skip("result files", "no temporary directory");
        return gp_test_finish("characterize");
    }
    test_result_roundtrip(tmp);
    test_validity(tmp);
    test_aggregate_and_merge(tmp);
    test_absent(tmp);
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return gp_test_finish("characterize");
}
