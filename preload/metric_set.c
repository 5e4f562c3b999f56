/* metric_set.c - see metric_set.h. */
#include "preload/metric_set.h"

#include <stdlib.h>
#include <string.h>

#include "preload/core_state.h"
#include "util/log.h"

static const struct {
    const char *name, *unit, *set;
} known_counters[] = {
#define GP_COUNTER(n, u, c, s, d) {n, u, s},
#include "metrics/counters.def"
#undef GP_COUNTER
};

const char *const gp_metric_spread[4] = {"gpu__time_duration.sum", "smsp__inst_executed.sum",
                                         "sm__cycles_elapsed.avg", "sm__cycles_elapsed.max"};

int gp_metric_set_is_spread(const char *name)
{
    for (size_t i = 0; i < sizeof(gp_metric_spread) / sizeof(gp_metric_spread[0]); i++)
        if (strcmp(name, gp_metric_spread[i]) == 0)
            return 1;
    return 0;
}

size_t gp_metric_set_index(const char *name)
{
    for (size_t i = 0; i < gp_core.n_metrics; i++)
        if (strcmp(gp_core.metric_names[i], name) == 0)
            return i;
    return gp_core.n_metrics;
}

static const char *counter_unit(const char *name)
{
    for (size_t i = 0; i < sizeof(known_counters) / sizeof(known_counters[0]); i++)
        if (strcmp(known_counters[i].name, name) == 0)
            return known_counters[i].unit;
    return "";
}

static void metric_add(const char *name)
{
    for (size_t i = 0; i < gp_core.n_metrics; i++)
        if (strcmp(gp_core.metric_names[i], name) == 0)
            return;
    gp_core.metric_names[gp_core.n_metrics] = name;
    gp_core.metric_units[gp_core.n_metrics] = counter_unit(name);
    gp_core.n_metrics++;
}

int gp_metric_set_build(void)
{
    const gp_config *cfg = &gp_core.cfg;
    size_t cap = sizeof(known_counters) / sizeof(known_counters[0]) + cfg->n_metrics +
                 sizeof(gp_metric_spread) / sizeof(gp_metric_spread[0]);
    gp_core.metric_names = calloc(cap, sizeof(char *));
    gp_core.metric_units = calloc(cap, sizeof(char *));
    if (!gp_core.metric_names || !gp_core.metric_units)
        return -1;
    /* @fast: the SASS pass counts the instrumented sums; Nsight Compute's
     * instrumented efficiencies, which need the range profiler's own
     * instrumented pass, are left out of the default set */
    gp_collect_route_exact_to_sass(cfg->metrics_fast || cfg->metrics_source);
    for (size_t i = 0; i < sizeof(known_counters) / sizeof(known_counters[0]); i++) {
        const char *name = known_counters[i].name;
        int is_default = strcmp(known_counters[i].set, "default") == 0;
        if (strcmp(known_counters[i].set, "warpstate") == 0) {
            if (cfg->metrics_warpstate)
                metric_add(name);
            continue;
        }
        /* @source: the SASS pass's exact sums only, so that no range profiler
         * takes the context and stall sampling can run beside it */
        if (cfg->metrics_source && is_default && gp_collect_is_sass(name)) {
            metric_add(name);
            continue;
        }
        if (is_default && cfg->metrics_fast && gp_collect_is_instrumented(name) &&
            !gp_collect_is_sass(name))
            continue;
        if ((is_default && !cfg->metrics_replace) ||
            (strcmp(known_counters[i].set, "extended") == 0 && cfg->metrics_extended))
            metric_add(name);
    }
    for (size_t i = 0; i < cfg->n_metrics; i++)
        metric_add(cfg->metrics[i]);
    /* replay mode none: the counters every configuration carries, which
     * give each variant's launch-to-launch spread (variants.h) */
    if (cfg->replay_mode == GP_REPLAY_NONE && gp_metric_set_needs_counters())
        for (size_t i = 0; i < sizeof(gp_metric_spread) / sizeof(gp_metric_spread[0]); i++)
            metric_add(gp_metric_spread[i]);
    return 0;
}

void gp_metric_set_check(const char *chip)
{
    if (gp_core.metrics_checked)
        return;
    gp_core.metrics_checked = 1;
    size_t keep = 0;
    for (size_t i = 0; i < gp_core.n_metrics; i++) {
        char err[768];
        const char *name = gp_core.metric_names[i];
        int why = gp_collect_check_name(chip, name, err, sizeof(err));
        if (why == GP_NAME_SASS_UNDERIVABLE) {
            gp_error("GPUPROF_METRICS: '%s' is not one of gpuprof's own SASS metrics; it is "
                     "left out (see docs/user-guide.md for the gpuprof__sass_* metrics)",
                     name);
            continue;
        }
        if (why != GP_NAME_OK) {
            gp_error("GPUPROF_METRICS: %s; it is left out, the other metrics are collected", err);
            continue;
        }
        gp_core.metric_names[keep] = gp_core.metric_names[i];
        gp_core.metric_units[keep] = gp_core.metric_units[i];
        keep++;
    }
    gp_core.n_metrics = keep;
    gp_core.hw_index = calloc(keep ? keep : 1, sizeof(size_t));
    for (size_t i = 0; i < gp_core.n_metrics; i++) {
        if (gp_collect_is_sass(gp_core.metric_names[i]))
            gp_core.has_sass = 1;
        else if (gp_core.hw_index)
            gp_core.hw_index[gp_core.n_hw++] = i;
    }
    gp_core.set.names = gp_core.metric_names;
    gp_core.set.n = gp_core.n_metrics;
    gp_core.set.hw_index = gp_core.hw_index;
    gp_core.set.n_hw = gp_core.n_hw;
}

int gp_metric_set_needs_counters(void)
{
    for (size_t i = 0; i < gp_core.n_metrics; i++)
        if (!gp_collect_is_sass(gp_core.metric_names[i]))
            return 1;
    return 0;
}

int gp_metric_set_wants_sass(void)
{
    for (size_t i = 0; i < gp_core.n_metrics; i++)
        if (gp_collect_is_sass(gp_core.metric_names[i]))
            return 1;
    return 0;
}
