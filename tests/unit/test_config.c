/* test_config.c - GPUPROF_* parsing (defaults, every variable, malformed
 * values with the message naming variable and accepted values) and the
 * launch filters. */
#include "preload/config.h"
#include "preload/filter.h"
#include "tests/unit/fake_env.h"
#include "metrics/ncu/sections.h"
#include "tests/unit/gp_test.h"
#include "util/kname.h"
#include "util/strutil.h"

#include <stdlib.h>
#include <time.h>

static int parse(const char *const *table, gp_config *cfg, char *err, size_t len)
{
    fake_env_table = table;
    return gp_config_parse(cfg, fake_env, err, len);
}

int main(void)
{
    gp_config c;
    char err[2048];

    /* defaults */
    static const char *const none[] = {NULL};
    GP_CHECK(parse(none, &c, err, sizeof(err)) == 0 && err[0] == '\0');
    GP_CHECK(c.enabled == 1 && c.write_csv && c.write_json && c.launch_count == -1 &&
             c.max_per_kernel == -1 && c.launch_skip == 0 && c.flush_caches == GP_CACHE_FLUSH &&
             c.snapshot_where == GP_SNAP_AUTO && !c.metrics_replace && c.n_metrics == 0 &&
             c.batch == GP_BATCH_DEFAULT && c.snapshot_incremental && !c.snapshot_verify &&
             c.warmup);
    GP_CHECK_STR(c.output, "gpuprof-%p");
    gp_config_free(&c);

    /* every variable, valid */
    static const char *const all[] = {
        "GPUPROF_ENABLE", "1", "GPUPROF_OUTPUT", "/tmp/run-%h-%p", "GPUPROF_FORMAT", "csv",
        "GPUPROF_METRICS", "+dram__bytes_read.sum, @extended", "GPUPROF_KERNEL_INCLUDE",
        "regex:^gemm", "GPUPROF_KERNEL_EXCLUDE", "small$", "GPUPROF_KERNEL_NAME_BASE",
        "demangled", "GPUPROF_LAUNCH_SKIP", "3", "GPUPROF_LAUNCH_COUNT", "10",
        "GPUPROF_MAX_PER_KERNEL", "2", "GPUPROF_LOG_LEVEL", "debug", "GPUPROF_SNAPSHOT", "host",
        "GPUPROF_SNAPSHOT_RESERVE_MB", "256", "GPUPROF_CACHE_CONTROL", "none", "GPUPROF_SUMMARY",
        "0", "GPUPROF_CROSSCHECK", "0", "GPUPROF_BATCH", "8", "GPUPROF_TEST_INJECT", "no-permission",
        "GPUPROF_SNAPSHOT_INCREMENTAL", "0", "GPUPROF_SNAPSHOT_VERIFY", "1", "GPUPROF_WARMUP", "0", NULL};
    GP_CHECK_MSG(parse(all, &c, err, sizeof(err)) == 0, "%s", err);
    GP_CHECK(c.batch == 8 && c.inject == GP_INJECT_NO_PERMISSION);
    GP_CHECK(!c.snapshot_incremental && c.snapshot_verify && !c.warmup);
    GP_CHECK(c.write_csv && !c.write_json && !c.metrics_replace && c.metrics_extended &&
             c.n_metrics == 1 && strcmp(c.metrics[0], "dram__bytes_read.sum") == 0);
    GP_CHECK(c.launch_skip == 3 && c.launch_count == 10 && c.max_per_kernel == 2 &&
             c.log_level == 3 && c.snapshot_where == GP_SNAP_HOST && c.reserve_mb == 256 &&
             c.flush_caches == 0 && c.summary == 0 && c.crosscheck == 0 &&
             c.name_base == GP_NAME_DEMANGLED);
    GP_CHECK(gp_filter_name_matches(&c, "gemm_kernel(float*)"));
    GP_CHECK(!gp_filter_name_matches(&c, "my_gemm"));
    GP_CHECK(!gp_filter_name_matches(&c, "gemm_small"));
    gp_config_free(&c);

    /* the set-up cache's directory: GPUPROF_CACHE_DIR, else XDG's cache
     * directory, else HOME's; off with GPUPROF_CACHE=0 or without either */
    {
        static const char *const home[] = {"HOME", "/home/u", NULL};
        GP_CHECK(parse(home, &c, err, sizeof(err)) == 0 && c.cache &&
                 strcmp(c.cache_dir, "/home/u/.cache/gpuprof") == 0);
        static const char *const xdg[] = {"HOME", "/home/u", "XDG_CACHE_HOME", "/x/c", NULL};
        GP_CHECK(parse(xdg, &c, err, sizeof(err)) == 0 &&
                 strcmp(c.cache_dir, "/x/c/gpuprof") == 0);
        static const char *const rel[] = {"HOME", "/home/u", "XDG_CACHE_HOME", "c", NULL};
        GP_CHECK(parse(rel, &c, err, sizeof(err)) == 0 &&
                 strcmp(c.cache_dir, "/home/u/.cache/gpuprof") == 0); /* XDG: relative ignored */
        static const char *const own[] = {"HOME", "/home/u", "GPUPROF_CACHE_DIR", "/tmp/gc", NULL};
        GP_CHECK(parse(own, &c, err, sizeof(err)) == 0 && strcmp(c.cache_dir, "/tmp/gc") == 0);
        /* where the default set's instrumented metrics come from */
        static const char *const se[] = {"GPUPROF_SASS_EFFICIENCY", "own", NULL};
        GP_CHECK(parse(se, &c, err, sizeof(err)) == 0 && c.sass_efficiency == GP_SASS_EFF_OWN);
        GP_CHECK(parse(none, &c, err, sizeof(err)) == 0 && c.sass_efficiency == GP_SASS_EFF_CUPTI);
        static const char *const seb[] = {"GPUPROF_SASS_EFFICIENCY", "sass", NULL};
        GP_CHECK(parse(seb, &c, err, sizeof(err)) == 1 &&
                 strstr(err, "accepted values: cupti, own, check"));
        /* the warm-up: by default only before an instrumented pass */
        static const char *const wu[] = {"GPUPROF_WARMUP", "always", NULL};
        GP_CHECK(parse(wu, &c, err, sizeof(err)) == 0 && c.warmup == GP_WARMUP_ALWAYS);
        GP_CHECK(parse(none, &c, err, sizeof(err)) == 0 && c.warmup == GP_WARMUP_INSTRUMENTED);
        static const char *const off[] = {"HOME", "/home/u", "GPUPROF_CACHE", "0", NULL};
        GP_CHECK(parse(off, &c, err, sizeof(err)) == 0 && !c.cache && c.cache_dir[0] == '\0');
        GP_CHECK(parse(none, &c, err, sizeof(err)) == 0 && c.cache && c.cache_dir[0] == '\0');
        static const char *const bad[] = {"GPUPROF_CACHE_DIR", "cache", "GPUPROF_CACHE", "yes",
                                          NULL};
        GP_CHECK(parse(bad, &c, err, sizeof(err)) == 2 &&
                 strstr(err, "GPUPROF_CACHE_DIR='cache' is not valid: expected an absolute path") &&
                 strstr(err, "GPUPROF_CACHE='yes' is not valid: accepted values: 0, 1"));
        gp_config_free(&c);
    }

    /* cache control: L2 and the GPCs' caches (flush), L2 only (l2), nothing (none) */
    static const char *const cc_l2[] = {"GPUPROF_CACHE_CONTROL", "l2", NULL};
    GP_CHECK(parse(cc_l2, &c, err, sizeof(err)) == 0 && c.flush_caches == GP_CACHE_L2);
    gp_config_free(&c);
    static const char *const cc_flush[] = {"GPUPROF_CACHE_CONTROL", "flush", NULL};
    GP_CHECK(parse(cc_flush, &c, err, sizeof(err)) == 0 && c.flush_caches == GP_CACHE_FLUSH);
    gp_config_free(&c);
    static const char *const cc_bad[] = {"GPUPROF_CACHE_CONTROL", "all", NULL};
    GP_CHECK(parse(cc_bad, &c, err, sizeof(err)) != 0 &&
             strstr(err, "GPUPROF_CACHE_CONTROL='all' is not valid: accepted values: none, flush, "
                         "l2") != NULL);
    gp_config_free(&c);

    /* replay mode none: the rotation block and the variant limit, defaults and bounds */
    GP_CHECK(parse((const char *const[]){NULL}, &c, err, sizeof(err)) == 0 &&
             c.replay_mode == GP_REPLAY_PROFILER && c.rotate_launches == GP_ROTATE_DEFAULT &&
             c.rotate_ms == GP_ROTATE_MS_DEFAULT && c.variants_max == GP_VARIANTS_DEFAULT);
    gp_config_free(&c);
    static const char *const rnone[] = {"GPUPROF_REPLAY", "none", "GPUPROF_ROTATE_LAUNCHES", "500",
                                        "GPUPROF_VARIANTS_MAX", "16", "GPUPROF_ROTATE_MS", "0",
                                        NULL};
    GP_CHECK_MSG(parse(rnone, &c, err, sizeof(err)) == 0, "%s", err);
    GP_CHECK(c.replay_mode == GP_REPLAY_NONE && c.rotate_launches == 500 && c.variants_max == 16 &&
             c.rotate_ms == 0);
    gp_config_free(&c);
    static const char *const rms[] = {"GPUPROF_ROTATE_MS", "-1", NULL};
    GP_CHECK(parse(rms, &c, err, sizeof(err)) != 0 && strstr(err, "GPUPROF_ROTATE_MS"));
    gp_config_free(&c);
    static const char *const rbad[] = {"GPUPROF_REPLAY", "application", "GPUPROF_ROTATE_LAUNCHES",
                                       "0", "GPUPROF_VARIANTS_MAX", "2000000", NULL};
    GP_CHECK(parse(rbad, &c, err, sizeof(err)) == 3);
    GP_CHECK(strstr(err, "accepted values: profiler, cupti, none") != NULL);
    GP_CHECK(strstr(err, "GPUPROF_ROTATE_LAUNCHES='0' is not valid") != NULL);
    GP_CHECK(strstr(err, "GPUPROF_VARIANTS_MAX='2000000' is not valid: expected a whole number "
                         "from 1 to 1000000") != NULL);
    GP_CHECK(c.replay_mode == GP_REPLAY_PROFILER && c.rotate_launches == GP_ROTATE_DEFAULT);
    gp_config_free(&c);

    /* @fast keeps the default set (without its instrumented pass) */
    static const char *const fast[] = {"GPUPROF_METRICS", "@fast", NULL};
    GP_CHECK(parse(fast, &c, err, sizeof(err)) == 0 && c.metrics_fast && !c.metrics_replace &&
             c.n_metrics == 0);
    gp_config_free(&c);

    /* @warpstate adds Nsight Compute's warp-state statistics to the default set;
     * @source alone: the SASS pass's counts instead of the default set */
    static const char *const ws[] = {"GPUPROF_METRICS", "@warpstate", NULL};
    GP_CHECK(parse(ws, &c, err, sizeof(err)) == 0 && c.metrics_warpstate && !c.metrics_replace);
    gp_config_free(&c);
    static const char *const src[] = {"GPUPROF_METRICS", "@source", NULL};
    GP_CHECK(parse(src, &c, err, sizeof(err)) == 0 && c.metrics_source && c.metrics_replace &&
             c.n_metrics == 0);
    gp_config_free(&c);

    /* Nsight Compute's sets and sections: what they name replaces the
     * default set (as ncu collects only what is chosen) unless it is named
     * too; SourceCounters brings the SASS pass's per-instruction counts */
    static const char *const full[] = {"GPUPROF_METRICS", "@set:full", NULL};
    GP_CHECK(parse(full, &c, err, sizeof(err)) == 0 && c.metrics_replace && c.n_metrics == 0 &&
             c.ncu_sections == gp_ncu_set_mask(gp_ncu_set_find("full")) && c.metrics_source);
    gp_config_describe(&c, err, sizeof(err));
    GP_CHECK_MSG(strstr(err, "metrics: Nsight Compute's sections SpeedOfLight,") != NULL, "%s", err);
    gp_config_free(&c);
    static const char *const sol[] = {"GPUPROF_METRICS", "+@section:SpeedOfLight,@section:regex:^Launch,x__y.sum", NULL};
    GP_CHECK(parse(sol, &c, err, sizeof(err)) == 0 && !c.metrics_replace && c.n_metrics == 1 &&
             c.ncu_sections == (((uint64_t)1 << gp_ncu_section_find("SpeedOfLight")) |
                                ((uint64_t)1 << gp_ncu_section_find("LaunchStats"))) &&
             !c.metrics_source);
    gp_config_free(&c);
    static const char *const own[] = {"GPUPROF_METRICS", "@set:warpstate,@section:Occupancy", NULL};
    GP_CHECK(parse(own, &c, err, sizeof(err)) == 0 && c.metrics_warpstate && !c.metrics_replace &&
             c.ncu_sections == (uint64_t)1 << gp_ncu_section_find("Occupancy"));
    gp_config_free(&c);
    static const char *const badsec[] = {"GPUPROF_METRICS", "@section:Nope,@set:fulll", NULL};
    GP_CHECK(parse(badsec, &c, err, sizeof(err)) == 2 && strstr(err, "item 1: --section 'Nope'") &&
             strstr(err, "WarpStateStats") && strstr(err, "item 2: --set 'fulll'") &&
             strstr(err, "roofline") && c.ncu_sections == 0);
    gp_config_free(&c);

    /* stall sampling: on by default at Nsight Compute's interval, off, bad values named */
    GP_CHECK(parse((const char *const[]){NULL}, &c, err, sizeof(err)) == 0 && c.sampling &&
             c.sampling_interval == GP_SAMPLING_INTERVAL_DEFAULT && GP_SAMPLING_INTERVAL_DEFAULT == 6);
    gp_config_free(&c);
    static const char *const soff[] = {"GPUPROF_SAMPLING", "off", "GPUPROF_SAMPLING_INTERVAL",
                                       "12", NULL};
    GP_CHECK(parse(soff, &c, err, sizeof(err)) == 0 && !c.sampling && c.sampling_interval == 12);
    gp_config_free(&c);
    static const char *const sbad[] = {"GPUPROF_SAMPLING", "yes", "GPUPROF_SAMPLING_INTERVAL",
                                       "27", NULL};
    GP_CHECK(parse(sbad, &c, err, sizeof(err)) == 2 &&
             strstr(err, "GPUPROF_SAMPLING='yes'") && strstr(err, "accepted values: off, on, profiled") &&
             strstr(err, "GPUPROF_SAMPLING_INTERVAL='27'") && strstr(err, "from 0 to 26"));
    GP_CHECK(c.sampling == GP_SAMPLING_ON && c.sampling_interval == GP_SAMPLING_INTERVAL_DEFAULT);
    gp_config_free(&c);
    static const char *const sprof[] = {"GPUPROF_SAMPLING", "profiled", NULL};
    GP_CHECK(parse(sprof, &c, err, sizeof(err)) == 0 && c.sampling == GP_SAMPLING_PROFILED);
    gp_config_free(&c);

    /* a plain list replaces the default set */
    static const char *const repl[] = {"GPUPROF_METRICS", "a__b.sum,c__d.max", NULL};
    GP_CHECK(parse(repl, &c, err, sizeof(err)) == 0 && c.metrics_replace && c.n_metrics == 2);
    gp_config_free(&c);

    /* the cross-check: a window of launches by default, 1 = that window, a count, all, off */
    GP_CHECK(parse((const char *const[]){NULL}, &c, err, sizeof(err)) == 0 &&
             c.crosscheck == GP_CROSSCHECK_WINDOW);
    static const struct {
        const char *v;
        long want;
    } xc[] = {{"1", GP_CROSSCHECK_WINDOW}, {"0", 0}, {"all", -1}, {"250", 250}};
    for (size_t i = 0; i < sizeof(xc) / sizeof(xc[0]); i++) {
        const char *e[] = {"GPUPROF_CROSSCHECK", xc[i].v, NULL};
        GP_CHECK_MSG(parse(e, &c, err, sizeof(err)) == 0 && c.crosscheck == xc[i].want, "%s: %ld",
                     xc[i].v, c.crosscheck);
    }
    static const char *const xc_bad[] = {"-1", "on", "10k", ""};
    for (size_t i = 0; i < sizeof(xc_bad) / sizeof(xc_bad[0]); i++) {
        const char *e[] = {"GPUPROF_CROSSCHECK", xc_bad[i], NULL};
        GP_CHECK_MSG(parse(e, &c, err, sizeof(err)) == 1 &&
                         strstr(err, "accepted values: 0 (off), 1 (the first 1000 launches), a "
                                     "number of launches, all") != NULL,
                     "%s: %s", xc_bad[i], err);
    }

    /* malformed values: one line per variable, naming it and the accepted values */
    static const char *const bad[] = {"GPUPROF_LAUNCH_COUNT", "ten", "GPUPROF_SNAPSHOT", "disk",
                                      "GPUPROF_KERNEL_INCLUDE", "([", "GPUPROF_METRICS",
                                      "dram bytes", "GPUPROF_OUTPUT", "out-%q",
                                      "GPUPROF_LAUNCH_SKIP", "-1", "GPUPROF_FORMAT", "xml",
                                      "GPUPROF_BATCH", "0", NULL};
    GP_CHECK(parse(bad, &c, err, sizeof(err)) == 8);
    GP_CHECK(strstr(err, "GPUPROF_BATCH='0' is not valid: expected a whole number from 1 to 256") != NULL);
    GP_CHECK(strstr(err, "GPUPROF_LAUNCH_COUNT='ten' is not valid: expected a whole number") != NULL);
    GP_CHECK(strstr(err, "GPUPROF_SNAPSHOT='disk' is not valid: accepted values: auto, device, host, none") != NULL);
    GP_CHECK(strstr(err, "GPUPROF_KERNEL_INCLUDE='([' is not valid") != NULL);
    GP_CHECK(strstr(err, "GPUPROF_METRICS='dram bytes'") != NULL);
    GP_CHECK(strstr(err, "GPUPROF_OUTPUT='out-%q'") != NULL);
    GP_CHECK(strstr(err, "GPUPROF_LAUNCH_SKIP='-1'") != NULL);
    GP_CHECK(strstr(err, "GPUPROF_FORMAT='xml'") != NULL);
    int lines = 1;
    for (const char *p = err; *p; p++)
        lines += *p == '\n';
    GP_CHECK(lines == 8);

    /* a list as long as Nsight Compute's full set: every name kept, no limit */
    {
        size_t names = 2000, len = 0;
        char *list = malloc(names * 24);
        GP_CHECK(list != NULL);
        for (size_t i = 0; list && i < names; i++)
            len += (size_t)sprintf(list + len, "%sm%zu__x.sum", i ? "," : "", i);
        const char *long_list[] = {"GPUPROF_METRICS", list, NULL};
        GP_CHECK(list && parse(long_list, &c, err, sizeof(err)) == 0 && c.n_metrics == names &&
                 strcmp(c.metrics[names - 1], "m1999__x.sum") == 0);
        gp_config_free(&c);
        /* one bad item in it: named by position, the list itself not echoed whole */
        if (list)
            list[len - 4] = '$';
        GP_CHECK(list && parse(long_list, &c, err, sizeof(err)) == 1);
        GP_CHECK_MSG(strstr(err, "item 2000, 'm1999__x$sum', is not a metric name") != NULL, "%s", err);
        GP_CHECK_MSG(strstr(err, "characters) is not valid") != NULL && strlen(err) < 600, "%s", err);
        GP_CHECK(c.n_metrics == names - 1);
        gp_config_free(&c);
        free(list);
    }
    /* malformed values keep their defaults */
    GP_CHECK(c.launch_count == -1 && c.batch == GP_BATCH_DEFAULT && c.snapshot_where == GP_SNAP_AUTO && !c.have_include);
    gp_config_free(&c);

    /* a regex that would take seconds and gigabytes to compile is refused at
     * once, naming the variable; values cut to fit would mean something else */
    static char longpath[1100], longfmt[200], longout[1000];
    memset(longpath, 'a', sizeof(longpath) - 1);
    memcpy(longfmt, "csv,json,", 9);
    memset(longfmt + 9, ' ', sizeof(longfmt) - 10);
    memset(longout, 'o', sizeof(longout) - 4);
    memcpy(longout + sizeof(longout) - 4, "-%h", 3);
    static const char *hostile[] = {"GPUPROF_KERNEL_INCLUDE", "a+++++++++++++++++++++",
                                    "GPUPROF_KERNEL_EXCLUDE", "((a{50}){50}){50}",
                                    "GPUPROF_LOG_FILE", longpath, "GPUPROF_FORMAT", longfmt,
                                    "GPUPROF_OUTPUT", longout, NULL};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int nbad = parse(hostile, &c, err, sizeof(err));
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    GP_CHECK_MSG(nbad == 5 && took < 1.0, "%d malformed in %.2f s: %s", nbad, took, err);
    GP_CHECK(strstr(err, "GPUPROF_KERNEL_INCLUDE='a+++++++++++++++++++++' is not valid: not accepted") != NULL);
    GP_CHECK(strstr(err, "GPUPROF_KERNEL_EXCLUDE='((a{50}){50}){50}' is not valid") != NULL);
    GP_CHECK(strstr(err, "GPUPROF_LOG_FILE='aaaa") != NULL && c.log_file[0] == '\0');
    GP_CHECK(strstr(err, "GPUPROF_FORMAT='csv,json,") != NULL);
    GP_CHECK(strstr(err, "GPUPROF_OUTPUT='oooo") != NULL && strcmp(c.output, "gpuprof-%p") == 0);
    gp_config_free(&c);
    /* a back-reference makes matching exponential; an ordinary pattern passes */
    static const char *const backref[] = {"GPUPROF_KERNEL_INCLUDE", "(a+)\\1b", NULL};
    GP_CHECK(parse(backref, &c, err, sizeof(err)) == 1 && strstr(err, "back-reference"));
    gp_config_free(&c);
    static const char *const fine[] = {"GPUPROF_KERNEL_INCLUDE", "^(gemm|conv)_[a-z0-9_]+(<.*>)?$",
                                       "GPUPROF_OUTPUT", "results/%h-%p", NULL};
    GP_CHECK_MSG(parse(fine, &c, err, sizeof(err)) == 0, "%s", err);
    GP_CHECK(gp_filter_name_matches(&c, "gemm_tile<float>") && !gp_filter_name_matches(&c, "x"));
    gp_config_free(&c);

    /* filters, as Nsight Compute counts them: skip and count over matching launches */
    static const char *const filt[] = {"GPUPROF_KERNEL_INCLUDE", "^k", "GPUPROF_LAUNCH_SKIP", "1",
                                       "GPUPROF_LAUNCH_COUNT", "3", "GPUPROF_MAX_PER_KERNEL", "2",
                                       NULL};
    GP_CHECK(parse(filt, &c, err, sizeof(err)) == 0);
    gp_filter_state st = {0, 0};
    uint64_t ka = 0, kb = 0;
    int seq[8];
    seq[0] = gp_filter_decide(&c, &st, 1, GP_PROFILE, &ka); /* skipped: first match */
    seq[1] = gp_filter_decide(&c, &st, 0, GP_PROFILE, &kb); /* name filter */
    seq[2] = gp_filter_decide(&c, &st, 1, GP_PROFILE, &ka); /* profiled (ka=1) */
    seq[3] = gp_filter_decide(&c, &st, 1, GP_PROFILE, &ka); /* profiled (ka=2) */
    seq[4] = gp_filter_decide(&c, &st, 1, GP_PROFILE, &ka); /* per-kernel limit */
    seq[5] = gp_filter_decide(&c, &st, 1, GP_PROFILE, &kb); /* profiled (3rd overall) */
    seq[6] = gp_filter_decide(&c, &st, 1, GP_PROFILE, &kb); /* launch count reached */
    GP_CHECK(seq[0] == GP_SKIP_LAUNCH && seq[1] == GP_SKIP_NAME && seq[2] == GP_PROFILE &&
             seq[3] == GP_PROFILE && seq[4] == GP_SKIP_PER_KERNEL && seq[5] == GP_PROFILE &&
             seq[6] == GP_SKIP_COUNT);
    GP_CHECK(st.profiled == 3 && st.matched == 6 && ka == 2 && kb == 1);
    gp_config_free(&c);

    /* the name the regexes see: Nsight Compute's "function" name */
    char buf[256];
    gp_kname_function("void ns::gemm<float, 4>(float*, int)", buf, sizeof(buf));
    GP_CHECK_STR(buf, "gemm");
    gp_kname_function("add_one(float*, int)", buf, sizeof(buf));
    GP_CHECK_STR(buf, "add_one");
    gp_kname_function("drv_inc", buf, sizeof(buf));
    GP_CHECK_STR(buf, "drv_inc");
    static const char *const fbase[] = {"GPUPROF_KERNEL_INCLUDE", "^gemm$", NULL};
    GP_CHECK(parse(fbase, &c, err, sizeof(err)) == 0);
    GP_CHECK(gp_filter_name_matches(
        &c, gp_filter_name(&c, "void ns::gemm<float, 4>(float*, int)", "_Z", buf, sizeof(buf))));
    GP_CHECK(!gp_filter_name_matches(
        &c, gp_filter_name(&c, "void ns::gemm2<float>(float*)", "_Z", buf, sizeof(buf))));
    gp_config_free(&c);

    /* capture ranges come before skip and count: a launch outside them is
     * not counted as matching (as Nsight Compute counts -s with --nvtx) */
    GP_CHECK(parse(filt, &c, err, sizeof(err)) == 0);
    st.matched = st.profiled = 0;
    ka = 0;
    GP_CHECK(gp_filter_decide(&c, &st, 1, GP_SKIP_NVTX, &ka) == GP_SKIP_NVTX);
    GP_CHECK(gp_filter_decide(&c, &st, 1, GP_SKIP_PROFILER_RANGE, &ka) == GP_SKIP_PROFILER_RANGE);
    GP_CHECK(gp_filter_decide(&c, &st, 0, GP_SKIP_NVTX, &ka) == GP_SKIP_NAME);
    GP_CHECK(st.matched == 0 && ka == 0);
    GP_CHECK(gp_filter_decide(&c, &st, 1, GP_PROFILE, &ka) == GP_SKIP_LAUNCH && st.matched == 1);
    GP_CHECK_STR(gp_decision_name(GP_SKIP_PROFILER_RANGE), "outside cudaProfilerStart/Stop");
    GP_CHECK_STR(gp_decision_name(GP_SKIP_COMMUNICATION), "communication kernel (NCCL)");
    /* NCCL's kernels (collectives, point-to-point) are never replayed; names
     * that only contain "nccl" are */
    GP_CHECK(gp_filter_is_communication("ncclDevKernel_AllReduce_Sum_f32_RING_LL("
                                        "ncclDevKernelArgsStorage<4096ul>)"));
    GP_CHECK(gp_filter_is_communication("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)"));
    GP_CHECK(!gp_filter_is_communication("my_ncclDevKernel_lookalike()"));
    GP_CHECK(!gp_filter_is_communication("void at::native::elementwise_kernel<128, 2>()"));
    gp_config_free(&c);

    /* capture variables, and the rank from an MPI launcher or Slurm */
    static const char *const cap[] = {"GPUPROF_PROFILE_FROM_START",
                                      "0",
                                      "GPUPROF_PROFILER_START_STOP",
                                      "1",
                                      "GPUPROF_NVTX_INCLUDE",
                                      "train/;Dom@step,io",
                                      "GPUPROF_NVTX_EXCLUDE",
                                      "regex:^warm",
                                      "SLURM_PROCID",
                                      "5",
                                      "PMI_RANK",
                                      "2",
                                      NULL};
    GP_CHECK(parse(cap, &c, err, sizeof(err)) == 0);
    GP_CHECK(c.profile_from_start == 0 && c.profiler_start_stop == 1);
    GP_CHECK(c.n_nvtx_include == 2 && c.n_nvtx_exclude == 1);
    GP_CHECK(c.rank == 2); /* PMI_RANK before SLURM_PROCID: srun also sets the MPI variable */
    {
        gp_config t;
        const char *torch[] = {"RANK", "3", NULL}, *both[] = {"RANK", "3", "SLURM_PROCID", "7",
                                                              NULL};
        GP_CHECK(parse(torch, &t, err, sizeof(err)) == 0 && t.rank == 3); /* torchrun */
        gp_config_free(&t);
        GP_CHECK(parse(both, &t, err, sizeof(err)) == 0 && t.rank == 7);
        gp_config_free(&t);
    }
    gp_config_describe(&c, buf, sizeof(buf));
    GP_CHECK_MSG(strstr(buf, "from cudaProfilerStart on") &&
                     strstr(buf, "NVTX include 'train/', "
                                 "'Dom@step,io'") &&
                     strstr(buf, "rank 2"),
                 "%s", buf);
    gp_config_free(&c);
    static const char *const badcap[] = {"GPUPROF_PROFILE_FROM_START",
                                         "off",
                                         "GPUPROF_NVTX_INCLUDE",
                                         "a//b",
                                         "OMPI_COMM_WORLD_RANK",
                                         "x",
                                         NULL};
    GP_CHECK(parse(badcap, &c, err, sizeof(err)) == 2);
    GP_CHECK_MSG(
        strstr(err, "GPUPROF_PROFILE_FROM_START='off' is not valid: accepted values: 0, 1") &&
            strstr(err, "GPUPROF_NVTX_INCLUDE='a//b' is not valid: 'a//b': an empty "
                        "range name"),
        "%s", err);
    GP_CHECK(c.rank == -1 && c.n_nvtx_include == 0); /* not gpuprof's variable: ignored */
    gp_config_free(&c);

    /* output path placeholders */
    GP_CHECK(gp_expand_path("r-%h-%p-%%.x", 42, "node7", buf, sizeof(buf)) == 0);
    GP_CHECK_STR(buf, "r-node7-42-%.x");
    GP_CHECK(gp_expand_path("bad-%z", 1, "h", buf, sizeof(buf)) == -1);
    GP_CHECK(gp_expand_path("%p%p%p", 123456, "h", buf, 8) == -1); /* too long */
    setenv("GP_TEST_RANK", "17", 1);
    unsetenv("GP_TEST_UNSET");
    GP_CHECK(gp_expand_path("r_%q{GP_TEST_RANK}_%p", 42, "h", buf, sizeof(buf)) == 0);
    GP_CHECK_STR(buf, "r_17_42");
    GP_CHECK(gp_expand_path("r_%q{GP_TEST_UNSET}.x", 42, "h", buf, sizeof(buf)) == 0);
    GP_CHECK_STR(buf, "r_.x");
    GP_CHECK(gp_expand_path("r_%q{GP_TEST_RANK", 42, "h", buf, sizeof(buf)) == -1);
    GP_CHECK(gp_expand_path("r_%q{}", 42, "h", buf, sizeof(buf)) == -1);
    GP_CHECK(gp_expand_path("r_%q", 42, "h", buf, sizeof(buf)) == -1);
    GP_CHECK(gp_edit_distance("dram__bytes_raed", "dram__bytes_read") == 2);
    return gp_test_finish("config");
}
