/* source.c - see source.h: the tables, names and lookups of the instruction-level
 * model (source_read.c reads the records into it). */
#include "metrics/instructions/source.h"

#include <math.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/strindex.h"

const gp_stall_def gp_stall_defs[GP_STALL_KNOWN] = {
#define GP_STALL(id, sampled, counter, ncu, ncu_ni, desc) {sampled, counter, ncu, ncu_ni, desc},
#include "metrics/instructions/stall_reasons.def"
#undef GP_STALL
};

const gp_si_def gp_si_defs[GP_SI_COUNT] = {
#define GP_SI_FIELD(key, id, from, desc) {key, desc, GP_SI_FROM_##from},
#include "metrics/instructions/source_fields.def"
#undef GP_SI_FIELD
};

static const char *const gp_source_access_names[GP_ACCESS_COUNT] = {
    "",      "global_ld", "global_st", "global_atom", "global_red",
    "local", "shared_ld", "shared_st", "shared_atom", "ldsm",
    "stsm",  "ldgsts",    "tma",       "gmma",        "other"};

const char *gp_source_access_name(int access)
{
    return access >= 0 && access < GP_ACCESS_COUNT ? gp_source_access_names[access] : "";
}

char *gp_source_dup(const char *s)
{
    size_t n;
    char *d;
    if (!s)
        return NULL;
    n = strlen(s) + 1;
    if ((d = malloc(n)))
        memcpy(d, s, n);
    return d;
}

int gp_source_is_record(const char *type)
{
    return strcmp(type, "source_function") == 0 || strcmp(type, "source_instr") == 0;
}

/* The key of a function within one process: input, epoch, ordinal, module,
 * mangled name, separated by NULs (names hold none). */
char *gp_source_fkey(size_t input, long epoch, long ordinal, const char *module,
                     const char *mangled, size_t *len)
{
    size_t lm = strlen(module), ln = strlen(mangled);
    size_t n = 3 * sizeof(long) + lm + 1 + ln;
    char *k = malloc(n);
    long head[3] = {(long)input, epoch, ordinal};
    if (!k)
        return NULL;
    memcpy(k, head, sizeof head);
    memcpy(k + sizeof head, module, lm + 1);
    memcpy(k + sizeof head + lm + 1, mangled, ln);
    *len = n;
    return k;
}

long gp_source_function_at(const gp_source *s, long ordinal, const char *module,
                           const char *mangled)
{
    size_t len;
    char *k;
    long at;
    if (s->cur_func >= 0) { /* the instructions of a function follow it directly */
        const gp_source_func *f = &s->funcs[s->cur_func];
        if (f->ordinal == ordinal && strcmp(f->module, module) == 0 &&
            strcmp(f->mangled, mangled) == 0)
            return s->cur_func;
    }
    if (!(k = gp_source_fkey(s->cur_input, s->cur_epoch, ordinal, module, mangled, &len)))
        return -1;
    at = gp_strindex_find(s->func_index, k, len);
    free(k);
    return at;
}

long gp_source_walk_next(const gp_source_func *f, gp_source_walk *w)
{
    /* slots of the code the record holds (the SASS text, when there is
     * some, is of that code: never more slots) */
    long slots = f->code && f->code_bytes > 0 ? f->code_bytes / 16 : 0;
    long rec = LONG_MAX, slot = LONG_MAX, pc;
    while (w->ins < f->n_ins && f->ins[w->ins].pc < w->from)
        w->ins++;
    if (w->ins < f->n_ins)
        rec = f->ins[w->ins].pc;
    if (w->from <= 16 * (slots - 1))
        slot = (w->from + 15) / 16 * 16;
    pc = rec < slot ? rec : slot;
    if (pc == LONG_MAX)
        return -1;
    w->from = pc + 1;
    return pc;
}

/* The instruction at pc among the sorted ins[0..n). */
gp_source_instr *gp_source_find_in(gp_source_func *f, size_t n, long pc)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->ins[mid].pc < pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && f->ins[lo].pc == pc ? &f->ins[lo] : NULL;
}

gp_source_instr *gp_source_find(gp_source_func *f, long pc)
{
    return gp_source_find_in(f, f->n_ins, pc);
}
