/* report_brief.c - the default text report: per kernel its verdicts with
 * evidence and "where", its hottest source lines and its key figures (time,
 * Speed Of Light, occupancy, roofline, the study's efficiencies), only those
 * the records hold.  A figure the run did not collect is left out (the
 * header's one "not collected" line counts them); one n/a for another
 * reason (a failed pass, nothing of the kind in the kernel) is said in one
 * line with its reason.  `gpuprof-report --details` writes every metric
 * (report_text.c). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "metrics/catalog/format.h"
#include "metrics/report/report.h"
#include "metrics/report/report_missing.h"
#include "metrics/report/text_head.h"
#include "util/textio.h"

/* Verdicts and "where" rows a kernel shows; the rest behind --details. */
#define GP_BRIEF_VERDICTS 3
#define GP_BRIEF_WHERE_ROWS 3

/* One line of figures: "label value" items joined by ", ", only those with a
 * value; the metrics n/a for a reason other than "not collected" are kept
 * for the kernel's n/a line. */
typedef struct {
    char s[768];
    size_t n;
    int items;
} gp_brief_line;

typedef struct {
    const gp_kernel_agg *a;
    gp_fmtbuf fb;
    int na[GP_DERIVED_COUNT]; /* metrics n/a for another reason, in order met */
    size_t n_na;
} gp_brief_kernel;

__attribute__((format(printf, 3, 4))) static void gp_brief_add(gp_brief_line *l, const char *sep,
                                                               const char *fmt, ...)
{
    va_list ap;
    int n;
    if (l->n >= sizeof l->s)
        return;
    if (l->items && sep) {
        n = snprintf(l->s + l->n, sizeof l->s - l->n, "%s", sep);
        l->n += n > 0 ? (size_t)n : 0;
        if (l->n >= sizeof l->s)
            return;
    }
    va_start(ap, fmt);
    n = vsnprintf(l->s + l->n, sizeof l->s - l->n, fmt, ap);
    va_end(ap);
    l->n += n > 0 ? (size_t)n : 0;
    l->items++;
}

static const char *gp_brief_cause(const char *why);

/* Metric m's value formatted, or NULL: left out when not collected or when
 * the kernel did nothing it measures ("no shared-memory accesses", "no
 * DRAM traffic"), kept for the n/a line otherwise. */
static const char *gp_brief_val(gp_brief_kernel *bk, int m)
{
    int has = gp_report_has(bk->a->row.v[m], bk->a->row.why[m]);
    if (has > 0)
        return gp_fmt(&bk->fb, bk->a->row.v[m], gp_derived_defs[m].unit);
    if (has < 0 && strncmp(gp_brief_cause(bk->a->row.why[m]), "no ", 3) != 0) {
        size_t i;
        for (i = 0; i < bk->n_na && bk->na[i] != m; i++)
            ;
        if (i == bk->n_na)
            bk->na[bk->n_na++] = m;
    }
    return NULL;
}

/* Adds "label value" when metric m has one. */
static void gp_brief_fig(gp_brief_kernel *bk, gp_brief_line *l, const char *label, int m)
{
    const char *v = gp_brief_val(bk, m);
    if (v)
        gp_brief_add(l, ", ", "%s%s%s", label, label[0] ? " " : "", v);
}

static void gp_brief_print(const gp_brief_line *l, const char *head, FILE *out)
{
    if (l->items)
        fprintf(out, "   %s: %s\n", head, l->s);
}

/* One line of figures as data: a label (may be empty) and its metric. */
typedef struct {
    const char *label;
    int metric;
} gp_brief_figdef;

/* "head: label value, ..." of the figures that have a value, or nothing. */
static void gp_brief_figs(gp_brief_kernel *bk, const gp_brief_figdef *f, size_t n, const char *head,
                          FILE *out)
{
    gp_brief_line l = {.n = 0};
    size_t i;
    for (i = 0; i < n; i++)
        gp_brief_fig(bk, &l, f[i].label, f[i].metric);
    gp_brief_print(&l, head, out);
}

/* Speed Of Light, as Nsight Compute's section heads it: only with its own
 * SM and memory throughputs (the study's utilizations are below). */
static void gp_brief_sol(gp_brief_kernel *bk, FILE *out)
{
    gp_brief_line l = {.n = 0};
    gp_brief_fig(bk, &l, "compute (SM)", GP_M_SOL_SM);
    gp_brief_fig(bk, &l, "memory", GP_M_SOL_MEMORY);
    if (!l.items)
        return;
    gp_brief_fig(bk, &l, "L1/TEX", GP_M_SOL_L1);
    gp_brief_fig(bk, &l, "L2", GP_M_SOL_L2);
    gp_brief_fig(bk, &l, "DRAM", GP_M_SOL_DRAM);
    gp_brief_print(&l, "speed of light (% of peak)", out);
}

static void gp_brief_occupancy(gp_brief_kernel *bk, FILE *out)
{
    const gp_kernel_agg *a = bk->a;
    const char *th = gp_brief_val(bk, GP_M_THEORETICAL_OCCUPANCY);
    const char *ach = gp_brief_val(bk, GP_M_ACHIEVED_OCCUPANCY);
    const char *ratio = gp_brief_val(bk, GP_M_OCCUPANCY_RATIO);
    if (!th && !ach)
        return;
    fputs("   occupancy:", out);
    if (th)
        fprintf(out, " theoretical %s (%d blocks, %d warps per SM; limiter: %s)", th,
                a->occ.blocks_per_sm, a->occ.warps_per_sm,
                gp_occupancy_limiter_name(a->occ.limiter));
    if (ach)
        fprintf(out, "%s achieved %s", th ? "," : "", ach);
    if (ratio)
        fprintf(out, " (%s of theoretical)", ratio);
    fputc('\n', out);
    if (a->occ.advice[0]) {
        fputs("      ", out);
        gp_text_plain(out, a->occ.advice);
        fputc('\n', out);
    }
}

/* The roofline in one line, or none when its ceilings or the kernel's
 * point were not collected. */
static void gp_brief_roofline(const gp_kernel_report *k, FILE *out)
{
    char arch[256], meas[256];
    if (k->roof.arch_binding < 0 && k->roof.measured_binding < 0 &&
        (!k->roof.why[0] || gp_report_not_collected(k->roof.why)))
        return;
    gp_roofline_describe(&k->roof, 1, arch, sizeof arch);
    fprintf(out, "   roofline (%s): ", k->roof.precision);
    gp_text_plain(out, arch); /* an n/a says why, in the input's words */
    if (k->roof.measured_binding >= 0) {
        const gp_roof *f = &k->roof.level[k->roof.measured_binding].measured;
        if (k->roof.measured_binding != k->roof.arch_binding ||
            k->roof.measured_compute_binds != k->roof.arch_compute_binds) {
            gp_roofline_describe(&k->roof, 0, meas, sizeof meas);
            fputs("; measured ceilings: ", out);
            gp_text_plain(out, meas);
        } else if (!isnan(f->pct)) {
            fprintf(out, " (%.1f%% of the measured ceiling)", f->pct);
        }
    }
    fputc('\n', out);
    if (k->roof.bug[0]) { /* a ceiling that contradicts another is said, not drawn */
        fputs("   roofline BUG: ", out);
        gp_text_plain(out, k->roof.bug);
        fputc('\n', out);
    }
}

/* The study's compute figures: rate, compute/memory ratio, unit
 * utilizations, pipes. */
static const gp_brief_figdef gp_brief_compute_figs[] = {
    {"", GP_M_FLOPS_PER_S},
    {"compute/memory (Rf-g)", GP_M_RF_G},
    {"FP32 unit", GP_M_FP32_UTIL},
    {"FP64 unit", GP_M_FP64_UTIL},
    {"FP16 unit", GP_M_FP16_UTIL},
    {"tensor pipe", GP_M_TENSOR_UTIL},
    {"ALU pipe", GP_M_PIPE_ALU_UTIL},
    {"FMA pipe", GP_M_PIPE_FMA_UTIL},
    {"FP64 pipe", GP_M_PIPE_FP64_UTIL},
    {"LSU pipe", GP_M_PIPE_LSU_UTIL},
};
static void gp_brief_compute(gp_brief_kernel *bk, FILE *out)
{
    gp_brief_figs(bk, gp_brief_compute_figs,
                  sizeof gp_brief_compute_figs / sizeof gp_brief_compute_figs[0], "compute", out);
}

/* "label RATE (UTIL of peak)" for one level of the memory. */
static void gp_brief_level(gp_brief_kernel *bk, gp_brief_line *l, const char *label, int rate,
                           int util, int util_measured)
{
    const char *r = gp_brief_val(bk, rate), *u = gp_brief_val(bk, util);
    const char *um = util_measured >= 0 ? gp_brief_val(bk, util_measured) : NULL;
    if (!r && !u)
        return;
    gp_brief_add(l, ", ", "%s %s%s%s%s%s%s%s", label, r ? r : "", r && u ? " (" : "", u ? u : "",
                 u ? " of peak" : "", um ? ", measured peak " : "", um ? um : "",
                 r && u ? ")" : "");
}

static void gp_brief_memory(gp_brief_kernel *bk, FILE *out)
{
    gp_brief_line l = {.n = 0};
    gp_brief_level(bk, &l, "DRAM", GP_M_DRAM_BYTES_PER_S, GP_M_DRAM_UTIL, GP_M_DRAM_UTIL_MEASURED);
    gp_brief_level(bk, &l, "L2", GP_M_L2_BYTES_PER_S, GP_M_L2_UTIL, -1);
    gp_brief_level(bk, &l, "L1", GP_M_L1_BYTES_PER_S, GP_M_L1_UTIL, -1);
    gp_brief_fig(bk, &l, "shared", GP_M_SHARED_BYTES_PER_S);
    gp_brief_fig(bk, &l, "L1 hit rate", GP_M_L1_HIT_RATE);
    gp_brief_fig(bk, &l, "L2 hit rate", GP_M_L2_HIT_RATE);
    gp_brief_print(&l, "memory", out);
}

/* The study's efficiencies. */
static const gp_brief_figdef gp_brief_efficiency_figs[] = {
    {"global load", GP_M_GLD_EFFICIENCY},
    {"global store", GP_M_GST_EFFICIENCY},
    {"shared", GP_M_SHARED_EFFICIENCY},
    {"shared banks", GP_M_SHARED_BANK_EFFICIENCY},
    {"warp execution", GP_M_WARP_EXECUTION_EFFICIENCY},
    {"predicated-on", GP_M_WARP_NONPRED_EXECUTION_EFFICIENCY},
    {"branch", GP_M_BRANCH_EFFICIENCY},
};
static void gp_brief_efficiency(gp_brief_kernel *bk, FILE *out)
{
    gp_brief_figs(bk, gp_brief_efficiency_figs,
                  sizeof gp_brief_efficiency_figs / sizeof gp_brief_efficiency_figs[0],
                  "efficiency", out);
}

/* Nsight Compute's warp state figures, when the section was collected. */
static const gp_brief_figdef gp_brief_warps_figs[] = {
    {"cycles per issued instruction", GP_M_WARP_CYCLES_PER_ISSUED_INST},
    {"issue slots used", GP_M_ISSUE_SLOT_UTIL},
    {"eligible per scheduler", GP_M_ELIGIBLE_WARPS_PER_SCHEDULER},
    {"active per scheduler", GP_M_ACTIVE_WARPS_PER_SCHEDULER},
};
static void gp_brief_warps(gp_brief_kernel *bk, FILE *out)
{
    gp_brief_figs(bk, gp_brief_warps_figs,
                  sizeof gp_brief_warps_figs / sizeof gp_brief_warps_figs[0], "warp state", out);
}

/* A reason without the counter it names first ("<counter>: <why>" gives
 * <why>), so that the metrics of one failed pass share one reason; a
 * counter's name has "__" (a fact's, "."), a word of a reason neither. */
static const char *gp_brief_cause(const char *why)
{
    const char *c = strstr(why, ": ");
    size_t n = c ? (size_t)(c - why) : 0;
    if (!c || memchr(why, ' ', n))
        return why;
    for (size_t i = 0; i + 1 < n; i++)
        if ((why[i] == '_' && why[i + 1] == '_') || why[i] == '.')
            return c + 2;
    return why;
}

/* The figures above that are n/a for a reason other than "not collected",
 * grouped by cause: "n/a (instrumented pass failed: ...): rf_g, fp32_util". */
static void gp_brief_na(const gp_brief_kernel *bk, FILE *out)
{
    unsigned char done[GP_DERIVED_COUNT] = {0};
    size_t i, j;
    int first = 1;
    for (i = 0; i < bk->n_na; i++) {
        const char *why = gp_brief_cause(bk->a->row.why[bk->na[i]]);
        if (done[i])
            continue;
        fputs(first ? "   n/a (" : "; n/a (", out);
        first = 0;
        gp_text_plain(out, why); /* reasons come from the records */
        fputs("):", out);
        for (j = i; j < bk->n_na; j++)
            if (!done[j] && strcmp(gp_brief_cause(bk->a->row.why[bk->na[j]]), why) == 0) {
                done[j] = 1;
                fprintf(out, "%s %s", j == i ? "" : ",", gp_derived_defs[bk->na[j]].name);
            }
    }
    if (!first)
        fputc('\n', out);
}

static void gp_brief_kernel_text(const gp_report *r, const gp_kernel_report *k, size_t rank,
                                 int several, FILE *out)
{
    const gp_kernel_agg *a = &k->agg;
    gp_brief_kernel bk = {.a = a, .fb = {.next = 0}, .n_na = 0};
    char dev[sizeof r->dflt.name * 4], note[80];
    const char *name = gp_report_kernel_name(r, k), *sm, *dram, *t;
    size_t nv = k->n_verdicts < GP_BRIEF_VERDICTS ? k->n_verdicts : GP_BRIEF_VERDICTS;
    fprintf(out, "\n#%zu ", rank);
    gp_text_plain(out, name);
    fputc('\n', out);
    if (strcmp(name, a->kernel) != 0) {
        fprintf(out, "   demangled: ");
        gp_text_plain(out, a->kernel);
        fputc('\n', out);
    }
    fputs("   ", out);
    if ((t = gp_brief_val(&bk, GP_M_DURATION)))
        fprintf(out, "%s of kernel time, %s in ", gp_fmt(&bk.fb, gp_report_time_share(r, k), "%"),
                t);
    fprintf(out,
            "%ld launch%s%s; device %d%s%s%s; main launch: %ld blocks x %ld threads, %ld "
            "registers/thread, %ld bytes shared/block\n",
            a->launches, a->launches == 1 ? "" : "es",
            gp_report_text_estimated(a, note, sizeof note), a->device, several ? " (" : "",
            several ? gp_text_plain_buf(dev, sizeof dev, gp_report_kernel_device(r, k)->name) : "",
            several ? ")" : "", a->blocks, a->threads_per_block, a->regs_per_thread,
            a->smem_per_block);
    sm = gp_brief_val(&bk, GP_M_SM_CLOCK);
    dram = gp_brief_val(&bk, GP_M_DRAM_CLOCK);
    if (sm || dram)
        fprintf(out, "   clocks while it ran:%s%s%s%s (measured; gpuprof never sets clocks)\n",
                sm ? " SM " : "", sm ? sm : "", dram ? (sm ? ", DRAM " : " DRAM ") : "",
                dram ? dram : "");
    if (!k->n_verdicts)
        fprintf(out, "   verdicts: none (no rule fired)\n");
    gp_report_text_verdicts(k, nv, out);
    if (k->n_verdicts > nv)
        fprintf(out, "   (%zu more verdict%s: gpuprof-report --details)\n", k->n_verdicts - nv,
                k->n_verdicts - nv == 1 ? "" : "s");
    gp_report_where_text_rows(r, k, GP_BRIEF_WHERE_ROWS, out);
    gp_brief_sol(&bk, out);
    gp_brief_occupancy(&bk, out);
    gp_brief_roofline(k, out);
    gp_brief_compute(&bk, out);
    gp_brief_memory(&bk, out);
    gp_brief_efficiency(&bk, out);
    gp_brief_warps(&bk, out);
    gp_brief_na(&bk, out);
}

/* The key figures of a replay-mode-none variant's mean launch, estimates
 * with their bounds; the rest behind --details. */
static void gp_brief_estimates(const gp_report *r, FILE *out)
{
    static const int key[] = {GP_M_DURATION,          GP_M_ACHIEVED_OCCUPANCY,
                              GP_M_DRAM_UTIL,         GP_M_FP32_UTIL,
                              GP_M_GLD_EFFICIENCY,    GP_M_GST_EFFICIENCY,
                              GP_M_SHARED_EFFICIENCY, GP_M_WARP_EXECUTION_EFFICIENCY};
    for (size_t i = 0; i < r->n_estimates; i++) {
        const gp_report_estimate *e = &r->estimates[i];
        int items = 0;
        gp_report_text_estimate_head(r, i, out);
        for (size_t j = 0; j < sizeof key / sizeof key[0]; j++) {
            int d = key[j];
            char val[48], bnd[48];
            if (gp_report_has(e->derived[d], e->why[d]) <= 0)
                continue;
            gp_format_value(e->derived[d], gp_derived_defs[d].unit, val, sizeof val);
            gp_format_value(e->bound[d], gp_derived_defs[d].unit, bnd, sizeof bnd);
            fprintf(out, "%s%s ~%s +- %s", items % 4 ? ", " : (items ? "\n     " : "     "),
                    gp_derived_defs[d].name, val, isnan(e->bound[d]) ? "unknown" : bnd);
            items++;
        }
        if (items)
            fputc('\n', out);
    }
}

int gp_report_text(const gp_report *r, FILE *out)
{
    gp_report_text_body(r, 1, gp_brief_kernel_text, out);
    gp_brief_estimates(r, out);
    if (r->n)
        fprintf(out, "\nevery metric of every kernel, n/a ones with their reasons: "
                     "gpuprof-report --details\n");
    return ferror(out) ? -1 : 0;
}
