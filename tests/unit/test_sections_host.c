/* test_sections_host.c - the metrics Nsight Compute's sets and sections
 * have gpuprof collect (metrics/ncu/sections.def), asked of CUPTI's host
 * API for GH100 offline (no GPU): every name is one CUPTI knows (a name it
 * does not would be dropped at run time, its row n/a), and each set's list
 * splits into configurations CUPTI accepts, whose passes are printed (the
 * full set: 229 names in 3 configurations, 29 passes, where Nsight
 * Compute's full set took 38 on an H100). */
#include "metrics/ncu/sections.h"
#include "replay/cupti_host.h"
#include "replay/host_group.h"
#include "tests/unit/gp_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 1024
static const char *names[MAXN];
static size_t n;

static void add(void *ctx, const char *s)
{
    (void)ctx;
    if (n < MAXN)
        names[n++] = strdup(s);
}

/* The passes of the set's list; -1 when CUPTI cannot be asked. */
static long set_passes(const char *set, size_t *n_names, size_t *n_configs)
{
    static int known[MAXN], group[MAXN];
    char err[2048];
    long passes = 0;
    for (size_t i = 0; i < n; i++)
        free((void *)names[i]);
    n = 0;
    gp_ncu_collect(gp_ncu_set_mask(gp_ncu_set_find(set)), add, NULL);
    *n_names = n;
    memset(known, 0, sizeof known);
    gp_host_check_names_each("GH100", names, n, known, err, sizeof err);
    for (size_t i = 0; i < n; i++)
        GP_CHECK_MSG(known[i], "--set %s: CUPTI does not know %s on GH100", set, names[i]);
    *n_configs = gp_host_partition("GH100", NULL, names, n, group);
    if (!*n_configs)
        return -1;
    for (size_t c = 0; c < *n_configs; c++) {
        const char *sub[MAXN];
        size_t k = 0;
        gp_host_config *cfg;
        for (size_t i = 0; i < n; i++)
            if (group[i] == (int)c)
                sub[k++] = names[i];
        cfg = gp_host_config_create("GH100", NULL, 0, sub, k, err, sizeof err);
        GP_CHECK_MSG(cfg != NULL, "--set %s: configuration %zu refused: %s", set, c, err);
        if (cfg) {
            passes += (long)gp_host_config_passes(cfg);
            gp_host_config_destroy(cfg);
        }
    }
    for (size_t i = 0; i < n; i++)
        GP_CHECK_MSG(group[i] >= 0, "--set %s: %s in no configuration", set, names[i]);
    return passes;
}

int main(void)
{
    static const char *const sets[] = {"basic", "detailed", "full", "roofline"};
    char err[256];
    const char *probe = "gpu__time_duration.sum";
    if (gp_host_check_names("GH100", &probe, 1, err, sizeof err) != 0) {
        gp_test_skip("sections on CUPTI's host API", "CUPTI's host API cannot be loaded here");
        return gp_test_finish("sections-host");
    }
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        size_t nn = 0, nc = 0;
        long p = set_passes(sets[s], &nn, &nc);
        GP_CHECK_MSG(p > 0, "--set %s: no configuration", sets[s]);
        printf("--set %s: %zu metrics, %zu configuration%s, %ld passes on GH100\n", sets[s], nn, nc,
               nc == 1 ? "" : "s", p);
    }
    return gp_test_finish("sections-host");
}
