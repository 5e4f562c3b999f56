/* test_cupti_host.c - the CUPTI host-side configuration for GH100, offline (no
 * GPU): every counter of counters.def resolves, the default set takes 2
 * passes (hardware counters in one, SASS-instrumented ones in another), an
 * unknown name gets one message with close matches, and the one-pass
 * grouping gives the same configurations whether PerfWorks' scheduler or a
 * host configuration per trial answers (printing the time of each). */
#include "replay/sass_derive.h"
#include "replay/cupti_host.h"
#include "replay/host_group.h"
#include "tests/unit/gp_test.h"

#include <stdio.h>
#include <string.h>

static const struct {
    const char *name, *set;
} counters[] = {
#define GP_COUNTER(n, u, c, s, d) {n, s},
#include "metrics/catalog/counters.def"
#undef GP_COUNTER
};
#define N_COUNTERS (sizeof(counters) / sizeof(counters[0]))

/* A long list split over configurations: every name in exactly one, each
 * configuration accepted whole, passes adding up. */
/* The names of tests/data/gh100-250-counters.txt (at most 300) into
 * names, kept until the next call.  Returns how many (0: no file). */
static size_t read_250(const char *names[300])
{
    static char buf[256 * 128];
    size_t n = 0, len = 0;
    FILE *f = fopen("tests/data/gh100-250-counters.txt", "r");
    if (!f)
        return 0;
    while (n < 300 && len + 128 < sizeof(buf) && fgets(buf + len, 128, f)) {
        char *line = buf + len;
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || !line[0])
            continue;
        names[n++] = line;
        len += strlen(line) + 1;
    }
    fclose(f);
    return n;
}

static void long_list(void)
{
    const char *names[300];
    size_t n = read_250(names);
    GP_CHECK_MSG(n == 250, "%zu names", n);
    if (!n)
        return;
    char err[512];
    /* offline (no availability image) CUPTI takes the whole list, as one
     * configuration; on a device it refuses it whole (the GPU benchmark
     * replay_cost.sh manypass splits it) */
    gp_host_config *whole = gp_host_config_create("GH100", NULL, 0, names, n, err, sizeof(err));
    int whole_ok = whole != NULL;
    gp_host_config_destroy(whole); /* before the split: it is timed alone */
    int group[300];
    double t0 = gp_host_grouping_s();
    size_t groups = gp_host_partition("GH100", NULL, names, n, group);
    double split_s = gp_host_grouping_s() - t0;
    GP_CHECK_MSG(groups >= 1 && groups <= 16 && (!whole_ok || groups == 1), "%zu configurations",
                 groups);
    size_t placed = 0, passes = 0;
    for (size_t g = 0; g < groups; g++) {
        const char *in[300];
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (group[i] == (int)g)
                in[k++] = names[i];
        placed += k;
        gp_host_config *c = gp_host_config_create("GH100", NULL, 0, in, k, err, sizeof(err));
        GP_CHECK_MSG(c != NULL && k > 0, "configuration %zu (%zu names): %s", g, k, err);
        if (c) {
            GP_CHECK(gp_host_config_count(c) == k && gp_host_config_passes(c) >= 1);
            passes += gp_host_config_passes(c);
        }
        gp_host_config_destroy(c);
    }
    GP_CHECK_MSG(placed == n, "%zu of %zu names placed", placed, n);
    printf("    250 names: %zu configurations, %zu passes, split in %.0f ms\n", groups, passes,
           split_s * 1e3);
}

/* Replay mode none's split: every configuration one pass, every name placed
 * once (or left out with a reason), the spread counters in each
 * configuration that can carry them, each configuration accepted whole. */
static void one_pass_split(const char *const *names, size_t n, const char *what, size_t *out_groups)
{
    static const char *const spread[] = {"gpu__time_duration.sum", "smsp__inst_executed.sum",
                                         "sm__cycles_elapsed.avg", "sm__cycles_elapsed.max"};
    const char *all[400];
    int every[400], group[400], carries[64];
    size_t m = 0;
    for (size_t s = 0; s < 4; s++) { /* the library puts them first */
        all[m] = spread[s];
        every[m++] = 1;
    }
    for (size_t i = 0; i < n && m < 400; i++) {
        int dup = 0;
        for (size_t s = 0; s < 4; s++)
            dup |= strcmp(names[i], spread[s]) == 0;
        if (!dup) {
            all[m] = names[i];
            every[m++] = 0;
        }
    }
    double t0 = gp_host_grouping_s();
    size_t groups = gp_host_partition_one_pass("GH100", NULL, all, m, every, group, carries, 64);
    double fast_s = gp_host_grouping_s() - t0;
    GP_CHECK_MSG(groups >= 1, "%s: no configuration", what);
    GP_CHECK_MSG(gp_host_last_grouping_fast(), "%s: PerfWorks' scheduler not used", what);
    /* the slow way (a host configuration per trial) places every name alike */
    int slow_group[400], slow_carries[64];
    gp_host_fast_grouping(0);
    t0 = gp_host_grouping_s();
    size_t slow = gp_host_partition_one_pass("GH100", NULL, all, m, every, slow_group, slow_carries,
                                             64);
    double slow_s = gp_host_grouping_s() - t0;
    gp_host_fast_grouping(1);
    size_t differ = 0;
    for (size_t i = 0; i < m; i++)
        differ += group[i] != slow_group[i];
    for (size_t g = 0; g < groups && g < slow; g++)
        differ += carries[g] != slow_carries[g];
    GP_CHECK_MSG(slow == groups && differ == 0,
                 "%s: %zu configurations, %zu placements differ from the slow way's %zu", what,
                 groups, differ, slow);
    printf("    %s: grouped in %.0f ms by PerfWorks' scheduler, %.0f ms by a host configuration "
           "per trial\n", what, fast_s * 1e3, slow_s * 1e3);
    size_t placed = 0, left = 0, with_every = 0;
    for (size_t i = 0; i < m; i++) {
        placed += group[i] >= 0 || group[i] == GP_HOST_EVERY;
        left += group[i] == -1;
    }
    GP_CHECK_MSG(placed + left == m, "%s", what);
    for (size_t i = 0; i < 4; i++)
        GP_CHECK_MSG(group[i] == GP_HOST_EVERY, "%s: %s not carried", what, all[i]);
    for (size_t g = 0; g < groups; g++) {
        const char *in[400];
        size_t k = 0;
        for (size_t i = 0; i < m; i++)
            if (group[i] == (int)g || (carries[g] && group[i] == GP_HOST_EVERY)) {
                in[k++] = all[i];
                /* durations and instruction counts never under instrumentation */
                GP_CHECK_MSG(!carries[g] || !gp_metric_is_instrumented(all[i]),
                             "%s: %s beside the spread counters", what, all[i]);
            }
        with_every += carries[g] != 0;
        char err[512];
        gp_host_config *c = gp_host_config_create("GH100", NULL, 0, in, k, err, sizeof(err));
        GP_CHECK_MSG(c && gp_host_config_passes(c) == 1, "%s: configuration %zu: %zu passes", what,
                     g, c ? gp_host_config_passes(c) : 0);
        gp_host_config_destroy(c);
    }
    GP_CHECK_MSG(with_every >= 1, "%s", what);
    printf("    %s: %zu one-pass configurations (%zu with the spread counters), %zu of %zu "
           "names left out\n",
           what, groups, with_every, left, m);
    *out_groups = groups;
}

/* Trials on threads give the configurations one at a time gives: the first
 * 60 names of the long list (with the default set's names first, so that
 * some are instrumented), partitioned with 1 and 3 trials at once. */
static void threads_same(const char *const *def, size_t nd)
{
    const char *names[300], *all[400];
    int every[400], g1[400], g3[400], c1[64], c3[64];
    size_t n = read_250(names), m = 0;
    for (size_t i = 0; i < nd && m < 30; i++, m++) {
        all[m] = def[i];
        every[m] = m < 2; /* two spread names */
    }
    for (size_t i = 0; i < n && m < 90; i++, m++) {
        all[m] = names[i];
        every[m] = 0;
    }
    gp_host_fast_grouping(0); /* the trials on threads are the slow way's */
    double grouped = gp_host_grouping_s();
    size_t a = gp_host_partition_one_pass_threads("GH100", NULL, all, m, every, g1, c1, 64, 1);
    /* the time spent grouping is counted (the summary's set-up parts) */
    GP_CHECK(gp_host_grouping_s() > grouped);
    size_t b = gp_host_partition_one_pass_threads("GH100", NULL, all, m, every, g3, c3, 64, 3);
    GP_CHECK_MSG(a == b && a > 1, "%zu and %zu configurations", a, b);
    size_t diff = 0;
    for (size_t i = 0; i < m; i++)
        diff += g1[i] != g3[i];
    for (size_t g = 0; g < a && g < b; g++)
        diff += c1[g] != c3[g];
    GP_CHECK_MSG(diff == 0, "%zu placements differ between 1 and 3 trials at once", diff);
    /* PerfWorks' scheduler asked directly: the same configurations, each
     * checked one pass by CUPTI, in a fraction of the time */
    gp_host_fast_grouping(1);
    double t0 = gp_host_grouping_s();
    size_t f = gp_host_partition_one_pass_threads("GH100", NULL, all, m, every, g3, c3, 64, 1);
    double fast_s = gp_host_grouping_s() - t0;
    GP_CHECK(gp_host_last_grouping_fast());
    diff = 0;
    for (size_t i = 0; i < m; i++)
        diff += g1[i] != g3[i];
    for (size_t g = 0; g < a && g < f; g++)
        diff += c1[g] != c3[g];
    GP_CHECK_MSG(f == a && diff == 0, "PerfWorks' grouping: %zu configurations, %zu placements "
                 "differ from the slow way's %zu", f, diff, a);
    printf("    %zu names: %zu configurations either way; grouped in %.0f ms by PerfWorks' "
           "scheduler, %.0f ms a run by host configurations (1 and 3 trials at once)\n",
           m, f, fast_s * 1e3, (t0 - grouped) * 1e3 / 2);
    /* a configuration PerfWorks proposes and CUPTI refuses (a limit of 12
     * names injected into the one-pass check) is grouped again by CUPTI's
     * trials: PerfWorks' grouping is kept, every configuration one pass
     * (within the limit), the same names placed, more configurations */
    int gr[400], cr[64];
    gp_host_inject_one_pass_limit(12);
    size_t r = gp_host_partition_one_pass_threads("GH100", NULL, all, m, every, gr, cr, 64, 3);
    int repaired_fast = gp_host_last_grouping_fast();
    gp_host_inject_one_pass_limit(0);
    GP_CHECK_MSG(repaired_fast && r > f, "repaired: %zu configurations (fast %d), %zu before", r,
                 repaired_fast, f);
    size_t placed_differ = 0, too_long = 0, untested = 0;
    for (size_t i = 0; i < m; i++)
        placed_differ += (gr[i] == -1) != (g1[i] == -1) || (gr[i] == GP_HOST_EVERY) != (g1[i] == GP_HOST_EVERY);
    for (size_t g = 0; g < r; g++) {
        const char *in[400];
        size_t k = 0;
        for (size_t i = 0; i < m; i++)
            if (gr[i] == (int)g || (cr[g] && gr[i] == GP_HOST_EVERY))
                in[k++] = all[i];
        too_long += k > 12 || k == 0;
        char err[512];
        gp_host_config *c = gp_host_config_create("GH100", NULL, 0, in, k, err, sizeof(err));
        untested += !c || gp_host_config_passes(c) != 1;
        gp_host_config_destroy(c);
    }
    GP_CHECK_MSG(placed_differ == 0 && too_long == 0 && untested == 0,
                 "repaired grouping: %zu names placed otherwise, %zu configurations over the "
                 "limit or empty, %zu not one pass",
                 placed_differ, too_long, untested);
    printf("    %zu names, CUPTI taking at most 12 a configuration: %zu configurations after "
           "the repair (PerfWorks' %zu)\n", m, r, f);
    /* every name carried by every configuration: nothing left to place, no
     * configuration of its own */
    int all_every[2] = {1, 1}, gg[2];
    const char *two[2] = {"gpu__time_duration.sum", "smsp__inst_executed.sum"};
    GP_CHECK(gp_host_partition_one_pass_threads("GH100", NULL, two, 2, all_every, gg, c1, 64, 3) ==
                 0 &&
             gg[0] == GP_HOST_EVERY && gg[1] == GP_HOST_EVERY);
}

int main(void)
{
    char err[1024];
    const char *def[N_COUNTERS], *hw[N_COUNTERS], *all[N_COUNTERS];
    size_t nd = 0, nh = 0, na = 0;
    for (size_t i = 0; i < N_COUNTERS; i++) {
        /* sums gpuprof derives from the SASS pass under names PerfWorks lacks
         * (gpuprof__*, the SASS Metrics API's _ideal counts) never reach CUPTI */
        if (gp_sass_derivable(counters[i].name) &&
            (strncmp(counters[i].name, "gpuprof__", 9) == 0 || strstr(counters[i].name, "_ideal")))
            continue;
        all[na++] = counters[i].name;
        if (strcmp(counters[i].set, "default") == 0) {
            def[nd++] = counters[i].name;
            if (!gp_metric_is_instrumented(counters[i].name))
                hw[nh++] = counters[i].name;
        }
    }
    GP_CHECK_MSG(gp_host_check_names("GH100", all, na, err, sizeof(err)) == 0, "%s", err);

    gp_host_config *c = gp_host_config_create("GH100", NULL, 0, def, nd, err, sizeof(err));
    GP_CHECK_MSG(c != NULL, "%s", err);
    if (c) {
        GP_CHECK_MSG(gp_host_config_passes(c) == 2, "default set: %zu passes",
                     gp_host_config_passes(c));
        size_t size = 0;
        GP_CHECK(gp_host_config_image(c, &size) != NULL && size > 0);
        GP_CHECK(gp_host_config_count(c) == nd);
        gp_host_config_destroy(c);
    }
    c = gp_host_config_create("GH100", NULL, 0, hw, nh, err, sizeof(err));
    GP_CHECK_MSG(c && gp_host_config_passes(c) == 1, "hardware subset: %s", c ? "" : err);
    gp_host_config_destroy(c);
    /* GPUPROF_SASS_EFFICIENCY=own (and @fast): every instrumented name of the
     * default set is either a sum the SASS pass counts exactly or one of
     * Nsight Compute's three efficiencies (withheld): none is left to CUPTI's
     * instrumented pass, so the range profiler's list is the hardware
     * subset above, one pass */
    size_t exact = 0, eff = 0, left = 0;
    for (size_t i = 0; i < nd; i++) {
        if (!gp_metric_is_instrumented(def[i]))
            continue;
        exact += gp_sass_exact(def[i]);
        eff += gp_sass_is_efficiency(def[i]);
        left += !gp_sass_exact(def[i]) && !gp_sass_is_efficiency(def[i]);
    }
    GP_CHECK_MSG(left == 0 && eff == 3 && exact >= 13, "%zu exact, %zu efficiencies, %zu left",
                 exact, eff, left);
    const char *one_sass[] = {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"};
    c = gp_host_config_create("GH100", NULL, 0, one_sass, 1, err, sizeof(err));
    GP_CHECK(c && gp_host_config_passes(c) == 1);
    gp_host_config_destroy(c);

    /* unknown names: one sentence with close matches */
    const char *bad[] = {"gpu__time_duration.sum", "dram__bytes_raed.sum"};
    GP_CHECK(gp_host_check_names("GH100", bad, 2, err, sizeof(err)) == 1);
    GP_CHECK_MSG(strstr(err, "unknown metric 'dram__bytes_raed.sum'") &&
                     strstr(err, "close matches: dram__bytes_read.sum"), "%s", err);
    {
        /* sixteen at a time: a group with a misspelt name is asked name by
         * name, the groups around it at once; known[] says which */
        const char *many[40];
        int known[40];
        const char *good[] = {"gpu__time_duration.sum", "dram__bytes_read.sum",
                              "smsp__inst_executed.sum", "sm__cycles_elapsed.avg"};
        for (size_t i = 0; i < 40; i++)
            many[i] = good[i % 4];
        many[21] = "dram__bytes_raed.sum";
        memset(known, 0xff, sizeof(known));
        GP_CHECK(gp_host_check_names_each("GH100", many, 40, known, err, sizeof(err)) == 1);
        size_t ones = 0;
        for (size_t i = 0; i < 40; i++)
            ones += known[i] == 1;
        GP_CHECK_MSG(ones == 39 && known[21] == 0, "%zu known, known[21] = %d", ones, known[21]);
        GP_CHECK_MSG(strstr(err, "dram__bytes_raed.sum") != NULL, "%s", err);
        /* a list of one, and the last group of one */
        GP_CHECK(gp_host_check_names_each("GH100", many, 1, known, err, sizeof(err)) == 0 &&
                 known[0] == 1);
        GP_CHECK(gp_host_check_names_each("GH100", many + 22, 17, known, err, sizeof(err)) == 0);
    }
    c = gp_host_config_create("GH100", NULL, 0, bad, 2, err, sizeof(err));
    GP_CHECK(c == NULL && strstr(err, "dram__bytes_raed.sum") != NULL);
    /* name by name: the misspelt one cannot be scheduled, the duration can */
    int group[2] = {9, 9};
    GP_CHECK(gp_host_partition("GH100", NULL, bad, 2, group) == 1 && group[0] == 0 &&
             group[1] == -1);
    /* a refused name first: tried alone beforehand, it is left out and the
     * configuration goes to the names after it (an add CUPTI refuses spoils
     * the host object for every later add) */
    const char *refused_first[3] = {"dram__bytes_raed.sum", "gpu__time_duration.sum",
                                    "dram__bytes_read.sum"};
    int g3[3] = {9, 9, 9};
    GP_CHECK(gp_host_partition("GH100", NULL, refused_first, 3, g3) == 1 && g3[0] == -1 &&
             g3[1] == 0 && g3[2] == 0);
    /* a refused name between two: left out, the configuration goes on with
     * the name after it */
    const char *refused_mid[3] = {"gpu__time_duration.sum", "dram__bytes_raed.sum",
                                  "dram__bytes_read.sum"};
    int gm[3] = {9, 9, 9};
    GP_CHECK(gp_host_partition("GH100", NULL, refused_mid, 3, gm) == 1 && gm[0] == 0 &&
             gm[1] == -1 && gm[2] == 0);
    long_list();
    size_t g_def = 0, g_long = 0;
    one_pass_split(def, nd, "default set", &g_def);
    GP_CHECK_MSG(g_def == 2, "default set in %zu one-pass configurations", g_def);
    {
        const char *names[300];
        size_t n = read_250(names);
        one_pass_split(names, n, "250 counters", &g_long);
        GP_CHECK(g_long > 1);
    }
    threads_same(def, nd);
    c = gp_host_config_create("NOSUCHCHIP", NULL, 0, def, 1, err, sizeof(err));
    GP_CHECK(c == NULL && strstr(err, "NOSUCHCHIP") != NULL);

    GP_CHECK(gp_metric_is_instrumented("smsp__sass_inst_executed.sum"));
    GP_CHECK(!gp_metric_is_instrumented("dram__bytes_read.sum"));
    GP_CHECK(!gp_metric_is_instrumented("sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained"));
    GP_CHECK(gp_metric_is_instrumented("sm__sass_thread_inst_executed_op_ffma_pred_on.sum"));
    return gp_test_finish("cupti_host");
}
