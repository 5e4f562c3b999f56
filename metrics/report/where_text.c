/* where_text.c - the "where" part of the text report: once in the header,
 * stall sampling and where SASS text came from; per kernel, its hottest
 * source lines (SASS instructions without line information) with their
 * dominant stall reasons, instructions, excess sectors and bank-conflict
 * wavefronts, and what was left out.  Every name from the input goes through
 * gp_text_plain. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metrics/report/report.h"
#include "util/textio.h"
#include "metrics/report/where_report.h"
#include "metrics/verdicts/verdict_stall.h"

/* "1234", "12.3K", "4.56M"; n/a for NaN. */
const char *gp_report_where_count(double v, char *buf, size_t len)
{
    static const char *const pre[] = {"", "K", "M", "G", "T", "P"};
    int i = 0;
    if (isnan(v))
        snprintf(buf, len, "n/a");
    else if (fabs(v) < 10000)
        snprintf(buf, len, v == floor(v) ? "%.0f" : "%.3g", v);
    else {
        while (fabs(v) >= 1000 && i < 5) {
            v /= 1000;
            i++;
        }
        snprintf(buf, len, "%.3g%s", v, pre[i]);
    }
    return buf;
}

const char *gp_report_where_cell(const gp_where *w, double v, int q, char *buf, size_t len)
{
    /* measured for the kernel, but no instruction of this row has it: not
     * applicable ("-"), unlike a value that was not measured (n/a) */
    if (isnan(v) && !isnan(w->total[q]))
        return snprintf(buf, len, "-"), buf;
    if (isnan(v) && q >= GP_WQ_INST && w->sass_launches > 0)
        return snprintf(buf, len, "-"), buf;
    return gp_report_where_count(v, buf, len);
}

void gp_report_where_location(const gp_source *s, const gp_where *w, const gp_where_row *row,
                              char *buf, size_t len)
{
    const gp_where_ref *ref = &w->refs[row->first];
    const gp_source_func *f = &s->funcs[ref->func];
    const gp_source_instr *in = &f->ins[ref->ins];
    const char *sass = gp_source_text_sass(f, in->pc);
    char op[48];
    if (row->line > 0)
        snprintf(buf, len, "%s:%ld", gp_where_basename(s->files[row->file].name), row->line);
    else if (sass)
        snprintf(buf, len, "+0x%lx %s", in->pc, gp_where_opcode(sass, op, sizeof op));
    else
        snprintf(buf, len, "+0x%lx", in->pc);
}

void gp_report_where_sampling(const gp_report *r, char *buf, size_t len)
{
    const gp_source_run *run = &r->source->run;
    char a[24], b[24], c[24];
    buf[0] = 0;
    if (!run->with_sampling)
        return;
    if (run->on)
        snprintf(buf, len,
                 "on in %ld of %ld processes, %s samples (%s dropped: the hardware's "
                 "buffer was full; %s in code of no known module)",
                 run->on, run->with_sampling, gp_report_where_count(run->samples, a, sizeof a),
                 gp_report_where_count(run->dropped, b, sizeof b),
                 gp_report_where_count(run->non_user, c, sizeof c));
    else
        snprintf(buf, len, "off");
}

const char gp_report_why_ask[] =
    "gpuprof --set source samples the stall reasons of the program's own launches (nothing "
    "replayed); --section WarpStateStats adds the warp-state counters to each profiled launch "
    "(7 more passes in kernel replay)";

size_t gp_report_why_missing(const gp_report *r)
{
    size_t i, n = 0;
    for (i = 0; i < r->n; i++)
        n += !gp_verdict_stall_measured(r->kernels[i].agg.row.v, r->kernels[i].where);
    return n;
}

size_t gp_report_why_missing_text(const gp_report *r, char *buf, size_t len)
{
    size_t why = gp_report_why_missing(r);
    snprintf(buf, len,
             "not measured for %zu of %zu kernels (no warp-state counters or stall samples in "
             "these records)",
             why, r->n);
    return why;
}

void gp_report_where_text_head(const gp_report *r, FILE *out)
{
    const gp_source *s = r->source;
    char buf[400];
    size_t unmatched;
    if (gp_report_why_missing_text(r, buf, sizeof buf))
        fprintf(out, "why warps wait: %s: %s\n", buf, gp_report_why_ask);
    if (!s)
        return;
    gp_report_where_sampling(r, buf, sizeof buf);
    if (buf[0]) {
        fprintf(out, "stall sampling: %s", buf);
        if (s->run.off_why) {
            fputs(s->run.on ? "; stopped or off in a process: " : ": ", out);
            gp_text_plain(out, s->run.off_why);
        }
        fputc('\n', out);
    }
    if (s->n_funcs) {
        fputs("SASS text: ", out);
        gp_text_plain(out, s->disasm ? s->disasm : "not looked for");
        fputc('\n', out);
    }
    if (s->run.results_invalid) {
        fprintf(out, "warning: the program's results are not to be trusted in %ld process%s: ",
                s->run.results_invalid, s->run.results_invalid == 1 ? "" : "es");
        gp_text_plain(out, s->run.results_why);
        fputc('\n', out);
    }
    if ((unmatched = gp_source_group_unmatched(s)))
        fprintf(out,
                "note: %zu kernel%s with instruction-level data but no profiled launch "
                "(not shown here; --format json lists them)\n",
                unmatched, unmatched == 1 ? "" : "s");
    if (s->input_dropped || s->files_dropped || s->reasons_dropped || s->orphans)
        fprintf(out,
                "note: instruction-level data left out: %ld records beyond %ld per input, "
                "%ld lines beyond %d source files, %ld stall reasons beyond %d names (in "
                "\"(other reasons)\"), %ld records without their function\n",
                s->input_dropped, GP_SOURCE_MAX_FILE_INSTR, s->files_dropped, GP_SOURCE_MAX_FILES,
                s->reasons_dropped, GP_SOURCE_MAX_REASONS, s->orphans);
}

/* A source line's text for a terminal: tabs as spaces, leading blanks
 * dropped, cut to about 60 columns, escaped. */
static void gp_report_where_src(const char *line, FILE *out)
{
    char plain[256], esc[72];
    size_t i;
    while (*line == ' ' || *line == '\t')
        line++;
    for (i = 0; line[i] && i + 1 < sizeof plain; i++)
        plain[i] = line[i] == '\t' ? ' ' : line[i];
    plain[i] = 0;
    gp_text_plain_buf(esc, sizeof esc, plain);
    fputs(esc, out);
    if (strlen(esc) < strlen(plain))
        fputs("...", out);
}

/* The dominant stall reasons of a row: "long_scoreboard 99%, wait 1%". */
void gp_report_where_reasons(const gp_source *s, const gp_where *w, const gp_where_row *row,
                             size_t n, char *buf, size_t len)
{
    int top[4];
    double v[4], all = 0;
    size_t k, got, o = 0;
    char name[48];
    buf[0] = 0;
    if (n > 4)
        n = 4;
    got = gp_where_top_reasons(s, w, row, n, top, v);
    for (k = 0; k < w->n_stall; k++)
        all += row ? gp_where_row_stall(s, w, row, (int)k) : w->stall[k];
    for (k = 0; k < got && o < len; k++) {
        int wrote =
            snprintf(buf + o, len - o, "%s%s %.0f%%", k ? ", " : "",
                     gp_text_plain_buf(name, sizeof name, s->reasons[top[k]]), 100 * v[k] / all);
        if (wrote < 0)
            break;
        o += (size_t)wrote;
    }
}

#define GP_WHERE_TEXT_ROWS 5

void gp_report_where_text(const gp_report *r, const gp_kernel_report *k, FILE *out)
{
    gp_report_where_text_rows(r, k, GP_WHERE_TEXT_ROWS, out);
}

void gp_report_where_text_rows(const gp_report *r, const gp_kernel_report *k, size_t rows,
                               FILE *out)
{
    const gp_source *s = r->source;
    const gp_where *w = k->where;
    size_t i, n;
    int by_samples;
    char a[24], b[24], c[24], d[24], loc[160], locx[200], why[200];
    if (!w)
        return;
    by_samples = w->by == GP_WHERE_BY_SAMPLES;
    fprintf(out, "   where (%s by %s", w->lines ? "source lines" : "SASS instructions",
            by_samples                  ? "stall samples"
            : w->by == GP_WHERE_BY_INST ? "instructions executed"
                                        : "address");
    if (w->sass_launches)
        fprintf(out, "; SASS counts per launch over %ld launch%s", w->sass_launches,
                w->sass_launches == 1 ? "" : "es");
    else
        fprintf(out, "; no SASS pass");
    if (w->sampled_launches)
        fprintf(out, ", %s samples in %ld sampled launch%s):\n",
                gp_report_where_count(w->total[GP_WQ_SAMPLES], a, sizeof a), w->sampled_launches,
                w->sampled_launches == 1 ? "" : "es");
    else
        fprintf(out, ", not sampled):\n");
    if (!w->n_rows) {
        fprintf(out, "      no instruction records\n");
    } else {
        fprintf(out, "      %8s %6s %-40s %10s %10s %10s  %s\n", "samples", "share",
                by_samples ? "stall reasons (share of its samples)" : "stall reasons", "inst",
                "excess", "conflict", w->lines ? "line" : "instruction");
        fprintf(out, "      %8s %6s %-40s %10s %10s %10s\n", "", "", "", "/launch", "sectors",
                "wavefronts");
    }
    n = w->n_rows < rows ? w->n_rows : rows;
    for (i = 0; i < n; i++) {
        const gp_where_row *row = &w->rows[i];
        double rank = by_samples ? row->q[GP_WQ_SAMPLES] : row->q[GP_WQ_INST];
        double total = by_samples ? w->total[GP_WQ_SAMPLES] : w->total[GP_WQ_INST];
        char reasons[160], share[16];
        const char *text;
        gp_report_where_reasons(s, w, row, 2, reasons, sizeof reasons);
        if (total > 0 && !isnan(rank))
            snprintf(share, sizeof share, "%.1f%%", 100 * rank / total);
        else
            snprintf(share, sizeof share, "n/a");
        gp_report_where_location(s, w, row, loc, sizeof loc);
        fprintf(out, "      %8s %6s %-40s %10s %10s %10s  %s",
                gp_report_where_cell(w, row->q[GP_WQ_SAMPLES], GP_WQ_SAMPLES, a, sizeof a), share,
                reasons[0] ? reasons : "-",
                gp_report_where_cell(w, row->q[GP_WQ_INST], GP_WQ_INST, b, sizeof b),
                gp_report_where_cell(w, row->q[GP_WQ_EXCESS], GP_WQ_EXCESS, c, sizeof c),
                gp_report_where_cell(w, row->q[GP_WQ_CONFLICTS], GP_WQ_CONFLICTS, d, sizeof d),
                gp_text_plain_buf(locx, sizeof locx, loc));
        if (row->line > 0 && (text = gp_source_text_line(s, row->file, row->line))) {
            fputs("  ", out);
            gp_report_where_src(text, out);
        }
        fputc('\n', out);
    }
    if (w->n_rows > n)
        fprintf(out, "      (%zu more %s: --format json or source-csv)\n", w->n_rows - n,
                w->lines ? "lines" : "instructions");
    if (!w->lines && w->n_rows) {
        const gp_source_func *f = &s->funcs[w->funcs[0]];
        fputs("      no line information: ", out);
        gp_text_plain(out, f->lineinfo_why ? f->lineinfo_why : "the records have no file/line");
        fputc('\n', out);
    }
    if (!by_samples && w->n_rows)
        fprintf(out, "      no stall samples for this kernel: ranked by %s\n",
                w->by == GP_WHERE_BY_INST ? "instructions executed" : "address");
    if (w->dropped)
        fprintf(out,
                "      %ld instruction records left out (at most %ld per function, %ld per "
                "input)\n",
                w->dropped, GP_SOURCE_MAX_INSTR, GP_SOURCE_MAX_FILE_INSTR);
    if (w->defects)
        fprintf(out,
                "      defect in the data: %ld instruction%s with counts that cannot all be "
                "true (first: %s); the values derived from them are n/a and left out of the "
                "sums\n",
                w->defects, w->defects == 1 ? "" : "s",
                gp_text_plain_buf(why, sizeof why, w->defect));
}
