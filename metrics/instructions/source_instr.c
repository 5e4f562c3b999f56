/* source_instr.c - see source_instr.h. */
#include "metrics/instructions/source_instr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/instructions/source_json.h"
#include "util/strindex.h"
#include "util/textio.h"

/* Interns name in the table names[0..*n) through ix: its index, or -1 when
 * the table is full (max) or memory ran out. */
static long gp_source_instr_intern(char ***names, size_t *n, size_t max, struct gp_strindex **ix,
                                   const char *name)
{
    size_t len = strlen(name);
    long at = gp_strindex_find(*ix, name, len);
    char *copy;
    if (at >= 0)
        return at;
    if (*n >= max || !(copy = gp_source_dup(name)))
        return -1;
    if (gp_strindex_add(ix, name, len, *n) < 0) {
        free(copy);
        return -1;
    }
    (*names)[*n] = copy;
    return (long)(*n)++;
}

static long gp_source_instr_file_id(gp_source *s, const char *name)
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
    if (!(copy = gp_source_dup(name)))
        return -1;
    if (gp_strindex_add(&s->file_index, name, strlen(name), s->n_files) < 0) {
        free(copy);
        return -1;
    }
    s->files[s->n_files].name = copy;
    return (long)s->n_files++;
}

/* The "stall" and "stall_not_issued" objects into in->stall. */
static int gp_source_instr_stalls(gp_source *s, const gp_json *obj, gp_source_instr *in,
                                  const char *what, char *err, size_t errlen)
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
            if (gp_source_json_count(&o->items[i], &x, what, esc, err, errlen) < 0)
                return -1;
            if (isnan(x) || !o->keys[i][0] || strlen(o->keys[i]) > 64) {
                snprintf(err, errlen, "%s: stall reason \"%s\" is %s", what, esc,
                         isnan(x) ? "null" : "not a reason name of 1 to 64 bytes");
                return -1;
            }
            r = gp_source_instr_intern(&s->reasons, &s->n_reasons, GP_SOURCE_MAX_REASONS,
                                       &s->reason_index, o->keys[i]);
            if (r < 0) { /* a full table: one bucket, said in the report */
                r = gp_source_instr_intern(&s->reasons, &s->n_reasons, GP_SOURCE_MAX_REASONS + 1,
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
/* A count as a message shows it: "absent" for one the record does not have
 * (NaN), never "nan". */
static const char *gp_si_num(char buf[32], double v)
{
    if (isnan(v))
        return "absent";
    snprintf(buf, 32, "%.15g", v);
    return buf;
}

static void gp_source_instr_check(gp_source_instr *in, char *msg, size_t len)
{
    const double *v = in->v;
    double sum = 0;
    unsigned k;
    char b[3][32];
    msg[0] = 0;
    if (v[GP_SI_SECTORS_IDEAL] > v[GP_SI_SECTORS]) {
        in->defects |= GP_SRC_BAD_SECTORS;
        snprintf(msg, len, "pc +0x%lx: sectors_global_ideal %s > sectors_global %s", in->pc,
                 gp_si_num(b[0], v[GP_SI_SECTORS_IDEAL]), gp_si_num(b[1], v[GP_SI_SECTORS]));
    }
    if (v[GP_SI_WAVEFRONTS_IDEAL] > v[GP_SI_WAVEFRONTS]) {
        in->defects |= GP_SRC_BAD_WAVEFRONTS;
        snprintf(msg, len, "pc +0x%lx: wavefronts_shared_ideal %s > wavefronts_shared %s",
                 in->pc, gp_si_num(b[0], v[GP_SI_WAVEFRONTS_IDEAL]), gp_si_num(b[1], v[GP_SI_WAVEFRONTS]));
    }
    if (v[GP_SI_PRED_ON] > v[GP_SI_THREAD] || v[GP_SI_THREAD] > 32 * v[GP_SI_INST] ||
        v[GP_SI_PRED_ON] > 32 * v[GP_SI_INST]) {
        in->defects |= GP_SRC_BAD_THREADS;
        snprintf(msg, len,
                 "pc +0x%lx: thread_inst_executed_pred_on %s, thread_inst_executed %s, "
                 "inst_executed %s (at most 32 threads each, pred-on among them)",
                 in->pc, gp_si_num(b[0], v[GP_SI_PRED_ON]), gp_si_num(b[1], v[GP_SI_THREAD]),
                 gp_si_num(b[2], v[GP_SI_INST]));
    }
    for (k = 0; k < in->n_stall; k++) {
        sum += in->stall[k].all;
        if (in->stall[k].not_issued > in->stall[k].all && !(in->defects & GP_SRC_BAD_SAMPLES)) {
            in->defects |= GP_SRC_BAD_SAMPLES;
            snprintf(msg, len,
                     "pc +0x%lx: a reason's not-issued samples (%s) above its "
                     "samples (%s)",
                     in->pc, gp_si_num(b[0], in->stall[k].not_issued),
                     gp_si_num(b[1], in->stall[k].all));
        }
    }
    if (v[GP_SI_SAMPLES_NOT_ISSUED] > v[GP_SI_SAMPLES] ||
        (in->n_stall && !isnan(v[GP_SI_SAMPLES]) && sum != v[GP_SI_SAMPLES])) {
        in->defects |= GP_SRC_BAD_SAMPLES;
        snprintf(msg, len,
                 "pc +0x%lx: samples %s, not issued %s, reasons adding up to "
                 "%s",
                 in->pc, gp_si_num(b[0], v[GP_SI_SAMPLES]), gp_si_num(b[1], v[GP_SI_SAMPLES_NOT_ISSUED]),
                 gp_si_num(b[2], sum));
    }
}

static int gp_source_instr_access(const char *name)
{
    int i;
    for (i = 1; i < GP_ACCESS_OTHER; i++)
        if (strcmp(name, gp_source_access_name(i)) == 0)
            return i;
    return GP_ACCESS_OTHER;
}

/* Adds in to f (which takes over its stall list). */
int gp_source_instr_append(gp_source_func *f, gp_source_instr *in)
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
static int gp_source_instr_seen(gp_source_func *f, long pc, int *oom)
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

int gp_source_instr_load(gp_source *s, const gp_json *obj, char *err, size_t errlen)
{
    const char *mangled, *module, *file, *access;
    long ordinal, pc, line, bits, at;
    gp_source_instr in;
    gp_source_func *f;
    char what[200], defect[320];
    size_t i;
    int oom;
    memset(&in, 0, sizeof in);
    if (gp_source_json_str(obj, "mangled", 1, GP_SOURCE_MAX_NAME, &mangled, "source_instr", err,
                           errlen) < 0 ||
        gp_source_json_str(obj, "module", 1, 64, &module, "source_instr", err, errlen) < 0 ||
        gp_source_json_int(obj, "device", 0, 65535, -1, &ordinal, "source_instr", err, errlen) <
            0 ||
        gp_source_json_int(obj, "pc", 0, 1L << 40, -1, &pc, "source_instr", err, errlen) < 0)
        return -1;
    if (ordinal < 0 || pc < 0) {
        snprintf(err, errlen, "source_instr without a \"%s\" number",
                 ordinal < 0 ? "device" : "pc");
        return -1;
    }
    at = gp_source_function_at(s, ordinal, module, mangled);
    if (at < 0) {
        /* one message per function (its source_function missing or refused),
         * the rest of its records counted */
        char n1[100], n2[60], key[200];
        snprintf(key, sizeof key, "%ld/%.60s/%.120s", ordinal, module, mangled);
        s->orphans++;
        if (s->orphan_key && strcmp(s->orphan_key, key) == 0)
            return 0;
        free(s->orphan_key);
        s->orphan_key = gp_source_dup(key);
        snprintf(err, errlen,
                 "source_instr of %s (module %s) at pc 0x%lx without its source_function record "
                 "before it (its further records are counted, not named)",
                 gp_text_plain_buf(n1, sizeof n1, mangled), gp_text_plain_buf(n2, sizeof n2, module),
                 pc);
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
    if (gp_source_json_str(obj, "file", 0, GP_SOURCE_MAX_PATH, &file, what, err, errlen) < 0 ||
        gp_source_json_int(obj, "line", 1, 2147483647.0, 0, &line, what, err, errlen) < 0 ||
        gp_source_json_str(obj, "access", 0, 32, &access, what, err, errlen) < 0 ||
        gp_source_json_int(obj, "access_bits", 1, 1024, 0, &bits, what, err, errlen) < 0)
        return -1;
    if (!file != !line) {
        snprintf(err, errlen, "%s: \"%s\" without \"%s\"", what, file ? "file" : "line",
                 file ? "line" : "file");
        return -1;
    }
    for (i = 0; i < GP_SI_COUNT; i++)
        if (gp_source_json_count(gp_json_get(obj, gp_si_defs[i].key), &in.v[i], what,
                                 gp_si_defs[i].key, err, errlen) < 0)
            return -1;
    if (gp_source_instr_seen(f, pc, &oom)) {
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
    in.access = access ? gp_source_instr_access(access) : GP_ACCESS_NONE;
    in.access_bits = (int)bits;
    if (file && (in.file = (int)gp_source_instr_file_id(s, file)) < 0) {
        s->files_dropped++; /* the table is full: the instruction keeps no line */
        in.line = 0;
    }
    if (gp_source_instr_stalls(s, obj, &in, what, err, errlen) < 0) {
        free(in.stall);
        return -1;
    }
    gp_source_instr_check(&in, defect, sizeof defect);
    if (gp_source_instr_append(f, &in) < 0) {
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
