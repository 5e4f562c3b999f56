/* test_against.c - gpuprof-report --against without files: Nsight Compute's
 * raw CSV reader (metrics/ncu/ncu_raw.c: numbers, quoting, what it passes over,
 * each malformed table refused with its line) and the judging
 * (metrics/ncu/against.c: the tolerance classes and their edges, matching by
 * short name and ordinal, n/a against 0, percentages over 100, a second ncu
 * run setting pairs apart, the DRAM-alone run, devices, metrics on one side,
 * the exit status). */
#include <math.h>
#include <stdlib.h>

#include "metrics/ncu/against.h"
#include "gp_test.h"
#include "metrics/ncu/ncu_raw.h"

static int load(gp_ncu_table *t, const char *text, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    int rc = gp_ncu_raw_load_stream(t, f, "t.csv", err, errlen);
    fclose(f);
    return rc;
}

static void test_numbers(void)
{
    double v = 0;
    GP_CHECK(gp_ncu_raw_number("1,234,567", 9, &v) && v == 1234567);
    GP_CHECK(gp_ncu_raw_number("1,234.5", 7, &v) && v == 1234.5);
    GP_CHECK(gp_ncu_raw_number("12.5", 4, &v) && v == 12.5);
    GP_CHECK(gp_ncu_raw_number("-3e2", 4, &v) && v == -300);
    GP_CHECK(gp_ncu_raw_number(" 7 ", 3, &v) && v == 7);
    GP_CHECK(gp_ncu_raw_number("0", 1, &v) && v == 0);
    GP_CHECK(!gp_ncu_raw_number("1,23", 4, &v));
    GP_CHECK(!gp_ncu_raw_number("1234,567", 8, &v));
    GP_CHECK(!gp_ncu_raw_number(",123", 4, &v));
    GP_CHECK(!gp_ncu_raw_number("n/a", 3, &v));
    GP_CHECK(!gp_ncu_raw_number("inf", 3, &v));
    GP_CHECK(!gp_ncu_raw_number("nan", 3, &v));
    GP_CHECK(!gp_ncu_raw_number("", 0, &v));
    GP_CHECK(!gp_ncu_raw_number("12abc", 5, &v));
    GP_CHECK(!gp_ncu_raw_number("1e", 2, &v));
    GP_CHECK(!gp_ncu_raw_number("1e999", 5, &v));
    GP_CHECK(gp_ncu_raw_scaled_unit("Kbyte") && gp_ncu_raw_scaled_unit("usecond") &&
             gp_ncu_raw_scaled_unit("cycle/Gsecond") && gp_ncu_raw_scaled_unit("Ghz") &&
             gp_ncu_raw_scaled_unit("MB"));
    GP_CHECK(!gp_ncu_raw_scaled_unit("byte") && !gp_ncu_raw_scaled_unit("nsecond") &&
             !gp_ncu_raw_scaled_unit("cycle/second") && !gp_ncu_raw_scaled_unit("%") &&
             !gp_ncu_raw_scaled_unit("") && !gp_ncu_raw_scaled_unit("inst"));
}

static const char good[] =
    "==PROF== Connected to process 12 (/bin/prog)\n"
    "program output, \"with a quote\nID,a line that looks like a header\n"
    "\"ID\",\"Process ID\",\"Kernel Name\",\"Block Size\",\"CC\",\"x__a.sum\",\"x__b.pct\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"inst\",\"%\"\n"
    "\"0\",\"12\",\"void k<int>(float*, int)\",\"(256, 1, 1)\",\"9.0\",\"1,048,576\",\"n/a\"\n"
    "==PROF== Disconnected from process 12\n"
    "\n"
    "\"ID\",\"Process ID\",\"Kernel Name\",\"Block Size\",\"CC\",\"x__a.sum\",\"x__b.pct\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"inst\",\"%\"\n"
    "1,13,\"say \"\"hi\"\"\",\"(1, 1, 1)\",9.0,12.5,\r\n";

static void test_reader(void)
{
    gp_ncu_table t;
    char err[300];
    GP_CHECK_MSG(load(&t, good, err, sizeof err) == 0, "%s", err);
    GP_CHECK(t.n_cols == 7 && t.n_rows == 2);
    if (t.n_rows == 2) {
        long a = gp_ncu_raw_col(&t, "x__a.sum"), b = gp_ncu_raw_col(&t, "x__b.pct");
        GP_CHECK_STR(t.rows[0].kernel, "void k<int>(float*, int)");
        GP_CHECK_STR(t.rows[1].kernel, "say \"hi\"");
        GP_CHECK(t.rows[0].kind[a] == GP_NCU_NUM && t.rows[0].v[a] == 1048576);
        GP_CHECK(t.rows[0].kind[b] == GP_NCU_NA && isnan(t.rows[0].v[b]));
        GP_CHECK(t.rows[1].kind[a] == GP_NCU_NUM && t.rows[1].v[a] == 12.5);
        GP_CHECK(t.rows[1].kind[b] == GP_NCU_EMPTY);
        GP_CHECK(t.rows[0].kind[gp_ncu_raw_col(&t, "Block Size")] == GP_NCU_TEXT);
        GP_CHECK_STR(t.rows[1].cc, "9.0");
        GP_CHECK(t.rows[0].device == NULL);
        GP_CHECK(t.rows[0].id == 0 && t.rows[1].id == 1 && t.rows[0].line == 6 &&
                 t.rows[1].line == 11);
        GP_CHECK_STR(t.units[a], "inst");
        GP_CHECK(gp_ncu_raw_is_metric(&t, (size_t)a) &&
                 !gp_ncu_raw_is_metric(&t, (size_t)gp_ncu_raw_col(&t, "CC")));
    }
    gp_ncu_raw_free(&t);
    /* a table with no units row and no launch */
    GP_CHECK(load(&t, "\"ID\",\"Process ID\",\"Kernel Name\"\n", err, sizeof err) == 0 &&
             t.n_rows == 0);
    gp_ncu_raw_free(&t);
}

/* text must be refused with a message holding want */
static void refused(const char *text, const char *want)
{
    gp_ncu_table t;
    char err[300] = "";
    int rc = load(&t, text, err, sizeof err);
    GP_CHECK_MSG(rc < 0 && strstr(err, want), "'%s' does not say '%s'", err, want);
    GP_CHECK(t.n_rows == 0 && t.rows == NULL && t.cols == NULL);
    if (rc == 0)
        gp_ncu_raw_free(&t);
}

static void test_malformed(void)
{
    static const char head[] = "\"ID\",\"Process ID\",\"Kernel Name\",\"x__a.sum\"\n"
                               "\"\",\"\",\"\",\"inst\"\n";
    char buf[512];
    refused("hello\nworld\n", "t.csv: no Nsight Compute raw table");
    refused("", "no Nsight Compute raw table");
    snprintf(buf, sizeof buf, "%s\"0\",\"1\",\"k\"\n", head);
    refused(buf, "t.csv:3: malformed Nsight Compute CSV: 3 fields where the header has 4");
    snprintf(buf, sizeof buf, "%s\"0\",\"1\",\"k\",\"2\",\"3\"\n", head);
    refused(buf, "t.csv:3: malformed Nsight Compute CSV: more than 4 fields");
    snprintf(buf, sizeof buf, "%s\"0\",\"1\",\"k(int,\n float)\",\"2\"\n", head);
    refused(buf, "t.csv:3: malformed Nsight Compute CSV: the quote opened at column 9");
    snprintf(buf, sizeof buf, "%s\"0\",\"1\",\"k\"x,\"2\"\n", head);
    refused(buf, "t.csv:3: malformed Nsight Compute CSV: text after the closing quote");
    snprintf(buf, sizeof buf, "%s\"zero\",\"1\",\"k\",\"2\"\n", head);
    refused(buf, "t.csv:3: malformed Nsight Compute CSV: the ID 'zero' is not a launch number");
    snprintf(buf, sizeof buf, "%s\"0\",\"1\",\"k\",\"2\"\nsome text\n", head);
    refused(buf, "t.csv:4: malformed Nsight Compute CSV");
    refused("\"ID\",\"Process ID\",\"x\",\"x\"\n", "t.csv:1: malformed Nsight Compute CSV: the "
                                                   "column 'x' is named twice");
    refused("\"ID\",\"Process ID\",\"Name\"\n", "t.csv:1: malformed Nsight Compute CSV: the "
                                                "header has no 'Kernel Name' column");
    refused("\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric "
            "Value\"\n",
            "t.csv:1: this is Nsight Compute's --page details layout");
    snprintf(buf, sizeof buf, "%s\"ID\",\"Process ID\",\"Kernel Name\",\"y__b.sum\"\n", head);
    refused(buf, "t.csv:3: malformed Nsight Compute CSV: a second header with other columns");
}

/* ---- judging ---- */

static void test_classes(void)
{
    const gp_against_class_info *c = gp_against_classes();
    double rel;
    GP_CHECK(gp_against_class_of("sm__inst_executed.sum") == GP_AG_COUNT);
    GP_CHECK(gp_against_class_of("l1tex__t_sector_hit_rate.pct") == GP_AG_PERCENT);
    GP_CHECK(gp_against_class_of("smsp__average_thread_inst_executed_per_inst_executed.ratio") ==
             GP_AG_RATIO);
    GP_CHECK(gp_against_class_of("sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_"
                                 "active") == GP_AG_RATIO);
    GP_CHECK(gp_against_class_of("dram__bytes.sum.peak_sustained") == GP_AG_CONSTANT);
    GP_CHECK(gp_against_class_of("gpuprof__sass_requested_bytes_mem_shared.sum") == GP_AG_OWN);
    GP_CHECK(c[GP_AG_OWN].flags & GP_AG_SKIP);
    GP_CHECK(gp_against_class_of("gpu__time_duration.sum") == GP_AG_DURATION);
    GP_CHECK(gp_against_class_of("sm__cycles_elapsed.avg.per_second") == GP_AG_RATE);
    GP_CHECK(gp_against_class_of("dram__bytes.sum.per_second") == GP_AG_RATE);
    GP_CHECK(gp_against_class_of("sm__cycles_elapsed.avg") == GP_AG_CYCLES);
    GP_CHECK(gp_against_class_of("sm__pipe_tensor_cycles_active.sum") == GP_AG_CYCLES);
    GP_CHECK(gp_against_class_of("smsp__cycles_issued.sum") == GP_AG_COUNT);
    GP_CHECK(gp_against_class_of("dram__bytes_write.sum") == GP_AG_BYTES);
    GP_CHECK(c[GP_AG_CONSTANT].flags & GP_AG_SKIP);
    GP_CHECK((c[GP_AG_PERCENT].flags & GP_AG_OVER_100) && !(c[GP_AG_RATIO].flags & GP_AG_OVER_100));
    /* the edges of each class */
    GP_CHECK(gp_against_agrees(GP_AG_COUNT, 102, 100, &rel) && fabs(rel - 0.02) < 1e-12);
    GP_CHECK(!gp_against_agrees(GP_AG_COUNT, 102.01, 100, &rel));
    GP_CHECK(!gp_against_agrees(GP_AG_COUNT, 1, 0, &rel) && isinf(rel));
    GP_CHECK(gp_against_agrees(GP_AG_COUNT, 0, 0, &rel) && rel == 0);
    GP_CHECK(gp_against_agrees(GP_AG_PERCENT, 2.0, 1.0, &rel) && rel == 1.0); /* 1 point */
    GP_CHECK(!gp_against_agrees(GP_AG_PERCENT, 2.01, 1.0, &rel));
    GP_CHECK(gp_against_agrees(GP_AG_PERCENT, 52.5, 50, &rel));
    GP_CHECK(gp_against_agrees(GP_AG_BYTES, 65536, 0, &rel));
    GP_CHECK(!gp_against_agrees(GP_AG_BYTES, 65537, 0, &rel));
    GP_CHECK(gp_against_agrees(GP_AG_BYTES, 1.05e7, 1e7, &rel));
    GP_CHECK(!gp_against_agrees(GP_AG_BYTES, 1.06e7, 1e7, &rel));
    GP_CHECK(gp_against_agrees(GP_AG_DURATION, 2500, 2000, &rel)); /* 25%, but 500 ns */
    GP_CHECK(!gp_against_agrees(GP_AG_DURATION, 2501, 2000, &rel));
    GP_CHECK(gp_against_agrees(GP_AG_CYCLES, 4000, 3000, &rel)); /* 1000 cycles */
    GP_CHECK(!gp_against_agrees(GP_AG_CYCLES, 4001, 3000, &rel));
    GP_CHECK(gp_against_agrees(GP_AG_RATE, 1.05e9, 1e9, &rel));
    GP_CHECK(!gp_against_agrees(GP_AG_RATE, 1.0e9 + 999, 0, &rel)); /* no floor */
    GP_CHECK(gp_against_is_one_pass("dram__bytes_write.sum") &&
             gp_against_is_one_pass("dram__throughput.avg.pct_of_peak_sustained_elapsed") &&
             gp_against_is_one_pass("lts__t_bytes.sum") &&
             !gp_against_is_one_pass("dram__bytes_read.sum"));
}

/* ncu tables for the judging tests: columns x__inst.sum, x__hit.pct,
 * dram__bytes_write.sum. */
static void table(gp_ncu_table *t, const char *rows)
{
    char text[4096], err[300];
    snprintf(text, sizeof text,
             "\"ID\",\"Process ID\",\"Kernel Name\",\"CC\",\"x__inst.sum\",\"x__hit.pct\","
             "\"dram__bytes_write.sum\",\"y__only.sum\"\n"
             "\"\",\"\",\"\",\"\",\"inst\",\"%%\",\"byte\",\"\"\n%s",
             rows);
    GP_CHECK_MSG(load(t, text, err, sizeof err) == 0, "%s", err);
}

static void test_judge(void)
{
    static double v0[] = {100, NAN, 5}, v1[] = {200, 10, 5}, v2[] = {300, 0, 5}, v3[] = {1, 1, 1};
    static char *nm[] = {"x__inst.sum", "x__hit.pct", "x__t.sum.peak_sustained"};
    static char *nm_w[] = {"x__inst.sum", "dram__bytes_write.sum", "z__gp_only.sum"};
    static double w0[] = {100, 20000, 1};
    gp_against_launch l[4] = {
        {"void ns::k<int>(float*)", 3, nm, v0, "NVIDIA H100", 9, 0},
        {"void ns::k<int>(float*)", 3, nm, v1, "NVIDIA H100", 9, 0},
        {"other(int)", 3, nm, v2, NULL, -1, -1},
        {"gp_only()", 3, nm, v3, NULL, -1, -1},
    };
    gp_ncu_table o, o2, d;
    gp_against_result res;
    const gp_ncu_table *again[1];
    table(&o, "\"0\",\"1\",\"k\",\"9.0\",\"101\",\"0\",\"0\",\"1\"\n"   /* k#0: n/a vs 0 */
              "\"1\",\"1\",\"k\",\"9.0\",\"230\",\"105\",\"0\",\"1\"\n" /* k#1: differ, over 100 */
              "\"2\",\"1\",\"other\",\"8.0\",\"300\",\"n/a\",\"0\",\"1\"\n" /* g 0 vs n/a */
              "\"3\",\"1\",\"ncu_only\",\"9.0\",\"1\",\"1\",\"0\",\"1\"\n");
    GP_CHECK(gp_against_judge(l, 4, &o, NULL, 0, NULL, NULL, &res) == 0);
    GP_CHECK(res.n_metrics == 2); /* the peak is not compared, dram not in the launches */
    GP_CHECK(res.agree == 4 && res.differ == 1 && res.over100 == 1 && res.unstable == 0);
    GP_CHECK(res.n_gpuprof_only == 1 && res.n_ncu_only == 1 && res.n_unmatched == 2);
    GP_CHECK(res.unmatched[0].side == GP_AG_GPUPROF_ONLY && res.unmatched[0].index == 3);
    GP_CHECK(res.unmatched[1].side == GP_AG_NCU_ONLY && res.unmatched[1].index == 3);
    GP_CHECK_STR(res.shortname[0], "k");
    GP_CHECK(res.ordinal[1] == 1 && res.ordinal[2] == 0);
    GP_CHECK(res.device_mismatch == 0);    /* "other" has no device record */
    GP_CHECK(res.n_ncu_only_metrics == 2); /* dram__bytes_write.sum, y__only.sum */
    if (res.n_metrics == 2) {
        const gp_against_metric *hit = &res.metrics[0], *inst = &res.metrics[1];
        GP_CHECK_STR(hit->name, "x__hit.pct");
        GP_CHECK(hit->pairs == 2 && hit->agree == 2 && hit->over100 == 1);
        GP_CHECK(inst->pairs == 3 && inst->agree == 2 && inst->worst_pair >= 0);
        GP_CHECK(fabs(inst->worst - 30.0 / 230) < 1e-12);
        GP_CHECK(fabs(inst->median - 1.0 / 101) < 1e-12); /* of 0, 1/101, 30/230 */
        GP_CHECK(res.pairs[inst->worst_pair].launch == 1);
    }
    GP_CHECK(gp_against_status(&res) == 1);
    gp_against_free(&res);

    /* a second ncu run: k#1's instructions set apart (230 against 300) */
    table(&o2, "\"0\",\"1\",\"k\",\"9.0\",\"101\",\"0\",\"0\",\"1\"\n"
               "\"1\",\"1\",\"k\",\"9.0\",\"300\",\"105\",\"0\",\"1\"\n");
    again[0] = &o2;
    GP_CHECK(gp_against_judge(l, 3, &o, again, 1, NULL, NULL, &res) == 0);
    GP_CHECK(res.agree == 4 && res.differ == 0 && res.unstable == 1 && res.unstable_agree == 0);
    GP_CHECK(res.n_unmatched == 1 && gp_against_status(&res) == 3);
    gp_against_free(&res);

    /* the devices differ: cc 8.0 in ncu's row for a launch on 9.0 */
    l[2].cc_major = 9;
    l[2].cc_minor = 0;
    GP_CHECK(gp_against_judge(l, 3, &o, again, 1, NULL, NULL, &res) == 0);
    GP_CHECK(res.device_mismatch == 1 && strstr(res.device_ncu, "8.0"));
    gp_against_free(&res);

    /* DRAM writes: against the DRAM-alone run when it has the launch, and
     * never set apart by the second full-list run */
    gp_ncu_raw_free(&o);
    gp_ncu_raw_free(&o2);
    l[0].names = nm_w;
    l[0].values = w0;
    table(&o, "\"0\",\"1\",\"k\",\"9.0\",\"100\",\"0\",\"2000000\",\"1\"\n");
    table(&o2, "\"0\",\"1\",\"k\",\"9.0\",\"100\",\"0\",\"900000\",\"1\"\n");
    {
        char err[300];
        GP_CHECK(load(&d,
                      "\"ID\",\"Process ID\",\"Kernel Name\",\"dram__bytes_write.sum\"\n"
                      "\"0\",\"1\",\"k\",\"30000\"\n",
                      err, sizeof err) == 0);
    }
    GP_CHECK(gp_against_judge(l, 1, &o, NULL, 0, NULL, NULL, &res) == 0);
    GP_CHECK(res.agree == 1 && res.differ == 1 && res.n_gpuprof_only_metrics == 1);
    GP_CHECK_STR(res.gpuprof_only_metrics[0], "z__gp_only.sum");
    gp_against_free(&res);
    GP_CHECK(gp_against_judge(l, 1, &o, again, 1, NULL, NULL, &res) == 0);
    GP_CHECK(res.agree == 1 && res.unstable == 1); /* the full-list runs disagree */
    gp_against_free(&res);
    GP_CHECK(gp_against_judge(l, 1, &o, again, 1, &d, NULL, &res) == 0);
    GP_CHECK(res.agree == 2 && res.differ == 0 && res.unstable == 0);
    GP_CHECK(res.n_pairs == 2 && res.pairs[0].from_one_pass && res.pairs[0].n == 30000);
    GP_CHECK(gp_against_status(&res) == 0); /* z__gp_only.sum: listed, not partial */
    gp_against_free(&res);
    {
        /* a second one-pass run: a value it repeats is judged as before, one
         * it does not repeat is set apart (the full-list runs never set the
         * one-pass metrics apart) */
        gp_ncu_table d2, d3;
        char err[300];
        GP_CHECK(load(&d2,
                      "\"ID\",\"Process ID\",\"Kernel Name\",\"dram__bytes_write.sum\"\n"
                      "\"0\",\"1\",\"k\",\"30100\"\n",
                      err, sizeof err) == 0);
        GP_CHECK(load(&d3,
                      "\"ID\",\"Process ID\",\"Kernel Name\",\"dram__bytes_write.sum\"\n"
                      "\"0\",\"1\",\"k\",\"200000\"\n",
                      err, sizeof err) == 0);
        GP_CHECK(gp_against_judge(l, 1, &o, again, 1, &d, &d2, &res) == 0);
        GP_CHECK(res.agree == 2 && res.unstable == 0 && res.pairs[0].from_one_pass);
        gp_against_free(&res);
        GP_CHECK(gp_against_judge(l, 1, &o, again, 1, &d, &d3, &res) == 0);
        GP_CHECK(res.agree == 1 && res.unstable == 1 && res.unstable_agree == 1);
        GP_CHECK(res.n_pairs == 2 && res.pairs[0].outcome == GP_AG_UNSTABLE &&
                 res.pairs[0].n == 30000 && res.pairs[0].n2 == 200000 && res.pairs[0].again == 1);
        gp_against_free(&res);
        /* without the first one-pass run the second one judges nothing */
        GP_CHECK(gp_against_judge(l, 1, &o, NULL, 0, NULL, &d3, &res) == 0);
        GP_CHECK(res.unstable == 0 && !res.pairs[0].from_one_pass);
        gp_against_free(&res);
        gp_ncu_raw_free(&d2);
        gp_ncu_raw_free(&d3);
    }

    /* nothing in common: not a success */
    l[0].kernel = "elsewhere()";
    GP_CHECK(gp_against_judge(l, 1, &o, NULL, 0, NULL, NULL, &res) == 0);
    GP_CHECK(res.agree == 0 && res.differ == 0 && gp_against_status(&res) == 1);
    gp_against_free(&res);
    GP_CHECK(gp_against_judge(l, 0, &o, NULL, 0, NULL, NULL, &res) == 0);
    GP_CHECK(gp_against_status(&res) == 1 && res.n_ncu_only == 1);
    gp_against_free(&res);
    gp_ncu_raw_free(&o);
    gp_ncu_raw_free(&o2);
    gp_ncu_raw_free(&d);
}

int main(void)
{
    test_numbers();
    test_reader();
    test_malformed();
    test_classes();
    test_judge();
    return gp_test_finish("against");
}
