/* where_json.c - "why and where" in the JSON document (docs/report.md):
 * at the top, stall sampling, the program's results, where SASS text came
 * from and the kernels with instruction-level data but no launch; per
 * kernel, a "where" object with every source line (ranked) and every
 * instruction of its functions.  n/a is null (the instruction's "defects"
 * say why a derived value is), never 0; strings through gp_text_json_string. */
#include <math.h>
#include <string.h>

#include "metrics/report/report.h"
#include "util/textio.h"
#include "metrics/report/where_report.h"

/* The JSON key of each quantity (where.h), per launch where it is. */
static const char *const gp_wjson_keys[GP_WQ_COUNT] = {"samples",
                                                       "samples_not_issued",
                                                       "inst_executed",
                                                       "thread_inst_executed",
                                                       "thread_inst_executed_pred_on",
                                                       "idle_lanes",
                                                       "divergent_branches",
                                                       "l1_tags_global",
                                                       "sectors_global",
                                                       "excess_sectors",
                                                       "excess_sectors_load",
                                                       "excess_sectors_store",
                                                       "wavefronts_shared",
                                                       "conflict_wavefronts"};

static void gp_wjson_str(FILE *out, const char *key, const char *v)
{
    fprintf(out, ",\"%s\":", key);
    gp_text_json_string(out, v);
}

static void gp_wjson_num(FILE *out, const char *key, double v)
{
    fprintf(out, ",\"%s\":", key);
    gp_report_json_num(out, v);
}

/* {"reason": samples, ...} of one instruction (not_issued: that column). */
static void gp_wjson_stalls(const gp_source *s, const gp_source_instr *in, int not_issued,
                            FILE *out)
{
    unsigned k;
    int first = 1;
    fputc('{', out);
    for (k = 0; k < in->n_stall; k++) {
        double v = not_issued ? in->stall[k].not_issued : in->stall[k].all;
        if (!not_issued || v > 0) {
            fputs(first ? "" : ",", out);
            first = 0;
            gp_text_json_string(out, s->reasons[in->stall[k].reason]);
            fputc(':', out);
            gp_report_json_num(out, v);
        }
    }
    fputc('}', out);
}

static double gp_wjson_ratio(double a, double b)
{
    return b > 0 ? a / b : NAN;
}

static void gp_wjson_instr(const gp_source *s, const gp_source_func *f, const gp_source_instr *in,
                           FILE *out)
{
    const double *v = in->v;
    size_t i;
    int first = 1;
    fprintf(out, "{\"pc\":%ld", in->pc);
    gp_wjson_str(out, "file", in->line > 0 ? s->files[in->file].name : NULL);
    fputs(",\"line\":", out);
    gp_report_json_num(out, in->line > 0 ? (double)in->line : NAN);
    gp_wjson_str(out, "sass", gp_source_text_sass(f, in->pc));
    gp_wjson_str(out, "access", in->access ? gp_source_access_name(in->access) : NULL);
    gp_wjson_num(out, "access_bits", in->access_bits ? in->access_bits : NAN);
    fputs(",\"counts\":{", out);
    for (i = 0; i < GP_SI_COUNT; i++) {
        fprintf(out, "%s\"%s\":", i ? "," : "", gp_si_defs[i].key);
        gp_report_json_num(out, v[i]);
    }
    fputs("},\"per_launch\":{", out);
    for (i = GP_WQ_INST; i < GP_WQ_COUNT; i++) {
        fprintf(out, "%s\"%s\":", i > GP_WQ_INST ? "," : "", gp_wjson_keys[i]);
        gp_report_json_num(out, gp_where_value(f, in, (int)i));
    }
    fputc('}', out);
    gp_wjson_num(out, "avg_threads",
                 in->defects & GP_SRC_BAD_THREADS ? NAN
                                                  : gp_wjson_ratio(v[GP_SI_THREAD], v[GP_SI_INST]));
    gp_wjson_num(
        out, "avg_pred_on_threads",
        in->defects & GP_SRC_BAD_THREADS ? NAN : gp_wjson_ratio(v[GP_SI_PRED_ON], v[GP_SI_INST]));
    gp_wjson_num(out, "n_way_conflicts",
                 in->defects & GP_SRC_BAD_WAVEFRONTS
                     ? NAN
                     : gp_wjson_ratio(v[GP_SI_WAVEFRONTS], v[GP_SI_WAVEFRONTS_IDEAL]));
    fputs(",\"stall\":", out);
    gp_wjson_stalls(s, in, 0, out);
    fputs(",\"stall_not_issued\":", out);
    gp_wjson_stalls(s, in, 1, out);
    fputs(",\"defects\":[", out);
    static const struct {
        unsigned bit;
        const char *name;
    } defects[] = {{GP_SRC_BAD_SECTORS, "sectors_global_ideal > sectors_global"},
                   {GP_SRC_BAD_WAVEFRONTS, "wavefronts_shared_ideal > wavefronts_shared"},
                   {GP_SRC_BAD_THREADS, "threads beyond 32 per instruction or predicated-on "
                                        "beyond threads"},
                   {GP_SRC_BAD_SAMPLES, "samples do not add up"}};
    for (i = 0; i < sizeof defects / sizeof defects[0]; i++)
        if (in->defects & defects[i].bit) {
            fputs(first ? "" : ",", out);
            first = 0;
            gp_text_json_string(out, defects[i].name);
        }
    fputs("]}", out);
}

static void gp_wjson_function(const gp_source *s, const gp_source_func *f, FILE *out)
{
    size_t i;
    fputs("{\"mangled\":", out);
    gp_text_json_string(out, f->mangled);
    gp_wjson_str(out, "module", f->module);
    fprintf(out, ",\"code_bytes\":%ld", f->code_bytes);
    gp_wjson_str(out, "code_why", f->code ? NULL : f->code_why);
    fprintf(out, ",\"lineinfo\":%s", f->lineinfo ? "true" : "false");
    gp_wjson_str(out, "lineinfo_why", f->lineinfo ? NULL : f->lineinfo_why);
    gp_wjson_str(out, "sass_why", f->sass ? NULL : f->sass_why);
    fprintf(out, ",\"sass_launches\":%ld,\"sampled_launches\":%ld,\"processes\":%ld",
            f->sass_launches, f->sampled_launches, f->processes);
    gp_wjson_num(out, "samples", f->samples);
    gp_wjson_num(out, "samples_not_issued", f->samples_not_issued);
    fprintf(out, ",\"left_out\":%ld,\"defects\":%ld", f->dropped, f->defects);
    gp_wjson_str(out, "defect", f->defects ? f->defect : NULL);
    fputs(",\"instructions\":[", out);
    for (i = 0; i < f->n_ins; i++) {
        fputs(i ? ",\n" : "\n", out);
        gp_wjson_instr(s, f, &f->ins[i], out);
    }
    fputs("]}", out);
}

static void gp_wjson_row(const gp_source *s, const gp_where *w, const gp_where_row *row,
                         size_t rank, FILE *out)
{
    const gp_where_ref *ref = &w->refs[row->first];
    double rankv = w->by == GP_WHERE_BY_SAMPLES ? row->q[GP_WQ_SAMPLES] : row->q[GP_WQ_INST];
    double total = w->by == GP_WHERE_BY_SAMPLES ? w->total[GP_WQ_SAMPLES] : w->total[GP_WQ_INST];
    size_t i;
    int first = 1;
    fprintf(out, "{\"rank\":%zu", rank);
    gp_wjson_str(out, "file", row->line > 0 ? s->files[row->file].name : NULL);
    fputs(",\"line\":", out);
    gp_report_json_num(out, row->line > 0 ? (double)row->line : NAN);
    gp_wjson_str(out, "text", row->line > 0 ? gp_source_text_line(s, row->file, row->line) : NULL);
    gp_wjson_str(out, "mangled", s->funcs[ref->func].mangled);
    fprintf(out, ",\"first_pc\":%ld,\"instructions\":%zu", s->funcs[ref->func].ins[ref->ins].pc,
            row->n);
    gp_wjson_num(out, "share_pct", total > 0 && !isnan(rankv) ? 100 * rankv / total : NAN);
    for (i = 0; i < GP_WQ_COUNT; i++)
        gp_wjson_num(out, gp_wjson_keys[i], row->q[i]);
    fputs(",\"stall\":{", out);
    for (i = 0; i < w->n_stall; i++) {
        double v = gp_where_row_stall(s, w, row, (int)i);
        if (v > 0) {
            fputs(first ? "" : ",", out);
            first = 0;
            gp_text_json_string(out, s->reasons[i]);
            fputc(':', out);
            gp_report_json_num(out, v);
        }
    }
    fputs("}}", out);
}

void gp_report_where_json(const gp_report *r, const gp_kernel_report *k, FILE *out)
{
    const gp_source *s = r->source;
    const gp_where *w = k->where;
    size_t i;
    int first = 1;
    if (!w) {
        fputs(",\"where\":null", out);
        return;
    }
    fputs(",\"where\":{\"ranked_by\":", out);
    gp_text_json_string(out, w->by == GP_WHERE_BY_SAMPLES ? "samples"
                             : w->by == GP_WHERE_BY_INST  ? "inst_executed"
                                                          : NULL);
    gp_wjson_str(out, "rows", w->lines ? "lines" : "instructions");
    fprintf(out,
            ",\"sass_launches\":%ld,\"sampled_launches\":%ld,\"left_out\":%ld,"
            "\"defects\":%ld",
            w->sass_launches, w->sampled_launches, w->dropped, w->defects);
    gp_wjson_str(out, "defect", w->defects ? w->defect : NULL);
    fputs(",\"totals\":{", out);
    for (i = 0; i < GP_WQ_COUNT; i++) {
        fprintf(out, "%s\"%s\":", i ? "," : "", gp_wjson_keys[i]);
        gp_report_json_num(out, w->total[i]);
    }
    fputs("},\"stall\":{", out);
    for (i = 0; i < w->n_stall; i++)
        if (w->stall[i] > 0) {
            fputs(first ? "" : ",", out);
            first = 0;
            gp_text_json_string(out, s->reasons[i]);
            fputc(':', out);
            gp_report_json_num(out, w->stall[i]);
        }
    fputs("},\n\"lines\":[", out);
    for (i = 0; i < w->n_rows; i++) {
        fputs(i ? ",\n" : "\n", out);
        gp_wjson_row(s, w, &w->rows[i], i + 1, out);
    }
    fputs("],\n\"functions\":[", out);
    for (i = 0; i < w->n_funcs; i++) {
        fputs(i ? ",\n" : "\n", out);
        gp_wjson_function(s, &s->funcs[w->funcs[i]], out);
    }
    fputs("]}", out);
}

void gp_report_where_json_head(const gp_report *r, FILE *out)
{
    const gp_source *s = r->source;
    size_t i;
    int first = 1;
    size_t why = gp_report_why_missing(r);
    if (why) {
        fprintf(out, ",\"why_missing\":{\"kernels\":%zu,\"of\":%zu", why, r->n);
        gp_wjson_str(out, "ask", gp_report_why_ask);
        fputc('}', out);
    } else {
        fputs(",\"why_missing\":null", out);
    }
    fputs(",\"sampling\":", out);
    if (!s || !s->run.with_sampling) {
        fputs("null", out);
    } else {
        fprintf(out, "{\"processes\":%ld,\"on\":%ld,\"off\":%ld", s->run.with_sampling, s->run.on,
                s->run.off);
        gp_wjson_str(out, "why", s->run.off_why);
        gp_wjson_num(out, "samples", s->run.samples);
        gp_wjson_num(out, "dropped", s->run.dropped);
        gp_wjson_num(out, "non_user", s->run.non_user);
        gp_wjson_num(out, "launches", s->run.launches);
        gp_wjson_num(out, "interval_cycles",
                     s->run.interval_cycles > 0 ? s->run.interval_cycles : NAN);
        fputc('}', out);
    }
    if (!s || !s->run.with_results) { /* no summary said */
        fputs(",\"results\":null", out);
    } else {
        fprintf(out, ",\"results\":{\"valid\":%s,\"processes\":%ld",
                s->run.results_invalid ? "false" : "true", s->run.with_results);
        gp_wjson_str(out, "why", s->run.results_why);
        fputc('}', out);
    }
    gp_wjson_str(out, "sass_text",
                 s && s->n_funcs ? (s->disasm ? s->disasm : "not looked for") : NULL);
    fputs(",\"where_left_out\":", out);
    if (!s)
        fputs("null", out);
    else
        fprintf(out,
                "{\"records_beyond_input_limit\":%ld,\"lines_beyond_file_limit\":%ld,"
                "\"reasons_beyond_limit\":%ld,\"records_without_function\":%ld}",
                s->input_dropped, s->files_dropped, s->reasons_dropped, s->orphans);
    fputs(",\"unmatched_kernels\":[", out);
    for (i = 0; s && i < s->n_kernels; i++)
        if (!s->kernels[i].shown) {
            fprintf(out, "%s{\"kernel\":", first ? "" : ",");
            first = 0;
            gp_text_json_string(out, s->kernels[i].kernel);
            fprintf(out, ",\"device\":%d}", s->kernels[i].ordinal);
        }
    fputc(']', out);
}
