/* text_head.c - what the short and the full text reports share: the
 * report's header (inputs, devices, ceilings, warnings, what was not
 * collected, the "where" head) and the notes of a kernel's row. */
#include "metrics/report/text_head.h"

#include <math.h>
#include <stdio.h>

#include "metrics/catalog/format.h"
#include "metrics/report/report_missing.h"
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

void gp_report_text_head(const gp_report *r, int brief, FILE *out)
{
    gp_fmtbuf fb = {.next = 0};
    char why[512], missing[512];
    long est = 0;
    for (size_t i = 0; i < r->n; i++)
        est += r->kernels[i].agg.estimated;
    char more[64] = "";
    if (est > 0)
        snprintf(more, sizeof more, " (and %ld estimated)", est);
    fprintf(out, "gpuprof report: %zu file%s, %ld launches%s of %zu kernels", r->n_files,
            r->n_files == 1 ? "" : "s", r->launches, more, r->n);
    /* the short report leaves out what was not measured */
    if (!brief || !isnan(gp_report_total_time(r)))
        fprintf(out, ", %s of kernel time", gp_fmt(&fb, gp_report_total_time(r), "s"));
    fputc('\n', out);
    gp_report_each_device(r, gp_report_text_device, out);
    if (!r->n_devices)
        fprintf(out, "device: no device record in the input; H100 SXM limits assumed\n");
    if (r->peaks.source[0]) {
        char src[sizeof r->peaks.source * 4], dev[sizeof r->peaks.device * 4];
        fprintf(out, "measured ceilings: %s%s%s\n",
                gp_text_plain_buf(src, sizeof src, r->peaks.source),
                r->peaks.device[0] ? ", measured on " : "",
                gp_text_plain_buf(dev, sizeof dev, r->peaks.device));
    } else
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
    if (brief && gp_report_missing_line(r, missing, sizeof missing))
        fprintf(out, "not collected: %s; gpuprof-report --details lists them\n", missing);
    gp_report_where_text_head(r, out);
}

const char *gp_report_text_estimated(const gp_kernel_agg *a, char *buf, size_t len)
{
    if (a->estimated <= 0)
        return "";
    snprintf(buf, len, " (~: %ld of them estimated, replay mode none)", a->estimated);
    return buf;
}

void gp_report_text_estimate_head(const gp_report *r, size_t i, FILE *out)
{
    const gp_report_estimate *e = &r->estimates[i];
    gp_fmtbuf fb = {.next = 0};
    if (i == 0) {
        fprintf(out,
                "\nestimated over repeated launches (replay mode none): %zu kernel variant%s\n",
                r->n_estimates, r->n_estimates == 1 ? "" : "s");
        fprintf(out, "  values are estimates (~) for the mean launch, each with its error bound "
                     "(about two standard errors)\n");
    }
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
            fprintf(out, "%s %zu (%s) %ld launches", c ? "," : "", c + 1, kind, e->cfg_launches[c]);
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
}

void gp_report_text_verdicts(const gp_kernel_report *k, size_t n, FILE *out)
{
    for (size_t i = 0; i < n && i < k->n_verdicts; i++) {
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
}

void gp_report_text_body(const gp_report *r, int brief, gp_report_text_kernel_fn kernel_fn,
                         FILE *out)
{
    size_t i;
    int several = gp_report_n_models(r) > 1;
    gp_report_text_head(r, brief, out);
    if (!r->n)
        fprintf(out, "\nno profiled launches in the input\n");
    for (i = 0; i < r->n; i++)
        kernel_fn(r, &r->kernels[i], i + 1, several, out);
}
