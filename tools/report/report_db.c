/* report_db.c - see report_db.h: the file (created under a temporary name,
 * renamed at the end), its schema and meta, the writer thread started and
 * joined (report_db_queue.c holds the queue the rows go through). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gpuprof.h"
#include "metrics/catalog/derived.h"
#include "report_db_int.h"

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
