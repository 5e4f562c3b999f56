/* source.c - see source.h. */
#include "source.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strindex.h"
#include "util/textio.h"
#include "where.h"

const gp_stall_def gp_stall_defs[GP_STALL_KNOWN] = {
#define GP_STALL(id, sampled, counter, ncu, ncu_ni, desc) {sampled, counter, ncu, ncu_ni, desc},
#include "stall_reasons.def"
#undef GP_STALL
};

const gp_si_def gp_si_defs[GP_SI_COUNT] = {
#define GP_SI_FIELD(key, id, from, desc) {key, desc, GP_SI_FROM_##from},
#include "source_fields.def"
#undef GP_SI_FIELD
};

static const char *const gp_source_access_names[GP_ACCESS_COUNT] = {
    "",      "global_ld", "global_st", "global_atom", "global_red",
    "local", "shared_ld", "shared_st", "shared_atom", "ldsm",
    "stsm",  "ldgsts",    "tma",       "gmma",        "other"};

/* a count is exact in a double up to 2^53 */
#define GP_SOURCE_MAX_COUNT 9007199254740992.0

const char *gp_source_access_name(int access)
{
    return access >= 0 && access < GP_ACCESS_COUNT ? gp_source_access_names[access] : "";
}

static char *gp_source_strdup(const char *s)
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

static gp_source *gp_source_new(void)
{
    gp_source *s = calloc(1, sizeof *s);
    size_t i;
    if (!s)
        return NULL;
    s->cur_func = -1;
    /* one slot more: "(other reasons)" once the table is full */
    s->reasons = calloc(GP_SOURCE_MAX_REASONS + 1, sizeof *s->reasons);
    if (!s->reasons)
        goto fail;
    /* the known reasons keep their gp_stall_id as index */
    for (i = 0; i < GP_STALL_KNOWN; i++) {
        const char *n =
            gp_stall_defs[i].sampled ? gp_stall_defs[i].sampled : gp_stall_defs[i].counter;
        if (!(s->reasons[i] = gp_source_strdup(n)) ||
            gp_strindex_add(&s->reason_index, n, strlen(n), i) < 0)
            goto fail;
        s->n_reasons++;
    }
    return s;
fail:
    gp_source_free(&s);
    return NULL;
}

int gp_source_is_record(const char *type)
{
    return strcmp(type, "source_function") == 0 || strcmp(type, "source_instr") == 0;
}

/* A string field: NULL when absent; -1 (with the reason) when present but
 * not a string, empty when it must not be, or longer than max. */
static int gp_source_str(const gp_json *obj, const char *key, int required, size_t max,
                         const char **out, const char *what, char *err, size_t errlen)
{
    const gp_json *v = gp_json_get(obj, key);
    *out = NULL;
    if (!v || v->type == GP_JSON_NULL) {
        if (required)
            snprintf(err, errlen, "%s without a \"%s\" string", what, key);
        return required ? -1 : 0;
    }
    if (v->type != GP_JSON_STRING || (required && !v->str[0])) {
        snprintf(err, errlen, "%s: \"%s\" is not a%s string", what, key,
                 required ? " non-empty" : "");
        return -1;
    }
    if (strlen(v->str) > max) {
        snprintf(err, errlen, "%s: \"%s\" is longer than %zu bytes", what, key, max);
        return -1;
    }
    *out = v->str;
    return 0;
}

/* A whole number within [lo, hi]; absent or null: dflt. */
static int gp_source_int(const gp_json *obj, const char *key, double lo, double hi, long dflt,
                         long *out, const char *what, char *err, size_t errlen)
{
    const gp_json *v = gp_json_get(obj, key);
    double x;
    if (!v || v->type == GP_JSON_NULL) {
        *out = dflt;
        return 0;
    }
    x = gp_json_number(v);
    if (v->type != GP_JSON_NUMBER || isnan(x) || x < lo || x > hi || x != floor(x)) {
        if (v->type == GP_JSON_NUMBER && x < 0 && lo >= 0)
            snprintf(err, errlen, "%s: \"%s\" is negative (%.15g)", what, key, x);
        else if (v->type == GP_JSON_NUMBER)
            snprintf(err, errlen, "%s: \"%s\" is %.15g, not a whole number within %.0f..%.0f", what,
                     key, x, lo, hi);
        else
            snprintf(err, errlen, "%s: \"%s\" is not a number", what, key);
        return -1;
    }
    *out = (long)x;
    return 0;
}

/* A count: absent or null is NaN; otherwise a number within 0..2^53. */
static int gp_source_count(const gp_json *v, double *out, const char *what, const char *key,
                           char *err, size_t errlen)
{
    double x;
    *out = NAN;
    if (!v || v->type == GP_JSON_NULL)
        return 0;
    x = gp_json_number(v);
    if (v->type != GP_JSON_NUMBER || isnan(x) || x < 0 || x > GP_SOURCE_MAX_COUNT) {
        if (v->type != GP_JSON_NUMBER)
            snprintf(err, errlen, "%s: \"%s\" is not a number", what, key);
        else
            snprintf(err, errlen, "%s: \"%s\" is %.15g, not a count (0 to 2^53)", what, key, x);
        return -1;
    }
    *out = x;
    return 0;
}

/* The key of a function within one process: input, epoch, ordinal, module,
 * mangled name, separated by NULs (names hold none). */
static char *gp_source_fkey(size_t input, long epoch, long ordinal, const char *module,
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

static long gp_source_find_func(const gp_source *s, long ordinal, const char *module,
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

/* Hex digits to bytes: 0, or -1 when not hex of an even length. */
static int gp_source_unhex(const char *hex, size_t n, unsigned char *out)
{
    size_t i;
    for (i = 0; i < n; i++) {
        int hi = hex[2 * i], lo = hex[2 * i + 1], h, l;
        h = hi >= '0' && hi <= '9'   ? hi - '0'
            : hi >= 'a' && hi <= 'f' ? hi - 'a' + 10
            : hi >= 'A' && hi <= 'F' ? hi - 'A' + 10
                                     : -1;
        l = lo >= '0' && lo <= '9'   ? lo - '0'
            : lo >= 'a' && lo <= 'f' ? lo - 'a' + 10
            : lo >= 'A' && lo <= 'F' ? lo - 'A' + 10
                                     : -1;
        if (h < 0 || l < 0)
            return -1;
        out[i] = (unsigned char)(h << 4 | l);
    }
    return 0;
}

static void gp_source_func_free(gp_source_func *f)
{
    size_t i;
    free(f->kernel);
    free(f->mangled);
    free(f->module);
    free(f->code);
    free(f->code_why);
    free(f->lineinfo_why);
    for (i = 0; i < f->n_ins; i++)
        free(f->ins[i].stall);
    free(f->ins);
    gp_strindex_free(&f->pcs);
    for (long j = 0; f->sass && j < f->n_sass; j++)
        free(f->sass[j]);
    free(f->sass);
    free(f->sass_why);
}

static int gp_source_function(gp_source *s, const gp_json *obj, const gp_source_origin *from,
                              char *err, size_t errlen)
{
    const char *kernel, *mangled, *module, *code_why, *li_why;
    const gp_json *code, *li;
    long ordinal, v;
    gp_source_func f;
    char what[160], name[100], esc[100], *key = NULL;
    size_t klen;
    int rc = -1;
    memset(&f, 0, sizeof f);
    if (gp_source_str(obj, "kernel", 1, GP_SOURCE_MAX_NAME, &kernel, "source_function", err,
                      errlen) < 0)
        return -1;
    /* messages name the function, escaped and cut: the full name is in the input */
    snprintf(what, sizeof what, "source_function of %s",
             gp_text_plain_buf(name, sizeof name, kernel));
    if (gp_source_str(obj, "mangled", 1, GP_SOURCE_MAX_NAME, &mangled, what, err, errlen) < 0 ||
        gp_source_str(obj, "module", 1, 64, &module, what, err, errlen) < 0 ||
        gp_source_int(obj, "device", 0, 65535, -1, &ordinal, what, err, errlen) < 0 ||
        gp_source_str(obj, "code_why", 0, GP_SOURCE_MAX_NAME, &code_why, what, err, errlen) < 0 ||
        gp_source_str(obj, "lineinfo_why", 0, GP_SOURCE_MAX_NAME, &li_why, what, err, errlen) < 0)
        return -1;
    if (ordinal < 0) {
        snprintf(err, errlen, "%s without a \"device\" number", what);
        return -1;
    }
    f.ordinal = (int)ordinal;
    f.model = from->model;
    f.cc_major = from->cc_major;
    f.cc_minor = from->cc_minor;
    f.input = from->input;
    f.epoch = s->cur_epoch;
    f.processes = 1;
    f.sorted = 1;
    if (gp_source_int(obj, "code_bytes", 0, 1L << 40, 0, &f.code_bytes, what, err, errlen) < 0 ||
        gp_source_int(obj, "sass_launches", 0, 1e15, 0, &f.sass_launches, what, err, errlen) < 0 ||
        gp_source_int(obj, "sampled_launches", 0, 1e15, 0, &f.sampled_launches, what, err, errlen) <
            0 ||
        gp_source_int(obj, "instructions", 0, 1e15, 0, &f.instructions, what, err, errlen) < 0 ||
        gp_source_count(gp_json_get(obj, "samples"), &f.samples, what, "samples", err, errlen) <
            0 ||
        gp_source_count(gp_json_get(obj, "samples_not_issued"), &f.samples_not_issued, what,
                        "samples_not_issued", err, errlen) < 0)
        return -1;
    li = gp_json_get(obj, "lineinfo");
    if (li && li->type != GP_JSON_BOOL && li->type != GP_JSON_NULL) {
        snprintf(err, errlen, "%s: \"lineinfo\" is not true or false", what);
        return -1;
    }
    f.lineinfo = li && li->type == GP_JSON_BOOL && li->num != 0;
    code = gp_json_get(obj, "code");
    if (code && code->type != GP_JSON_NULL && code->type != GP_JSON_STRING) {
        snprintf(err, errlen, "%s: \"code\" is not a string of hex digits", what);
        return -1;
    }
    if (code && code->type == GP_JSON_STRING) {
        size_t n = strlen(code->str);
        if (n % 2 || (f.code_bytes && (long)(n / 2) != f.code_bytes)) {
            snprintf(err, errlen,
                     "%s: \"code\" holds %zu hex digits, \"code_bytes\" says %ld "
                     "bytes",
                     what, n, f.code_bytes);
            return -1;
        }
        if (!f.code_bytes)
            f.code_bytes = (long)(n / 2);
        if (n / 2 > (size_t)GP_SOURCE_MAX_CODE) {
            char why[96];
            snprintf(why, sizeof why,
                     "the code (%zu bytes) is over the report's limit of %ld "
                     "bytes",
                     n / 2, GP_SOURCE_MAX_CODE);
            f.code_why = gp_source_strdup(why);
        } else if (n) {
            if (!(f.code = malloc(n / 2)))
                goto oom;
            if (gp_source_unhex(code->str, n / 2, f.code) < 0) {
                snprintf(err, errlen, "%s: \"code\" is not a string of hex digits", what);
                goto out;
            }
        }
    }
    if (!f.code && !f.code_why)
        f.code_why = gp_source_strdup(code_why ? code_why : "the record has no machine code");
    if (!f.lineinfo)
        f.lineinfo_why = gp_source_strdup(li_why ? li_why : "no line information");
    if (!(f.kernel = gp_source_strdup(kernel)) || !(f.mangled = gp_source_strdup(mangled)) ||
        !(f.module = gp_source_strdup(module)) || (!f.code && !f.code_why) ||
        (!f.lineinfo && !f.lineinfo_why))
        goto oom;
    if (!(key = gp_source_fkey(s->cur_input, s->cur_epoch, ordinal, module, mangled, &klen)))
        goto oom;
    if ((v = gp_strindex_find(s->func_index, key, klen)) >= 0) {
        snprintf(err, errlen,
                 "duplicate %s (module %s, device %ld) in one process: the first "
                 "is kept",
                 what, gp_text_plain_buf(esc, sizeof esc, module), ordinal);
        goto out;
    }
    if (s->n_funcs == s->cap_funcs) {
        size_t nc = s->cap_funcs ? 2 * s->cap_funcs : 16;
        gp_source_func *nf = realloc(s->funcs, nc * sizeof *nf);
        if (!nf)
            goto oom;
        s->funcs = nf;
        s->cap_funcs = nc;
    }
    if (gp_strindex_add(&s->func_index, key, klen, s->n_funcs) < 0)
        goto oom;
    s->cur_func = (long)s->n_funcs;
    s->funcs[s->n_funcs++] = f;
    memset(&f, 0, sizeof f);
    rc = 0;
    goto out;
oom:
    snprintf(err, errlen, "out of memory");
out:
    free(key);
    gp_source_func_free(&f);
    return rc;
}

/* Interns name in the table names[0..*n) through ix: its index, or -1 when
 * the table is full (max) or memory ran out. */
static long gp_source_intern(char ***names, size_t *n, size_t max, struct gp_strindex **ix,
                             const char *name)
{
    size_t len = strlen(name);
    long at = gp_strindex_find(*ix, name, len);
    char *copy;
    if (at >= 0)
        return at;
    if (*n >= max || !(copy = gp_source_strdup(name)))
        return -1;
    if (gp_strindex_add(ix, name, len, *n) < 0) {
        free(copy);
        return -1;
    }
    (*names)[*n] = copy;
    return (long)(*n)++;
}

static long gp_source_file_id(gp_source *s, const char *name)
{
    long at = gp_strindex_find(s->file_index, name, strlen(name));
    char *copy;
    if (at >= 0)
        return at;
    if (s->n_files >= GP_SOURCE_MAX_FILES)
        return -1;
    if (!s->n_files) {
        s->files = calloc(GP_SOURCE_MAX_FILES, sizeof *s->files);
        if (!s->files)
            return -1;
    }
    if (!(copy = gp_source_strdup(name)))
        return -1;
    if (gp_strindex_add(&s->file_index, name, strlen(name), s->n_files) < 0) {
        free(copy);
        return -1;
    }
    s->files[s->n_files].name = copy;
    return (long)s->n_files++;
}

/* The "stall" and "stall_not_issued" objects into in->stall. */
static int gp_source_stalls(gp_source *s, const gp_json *obj, gp_source_instr *in, const char *what,
                            char *err, size_t errlen)
{
    const gp_json *all = gp_json_get(obj, "stall"), *ni = gp_json_get(obj, "stall_not_issued");
    size_t i, j, n = 0;
    for (j = 0; j < 2; j++) {
        const gp_json *o = j ? ni : all;
        if (o && o->type != GP_JSON_OBJECT && o->type != GP_JSON_NULL) {
            snprintf(err, errlen, "%s: \"%s\" is not an object of reasons", what,
                     j ? "stall_not_issued" : "stall");
            return -1;
        }
        if (o && o->type == GP_JSON_OBJECT)
            n += o->n;
    }
    if (!n)
        return 0;
    if (!(in->stall = calloc(n, sizeof *in->stall))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (j = 0; j < 2; j++) {
        const gp_json *o = j ? ni : all;
        for (i = 0; o && o->type == GP_JSON_OBJECT && i < o->n; i++) {
            double x;
            long r;
            unsigned k;
            char esc[100]; /* the reason as messages show it */
            gp_text_plain_buf(esc, sizeof esc, o->keys[i]);
            if (gp_source_count(&o->items[i], &x, what, esc, err, errlen) < 0)
                return -1;
            if (isnan(x) || !o->keys[i][0] || strlen(o->keys[i]) > 64) {
                snprintf(err, errlen, "%s: stall reason \"%s\" is %s", what, esc,
                         isnan(x) ? "null" : "not a reason name of 1 to 64 bytes");
                return -1;
            }
            r = gp_source_intern(&s->reasons, &s->n_reasons, GP_SOURCE_MAX_REASONS,
                                 &s->reason_index, o->keys[i]);
            if (r < 0) { /* a full table: one bucket, said in the report */
                r = gp_source_intern(&s->reasons, &s->n_reasons, GP_SOURCE_MAX_REASONS + 1,
                                     &s->reason_index, "(other reasons)");
                if (r < 0) {
                    snprintf(err, errlen, "out of memory");
                    return -1;
                }
                s->reasons_dropped++;
            }
            for (k = 0; k < in->n_stall && in->stall[k].reason != (int)r; k++)
                ;
            if (k == in->n_stall) {
                in->stall[k].reason = (int)r;
                in->n_stall++;
            }
            if (j)
                in->stall[k].not_issued += x;
            else
                in->stall[k].all += x;
        }
    }
    return 0;
}

/* The invariants of one instruction's counts: a defect is described into
 * f's first message and flagged, never fatal. */
static void gp_source_check(gp_source_instr *in, char *msg, size_t len)
{
    const double *v = in->v;
    double sum = 0;
    unsigned k;
    msg[0] = 0;
    if (v[GP_SI_SECTORS_IDEAL] > v[GP_SI_SECTORS]) {
        in->defects |= GP_SRC_BAD_SECTORS;
        snprintf(msg, len, "pc +0x%lx: sectors_global_ideal %.15g > sectors_global %.15g", in->pc,
                 v[GP_SI_SECTORS_IDEAL], v[GP_SI_SECTORS]);
    }
    if (v[GP_SI_WAVEFRONTS_IDEAL] > v[GP_SI_WAVEFRONTS]) {
        in->defects |= GP_SRC_BAD_WAVEFRONTS;
        snprintf(msg, len, "pc +0x%lx: wavefronts_shared_ideal %.15g > wavefronts_shared %.15g",
                 in->pc, v[GP_SI_WAVEFRONTS_IDEAL], v[GP_SI_WAVEFRONTS]);
    }
    if (v[GP_SI_PRED_ON] > v[GP_SI_THREAD] || v[GP_SI_THREAD] > 32 * v[GP_SI_INST] ||
        v[GP_SI_PRED_ON] > 32 * v[GP_SI_INST]) {
        in->defects |= GP_SRC_BAD_THREADS;
        snprintf(msg, len,
                 "pc +0x%lx: thread_inst_executed_pred_on %.15g, thread_inst_executed %.15g, "
                 "inst_executed %.15g (at most 32 threads each, pred-on among them)",
                 in->pc, v[GP_SI_PRED_ON], v[GP_SI_THREAD], v[GP_SI_INST]);
    }
    for (k = 0; k < in->n_stall; k++) {
        sum += in->stall[k].all;
        if (in->stall[k].not_issued > in->stall[k].all && !(in->defects & GP_SRC_BAD_SAMPLES)) {
            in->defects |= GP_SRC_BAD_SAMPLES;
            snprintf(msg, len,
                     "pc +0x%lx: a reason's not-issued samples (%.15g) above its "
                     "samples (%.15g)",
                     in->pc, in->stall[k].not_issued, in->stall[k].all);
        }
    }
    if (v[GP_SI_SAMPLES_NOT_ISSUED] > v[GP_SI_SAMPLES] ||
        (in->n_stall && !isnan(v[GP_SI_SAMPLES]) && sum != v[GP_SI_SAMPLES])) {
        in->defects |= GP_SRC_BAD_SAMPLES;
        snprintf(msg, len,
                 "pc +0x%lx: samples %.15g, not issued %.15g, reasons adding up to "
                 "%.15g",
                 in->pc, v[GP_SI_SAMPLES], v[GP_SI_SAMPLES_NOT_ISSUED], sum);
    }
}

static int gp_source_access(const char *name)
{
    int i;
    for (i = 1; i < GP_ACCESS_OTHER; i++)
        if (strcmp(name, gp_source_access_names[i]) == 0)
            return i;
    return GP_ACCESS_OTHER;
}

/* Adds in to f (which takes over its stall list). */
static int gp_source_append(gp_source_func *f, gp_source_instr *in)
{
    if (f->n_ins == f->cap_ins) {
        size_t nc = f->cap_ins ? 2 * f->cap_ins : 64;
        gp_source_instr *ni = realloc(f->ins, nc * sizeof *ni);
        if (!ni)
            return -1;
        f->ins = ni;
        f->cap_ins = nc;
    }
    if (f->n_ins && in->pc <= f->ins[f->n_ins - 1].pc)
        f->sorted = 0;
    f->ins[f->n_ins++] = *in;
    return 0;
}

/* 1 when f already has an instruction at pc.  In order, a look at the last
 * one answers; out of order, an index of every pc (made once) does. */
static int gp_source_seen(gp_source_func *f, long pc, int *oom)
{
    size_t i;
    *oom = 0;
    if (f->n_ins && pc > f->ins[f->n_ins - 1].pc && !f->pcs)
        return 0;
    if (!f->pcs)
        for (i = 0; i < f->n_ins; i++)
            if (gp_strindex_add(&f->pcs, &f->ins[i].pc, sizeof(long), i) < 0)
                goto oom;
    if (gp_strindex_find(f->pcs, &pc, sizeof pc) >= 0)
        return 1;
    if (gp_strindex_add(&f->pcs, &pc, sizeof pc, f->n_ins) < 0)
        goto oom;
    return 0;
oom:
    *oom = 1;
    gp_strindex_free(&f->pcs);
    return 0;
}

static int gp_source_instruction(gp_source *s, const gp_json *obj, char *err, size_t errlen)
{
    const char *mangled, *module, *file, *access;
    long ordinal, pc, line, bits, at;
    gp_source_instr in;
    gp_source_func *f;
    char what[200], defect[320];
    size_t i;
    int oom;
    memset(&in, 0, sizeof in);
    if (gp_source_str(obj, "mangled", 1, GP_SOURCE_MAX_NAME, &mangled, "source_instr", err,
                      errlen) < 0 ||
        gp_source_str(obj, "module", 1, 64, &module, "source_instr", err, errlen) < 0 ||
        gp_source_int(obj, "device", 0, 65535, -1, &ordinal, "source_instr", err, errlen) < 0 ||
        gp_source_int(obj, "pc", 0, 1L << 40, -1, &pc, "source_instr", err, errlen) < 0)
        return -1;
    if (ordinal < 0 || pc < 0) {
        snprintf(err, errlen, "source_instr without a \"%s\" number",
                 ordinal < 0 ? "device" : "pc");
        return -1;
    }
    at = gp_source_find_func(s, ordinal, module, mangled);
    if (at < 0) {
        char n1[100], n2[60];
        s->orphans++;
        snprintf(err, errlen,
                 "source_instr of %s (module %s) at pc 0x%lx without its "
                 "source_function record before it",
                 gp_text_plain_buf(n1, sizeof n1, mangled),
                 gp_text_plain_buf(n2, sizeof n2, module), pc);
        return -1;
    }
    f = &s->funcs[at];
    s->cur_func = at;
    snprintf(what, sizeof what, "source_instr of %s at pc 0x%lx",
             gp_text_plain_buf(defect, 100, f->kernel), pc);
    if (f->code_bytes && pc >= f->code_bytes) {
        snprintf(err, errlen, "%s: beyond the function's %ld bytes of code", what, f->code_bytes);
        return -1;
    }
    if (gp_source_str(obj, "file", 0, GP_SOURCE_MAX_NAME, &file, what, err, errlen) < 0 ||
        gp_source_int(obj, "line", 1, 2147483647.0, 0, &line, what, err, errlen) < 0 ||
        gp_source_str(obj, "access", 0, 32, &access, what, err, errlen) < 0 ||
        gp_source_int(obj, "access_bits", 1, 1024, 0, &bits, what, err, errlen) < 0)
        return -1;
    if (!file != !line) {
        snprintf(err, errlen, "%s: \"%s\" without \"%s\"", what, file ? "file" : "line",
                 file ? "line" : "file");
        return -1;
    }
    for (i = 0; i < GP_SI_COUNT; i++)
        if (gp_source_count(gp_json_get(obj, gp_si_defs[i].key), &in.v[i], what, gp_si_defs[i].key,
                            err, errlen) < 0)
            return -1;
    if (gp_source_seen(f, pc, &oom)) {
        snprintf(err, errlen, "duplicate %s: the first is kept", what);
        return -1;
    }
    if (oom)
        goto oom;
    /* bounded: what is beyond is counted, and the report says so */
    if ((long)f->n_ins >= GP_SOURCE_MAX_INSTR) {
        f->dropped++;
        return 0;
    }
    if (s->file_records >= GP_SOURCE_MAX_FILE_INSTR) {
        f->dropped++;
        s->input_dropped++;
        return 0;
    }
    in.pc = pc;
    in.line = line;
    in.file = -1;
    in.access = access ? gp_source_access(access) : GP_ACCESS_NONE;
    in.access_bits = (int)bits;
    if (file && (in.file = (int)gp_source_file_id(s, file)) < 0) {
        s->files_dropped++; /* the table is full: the instruction keeps no line */
        in.line = 0;
    }
    if (gp_source_stalls(s, obj, &in, what, err, errlen) < 0) {
        free(in.stall);
        return -1;
    }
    gp_source_check(&in, defect, sizeof defect);
    if (gp_source_append(f, &in) < 0) {
        free(in.stall);
        goto oom;
    }
    if (in.defects && !f->defects++)
        snprintf(f->defect, sizeof f->defect, "%s", defect);
    s->file_records++;
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

/* A new input is a new process (and its own record budget). */
static void gp_source_input(gp_source *s, size_t input)
{
    if (s->started && s->cur_input == input)
        return;
    s->started = 1;
    s->cur_input = input;
    s->cur_epoch = 0;
    s->file_records = 0;
    s->cur_func = -1;
}

int gp_source_load(gp_source **sp, const char *type, const gp_json *obj,
                   const gp_source_origin *from, char *err, size_t errlen)
{
    gp_source *s = *sp;
    if (!s && !(s = *sp = gp_source_new())) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    gp_source_input(s, from->input);
    if (strcmp(type, "source_function") == 0)
        return gp_source_function(s, obj, from, err, errlen);
    return gp_source_instruction(s, obj, err, errlen);
}

/* Sums a number of the sampling object into *acc (absent: nothing). */
static int gp_source_run_num(const gp_json *o, const char *key, double *acc, char *err,
                             size_t errlen)
{
    double x;
    if (gp_source_count(gp_json_get(o, key), &x, "summary: sampling", key, err, errlen) < 0)
        return -1;
    if (!isnan(x))
        *acc += x;
    return 0;
}

int gp_source_summary(gp_source **sp, const gp_json *obj, size_t input, char *err, size_t errlen)
{
    const gp_json *smp = gp_json_get(obj, "sampling"), *res = gp_json_get(obj, "results");
    gp_source *s = *sp;
    gp_source_run *run;
    if (!smp && !res && !s)
        return 0; /* an older library's summary: nothing to keep */
    if (!s && !(s = *sp = gp_source_new())) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    gp_source_input(s, input);
    s->cur_epoch++; /* the process of this input ends here */
    s->cur_func = -1;
    run = &s->run;
    run->summaries++;
    if (smp && smp->type != GP_JSON_NULL) {
        const char *state, *why;
        double interval = 0;
        if (smp->type != GP_JSON_OBJECT) {
            snprintf(err, errlen, "summary: \"sampling\" is not an object");
            return -1;
        }
        if (gp_source_str(smp, "state", 1, 16, &state, "summary: sampling", err, errlen) < 0 ||
            gp_source_str(smp, "why", 0, GP_SOURCE_MAX_NAME, &why, "summary: sampling", err,
                          errlen) < 0 ||
            gp_source_run_num(smp, "samples", &run->samples, err, errlen) < 0 ||
            gp_source_run_num(smp, "dropped", &run->dropped, err, errlen) < 0 ||
            gp_source_run_num(smp, "non_user", &run->non_user, err, errlen) < 0 ||
            gp_source_run_num(smp, "launches", &run->launches, err, errlen) < 0 ||
            gp_source_run_num(smp, "interval_cycles", &interval, err, errlen) < 0)
            return -1;
        if (strcmp(state, "on") != 0 && strcmp(state, "off") != 0) {
            snprintf(err, errlen, "summary: sampling \"state\" is \"%.16s\", not on or off", state);
            return -1;
        }
        run->with_sampling++;
        if (strcmp(state, "on") == 0)
            run->on++;
        else
            run->off++;
        if (interval > 0)
            run->interval_cycles = interval;
        /* "why" also comes with "on" when sampling stopped part way */
        if (why && !run->off_why && !(run->off_why = gp_source_strdup(why))) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    if (res && res->type != GP_JSON_NULL) {
        const gp_json *valid = gp_json_get(res, "valid");
        const char *kernel, *reason;
        long from;
        if (res->type != GP_JSON_OBJECT || !valid || valid->type != GP_JSON_BOOL) {
            snprintf(err, errlen, "summary: \"results\" is not {\"valid\": true|false, ...}");
            return -1;
        }
        if (!valid->num) {
            char buf[600], k[200];
            if (gp_source_str(res, "kernel", 0, GP_SOURCE_MAX_NAME, &kernel, "summary: results",
                              err, errlen) < 0 ||
                gp_source_str(res, "reason", 0, GP_SOURCE_MAX_NAME, &reason, "summary: results",
                              err, errlen) < 0 ||
                gp_source_int(res, "from_launch", 0, 1e15, -1, &from, "summary: results", err,
                              errlen) < 0)
                return -1;
            run->results_invalid++;
            snprintf(k, sizeof k, "%.180s", kernel ? kernel : "?");
            snprintf(buf, sizeof buf, "from launch %ld (%s): %.380s", from, k,
                     reason ? reason : "no reason given");
            if (!run->results_why && !(run->results_why = gp_source_strdup(buf))) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
        }
    }
    return 0;
}

static int gp_source_pc_cmp(const void *a, const void *b)
{
    const gp_source_instr *x = a, *y = b;
    return (x->pc > y->pc) - (x->pc < y->pc);
}

/* The instruction at pc among the sorted ins[0..n). */
static gp_source_instr *gp_source_find_n(gp_source_func *f, size_t n, long pc)
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
    return gp_source_find_n(f, f->n_ins, pc);
}

/* x + y where either may be absent (NaN): absent only when both are. */
static double gp_source_add(double x, double y)
{
    return isnan(x) ? y : isnan(y) ? x : x + y;
}

/* Adds instruction b into a (same pc). */
static int gp_source_merge_instr(gp_source_instr *a, const gp_source_instr *b)
{
    size_t i, k;
    for (i = 0; i < GP_SI_COUNT; i++)
        a->v[i] = gp_source_add(a->v[i], b->v[i]);
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
static void gp_source_merge(gp_source_func *a, gp_source_func *b)
{
    size_t i, n = a->n_ins;
    int appended = 0;
    for (i = 0; i < b->n_ins; i++) {
        /* a's own instructions are sorted; the appended ones come after */
        gp_source_instr *x = gp_source_find_n(a, n, b->ins[i].pc);
        if (x) {
            if (gp_source_merge_instr(x, &b->ins[i]) < 0)
                a->dropped++;
            free(b->ins[i].stall);
        } else if ((long)a->n_ins < GP_SOURCE_MAX_INSTR && gp_source_append(a, &b->ins[i]) == 0) {
            appended = 1;
        } else {
            a->dropped++;
            free(b->ins[i].stall);
        }
    }
    b->n_ins = 0;
    if (appended)
        qsort(a->ins, a->n_ins, sizeof *a->ins, gp_source_pc_cmp);
    a->sass_launches += b->sass_launches;
    a->sampled_launches += b->sampled_launches;
    a->samples = gp_source_add(a->samples, b->samples);
    a->samples_not_issued = gp_source_add(a->samples_not_issued, b->samples_not_issued);
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
static char *gp_source_gkey(const char *kernel, int ordinal, int model, size_t *len)
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
static char *gp_source_mkey(const gp_source_func *f, size_t *len)
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

void gp_source_finish(gp_source *s)
{
    struct gp_strindex *same = NULL;
    size_t i, *group = NULL;
    if (!s || s->kernels)
        return;
    for (i = 0; i < s->n_funcs; i++) {
        gp_source_func *f = &s->funcs[i];
        gp_strindex_free(&f->pcs); /* reading is over */
        if (!f->sorted)
            qsort(f->ins, f->n_ins, sizeof *f->ins, gp_source_pc_cmp);
        f->sorted = 1;
    }
    /* one function read from several processes is summed into the first */
    for (i = 0; i < s->n_funcs; i++) {
        size_t len;
        char *k = gp_source_mkey(&s->funcs[i], &len);
        long at = k ? gp_strindex_find(same, k, len) : -1;
        if (at >= 0)
            gp_source_merge(&s->funcs[at], &s->funcs[i]);
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
        if (!(k = gp_source_gkey(f->kernel, f->ordinal, f->model, &len)))
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

struct gp_where *gp_source_kernel(gp_source *s, const char *kernel, int ordinal, int model)
{
    size_t len;
    char *k;
    long at;
    if (!s || !s->kernels || !(k = gp_source_gkey(kernel, ordinal, model, &len)))
        return NULL;
    at = gp_strindex_find(s->kernel_index, k, len);
    free(k);
    if (at < 0)
        return NULL;
    s->kernels[at].shown = 1;
    return &s->kernels[at];
}

size_t gp_source_unmatched(const gp_source *s)
{
    size_t i, n = 0;
    for (i = 0; s && i < s->n_kernels; i++)
        n += !s->kernels[i].shown;
    return n;
}

const char *gp_source_line_text(const gp_source *s, int file, long line)
{
    if (!s || file < 0 || (size_t)file >= s->n_files || line < 1 || line > s->files[file].n_lines)
        return NULL;
    return s->files[file].lines[line - 1];
}

void gp_source_set_file_text(gp_source *s, int file, char *text, size_t len, const char *why)
{
    gp_source_file *sf;
    size_t i, n = 1;
    if (!s || file < 0 || (size_t)file >= s->n_files) {
        free(text);
        return;
    }
    sf = &s->files[file];
    free(sf->text);
    free(sf->lines);
    free(sf->text_why);
    sf->text = NULL;
    sf->lines = NULL;
    sf->n_lines = 0;
    sf->text_why = NULL;
    if (!text) {
        sf->text_why = gp_source_strdup(why ? why : "not read");
        return;
    }
    for (i = 0; i < len; i++)
        n += text[i] == '\n';
    if (!(sf->lines = malloc(n * sizeof *sf->lines))) {
        free(text);
        sf->text_why = gp_source_strdup("out of memory");
        return;
    }
    sf->text = text;
    sf->lines[sf->n_lines++] = text;
    for (i = 0; i < len; i++)
        if (text[i] == '\n') {
            text[i] = 0;
            if (i > 0 && text[i - 1] == '\r')
                text[i - 1] = 0;
            if (i + 1 < len)
                sf->lines[sf->n_lines++] = text + i + 1;
        }
}

int gp_source_set_sass(gp_source_func *f, long pc, const char *text)
{
    long i = pc / 16;
    size_t n = strlen(text);
    char *t;
    if (pc < 0 || pc % 16 || pc >= f->code_bytes)
        return -1;
    if (!f->sass) {
        f->n_sass = f->code_bytes / 16;
        if (!(f->sass = calloc((size_t)f->n_sass, sizeof *f->sass)))
            return -1;
    }
    if (i >= f->n_sass || !(t = malloc((n > 200 ? 200 : n) + 1)))
        return -1;
    memcpy(t, text, n > 200 ? 200 : n);
    t[n > 200 ? 200 : n] = 0;
    free(f->sass[i]);
    f->sass[i] = t;
    return 0;
}

const char *gp_source_sass(const gp_source_func *f, long pc)
{
    if (!f->sass || pc < 0 || pc % 16 || pc / 16 >= f->n_sass)
        return NULL;
    return f->sass[pc / 16];
}

void gp_source_set_sass_why(gp_source_func *f, const char *why)
{
    free(f->sass_why);
    f->sass_why = gp_source_strdup(why);
}

void gp_source_free(gp_source **sp)
{
    gp_source *s = *sp;
    size_t i;
    if (!s)
        return;
    for (i = 0; i < s->n_funcs; i++)
        gp_source_func_free(&s->funcs[i]);
    free(s->funcs);
    for (i = 0; i < s->n_files; i++) {
        free(s->files[i].name);
        free(s->files[i].text);
        free(s->files[i].lines);
        free(s->files[i].text_why);
    }
    free(s->files);
    for (i = 0; s->reasons && i < s->n_reasons; i++)
        free(s->reasons[i]);
    free(s->reasons);
    for (i = 0; i < s->n_kernels; i++)
        gp_where_free(&s->kernels[i]);
    free(s->kernels);
    free(s->run.off_why);
    free(s->run.results_why);
    free(s->disasm);
    gp_strindex_free(&s->func_index);
    gp_strindex_free(&s->file_index);
    gp_strindex_free(&s->reason_index);
    gp_strindex_free(&s->kernel_index);
    free(s);
    *sp = NULL;
}
