/* study_db.h - the whole study in one SQLite database, OUTDIR/summary/study.db
 * (docs/database.md): the programs with their status, wall times and Slurm
 * state, and every ok program's files, devices, launches with their raw and
 * derived metrics, kernels, verdicts, estimates and instruction records,
 * each kernel and file marked with its program.  Written by the same writer
 * as `gpuprof-report --format sqlite` (tools/report/report_db.h), while the
 * summary loads the programs' files, so each file is read once. */
#ifndef GPC_STUDY_DB_H
#define GPC_STUDY_DB_H

#include <stddef.h>

#include "summary.h"

#define GPC_STUDY_DB_FILE "study.db"

typedef struct gpc_study_db gpc_study_db;

/* Starts out_dir/study.db (replacing one there at the end) and hooks it into
 * s, before gpc_summary_finish.  Returns the writer, or NULL with the reason
 * in err (the summary then goes on without a database). */
gpc_study_db *gpc_study_db_start(gpc_summary *s, const char *out_dir, char *err, size_t errlen);

/* After gpc_summary_finish: the programs table, then the file under its
 * name.  Returns 0, or -1 with the reason in err; d is freed either way. */
int gpc_study_db_finish(gpc_study_db *d, const gpc_summary *s, char *err, size_t errlen);

/* Drops the database (the summary failed); d is freed. */
void gpc_study_db_discard(gpc_study_db *d);

#endif
