/* where.c - see where.h. */
#include "metrics/instructions/where.h"

#include "metrics/instructions/source_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/num.h"

static const char *const gp_where_q_labels[GP_WQ_COUNT] = {"stall samples",
                                                           "not-issued samples",
                                                           "instructions executed",
                                                           "thread instructions",
                                                           "predicated-on thread instructions",
                                                           "idle lanes",
                                                           "divergent branches",
                                                           "L1 tag requests",
                                                           "global sectors",
                                                           "excess sectors",
                                                           "excess sectors of global loads",
                                                           "excess sectors of global stores",
                                                           "shared wavefronts",
                                                           "bank-conflict wavefronts"};

const char *gp_where_q_label(int q)
{
    return q >= 0 && q < GP_WQ_COUNT ? gp_where_q_labels[q] : "";
}

/* x over the function's SASS launches: the per-launch value Nsight
 * Compute's source page shows. */
double gp_where_per_launch(const gp_source_func *f, double x)
{
    return f->sass_launches > 0 ? x / (double)f->sass_launches : NAN;
}

double gp_where_value(const gp_source_func *f, const gp_source_instr *in, int q)
{
    const double *v = in->v;
    int a = in->access;
    switch (q) {
    /* a sampled function's instruction without samples had none: 0, not n/a */
    case GP_WQ_SAMPLES:
        return isnan(v[GP_SI_SAMPLES]) && f->sampled_launches > 0 ? 0 : v[GP_SI_SAMPLES];
    case GP_WQ_NOT_ISSUED:
        return isnan(v[GP_SI_SAMPLES_NOT_ISSUED]) && f->sampled_launches > 0
                   ? 0
                   : v[GP_SI_SAMPLES_NOT_ISSUED];
    case GP_WQ_INST:
        return gp_where_per_launch(f, v[GP_SI_INST]);
    case GP_WQ_THREAD:
        return gp_where_per_launch(f, v[GP_SI_THREAD]);
    case GP_WQ_PRED_ON:
        return gp_where_per_launch(f, v[GP_SI_PRED_ON]);
    case GP_WQ_IDLE_LANES:
        return in->defects & GP_SRC_BAD_THREADS
                   ? NAN
                   : gp_where_per_launch(f, 32 * v[GP_SI_INST] - v[GP_SI_PRED_ON]);
    case GP_WQ_DIVERGENT:
        return gp_where_per_launch(f, v[GP_SI_DIVERGENT]);
    case GP_WQ_L1_TAGS:
        return gp_where_per_launch(f, v[GP_SI_L1_TAGS]);
    case GP_WQ_SECTORS:
        return gp_where_per_launch(f, v[GP_SI_SECTORS]);
    case GP_WQ_EXCESS_LD:
        if (a != GP_ACCESS_GLOBAL_LD && a != GP_ACCESS_LDGSTS)
            return NAN;
        return gp_where_value(f, in, GP_WQ_EXCESS);
    case GP_WQ_EXCESS_ST:
        if (a != GP_ACCESS_GLOBAL_ST && a != GP_ACCESS_GLOBAL_ATOM && a != GP_ACCESS_GLOBAL_RED)
            return NAN;
        return gp_where_value(f, in, GP_WQ_EXCESS);
    case GP_WQ_EXCESS:
        return in->defects & GP_SRC_BAD_SECTORS
                   ? NAN
                   : gp_where_per_launch(f, v[GP_SI_SECTORS] - v[GP_SI_SECTORS_IDEAL]);
    case GP_WQ_WAVEFRONTS:
        return gp_where_per_launch(f, v[GP_SI_WAVEFRONTS]);
    case GP_WQ_CONFLICTS:
        return in->defects & GP_SRC_BAD_WAVEFRONTS
                   ? NAN
                   : gp_where_per_launch(f, v[GP_SI_WAVEFRONTS] - v[GP_SI_WAVEFRONTS_IDEAL]);
    }
    return NAN;
}

/* Rows are made by sorting the instructions on their row: lines (file,
 * line) first, then instructions without a line (function, pc). */
typedef struct {
    int has_line, file;
    long line, pc;
    gp_where_ref ref;
} gp_where_key;

static int gp_where_key_cmp(const void *a, const void *b)
{
    const gp_where_key *x = a, *y = b;
    if (x->has_line != y->has_line)
        return y->has_line - x->has_line;
    if (x->has_line && x->file != y->file)
        return x->file < y->file ? -1 : 1;
    if (x->has_line && x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->ref.func != y->ref.func)
        return x->ref.func < y->ref.func ? -1 : 1;
    return (x->pc > y->pc) - (x->pc < y->pc);
}

static int gp_where_same_row(const gp_where_key *x, const gp_where_key *y)
{
    if (x->has_line != y->has_line)
        return 0;
    if (x->has_line)
        return x->file == y->file && x->line == y->line;
    return x->ref.func == y->ref.func && x->pc == y->pc;
}

/* Ranking: the chosen quantity, most first, NaN last; then source order. */
static int gp_where_rank_q;
static int gp_where_row_cmp(const void *a, const void *b)
{
    const gp_where_row *x = a, *y = b;
    double vx = x->q[gp_where_rank_q], vy = y->q[gp_where_rank_q];
    if (isnan(vx))
        vx = -1;
    if (isnan(vy))
        vy = -1;
    if (vx != vy)
        return vx < vy ? 1 : -1;
    return (x->first > y->first) - (x->first < y->first);
}

int gp_where_build(const gp_source *s, gp_where *w)
{
    gp_where_key *keys = NULL;
    size_t i, j, n = 0, r;
    for (i = 0; i < w->n_funcs; i++) {
        const gp_source_func *f = &s->funcs[w->funcs[i]];
        n += f->n_ins;
        w->sass_launches = gp_num_add_sat(w->sass_launches, f->sass_launches);
        w->sampled_launches = gp_num_add_sat(w->sampled_launches, f->sampled_launches);
        w->dropped = gp_num_add_sat(w->dropped, f->dropped);
        if (f->defects && !w->defects)
            snprintf(w->defect, sizeof w->defect, "%s", f->defect);
        w->defects += f->defects;
    }
    for (i = 0; i < GP_WQ_COUNT; i++)
        w->total[i] = NAN;
    w->n_stall = s->n_reasons;
    keys = malloc((n ? n : 1) * sizeof *keys);
    w->refs = malloc((n ? n : 1) * sizeof *w->refs);
    w->rows = malloc((n ? n : 1) * sizeof *w->rows);
    w->stall = calloc(w->n_stall ? w->n_stall : 1, sizeof *w->stall);
    if (!keys || !w->refs || !w->rows || !w->stall) {
        free(keys);
        gp_where_free(w);
        return -1;
    }
    n = 0;
    for (i = 0; i < w->n_funcs; i++) {
        const gp_source_func *f = &s->funcs[w->funcs[i]];
        for (j = 0; j < f->n_ins; j++) {
            const gp_source_instr *in = &f->ins[j];
            gp_where_key *k = &keys[n++];
            k->has_line = in->line > 0 && in->file >= 0;
            k->file = in->file;
            k->line = in->line;
            k->pc = in->pc;
            k->ref.func = w->funcs[i];
            k->ref.ins = j;
            w->lines |= k->has_line;
        }
    }
    if (n > 1)
        qsort(keys, n, sizeof *keys, gp_where_key_cmp);
    w->n_refs = n;
    for (i = 0; i < n; i++) {
        const gp_source_func *f = &s->funcs[keys[i].ref.func];
        const gp_source_instr *in = &f->ins[keys[i].ref.ins];
        gp_where_row *row;
        w->refs[i] = keys[i].ref;
        if (i == 0 || !gp_where_same_row(&keys[i - 1], &keys[i])) {
            row = &w->rows[w->n_rows++];
            row->file = keys[i].has_line ? keys[i].file : -1;
            row->line = keys[i].has_line ? keys[i].line : 0;
            row->first = i;
            row->n = 0;
            for (r = 0; r < GP_WQ_COUNT; r++)
                row->q[r] = NAN;
        }
        row = &w->rows[w->n_rows - 1];
        row->n++;
        for (r = 0; r < GP_WQ_COUNT; r++) {
            double x = gp_where_value(f, in, (int)r);
            if (isnan(x))
                continue;
            row->q[r] = isnan(row->q[r]) ? x : row->q[r] + x;
            w->total[r] = isnan(w->total[r]) ? x : w->total[r] + x;
        }
        for (r = 0; r < in->n_stall; r++)
            if ((size_t)in->stall[r].reason < w->n_stall)
                w->stall[in->stall[r].reason] += in->stall[r].all;
    }
    free(keys);
    w->by = w->total[GP_WQ_SAMPLES] > 0    ? GP_WHERE_BY_SAMPLES
            : !isnan(w->total[GP_WQ_INST]) ? GP_WHERE_BY_INST
                                           : GP_WHERE_BY_NONE;
    if (w->by != GP_WHERE_BY_NONE && w->n_rows > 1) {
        gp_where_rank_q = w->by == GP_WHERE_BY_SAMPLES ? GP_WQ_SAMPLES : GP_WQ_INST;
        qsort(w->rows, w->n_rows, sizeof *w->rows, gp_where_row_cmp);
    }
    return 0;
}

void gp_where_free(gp_where *w)
{
    free(w->funcs);
    free(w->refs);
    free(w->rows);
    free(w->stall);
    w->funcs = NULL;
    w->refs = NULL;
    w->rows = NULL;
    w->stall = NULL;
    w->n_funcs = w->n_refs = w->n_rows = w->n_stall = 0;
}

double gp_where_row_stall(const gp_source *s, const gp_where *w, const gp_where_row *row, int r)
{
    double sum = 0;
    size_t i, k;
    for (i = row->first; i < row->first + row->n; i++) {
        const gp_source_instr *in = &s->funcs[w->refs[i].func].ins[w->refs[i].ins];
        for (k = 0; k < in->n_stall; k++)
            if (in->stall[k].reason == r)
                sum += in->stall[k].all;
    }
    return sum;
}

size_t gp_where_top_reasons(const gp_source *s, const gp_where *w, const gp_where_row *row,
                            size_t n, int *out, double *v)
{
    double *acc;
    size_t i, k, got = 0;
    if (!w->n_stall || !n)
        return 0;
    if (!row) {
        acc = w->stall;
    } else {
        if (!(acc = calloc(w->n_stall, sizeof *acc)))
            return 0;
        for (i = row->first; i < row->first + row->n; i++) {
            const gp_source_instr *in = &s->funcs[w->refs[i].func].ins[w->refs[i].ins];
            for (k = 0; k < in->n_stall; k++)
                if ((size_t)in->stall[k].reason < w->n_stall)
                    acc[in->stall[k].reason] += in->stall[k].all;
        }
    }
    /* n is small (a few reasons): repeated selection */
    while (got < n) {
        int best = -1;
        for (i = 0; i < w->n_stall; i++) {
            int taken = 0;
            for (k = 0; k < got; k++)
                taken |= out[k] == (int)i;
            if (!taken && acc[i] > 0 && (best < 0 || acc[i] > acc[best]))
                best = (int)i;
        }
        if (best < 0)
            break;
        out[got] = best;
        v[got++] = acc[best];
    }
    if (row)
        free(acc);
    return got;
}

/* One instruction's part of `what`. */
static double gp_where_what_value(const gp_source_func *f, const gp_source_instr *in,
                                  gp_where_what what)
{
    double sum = 0;
    unsigned k;
    if (!what.reasons)
        return gp_where_value(f, in, what.q);
    for (k = 0; k < in->n_stall; k++)
        if (in->stall[k].reason < GP_STALL_KNOWN && (what.reasons >> in->stall[k].reason & 1))
            sum += in->stall[k].all;
    return sum;
}

void gp_where_attribute(const gp_source *s, const gp_where *w, gp_where_what what,
                        gp_where_top *out)
{
    size_t i, j;
    double best = 0, total = 0;
    memset(out, 0, sizeof *out);
    out->value = out->total = out->share = NAN;
    for (i = 0; i < w->n_rows; i++) {
        const gp_where_row *row = &w->rows[i];
        double sum = 0;
        int any = 0;
        for (j = row->first; j < row->first + row->n; j++) {
            const gp_source_func *f = &s->funcs[w->refs[j].func];
            double x = gp_where_what_value(f, &f->ins[w->refs[j].ins], what);
            if (!isnan(x)) {
                sum += x;
                any = 1;
            }
        }
        if (!any)
            continue;
        total += sum;
        if (sum > best) {
            best = sum;
            out->row = row;
        }
    }
    if (!out->row)
        return;
    out->value = best;
    out->total = total;
    out->share = 100 * best / total;
    best = -1;
    for (j = out->row->first; j < out->row->first + out->row->n; j++) {
        const gp_source_func *f = &s->funcs[w->refs[j].func];
        const gp_source_instr *in = &f->ins[w->refs[j].ins];
        double x = gp_where_what_value(f, in, what);
        if (!isnan(x) && x > best) {
            best = x;
            out->func = w->refs[j].func;
            out->pc = in->pc;
            out->ins = in;
        }
    }
}

const char *gp_where_opcode(const char *sass, char *buf, size_t len)
{
    const char *p = sass;
    size_t n = 0;
    if (!len)
        return buf;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '@') { /* the predicate guard */
        while (*p && *p != ' ' && *p != '\t')
            p++;
        while (*p == ' ' || *p == '\t')
            p++;
    }
    while (p[n] && p[n] != ' ' && p[n] != '\t' && p[n] != ';' && n + 1 < len)
        n++;
    memcpy(buf, p, n);
    buf[n] = 0;
    return buf;
}

const char *gp_where_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash && slash[1] ? slash + 1 : path;
}

/* Words for an access kind, where no SASS text names the instruction. */
static const char *gp_where_access_words(int access)
{
    static const char *const words[GP_ACCESS_COUNT] = {"",
                                                       "global load",
                                                       "global store",
                                                       "global atomic",
                                                       "global reduction",
                                                       "local access",
                                                       "shared load",
                                                       "shared store",
                                                       "shared atomic",
                                                       "LDSM",
                                                       "STSM",
                                                       "LDGSTS",
                                                       "TMA copy",
                                                       "GMMA",
                                                       "memory access"};
    return access > 0 && access < GP_ACCESS_COUNT ? words[access] : "";
}

/* src cut to at most max bytes at a character boundary (UTF-8 sequences
 * are not split), into buf. */
static void gp_where_cut(char *buf, size_t len, const char *src, size_t max)
{
    size_t n = strlen(src);
    if (max >= len)
        max = len - 1;
    if (n > max) {
        n = max;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(buf, src, n);
    buf[n] = 0;
}

void gp_where_describe(const gp_source *s, const gp_where *w, const gp_where_top *top,
                       const char *what, char *buf, size_t len)
{
    char op[48] = "", file[96];
    const char *sass;
    (void)w;
    buf[0] = 0;
    if (!top->row || !top->ins || !len)
        return;
    sass = gp_source_text_sass(&s->funcs[top->func], top->pc);
    if (sass)
        gp_where_opcode(sass, op, sizeof op);
    else
        snprintf(op, sizeof op, "%s", gp_where_access_words(top->ins->access));
    if (top->row->line > 0) {
        gp_where_cut(file, sizeof file, gp_where_basename(s->files[top->row->file].name), 80);
        if (op[0])
            snprintf(buf, len, "%.0f%% of %s at %s:%ld, %s at +0x%lx", top->share, what, file,
                     top->row->line, op, top->pc);
        else
            snprintf(buf, len, "%.0f%% of %s at %s:%ld (+0x%lx)", top->share, what, file,
                     top->row->line, top->pc);
    } else {
        snprintf(buf, len, "%.0f%% of %s at %s%s+0x%lx (no line information)", top->share, what, op,
                 op[0] ? " " : "", top->pc);
    }
}
