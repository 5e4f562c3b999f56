/* where_html.c - the HTML report's source view: per kernel its hottest lines,
 * each source file around the lines with data (the file's text when it was
 * readable at report time) with bars for stall samples and excess sectors
 * and the SASS of each line beside it, and per function its SASS (the
 * disassembler's text, else offsets).  Bounded: GP_WHTML_MAX_SRC source
 * lines per file, GP_WHTML_MAX_SASS instructions per function.  Every name
 * and text from the input goes through gp_text_plain_buf (control
 * characters, bidi overrides and bytes that are not UTF-8 shown as escapes)
 * and then gp_text_html. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/report/report.h"
#include "util/textio.h"
#include "metrics/report/where_report.h"

#define GP_WHTML_TOP 10        /* rows of the hot-line table */
#define GP_WHTML_CONTEXT 3     /* source lines shown around a line with data */
#define GP_WHTML_MAX_SRC 2000  /* source lines shown per file */
#define GP_WHTML_MAX_SASS 3000 /* instructions shown per function */
#define GP_WHTML_LINE_SASS 6   /* instructions listed beside a source line */
#define GP_WHTML_BAR 80        /* px of the longest bar */

/* s (at most max bytes, cut at a character boundary) escaped twice: for
 * the eye (gp_text_plain_buf), then for HTML. */
static void gp_whtml_text(FILE *out, const char *s, size_t max)
{
    char cut[512], esc[2600];
    size_t n, i;
    if (!s)
        return;
    n = strlen(s);
    if (max > sizeof cut - 1)
        max = sizeof cut - 1;
    if (n > max) {
        n = max;
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    for (i = 0; i < n; i++) /* tabs keep their look in source text */
        cut[i] = s[i] == '\t' ? ' ' : s[i];
    cut[n] = 0;
    gp_text_html(out, gp_text_plain_buf(esc, sizeof esc, cut));
    if (n < strlen(s))
        fputs("&hellip;", out);
}

/* A value with a bar as long as its share of max; "-" or n/a as
 * gp_report_where_cell says. */
static void gp_whtml_bar(FILE *out, const gp_where *w, int q, const char *cls, double v, double max)
{
    char buf[24];
    int px = !isnan(v) && max > 0 && v > 0 ? (int)ceil(GP_WHTML_BAR * v / max) : 0;
    fprintf(out, "<td class=\"num\"><span class=\"wbar %s\" style=\"width:%dpx\"></span> %s</td>",
            cls, px, gp_report_where_cell(w, v, q, buf, sizeof buf));
}

static void gp_whtml_cell(FILE *out, const gp_where *w, double v, int q)
{
    char buf[24];
    fprintf(out, "<td class=\"num\">%s</td>", gp_report_where_cell(w, v, q, buf, sizeof buf));
}

/* The instructions of a row beside its source line: "+0x1b0 LDG.E ...". */
static void gp_whtml_row_sass(const gp_source *s, const gp_where *w, const gp_where_row *row,
                              FILE *out)
{
    size_t i;
    for (i = 0; i < row->n && i < GP_WHTML_LINE_SASS; i++) {
        const gp_where_ref *ref = &w->refs[row->first + i];
        const gp_source_func *f = &s->funcs[ref->func];
        long pc = f->ins[ref->ins].pc;
        const char *t = gp_source_text_sass(f, pc);
        fprintf(out, "%s<code>+0x%lx", i ? "<br>" : "", pc);
        if (t) {
            fputc(' ', out);
            gp_whtml_text(out, t, 120);
        }
        fputs("</code>", out);
    }
    if (row->n > GP_WHTML_LINE_SASS)
        fprintf(out, "<br>(%zu more)", row->n - GP_WHTML_LINE_SASS);
}

static void gp_whtml_hot(const gp_source *s, const gp_where *w, FILE *out)
{
    size_t i, n = w->n_rows < GP_WHTML_TOP ? w->n_rows : GP_WHTML_TOP;
    double max = 0;
    int by_samples = w->by == GP_WHERE_BY_SAMPLES;
    for (i = 0; i < w->n_rows; i++)
        if (!isnan(w->rows[i].q[by_samples ? GP_WQ_SAMPLES : GP_WQ_INST]) &&
            w->rows[i].q[by_samples ? GP_WQ_SAMPLES : GP_WQ_INST] > max)
            max = w->rows[i].q[by_samples ? GP_WQ_SAMPLES : GP_WQ_INST];
    fprintf(out,
            "<table class=\"hot\"><tr><th>%s</th><th>stall reasons</th><th>inst/launch</th>"
            "<th>excess sectors/launch</th><th>bank-conflict wavefronts/launch</th><th>%s"
            "</th><th>source</th></tr>\n",
            by_samples ? "stall samples" : "instructions/launch",
            w->lines ? "line" : "instruction");
    for (i = 0; i < n; i++) {
        const gp_where_row *row = &w->rows[i];
        char reasons[200], loc[200];
        const char *text = row->line > 0 ? gp_source_text_line(s, row->file, row->line) : NULL;
        fputs("<tr class=\"hotrow\">", out);
        gp_whtml_bar(out, w, by_samples ? GP_WQ_SAMPLES : GP_WQ_INST, "samples",
                     row->q[by_samples ? GP_WQ_SAMPLES : GP_WQ_INST], max);
        gp_report_where_reasons(s, w, row, 3, reasons, sizeof reasons);
        fputs("<td>", out);
        gp_text_html(out, reasons[0] ? reasons : "-");
        fputs("</td>", out);
        gp_whtml_cell(out, w, row->q[GP_WQ_INST], GP_WQ_INST);
        gp_whtml_cell(out, w, row->q[GP_WQ_EXCESS], GP_WQ_EXCESS);
        gp_whtml_cell(out, w, row->q[GP_WQ_CONFLICTS], GP_WQ_CONFLICTS);
        gp_report_where_location(s, w, row, loc, sizeof loc);
        fputs("<td><code>", out);
        gp_whtml_text(out, loc, 200);
        fputs("</code></td><td class=\"code\">", out);
        gp_whtml_text(out, text, 200);
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
}

static int gp_whtml_row_cmp(const void *a, const void *b)
{
    const gp_where_row *x = *(const gp_where_row *const *)a, *y = *(const gp_where_row *const *)b;
    return (x->line > y->line) - (x->line < y->line);
}

/* One source file: its lines with data, a few around each, with bars and
 * the SASS of each line. */
static void gp_whtml_file(const gp_source *s, const gp_where *w, int file, size_t rank, int open,
                          FILE *out)
{
    const gp_source_file *sf = &s->files[file];
    const gp_where_row **by_line;
    long l, shown = 0, last = 0;
    size_t i, n = 0, k;
    double max_s = 0, max_x = 0;
    for (i = 0; i < w->n_rows; i++)
        n += w->rows[i].line > 0 && w->rows[i].file == file;
    if (!(by_line = malloc((n ? n : 1) * sizeof *by_line)))
        return;
    for (i = 0, k = 0; i < w->n_rows; i++) {
        const gp_where_row *row = &w->rows[i];
        if (row->line <= 0 || row->file != file)
            continue;
        by_line[k++] = row;
        if (!isnan(row->q[GP_WQ_SAMPLES]) && row->q[GP_WQ_SAMPLES] > max_s)
            max_s = row->q[GP_WQ_SAMPLES];
        if (!isnan(row->q[GP_WQ_EXCESS]) && row->q[GP_WQ_EXCESS] > max_x)
            max_x = row->q[GP_WQ_EXCESS];
    }
    /* the file's rows in line order, for the walk below (one row per line) */
    qsort(by_line, n, sizeof *by_line, gp_whtml_row_cmp);
    fprintf(out, "<details class=\"srcfile\"%s><summary><code>", open ? " open" : "");
    gp_whtml_text(out, sf->name, 400);
    fprintf(out, "</code>: %zu line%s with data", n, n == 1 ? "" : "s");
    if (!sf->text) {
        fputs(" (source not shown: ", out);
        gp_whtml_text(out, sf->text_why ? sf->text_why : "not read", 200);
        fputc(')', out);
    }
    fputs("</summary>\n<table class=\"src\"><tr><th>line</th><th>stall samples</th><th>excess "
          "sectors/launch</th><th>source</th><th>SASS</th></tr>\n",
          out);
    for (i = 0, k = 0; i < n && shown < GP_WHTML_MAX_SRC; i++) {
        long at = by_line[i]->line, from = at - GP_WHTML_CONTEXT, to = at + GP_WHTML_CONTEXT;
        if (!sf->text)
            from = to = at; /* no text: the lines with data alone */
        if (from < 1)
            from = 1;
        if (sf->text && to > sf->n_lines)
            to = sf->n_lines > at ? sf->n_lines : at;
        if (from <= last)
            from = last + 1;
        if (from > last + 1 && last)
            fputs("<tr class=\"gap\"><td colspan=\"5\">&hellip;</td></tr>\n", out);
        for (l = from; l <= to && shown < GP_WHTML_MAX_SRC; l++, shown++) {
            const gp_where_row *row = NULL;
            for (; k < n && by_line[k]->line < l; k++)
                ;
            if (k < n && by_line[k]->line == l)
                row = by_line[k];
            fprintf(out, "<tr class=\"srcline%s\" id=\"k%zu-f%d-l%ld\"><td class=\"ln\">%ld</td>",
                    row ? " data" : "", rank, file, l, l);
            if (row) {
                gp_whtml_bar(out, w, GP_WQ_SAMPLES, "samples", row->q[GP_WQ_SAMPLES], max_s);
                gp_whtml_bar(out, w, GP_WQ_EXCESS, "excess", row->q[GP_WQ_EXCESS], max_x);
            } else {
                fputs("<td></td><td></td>", out);
            }
            fputs("<td class=\"code\">", out);
            gp_whtml_text(out, gp_source_text_line(s, file, l), 400);
            fputs("</td><td class=\"sass\">", out);
            if (row)
                gp_whtml_row_sass(s, w, row, out);
            fputs("</td></tr>\n", out);
        }
        last = to;
    }
    fputs("</table>", out);
    if (shown >= GP_WHTML_MAX_SRC)
        fprintf(out, "<p class=\"note\">Only the first %d source lines are shown.</p>",
                GP_WHTML_MAX_SRC);
    fputs("</details>\n", out);
    free(by_line);
}

/* One function's SASS, by offset. */
static void gp_whtml_sass(const gp_source *s, const gp_where *w, const gp_source_func *f, FILE *out)
{
    long pc, shown = 0;
    gp_source_walk walk = {0, 0};
    size_t next = 0;
    double max = 0;
    int by_samples = w->by == GP_WHERE_BY_SAMPLES;
    int q = by_samples ? GP_WQ_SAMPLES : GP_WQ_INST;
    for (next = 0; next < f->n_ins; next++) {
        double v = gp_where_value(f, &f->ins[next], q);
        if (!isnan(v) && v > max)
            max = v;
    }
    fputs("<details class=\"sassfn\"><summary>SASS of <code>", out);
    gp_whtml_text(out, f->mangled, 300);
    fprintf(out, "</code> (%ld bytes", f->code_bytes);
    if (!f->sass) {
        fputs("; offsets only: ", out);
        gp_whtml_text(out, f->sass_why ? f->sass_why : "no disassembler", 300);
    }
    fprintf(out,
            ")</summary>\n<table class=\"sasstab\"><tr><th>offset</th><th>instruction</th>"
            "<th>line</th><th>%s</th><th>inst/launch</th><th>excess sectors</th>"
            "<th>conflict wavefronts</th><th>stall reasons</th></tr>\n",
            by_samples ? "stall samples" : "instructions/launch");
    /* the instructions present (never a pc range a record merely claims) */
    for (next = 0; shown < GP_WHTML_MAX_SASS && (pc = gp_source_walk_next(f, &walk)) >= 0;) {
        const gp_source_instr *in = NULL;
        const char *t = gp_source_text_sass(f, pc);
        while (next < f->n_ins && f->ins[next].pc < pc)
            next++;
        if (next < f->n_ins && f->ins[next].pc == pc)
            in = &f->ins[next];
        if (!in && !t)
            continue; /* neither data nor text: nothing to show */
        shown++;
        fprintf(out, "<tr class=\"sassline%s\"><td><code>+0x%lx</code></td><td><code>",
                in ? " data" : "", pc);
        gp_whtml_text(out, t, 200);
        fputs("</code></td><td>", out);
        if (in && in->line > 0) {
            gp_whtml_text(out, gp_where_basename(s->files[in->file].name), 100);
            fprintf(out, ":%ld", in->line);
        }
        fputs("</td>", out);
        gp_whtml_bar(out, w, q, "samples", in ? gp_where_value(f, in, q) : NAN, max);
        gp_whtml_cell(out, w, in ? gp_where_value(f, in, GP_WQ_INST) : NAN, GP_WQ_INST);
        gp_whtml_cell(out, w, in ? gp_where_value(f, in, GP_WQ_EXCESS) : NAN, GP_WQ_EXCESS);
        gp_whtml_cell(out, w, in ? gp_where_value(f, in, GP_WQ_CONFLICTS) : NAN, GP_WQ_CONFLICTS);
        fputs("<td>", out);
        if (in) {
            unsigned k;
            int best = -1;
            for (k = 0; k < in->n_stall; k++)
                if (best < 0 || in->stall[k].all > in->stall[best].all)
                    best = (int)k;
            if (best >= 0)
                gp_whtml_text(out, s->reasons[in->stall[best].reason], 64);
        }
        fputs("</td></tr>\n", out);
    }
    fputs("</table>", out);
    if (shown >= GP_WHTML_MAX_SASS)
        fprintf(out,
                "<p class=\"note\">Only the first %d instructions are shown: "
                "--format source-csv has all.</p>",
                GP_WHTML_MAX_SASS);
    fputs("</details>\n", out);
}

void gp_report_where_html(const gp_report *r, const gp_kernel_report *k, FILE *out)
{
    const gp_source *s = r->source;
    const gp_where *w = k->where;
    size_t i, j, rank = (size_t)(k - r->kernels) + 1;
    char buf[32];
    int *seen;
    if (!w)
        return;
    fprintf(out, "<section class=\"where\" id=\"k%zu-where\"><h4>Where</h4>\n<p>%s by %s; ", rank,
            w->lines ? "Source lines" : "SASS instructions (no line information)",
            w->by == GP_WHERE_BY_SAMPLES ? "stall samples"
            : w->by == GP_WHERE_BY_INST  ? "instructions executed (no stall samples)"
                                         : "offset");
    if (w->sass_launches)
        fprintf(out, "SASS counts per launch over %ld launch%s", w->sass_launches,
                w->sass_launches == 1 ? "" : "es");
    else
        fputs("no SASS pass", out);
    if (w->sampled_launches)
        fprintf(out, ", %s stall samples in %ld sampled launch%s.</p>\n",
                gp_report_where_count(w->total[GP_WQ_SAMPLES], buf, sizeof buf),
                w->sampled_launches, w->sampled_launches == 1 ? "" : "es");
    else
        fputs(", not sampled.</p>\n", out);
    if (w->defects) {
        fprintf(out,
                "<p class=\"warning\">Defect in the data: %ld instruction%s with counts that "
                "cannot all be true (first: ",
                w->defects, w->defects == 1 ? "" : "s");
        gp_whtml_text(out, w->defect, 300);
        fputs("); the values derived from them are n/a and left out of the sums.</p>\n", out);
    }
    if (w->dropped)
        fprintf(out,
                "<p class=\"note\">%ld instruction records left out (at most %ld per "
                "function, %ld per input).</p>\n",
                w->dropped, GP_SOURCE_MAX_INSTR, GP_SOURCE_MAX_FILE_INSTR);
    if (w->n_rows)
        gp_whtml_hot(s, w, out);
    /* the files, in the order their hottest line ranks */
    seen = calloc(s->n_files ? s->n_files : 1, sizeof *seen);
    for (i = 0; seen && i < w->n_rows; i++) {
        int f = w->rows[i].file;
        if (w->rows[i].line <= 0 || f < 0 || seen[f])
            continue;
        seen[f] = 1;
        gp_whtml_file(s, w, f, rank, i == 0, out);
    }
    free(seen);
    for (j = 0; j < w->n_funcs; j++)
        gp_whtml_sass(s, w, &s->funcs[w->funcs[j]], out);
    fputs("</section>\n", out);
}

void gp_report_where_html_head(const gp_report *r, FILE *out)
{
    const gp_source *s = r->source;
    char buf[400];
    if (gp_report_why_missing_text(r, buf, sizeof buf)) {
        fprintf(out, "<p>Why warps wait: %s: ", buf);
        gp_text_html(out, gp_report_why_ask);
        fputs(".</p>\n", out);
    }
    if (!s)
        return;
    gp_report_where_sampling(r, buf, sizeof buf);
    if (buf[0]) {
        fputs("<p>Stall sampling: ", out);
        gp_text_html(out, buf);
        if (s->run.off_why) {
            fputs(s->run.on ? "; stopped or off in a process: " : ": ", out);
            gp_whtml_text(out, s->run.off_why, 400);
        }
        fputs(".</p>\n", out);
    }
    if (s->n_funcs) {
        fputs("<p>SASS text: ", out);
        gp_whtml_text(out, s->disasm ? s->disasm : "not looked for", 400);
        fputs(".</p>\n", out);
    }
    if (s->run.results_invalid) {
        fputs("<p class=\"warning\">Warning: the program's results are not to be trusted ", out);
        gp_whtml_text(out, s->run.results_why, 500);
        fputs(".</p>\n", out);
    }
}
