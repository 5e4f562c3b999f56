/* test_ncu_names.c - every name Nsight Compute lists for GH100 and every
 * name its sections use is accepted or refused with a reason and names to
 * collect instead (metrics/ncu/ncu_names.c), walked on the recorded
 * `ncu --query-metrics --chip gh100` (tests/data/ncu-query/): the bases
 * expanded with the suffix grammar reproduce ncu's --query-metrics-mode all
 * listing exactly (its checksum and count), each of those 150,179 names is
 * accepted for CUPTI, each bare base is refused with its suffixed name
 * offered, each section name gets a verdict, and every name a refusal
 * offers instead is itself accepted.  Fails on the old code, which refused
 * smsp__maximum_warps_avg_per_active_cycle and every launch__ name. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "metrics/ncu/ncu_names.h"

#define DIR "tests/data/ncu-query/"

static int type_of(const char *t)
{
    return strcmp(t, "Counter") == 0      ? GP_NCUN_COUNTER
           : strcmp(t, "Ratio") == 0      ? GP_NCUN_RATIO
           : strcmp(t, "Throughput") == 0 ? GP_NCUN_THROUGHPUT
                                          : GP_NCUN_NONE;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every name the verdict offers instead must be accepted. */
static void check_instead(const gp_ncun_list *chip, const char *name, const gp_ncun_verdict *v)
{
    char buf[sizeof v->instead], *tok, *save = NULL;
    int names = 0;
    snprintf(buf, sizeof buf, "%s", v->instead);
    for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        gp_ncun_verdict w;
        if (!strstr(tok, "__"))
            continue; /* words of a sentence */
        names++;
        gp_ncun_check(chip, "GH100", tok, &w);
        GP_CHECK_MSG(w.kind != GP_NCUN_REFUSED, "%s: offers %s, which is refused (%s)", name, tok,
                     w.reason);
    }
    GP_CHECK_MSG(names > 0, "%s: refused (%s) with no name instead: '%s'", name, v->reason,
                 v->instead);
}

int main(void)
{
    FILE *f = fopen(DIR "gh100-metrics.txt", "r");
    char line[512], **all = NULL;
    unsigned long long want_hash = 0, hash = 1469598103934665603ull;
    size_t want_n = 0, n_all = 0, cap = 0, i, n_base = 0, refused = 0, accepted = 0;
    gp_ncun_list *chip = gp_ncun_list_new();
    gp_ncun_verdict v;
    if (!f) {
        GP_CHECK_MSG(0, "cannot open " DIR "gh100-metrics.txt");
        return gp_test_finish("ncu-names");
    }
    /* the bases, and the suffixed names their types give */
    while (fgets(line, sizeof line, f)) {
        char name[400], type[40];
        if (sscanf(line, "# all-fnv1a %llx %zu", &want_hash, &want_n) == 2 || line[0] == '#')
            continue;
        if (sscanf(line, "%399s %39s", name, type) != 2)
            continue;
        GP_CHECK_MSG(type_of(type) != GP_NCUN_NONE, "type %s of %s", type, name);
        GP_CHECK(gp_ncun_list_add(chip, name, type_of(type)) == 0);
        n_base++;
        for (i = 0; gp_ncun_suffix(type_of(type), i); i++) {
            if (n_all == cap) {
                cap = cap ? 2 * cap : 65536;
                all = realloc(all, cap * sizeof *all);
            }
            all[n_all] = malloc(strlen(name) + strlen(gp_ncun_suffix(type_of(type), i)) + 1);
            strcpy(all[n_all], name);
            strcat(all[n_all++], gp_ncun_suffix(type_of(type), i));
        }
    }
    fclose(f);
    gp_ncun_list_done(chip);
    GP_CHECK_MSG(n_base == 3650, "%zu base metrics", n_base);
    qsort(all, n_all, sizeof *all, cmp_str);
    for (i = 0; i < n_all; i++) {
        const unsigned char *p;
        for (p = (const unsigned char *)all[i]; *p; p++)
            hash = (hash ^ *p) * 1099511628211ull;
        hash = (hash ^ '\n') * 1099511628211ull;
    }
    GP_CHECK_MSG(n_all == want_n && hash == want_hash,
                 "the grammar gives %zu names (fnv %016llx), ncu listed %zu (%016llx)", n_all, hash,
                 want_n, want_hash);

    /* every listed name is accepted for CUPTI */
    for (i = 0; i < n_all; i++) {
        gp_ncun_check(chip, "GH100", all[i], &v);
        if (v.kind != GP_NCUN_ACCEPT_CUPTI) {
            GP_CHECK_MSG(0, "%s: %s", all[i], v.reason);
            break;
        }
        accepted++;
    }
    GP_CHECK(accepted == n_all);
    for (i = 0; i < n_all; i++)
        free(all[i]);
    free(all);

    /* a bare base is refused, its suffixed name offered */
    gp_ncun_check(chip, "GH100", "dram__bytes", &v);
    GP_CHECK(v.kind == GP_NCUN_REFUSED && strstr(v.reason, "roll-up suffix"));
    GP_CHECK_STR(v.instead, "dram__bytes.sum");
    gp_ncun_check(chip, "GH100", "dram__throughput", &v);
    GP_CHECK_STR(v.instead, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
    gp_ncun_check(chip, "GH100", "tpc__average_cta_latency.sum", &v); /* a ratio's wrong suffix */
    GP_CHECK_MSG(v.kind == GP_NCUN_REFUSED && strstr(v.reason, "not a suffix a ratio"), "%s",
                 v.reason);
    GP_CHECK_STR(v.instead, "tpc__average_cta_latency.ratio");
    /* Nsight Compute's own derived names gpuprof computes */
    gp_ncun_check(chip, "GH100", "smsp__maximum_warps_avg_per_active_cycle", &v);
    GP_CHECK_MSG(v.kind == GP_NCUN_ACCEPT_DERIVED && strstr(v.reason, "occ.warps_per_sm / 4"),
                 "%d %s", v.kind, v.reason);
    gp_ncun_check(chip, "GH100", "launch__grid_size", &v);
    GP_CHECK(v.kind == GP_NCUN_ACCEPT_LAUNCH);
    /* refusals with their reasons and names instead */
    gp_ncun_check(chip, "GH100", "derived__smsp__sass_thread_inst_executed_op_hfma_pred_on_x4", &v);
    GP_CHECK(v.kind == GP_NCUN_REFUSED && strstr(v.reason, "section file"));
    GP_CHECK_STR(v.instead, "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum");
    gp_ncun_check(chip, "GH100", "smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued", &v);
    GP_CHECK_STR(v.instead,
                 "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio");
    gp_ncun_check(
        chip, "GH100",
        "sm__ops_path_tensor_op_utchmma_src_bf16_dst_fp32_sparsity_off.sum.peak_sustained", &v);
    GP_CHECK_MSG(
        v.kind == GP_NCUN_REFUSED && strstr(v.reason, "not a metric of GH100") &&
            strstr(v.instead,
                   "sm__ops_path_tensor_op_hmma_src_bf16_dst_fp32_sparsity_off.sum.peak_sustained"),
        "%s: %s", v.reason, v.instead);
    gp_ncun_check(chip, "GH100", "l1tex__lsu_writeback_active_mem_lg.sum.peak_sustained", &v);
    GP_CHECK_MSG(strstr(v.instead, "l1tex__lsu_writeback_active_mem_lgds.sum.peak_sustained"), "%s",
                 v.instead);

    /* every name of the sections and rules: accepted, or refused with a
     * reason and accepted names instead; and every bare base */
    f = fopen(DIR "section-names.txt", "r");
    GP_CHECK(f != NULL);
    while (f && fgets(line, sizeof line, f)) {
        char name[400];
        if (line[0] == '#' || sscanf(line, "%399s", name) != 1)
            continue;
        gp_ncun_check(chip, "GH100", name, &v);
        if (v.kind == GP_NCUN_REFUSED) {
            refused++;
            GP_CHECK_MSG(v.reason[0], "%s: refused without a reason", name);
            check_instead(chip, name, &v);
        }
    }
    if (f)
        fclose(f);
    GP_CHECK_MSG(refused > 100 && refused < 500, "%zu section names refused", refused);
    f = fopen(DIR "gh100-metrics.txt", "r");
    while (f && fgets(line, sizeof line, f)) {
        char name[400];
        if (line[0] == '#' || sscanf(line, "%399s", name) != 1)
            continue;
        gp_ncun_check(chip, "GH100", name, &v);
        GP_CHECK_MSG(v.kind == GP_NCUN_REFUSED && v.reason[0], "%s bare: %d", name, v.kind);
        check_instead(chip, name, &v);
    }
    if (f)
        fclose(f);
    /* every counter gpuprof collects is one of the chip's (its own
     * gpuprof__ sums apart, and the ideal wavefronts the SASS pass counts:
     * replay/sass_derive.c) */
    {
        static const char *const counters[] = {
#define GP_COUNTER(n, u, c, s, d) n,
#include "metrics/catalog/counters.def"
#undef GP_COUNTER
        };
        for (i = 0; i < sizeof counters / sizeof counters[0]; i++) {
            if (strncmp(counters[i], "gpuprof__", 9) == 0 || strstr(counters[i], "_ideal.sum"))
                continue;
            gp_ncun_check(chip, "GH100", counters[i], &v);
            GP_CHECK_MSG(v.kind == GP_NCUN_ACCEPT_CUPTI, "counters.def: %s: %s (%s)", counters[i],
                         v.reason, v.instead);
        }
    }
    gp_ncun_list_free(chip);
    return gp_test_finish("ncu-names");
}
