/* where_csv.c - --format source-csv: one row per instruction with data, per
 * kernel in report order and per function by pc (RFC 4180; every string
 * through gp_text_csv_field).  Counts of the SASS pass are per launch, stall
 * samples the sums over the sampled launches; an empty cell is n/a (not
 * measured, or derived from counts with a defect, named in "defects"). */
#include <math.h>
#include <string.h>

#include "metrics/report/report.h"
#include "util/textio.h"
#include "metrics/report/where_report.h"

static double gp_wcsv_ratio(double a, double b)
{
    return b > 0 ? a / b : NAN;
}

int gp_report_source_csv(const gp_report *r, FILE *out)
{
    const gp_source *s = r->source;
    size_t i, j, k, q;
    fputs("kernel,demangled,device,function,module,pc,file,line,sass,access,access_bits [bit],"
          "inst_executed [per launch],thread_inst_executed [per launch],"
          "thread_inst_executed_pred_on [per launch],avg_threads [thread],"
          "avg_pred_on_threads [thread],divergent_branches [per launch],"
          "l1_tags_global [per launch],sectors_global [per launch],"
          "sectors_global_ideal [per launch],excess_sectors [per launch],"
          "wavefronts_shared [per launch],wavefronts_shared_ideal [per launch],"
          "conflict_wavefronts [per launch],n_way_conflicts,samples,samples_not_issued",
          out);
    for (k = 0; s && k < s->n_reasons; k++) {
        char col[96];
        snprintf(col, sizeof col, "stall_%s", s->reasons[k]);
        fputc(',', out);
        gp_text_csv_field(out, col);
    }
    fputs(",defects\n", out);
    for (i = 0; s && i < r->n; i++) {
        const gp_kernel_report *kr = &r->kernels[i];
        const gp_where *w = kr->where;
        for (j = 0; w && j < w->n_funcs; j++) {
            const gp_source_func *f = &s->funcs[w->funcs[j]];
            for (q = 0; q < f->n_ins; q++) {
                const gp_source_instr *in = &f->ins[q];
                const double *v = in->v;
                int bad_t = (in->defects & GP_SRC_BAD_THREADS) != 0;
                char pc[24];
                gp_text_csv_field(out, gp_report_kernel_name(r, kr));
                fputc(',', out);
                gp_text_csv_field(out, kr->agg.kernel);
                fprintf(out, ",%d,", kr->agg.device);
                gp_text_csv_field(out, f->mangled);
                fputc(',', out);
                gp_text_csv_field(out, f->module);
                snprintf(pc, sizeof pc, "0x%lx", in->pc);
                fprintf(out, ",%s,", pc);
                gp_text_csv_field(out, in->line > 0 ? s->files[in->file].name : NULL);
                gp_report_csv_num(out, in->line > 0 ? (double)in->line : NAN);
                fputc(',', out);
                gp_text_csv_field(out, gp_source_text_sass(f, in->pc));
                fprintf(out, ",%s", in->access ? gp_source_access_name(in->access) : "");
                gp_report_csv_num(out, in->access_bits ? in->access_bits : NAN);
                gp_report_csv_num(out, gp_where_per_launch(f, v[GP_SI_INST]));
                gp_report_csv_num(out, gp_where_per_launch(f, v[GP_SI_THREAD]));
                gp_report_csv_num(out, gp_where_per_launch(f, v[GP_SI_PRED_ON]));
                gp_report_csv_num(out, bad_t ? NAN : gp_wcsv_ratio(v[GP_SI_THREAD], v[GP_SI_INST]));
                gp_report_csv_num(out,
                                  bad_t ? NAN : gp_wcsv_ratio(v[GP_SI_PRED_ON], v[GP_SI_INST]));
                gp_report_csv_num(out, gp_where_per_launch(f, v[GP_SI_DIVERGENT]));
                gp_report_csv_num(out, gp_where_per_launch(f, v[GP_SI_L1_TAGS]));
                gp_report_csv_num(out, gp_where_per_launch(f, v[GP_SI_SECTORS]));
                gp_report_csv_num(out, gp_where_per_launch(f, v[GP_SI_SECTORS_IDEAL]));
                gp_report_csv_num(out, gp_where_value(f, in, GP_WQ_EXCESS));
                gp_report_csv_num(out, gp_where_per_launch(f, v[GP_SI_WAVEFRONTS]));
                gp_report_csv_num(out, gp_where_per_launch(f, v[GP_SI_WAVEFRONTS_IDEAL]));
                gp_report_csv_num(out, gp_where_value(f, in, GP_WQ_CONFLICTS));
                gp_report_csv_num(
                    out, in->defects & GP_SRC_BAD_WAVEFRONTS
                             ? NAN
                             : gp_wcsv_ratio(v[GP_SI_WAVEFRONTS], v[GP_SI_WAVEFRONTS_IDEAL]));
                gp_report_csv_num(out, v[GP_SI_SAMPLES]);
                gp_report_csv_num(out, v[GP_SI_SAMPLES_NOT_ISSUED]);
                for (k = 0; k < s->n_reasons; k++) {
                    double x = isnan(v[GP_SI_SAMPLES]) ? NAN : 0;
                    unsigned m;
                    for (m = 0; m < in->n_stall; m++)
                        if (in->stall[m].reason == (int)k)
                            x = in->stall[m].all;
                    gp_report_csv_num(out, x);
                }
                fprintf(out, ",%s%s%s%s\n", in->defects & GP_SRC_BAD_SECTORS ? "sectors;" : "",
                        in->defects & GP_SRC_BAD_WAVEFRONTS ? "wavefronts;" : "",
                        in->defects & GP_SRC_BAD_THREADS ? "threads;" : "",
                        in->defects & GP_SRC_BAD_SAMPLES ? "samples;" : "");
            }
        }
    }
    return ferror(out) ? -1 : 0;
}
