/* metric_set.c - see metric_set.h. */
#include "preload/metric_set.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/catalog/derived.h"
#include "metrics/catalog/expr.h"
#include "metrics/catalog/facts.h"
#include "metrics/ncu/ncu_names.h"
#include "metrics/ncu/sections.h"
#include "preload/core_state.h"
#include "util/log.h"

static const struct {
    const char *name, *unit, *set;
} known_counters[] = {
#define GP_COUNTER(n, u, c, s, d) {n, u, s},
#include "metrics/catalog/counters.def"
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

static size_t metric_cap;
static char *sections_text; /* gp_metric_set_sections() */

static void metric_add(const char *name)
{
    for (size_t i = 0; i < gp_core.n_metrics; i++)
        if (strcmp(gp_core.metric_names[i], name) == 0)
            return;
    if (gp_core.n_metrics == metric_cap) { /* a derived name's inputs, added late */
        size_t nc = 2 * metric_cap + 8;
        const char **nn = realloc(gp_core.metric_names, nc * sizeof(char *));
        if (nn)
            gp_core.metric_names = nn;
        const char **nu = nn ? realloc(gp_core.metric_units, nc * sizeof(char *)) : NULL;
        if (!nu)
            return;
        gp_core.metric_units = nu;
        metric_cap = nc;
    }
    gp_core.metric_names[gp_core.n_metrics] = name;
    gp_core.metric_units[gp_core.n_metrics] = counter_unit(name);
    gp_core.n_metrics++;
}

/* ---- Nsight Compute's sections (metrics/ncu/sections.def) ----------------- */

static void section_metric(void *ctx, const char *name)
{
    (void)ctx;
    if (gp_metric_set_index(name) < gp_core.n_metrics)
        return;
    char *copy = strdup(name); /* kept for the process: the list points at it */
    if (copy)
        metric_add(copy);
}

typedef struct {
    char names[1536];
    size_t used, n;
} cannot_list;

static void section_cannot(void *ctx, const gp_ncu_row *r)
{
    cannot_list *c = ctx;
    /* a metric some other chosen section names too is said once */
    if (strstr(c->names, r->metric))
        return;
    c->n++;
    gp_info("section %s: %s%s%s is not collected: %s", r->section, r->label[0] ? r->label : "",
            r->label[0] ? " " : "", r->metric, r->value + 1);
    if (c->used < sizeof(c->names)) {
        int k = snprintf(c->names + c->used, sizeof(c->names) - c->used, "%s%s",
                         c->used ? ", " : "", r->metric);
        if (k > 0)
            c->used += (size_t)k;
    }
}

/* The sections' metrics added to the list; what they show that gpuprof
 * cannot collect said once, each with its reason at GPUPROF_LOG_LEVEL=info. */
static void sections_add(uint64_t mask)
{
    char ids[1024];
    cannot_list c;
    memset(&c, 0, sizeof(c));
    gp_ncu_collect(mask, section_metric, NULL);
    gp_ncu_mask_format(mask, ids, sizeof(ids));
    free(sections_text);
    sections_text = strdup(ids);
    gp_ncu_cannot(mask, section_cannot, &c);
    if (c.n)
        gp_warn("sections %s: %zu of their metrics cannot be collected by gpuprof (%s%s); "
                "gpuprof --list-sections --verbose or GPUPROF_LOG_LEVEL=info says why, and "
                "gpuprof-report --page details shows each with its reason",
                ids, c.n, c.names, c.used >= sizeof(c.names) ? "..." : "");
}

const char *gp_metric_set_sections(void)
{
    return sections_text;
}

/* GPUPROF_SASS_EFFICIENCY=check: beside each instrumented name of the list
 * the range profiler collects and the SASS pass can derive, the SASS pass's
 * own value of it (gp_sass_own_of in replay/sass_derive.h), so that a record
 * holds both for the cross-check.  The names live as long as the process. */
static void own_beside(void)
{
    size_t n = gp_core.n_metrics;
    for (size_t i = 0; i < n; i++) {
        const char *name = gp_core.metric_names[i];
        const char *rest = name + strlen("smsp__sass_");
        if (strncmp(name, "smsp__sass_", strlen("smsp__sass_")) != 0 ||
            !gp_collect_is_instrumented(name) || gp_collect_is_sass(name))
            continue;
        size_t len = strlen(GP_SASS_OWN_PREFIX) + strlen(rest) + 1;
        char *own = malloc(len);
        if (!own)
            return;
        snprintf(own, len, "%s%s", GP_SASS_OWN_PREFIX, rest);
        if (gp_collect_is_sass(own))
            metric_add(own);
        else
            free(own);
    }
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
    metric_cap = cap;
    /* @fast: the SASS pass counts the instrumented sums; Nsight Compute's
     * instrumented efficiencies, which need the range profiler's own
     * instrumented pass, are left out of the default set */
    int own = cfg->sass_efficiency == GP_SASS_EFF_OWN;
    gp_collect_route_exact_to_sass(cfg->metrics_fast || cfg->metrics_source || own);
    gp_collect_withhold_efficiencies(own);
    /* the splits of the list into configurations, kept between runs */
    gp_collect_setup_cache(cfg->cache_dir);
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
    if (cfg->ncu_sections)
        sections_add(cfg->ncu_sections);
    if (cfg->sass_efficiency == GP_SASS_EFF_CHECK)
        own_beside();
    /* replay mode none: the counters every configuration carries, which
     * give each variant's launch-to-launch spread (variants.h) */
    if (cfg->replay_mode == GP_REPLAY_NONE && gp_metric_set_needs_counters())
        for (size_t i = 0; i < sizeof(gp_metric_spread) / sizeof(gp_metric_spread[0]); i++)
            metric_add(gp_metric_spread[i]);
    return 0;
}

/* ---- Nsight Compute's names: accepted, or refused with the reason ------- */

static void chip_add(void *ctx, const char *name, int type)
{
    gp_ncun_list_add(ctx, name, type);
}

/* The chip's base metrics from CUPTI, read at the first name that needs a
 * reason or close names (NULL when CUPTI cannot list them). */
static gp_ncun_list *chip_list(const char *chip, gp_ncun_list **l, int *tried)
{
    if (!*tried) {
        *tried = 1;
        *l = gp_ncun_list_new();
        if (*l && gp_collect_each_base(chip, chip_add, *l) == 0) {
            gp_ncun_list_done(*l);
        } else {
            gp_ncun_list_free(*l);
            *l = NULL;
        }
    }
    return *l;
}

/* The counters a derived name's formula needs, added to the list (facts
 * and other derived metrics are not collected; depth bounds a cycle, which
 * the build check of derived.def rules out anyway). */
static void derived_input(void *ctx, const char *name, size_t len);
static void derived_inputs(const char *name, int depth)
{
    int d = gp_derived_index(name);
    if (d < 0 || depth > 8)
        return;
    gp_expr_names(gp_derived_defs[d].formula, derived_input, &depth);
}

static void derived_input(void *ctx, const char *name, size_t len)
{
    int depth = *(int *)ctx;
    char buf[256];
    if (len >= sizeof(buf) || gp_facts_known(name, len))
        return;
    memcpy(buf, name, len);
    buf[len] = 0;
    if (gp_derived_index(buf) >= 0) {
        derived_inputs(buf, depth + 1);
        return;
    }
    for (size_t i = 0; i < sizeof(known_counters) / sizeof(known_counters[0]); i++)
        if (strcmp(known_counters[i].name, buf) == 0) { /* a static string for the list */
            metric_add(known_counters[i].name);
            return;
        }
    gp_warn("GPUPROF_METRICS: '%s' (an input of a derived metric) is not in counters.def; "
            "its derived metric may be n/a", buf);
}

/* 1 when name is one of Nsight Compute's names decided without CUPTI (it
 * leaves the CUPTI list), 0 when CUPTI decides. */
static int ncu_name(const char *chip, const char *name, gp_ncun_list **l, int *tried)
{
    gp_ncun_verdict v;
    if (!gp_ncun_known(name))
        return 0;
    gp_ncun_check(chip_list(chip, l, tried), chip, name, &v);
    if (v.kind == GP_NCUN_ACCEPT_DERIVED) {
        gp_info("GPUPROF_METRICS: '%s' is %s; gpuprof-report shows it", name, v.reason);
        derived_inputs(name, 0);
    } else if (v.kind == GP_NCUN_ACCEPT_LAUNCH) {
        gp_info("GPUPROF_METRICS: '%s' is %s", name, v.reason);
    } else {
        gp_error("GPUPROF_METRICS: '%s' is refused: %s; collect instead: %s; it is left out, "
                 "the other metrics are collected",
                 name, v.reason, v.instead);
    }
    return 1;
}

/* A name CUPTI is asked about as it is (not one of Nsight Compute's derived
 * names, not a SASS metric, not one of gpuprof's own). */
static int is_counter_name(const char *name)
{
    return !gp_ncun_known(name) && !gp_collect_is_sass(name) && strncmp(name, "gpuprof__", 9) != 0;
}

/* known[i] = 1 for the counter names CUPTI knows, asked sixteen at a time
 * (a long list name by name took about 1 s); 0 for the others, which are
 * asked again one by one for their message.  NULL when out of memory. */
static int *counters_known(const char *chip)
{
    size_t n = gp_core.n_metrics, k = 0;
    const char **asked = calloc(n ? n : 1, sizeof(*asked));
    int *got = calloc(n ? n : 1, sizeof(*got)), *known = calloc(n ? n : 1, sizeof(*known));
    if (asked && got && known) {
        for (size_t i = 0; i < n; i++)
            if (is_counter_name(gp_core.metric_names[i]))
                asked[k++] = gp_core.metric_names[i];
        gp_collect_names_known(chip, asked, k, got);
        k = 0;
        for (size_t i = 0; i < n; i++)
            if (is_counter_name(gp_core.metric_names[i]))
                known[i] = got[k++];
    }
    free(asked);
    free(got);
    return known;
}

void gp_metric_set_check(const char *chip)
{
    gp_ncun_list *list = NULL;
    int listed = 0;
    if (gp_core.metrics_checked)
        return;
    gp_core.metrics_checked = 1;
    size_t keep = 0;
    int *known = counters_known(chip);
    for (size_t i = 0; i < gp_core.n_metrics; i++) {
        char err[768];
        const char *name = gp_core.metric_names[i];
        if (ncu_name(chip, name, &list, &listed))
            continue;
        int why = known && known[i] ? GP_NAME_OK
                                    : gp_collect_check_name(chip, name, err, sizeof(err));
        if (why == GP_NAME_SASS_UNDERIVABLE) {
            gp_error("GPUPROF_METRICS: '%s' is not one of gpuprof's own SASS metrics; it is "
                     "left out (see docs/user-guide.md for the gpuprof__sass_* metrics)",
                     name);
            continue;
        }
        if (why != GP_NAME_OK) {
            gp_ncun_verdict v;
            gp_ncun_check(chip_list(chip, &list, &listed), chip, name, &v);
            if (v.kind == GP_NCUN_REFUSED && list)
                gp_error("GPUPROF_METRICS: unknown metric '%s' for %s%s%s%s; close matches: %s; "
                         "it is left out, the other metrics are collected",
                         name, chip, strncmp(v.reason, "not a metric", 12) ? " (" : "",
                         strncmp(v.reason, "not a metric", 12) ? v.reason : "",
                         strncmp(v.reason, "not a metric", 12) ? ")" : "", v.instead);
            else
                gp_error("GPUPROF_METRICS: %s; it is left out, the other metrics are collected",
                         err);
            continue;
        }
        gp_core.metric_names[keep] = gp_core.metric_names[i];
        gp_core.metric_units[keep] = gp_core.metric_units[i];
        keep++;
    }
    gp_core.n_metrics = keep;
    free(known);
    gp_ncun_list_free(list);
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
