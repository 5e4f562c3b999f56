/* test_output.c - the CSV and JSON-lines writers: escaping, NaN as null /
 * empty (never 0), units in the header, the summary record. */
#include "preload/output.h"
#include "preload/summary.h"
#include "tests/unit/gp_test.h"

#include <stdlib.h>

static void w_json(FILE *f, const void *r) { gp_json_write_launch(f, r); }
static void w_csvh(FILE *f, const void *r) { gp_csv_write_header(f, r); }
static void w_csv(FILE *f, const void *r) { gp_csv_write_launch(f, r); }
static void w_dev(FILE *f, const void *d) { gp_json_write_device(f, d); }
static void w_sum(FILE *f, const void *s) { gp_summary_write_json(s, f, NULL); }
static void w_print(FILE *f, const void *s) { gp_summary_print(s, f, "out/base", 1, 1, -1); }
static void w_sum_extra_member(FILE *f) { fputs(",\"extra\":1", f); }
static void w_sum_extra(FILE *f, const void *s)
{
    gp_summary_write_json(s, f, w_sum_extra_member);
}
static void w_print_window2(FILE *f, const void *s)
{
    gp_summary_print(s, f, "out/base", 1, 1, 2);
}

int main(void)
{
    const char *names[] = {"dram__bytes_read.sum", "gpu__time_duration.sum",
                           "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"};
    const char *units[] = {"byte", "ns", "inst"};
    double values[] = {1048576.0, 2500.5, NAN};
    const char *missing[] = {NULL, NULL, "not collected: no memory for a replay snapshot"};
    gp_launch_record r = {0};
    r.rank = -1;
    r.launch_id = 7;
    r.pid = 99;
    r.host = "node\"1";
    r.kernel = "void k<int, 2>(float*, int)";
    r.mangled = "_Z1kILi2EEvPfi";
    r.api = "cuLaunchKernel";
    r.grid[0] = 4, r.grid[1] = r.grid[2] = 1;
    r.block[0] = 256, r.block[1] = r.block[2] = 1;
    r.cluster[0] = r.cluster[1] = r.cluster[2] = 1;
    r.regs_per_thread = 32;
    r.passes = 2;
    r.snapshot = "device";
    r.bytes_saved = r.bytes_restored = 4096;
    r.replay_ms = 1.25;
    r.caches_flushed = 1;
    r.n_metrics = 3;
    r.metric_names = names;
    r.metric_units = units;
    r.values = values;
    r.missing = missing;

    char *j = gp_test_capture(w_json, &r);
    GP_CHECK(strstr(j, "\"caches\":\"flushed\"") != NULL);
    r.caches_flushed = 2; /* L2 alone (GPUPROF_CACHE_CONTROL=l2) */
    char *j2 = gp_test_capture(w_json, &r);
    GP_CHECK(strstr(j2, "\"caches\":\"l2-flushed\"") != NULL);
    free(j2);
    r.caches_flushed = 1;
    GP_CHECK(strstr(j, "\"type\":\"launch\"") && strstr(j, "\"launch_id\":7"));
    GP_CHECK(strstr(j, "\"host\":\"node\\\"1\"") != NULL); /* quote escaped */
    GP_CHECK(strstr(j, "\"dram__bytes_read.sum\":1048576") != NULL);
    GP_CHECK(strstr(j, "\"gpu__time_duration.sum\":2500.5") != NULL);
    GP_CHECK(strstr(j, "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\":null") != NULL);
    GP_CHECK(strstr(j, "\"missing\":{\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\":"
                       "\"not collected: no memory for a replay snapshot\"}") != NULL);
    GP_CHECK(strstr(j, "\"grid\":[4,1,1]") && strstr(j, "\"passes\":2"));
    GP_CHECK(j[strlen(j) - 1] == '\n' && strchr(j, '\n') == j + strlen(j) - 1); /* one line */
    GP_CHECK(strstr(j, "\"rank\"") == NULL); /* rank 0 is a rank: this record has none */
    free(j);
    r.rank = 3;
    r.process = "train.py";
    j = gp_test_capture(w_json, &r);
    GP_CHECK(strstr(j, "\"process\":\"train.py\",\"rank\":3,\"device\":") != NULL);
    free(j);
    r.rank = -1;
    r.process = NULL;

    char *h = gp_test_capture(w_csvh, &r);
    GP_CHECK(strncmp(h, "launch_id,device,context,stream,kernel,mangled,", 47) == 0);
    GP_CHECK(strstr(h, ",dram__bytes_read.sum [byte],gpu__time_duration.sum [ns],") != NULL);
    free(h);
    char *c = gp_test_capture(w_csv, &r);
    GP_CHECK(strstr(c, ",\"void k<int, 2>(float*, int)\",") != NULL); /* quoted: has commas */
    size_t l = strlen(c);
    GP_CHECK(l > 2 && strcmp(c + l - 2, ",\n") == 0); /* missing value: empty, not 0 */
    GP_CHECK(strstr(c, ",1048576,2500.5,") != NULL);
    free(c);

    gp_device_facts d = {0};
    d.ordinal = 0;
    strcpy(d.name, "NVIDIA H100 80GB HBM3");
    strcpy(d.chip, "GH100");
    d.sm_count = 132;
    d.warp_size = 32;
    d.max_threads_per_sm = 2048;
    d.mem_clock_khz = 2619000;
    d.mem_bus_width_bits = 5120;
    char *dj = gp_test_capture(w_dev, &d);
    GP_CHECK(strstr(dj, "\"chip\":\"GH100\"") && strstr(dj, "\"max_warps_per_sm\":64"));
    GP_CHECK(strstr(dj, "\"dram_bytes_per_s_theoretical\":3352320000000") != NULL);
    free(dj);

    gp_summary s;
    gp_summary_init(&s);
    s.launches_seen = 5;
    s.launches_profiled = 2;
    s.passes = 4;
    gp_summary_skip(&s, "name filter");
    gp_summary_skip(&s, "name filter");
    gp_summary_skip(&s, "launch skip");
    gp_summary_unprofiled(&s, 3, "k", "launched during stream capture");
    gp_summary_kernel_seen(&s, 11, "k", 1);
    gp_summary_kernel_seen(&s, 12, "k", 0);
    gp_summary_activity(&s, 11, 1000, "_Z6kernelPfi", 0);
    gp_summary_activity(&s, 99, 1000, "k", 0); /* a replay pass: not the program's */
    char *sj = gp_test_capture(w_sum, &s);
    GP_CHECK(strstr(sj, "\"skipped\":{\"name filter\":2,\"launch skip\":1}") != NULL);
    GP_CHECK(strstr(sj, "\"launches_activity\":1") && strstr(sj, "\"launches_not_executed\":1"));
    GP_CHECK(strstr(sj, "{\"launch_id\":3,\"kernel\":\"k\",\"reason\":\"launched during stream capture\"}") != NULL);
    free(sj);
    char *sp = gp_test_capture(w_print, &s);
    GP_CHECK(strstr(sp, "5 kernel launches seen, 2 profiled in 4 passes, 3 not profiled") != NULL);
    GP_CHECK(strstr(sp, "2 name filter, 1 launch skip") != NULL);
    GP_CHECK(strstr(sp, "results: out/base.jsonl, out/base.csv") != NULL);
    GP_CHECK(strstr(sp, "1 x  kernel\n") != NULL); /* demangled, parameters dropped */
    /* the cross-check's counts: with all launches, the window is not named */
    GP_CHECK_MSG(strstr(sp, "cross-check: 2 launches seen by callbacks; 1 executed per activity "
                            "records, 0 profiled (agree); 1 did not execute") != NULL,
                 "%s", sp);
    free(sp);
    sp = gp_test_capture(w_print_window2, &s);
    GP_CHECK_MSG(strstr(sp, "cross-check of the first 2 launches: 1 executed") != NULL, "%s", sp);
    free(sp);
    /* the set-up time and its parts, in the record and, when a part is worth
     * naming, in the line */
    s.profiler_s = 3.0;
    s.setup_s = 0.05;
    sp = gp_test_capture(w_print, &s);
    GP_CHECK_MSG(strstr(sp, "the profiler added 3.000 s, 0.050 s of it setting up (1500.0 ms") != NULL, "%s",
                 sp);
    free(sp);
    s.setup_s = 2.5;
    s.setup_grouping_s = 1.25;
    s.setup_warmup_s = 0.5;
    sp = gp_test_capture(w_print, &s);
    GP_CHECK_MSG(strstr(sp, "2.500 s of it setting up (1.250 s splitting the metric list, 0.500 s "
                            "warming up)") != NULL,
                 "%s", sp);
    free(sp);
    sj = gp_test_capture(w_sum, &s);
    GP_CHECK_MSG(strstr(sj, "\"setup_ms\":2500.000,\"setup_grouping_ms\":1250.000,"
                            "\"setup_warmup_ms\":500.000,") != NULL,
                 "%s", sj);
    free(sj);
    /* where the time went: every part in the record, those of a
     * millisecond or more in the line, the rest as other; splits cached */
    s.times_known = 1;
    s.profiler_s = 10.0;
    s.start_s = 0.2;
    s.t_first = 1.5;
    s.t_passes = 3.25;
    s.t_snapshots = 0.25;
    s.t_restores = 0.5;
    s.t_waiting = 1.0;
    s.splits_cached = 2;
    atomic_store(&s.lock_wait_ns, 750000000u);
    sp = gp_test_capture(w_print, &s);
    GP_CHECK_MSG(strstr(sp, "where the profiler's time went: start-up 0.200 s, set-up 2.500 s "
                            "(splitting the metric list 1.250 s: 2 splits from the set-up cache, "
                            "0 made afresh; warm-up and flush kernels 0.500 s), first launches in "
                            "kernel replay 1.500 s, passes 3.250 s, snapshots 0.250 s, restores "
                            "0.500 s, waiting for the program's work 1.000 s, other (records, "
                            "decisions) 0.800 s; and 0.750 s waiting for the program's other "
                            "threads\n") != NULL,
                 "%s", sp);
    free(sp);
    sj = gp_test_capture(w_sum, &s);
    GP_CHECK_MSG(strstr(sj, "\"time_ms\":{\"start\":200.000,\"setup\":2500.000,"
                            "\"setup_grouping\":1250.000,\"setup_warmup\":500.000,"
                            "\"first_launches\":1500.000,\"passes\":3250.000,\"snapshots\":250.000,"
                            "\"restores\":500.000,\"waiting\":1000.000,\"other\":800.000,"
                            "\"lock_wait\":750.000},\"setup_splits\":{\"cached\":2,\"made\":0},") &&
                     strstr(sj, "\"setup_ms\":2500.000"),
                 "%s", sj);
    free(sj);
    /* parts adding up to more than the total: a bug, never a negative other */
    s.t_passes = 9.0;
    sp = gp_test_capture(w_print, &s);
    sj = gp_test_capture(w_sum, &s);
    GP_CHECK_MSG(strstr(sp, "other n/a (the parts add up to more than the total)") &&
                     strstr(sj, "\"other\":null,"),
                 "%s", sp);
    free(sp);
    free(sj);
    s.times_known = 0;
    s.start_s = s.t_first = s.t_passes = s.t_snapshots = s.t_restores = s.t_waiting = 0;
    s.profiler_s = s.setup_s = s.setup_grouping_s = s.setup_warmup_s = 0;
    /* a profiled launch inside the window counts as executed there; one past it does not */
    gp_summary_profiled(&s, 12, "k", 2000.0, 1);
    gp_summary_profiled(&s, 77, "k", 2000.0, 1);
    sj = gp_test_capture(w_sum, &s);
    GP_CHECK_MSG(strstr(sj, "\"launches_profiled_executed\":2,\"crosscheck_launches\":2,"
                            "\"crosscheck_profiled\":1") != NULL,
                 "%s", sj);
    free(sj);
    sp = gp_test_capture(w_print, &s);
    GP_CHECK_MSG(strstr(sp, "1 executed per activity records, 1 profiled (agree)\n") != NULL, "%s",
                 sp);
    free(sp);
    /* a kernel name cannot write escapes or lines of its own on the terminal */
    gp_summary_kernel_seen(&s, 13, "evil", 1);
    gp_summary_activity(&s, 13, 5000, "evil\n[gpuprof 1] forged\x1b[2J", 0);
    sp = gp_test_capture(w_print, &s);
    /* the short name (after the last space), escaped */
    GP_CHECK(strstr(sp, "x  forged\\x1b[2J\n") != NULL);
    GP_CHECK(strchr(sp, '\x1b') == NULL && strstr(sp, "\n[gpuprof 1] forged") == NULL);
    free(sp);
    /* the cross-check ended early: the launches from there on leave its counts */
    gp_summary_kernel_seen(&s, 100, "k", 0);
    gp_summary_kernel_seen(&s, 101, "k", 0);
    uint64_t before = s.xc_launches;
    gp_summary_crosscheck_end(&s, 100, "stall sampling started");
    gp_summary_crosscheck_end(&s, 50, "a second end is ignored");
    GP_CHECK(s.xc_launches == before - 2 && s.xc_ended_at == 100);
    sj = gp_test_capture(w_sum, &s);
    GP_CHECK(strstr(sj, "\"crosscheck_ended\":\"stall sampling started\"") != NULL);
    free(sj);
    sp = gp_test_capture(w_print, &s);
    GP_CHECK_MSG(strstr(sp, "; ended early: stall sampling started\n") != NULL, "%s", sp);
    free(sp);
    /* valid results say so; a failed launch or a lost context opens the summary, the
     * first one kept, its strings escaped; the extra members come before the end */
    sj = gp_test_capture(w_sum, &s);
    GP_CHECK(strstr(sj, "\"results\":{\"valid\":true}}\n") != NULL);
    free(sj);
    sp = gp_test_capture(w_print, &s);
    GP_CHECK(strstr(sp, "NOT VALID") == NULL);
    free(sp);
    gp_summary_invalid(&s, 42, "k\x1b[31m", "the kernel faulted in the SASS pass\nforged");
    gp_summary_invalid(&s, 43, "later", "a later failure");
    sj = gp_test_capture(w_sum_extra, &s);
    GP_CHECK_MSG(strstr(sj, "\"results\":{\"valid\":false,\"from_launch\":42,\"kernel\":\"k\\u001b[31m\","
                            "\"reason\":\"the kernel faulted in the SASS pass\\nforged\"},\"extra\":1}\n") != NULL,
                 "%s", sj);
    free(sj);
    sp = gp_test_capture(w_print, &s);
    GP_CHECK_MSG(strncmp(sp, "[gpuprof ", 9) == 0 && strstr(sp, "] THE PROGRAM'S RESULTS ARE NOT VALID "
                                                              "from launch 42 on (k\\x1b[31m): the kernel "
                                                              "faulted in the SASS pass\\x0aforged\n") != NULL &&
                     strstr(sp, "NOT VALID") < strstr(sp, "kernel launches seen"),
                 "%s", sp);
    free(sp);
    /* everything the summary holds is freed (the sanitizer build checks) */
    gp_summary_free(&s);
    GP_CHECK(s.n_reasons == 0 && s.n_unprofiled == 0 && s.times == NULL && s.corr == NULL);
    return gp_test_finish("output");
}
