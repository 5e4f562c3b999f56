/* test_cupti_host.c - the CUPTI host-side configuration for GH100, offline (no
 * GPU): every counter of counters.def resolves, the default set takes 2
 * passes (hardware counters in one, SASS-instrumented ones in another), and an
 * unknown name gets one message with close matches. */
#include "preload/sass_derive.h"
#include "replay/cupti_host.h"
#include "tests/unit/gp_test.h"

static const struct {
    const char *name, *set;
} counters[] = {
#define GP_COUNTER(n, u, c, s, d) {n, s},
#include "metrics/counters.def"
#undef GP_COUNTER
};
#define N_COUNTERS (sizeof(counters) / sizeof(counters[0]))

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
    const char *one_sass[] = {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"};
    c = gp_host_config_create("GH100", NULL, 0, one_sass, 1, err, sizeof(err));
    GP_CHECK(c && gp_host_config_passes(c) == 1);
    gp_host_config_destroy(c);

    /* unknown names: one sentence with close matches */
    const char *bad[] = {"gpu__time_duration.sum", "dram__bytes_raed.sum"};
    GP_CHECK(gp_host_check_names("GH100", bad, 2, err, sizeof(err)) == 1);
    GP_CHECK_MSG(strstr(err, "unknown metric 'dram__bytes_raed.sum'") &&
                     strstr(err, "close matches: dram__bytes_read.sum"), "%s", err);
    c = gp_host_config_create("GH100", NULL, 0, bad, 2, err, sizeof(err));
    GP_CHECK(c == NULL && strstr(err, "dram__bytes_raed.sum") != NULL);
    /* name by name: the misspelt one cannot be scheduled, the duration can */
    unsigned char cannot[2] = {9, 9};
    GP_CHECK(gp_host_unschedulable("GH100", NULL, bad, 2, cannot) == 1 && cannot[0] == 0 &&
             cannot[1] == 1);
    c = gp_host_config_create("NOSUCHCHIP", NULL, 0, def, 1, err, sizeof(err));
    GP_CHECK(c == NULL && strstr(err, "NOSUCHCHIP") != NULL);

    GP_CHECK(gp_metric_is_instrumented("smsp__sass_inst_executed.sum"));
    GP_CHECK(!gp_metric_is_instrumented("dram__bytes_read.sum"));
    GP_CHECK(!gp_metric_is_instrumented("sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained"));
    GP_CHECK(gp_metric_is_instrumented("sm__sass_thread_inst_executed_op_ffma_pred_on.sum"));
    return gp_test_finish("cupti_host");
}
