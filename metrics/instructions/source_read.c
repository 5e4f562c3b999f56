/* source_read.c - see source_read.h. */
#include "metrics/instructions/source_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/instructions/source_instr.h"
#include "metrics/instructions/source_json.h"
#include "metrics/instructions/where.h"
#include "util/strindex.h"
#include "util/textio.h"

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
        if (!(s->reasons[i] = gp_source_dup(n)) ||
            gp_strindex_add(&s->reason_index, n, strlen(n), i) < 0)
            goto fail;
        s->n_reasons++;
    }
    return s;
fail:
    gp_source_free(&s);
    return NULL;
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
    if (gp_source_json_str(obj, "kernel", 1, GP_SOURCE_MAX_NAME, &kernel, "source_function", err,
                           errlen) < 0)
        return -1;
    /* messages name the function, escaped and cut: the full name is in the input */
    snprintf(what, sizeof what, "source_function of %s",
             gp_text_plain_buf(name, sizeof name, kernel));
    if (gp_source_json_str(obj, "mangled", 1, GP_SOURCE_MAX_NAME, &mangled, what, err, errlen) <
            0 ||
        gp_source_json_str(obj, "module", 1, 64, &module, what, err, errlen) < 0 ||
        gp_source_json_int(obj, "device", 0, 65535, -1, &ordinal, what, err, errlen) < 0 ||
        gp_source_json_str(obj, "code_why", 0, GP_SOURCE_MAX_NAME, &code_why, what, err, errlen) <
            0 ||
        gp_source_json_str(obj, "lineinfo_why", 0, GP_SOURCE_MAX_NAME, &li_why, what, err, errlen) <
            0)
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
    if (gp_source_json_int(obj, "code_bytes", 0, 1L << 40, 0, &f.code_bytes, what, err, errlen) <
            0 ||
        gp_source_json_int(obj, "sass_launches", 0, 1e15, 0, &f.sass_launches, what, err, errlen) <
            0 ||
        gp_source_json_int(obj, "sampled_launches", 0, 1e15, 0, &f.sampled_launches, what, err,
                           errlen) < 0 ||
        gp_source_json_int(obj, "instructions", 0, 1e15, 0, &f.instructions, what, err, errlen) <
            0 ||
        gp_source_json_count(gp_json_get(obj, "samples"), &f.samples, what, "samples", err,
                             errlen) < 0 ||
        gp_source_json_count(gp_json_get(obj, "samples_not_issued"), &f.samples_not_issued, what,
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
            f.code_why = gp_source_dup(why);
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
        f.code_why = gp_source_dup(code_why ? code_why : "the record has no machine code");
    if (!f.lineinfo)
        f.lineinfo_why = gp_source_dup(li_why ? li_why : "no line information");
    if (!(f.kernel = gp_source_dup(kernel)) || !(f.mangled = gp_source_dup(mangled)) ||
        !(f.module = gp_source_dup(module)) || (!f.code && !f.code_why) ||
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
    return gp_source_instr_load(s, obj, err, errlen);
}

/* Sums a number of the sampling object into *acc (absent: nothing). */
static int gp_source_run_num(const gp_json *o, const char *key, double *acc, char *err,
                             size_t errlen)
{
    double x;
    if (gp_source_json_count(gp_json_get(o, key), &x, "summary: sampling", key, err, errlen) < 0)
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
        if (gp_source_json_str(smp, "state", 1, 16, &state, "summary: sampling", err, errlen) < 0 ||
            gp_source_json_str(smp, "why", 0, GP_SOURCE_MAX_NAME, &why, "summary: sampling", err,
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
        if (why && !run->off_why && !(run->off_why = gp_source_dup(why))) {
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
        run->with_results++;
        if (!valid->num) {
            char buf[600], k[200];
            if (gp_source_json_str(res, "kernel", 0, GP_SOURCE_MAX_NAME, &kernel,
                                   "summary: results", err, errlen) < 0 ||
                gp_source_json_str(res, "reason", 0, GP_SOURCE_MAX_NAME, &reason,
                                   "summary: results", err, errlen) < 0 ||
                gp_source_json_int(res, "from_launch", 0, 1e15, -1, &from, "summary: results", err,
                                   errlen) < 0)
                return -1;
            run->results_invalid++;
            snprintf(k, sizeof k, "%.180s", kernel ? kernel : "?");
            snprintf(buf, sizeof buf, "from launch %ld (%s): %.380s", from, k,
                     reason ? reason : "no reason given");
            if (!run->results_why && !(run->results_why = gp_source_dup(buf))) {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
        }
    }
    return 0;
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
    free(s->orphan_key);
    gp_strindex_free(&s->func_index);
    gp_strindex_free(&s->file_index);
    gp_strindex_free(&s->reason_index);
    gp_strindex_free(&s->kernel_index);
    free(s);
    *sp = NULL;
}
