/* report_db.h - the report in an SQLite database (docs/database.md): the
 * files, devices, launches with their raw and derived metrics (long format:
 * one row per launch and metric), kernels with their aggregated metrics and
 * verdicts, replay mode none's estimates, the instruction-level records and
 * the processes' summaries; written by `gpuprof-report --format sqlite` and,
 * with its programs, as characterize's summary/study.db.
 *
 * Records are streamed into the database as the report reads them
 * (gp_report.on_record): memory follows the kernels, never the launches.
 * The file is written under a temporary name in its directory and renamed
 * at the end (util/safefile.h), so a kill leaves no half-written database
 * under the final name; its meta table says "complete" only once whole. */
#ifndef GP_REPORT_DB_H
#define GP_REPORT_DB_H

#include <stddef.h>

#include "metrics/model/load.h"
#include "sqlite_db.h"

#define GP_RDB_FORMAT "gpuprof-db/1"

typedef struct gp_rdb gp_rdb;

/* Creates the database for path: refused when path exists, unless force
 * (then replaced at the end); tool names the writer in its meta table.
 * in_own_folder: path is in a folder the writer made, where others' programs
 * write too (characterize's summary): nothing at path is followed, only
 * replaced (gp_safefile_create); otherwise path is opened as the report's
 * other outputs are (gp_safefile_open: a link of the user's followed), and
 * must be a regular file.  Returns the writer, or NULL with one sentence
 * in err. */
gp_rdb *gp_rdb_create(const char *path, int force, int in_own_folder, const char *tool, char *err,
                      size_t errlen);

/* The program (its programs.id, 1-based) whose files the next loads read;
 * 0: none (gpuprof-report's own database). */
void gp_rdb_set_program(gp_rdb *w, long program_id);

/* Streams every valid record r reads from now on into the database: sets
 * r->on_record.  A write failure stops the loading (r->stopped) when
 * stop_on_failure; otherwise the report reads on and the database is lost
 * (gp_rdb_error says why). */
void gp_rdb_attach(gp_rdb *w, gp_report *r, int stop_on_failure);

/* After gp_report_finish(r): its kernels (ranked), their aggregated metrics
 * and verdicts, the estimates' derived metrics and the devices' processes.
 * suite_time: the suite's kernel time for each kernel's suite share (s;
 * NaN: none).  Returns 0, or -1 (gp_rdb_error says why). */
int gp_rdb_add_report(gp_rdb *w, const gp_report *r, double suite_time);

/* A row of the programs table (study.db): id, then name, status, message,
 * cmd, dir, gpu as text, the wall times and slowdown (NaN: NULL), kernels,
 * launches (-1: NULL), kernel time, and Slurm's job, state and reason (NULL
 * when none).  Returns 0 or -1. */
typedef struct {
    long id;
    const char *name, *status, *message, *cmd, *dir, *gpu;
    double native_wall_s, profiled_wall_s, slowdown;
    long kernels, launches;
    double kernel_time_s;
    const char *slurm_job, *slurm_state, *slurm_reason;
} gp_rdb_program;
int gp_rdb_add_program(gp_rdb *w, const gp_rdb_program *p);

/* The suite's kernel time (s; NaN: none): every kernel's
 * suite_time_share_pct is its share of it, set at commit.  Returns 0. */
int gp_rdb_set_suite_time(gp_rdb *w, double seconds);

/* Adds key = value to the meta table (at commit).  Returns 0 or -1. */
int gp_rdb_set_meta(gp_rdb *w, const char *key, const char *value);

/* The first failure, one sentence. */
const char *gp_rdb_error(const gp_rdb *w);

/* Indexes, the meta table's "complete", then the file under its final
 * name.  Returns 0, or -1 with the reason in err; w is freed either way. */
int gp_rdb_commit(gp_rdb *w, char *err, size_t errlen);

/* Removes the temporary file; w is freed. */
void gp_rdb_discard(gp_rdb *w);

#endif
