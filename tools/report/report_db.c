/* report_db.c - see report_db.h: the file (created under a temporary name,
 * renamed at the end), the queue of rows and the thread that writes them.
 *
 * Reading records (JSON, derived metrics) and writing rows (SQLite) each
 * take about half the time of an import; the reader queues rows into one
 * chunk while a writer thread writes the other, so the two run side by side
 * with memory bounded by two chunks. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpuprof.h"
#include "metrics/catalog/derived.h"
#include "report_db_int.h"

/* A chunk is handed over when it holds this much. */
#define GP_RDB_CHUNK_VALS (1 << 17)
#define GP_RDB_CHUNK_TEXT (2 << 20)

void gp_rdb_fail(gp_rdb *w, const char *fmt, ...)
{
    va_list ap;
    if (!w->err[0]) {
        va_start(ap, fmt);
        vsnprintf(w->err, sizeof w->err, fmt, ap);
        va_end(ap);
    }
    w->failed = 1;
}

const char *gp_rdb_error(const gp_rdb *w)
{
    return w->err[0] ? w->err : "unknown failure";
}

gp_rdbv gp_rdbv_int(int64_t i)
{
    gp_rdbv v = {GP_DB_INTEGER, {.i = i}};
    return v;
}

gp_rdbv gp_rdbv_num(double d)
{
    gp_rdbv v = {isnan(d) ? GP_DB_NULL : GP_DB_FLOAT, {.d = d}};
    return v;
}

gp_rdbv gp_rdbv_null(void)
{
    gp_rdbv v = {GP_DB_NULL, {.i = 0}};
    return v;
}

/* Until gp_rdb_row copies it, a text value holds its pointer. */
gp_rdbv gp_rdbv_text(const char *s)
{
    gp_rdbv v = {s ? GP_DB_TEXT : GP_DB_NULL, {.off = (size_t)(uintptr_t)s}};
    return v;
}

/* ---- the queue ---- */

static int gp_rdb_chunk_init(gp_rdb_chunk *c)
{
    memset(c, 0, sizeof *c);
    c->cap_ops = GP_RDB_CHUNK_VALS / 2;
    c->cap_vals = GP_RDB_CHUNK_VALS + 1024;
    c->cap_text = GP_RDB_CHUNK_TEXT;
    c->ops = malloc(c->cap_ops * sizeof *c->ops);
    c->vals = malloc(c->cap_vals * sizeof *c->vals);
    c->text = malloc(c->cap_text);
    return c->ops && c->vals && c->text ? 0 : -1;
}

static void gp_rdb_chunk_free(gp_rdb_chunk *c)
{
    free(c->ops);
    free(c->vals);
    free(c->text);
    memset(c, 0, sizeof *c);
}

static int gp_rdb_bind(gp_rdb *w, gp_db_stmt *st, int at, const gp_rdbv *v, const gp_rdb_chunk *c)
{
    switch (v->type) {
    case GP_DB_INTEGER:
        return gp_db_bind_int(st, at, v->u.i);
    case GP_DB_FLOAT:
        return gp_db_bind_double(st, at, v->u.d);
    case GP_DB_TEXT:
        return gp_db_bind_text(st, at, c->text + v->u.off);
    default:
        return gp_db_bind_null(st, at);
    }
}

/* The metric rows waiting for a full batch. */
static int gp_rdb_flush_batch(gp_rdb *w, const gp_rdb_chunk *c)
{
    size_t i, j;
    if (w->n_batch == GP_RDB_BATCH) {
        for (i = 0; i < 3 * GP_RDB_BATCH; i++)
            if (gp_rdb_bind(w, w->metric_batch, (int)i + 1, &w->batch[i], c) < 0)
                return -1;
        if (gp_db_step(w->metric_batch) < 0)
            return -1;
    } else {
        for (i = 0; i < w->n_batch; i++) {
            for (j = 0; j < 3; j++)
                if (gp_rdb_bind(w, w->ins[GP_RT_METRIC], (int)j + 1, &w->batch[3 * i + j], c) < 0)
                    return -1;
            if (gp_db_step(w->ins[GP_RT_METRIC]) < 0)
                return -1;
        }
    }
    w->n_batch = 0;
    return 0;
}

/* Writes a chunk's rows (in the writer thread, or in the reader's when
 * there is none).  Returns 0 or -1 (the database's error). */
static int gp_rdb_write_chunk(gp_rdb *w, gp_rdb_chunk *c)
{
    size_t o, i;
    for (o = 0; o < c->n_ops; o++) {
        const gp_rdb_op *op = &c->ops[o];
        const gp_rdbv *v = &c->vals[op->first];
        gp_db_stmt *st = w->ins[op->table];
        if (op->table == GP_RT_METRIC) {
            memcpy(&w->batch[3 * w->n_batch], v, 3 * sizeof *v);
            if (++w->n_batch == GP_RDB_BATCH && gp_rdb_flush_batch(w, c) < 0)
                return -1;
            continue;
        }
        for (i = 0; i < op->n; i++)
            if (gp_rdb_bind(w, st, (int)i + 1, &v[i], c) < 0)
                return -1;
        if (gp_db_step(st) < 0)
            return -1;
    }
    if (gp_rdb_flush_batch(w, c) < 0)
        return -1;
    c->n_ops = c->n_vals = c->n_text = 0;
    return 0;
}

static void *gp_rdb_writer(void *arg)
{
    gp_rdb *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        int other;
        while (!w->writer_busy && !w->writer_quit)
            pthread_cond_wait(&w->cv, &w->mu);
        if (!w->writer_busy)
            break;
        other = 1 - w->filling;
        pthread_mutex_unlock(&w->mu);
        int rc = w->failed ? -1 : gp_rdb_write_chunk(w, &w->chunk[other]);
        pthread_mutex_lock(&w->mu);
        if (rc < 0 && !w->failed)
            gp_rdb_fail(w, "%s", gp_db_error(w->db));
        w->chunk[other].n_ops = w->chunk[other].n_vals = w->chunk[other].n_text = 0;
        w->writer_busy = 0;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Hands the filled chunk to the writer and takes the other one (waiting
 * for the writer to finish it). */
static int gp_rdb_handover(gp_rdb *w)
{
    if (!w->writer_on) {
        if (gp_rdb_write_chunk(w, &w->chunk[w->filling]) < 0) {
            gp_rdb_fail(w, "%s", gp_db_error(w->db));
            return -1;
        }
        return 0;
    }
    pthread_mutex_lock(&w->mu);
    while (w->writer_busy)
        pthread_cond_wait(&w->cv, &w->mu);
    w->filling = 1 - w->filling;
    w->writer_busy = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return w->failed ? -1 : 0;
}

int gp_rdb_row(gp_rdb *w, gp_rdb_table t, const gp_rdbv *vals, size_t n)
{
    gp_rdb_chunk *c = &w->chunk[w->filling];
    size_t i, text = 0;
    if (w->failed)
        return -1;
    for (i = 0; i < n; i++)
        if (vals[i].type == GP_DB_TEXT)
            text += strlen((const char *)(uintptr_t)vals[i].u.off) + 1;
    if (c->n_ops == c->cap_ops || c->n_vals + n > c->cap_vals || c->n_text + text > c->cap_text) {
        if (c->n_ops && gp_rdb_handover(w) < 0)
            return -1;
        c = &w->chunk[w->filling];
        if (n > c->cap_vals || text > c->cap_text) { /* one row larger than a chunk */
            gp_rdbv *nv = n > c->cap_vals ? realloc(c->vals, n * sizeof *nv) : c->vals;
            char *nt = text > c->cap_text ? realloc(c->text, text) : c->text;
            if (nv)
                c->vals = nv, c->cap_vals = n > c->cap_vals ? n : c->cap_vals;
            if (nt)
                c->text = nt, c->cap_text = text > c->cap_text ? text : c->cap_text;
            if (!nv || !nt) {
                gp_rdb_fail(w, "out of memory");
                return -1;
            }
        }
    }
    c->ops[c->n_ops].table = (uint16_t)t;
    c->ops[c->n_ops].n = (uint16_t)n;
    c->ops[c->n_ops].first = (uint32_t)c->n_vals;
    c->n_ops++;
    for (i = 0; i < n; i++) {
        gp_rdbv v = vals[i];
        if (v.type == GP_DB_TEXT) {
            const char *s = (const char *)(uintptr_t)v.u.off;
            size_t len = strlen(s) + 1;
            memcpy(c->text + c->n_text, s, len);
            v.u.off = c->n_text;
            c->n_text += len;
        }
        c->vals[c->n_vals++] = v;
    }
    return 0;
}

int gp_rdb_drain(gp_rdb *w)
{
    if (!w->failed && w->chunk[w->filling].n_ops)
        gp_rdb_handover(w);
    if (w->writer_on) {
        pthread_mutex_lock(&w->mu);
        while (w->writer_busy)
            pthread_cond_wait(&w->cv, &w->mu);
        w->writer_quit = 1;
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
        pthread_join(w->thread, NULL);
        w->writer_on = 0;
    }
    return w->failed ? -1 : 0;
}

/* ---- names and reasons ---- */

int64_t gp_rdb_metric_id(gp_rdb *w, int derived, const char *name)
{
    size_t len = strlen(name);
    long at = gp_strindex_find(w->names[derived], name, len);
    gp_rdbv row[5];
    if (at >= 0)
        return at;
    if (gp_strindex_add(&w->names[derived], name, len, (size_t)++w->n_names) < 0)
        return -1;
    row[0] = gp_rdbv_int(w->n_names);
    row[1] = gp_rdbv_text(derived ? "derived" : "counter");
    row[2] = gp_rdbv_text(name);
    row[3] = gp_rdbv_null();
    row[4] = gp_rdbv_null();
    return gp_rdb_row(w, GP_RT_NAME, row, 5) < 0 ? -1 : w->n_names;
}

/* The known metrics first, with their units and descriptions: the derived
 * ones of derived.def, then the counters of counters.def. */
static int gp_rdb_known_names(gp_rdb *w)
{
    static const struct {
        const char *name, *unit, *desc;
    } counters[] = {
#define GP_COUNTER(name, unit, cls, set, desc) {name, unit, desc},
#include "metrics/catalog/counters.def"
#undef GP_COUNTER
    };
    size_t i;
    for (i = 0; i < GP_DERIVED_COUNT + sizeof counters / sizeof counters[0]; i++) {
        int derived = i < GP_DERIVED_COUNT;
        const char *name = derived ? gp_derived_defs[i].name : counters[i - GP_DERIVED_COUNT].name;
        size_t len = strlen(name);
        gp_rdbv row[5];
        if (gp_strindex_find(w->names[derived], name, len) >= 0)
            continue;
        if (gp_strindex_add(&w->names[derived], name, len, (size_t)++w->n_names) < 0)
            return -1;
        row[0] = gp_rdbv_int(w->n_names);
        row[1] = gp_rdbv_text(derived ? "derived" : "counter");
        row[2] = gp_rdbv_text(name);
        row[3] =
            gp_rdbv_text(derived ? gp_derived_defs[i].unit : counters[i - GP_DERIVED_COUNT].unit);
        row[4] = gp_rdbv_text(derived ? gp_derived_defs[i].description
                                      : counters[i - GP_DERIVED_COUNT].desc);
        if (gp_rdb_row(w, GP_RT_NAME, row, 5) < 0)
            return -1;
    }
    return 0;
}

int64_t gp_rdb_reason_id(gp_rdb *w, const char *text)
{
    size_t len = strlen(text);
    long at = gp_strindex_find(w->reasons, text, len);
    gp_rdbv row[2];
    if (at >= 0)
        return at;
    if (gp_strindex_add(&w->reasons, text, len, (size_t)++w->n_reasons) < 0)
        return -1;
    row[0] = gp_rdbv_int(w->n_reasons);
    row[1] = gp_rdbv_text(text);
    return gp_rdb_row(w, GP_RT_REASON, row, 2) < 0 ? -1 : w->n_reasons;
}

/* ---- the file ---- */

static int gp_rdb_meta(gp_rdb *w, const char *key, const char *value)
{
    gp_db_stmt *st = gp_db_prepare(w->db, "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)");
    int rc = st && gp_db_bind_text(st, 1, key) == 0 && gp_db_bind_text(st, 2, value) == 0 &&
                     gp_db_step(st) == 0
                 ? 0
                 : -1;
    gp_db_finalize(st);
    if (rc < 0)
        gp_rdb_fail(w, "%s", gp_db_error(w->db));
    return rc;
}

gp_rdb *gp_rdb_create(const char *path, int force, int in_own_folder, const char *tool, char *err,
                      size_t errlen)
{
    gp_rdb *w;
    struct stat st;
    if (gp_db_load(err, errlen) < 0)
        return NULL;
    if (lstat(path, &st) == 0 && !force) {
        snprintf(err, errlen, "%s exists: give --force to replace it (nothing was written)", path);
        return NULL;
    }
    if (!(w = calloc(1, sizeof *w))) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    w->force = force;
    w->suite_time = NAN;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    if ((in_own_folder ? gp_safefile_create(&w->sf, path, err, errlen)
                       : gp_safefile_open(&w->sf, path, err, errlen)) < 0) {
        free(w);
        return NULL;
    }
    if (!w->sf.tmp) { /* a pipe or a device */
        snprintf(err, errlen, "cannot write %s: a database must be a regular file", path);
        gp_safefile_discard(&w->sf);
        free(w);
        return NULL;
    }
    fflush(w->sf.f);
    if (!(w->db = gp_db_open(w->sf.tmp, path, 0, err, errlen)))
        goto fail;
    /* no journal: a failed or killed write leaves only the temporary file,
     * which is removed (or left under its temporary name), never the
     * database under its name */
    /* the schema and the meta table are on disk before the rows (each its
     * own transaction), so a file a kill left says "complete: no" */
    if (gp_db_exec(w->db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
                          "PRAGMA locking_mode=EXCLUSIVE; PRAGMA cache_size=-16384;") < 0 ||
        gp_rdb_create_schema(w) < 0 || gp_rdb_meta(w, "format", GP_RDB_FORMAT) < 0 ||
        gp_rdb_meta(w, "writer", tool) < 0 || gp_rdb_meta(w, "version", GPUPROF_VERSION) < 0 ||
        gp_rdb_meta(w, "complete", "no") < 0 || gp_rdb_prepare_inserts(w) < 0 ||
        gp_rdb_records_init(w) < 0 || gp_db_exec(w->db, "BEGIN") < 0) {
        snprintf(err, errlen, "cannot write %s", w->err[0] ? w->err : gp_db_error(w->db));
        goto fail;
    }
    if (gp_rdb_chunk_init(&w->chunk[0]) < 0 || gp_rdb_chunk_init(&w->chunk[1]) < 0 ||
        gp_rdb_known_names(w) < 0) {
        snprintf(err, errlen, "cannot write %s", w->err[0] ? w->err : "out of memory");
        goto fail;
    }
    /* a second core writes while the first reads; one core: inline */
    if (sysconf(_SC_NPROCESSORS_ONLN) > 1 && !getenv("GPUPROF_DB_NO_THREAD") &&
        pthread_create(&w->thread, NULL, gp_rdb_writer, w) == 0)
        w->writer_on = 1;
    return w;
fail:
    gp_rdb_discard(w);
    return NULL;
}

int gp_rdb_add_program(gp_rdb *w, const gp_rdb_program *p)
{
    gp_rdbv row[16] = {gp_rdbv_int(p->id),
                       gp_rdbv_text(p->name),
                       gp_rdbv_text(p->status),
                       gp_rdbv_text(p->message),
                       gp_rdbv_text(p->cmd),
                       gp_rdbv_text(p->dir),
                       gp_rdbv_text(p->gpu),
                       gp_rdbv_num(p->native_wall_s),
                       gp_rdbv_num(p->profiled_wall_s),
                       gp_rdbv_num(p->slowdown),
                       p->kernels >= 0 ? gp_rdbv_int(p->kernels) : gp_rdbv_null(),
                       p->launches >= 0 ? gp_rdbv_int(p->launches) : gp_rdbv_null(),
                       gp_rdbv_num(p->kernel_time_s),
                       gp_rdbv_text(p->slurm_job),
                       gp_rdbv_text(p->slurm_state),
                       gp_rdbv_text(p->slurm_reason)};
    return gp_rdb_row(w, GP_RT_PROGRAM, row, 16);
}

int gp_rdb_set_suite_time(gp_rdb *w, double seconds)
{
    w->suite_time = seconds;
    return 0;
}

int gp_rdb_set_meta(gp_rdb *w, const char *key, const char *value)
{
    char **nm = realloc(w->meta, (w->n_meta + 2) * sizeof *nm);
    if (!nm) {
        gp_rdb_fail(w, "out of memory");
        return -1;
    }
    w->meta = nm;
    nm[w->n_meta] = strdup(key);
    nm[w->n_meta + 1] = strdup(value ? value : "");
    w->n_meta += 2;
    if (!nm[w->n_meta - 2] || !nm[w->n_meta - 1]) {
        gp_rdb_fail(w, "out of memory");
        return -1;
    }
    return 0;
}

void gp_rdb_set_program(gp_rdb *w, long program_id)
{
    w->program_id = program_id;
}

static void gp_rdb_free(gp_rdb *w)
{
    size_t i;
    if (w->writer_on) {
        pthread_mutex_lock(&w->mu);
        w->writer_quit = 1;
        w->failed = 1; /* the writer skips what is left */
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
        pthread_join(w->thread, NULL);
    }
    for (i = 0; i < GP_RT_COUNT; i++)
        gp_db_finalize(w->ins[i]);
    gp_db_finalize(w->metric_batch);
    gp_db_close(w->db, NULL, 0);
    gp_rdb_chunk_free(&w->chunk[0]);
    gp_rdb_chunk_free(&w->chunk[1]);
    gp_strindex_free(&w->names[0]);
    gp_strindex_free(&w->names[1]);
    gp_strindex_free(&w->reasons);
    gp_strindex_free(&w->functions);
    gp_strindex_free(&w->launch_keys);
    for (i = 0; i < w->n_last; i++)
        free(w->last_keys[i]);
    free(w->last_keys);
    free(w->last_ids);
    for (i = 0; i < w->n_meta; i++)
        free(w->meta[i]);
    free(w->meta);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w);
}

void gp_rdb_discard(gp_rdb *w)
{
    if (!w)
        return;
    gp_safefile_discard(&w->sf); /* removes the temporary file */
    gp_rdb_free(w);
}

int gp_rdb_commit(gp_rdb *w, char *err, size_t errlen)
{
    size_t i;
    int rc = -1;
    if (gp_rdb_drain(w) < 0)
        goto out;
    for (i = 0; i < GP_RT_COUNT; i++) {
        gp_db_finalize(w->ins[i]);
        w->ins[i] = NULL;
    }
    gp_db_finalize(w->metric_batch);
    w->metric_batch = NULL;
    {
        char n[64];
        snprintf(n, sizeof n, "%ld", w->n_bad_lines);
        if (gp_rdb_meta(w, "bad_lines", n) < 0)
            goto out;
        snprintf(n, sizeof n, "%ld", w->n_orphans);
        if (w->n_orphans && gp_rdb_meta(w, "instructions_without_function", n) < 0)
            goto out;
        for (i = 0; i + 1 < w->n_meta; i += 2)
            if (gp_rdb_meta(w, w->meta[i], w->meta[i + 1]) < 0)
                goto out;
    }
    if (w->suite_time > 0) {
        gp_db_stmt *st =
            gp_db_prepare(w->db, "UPDATE kernels SET suite_time_share_pct = "
                                 "100.0 * duration_s / ? WHERE duration_s IS NOT NULL");
        int bad = !st || gp_db_bind_double(st, 1, w->suite_time) < 0 || gp_db_step(st) < 0;
        gp_db_finalize(st);
        if (bad) {
            gp_rdb_fail(w, "%s", gp_db_error(w->db));
            goto out;
        }
    }
    if (gp_db_exec(w->db, gp_rdb_index_sql) < 0 || gp_rdb_meta(w, "complete", "yes") < 0 ||
        gp_db_exec(w->db, "COMMIT") < 0) {
        gp_rdb_fail(w, "%s", gp_db_error(w->db));
        goto out;
    }
    if (gp_db_close(w->db, err, errlen) < 0) {
        w->db = NULL;
        gp_rdb_fail(w, "%s", err);
        goto out;
    }
    w->db = NULL;
    rc = gp_safefile_commit(&w->sf, err, errlen);
    gp_rdb_free(w);
    return rc;
out:
    snprintf(err, errlen, "cannot write %s (nothing written under that name)", gp_rdb_error(w));
    gp_rdb_discard(w);
    return -1;
}
