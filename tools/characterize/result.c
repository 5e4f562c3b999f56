/* result.c - see result.h. */
#include "result.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "metrics/records/json.h"
#include "suite.h"
#include "metrics/records/textfile.h"
#include "util/num.h"
#include "util/safefile.h"
#include "util/strindex.h"
#include "util/textio.h"

static const char *const gpc_status_names[GPC_STATUS_COUNT] = {
    "ok",    "native_failed",          "profiler_defect", "error",
    "profiler_broke_results", "no_records", "not_finished"};

const char *gpc_status_name(gpc_status s)
{
    return (unsigned)s < GPC_STATUS_COUNT ? gpc_status_names[s] : "?";
}

double gpc_exec_wall(const gpc_exec *e)
{
    return e->ran ? e->wall_s : NAN;
}

void gpc_result_free(gpc_result *r)
{
    size_t i;
    free(r->name);
    free(r->cmd);
    free(r->dir);
    free(r->gpu);
    free(r->message);
    for (i = 0; i < r->n_diffs; i++) {
        free(r->diffs[i].what);
        free(r->diffs[i].native);
        free(r->diffs[i].profiled);
    }
    free(r->diffs);
    for (i = 0; i < r->n_jsonl; i++)
        free(r->jsonl[i]);
    free(r->jsonl);
    free(r->results.kernel);
    free(r->results.reason);
    free(r->results.file);
    free(r->slurm_job);
    free(r->slurm_state);
    free(r->slurm_reason);
    free(r->slurm_node);
    memset(r, 0, sizeof *r);
}

static char *gpc_dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

int gpc_result_add_diff(gpc_result *r, const char *what, long line, long line_prof,
                        const char *native, const char *profiled, long n_differ)
{
    gpc_diff *nd = realloc(r->diffs, (r->n_diffs + 1) * sizeof *nd), *d;
    if (!nd)
        return -1;
    r->diffs = nd;
    d = &nd[r->n_diffs];
    memset(d, 0, sizeof *d);
    d->what = strdup(what);
    d->native = gpc_dup_or_null(native);
    d->profiled = gpc_dup_or_null(profiled);
    d->line = line;
    d->line_prof = line_prof;
    d->n_differ = n_differ;
    r->n_diffs++;
    return d->what && (!native || d->native) && (!profiled || d->profiled) ? 0 : -1;
}

char *gpc_excerpt(const char *s, size_t n, size_t max)
{
    if (n > max) {
        n = max;
        /* back to the first byte of the sequence the cut fell in */
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    return strndup(s, n);
}

char *gpc_plain_dup(const char *s)
{
    /* an escape is at most 4 bytes per byte shown (\xNN; \u{NNNN} for 3) */
    size_t len = 4 * strlen(s ? s : "") + 16;
    char *buf = malloc(len);
    return buf ? gp_text_plain_buf(buf, len, s) : NULL;
}

void gpc_html_str(FILE *out, const char *s)
{
    char *plain;
    if (!s)
        return;
    if (!(plain = gpc_plain_dup(s))) {
        gp_text_html(out, "(out of memory)");
        return;
    }
    gp_text_html(out, plain);
    free(plain);
}

void gpc_json_str(FILE *out, const char *s)
{
    gp_text_json_string(out, s);
}

void gpc_csv_str(FILE *out, const char *s)
{
    gp_text_csv_field(out, s);
}

void gpc_json_num(FILE *out, double v)
{
    if (isnan(v) || isinf(v))
        fputs("null", out);
    else
        fprintf(out, "%.9g", v);
}

int gpc_jsonl_name_ok(const char *name)
{
    size_t n = strlen(name), i;
    if (n < 15 || n > 200 || strncmp(name, "gpuprof-", 8) != 0 ||
        strcmp(name + n - 6, ".jsonl") != 0)
        return 0;
    for (i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && !strchr("._-", name[i]))
            return 0;
    return 1;
}

/* text as it is (a key and its punctuation), then s as a JSON string */
static void gpc_json_field(FILE *f, const char *text, const char *s)
{
    fputs(text, f);
    gpc_json_str(f, s);
}

static void gpc_exec_save(FILE *f, const char *key, const gpc_exec *e)
{
    fprintf(f, "  \"%s\": ", key);
    if (!e->ran) {
        fputs("null,\n", f);
        return;
    }
    fprintf(f, "{\"exit\": %d, \"signal\": %d, \"timed_out\": %s, \"wall_s\": ", e->exit_code,
            e->signal, e->timed_out ? "true" : "false");
    gpc_json_num(f, e->wall_s);
    fputs("},\n", f);
}

/* "results": null when no summary record was read, else what they say. */
static void gpc_result_validity_save(FILE *f, const gpc_validity *v)
{
    if (!v->known) {
        fputs("null", f);
        return;
    }
    if (v->valid) {
        fputs("{\"valid\": true}", f);
        return;
    }
    fputs("{\"valid\": false, \"from_launch\": ", f);
    if (v->from_launch >= 0)
        fprintf(f, "%ld", v->from_launch);
    else
        fputs("null", f);
    gpc_json_field(f, ", \"kernel\": ", v->kernel);
    gpc_json_field(f, ", \"reason\": ", v->reason);
    gpc_json_field(f, ", \"file\": ", v->file);
    fprintf(f, ", \"processes_invalid\": %ld}", v->n_invalid);
}

int gpc_result_save(const gpc_result *r, const char *dir, char *err, size_t errlen)
{
    char path[4096];
    gp_safefile sf;
    FILE *f;
    size_t i;
    snprintf(path, sizeof path, "%s/%s", dir, GPC_RESULT_FILE);
    if (gp_safefile_create(&sf, path, err, errlen) < 0)
        return -1;
    f = sf.f;
    fprintf(f, "{\n  \"format\": \"%s\",\n  \"name\": ", GPC_RESULT_FORMAT);
    gpc_json_str(f, r->name);
    gpc_json_field(f, ",\n  \"status\": ", gpc_status_name(r->status));
    gpc_json_field(f, ",\n  \"message\": ", r->message ? r->message : "");
    gpc_json_field(f, ",\n  \"cmd\": ", r->cmd);
    gpc_json_field(f, ",\n  \"dir\": ", r->dir);
    gpc_json_field(f, ",\n  \"gpu\": ", r->gpu);
    fputs(",\n", f);
    gpc_exec_save(f, "native", &r->native);
    gpc_exec_save(f, "profiled", &r->profiled);
    fputs("  \"diffs\": [", f);
    for (i = 0; i < r->n_diffs; i++) {
        const gpc_diff *d = &r->diffs[i];
        fprintf(f, "%s\n    {\"what\": ", i ? "," : "");
        gpc_json_str(f, d->what);
        fprintf(f,
                ", \"line\": %ld, \"line_profiled\": %ld, \"differing_lines\": %ld, \"native\": ",
                d->line, d->line_prof, d->n_differ);
        gpc_json_str(f, d->native);
        gpc_json_field(f, ", \"profiled\": ", d->profiled);
        fputs("}", f);
    }
    fputs(r->n_diffs ? "\n  ],\n  \"jsonl\": [" : "],\n  \"jsonl\": [", f);
    for (i = 0; i < r->n_jsonl; i++) {
        fputs(i ? ", " : "", f);
        gpc_json_str(f, r->jsonl[i]);
    }
    fputs("],\n  \"results\": ", f);
    gpc_result_validity_save(f, &r->results);
    fputs(",\n  \"slurm\": ", f);
    if (r->slurm_job) {
        gpc_json_field(f, "{\"job\": ", r->slurm_job);
        gpc_json_field(f, ", \"state\": ", r->slurm_state);
        gpc_json_field(f, ", \"reason\": ", r->slurm_reason);
        gpc_json_field(f, ", \"node\": ", r->slurm_node);
        fputs("}", f);
    } else {
        fputs("null", f);
    }
    fputs("\n}\n", f);
    return gp_safefile_commit(&sf, err, errlen);
}

static int gpc_exec_load(const gp_json *v, gpc_exec *e)
{
    const gp_json *t;
    memset(e, 0, sizeof *e);
    if (!v || v->type == GP_JSON_NULL)
        return 0;
    if (v->type != GP_JSON_OBJECT)
        return -1;
    e->ran = 1;
    e->exit_code = (int)gp_num_clamp(gp_json_number(gp_json_get(v, "exit")), -1, 255, -1);
    e->signal = (int)gp_num_clamp(gp_json_number(gp_json_get(v, "signal")), 0, 255, 0);
    t = gp_json_get(v, "timed_out");
    e->timed_out = t && t->type == GP_JSON_BOOL && t->num != 0;
    e->wall_s = gp_json_number(gp_json_get(v, "wall_s"));
    if (!(e->wall_s >= 0) || isinf(e->wall_s))
        e->wall_s = NAN; /* a negative or absurd time is shown as n/a */
    return 0;
}

static char *gpc_json_dup(const gp_json *o, const char *key)
{
    const char *s = gp_json_string(gp_json_get(o, key));
    return s ? strdup(s) : NULL;
}

/* The same back; a malformed value reads as unknown. */
static int gpc_result_validity_load(const gp_json *o, gpc_validity *v)
{
    const gp_json *ok = gp_json_get(o, "valid");
    const char *file;
    memset(v, 0, sizeof *v);
    v->from_launch = -1;
    v->valid = 1;
    if (!ok || ok->type != GP_JSON_BOOL)
        return 0;
    v->known = 1;
    if (ok->num != 0)
        return 0;
    v->valid = 0;
    if (gp_num_in_range(gp_json_number(gp_json_get(o, "from_launch")), 0, LONG_MAX,
                        &v->from_launch) < 0)
        v->from_launch = -1;
    v->n_invalid =
        gp_num_clamp(gp_json_number(gp_json_get(o, "processes_invalid")), 1, LONG_MAX, 1);
    file = gp_json_string(gp_json_get(o, "file"));
    v->kernel = gpc_json_dup(o, "kernel");
    v->reason = gpc_json_dup(o, "reason");
    if (!v->reason)
        v->reason = strdup("(no reason given)");
    v->file = file && gpc_jsonl_name_ok(file) ? strdup(file) : NULL;
    return v->reason ? 0 : -1;
}

int gpc_result_finished(const char *dir)
{
    gpc_result r;
    char err[512];
    int yes;
    if (gpc_result_load(&r, dir, err, sizeof err) < 0)
        return 0;
    yes = r.status != GPC_NOT_FINISHED;
    gpc_result_free(&r);
    return yes;
}

int gpc_result_load(gpc_result *r, const char *dir, char *err, size_t errlen)
{
    char path[4096];
    char *text;
    size_t len;
    int rc;
    struct stat st;
    memset(r, 0, sizeof *r);
    snprintf(path, sizeof path, "%s/%s", dir, GPC_RESULT_FILE);
    /* written by run in a folder the programs write too: a link or a FIFO
     * planted there is not ours, never followed or read */
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "cannot read %s: it is %s, not a regular file", path,
                 S_ISLNK(st.st_mode) ? "a symbolic link" : "something else");
        return -1;
    }
    if (!(text = gp_textfile_read_max(path, NULL, GPC_RESULT_MAX, &len, err, errlen)))
        return -1;
    rc = gpc_result_parse(r, text, len, path, err, errlen);
    free(text);
    return rc;
}

int gpc_result_parse(gpc_result *r, const char *text, size_t len, const char *path, char *err,
                     size_t errlen)
{
    char why[256];
    size_t i;
    gp_json *doc;
    const gp_json *a;
    const char *st, *fmt;
    gp_strindex *seen = NULL;
    int rc = -1, s;
    memset(r, 0, sizeof *r);
    doc = gp_json_parse(text, len, why, sizeof why);
    if (!doc) {
        snprintf(err, errlen, "%s: not JSON: %s", path, why);
        return -1;
    }
    fmt = gp_json_string(gp_json_get(doc, "format"));
    if (!fmt || strcmp(fmt, GPC_RESULT_FORMAT) != 0) {
        snprintf(err, errlen, "%s: format is not %s", path, GPC_RESULT_FORMAT);
        goto out;
    }
    r->name = gpc_json_dup(doc, "name");
    r->cmd = gpc_json_dup(doc, "cmd");
    r->dir = gpc_json_dup(doc, "dir");
    r->gpu = gpc_json_dup(doc, "gpu");
    r->message = gpc_json_dup(doc, "message");
    st = gp_json_string(gp_json_get(doc, "status"));
    r->status = GPC_STATUS_COUNT;
    for (s = 0; st && s < GPC_STATUS_COUNT; s++)
        if (strcmp(st, gpc_status_names[s]) == 0)
            r->status = (gpc_status)s;
    if (!r->name || r->status == GPC_STATUS_COUNT) {
        snprintf(err, errlen, "%s: no name or an unknown status", path);
        goto out;
    }
    if (!gpc_suite_name_ok(r->name)) {
        snprintf(err, errlen, "%s: the name is not a program name (letters, digits, '.', '_', '-')",
                 path);
        goto out;
    }
    if (gpc_exec_load(gp_json_get(doc, "native"), &r->native) < 0 ||
        gpc_exec_load(gp_json_get(doc, "profiled"), &r->profiled) < 0) {
        snprintf(err, errlen, "%s: malformed native/profiled record", path);
        goto out;
    }
    if ((a = gp_json_get(doc, "diffs")) && a->type == GP_JSON_ARRAY)
        for (i = 0; i < a->n; i++) {
            const gp_json *d = &a->items[i];
            const char *what = gp_json_string(gp_json_get(d, "what"));
            if (gpc_result_add_diff(
                    r, what ? what : "?",
                    gp_num_clamp(gp_json_number(gp_json_get(d, "line")), 0, LONG_MAX, 0),
                    gp_num_clamp(gp_json_number(gp_json_get(d, "line_profiled")), 0, LONG_MAX, 0),
                    gp_json_string(gp_json_get(d, "native")),
                    gp_json_string(gp_json_get(d, "profiled")),
                    gp_num_clamp(gp_json_number(gp_json_get(d, "differing_lines")), 0, LONG_MAX,
                                 0)) < 0) {
                snprintf(err, errlen, "out of memory");
                goto out;
            }
        }
    if ((a = gp_json_get(doc, "jsonl")) && a->type == GP_JSON_ARRAY) {
        r->jsonl = calloc(a->n + 1, sizeof *r->jsonl);
        if (!r->jsonl) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        for (i = 0; i < a->n; i++) {
            const char *f = gp_json_string(&a->items[i]);
            if (!f || !gpc_jsonl_name_ok(f)) {
                snprintf(err, errlen,
                         "%s: jsonl entries are the profiler's file names in the directory "
                         "(gpuprof-*.jsonl, of letters, digits, '.', '_', '-')",
                         path);
                goto out;
            }
            /* a file named twice is read once (and the summary says so):
             * its launches must not count twice */
            if (gp_strindex_find(seen, f, strlen(f)) >= 0) {
                r->jsonl_repeated++;
                continue;
            }
            if (gp_strindex_add(&seen, f, strlen(f), i) < 0 ||
                !(r->jsonl[r->n_jsonl] = strdup(f))) {
                snprintf(err, errlen, "out of memory");
                goto out;
            }
            r->n_jsonl++;
        }
    }
    if (gpc_result_validity_load(gp_json_get(doc, "results"), &r->results) < 0) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    a = gp_json_get(doc, "slurm");
    if (a && a->type == GP_JSON_OBJECT && gp_json_string(gp_json_get(a, "job"))) {
        r->slurm_job = gpc_json_dup(a, "job");
        r->slurm_state = gpc_json_dup(a, "state");
        r->slurm_reason = gpc_json_dup(a, "reason");
        r->slurm_node = gpc_json_dup(a, "node");
        if (!r->slurm_job) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
    }
    rc = 0;
out:
    gp_strindex_free(&seen);
    gp_json_free(doc);
    if (rc < 0)
        gpc_result_free(r);
    return rc;
}
