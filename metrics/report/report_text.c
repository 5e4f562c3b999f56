/* report_text.c - the full text report (gpuprof-report --details: every
 * derived metric of every kernel, each n/a with its reason) and the
 * terminal summary; see report.h.  The default, short report is
 * report_brief.c's; both begin with text_head.c's header. */
#include <math.h>
#include <string.h>

#include "metrics/catalog/format.h"
#include "metrics/report/report.h"
#include "metrics/report/text_head.h"
#include "util/textio.h"

/* several: the report has several GPU models, so "device 0" alone is
 * ambiguous (counted once per report, not per kernel) */

static void gp_report_text_kernel(const gp_report *r, const gp_kernel_report *k, size_t rank,
                                  int several, FILE *out)
{
    const gp_kernel_agg *a = &k->agg;
    gp_fmtbuf fb = {.next = 0};
    char roof[256], dev[sizeof r->dflt.name * 4], note[80];
    size_t i;
    int missing = 0;
    const char *name = gp_report_kernel_name(r, k);
    fprintf(out, "\n#%zu ", rank);
    gp_text_plain(out, name);
    fputc('\n', out);
    if (strcmp(name, a->kernel) != 0) {
        fprintf(out, "   demangled: ");
        gp_text_plain(out, a->kernel);
        fputc('\n', out);
    }
    fprintf(out,
            "   %s of kernel time, %s in %ld launch%s%s; device %d%s%s%s; main launch: %ld "
            "blocks x %ld threads, %ld registers/thread, %ld bytes shared/block\n",
            gp_fmt(&fb, gp_report_time_share(r, k), "%"), gp_fmt(&fb, a->row.v[GP_M_DURATION], "s"),
            a->launches, a->launches == 1 ? "" : "es",
            gp_report_text_estimated(a, note, sizeof note), a->device, several ? " (" : "",
            several ? gp_text_plain_buf(dev, sizeof dev, gp_report_kernel_device(r, k)->name) : "",
            several ? ")" : "", a->blocks, a->threads_per_block, a->regs_per_thread,
            a->smem_per_block);
    fprintf(out, "   clocks while it ran: SM %s, DRAM %s (measured; gpuprof never sets clocks)\n",
            gp_fmt(&fb, a->row.v[GP_M_SM_CLOCK], "Hz"),
            gp_fmt(&fb, a->row.v[GP_M_DRAM_CLOCK], "Hz"));
    if (!k->n_verdicts)
        fprintf(out, "   verdicts: none (no rule fired)\n");
    gp_report_text_verdicts(k, k->n_verdicts, out);
    gp_report_where_text(r, k, out);
    fprintf(out,
            "   occupancy: theoretical %s (%d blocks, %d warps per SM; limiter: %s), achieved "
            "%s\n",
            gp_fmt(&fb, a->row.v[GP_M_THEORETICAL_OCCUPANCY], "%"), a->occ.blocks_per_sm,
            a->occ.warps_per_sm, gp_occupancy_limiter_name(a->occ.limiter),
            gp_fmt(&fb, a->row.v[GP_M_ACHIEVED_OCCUPANCY], "%"));
    if (a->occ.advice[0]) {
        fputs("      ", out);
        gp_text_plain(out, a->occ.advice);
        fputc('\n', out);
    }
    /* an n/a roofline says why, in the input's words */
    gp_roofline_describe(&k->roof, 1, roof, sizeof roof);
    fprintf(out, "   roofline (%s), architectural ceilings: ", k->roof.precision);
    gp_text_plain(out, roof);
    gp_roofline_describe(&k->roof, 0, roof, sizeof roof);
    fprintf(out, "\n   roofline (%s), measured ceilings:      ", k->roof.precision);
    gp_text_plain(out, roof);
    fputc('\n', out);
    if (k->roof.bug[0]) { /* a ceiling that contradicts another is said, not drawn */
        fputs("   roofline BUG: ", out);
        gp_text_plain(out, k->roof.bug);
        fputc('\n', out);
    }
    fprintf(out, "   metrics:\n");
    for (i = 0; i < GP_DERIVED_COUNT; i++) {
        char val[48];
        gp_format_value(a->row.v[i], gp_derived_defs[i].unit, val, sizeof val);
        fprintf(out, "     %-10s %-34s %14s%s%s\n", gp_derived_defs[i].cls, gp_derived_defs[i].name,
                val, isnan(a->row.v[i]) ? "  (" : "", isnan(a->row.v[i]) ? "see below)" : "");
        missing |= isnan(a->row.v[i]);
    }
    if (missing) {
        fprintf(out, "   n/a because:\n");
        for (i = 0; i < GP_DERIVED_COUNT; i++)
            if (isnan(a->row.v[i])) {
                fprintf(out, "     %-34s ", gp_derived_defs[i].name);
                gp_text_plain(out, a->row.why[i]); /* reasons come from the records */
                fputc('\n', out);
            }
    }
}

/* Replay mode none's variants: each derived metric of the mean launch as an
 * estimate ("~") with its bound, the duration also over all N launches. */
static void gp_report_text_estimates(const gp_report *r, FILE *out)
{
    for (size_t i = 0; i < r->n_estimates; i++) {
        const gp_report_estimate *e = &r->estimates[i];
        gp_report_text_estimate_head(r, i, out);
        for (size_t d = 0; d < GP_DERIVED_COUNT; d++) {
            char val[48], bnd[48];
            if (isnan(e->derived[d])) {
                fprintf(out, "     %-10s %-34s %14s  (", gp_derived_defs[d].cls,
                        gp_derived_defs[d].name, "n/a");
                gp_text_plain(out, e->why[d]);
                fputs(")\n", out);
                continue;
            }
            gp_format_value(e->derived[d], gp_derived_defs[d].unit, val, sizeof val);
            gp_format_value(e->bound[d], gp_derived_defs[d].unit, bnd, sizeof bnd);
            fprintf(out, "     %-10s %-34s ~%13s +- %s\n", gp_derived_defs[d].cls,
                    gp_derived_defs[d].name, val, isnan(e->bound[d]) ? "unknown" : bnd);
        }
    }
}

int gp_report_text_details(const gp_report *r, FILE *out)
{
    gp_report_text_body(r, 0, gp_report_text_kernel, out);
    gp_report_text_estimates(r, out);
    return ferror(out) ? -1 : 0;
}

int gp_report_summary(const gp_report *r, FILE *out, int top_n)
{
    gp_fmtbuf fb = {.next = 0};
    size_t i;
    fprintf(out, "gpuprof: %ld launches of %zu kernels profiled, %s of kernel time", r->launches,
            r->n, gp_fmt(&fb, gp_report_total_time(r), "s"));
    if (top_n > 0 && (size_t)top_n < r->n)
        fprintf(out, "; top %d:\n", top_n);
    else
        fprintf(out, "%s\n", r->n ? ":" : "");
    for (i = 0; i < r->n && (top_n <= 0 || i < (size_t)top_n); i++) {
        const gp_kernel_report *k = &r->kernels[i];
        char full[4096], name[64];
        /* escaped, and cut to 60 columns at a character boundary */
        const char *kn = gp_report_kernel_name(r, k);
        if (strlen(gp_text_plain_buf(full, sizeof full, kn)) > 60) {
            gp_text_plain_buf(name, 57, kn);
            strcat(name, "...");
        } else {
            strcpy(name, full);
        }
        fprintf(out, "  %6s %10s %6ldx%s %s\n", gp_fmt(&fb, gp_report_time_share(r, k), "%"),
                gp_fmt(&fb, k->agg.row.v[GP_M_DURATION], "s"), k->agg.launches,
                k->agg.estimated > 0 ? "~" : " ", name);
        if (k->n_verdicts) {
            size_t j;
            for (j = 0; j < k->n_verdicts && j < 2; j++) {
                fprintf(out, "         %s ", j ? "then" : "-> ");
                gp_text_plain(out, k->verdicts[j].title);
                fputs(": ", out);
                gp_text_plain(out, k->verdicts[j].evidence);
                fputc('\n', out);
            }
        } else {
            fprintf(out, "         -> no bottleneck rule fired\n");
        }
    }
    return ferror(out) ? -1 : 0;
}
