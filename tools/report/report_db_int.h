/* report_db_int.h - inside the database writer (report_db.h): the tables'
 * insert statements, the queue of rows between the report's reading and
 * SQLite, and the id spaces.  Shared by report_db.c (file, meta, commit),
 * report_db_queue.c (the queue, its thread, the id spaces),
 * report_db_records.c (records as they are read) and report_db_model.c
 * (the finished report: kernels, verdicts, estimates). */
#ifndef GP_REPORT_DB_INT_H
#define GP_REPORT_DB_INT_H

#include <pthread.h>
#include <stdint.h>

#include "metrics/records/json.h"
#include "report_db.h"
#include "util/safefile.h"
#include "util/strindex.h"

/* The statements rows are queued for: an INSERT into a table of the
 * schema, or one of the updates below (report_db_schema.c). */
typedef enum {
    GP_RT_PROGRAM,
    GP_RT_FILE,
    GP_RT_NAME,
    GP_RT_REASON,
    GP_RT_DEVICE,
    GP_RT_LAUNCH,
    GP_RT_METRIC,
    GP_RT_MISSING,
    GP_RT_ESTIMATE,
    GP_RT_EMETRIC,
    GP_RT_FUNCTION,
    GP_RT_INSTR,
    GP_RT_STALL,
    GP_RT_SUMMARY,
    GP_RT_KERNEL,
    GP_RT_KMETRIC,
    GP_RT_VERDICT,
    GP_RT_DEVPROC,   /* a device's process: host, pid, id */
    GP_RT_ESTKERNEL, /* an estimate's kernel: kernel_id, id */
    GP_RT_COUNT
} gp_rdb_table;

/* One value of a queued row: SQL NULL, an integer, a double or a text
 * (kept in the chunk's text area). */
typedef struct {
    int type; /* GP_DB_NULL, GP_DB_INTEGER, GP_DB_FLOAT, GP_DB_TEXT */
    union {
        int64_t i;
        double d;
        size_t off;
    } u;
} gp_rdbv;

typedef struct {
    uint16_t table, n;
    uint32_t first; /* its values: vals[first .. first + n) */
} gp_rdb_op;

/* Rows on their way to SQLite: filled by the reading thread, written by the
 * writing thread, two of them in turn (memory stays at two chunks). */
typedef struct {
    gp_rdb_op *ops;
    size_t n_ops, cap_ops;
    gp_rdbv *vals;
    size_t n_vals, cap_vals;
    char *text;
    size_t n_text, cap_text;
} gp_rdb_chunk;

/* Rows of the long metric table per INSERT statement. */
#define GP_RDB_BATCH 64

struct gp_rdb {
    gp_safefile sf; /* the temporary file and the final name */
    gp_db *db;
    int force;
    char err[1024];
    gp_db_stmt *ins[GP_RT_COUNT];
    gp_db_stmt *metric_batch;        /* GP_RDB_BATCH rows of metrics */
    gp_rdbv batch[GP_RDB_BATCH * 3]; /* rows waiting for metric_batch */
    size_t n_batch;
    const gp_rdb_chunk *batch_chunk; /* the chunk whose text they use */
    /* the queue */
    gp_rdb_chunk chunk[2];
    int filling;     /* the chunk the reader fills */
    int writer_busy; /* the writer has the other one */
    int writer_on;   /* a writer thread runs */
    int writer_quit;
    int failed;     /* a write failed: err says why */
    int keep_going; /* a failure does not stop the report's loading */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* ids */
    long program_id; /* 0: none */
    int64_t file_base, device_base, kernel_base, estimate_base;
    int64_t n_files, n_launches, n_estimates, n_functions;
    int64_t n_names, n_reasons, n_summaries;
    long n_orphans;    /* instruction records without their function */
    long n_bad_lines;  /* malformed lines of the reports added */
    double suite_time; /* s, for the kernels' suite shares; NaN: none */
    char **meta;       /* key, value, key, value ... for the meta table */
    size_t n_meta;
    size_t files_at_attach;
    gp_strindex *names[2];    /* [0] counters, [1] derived: name -> metric id */
    gp_strindex *reasons;     /* text -> reason id */
    gp_strindex *functions;   /* device, module, symbol -> function id (this process) */
    size_t functions_file;    /* the input whose functions those are */
    gp_strindex *launch_keys; /* launch record key -> launch column */
    int64_t *last_ids;        /* metric ids of the last launch's metric keys */
    char **last_keys;
    size_t n_last, cap_last;
};

/* Queues one row of n values for table t; strings are copied.  Returns 0,
 * or -1 when the writing failed (w->err). */
int gp_rdb_row(gp_rdb *w, gp_rdb_table t, const gp_rdbv *vals, size_t n);
/* Values, for the rows. */
gp_rdbv gp_rdbv_int(int64_t i);
gp_rdbv gp_rdbv_num(double d); /* NaN: NULL */
gp_rdbv gp_rdbv_null(void);
/* Text values are queued by pointer and copied by gp_rdb_row. */
gp_rdbv gp_rdbv_text(const char *s); /* NULL: NULL */
/* A JSON value as a column: number, text, 0/1, NULL, or arrays and objects
 * as JSON text (json_out: a buffer the caller frees after the row). */
gp_rdbv gp_rdbv_json(const gp_json *v, char **json_out);
/* A JSON value as JSON text into a new string (NULL out of memory). */
char *gp_rdb_json_text(const gp_json *v);

/* The id of metric name of kind 0 (counter) or 1 (derived), a new one
 * queued when unseen; -1 out of memory. */
int64_t gp_rdb_metric_id(gp_rdb *w, int derived, const char *name);
/* The id of a reason text, queued when unseen; -1 out of memory. */
int64_t gp_rdb_reason_id(gp_rdb *w, const char *text);

/* Every row queued so far written, the writer thread stopped.  Returns 0 or
 * -1.  Afterwards the database is the caller's (single thread). */
int gp_rdb_drain(gp_rdb *w);
/* Sets w->err once (the first failure wins) and w->failed. */
void gp_rdb_fail(gp_rdb *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* For report_db.c: a chunk's buffers (0 or -1), freed; the writer thread's
 * body (arg: the gp_rdb); the catalog's metrics queued first, with their
 * units and descriptions (0 or -1). */
int gp_rdb_chunk_init(gp_rdb_chunk *c);
void gp_rdb_chunk_free(gp_rdb_chunk *c);
void *gp_rdb_writer(void *arg);
int gp_rdb_known_names(gp_rdb *w);

/* report_db_records.c: the stream hook (gp_report.on_record). */
int gp_rdb_on_record(void *arg, const gp_report *r, const gp_report_record *rec);
/* The launch columns' key index (once per writer).  0 or -1. */
int gp_rdb_records_init(gp_rdb *w);
/* Column lists of the record tables, for the schema: "name TYPE, ...". */
extern const char gp_rdb_launch_columns[];
extern const char gp_rdb_device_columns[];

/* report_db_schema.c: the tables, views and indexes. */
int gp_rdb_create_schema(gp_rdb *w);
extern const char gp_rdb_index_sql[];
/* The statements of the queue, w->ins[] and w->metric_batch.  0 or -1. */
int gp_rdb_prepare_inserts(gp_rdb *w);

#endif
