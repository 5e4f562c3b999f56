/* test_sections.c - the table of Nsight Compute's sets and sections
 * (metrics/ncu/sections.def) against the recorded `ncu --query-metrics
 * --chip gh100` (tests/data/ncu-query/gh100-metrics.txt): every metric a
 * row collects, and every counter a formula reads, is a GH100 metric CUPTI
 * collects; every formula parses over known names; every row that cannot
 * be collected says why; every set's sections exist; identifiers are
 * unique and in the details page's order.  Then choosing sections by name
 * and by regex:, the errors that name the known ones, what a choice
 * collects, and the values of the Launch Statistics and Occupancy rows on
 * two launches whose Nsight Compute figures were printed on an H100. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "metrics/ncu/ncu_names.h"
#include "metrics/ncu/sections.h"
#include "metrics/ncu/sections_eval.h"

#define DIR "tests/data/ncu-query/"

static gp_ncun_list *chip;
/* the names ncu's --set full raw page had on an H100, some of which its
 * --query-metrics does not list (lrc__ilc_input_sectors.sum) */
static char **raw;
static size_t n_raw;

static int type_of(const char *t)
{
    return strcmp(t, "Counter") == 0      ? GP_NCUN_COUNTER
           : strcmp(t, "Ratio") == 0      ? GP_NCUN_RATIO
           : strcmp(t, "Throughput") == 0 ? GP_NCUN_THROUGHPUT
                                          : GP_NCUN_NONE;
}

static int load_chip(void)
{
    FILE *f = fopen(DIR "gh100-metrics.txt", "r");
    char line[512];
    if (!f)
        return -1;
    chip = gp_ncun_list_new();
    while (fgets(line, sizeof line, f)) {
        char name[400], type[40];
        if (line[0] == '#' || sscanf(line, "%399s %39s", name, type) != 2)
            continue;
        gp_ncun_list_add(chip, name, type_of(type));
    }
    fclose(f);
    gp_ncun_list_done(chip);
    if (!(f = fopen(DIR "gh100-full-raw-names.txt", "r")))
        return -1;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        line[strcspn(line, "\n")] = 0;
        raw = realloc(raw, (n_raw + 1) * sizeof *raw);
        raw[n_raw++] = strdup(line);
    }
    fclose(f);
    return 0;
}

/* 1 when CUPTI collects name on GH100 */
static int cupti_ok(const char *name)
{
    gp_ncun_verdict v;
    gp_ncun_check(chip, "GH100", name, &v);
    if (v.kind == GP_NCUN_ACCEPT_CUPTI)
        return 1;
    for (size_t i = 0; i < n_raw; i++)
        if (strcmp(raw[i], name) == 0)
            return 1;
    return 0;
}

static int check_lookup(void *ctx, const char *name, size_t len, double *v, char *why,
                        size_t whylen)
{
    char buf[256];
    (void)why;
    (void)whylen;
    *v = 1;
    if (gp_ncu_eval_known(name, len))
        return 0;
    if (len >= sizeof buf)
        return -1;
    memcpy(buf, name, len);
    buf[len] = 0;
    if (strstr(buf, "__") && cupti_ok(buf)) {
        (*(int *)ctx)++;
        return 0;
    }
    return -1;
}

static void check_table(void)
{
    size_t i, j, heads = 0, cannot = 0, plain = 0;
    /* sections: unique, in the details page's order */
    for (i = 0; i < gp_ncu_n_sections; i++) {
        GP_CHECK_MSG(gp_ncu_section_find(gp_ncu_sections[i].id) == (int)i, "%s twice",
                     gp_ncu_sections[i].id);
        GP_CHECK_MSG(gp_ncu_sections[i].display[0], "%s: no display name", gp_ncu_sections[i].id);
        /* by Nsight Compute's order, then display name */
        if (i)
            GP_CHECK_MSG(
                gp_ncu_sections[i].order > gp_ncu_sections[i - 1].order ||
                    (gp_ncu_sections[i].order == gp_ncu_sections[i - 1].order &&
                     strcmp(gp_ncu_sections[i].display, gp_ncu_sections[i - 1].display) > 0),
                "%s: order %d not after %s's", gp_ncu_sections[i].id, gp_ncu_sections[i].order,
                gp_ncu_sections[i - 1].id);
    }
    /* sets: Nsight Compute's name existing sections, gpuprof's a group */
    for (i = 0; i < gp_ncu_n_sets; i++) {
        const gp_ncu_set *s = &gp_ncu_sets[i];
        size_t unknown = 0;
        GP_CHECK_MSG(gp_ncu_set_find(s->id) == (int)i, "set %s twice", s->id);
        if (s->group[0]) {
            GP_CHECK_MSG(s->group[0] == '@' && !s->sections[0], "own set %s", s->id);
            continue;
        }
        gp_ncu_mask m = gp_ncu_mask_parse(s->sections, &unknown);
        GP_CHECK_MSG(unknown == 0 && m, "set %s: %zu unknown sections in '%s'", s->id, unknown,
                     s->sections);
    }
    /* rows */
    for (i = 0; i < gp_ncu_n_rows; i++) {
        const gp_ncu_row *r = &gp_ncu_rows[i];
        GP_CHECK_MSG(gp_ncu_section_find(r->section) >= 0, "row %s: no section %s", r->metric,
                     r->section);
        if (r->place == GP_NCU_HEAD) {
            heads++;
            /* Nsight Compute's page lists a section's rows by metric name */
            if (i && gp_ncu_rows[i - 1].place == GP_NCU_HEAD &&
                strcmp(gp_ncu_rows[i - 1].section, r->section) == 0)
                GP_CHECK_MSG(strcmp(gp_ncu_rows[i - 1].metric, r->metric) < 0, "%s: %s before %s",
                             r->section, gp_ncu_rows[i - 1].metric, r->metric);
            GP_CHECK_MSG(r->label[0], "%s: a row of the page without a label", r->metric);
            for (j = 0; j < i; j++)
                if (gp_ncu_rows[j].place == GP_NCU_HEAD &&
                    strcmp(gp_ncu_rows[j].section, r->section) == 0)
                    GP_CHECK_MSG(strcmp(gp_ncu_rows[j].label, r->label) != 0, "%s: label %s twice",
                                 r->section, r->label);
        }
        switch (gp_ncu_row_how(r)) {
        case GP_NCU_PLAIN:
            plain++;
            GP_CHECK_MSG(cupti_ok(r->metric), "%s (%s): not a metric CUPTI collects on GH100",
                         r->metric, r->section);
            break;
        case GP_NCU_FORMULA: {
            char err[256];
            int counters = 0;
            GP_CHECK_MSG(gp_expr_check(r->value + 1, check_lookup, &counters, err, sizeof err) == 0,
                         "%s: formula '%s': %s", r->metric, r->value + 1, err);
            break;
        }
        default:
            cannot++;
            GP_CHECK_MSG(strlen(r->value + 1) > 40, "%s: a reason of a few words: '%s'", r->metric,
                         r->value + 1);
        }
    }
    GP_CHECK_MSG(heads > 60 && plain > 100 && cannot > 10,
                 "%zu rows, %zu plain, %zu not collectable", heads, plain, cannot);
}

static void check_select(void)
{
    gp_ncu_mask m = 0;
    const char *group = NULL;
    char err[2048], buf[1024];
    int sol = gp_ncu_section_find("SpeedOfLight");
    GP_CHECK(sol >= 0 && gp_ncu_select_section("SpeedOfLight", &m, err, sizeof err) == 0 &&
             m == (gp_ncu_mask)1 << sol);
    m = 0;
    GP_CHECK(gp_ncu_select_section("regex:^Memory", &m, err, sizeof err) == 0);
    GP_CHECK_STR(
        gp_ncu_mask_format(m, buf, sizeof buf),
        "MemoryWorkloadAnalysis,MemoryWorkloadAnalysis_Chart,MemoryWorkloadAnalysis_Tables");
    m = 0; /* searched, not anchored, as Nsight Compute's regex: */
    GP_CHECK(gp_ncu_select_section("regex:Roofline", &m, err, sizeof err) == 0 &&
             __builtin_popcountll(m) == 5);
    GP_CHECK(gp_ncu_select_section("speedoflight", &m, err, sizeof err) == -1 &&
             strstr(err, "'speedoflight'") && strstr(err, "SpeedOfLight") &&
             strstr(err, "WarpStateStats") && strstr(err, "--list-sections"));
    GP_CHECK(gp_ncu_select_section("regex:^Nothing$", &m, err, sizeof err) == -1 &&
             strstr(err, "no section") && strstr(err, "LaunchStats"));
    GP_CHECK(gp_ncu_select_section("regex:(a*)*", &m, err, sizeof err) == -1);
    m = 0;
    GP_CHECK(gp_ncu_select_set("basic", &m, &group, err, sizeof err) == 0 && !group);
    GP_CHECK_STR(gp_ncu_mask_format(m, buf, sizeof buf),
                 "SpeedOfLight,LaunchStats,Occupancy,WorkloadDistribution");
    GP_CHECK(gp_ncu_mask_parse(buf, NULL) == m);
    GP_CHECK(gp_ncu_select_set("warpstate", &m, &group, err, sizeof err) == 0 && group &&
             strcmp(group, "@warpstate") == 0);
    GP_CHECK(gp_ncu_select_set("ful", &m, &group, err, sizeof err) == -1 && strstr(err, "'ful'") &&
             strstr(err, "full") && strstr(err, "roofline") && strstr(err, "default") &&
             strstr(err, "source"));
    size_t unknown = 0;
    GP_CHECK(gp_ncu_mask_parse("SpeedOfLight,Bogus, Occupancy", &unknown) ==
                 (((gp_ncu_mask)1 << sol) | ((gp_ncu_mask)1 << gp_ncu_section_find("Occupancy"))) &&
             unknown == 1);
}

typedef struct {
    size_t n, bad;
} collect_ctx;

static void collected(void *ctx, const char *name)
{
    collect_ctx *c = ctx;
    c->n++;
    if (!cupti_ok(name) || strncmp(name, "launch__", 8) == 0 ||
        strncmp(name, "derived__", 9) == 0) {
        c->bad++;
        fprintf(stderr, "collected but not a CUPTI metric: %s\n", name);
    }
}

static void check_collect(void)
{
    collect_ctx c = {0, 0};
    gp_ncu_mask full = gp_ncu_set_mask(gp_ncu_set_find("full"));
    gp_ncu_mask basic = gp_ncu_set_mask(gp_ncu_set_find("basic"));
    size_t n = gp_ncu_collect(full, collected, &c);
    GP_CHECK_MSG(n == c.n && n > 150 && c.bad == 0, "full: %zu names, %zu bad", n, c.bad);
    /* basic: SpeedOfLight's 10 rows + 4 chart metrics... every plain row and
     * formula counter once: fewer than the full set's, more than 20 */
    size_t nb = gp_ncu_collect(basic, NULL, NULL);
    GP_CHECK_MSG(nb > 20 && nb < n, "basic: %zu", nb);
    /* LaunchStats' rows are launch facts: it collects only what its rule
     * reads, the achieved occupancy */
    GP_CHECK(gp_ncu_collect((gp_ncu_mask)1 << gp_ncu_section_find("LaunchStats"), NULL, NULL) == 1);
    GP_CHECK(gp_ncu_cannot((gp_ncu_mask)1 << gp_ncu_section_find("LaunchStats"), NULL, NULL) == 6);
    /* the source counters' branch ratio reads two counters, and no PC
     * sampling count is asked of CUPTI */
    gp_ncu_mask sc = (gp_ncu_mask)1 << gp_ncu_section_find("SourceCounters");
    collect_ctx s = {0, 0};
    GP_CHECK(gp_ncu_collect(sc, collected, &s) >= 4 && s.bad == 0 &&
             gp_ncu_cannot(sc, NULL, NULL) > 30);
}

/* a launch record's counters, as the report's reader gives them */
typedef struct {
    const char *name;
    double v;
} counter;
static int counter_of(void *ctx, const char *name, size_t len, double *v, char *why, size_t whylen)
{
    for (const counter *c = ctx; c->name; c++)
        if (strlen(c->name) == len && memcmp(c->name, name, len) == 0) {
            *v = c->v;
            if (isnan(c->v))
                snprintf(why, whylen, "%s: no shared-memory accesses", c->name);
            return 0;
        }
    return -1;
}

static double row_value(gp_ncu_eval *e, const char *section, const char *label, gp_ncu_value *out)
{
    for (size_t i = 0; i < gp_ncu_n_rows; i++)
        if (strcmp(gp_ncu_rows[i].section, section) == 0 &&
            strcmp(gp_ncu_rows[i].label, label) == 0) {
            gp_ncu_eval_row(e, &gp_ncu_rows[i], out);
            return out->value;
        }
    out->status = GP_NCU_NA;
    return NAN;
}

static void check_eval(void)
{
    gp_device d;
    gp_launch l;
    gp_ncu_eval e;
    gp_ncu_value v;
    counter cs[] = {{"sm__warps_active.avg.pct_of_peak_sustained_active", 37.66},
                    {"smsp__inst_executed_op_branch.sum", 81920},
                    {"lts__t_sector_hit_rate.pct", NAN},
                    {NULL, 0}};
    gp_device_h100(&d);
    /* hopper_w8a16_split_k_mosaic_gpu_kernel (896, 1, 1)x(128, 1, 1), 63
     * registers, 30.74 KB dynamic and 1 byte static shared memory: ncu
     * printed Block Limit Registers 8, Shared Mem 7, Warps 16, SM 32,
     * Theoretical Active Warps per SM 28, Theoretical Occupancy 43.75 */
    memset(&l, 0, sizeof l);
    l.grid[0] = 896, l.grid[1] = l.grid[2] = 1;
    l.block[0] = 128, l.block[1] = l.block[2] = 1;
    l.cluster[0] = l.cluster[1] = l.cluster[2] = 1;
    l.regs_per_thread = 63;
    l.dynamic_smem = 30736;
    l.static_smem = 1;
    gp_ncu_eval_init(&e, &l, &d, counter_of, cs);
    GP_CHECK(row_value(&e, "Occupancy", "Block Limit Registers", &v) == 8);
    GP_CHECK(row_value(&e, "Occupancy", "Block Limit Shared Mem", &v) == 7);
    GP_CHECK(row_value(&e, "LaunchStats", "Shared Memory Configuration Size", &v) == 233472);
    GP_CHECK(row_value(&e, "Occupancy", "Block Limit Warps", &v) == 16);
    GP_CHECK(row_value(&e, "Occupancy", "Block Limit SM", &v) == 32);
    GP_CHECK(row_value(&e, "Occupancy", "Theoretical Active Warps per SM", &v) == 28);
    GP_CHECK(row_value(&e, "Occupancy", "Theoretical Occupancy", &v) == 43.75);
    GP_CHECK(row_value(&e, "Occupancy", "Achieved Occupancy", &v) == 37.66 &&
             v.status == GP_NCU_OK);
    GP_CHECK(row_value(&e, "LaunchStats", "Threads", &v) == 114688);
    GP_CHECK(row_value(&e, "LaunchStats", "Grid Size", &v) == 896);
    GP_CHECK(row_value(&e, "LaunchStats", "Dynamic Shared Memory Per Block", &v) == 30736);
    GP_CHECK(row_value(&e, "LaunchStats", "Static Shared Memory Per Block", &v) == 1);
    GP_CHECK(row_value(&e, "LaunchStats", "Driver Shared Memory Per Block", &v) == 1024);
    GP_CHECK(row_value(&e, "LaunchStats", "Cluster Size", &v) == 0); /* no clusters: 0, as ncu */
    /* ncu: Waves Per SM 0.97 = 896 / (7 * 132) */
    GP_CHECK(fabs(row_value(&e, "LaunchStats", "Waves Per SM", &v) - 0.97) < 0.005);
    /* what cannot be had, with the table's reason; what the run lacks */
    row_value(&e, "LaunchStats", "Stack Size", &v);
    GP_CHECK(v.status == GP_NCU_CANNOT_COLLECT && strstr(v.why, "cudaLimitStackSize"));
    row_value(&e, "SpeedOfLight", "Duration", &v);
    GP_CHECK(v.status == GP_NCU_NOT_COLLECTED && strcmp(v.missing, "gpu__time_duration.sum") == 0);
    row_value(&e, "MemoryWorkloadAnalysis", "L2 Hit Rate", &v); /* null in the record */
    GP_CHECK(v.status == GP_NCU_NA && strstr(v.why, "no shared-memory accesses"));
    /* a formula over one counter the record has and one it lacks */
    row_value(&e, "SourceCounters", "Branch Instructions Ratio", &v);
    GP_CHECK(v.status == GP_NCU_NOT_COLLECTED && strcmp(v.missing, "smsp__inst_executed.sum") == 0);

    /* hopper_w8a16_reduce_split_k_mosaic_gpu_kernel (224)x(128), 21
     * registers, no shared memory: Block Limit Registers 21, Shared Mem 32,
     * Warps 16, 64 warps, 100%; Waves Per SM 0.11 */
    l.grid[0] = 224;
    l.regs_per_thread = 21;
    l.dynamic_smem = l.static_smem = 0;
    gp_ncu_eval_init(&e, &l, &d, counter_of, cs);
    GP_CHECK(row_value(&e, "Occupancy", "Block Limit Registers", &v) == 21);
    GP_CHECK(row_value(&e, "Occupancy", "Block Limit Shared Mem", &v) == 32);
    GP_CHECK(row_value(&e, "Occupancy", "Theoretical Occupancy", &v) == 100);
    /* the driver's configuration for blocks without shared memory: 32 KB */
    GP_CHECK(row_value(&e, "LaunchStats", "Shared Memory Configuration Size", &v) == 32768);
    /* fill_f32 (256)x(256), 18 registers (Nsight Compute 2025.3.1 on an
     * H100): Block Limit Registers 10, Shared Mem 32, Warps 8, 32.77 Kbyte */
    l.grid[0] = 256;
    l.block[0] = 256;
    l.regs_per_thread = 18;
    gp_ncu_eval_init(&e, &l, &d, counter_of, cs);
    GP_CHECK(row_value(&e, "Occupancy", "Block Limit Registers", &v) == 10);
    GP_CHECK(row_value(&e, "Occupancy", "Block Limit Shared Mem", &v) == 32);
    GP_CHECK(row_value(&e, "Occupancy", "Block Limit Warps", &v) == 8);
    GP_CHECK(row_value(&e, "LaunchStats", "Shared Memory Configuration Size", &v) == 32768);
    GP_CHECK(fabs(row_value(&e, "LaunchStats", "Waves Per SM", &v) - 0.24) < 0.005);
    l.grid[0] = 224;
    l.block[0] = 128;
    l.regs_per_thread = 21;
    gp_ncu_eval_init(&e, &l, &d, counter_of, cs);
    GP_CHECK(fabs(row_value(&e, "LaunchStats", "Waves Per SM", &v) - 0.11) < 0.005);
    /* shared memory of 2^40 bytes (a record's bound): no configuration holds
     * a block, the rows say so at once (the driver's configuration was
     * once searched from a percentage that overflowed) */
    l.dynamic_smem = 1ul << 40;
    gp_ncu_eval_init(&e, &l, &d, counter_of, cs);
    row_value(&e, "Occupancy", "Block Limit Shared Mem", &v);
    GP_CHECK_MSG(v.status == GP_NCU_NA && strstr(v.why, "shared memory"), "%d %s", v.status, v.why);
    l.dynamic_smem = 0;
    /* a launch that cannot fit: the occupancy rows are n/a with the reason */
    l.regs_per_thread = 255;
    l.block[0] = 1024;
    gp_ncu_eval_init(&e, &l, &d, counter_of, cs);
    row_value(&e, "Occupancy", "Block Limit Warps", &v);
    GP_CHECK_MSG(v.status == GP_NCU_NA && strstr(v.why, "registers"), "%d %s", v.status, v.why);
}

int main(void)
{
    if (load_chip() != 0) {
        GP_CHECK_MSG(0, "cannot open " DIR "gh100-metrics.txt");
        return gp_test_finish("sections");
    }
    check_table();
    check_select();
    check_collect();
    check_eval();
    gp_ncun_list_free(chip);
    return gp_test_finish("sections");
}
