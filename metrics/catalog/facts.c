/* facts.c - values of the facts of facts.def; see facts.h. */
#include "metrics/catalog/facts.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/num.h"

const gp_fact_def gp_fact_defs[] = {
#define GP_FACT(name, unit, desc, source, value) {name, unit, desc},
#include "metrics/catalog/facts.def"
#undef GP_FACT
};
const size_t gp_fact_count = sizeof gp_fact_defs / sizeof gp_fact_defs[0];

static int gp_facts_index(const char *name, size_t len)
{
    size_t i;
    for (i = 0; i < gp_fact_count; i++)
        if (gp_fact_defs[i].name[0] == name[0] && strncmp(gp_fact_defs[i].name, name, len) == 0 &&
            gp_fact_defs[i].name[len] == 0) /* the first byte rules most out cheaply */
            return (int)i;
    return -1;
}

int gp_facts_known(const char *name, size_t len)
{
    return gp_facts_index(name, len) >= 0;
}

/* Which struct each fact needs, so an absent one gives n/a before any
 * dereference. */
static const void *gp_facts_source(const gp_facts *f, const char *source)
{
    if (strcmp(source, "launch") == 0)
        return f->launch;
    if (strcmp(source, "device") == 0)
        return f->device;
    if (strcmp(source, "occ") == 0)
        return f->occ;
    return f->peaks;
}

int gp_facts_lookup(const gp_facts *f, const char *name, size_t len, double *v, char *why,
                    size_t whylen)
{
    int i = gp_facts_index(name, len), k = 0;
    if (i < 0)
        return -1;
#define GP_FACT(fname, unit, desc, source, value)                                                  \
    if (k++ == i) {                                                                                \
        if (!gp_facts_source(f, #source)) {                                                        \
            *v = NAN;                                                                              \
            snprintf(why, whylen, "%s unknown (no %s data)", fname, #source);                    \
            return 0;                                                                              \
        }                                                                                          \
        *v = (value);                                                                              \
    }
#include "metrics/catalog/facts.def"
#undef GP_FACT
    if (isnan(*v)) {
        if (strncmp(name, "peak.", 5) == 0)
            snprintf(why, whylen, "%.*s: %s", (int)len, name,
                     f->peaks->source[0] ? "not in the peaks file"
                                         : "no peaks file (gpuprof-report --peaks FILE)");
        else
            snprintf(why, whylen, "%.*s unknown", (int)len, name);
    }
    return 0;
}

void gp_facts_of_launch(gp_facts *f, const gp_launch *l, const gp_device *d, const gp_peaks *peaks,
                        gp_occ_result *occ)
{
    gp_occ_input oi;
    memset(&oi, 0, sizeof oi);
    oi.threads_per_block = (int)gp_num_clamp((double)gp_record_threads_per_block(l), 0, INT_MAX, 0);
    oi.regs_per_thread = l->regs_per_thread;
    oi.static_smem = l->static_smem;
    oi.dynamic_smem = l->dynamic_smem;
    oi.max_dynamic_smem = -1;
    oi.carveout_pct = -1;
    oi.cluster_size = (int)gp_num_clamp((double)gp_record_cluster_size(l), 0, INT_MAX, 0);
    gp_occupancy_compute(d, &oi, occ);
    f->launch = l;
    f->device = d;
    f->occ = occ->limiter == GP_OCC_LIMIT_INVALID ? NULL : occ;
    f->peaks = peaks;
}
