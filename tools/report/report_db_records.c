/* report_db_records.c - the records as the report reads them, into rows:
 * the hook gp_report.on_record calls (report_db_int.h).
 *
 * Values are stored as the record has them (the raw launch values: a
 * counter's 0 that the report reads as n/a stays 0 here, its reason being
 * the report's, in the derived rows); what the report derives comes from
 * the report (the derived metrics of each launch).  A record's keys that
 * have no column of their own are kept as JSON text in "extra", so nothing
 * a record says is lost. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/catalog/derived.h"
#include "report_db_int.h"
#include "util/textio.h"

/* How a key of a record becomes columns. */
enum {
    GP_RK_COL,  /* one column */
    GP_RK_DIM3, /* [x, y, z]: key_x, key_y, key_z */
    GP_RK_PAIR, /* [major, minor] */
    GP_RK_JSON, /* one column of JSON text */
    GP_RK_SKIP, /* stored elsewhere (metrics, missing) or not at all (type, schema) */
};

typedef struct {
    const char *key;
    int kind;
} gp_rdb_key;

/* A record table: its keys in column order after `first` columns of ids. */
typedef struct {
    const gp_rdb_key *keys;
    size_t n, first, ncols; /* ncols: with the trailing extra column */
    int *col;               /* each key's first column */
    gp_strindex *ix;        /* key -> position in keys */
} gp_rdb_spec;

#define GP_RDB_K_U64 GP_RK_COL
#define GP_RDB_K_LONG GP_RK_COL
#define GP_RDB_K_INT GP_RK_COL
#define GP_RDB_K_STR GP_RK_COL
#define GP_RDB_K_DBL GP_RK_COL
#define GP_RDB_K_FLAG GP_RK_COL
#define GP_RDB_K_TEXT GP_RK_COL
#define GP_RDB_K_DIM3 GP_RK_DIM3
#define GP_RDB_K_PAIR GP_RK_PAIR
#define GP_RDB_K_METRICS GP_RK_SKIP
#define GP_RDB_K_MISSING GP_RK_SKIP

static const gp_rdb_key gp_rdb_launch_keys[] = {
#define GP_LAUNCH_FIELD(key, member, kind, flags, lo, hi, dflt, unit, doc) {key, GP_RDB_K_##kind},
#include "metrics/records/record_fields.def"
    {"type", GP_RK_SKIP},
    {"schema", GP_RK_SKIP},
};
static const gp_rdb_key gp_rdb_device_keys[] = {
#define GP_DEVICE_FIELD(key, member, kind, lo, hi, fill, doc) {key, GP_RDB_K_##kind},
#include "metrics/records/record_fields.def"
    {"type", GP_RK_SKIP},
    {"schema", GP_RK_SKIP},
};
static const gp_rdb_key gp_rdb_estimate_keys[] = {
    {"pid", GP_RK_COL},
    {"process", GP_RK_COL},
    {"host", GP_RK_COL},
    {"device", GP_RK_COL},
    {"kernel", GP_RK_COL},
    {"mangled", GP_RK_COL},
    {"grid", GP_RK_DIM3},
    {"block", GP_RK_DIM3},
    {"dynamic_smem", GP_RK_COL},
    {"regs_per_thread", GP_RK_COL},
    {"static_smem", GP_RK_COL},
    {"launches", GP_RK_COL},
    {"exact_launches", GP_RK_COL},
    {"lost_launches", GP_RK_COL},
    {"unprofiled_launches", GP_RK_COL},
    {"max_overhead_pct", GP_RK_COL},
    {"first_launch_id", GP_RK_COL},
    {"rotation_block", GP_RK_COL},
    {"spread", GP_RK_COL},
    {"configurations", GP_RK_JSON},
    {"collected", GP_RK_JSON},
    {"bound", GP_RK_JSON},
    {"missing", GP_RK_JSON},
    {"metrics", GP_RK_SKIP},
    {"type", GP_RK_SKIP},
    {"schema", GP_RK_SKIP},
};
static const gp_rdb_key gp_rdb_function_keys[] = {
    {"device", GP_RK_COL},
    {"kernel", GP_RK_COL},
    {"mangled", GP_RK_COL},
    {"module", GP_RK_COL},
    {"code_bytes", GP_RK_COL},
    {"code", GP_RK_COL},
    {"code_why", GP_RK_COL},
    {"lineinfo", GP_RK_COL},
    {"lineinfo_why", GP_RK_COL},
    {"sass_launches", GP_RK_COL},
    {"sampled_launches", GP_RK_COL},
    {"samples", GP_RK_COL},
    {"samples_not_issued", GP_RK_COL},
    {"instructions", GP_RK_COL},
    {"type", GP_RK_SKIP},
};
static const gp_rdb_key gp_rdb_instr_keys[] = {
    {"pc", GP_RK_COL},
    {"file", GP_RK_COL},
    {"line", GP_RK_COL},
    {"access", GP_RK_COL},
    {"access_bits", GP_RK_COL},
    {"inst_executed", GP_RK_COL},
    {"thread_inst_executed", GP_RK_COL},
    {"thread_inst_executed_pred_on", GP_RK_COL},
    {"divergent_branches", GP_RK_COL},
    {"l1_tags_global", GP_RK_COL},
    {"sectors_global", GP_RK_COL},
    {"sectors_global_ideal", GP_RK_COL},
    {"wavefronts_shared", GP_RK_COL},
    {"wavefronts_shared_ideal", GP_RK_COL},
    {"samples", GP_RK_COL},
    {"samples_not_issued", GP_RK_COL},
    {"device", GP_RK_SKIP},
    {"module", GP_RK_SKIP},
    {"mangled", GP_RK_SKIP},
    {"stall", GP_RK_SKIP},
    {"stall_not_issued", GP_RK_SKIP},
    {"type", GP_RK_SKIP},
};

enum {
    GP_SPEC_LAUNCH,
    GP_SPEC_DEVICE,
    GP_SPEC_ESTIMATE,
    GP_SPEC_FUNCTION,
    GP_SPEC_INSTR,
    GP_SPEC_N
};
static const struct {
    const gp_rdb_key *keys;
    size_t n, first;
} gp_rdb_spec_defs[GP_SPEC_N] = {
    {gp_rdb_launch_keys, sizeof gp_rdb_launch_keys / sizeof gp_rdb_launch_keys[0], 5},
    {gp_rdb_device_keys, sizeof gp_rdb_device_keys / sizeof gp_rdb_device_keys[0], 6},
    {gp_rdb_estimate_keys, sizeof gp_rdb_estimate_keys / sizeof gp_rdb_estimate_keys[0], 5},
    {gp_rdb_function_keys, sizeof gp_rdb_function_keys / sizeof gp_rdb_function_keys[0], 3},
    {gp_rdb_instr_keys, sizeof gp_rdb_instr_keys / sizeof gp_rdb_instr_keys[0], 1},
};

/* The specs are the same for every writer: made once. */
static gp_rdb_spec gp_rdb_specs[GP_SPEC_N];
static int64_t gp_rdb_derived_ids[GP_DERIVED_COUNT];

int gp_rdb_records_init(gp_rdb *w)
{
    size_t s, i;
    for (s = 0; s < GP_SPEC_N; s++) {
        gp_rdb_spec *sp = &gp_rdb_specs[s];
        size_t col;
        if (sp->col)
            continue;
        sp->keys = gp_rdb_spec_defs[s].keys;
        sp->n = gp_rdb_spec_defs[s].n;
        sp->first = gp_rdb_spec_defs[s].first;
        if (!(sp->col = calloc(sp->n, sizeof *sp->col)))
            goto oom;
        for (col = sp->first, i = 0; i < sp->n; i++) {
            if (gp_strindex_add(&sp->ix, sp->keys[i].key, strlen(sp->keys[i].key), i) < 0)
                goto oom;
            sp->col[i] = (int)col;
            col += sp->keys[i].kind == GP_RK_DIM3   ? 3
                   : sp->keys[i].kind == GP_RK_PAIR ? 2
                   : sp->keys[i].kind == GP_RK_SKIP ? 0
                                                    : 1;
        }
        sp->ncols = col + (s != GP_SPEC_INSTR || 1); /* every table keeps an extra column */
    }
    return 0;
oom:
    gp_rdb_fail(w, "out of memory");
    return -1;
}

/* ---- JSON values ---- */

static void gp_rdb_json_write(FILE *f, const gp_json *v)
{
    size_t i;
    switch (v->type) {
    case GP_JSON_NULL:
        fputs("null", f);
        break;
    case GP_JSON_BOOL:
        fputs(v->num != 0 ? "true" : "false", f);
        break;
    case GP_JSON_NUMBER:
        if (v->num == floor(v->num) && fabs(v->num) < 1e15)
            fprintf(f, "%.0f", v->num);
        else
            fprintf(f, "%.17g", v->num);
        break;
    case GP_JSON_STRING:
        gp_text_json_string(f, v->str);
        break;
    case GP_JSON_ARRAY:
    case GP_JSON_OBJECT:
        fputc(v->type == GP_JSON_ARRAY ? '[' : '{', f);
        for (i = 0; i < v->n; i++) {
            if (i)
                fputc(',', f);
            if (v->type == GP_JSON_OBJECT) {
                gp_text_json_string(f, v->keys[i]);
                fputc(':', f);
            }
            gp_rdb_json_write(f, &v->items[i]);
        }
        fputc(v->type == GP_JSON_ARRAY ? ']' : '}', f);
        break;
    }
}

char *gp_rdb_json_text(const gp_json *v)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    gp_rdb_json_write(f, v);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

gp_rdbv gp_rdbv_json(const gp_json *v, char **json_out)
{
    *json_out = NULL;
    if (!v)
        return gp_rdbv_null();
    switch (v->type) {
    case GP_JSON_BOOL:
        return gp_rdbv_int(v->num != 0);
    case GP_JSON_NUMBER:
        if (v->num == floor(v->num) && fabs(v->num) <= 9007199254740992.0)
            return gp_rdbv_int((int64_t)v->num);
        return gp_rdbv_num(v->num);
    case GP_JSON_STRING:
        return gp_rdbv_text(v->str);
    case GP_JSON_ARRAY:
    case GP_JSON_OBJECT:
        *json_out = gp_rdb_json_text(v);
        return gp_rdbv_text(*json_out);
    default:
        return gp_rdbv_null();
    }
}

/* ---- a record into its row ---- */

/* Texts made for one row, freed after it is queued. */
typedef struct {
    char *buf[64];
    size_t n;
    int oom;
} gp_rdb_texts;

static void gp_rdb_keep(gp_rdb_texts *t, char *s, int wanted)
{
    if (wanted && !s)
        t->oom = 1;
    if (s && t->n < sizeof t->buf / sizeof t->buf[0])
        t->buf[t->n++] = s;
    else
        free(s);
}

static void gp_rdb_texts_free(gp_rdb_texts *t)
{
    while (t->n)
        free(t->buf[--t->n]);
}

/* Fills vals[spec->first ..] from obj's keys; keys without a column go to
 * the extra column as a JSON object. */
static void gp_rdb_fill(const gp_rdb_spec *sp, const gp_json *obj, gp_rdbv *vals,
                        gp_rdb_texts *texts)
{
    size_t i, c;
    char *extra = NULL;
    size_t elen = 0;
    FILE *ef = NULL;
    for (c = sp->first; c < sp->ncols; c++)
        vals[c] = gp_rdbv_null();
    for (i = 0; obj->type == GP_JSON_OBJECT && i < obj->n; i++) {
        const gp_json *v = &obj->items[i];
        long k = gp_strindex_find(sp->ix, obj->keys[i], strlen(obj->keys[i]));
        int kind = k >= 0 ? sp->keys[k].kind : -1;
        char *json = NULL;
        if (kind == GP_RK_SKIP)
            continue;
        if ((kind == GP_RK_DIM3 || kind == GP_RK_PAIR) && v->type == GP_JSON_ARRAY &&
            v->n <= (kind == GP_RK_DIM3 ? 3u : 2u)) {
            size_t a;
            int scalars = 1;
            for (a = 0; a < v->n; a++)
                scalars &= v->items[a].type != GP_JSON_ARRAY && v->items[a].type != GP_JSON_OBJECT;
            if (scalars && v->n == (kind == GP_RK_DIM3 ? 3u : 2u)) {
                for (a = 0; a < v->n; a++) {
                    vals[sp->col[k] + a] = gp_rdbv_json(&v->items[a], &json);
                    gp_rdb_keep(texts, json, 0);
                }
                continue;
            }
        } else if (kind == GP_RK_COL || kind == GP_RK_JSON) {
            if (kind == GP_RK_JSON && v->type != GP_JSON_NULL) {
                json = gp_rdb_json_text(v);
                gp_rdb_keep(texts, json, 1);
                vals[sp->col[k]] = gp_rdbv_text(json);
            } else if (v->type != GP_JSON_ARRAY && v->type != GP_JSON_OBJECT) {
                vals[sp->col[k]] = gp_rdbv_json(v, &json);
            } else {
                kind = -1; /* not what the column holds: kept in extra */
            }
            if (kind >= 0)
                continue;
        }
        /* a key of no column, or a value of another shape than its column's */
        if (!ef && !(ef = open_memstream(&extra, &elen))) {
            texts->oom = 1;
            return;
        }
        fputc(ftell(ef) ? ',' : '{', ef);
        gp_text_json_string(ef, obj->keys[i]);
        fputc(':', ef);
        gp_rdb_json_write(ef, v);
    }
    if (ef) {
        fputc('}', ef);
        if (fclose(ef) != 0) {
            free(extra);
            extra = NULL;
        }
        gp_rdb_keep(texts, extra, 1);
        vals[sp->ncols - 1] = gp_rdbv_text(extra);
    }
}

static gp_rdbv gp_rdb_opt_int(long v, int have)
{
    return have ? gp_rdbv_int(v) : gp_rdbv_null();
}

/* The metric id of key i of a launch's metric object: the last launch's
 * when its keys are the same (records of one program repeat one list). */
static int64_t gp_rdb_launch_metric(gp_rdb *w, size_t i, const char *key)
{
    int64_t id;
    if (i < w->n_last && strcmp(w->last_keys[i], key) == 0)
        return w->last_ids[i];
    if ((id = gp_rdb_metric_id(w, 0, key)) < 0)
        return -1;
    if (i >= w->cap_last) {
        size_t nc = i + 64;
        char **nk = realloc(w->last_keys, nc * sizeof *nk);
        int64_t *ni = nk ? realloc(w->last_ids, nc * sizeof *ni) : NULL;
        if (nk)
            w->last_keys = nk;
        if (!ni)
            return id; /* no cache, still an id */
        w->last_ids = ni;
        w->cap_last = nc;
    }
    if (i < w->n_last)
        free(w->last_keys[i]);
    else if (i == w->n_last)
        w->n_last++;
    else
        return id;
    if (!(w->last_keys[i] = strdup(key))) {
        w->n_last = i; /* the cache ends before it */
        return id;
    }
    w->last_ids[i] = id;
    return id;
}

static int gp_rdb_launch(gp_rdb *w, const gp_report_record *rec)
{
    const gp_rdb_spec *sp = &gp_rdb_specs[GP_SPEC_LAUNCH];
    gp_rdbv vals[96], row[3];
    gp_rdb_texts texts = {.n = 0};
    const gp_json *m = gp_json_get(rec->obj, "metrics"), *miss = gp_json_get(rec->obj, "missing");
    int64_t id = ++w->n_launches;
    size_t i;
    int rc = -1;
    if (sp->ncols > sizeof vals / sizeof vals[0]) {
        gp_rdb_fail(w, "too many launch columns");
        return -1;
    }
    gp_rdb_fill(sp, rec->obj, vals, &texts);
    vals[0] = gp_rdbv_int(id);
    vals[1] = gp_rdbv_int(w->file_base + (int64_t)(rec->file - w->files_at_attach) + 1);
    vals[2] = gp_rdbv_int(rec->line);
    vals[3] = gp_rdbv_int(w->kernel_base + (int64_t)rec->kernel_seq + 1);
    vals[4] = gp_rdb_opt_int((long)(w->device_base + rec->dev + 1), rec->dev >= 0);
    /* a metrics or missing value that is no object: kept in extra */
    if ((m && m->type != GP_JSON_OBJECT) || (miss && miss->type != GP_JSON_OBJECT)) {
        gp_json sub = {.type = GP_JSON_OBJECT};
        char *keys[2], *extra;
        gp_json items[2];
        if (m && m->type != GP_JSON_OBJECT)
            keys[sub.n] = "metrics", items[sub.n++] = *m;
        if (miss && miss->type != GP_JSON_OBJECT)
            keys[sub.n] = "missing", items[sub.n++] = *miss;
        sub.keys = keys;
        sub.items = items;
        extra = gp_rdb_json_text(&sub);
        gp_rdb_keep(&texts, extra, 1);
        if (vals[sp->ncols - 1].type == GP_DB_NULL) /* else: rare enough to keep the first */
            vals[sp->ncols - 1] = gp_rdbv_text(extra);
    }
    if (texts.oom) {
        gp_rdb_fail(w, "out of memory");
        goto out;
    }
    if (gp_rdb_row(w, GP_RT_LAUNCH, vals, sp->ncols) < 0)
        goto out;
    row[0] = gp_rdbv_int(id);
    for (i = 0; m && m->type == GP_JSON_OBJECT && i < m->n; i++) {
        char *json = NULL;
        int64_t mid = gp_rdb_launch_metric(w, i, m->keys[i]);
        if (mid < 0)
            goto oom;
        row[1] = gp_rdbv_int(mid);
        row[2] = m->items[i].type == GP_JSON_NUMBER ? gp_rdbv_num(m->items[i].num)
                                                    : gp_rdbv_json(&m->items[i], &json);
        rc = gp_rdb_row(w, GP_RT_METRIC, row, 3);
        free(json);
        if (rc < 0)
            goto out;
    }
    for (i = 0; miss && miss->type == GP_JSON_OBJECT && i < miss->n; i++) {
        const char *why = gp_json_string(&miss->items[i]);
        char *json = why ? NULL : gp_rdb_json_text(&miss->items[i]);
        int64_t mid = gp_rdb_metric_id(w, 0, miss->keys[i]);
        int64_t rid = why || json ? gp_rdb_reason_id(w, why ? why : json) : -1;
        free(json);
        if (mid < 0 || rid < 0)
            goto oom;
        row[1] = gp_rdbv_int(mid);
        row[2] = gp_rdbv_int(rid);
        if (gp_rdb_row(w, GP_RT_MISSING, row, 3) < 0)
            goto out;
    }
    /* the derived metrics that have a value: an n/a one has no row (the
     * kernel's row in kernel_metrics says why) */
    for (i = 0; i < GP_DERIVED_COUNT; i++) {
        if (isnan(rec->derived->v[i]))
            continue;
        row[1] = gp_rdbv_int(gp_rdb_derived_ids[i]);
        row[2] = gp_rdbv_num(rec->derived->v[i]);
        if (gp_rdb_row(w, GP_RT_METRIC, row, 3) < 0)
            goto out;
    }
    rc = 0;
    goto out;
oom:
    gp_rdb_fail(w, "out of memory");
    rc = -1;
out:
    gp_rdb_texts_free(&texts);
    return rc;
}

static int gp_rdb_device(gp_rdb *w, const gp_report_record *rec)
{
    const gp_rdb_spec *sp = &gp_rdb_specs[GP_SPEC_DEVICE];
    gp_rdbv vals[64];
    gp_rdb_texts texts = {.n = 0};
    int rc;
    if (sp->ncols > sizeof vals / sizeof vals[0]) {
        gp_rdb_fail(w, "too many device columns");
        return -1;
    }
    gp_rdb_fill(sp, rec->obj, vals, &texts);
    vals[0] = gp_rdbv_int(w->device_base + rec->dev + 1);
    vals[1] = gp_rdb_opt_int(w->program_id, w->program_id > 0);
    vals[2] = gp_rdbv_int(w->file_base + (int64_t)(rec->file - w->files_at_attach) + 1);
    vals[3] = gp_rdbv_int(rec->line);
    vals[4] = gp_rdbv_null(); /* host and pid: the process that uses it, at the end */
    vals[5] = gp_rdbv_null();
    if (texts.oom) {
        gp_rdb_fail(w, "out of memory");
        rc = -1;
    } else {
        rc = gp_rdb_row(w, GP_RT_DEVICE, vals, sp->ncols);
    }
    gp_rdb_texts_free(&texts);
    return rc;
}

/* A variant_estimate record: its row and its metrics with their bounds and
 * reasons (the derived ones come with the finished report). */
static int gp_rdb_estimate(gp_rdb *w, const gp_report *r, const gp_report_record *rec)
{
    const gp_rdb_spec *sp = &gp_rdb_specs[GP_SPEC_ESTIMATE];
    const gp_json *m = gp_json_get(rec->obj, "metrics"), *b = gp_json_get(rec->obj, "bound"),
                  *miss = gp_json_get(rec->obj, "missing");
    gp_rdbv vals[64], row[5];
    gp_rdb_texts texts = {.n = 0};
    int64_t id = w->estimate_base + (int64_t)r->n_estimates; /* 1-based: the one just added */
    size_t i;
    int rc = -1;
    gp_rdb_fill(sp, rec->obj, vals, &texts);
    vals[0] = gp_rdbv_int(id);
    vals[1] = gp_rdbv_int(w->file_base + (int64_t)(rec->file - w->files_at_attach) + 1);
    vals[2] = gp_rdbv_int(rec->line);
    vals[3] = gp_rdbv_null(); /* its kernel: known once the report is finished */
    vals[4] = gp_rdbv_null();
    if (m && m->type != GP_JSON_OBJECT) { /* kept whole */
        char *json = gp_rdb_json_text(m);
        gp_rdb_keep(&texts, json, 1);
        if (vals[sp->ncols - 1].type == GP_DB_NULL)
            vals[sp->ncols - 1] = gp_rdbv_text(json);
    }
    if (texts.oom) {
        gp_rdb_fail(w, "out of memory");
        goto out;
    }
    if (gp_rdb_row(w, GP_RT_ESTIMATE, vals, sp->ncols) < 0)
        goto out;
    row[0] = gp_rdbv_int(id);
    for (i = 0; m && m->type == GP_JSON_OBJECT && i < m->n; i++) {
        const char *why = gp_json_string(gp_json_get(miss, m->keys[i]));
        const gp_json *bv = gp_json_get(b, m->keys[i]);
        int64_t mid = gp_rdb_metric_id(w, 0, m->keys[i]);
        int64_t rid = why ? gp_rdb_reason_id(w, why) : 0;
        char *json = NULL;
        if (mid < 0 || rid < 0) {
            gp_rdb_fail(w, "out of memory");
            goto out;
        }
        row[1] = gp_rdbv_int(mid);
        row[2] = m->items[i].type == GP_JSON_NUMBER ? gp_rdbv_num(m->items[i].num)
                                                    : gp_rdbv_json(&m->items[i], &json);
        row[3] = gp_rdbv_num(gp_json_number(bv));
        row[4] = why ? gp_rdbv_int(rid) : gp_rdbv_null();
        rc = gp_rdb_row(w, GP_RT_EMETRIC, row, 5);
        free(json);
        if (rc < 0)
            goto out;
    }
    rc = 0;
out:
    gp_rdb_texts_free(&texts);
    return rc;
}

/* The key of a function within its process: device, module, symbol. */
static char *gp_rdb_function_key(const gp_json *obj, size_t *len)
{
    char *k = NULL;
    const char *mod = gp_json_string(gp_json_get(obj, "module"));
    const char *sym = gp_json_string(gp_json_get(obj, "mangled"));
    int n = asprintf(&k, "%.0f%c%s%c%s", gp_json_number(gp_json_get(obj, "device")), 0,
                     mod ? mod : "", 0, sym ? sym : "");
    *len = n < 0 ? 0 : (size_t)n;
    return n < 0 ? NULL : k;
}

static int gp_rdb_function(gp_rdb *w, const gp_report_record *rec)
{
    const gp_rdb_spec *sp = &gp_rdb_specs[GP_SPEC_FUNCTION];
    gp_rdbv vals[32];
    gp_rdb_texts texts = {.n = 0};
    size_t klen;
    char *key;
    int rc = -1;
    if (rec->file != w->functions_file) { /* another input: other processes */
        gp_strindex_free(&w->functions);
        w->functions_file = rec->file;
    }
    if (!(key = gp_rdb_function_key(rec->obj, &klen)) ||
        gp_strindex_add(&w->functions, key, klen, (size_t)++w->n_functions) < 0) {
        free(key);
        gp_rdb_fail(w, "out of memory");
        return -1;
    }
    free(key);
    gp_rdb_fill(sp, rec->obj, vals, &texts);
    vals[0] = gp_rdbv_int(w->n_functions);
    vals[1] = gp_rdbv_int(w->file_base + (int64_t)(rec->file - w->files_at_attach) + 1);
    vals[2] = gp_rdbv_int(rec->line);
    if (texts.oom)
        gp_rdb_fail(w, "out of memory");
    else
        rc = gp_rdb_row(w, GP_RT_FUNCTION, vals, sp->ncols);
    gp_rdb_texts_free(&texts);
    return rc;
}

static int gp_rdb_instr(gp_rdb *w, const gp_report_record *rec)
{
    const gp_rdb_spec *sp = &gp_rdb_specs[GP_SPEC_INSTR];
    gp_rdbv vals[32], row[5];
    gp_rdb_texts texts = {.n = 0};
    const char *which[2] = {"stall", "stall_not_issued"};
    const gp_json *st[2];
    size_t klen, i;
    char *key = gp_rdb_function_key(rec->obj, &klen);
    long fn =
        key && rec->file == w->functions_file ? gp_strindex_find(w->functions, key, klen) : -1;
    int rc = -1;
    free(key);
    if (fn < 0) { /* no function record before it in this process: left out, counted */
        w->n_orphans++;
        return 0;
    }
    gp_rdb_fill(sp, rec->obj, vals, &texts);
    vals[0] = gp_rdbv_int(fn);
    if (texts.oom) {
        gp_rdb_fail(w, "out of memory");
        goto out;
    }
    if (gp_rdb_row(w, GP_RT_INSTR, vals, sp->ncols) < 0)
        goto out;
    /* the stall reasons, long: one row per reason with samples */
    for (int s = 0; s < 2; s++)
        st[s] = gp_json_get(rec->obj, which[s]);
    for (int s = 0; s < 2; s++)
        for (i = 0; st[s] && st[s]->type == GP_JSON_OBJECT && i < st[s]->n; i++) {
            const gp_json *other;
            if (s == 1 && st[0] && gp_json_get(st[0], st[1]->keys[i]))
                continue; /* written with its "stall" row */
            other = s == 0 ? gp_json_get(st[1], st[0]->keys[i]) : NULL;
            row[0] = gp_rdbv_int(fn);
            row[1] = vals[1];
            row[2] = gp_rdbv_text(st[s]->keys[i]);
            row[3] = s == 0 ? gp_rdbv_num(gp_json_number(&st[0]->items[i])) : gp_rdbv_null();
            row[4] = gp_rdbv_num(gp_json_number(s == 0 ? other : &st[1]->items[i]));
            if (gp_rdb_row(w, GP_RT_STALL, row, 5) < 0)
                goto out;
        }
    rc = 0;
out:
    gp_rdb_texts_free(&texts);
    return rc;
}

static int gp_rdb_summary(gp_rdb *w, const gp_report_record *rec)
{
    const gp_json *res = gp_json_get(rec->obj, "results");
    const gp_json *valid = gp_json_get(res, "valid");
    char *json = gp_rdb_json_text(rec->obj);
    gp_rdbv vals[9];
    int rc;
    gp_strindex_free(&w->functions); /* the next process's functions are its own */
    if (!json) {
        gp_rdb_fail(w, "out of memory");
        return -1;
    }
    vals[0] = gp_rdbv_int(++w->n_summaries);
    vals[1] = gp_rdbv_int(w->file_base + (int64_t)(rec->file - w->files_at_attach) + 1);
    vals[2] = gp_rdbv_int(rec->line);
    vals[3] = gp_rdbv_num(gp_json_number(gp_json_get(rec->obj, "launches_seen")));
    vals[4] = gp_rdbv_num(gp_json_number(gp_json_get(rec->obj, "launches_profiled")));
    vals[5] = gp_rdbv_num(gp_json_number(gp_json_get(rec->obj, "launches_failed")));
    vals[6] = valid && valid->type == GP_JSON_BOOL ? gp_rdbv_int(valid->num != 0) : gp_rdbv_null();
    vals[7] = gp_rdbv_text(gp_json_string(gp_json_get(res, "reason")));
    vals[8] = gp_rdbv_text(json);
    rc = gp_rdb_row(w, GP_RT_SUMMARY, vals, 9);
    free(json);
    return rc;
}

int gp_rdb_on_record(void *arg, const gp_report *r, const gp_report_record *rec)
{
    gp_rdb *w = arg;
    int rc = 0;
    if (w->failed)
        rc = -1;
    else if (rec->launch)
        rc = gp_rdb_launch(w, rec);
    else if (strcmp(rec->type, "device") == 0)
        rc = gp_rdb_device(w, rec);
    else if (strcmp(rec->type, "variant_estimate") == 0)
        rc = gp_rdb_estimate(w, r, rec);
    else if (strcmp(rec->type, "source_function") == 0)
        rc = gp_rdb_function(w, rec);
    else if (strcmp(rec->type, "source_instr") == 0)
        rc = gp_rdb_instr(w, rec);
    else if (strcmp(rec->type, "summary") == 0)
        rc = gp_rdb_summary(w, rec);
    /* other types: the report does not read them either */
    return w->keep_going ? 0 : rc;
}

void gp_rdb_attach(gp_rdb *w, gp_report *r, int stop_on_failure)
{
    w->keep_going = !stop_on_failure;
    size_t i;
    for (i = 0; i < GP_DERIVED_COUNT; i++)
        gp_rdb_derived_ids[i] =
            gp_strindex_find(w->names[1], gp_derived_defs[i].name, strlen(gp_derived_defs[i].name));
    w->files_at_attach = r->n_files;
    w->functions_file = (size_t)-1;
    r->on_record = gp_rdb_on_record;
    r->on_record_arg = w;
}
