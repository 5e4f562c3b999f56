/* svg_sol.c - a kernel's Speed Of Light breakdown as inline SVG bars, as
 * Nsight Compute's GPU Speed Of Light Throughput section shows it: the SM
 * and memory throughputs, then the units behind each; see svg_memory.h.
 * Where the run did not collect Nsight Compute's unit throughputs, the
 * study's utilizations stand in, and each bar's hover text names its
 * metric. */
#include <math.h>
#include <string.h>

#include "metrics/catalog/format.h"
#include "metrics/report/report_missing.h"
#include "metrics/report/svg_memory.h"
#include "util/textio.h"

#define GP_SOL_W 560
#define GP_SOL_ROW 17
#define GP_SOL_BAR_X 190
#define GP_SOL_BAR_W 280

typedef struct {
    const char *label;
    int m;
} gp_sol_bar;

typedef struct {
    const char *title;
    gp_sol_bar bar[6];
    size_t n;
} gp_sol_group;

static int gp_sol_state(const gp_kernel_agg *a, int m)
{
    return gp_report_has(a->row.v[m], a->row.why[m]);
}

/* The first of two metrics the records hold (or say n/a for), else -1. */
static int gp_sol_pick(const gp_kernel_agg *a, int own, int study)
{
    return gp_sol_state(a, own) ? own : gp_sol_state(a, study) ? study : -1;
}

static void gp_sol_add(gp_sol_group *g, const char *label, int m)
{
    if (m >= 0 && g->n < sizeof g->bar / sizeof g->bar[0]) {
        g->bar[g->n].label = label;
        g->bar[g->n].m = m;
        g->n++;
    }
}

/* The bars of a group that the records hold or say n/a for. */
static size_t gp_sol_rows(const gp_kernel_agg *a, const gp_sol_group *g)
{
    size_t n = 0;
    for (size_t i = 0; i < g->n; i++)
        n += gp_sol_state(a, g->bar[i].m) != 0;
    return n;
}

static int gp_sol_group_write(const gp_kernel_agg *a, const gp_sol_group *g, int y, FILE *out)
{
    if (!gp_sol_rows(a, g))
        return y;
    fprintf(out, "<text class=\"sgroup\" x=\"6\" y=\"%d\">%s</text>\n", y + 12, g->title);
    y += GP_SOL_ROW;
    for (size_t i = 0; i < g->n; i++) {
        const gp_derived_def *d = &gp_derived_defs[g->bar[i].m];
        double v = a->row.v[g->bar[i].m];
        int s = gp_sol_state(a, g->bar[i].m);
        char val[48];
        if (!s)
            continue;
        fprintf(out, "<g class=\"sbar\" data-metric=\"%s\"><title>%s: ", d->name, d->name);
        gp_text_html(out, d->description);
        fprintf(out, "</title><text class=\"tick\" x=\"16\" y=\"%d\">%s</text>", y + 12,
                g->bar[i].label);
        if (s < 0) {
            fprintf(out, "<text class=\"na\" x=\"%d\" y=\"%d\">n/a: ", GP_SOL_BAR_X, y + 12);
            gp_text_html(out, a->row.why[g->bar[i].m]);
            fputs("</text>", out);
        } else {
            /* within [0, the bar's width]: a length is never negative or NaN */
            double bw = fmin(fmax(v, 0), 100) / 100 * GP_SOL_BAR_W;
            fprintf(out,
                    "<rect class=\"sback\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
                    "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>"
                    "<text class=\"tick\" x=\"%d\" y=\"%d\">%s</text>",
                    GP_SOL_BAR_X, y + 2, GP_SOL_BAR_W, GP_SOL_ROW - 5, GP_SOL_BAR_X, y + 2, bw,
                    GP_SOL_ROW - 5, GP_SOL_BAR_X + GP_SOL_BAR_W + 6, y + 12,
                    gp_format_value(v, d->unit, val, sizeof val));
        }
        fputs("</g>\n", out);
        y += GP_SOL_ROW;
    }
    return y + 4;
}

int gp_svg_sol_write(const gp_kernel_agg *a, FILE *out)
{
    gp_sol_group g[3] = {{"GPU Speed Of Light Throughput (% of peak)", {{NULL, 0}}, 0},
                         {"SM units (% of peak)", {{NULL, 0}}, 0},
                         {"memory units (% of peak)", {{NULL, 0}}, 0}};
    size_t rows = 0, i;
    int y = 4;
    gp_sol_add(&g[0], "Compute (SM) Throughput", GP_M_SOL_SM);
    gp_sol_add(&g[0], "Memory Throughput", GP_M_SOL_MEMORY);
    /* the pipes where collected (set extended or full), else the study's
     * unit utilizations */
    if (gp_sol_state(a, GP_M_PIPE_ALU_UTIL) || gp_sol_state(a, GP_M_PIPE_FMA_UTIL) ||
        gp_sol_state(a, GP_M_PIPE_FP64_UTIL) || gp_sol_state(a, GP_M_PIPE_LSU_UTIL)) {
        gp_sol_add(&g[1], "ALU pipe", GP_M_PIPE_ALU_UTIL);
        gp_sol_add(&g[1], "FMA pipe", GP_M_PIPE_FMA_UTIL);
        gp_sol_add(&g[1], "FP64 pipe", GP_M_PIPE_FP64_UTIL);
        gp_sol_add(&g[1], "LSU pipe", GP_M_PIPE_LSU_UTIL);
    } else {
        gp_sol_add(&g[1], "FP32 unit (study)", GP_M_FP32_UTIL);
        gp_sol_add(&g[1], "FP64 unit (study)", GP_M_FP64_UTIL);
        gp_sol_add(&g[1], "FP16 unit (study)", GP_M_FP16_UTIL);
    }
    gp_sol_add(&g[1], "Tensor pipe", GP_M_TENSOR_UTIL);
    gp_sol_add(&g[1], "Issue slots", GP_M_ISSUE_SLOT_UTIL);
    gp_sol_add(&g[2], gp_sol_state(a, GP_M_SOL_L1) ? "L1/TEX Cache" : "L1 bandwidth (study)",
               gp_sol_pick(a, GP_M_SOL_L1, GP_M_L1_UTIL));
    gp_sol_add(&g[2], gp_sol_state(a, GP_M_SOL_L2) ? "L2 Cache" : "L2 bandwidth (study)",
               gp_sol_pick(a, GP_M_SOL_L2, GP_M_L2_UTIL));
    gp_sol_add(&g[2], gp_sol_state(a, GP_M_SOL_DRAM) ? "DRAM" : "DRAM bandwidth (study)",
               gp_sol_pick(a, GP_M_SOL_DRAM, GP_M_DRAM_UTIL));
    for (i = 0; i < 3; i++)
        rows += gp_sol_rows(a, &g[i]) + (gp_sol_rows(a, &g[i]) ? 1 : 0);
    if (!rows) /* nothing of it in the records: no empty panel */
        return 0;
    if (!out)
        return 1;
    fprintf(out,
            "<svg class=\"solchart\" width=\"%d\" height=\"%zu\" viewBox=\"0 0 %d %zu\" "
            "xmlns=\"http://www.w3.org/2000/svg\">\n",
            GP_SOL_W, rows * GP_SOL_ROW + 22, GP_SOL_W, rows * GP_SOL_ROW + 22);
    for (i = 0; i < 3; i++)
        y = gp_sol_group_write(a, &g[i], y, out);
    fputs("</svg>\n", out);
    return 1;
}
