/* details_csv.c - the details page in the layout of `ncu --page details
 * --csv` (details.h), as Nsight Compute 2025.3 writes it: a header of 20
 * columns (the eleven of the launch, report_ncu.c, then "Section Name",
 * "Metric Name", "Metric Unit", "Metric Value", "Rule Name", "Rule Type",
 * "Rule Description", "Estimated Speedup Type", "Estimated Speedup"); per
 * launch, section and row of sections.def a metric row of the first 15
 * columns quoted and a trailing comma (the section's display name, the
 * row's label, unit and value: thousands separators, units scaled as ncu
 * does); after a section's metric rows its rule rows, 20 quoted fields with
 * the section's identifier.  gpuprof has no rules of ncu's; a value it does
 * not have is "n/a" and says why in a rule row of its own: Rule Name
 * "GpuprofUnavailable", Rule Type "INF", Rule Description
 * "<Section> / <Label> (<metric>): <reason>".  Text fields go through the
 * formula guard, as every CSV of gpuprof's. */
#include <stdlib.h>
#include <string.h>

#include "metrics/report/details_common.h"
#include "util/textio.h"

static const char *const gp_dc_head[] = {"ID",
                                         "Process ID",
                                         "Process Name",
                                         "Host Name",
                                         "Kernel Name",
                                         "Context",
                                         "Stream",
                                         "Block Size",
                                         "Grid Size",
                                         "Device",
                                         "CC",
                                         "Section Name",
                                         "Metric Name",
                                         "Metric Unit",
                                         "Metric Value",
                                         "Rule Name",
                                         "Rule Type",
                                         "Rule Description",
                                         "Estimated Speedup Type",
                                         "Estimated Speedup"};

static void gp_dc_field(FILE *out, const char *s)
{
    fputc(',', out);
    gp_text_csv_quoted(out, s);
}

int gp_report_details_csv(const gp_report *r, const gp_details_opts *o, FILE *out)
{
    for (size_t i = 0; i < sizeof gp_dc_head / sizeof gp_dc_head[0]; i++) {
        if (i)
            fputc(',', out);
        gp_text_csv_quoted(out, gp_dc_head[i]);
    }
    fputc('\n', out);
    for (size_t i = 0; i < r->n_launch_rows; i++) {
        const gp_report_launch *x = &r->launch_rows[i];
        gp_ncu_mask m = gp_dl_sections(o, x);
        gp_dl_counters c;
        gp_ncu_eval e;
        gp_dl_counters_init(&c, &x->l);
        gp_ncu_eval_init(&e, &x->l, gp_dl_device(r, x), gp_dl_counter, &c);
        for (size_t s = 0; s < gp_ncu_n_sections; s++) {
            char(*why)[900] = NULL;
            size_t n_why = 0;
            if (!(m >> s & 1))
                continue;
            for (size_t k = 0; k < gp_ncu_n_rows; k++) {
                const gp_ncu_row *row = &gp_ncu_rows[k];
                char unit[32], value[48];
                gp_ncu_value v;
                if (strcmp(row->section, gp_ncu_sections[s].id) != 0 || !gp_dl_shows(o, row))
                    continue;
                gp_ncu_eval_row(&e, row, &v);
                if (v.status == GP_NCU_OK) {
                    double div = gp_dl_scale(v.value, row->unit, o->base_units, unit, sizeof unit);
                    gp_dl_number(v.value / div, 0, value, sizeof value);
                } else {
                    char reason[600];
                    char(*nw)[900] = realloc(why, (n_why + 1) * sizeof *why);
                    snprintf(unit, sizeof unit, "%s", row->unit);
                    snprintf(value, sizeof value, "n/a");
                    if (nw) {
                        why = nw;
                        snprintf(why[n_why++], sizeof *why, "%s / %s (%s): %s",
                                 gp_ncu_sections[s].display, row->label, row->metric,
                                 gp_dl_reason(row, &v, reason, sizeof reason));
                    }
                }
                gp_report_ncu_prefix(r, i, x, out);
                gp_dc_field(out, gp_ncu_sections[s].display);
                gp_dc_field(out, row->label);
                gp_dc_field(out, unit);
                gp_dc_field(out, value);
                fputs(",\n", out);
            }
            for (size_t k = 0; k < n_why; k++) {
                gp_report_ncu_prefix(r, i, x, out);
                gp_dc_field(out, gp_ncu_sections[s].id);
                gp_dc_field(out, "");
                gp_dc_field(out, "");
                gp_dc_field(out, "");
                gp_dc_field(out, "GpuprofUnavailable");
                gp_dc_field(out, "INF");
                gp_dc_field(out, why[k]);
                gp_dc_field(out, "");
                gp_dc_field(out, "");
                fputc('\n', out);
            }
            free(why);
        }
        gp_dl_counters_free(&c);
    }
    return ferror(out) ? -1 : 0;
}
