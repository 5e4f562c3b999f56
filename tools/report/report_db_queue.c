/* report_db_queue.c - see report_db_int.h: the queue of rows and the
 * thread that writes them, the id spaces, the first failure kept.
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

int gp_rdb_chunk_init(gp_rdb_chunk *c)
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

void gp_rdb_chunk_free(gp_rdb_chunk *c)
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

void *gp_rdb_writer(void *arg)
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
int gp_rdb_known_names(gp_rdb *w)
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
