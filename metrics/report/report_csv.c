/* report_csv.c - one CSV row per kernel (RFC 4180); a missing value is an
 * empty cell and its reason is in the last column, never 0. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/report/report.h"
#include "util/textio.h"

int gp_report_csv(const gp_report *r, FILE *out)
{
    size_t i, j;
    fputs("rank,kernel,demangled,device,launches,time_share [%],blocks,threads_per_block,"
          "regs_per_thread,"
          "smem_per_block [byte],occupancy_limiter,first_verdict,verdicts",
          out);
    for (j = 0; j < GP_DERIVED_COUNT; j++)
        fprintf(out, ",%s [%s]", gp_derived_defs[j].name, gp_derived_defs[j].unit);
    fputs(",roofline_precision,roofline_arch_binding,roofline_arch_attainable [%],"
          "roofline_measured_binding,roofline_measured_attainable [%],missing,launches_estimated\n",
          out);
    for (i = 0; i < r->n; i++) {
        const gp_kernel_report *k = &r->kernels[i];
        const gp_kernel_agg *a = &k->agg;
        char label[64];
        int b, first = 1;
        fprintf(out, "%zu,", i + 1);
        gp_text_csv_field(out, gp_report_kernel_name(r, k));
        fputc(',', out);
        gp_text_csv_field(out, a->kernel);
        fprintf(out, ",%d,%ld", a->device, a->launches);
        gp_report_csv_num(out, gp_report_time_share(r, k));
        fprintf(out, ",%ld,%ld,%ld,%ld,%s,", a->blocks, a->threads_per_block, a->regs_per_thread,
                a->smem_per_block, gp_occupancy_limiter_name(a->occ.limiter));
        if (k->n_verdicts) {
            gp_verdict_label(&k->verdicts[0], label, sizeof label);
            fputs(label, out);
        }
        fputc(',', out);
        for (j = 0; j < k->n_verdicts; j++) {
            gp_verdict_label(&k->verdicts[j], label, sizeof label);
            fprintf(out, "%s%s", j ? ";" : "", label);
        }
        for (j = 0; j < GP_DERIVED_COUNT; j++)
            gp_report_csv_num(out, a->row.v[j]);
        fprintf(out, ",%s,", k->roof.precision);
        b = k->roof.arch_binding;
        if (b >= 0)
            fputs(k->roof.arch_compute_binds ? "compute" : gp_roofline_level_name((gp_level)b), out);
        gp_report_csv_num(out, b >= 0 ? k->roof.level[b].arch.pct : NAN);
        fputc(',', out);
        b = k->roof.measured_binding;
        if (b >= 0)
            fputs(k->roof.measured_compute_binds ? "compute" : gp_roofline_level_name((gp_level)b),
                  out);
        gp_report_csv_num(out, b >= 0 ? k->roof.level[b].measured.pct : NAN);
        fputc(',', out);
        {
            /* the reasons (they may quote a record) as one cell, escaped
             * as every cell is */
            char *why = NULL;
            size_t wlen = 0;
            FILE *w = open_memstream(&why, &wlen);
            for (j = 0; w && j < GP_DERIVED_COUNT; j++) {
                if (!isnan(a->row.v[j]))
                    continue;
                fprintf(w, "%s%s: %s", first ? "" : "; ", gp_derived_defs[j].name, a->row.why[j]);
                first = 0;
            }
            if (w)
                fclose(w);
            gp_text_csv_quoted(out, why ? why : "(out of memory)");
            free(why);
        }
        fprintf(out, ",%ld\n", a->estimated);
    }
    return ferror(out) ? -1 : 0;
}
