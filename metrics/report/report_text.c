/* report_text.c - the text report and the terminal summary; see report.h. */
#include <math.h>
#include <string.h>

#include "metrics/catalog/format.h"
#include "metrics/report/report.h"
#include "util/textio.h"

static void gp_report_text_device(const gp_device *d, size_t inputs, void *arg)
{
    /* names from the input are shown escaped: a kernel or device name must
     * not be able to move the cursor or forge a line of the report */
    char name[sizeof d->name * 4], chip[sizeof d->chip * 4];
    fprintf(arg, "device %d: %s (%s, sm_%d%d, %d SMs)", d->ordinal,
            gp_text_plain_buf(name, sizeof name, d->name),
            gp_text_plain_buf(chip, sizeof chip, d->chip), d->cc_major, d->cc_minor, d->sm_count);
    if (inputs > 1)
        fprintf(arg, ", in %zu processes", inputs);
    fputc('\n', arg);
}

static void gp_report_text_header(const gp_report *r, FILE *out)
{
    gp_fmtbuf fb = {.next = 0};
    char why[512];
    long est = 0;
    for (size_t i = 0; i < r->n; i++)
        est += r->kernels[i].agg.estimated;
    char more[64] = "";
    if (est > 0)
        snprintf(more, sizeof more, " (and %ld estimated)", est);
    fprintf(out, "gpuprof report: %zu file%s, %ld launches%s of %zu kernels, %s of kernel time\n",
            r->n_files, r->n_files == 1 ? "" : "s", r->launches, more, r->n,
            gp_fmt(&fb, gp_report_total_time(r), "s"));
    gp_report_each_device(r, gp_report_text_device, out);
    if (!r->n_devices)
        fprintf(out, "device: no device record in the input; H100 SXM limits assumed\n");
    if (r->peaks.source[0]) {
        char src[sizeof r->peaks.source * 4], dev[sizeof r->peaks.device * 4];
        fprintf(out, "measured ceilings: %s%s%s\n",
                gp_text_plain_buf(src, sizeof src, r->peaks.source),
                r->peaks.device[0] ? ", measured on " : "",
                gp_text_plain_buf(dev, sizeof dev, r->peaks.device));
    }
    else
        fprintf(out, "measured ceilings: none (give a gpupeak file with --peaks); "
                     "architectural ceilings only\n");
    if (gp_report_peaks_mismatch(r, why, sizeof why)) {
        fputs("warning: ", out);
        gp_text_plain(out, why); /* names the devices of the inputs */
        fputc('\n', out);
    }
    if (r->bad_lines)
        fprintf(out, "warning: %ld malformed input line%s skipped\n", r->bad_lines,
                r->bad_lines == 1 ? "" : "s");
    gp_report_where_text_head(r, out);
}

/* several: the report has several GPU models, so "device 0" alone is
 * ambiguous (counted once per report, not per kernel) */

/* " (N of them estimated: replay mode none)", or "" */
static const char *estimated_note(const gp_kernel_agg *a, char *buf, size_t len)
{
    if (a->estimated <= 0)
        return "";
    snprintf(buf, len, " (~: %ld of them estimated, replay mode none)", a->estimated);
    return buf;
}

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
            a->launches, a->launches == 1 ? "" : "es", estimated_note(a, note, sizeof note),
            a->device, several ? " (" : "",
            several ? gp_text_plain_buf(dev, sizeof dev, gp_report_kernel_device(r, k)->name) : "",
            several ? ")" : "", a->blocks, a->threads_per_block, a->regs_per_thread,
            a->smem_per_block);
    fprintf(out, "   clocks while it ran: SM %s, DRAM %s (measured; gpuprof never sets clocks)\n",
            gp_fmt(&fb, a->row.v[GP_M_SM_CLOCK], "Hz"), gp_fmt(&fb, a->row.v[GP_M_DRAM_CLOCK], "Hz"));
    if (!k->n_verdicts)
        fprintf(out, "   verdicts: none (no rule fired)\n");
    for (i = 0; i < k->n_verdicts; i++) {
        char label[64];
        gp_verdict_label(&k->verdicts[i], label, sizeof label);
        /* evidence, where and advice quote reasons and names from the input */
        fprintf(out, "   %zu. ", i + 1);
        gp_text_plain(out, k->verdicts[i].title);
        fprintf(out, " [%s]\n      evidence: ", label);
        gp_text_plain(out, k->verdicts[i].evidence);
        if (k->verdicts[i].where[0]) {
            fputs("\n      where:    ", out);
            gp_text_plain(out, k->verdicts[i].where);
        }
        fputs("\n      advice:   ", out);
        gp_text_plain(out, k->verdicts[i].advice);
        fputc('\n', out);
    }
    gp_report_where_text(r, k, out);
    fprintf(out, "   occupancy: theoretical %s (%d blocks, %d warps per SM; limiter: %s), achieved "
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
    if (!r->n_estimates)
        return;
    fprintf(out, "\nestimated over repeated launches (replay mode none): %zu kernel variant%s\n",
            r->n_estimates, r->n_estimates == 1 ? "" : "s");
    fprintf(out, "  values are estimates (~) for the mean launch, each with its error bound "
                 "(about two standard errors)\n");
    for (size_t i = 0; i < r->n_estimates; i++) {
        const gp_report_estimate *e = &r->estimates[i];
        gp_fmtbuf fb = {.next = 0};
        fputs("\n  ", out);
        gp_text_plain(out, e->kernel);
        fprintf(out,
                "\n     grid [%ld,%ld,%ld] block [%ld,%ld,%ld], %ld bytes dynamic shared; "
                "%ld launches, %ld in kernel replay",
                e->grid[0], e->grid[1], e->grid[2], e->block[0], e->block[1], e->block[2],
                e->dynamic_smem, e->launches, e->exact);
        if (e->unprofiled)
            fprintf(out, ", %ld profiled once, %ld counted only (outside the profiler's share)",
                    e->launches - e->exact - e->unprofiled, e->unprofiled);
        fputc('\n', out);
        fputs("     configurations:", out);
        for (size_t c = 0; c < e->n_configs; c++) {
            char kind[4 * sizeof e->cfg_kind[c] + 16]; /* from the record: escaped */
            gp_text_plain_buf(kind, sizeof kind, e->cfg_kind[c]);
            if (e->cfg_passes[c] > 1) /* stepped: collections over successive launches */
                fprintf(out, "%s %zu (%s, %ld passes over successive launches) %ld collections",
                        c ? "," : "", c + 1, kind, e->cfg_passes[c], e->cfg_launches[c]);
            else
                fprintf(out, "%s %zu (%s) %ld launches", c ? "," : "", c + 1, kind,
                        e->cfg_launches[c]);
        }
        fputc('\n', out);
        for (size_t v = 0; v < e->n_verdicts; v++) {
            fprintf(out, "     %zu. (on estimates) ", v + 1);
            gp_text_plain(out, e->verdicts[v].title);
            fputs(": ", out);
            gp_text_plain(out, e->verdicts[v].evidence);
            fputc('\n', out);
        }
        double dur = e->derived[GP_M_DURATION];
        if (!isnan(dur))
            fprintf(out, "     all %ld launches: ~%s +- %s of kernel time\n", e->launches,
                    gp_fmt(&fb, dur * (double)e->launches, "s"),
                    gp_fmt(&fb, e->bound[GP_M_DURATION] * (double)e->launches, "s"));
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

int gp_report_text(const gp_report *r, FILE *out)
{
    size_t i;
    int several = gp_report_n_models(r) > 1;
    gp_report_text_header(r, out);
    if (!r->n)
        fprintf(out, "\nno profiled launches in the input\n");
    for (i = 0; i < r->n; i++)
        gp_report_text_kernel(r, &r->kernels[i], i + 1, several, out);
    gp_report_text_estimates(r, out);
    return ferror(out) ? -1 : 0;
}

int gp_report_summary(const gp_report *r, FILE *out, int top_n)
{
    gp_fmtbuf fb = {.next = 0};
    size_t i;
    fprintf(out, "gpuprof: %ld launches of %zu kernels profiled, %s of kernel time",
            r->launches, r->n, gp_fmt(&fb, gp_report_total_time(r), "s"));
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
