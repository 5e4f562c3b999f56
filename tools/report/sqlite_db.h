/* sqlite_db.h - the one boundary to SQLite (docs/report.md, "SQLite").
 *
 * libsqlite3.so.0 is loaded at run time (dlopen) the first time a database
 * is opened, so that building gpuprof needs no SQLite headers and only the
 * commands that write or read a database need the library; without it,
 * opening fails with one sentence that says what to install.  The rest of
 * the project sees these types and verbs only, never sqlite3.h.
 *
 * Errors are values: every verb returns 0 (or a row flag) or -1, and the
 * database keeps the first failure's sentence (gp_db_error): the path, what
 * SQLite said and the call that said it. */
#ifndef GP_SQLITE_DB_H
#define GP_SQLITE_DB_H

#include <stddef.h>
#include <stdint.h>

typedef struct gp_db gp_db;
typedef struct gp_db_stmt gp_db_stmt;

/* The column types gp_db_column_type reports (SQLite's storage classes). */
enum { GP_DB_INTEGER = 1, GP_DB_FLOAT = 2, GP_DB_TEXT = 3, GP_DB_BLOB = 4, GP_DB_NULL = 5 };

/* Loads the library (once; $GPUPROF_SQLITE names another file than
 * libsqlite3.so.0).  Returns 0, or -1 with a sentence in err. */
int gp_db_load(char *err, size_t errlen);

/* Opens the database file at path: writable (the file exists, empty or a
 * database) or read-only.  name is what messages call it (the final name of
 * a file written under a temporary one; NULL: path).  Returns the handle, or
 * NULL with a sentence naming it in err. */
gp_db *gp_db_open(const char *path, const char *name, int readonly, char *err, size_t errlen);
/* Closes the database (statements must be finalized).  Returns 0, or -1
 * when SQLite could not finish writing (err says why; NULL: not said). */
int gp_db_close(gp_db *db, char *err, size_t errlen);

/* The first failure's sentence ("" when none). */
const char *gp_db_error(const gp_db *db);

/* Runs SQL text without parameters (schema, pragmas, transactions).
 * Returns 0 or -1. */
int gp_db_exec(gp_db *db, const char *sql);

/* A prepared statement, NULL on failure (the reason in gp_db_error). */
gp_db_stmt *gp_db_prepare(gp_db *db, const char *sql);
void gp_db_finalize(gp_db_stmt *st);

/* Binds parameter i (1-based).  NULL text and NaN bind SQL NULL (a missing
 * value stays missing); text is copied and may hold any bytes but NUL: text
 * that is not UTF-8 is bound as a BLOB of its bytes (SQLite's TEXT is UTF-8,
 * and its readers decode it as such). */
int gp_db_bind_int(gp_db_stmt *st, int i, int64_t v);
int gp_db_bind_double(gp_db_stmt *st, int i, double v);
int gp_db_bind_text(gp_db_stmt *st, int i, const char *s);
int gp_db_bind_null(gp_db_stmt *st, int i);

/* Runs the statement one step.  Returns 1 with a row to read, 0 when done
 * (the statement is then reset for its next use), -1 on failure. */
int gp_db_step(gp_db_stmt *st);
/* Resets the statement after a step that left rows unread. */
void gp_db_reset(gp_db_stmt *st);

/* Column i (0-based) of the current row. */
int gp_db_column_type(gp_db_stmt *st, int i);
int64_t gp_db_column_int(gp_db_stmt *st, int i);
double gp_db_column_double(gp_db_stmt *st, int i);
const char *gp_db_column_text(gp_db_stmt *st, int i); /* NULL for SQL NULL */

/* The last row id an insert gave (an INTEGER PRIMARY KEY assigned). */
int64_t gp_db_last_id(gp_db *db);

#endif
