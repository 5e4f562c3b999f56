/* svg_memory.c - the memory chart of one kernel as inline SVG, laid out as
 * Nsight Compute's Memory Workload Analysis chart: the kernel on the left,
 * L1/TEX cache and shared memory, L2, then device (DRAM), system and peer
 * memory; see svg_memory.h.  Everything it draws is a derived metric of
 * derived.def (the block "Nsight Compute's Speed Of Light breakdown and the
 * memory chart"), so the chart, the text report and --details agree. */
#include "metrics/report/svg_memory.h"

#include <math.h>
#include <string.h>

#include "metrics/catalog/format.h"
#include "metrics/report/report_missing.h"
#include "metrics/report/where_report.h"
#include "util/textio.h"

#define GP_MEM_W 980
#define GP_MEM_H 318

/* One value on the chart: metric m with a word before it and a unit word
 * after counts ("131K req"). */
typedef struct {
    int m; /* -1: none */
    const char *suffix;
} gp_mem_part;

/* A line of text: "load 134 MB, 131K req". */
typedef struct {
    const char *word;
    gp_mem_part p[2];
} gp_mem_line;

/* A link between two units: a line above it, two below. */
typedef struct {
    const char *id;
    int x1, x2, y;
    gp_mem_line l[3];
} gp_mem_link;

/* A unit: a box with its title and up to three lines. */
typedef struct {
    const char *id, *title;
    int x, y, w, h;
    gp_mem_line l[3];
} gp_mem_box;

static int gp_mem_state(const gp_kernel_agg *a, int m)
{
    return m < 0 ? 0 : gp_report_has(a->row.v[m], a->row.why[m]);
}

/* Metric m as the chart writes it: bytes and rates with their units,
 * counts short ("131K"), shares with one decimal. */
static const char *gp_mem_value(const gp_kernel_agg *a, int m, char *buf, size_t len)
{
    const char *unit = gp_derived_defs[m].unit;
    if (strcmp(unit, "byte") == 0 || strcmp(unit, "byte/s") == 0 || strcmp(unit, "%") == 0)
        return gp_format_value(a->row.v[m], unit, buf, len);
    return gp_report_where_count(a->row.v[m], buf, len);
}

/* How many parts of line l have a value (*other: n/a for another reason). */
static int gp_mem_count(const gp_kernel_agg *a, const gp_mem_line *l, int *other)
{
    int n = 0;
    for (int i = 0; i < 2; i++) {
        int s = gp_mem_state(a, l->p[i].m);
        n += s > 0;
        *other += s < 0;
    }
    return n;
}

/* One line as <text>: its word, then each part with a value ("n/a" with
 * its reason on hover); nothing when none of its metrics was collected. */
static void gp_mem_text(const gp_kernel_agg *a, const gp_mem_line *l, int x, int y,
                        const char *anchor, FILE *out)
{
    int other = 0, first = 1;
    if (!l->word || (!gp_mem_count(a, l, &other) && !other))
        return;
    fprintf(out, "<text class=\"mval\" x=\"%d\" y=\"%d\" text-anchor=\"%s\">%s", x, y, anchor,
            l->word);
    for (int i = 0; i < 2; i++) {
        char buf[48];
        int m = l->p[i].m, s = gp_mem_state(a, m);
        if (s == 0)
            continue;
        fputs(first ? (l->word[0] ? " " : "") : ", ", out);
        first = 0;
        if (s < 0) {
            fputs("<tspan class=\"na\">n/a<title>", out);
            gp_text_html(out, a->row.why[m]);
            fputs("</title></tspan>", out);
            continue;
        }
        fprintf(out, "%s%s%s", gp_mem_value(a, m, buf, sizeof buf), l->p[i].suffix[0] ? " " : "",
                l->p[i].suffix);
    }
    fputs("</text>", out);
}

static void gp_mem_link_write(const gp_kernel_agg *a, const gp_mem_link *k, FILE *out)
{
    int have = 0, other = 0, mid = (k->x1 + k->x2) / 2;
    for (int i = 0; i < 3; i++)
        have += gp_mem_count(a, &k->l[i], &other);
    const char *state = have ? "measured" : other ? "na" : "not-collected";
    fprintf(out,
            "<g class=\"mlink\" data-link=\"%s\" data-state=\"%s\"><line class=\"mline%s\" "
            "x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><path class=\"marrow%s\" d=\"M%d %d l-8 -5 "
            "v10 z\"/>",
            k->id, state, have ? "" : " nc", k->x1, k->y, k->x2 - 8, k->y, have ? "" : " nc", k->x2,
            k->y);
    if (!have && !other)
        fprintf(out,
                "<text class=\"mnc\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">not "
                "collected</text>",
                mid, k->y - 5);
    else {
        gp_mem_text(a, &k->l[0], mid, k->y - 5, "middle", out);
        gp_mem_text(a, &k->l[1], mid, k->y + 14, "middle", out);
        gp_mem_text(a, &k->l[2], mid, k->y + 27, "middle", out);
    }
    fputs("</g>\n", out);
}

static void gp_mem_box_write(const gp_kernel_agg *a, const gp_mem_box *b, FILE *out)
{
    int have = 0, other = 0, y = b->y + 36, any = 0;
    for (int i = 0; i < 3; i++) {
        any |= b->l[i].word != NULL;
        have += gp_mem_count(a, &b->l[i], &other);
    }
    fprintf(out,
            "<g class=\"mbox\" data-unit=\"%s\"><rect class=\"munit\" x=\"%d\" y=\"%d\" "
            "width=\"%d\" height=\"%d\" rx=\"4\"/><text class=\"mtitle\" x=\"%d\" y=\"%d\" "
            "text-anchor=\"middle\">%s</text>",
            b->id, b->x, b->y, b->w, b->h, b->x + b->w / 2, b->y + 18, b->title);
    for (int i = 0; i < 3; i++) {
        int o = 0;
        if (!b->l[i].word || (!gp_mem_count(a, &b->l[i], &o) && !o))
            continue;
        gp_mem_text(a, &b->l[i], b->x + b->w / 2, y, "middle", out);
        y += 15;
    }
    if (any && !have && !other)
        fprintf(out,
                "<text class=\"mnc\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">not "
                "collected</text>",
                b->x + b->w / 2, y);
    fputs("</g>\n", out);
}

/* clang-format off */
#define P(m, s) {GP_M_##m, s}
#define NOP {-1, ""}
/* clang-format on */

int gp_svg_memory_write(const gp_kernel_agg *a, FILE *out)
{
    /* the units: kernel | L1/TEX over shared | L2 | DRAM over system over peer;
     * each box: id, title, x, y, width, height, its lines */
    /* clang-format off */
    const gp_mem_box boxes[] = {
        {"kernel", "Kernel", 10, 40, 100, 250, {{NULL, {NOP, NOP}}}},
        {"l1", "L1/TEX Cache", 250, 40, 170, 110,
         {{"hit rate", {P(L1_HIT_RATE, ""), NOP}},
          {"", {P(L1_BYTES_PER_S, ""), NOP}},
          {"", {P(SOL_L1, "of peak"), NOP}}}},
        {"shared", "Shared Memory", 250, 190, 170, 100,
         {{"", {P(MEM_SHARED_WAVEFRONTS, "wavefronts"), NOP}},
          {"", {P(MEM_SHARED_BANK_CONFLICTS, "bank conflicts"), NOP}},
          {"", {P(SHARED_BYTES_PER_S, ""), NOP}}}},
        {"l2", "L2 Cache", 560, 40, 150, 250,
         {{"hit rate", {P(L2_HIT_RATE, ""), NOP}},
          {"", {P(L2_BYTES_PER_S, ""), NOP}},
          {"", {P(SOL_L2, "of peak"), NOP}}}},
        {"dram", "Device Memory", 840, 40, 130, 70, {{"", {P(SOL_DRAM, "of peak"), NOP}}}},
        {"sysmem", "System Memory", 840, 140, 130, 60, {{NULL, {NOP, NOP}}}},
        {"peer", "Peer Memory", 840, 230, 130, 60, {{NULL, {NOP, NOP}}}},
    };
    /* each link: id, from x, to x, y, the line above it and the two below */
    const gp_mem_link links[] = {
        {"kernel-l1", 110, 250, 95,
         {{"load", {P(MEM_GLOBAL_LD_BYTES, ""), P(MEM_GLOBAL_LD_REQUESTS, "req")}},
          {"store", {P(MEM_GLOBAL_ST_BYTES, ""), P(MEM_GLOBAL_ST_REQUESTS, "req")}},
          {NULL, {NOP, NOP}}}},
        {"kernel-shared", 110, 250, 240,
         {{"load", {P(MEM_SHARED_LD_INST, "inst"), NOP}},
          {"store", {P(MEM_SHARED_ST_INST, "inst"), NOP}},
          {NULL, {NOP, NOP}}}},
        {"l1-l2", 420, 560, 95,
         {{"read", {P(MEM_L2_READ_BYTES, ""), NOP}},
          {"write", {P(MEM_L2_WRITE_BYTES, ""), NOP}},
          {"", {P(MEM_L1_L2_BYTES_PER_S, ""), NOP}}}},
        {"l2-dram", 710, 840, 75,
         {{"read", {P(MEM_DRAM_READ_BYTES, ""), NOP}},
          {"write", {P(MEM_DRAM_WRITE_BYTES, ""), NOP}},
          {"", {P(DRAM_BYTES_PER_S, ""), NOP}}}},
        {"l2-sysmem", 710, 840, 170,
         {{"read", {P(MEM_SYSMEM_READ_BYTES, ""), NOP}},
          {"write", {P(MEM_SYSMEM_WRITE_BYTES, ""), NOP}},
          {"", {P(MEM_SYSMEM_BYTES_PER_S, ""), NOP}}}},
        {"l2-peer", 710, 840, 260,
         {{"read", {P(MEM_PEER_READ_BYTES, ""), NOP}},
          {"write", {P(MEM_PEER_WRITE_BYTES, ""), NOP}},
          {NULL, {NOP, NOP}}}},
    };
    /* clang-format on */
    size_t i;
    int have = 0, other = 0;
    for (i = 0; i < sizeof links / sizeof links[0]; i++)
        for (int j = 0; j < 3; j++)
            have += gp_mem_count(a, &links[i].l[j], &other);
    if (!have && !other) /* nothing of the chart in the records: no empty chart */
        return 0;
    if (!out)
        return 1;
    fprintf(out,
            "<svg class=\"memchart\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "xmlns=\"http://www.w3.org/2000/svg\"><text class=\"axis\" x=\"10\" y=\"20\">Memory "
            "chart: bytes and requests between the units over all launches, throughputs over "
            "the kernel's time; dashed: not collected</text>\n",
            GP_MEM_W, GP_MEM_H, GP_MEM_W, GP_MEM_H);
    for (i = 0; i < sizeof boxes / sizeof boxes[0]; i++)
        gp_mem_box_write(a, &boxes[i], out);
    /* what the kernel's two links carry */
    fputs("<text class=\"mkind\" x=\"104\" y=\"91\" text-anchor=\"end\">global</text>"
          "<text class=\"mkind\" x=\"104\" y=\"236\" text-anchor=\"end\">shared</text>\n",
          out);
    for (i = 0; i < sizeof links / sizeof links[0]; i++)
        gp_mem_link_write(a, &links[i], out);
    fputs("</svg>\n", out);
    return 1;
}
