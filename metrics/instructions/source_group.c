/* source_group.c - see source_group.h. */
#include "metrics/instructions/source_group.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/instructions/source_instr.h"
#include "util/strindex.h"
#include "metrics/instructions/where.h"
#include "util/num.h"

static int gp_source_group_pc_cmp(const void *a, const void *b)
{
    const gp_source_instr *x = a, *y = b;
    return (x->pc > y->pc) - (x->pc < y->pc);
}

/* x + y where either may be absent (NaN): absent only when both are. */
static double gp_source_group_add(double x, double y)
{
    return isnan(x) ? y : isnan(y) ? x : x + y;
}

/* Adds instruction b into a (same pc). */
static int gp_source_group_merge_instr(gp_source_instr *a, const gp_source_instr *b)
{
    size_t i, k;
    for (i = 0; i < GP_SI_COUNT; i++)
        a->v[i] = gp_source_group_add(a->v[i], b->v[i]);
    a->defects |= b->defects;
    if (!a->line && b->line) {
        a->line = b->line;
        a->file = b->file;
    }
    if (!a->access)
        a->access = b->access;
    if (!a->access_bits)
        a->access_bits = b->access_bits;
    for (i = 0; i < b->n_stall; i++) {
        for (k = 0; k < a->n_stall && a->stall[k].reason != b->stall[i].reason; k++)
            ;
        if (k == a->n_stall) {
            gp_source_stall *ns = realloc(a->stall, (a->n_stall + 1) * sizeof *ns);
            if (!ns)
                return -1;
            a->stall = ns;
            a->stall[a->n_stall++] = (gp_source_stall){b->stall[i].reason, 0, 0};
        }
        a->stall[k].all += b->stall[i].all;
        a->stall[k].not_issued += b->stall[i].not_issued;
    }
    return 0;
}

/* The same function (module, symbol, device model) read from another
 * process: b's counts are added to a's, b is emptied. */
static void gp_source_group_merge(gp_source_func *a, gp_source_func *b)
{
    size_t i, n = a->n_ins;
    int appended = 0;
    for (i = 0; i < b->n_ins; i++) {
        /* a's own instructions are sorted; the appended ones come after */
        gp_source_instr *x = gp_source_find_in(a, n, b->ins[i].pc);
        if (x) {
            if (gp_source_group_merge_instr(x, &b->ins[i]) < 0)
                a->dropped++;
            free(b->ins[i].stall);
        } else if ((long)a->n_ins < GP_SOURCE_MAX_INSTR &&
                   gp_source_instr_append(a, &b->ins[i]) == 0) {
            appended = 1;
        } else {
            a->dropped++;
            free(b->ins[i].stall);
        }
    }
    b->n_ins = 0;
    if (appended)
        qsort(a->ins, a->n_ins, sizeof *a->ins, gp_source_group_pc_cmp);
    /* checked: records of many processes may not wrap a count */
    a->sass_launches = gp_num_add_sat(a->sass_launches, b->sass_launches);
    a->sampled_launches = gp_num_add_sat(a->sampled_launches, b->sampled_launches);
    a->samples = gp_source_group_add(a->samples, b->samples);
    a->samples_not_issued = gp_source_group_add(a->samples_not_issued, b->samples_not_issued);
    a->dropped += b->dropped;
    a->processes += b->processes;
    b->processes = 0; /* merged away: in no kernel group */
    a->lineinfo |= b->lineinfo;
    if (!a->code && b->code) {
        a->code = b->code;
        b->code = NULL;
        a->code_bytes = b->code_bytes;
    }
    a->defects = 0;
    for (i = 0; i < a->n_ins; i++)
        a->defects += a->ins[i].defects != 0;
    if (!a->defect[0])
        memcpy(a->defect, b->defect, sizeof a->defect);
}

/* The key of a kernel group: ordinal, model, demangled name. */
static char *gp_source_group_gkey(const char *kernel, int ordinal, int model, size_t *len)
{
    size_t n = strlen(kernel);
    char *k = malloc(2 * sizeof(int) + n + 1);
    if (!k)
        return NULL;
    memcpy(k, &ordinal, sizeof ordinal);
    memcpy(k + sizeof ordinal, &model, sizeof model);
    memcpy(k + 2 * sizeof(int), kernel, n);
    *len = 2 * sizeof(int) + n;
    return k;
}

/* The key of a function across processes: the group's, then module and symbol. */
static char *gp_source_group_mkey(const gp_source_func *f, size_t *len)
{
    size_t lk = strlen(f->kernel), lm = strlen(f->module), ln = strlen(f->mangled);
    char *k = malloc(2 * sizeof(int) + lk + lm + ln + 2);
    if (!k)
        return NULL;
    memcpy(k, &f->ordinal, sizeof(int));
    memcpy(k + sizeof(int), &f->model, sizeof(int));
    memcpy(k + 2 * sizeof(int), f->kernel, lk + 1);
    memcpy(k + 2 * sizeof(int) + lk + 1, f->module, lm + 1);
    memcpy(k + 2 * sizeof(int) + lk + lm + 2, f->mangled, ln);
    *len = 2 * sizeof(int) + lk + lm + ln + 2;
    return k;
}

void gp_source_group_finish(gp_source *s)
{
    struct gp_strindex *same = NULL;
    size_t i, *group = NULL;
    if (!s || s->kernels)
        return;
    for (i = 0; i < s->n_funcs; i++) {
        gp_source_func *f = &s->funcs[i];
        gp_strindex_free(&f->pcs); /* reading is over */
        if (!f->sorted)
            qsort(f->ins, f->n_ins, sizeof *f->ins, gp_source_group_pc_cmp);
        f->sorted = 1;
    }
    /* one function read from several processes is summed into the first */
    for (i = 0; i < s->n_funcs; i++) {
        size_t len;
        char *k = gp_source_group_mkey(&s->funcs[i], &len);
        long at = k ? gp_strindex_find(same, k, len) : -1;
        if (at >= 0)
            gp_source_group_merge(&s->funcs[at], &s->funcs[i]);
        else if (k)
            gp_strindex_add(&same, k, len, i);
        free(k);
    }
    gp_strindex_free(&same);
    /* groups per kernel, in order of first appearance */
    group = malloc((s->n_funcs ? s->n_funcs : 1) * sizeof *group);
    s->kernels = calloc(s->n_funcs ? s->n_funcs : 1, sizeof *s->kernels);
    if (!group || !s->kernels)
        goto out;
    for (i = 0; i < s->n_funcs; i++) {
        gp_source_func *f = &s->funcs[i];
        size_t len;
        char *k;
        long at;
        group[i] = (size_t)-1;
        if (f->processes == 0)
            continue;
        if (!(k = gp_source_group_gkey(f->kernel, f->ordinal, f->model, &len)))
            continue;
        if ((at = gp_strindex_find(s->kernel_index, k, len)) < 0 &&
            gp_strindex_add(&s->kernel_index, k, len, s->n_kernels) == 0) {
            gp_where *w = &s->kernels[s->n_kernels++];
            w->kernel = f->kernel;
            w->ordinal = f->ordinal;
            w->model = f->model;
            at = (long)(s->n_kernels - 1);
        }
        free(k);
        if (at >= 0)
            group[i] = (size_t)at;
    }
    for (i = 0; i < s->n_funcs; i++) {
        gp_where *w;
        size_t *nf;
        if (group[i] == (size_t)-1)
            continue;
        w = &s->kernels[group[i]];
        if (!(nf = realloc(w->funcs, (w->n_funcs + 1) * sizeof *nf)))
            continue;
        w->funcs = nf;
        w->funcs[w->n_funcs++] = i;
    }
    for (i = 0; i < s->n_kernels; i++)
        gp_where_build(s, &s->kernels[i]);
out:
    free(group);
}

struct gp_where *gp_source_group_kernel(gp_source *s, const char *kernel, int ordinal, int model)
{
    size_t len;
    char *k;
    long at;
    if (!s || !s->kernels || !(k = gp_source_group_gkey(kernel, ordinal, model, &len)))
        return NULL;
    at = gp_strindex_find(s->kernel_index, k, len);
    free(k);
    if (at < 0)
        return NULL;
    s->kernels[at].shown = 1;
    return &s->kernels[at];
}

size_t gp_source_group_unmatched(const gp_source *s)
{
    size_t i, n = 0;
    for (i = 0; s && i < s->n_kernels; i++)
        n += !s->kernels[i].shown;
    return n;
}
