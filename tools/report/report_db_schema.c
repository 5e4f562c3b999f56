/* report_db_schema.c - the database's tables and indexes (docs/database.md
 * documents them; tests/report/test_report_db.sh checks the page against
 * this file's tables).  The launch and device tables have one column per
 * field of the records (metrics/records/record_fields.def), so a field added there
 * is a column here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_db_int.h"

/* A record field's column(s), by its kind in record_fields.def. */
#define GP_RDB_L_U64(key) ", " key " INTEGER"
#define GP_RDB_L_LONG(key) ", " key " INTEGER"
#define GP_RDB_L_INT(key) ", " key " INTEGER"
#define GP_RDB_L_STR(key) ", " key " TEXT"
#define GP_RDB_L_DIM3(key) ", " key "_x INTEGER, " key "_y INTEGER, " key "_z INTEGER"
#define GP_RDB_L_DBL(key) ", " key " REAL"
#define GP_RDB_L_FLAG(key) ", " key " TEXT"
#define GP_RDB_L_METRICS(key) /* the metrics table */
#define GP_RDB_L_MISSING(key) /* the missing table */
#define GP_RDB_D_INT(key) ", " key " INTEGER"
#define GP_RDB_D_DBL(key) ", " key " REAL"
#define GP_RDB_D_TEXT(key) ", " key " TEXT"
#define GP_RDB_D_PAIR(key) ", " key "_major INTEGER, " key "_minor INTEGER"

const char gp_rdb_launch_columns[] = "id INTEGER PRIMARY KEY, file_id INTEGER, line INTEGER, "
                                     "kernel_id INTEGER, device_id INTEGER"
#define GP_LAUNCH_FIELD(key, member, kind, flags, lo, hi, dflt, unit, doc) GP_RDB_L_##kind(key)
#include "metrics/records/record_fields.def"
                                     ", extra TEXT";

const char gp_rdb_device_columns[] = "id INTEGER PRIMARY KEY, program_id INTEGER, file_id INTEGER, "
                                     "line INTEGER, host TEXT, pid INTEGER"
#define GP_DEVICE_FIELD(key, member, kind, lo, hi, fill, doc) GP_RDB_D_##kind(key)
#include "metrics/records/record_fields.def"
                                     ", extra TEXT";

/* Every table: name, columns, table constraint (or ""), WITHOUT ROWID,
 * and the queue's table it is written through (-1: written directly). */
typedef struct {
    const char *name, *cols, *constraint;
    int without_rowid;
    int queued;
} gp_rdb_tabledef;

static const gp_rdb_tabledef gp_rdb_tables[] = {
    {"meta", "key TEXT, value", "PRIMARY KEY(key)", 1, -1},
    {"programs",
     "id INTEGER PRIMARY KEY, name TEXT, status TEXT, message TEXT, cmd TEXT, dir TEXT, gpu TEXT, "
     "native_wall_s REAL, profiled_wall_s REAL, slowdown REAL, kernels INTEGER, launches INTEGER, "
     "kernel_time_s REAL, slurm_job TEXT, slurm_state TEXT, slurm_reason TEXT",
     "", 0, GP_RT_PROGRAM},
    {"files", "id INTEGER PRIMARY KEY, program_id INTEGER, path TEXT", "", 0, GP_RT_FILE},
    {"metric_names",
     "id INTEGER PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, unit TEXT, description TEXT",
     "UNIQUE(kind, name)", 0, GP_RT_NAME},
    {"reasons", "id INTEGER PRIMARY KEY, text TEXT NOT NULL", "UNIQUE(text)", 0, GP_RT_REASON},
    {"devices", gp_rdb_device_columns, "", 0, GP_RT_DEVICE},
    {"kernels",
     "id INTEGER PRIMARY KEY, program_id INTEGER, rank INTEGER, name TEXT, kernel TEXT, "
     "mangled TEXT, device INTEGER, device_id INTEGER, launches INTEGER, "
     "launches_estimated INTEGER, duration_s REAL, time_share_pct REAL, "
     "suite_time_share_pct REAL, blocks INTEGER, threads_per_block INTEGER, "
     "regs_per_thread INTEGER, smem_per_block INTEGER, occupancy_limiter TEXT, "
     "occupancy_advice TEXT, fp_precision TEXT, roofline_arch_binding TEXT, "
     "roofline_arch_attainable_pct REAL, roofline_measured_binding TEXT, "
     "roofline_measured_attainable_pct REAL, roofline_bug TEXT",
     "", 0, GP_RT_KERNEL},
    {"kernel_metrics", "kernel INTEGER, metric INTEGER, value REAL, reason INTEGER",
     "PRIMARY KEY(kernel, metric)", 1, GP_RT_KMETRIC},
    {"verdicts",
     "kernel_id INTEGER, rank INTEGER, verdict TEXT, label TEXT, title TEXT, evidence TEXT, "
     "advice TEXT, location TEXT, score REAL",
     "PRIMARY KEY(kernel_id, rank)", 1, GP_RT_VERDICT},
    {"launches", gp_rdb_launch_columns, "", 0, GP_RT_LAUNCH},
    {"metrics", "launch INTEGER, metric INTEGER, value REAL", "PRIMARY KEY(launch, metric)", 1,
     GP_RT_METRIC},
    {"missing", "launch INTEGER, metric INTEGER, reason INTEGER", "PRIMARY KEY(launch, metric)", 1,
     GP_RT_MISSING},
    {"estimates",
     "id INTEGER PRIMARY KEY, file_id INTEGER, line INTEGER, kernel_id INTEGER, "
     "device_id INTEGER, pid INTEGER, process TEXT, host TEXT, device INTEGER, kernel TEXT, "
     "mangled TEXT, grid_x INTEGER, grid_y INTEGER, grid_z INTEGER, block_x INTEGER, "
     "block_y INTEGER, block_z INTEGER, dynamic_smem INTEGER, regs_per_thread INTEGER, "
     "static_smem INTEGER, launches INTEGER, exact_launches INTEGER, lost_launches INTEGER, "
     "unprofiled_launches INTEGER, max_overhead_pct REAL, first_launch_id INTEGER, "
     "rotation_block INTEGER, spread REAL, configurations TEXT, collected TEXT, bound TEXT, "
     "missing TEXT, extra TEXT",
     "", 0, GP_RT_ESTIMATE},
    {"estimate_metrics", "estimate INTEGER, metric INTEGER, value REAL, bound REAL, reason INTEGER",
     "PRIMARY KEY(estimate, metric)", 1, GP_RT_EMETRIC},
    {"source_functions",
     "id INTEGER PRIMARY KEY, file_id INTEGER, line INTEGER, device INTEGER, kernel TEXT, "
     "mangled TEXT, module TEXT, code_bytes INTEGER, code TEXT, code_why TEXT, "
     "lineinfo INTEGER, lineinfo_why TEXT, sass_launches INTEGER, sampled_launches INTEGER, "
     "samples INTEGER, samples_not_issued INTEGER, instructions INTEGER, extra TEXT",
     "", 0, GP_RT_FUNCTION},
    {"source_instructions",
     "function_id INTEGER, pc INTEGER, file TEXT, line INTEGER, access TEXT, "
     "access_bits INTEGER, inst_executed INTEGER, thread_inst_executed INTEGER, "
     "thread_inst_executed_pred_on INTEGER, divergent_branches INTEGER, "
     "l1_tags_global INTEGER, sectors_global INTEGER, sectors_global_ideal INTEGER, "
     "wavefronts_shared INTEGER, wavefronts_shared_ideal INTEGER, samples INTEGER, "
     "samples_not_issued INTEGER, extra TEXT",
     "PRIMARY KEY(function_id, pc)", 1, GP_RT_INSTR},
    {"stalls", "function_id INTEGER, pc INTEGER, reason TEXT, samples INTEGER, not_issued INTEGER",
     "PRIMARY KEY(function_id, pc, reason)", 1, GP_RT_STALL},
    {"summaries",
     "id INTEGER PRIMARY KEY, file_id INTEGER, line INTEGER, launches_seen INTEGER, "
     "launches_profiled INTEGER, launches_failed INTEGER, results_valid INTEGER, "
     "results_reason TEXT, record TEXT",
     "", 0, GP_RT_SUMMARY},
};
#define GP_RDB_NTABLES (sizeof gp_rdb_tables / sizeof gp_rdb_tables[0])

/* Views for reading: names instead of ids. */
static const char gp_rdb_views[] =
    "CREATE VIEW launch_metrics AS SELECT m.launch AS launch, l.kernel_id AS kernel_id, "
    "n.kind AS kind, n.name AS metric, n.unit AS unit, m.value AS value, r.text AS reason "
    "FROM metrics m JOIN metric_names n ON n.id = m.metric JOIN launches l ON l.id = m.launch "
    "LEFT JOIN missing x ON x.launch = m.launch AND x.metric = m.metric "
    "LEFT JOIN reasons r ON r.id = x.reason;\n"
    "CREATE VIEW kernel_metric_values AS SELECT k.id AS kernel_id, k.program_id AS program_id, "
    "k.name AS kernel, n.name AS metric, n.unit AS unit, m.value AS value, r.text AS reason "
    "FROM kernel_metrics m JOIN kernels k ON k.id = m.kernel "
    "JOIN metric_names n ON n.id = m.metric LEFT JOIN reasons r ON r.id = m.reason;\n";

/* Made at the end, after the rows: an index built once is faster than one
 * kept up to date row by row. */
const char gp_rdb_index_sql[] =
    "CREATE INDEX launches_kernel ON launches(kernel_id);\n"
    "CREATE INDEX kernels_program ON kernels(program_id, rank);\n"
    "CREATE INDEX files_program ON files(program_id);\n"
    "CREATE INDEX source_functions_kernel ON source_functions(kernel, device);\n"
    "CREATE INDEX source_instructions_line ON source_instructions(file, line);\n";

/* Appends "fmt" to the growing string *s (NULL: out of memory). */
static char *gp_rdb_cat(char *s, size_t *len, const char *add)
{
    size_t n = strlen(add);
    char *ns = s ? realloc(s, *len + n + 1) : NULL;
    if (!ns) {
        free(s);
        return NULL;
    }
    memcpy(ns + *len, add, n + 1);
    *len += n;
    return ns;
}

int gp_rdb_create_schema(gp_rdb *w)
{
    size_t i, len = 0;
    char *sql = calloc(1, 1);
    int rc;
    for (i = 0; sql && i < GP_RDB_NTABLES; i++) {
        const gp_rdb_tabledef *t = &gp_rdb_tables[i];
        sql = gp_rdb_cat(sql, &len, "CREATE TABLE ");
        sql = sql ? gp_rdb_cat(sql, &len, t->name) : NULL;
        sql = sql ? gp_rdb_cat(sql, &len, "(") : NULL;
        sql = sql ? gp_rdb_cat(sql, &len, t->cols) : NULL;
        if (sql && t->constraint[0]) {
            sql = gp_rdb_cat(sql, &len, ", ");
            sql = sql ? gp_rdb_cat(sql, &len, t->constraint) : NULL;
        }
        sql = sql ? gp_rdb_cat(sql, &len, t->without_rowid ? ") WITHOUT ROWID;\n" : ");\n") : NULL;
    }
    sql = sql ? gp_rdb_cat(sql, &len, gp_rdb_views) : NULL;
    if (!sql) {
        gp_rdb_fail(w, "out of memory");
        return -1;
    }
    rc = gp_db_exec(w->db, sql);
    free(sql);
    if (rc < 0)
        gp_rdb_fail(w, "%s", gp_db_error(w->db));
    return rc;
}

/* "INSERT INTO t(a, b) VALUES (?,?),(?,?)..." for rows rows of t's columns
 * (names taken from the column list, up to each column's type). */
static char *gp_rdb_insert_sql(const gp_rdb_tabledef *t, int rows)
{
    size_t len = 0, ncols = 0;
    const char *p = t->cols;
    char *sql = calloc(1, 1), name[128];
    int r;
    sql = gp_rdb_cat(sql, &len, "INSERT INTO ");
    sql = sql ? gp_rdb_cat(sql, &len, t->name) : NULL;
    sql = sql ? gp_rdb_cat(sql, &len, "(") : NULL;
    while (sql && *p) {
        size_t n = strcspn(p, " ,");
        snprintf(name, sizeof name, "%s%.*s", ncols ? ", " : "", (int)n, p);
        sql = gp_rdb_cat(sql, &len, name);
        ncols++;
        p += strcspn(p, ",");
        p += strspn(p, ", ");
    }
    sql = sql ? gp_rdb_cat(sql, &len, ") VALUES ") : NULL;
    for (r = 0; sql && r < rows; r++) {
        size_t c;
        sql = gp_rdb_cat(sql, &len, r ? ",(" : "(");
        for (c = 0; sql && c < ncols; c++)
            sql = gp_rdb_cat(sql, &len, c ? ",?" : "?");
        sql = sql ? gp_rdb_cat(sql, &len, ")") : NULL;
    }
    return sql;
}

/* The queued statements that are not an INSERT of a whole row. */
static const struct {
    int queued;
    const char *sql;
} gp_rdb_updates[] = {
    {GP_RT_DEVPROC, "UPDATE devices SET host = ?, pid = ? WHERE id = ?"},
    {GP_RT_ESTKERNEL, "UPDATE estimates SET kernel_id = ? WHERE id = ?"},
};

int gp_rdb_prepare_inserts(gp_rdb *w)
{
    size_t i;
    for (i = 0; i < sizeof gp_rdb_updates / sizeof gp_rdb_updates[0]; i++)
        if (!(w->ins[gp_rdb_updates[i].queued] = gp_db_prepare(w->db, gp_rdb_updates[i].sql))) {
            gp_rdb_fail(w, "%s", gp_db_error(w->db));
            return -1;
        }
    for (i = 0; i < GP_RDB_NTABLES; i++) {
        const gp_rdb_tabledef *t = &gp_rdb_tables[i];
        char *sql;
        if (t->queued < 0)
            continue;
        for (int batch = 0; batch < 1 + (t->queued == GP_RT_METRIC); batch++) {
            gp_db_stmt *st;
            if (!(sql = gp_rdb_insert_sql(t, batch ? GP_RDB_BATCH : 1))) {
                gp_rdb_fail(w, "out of memory");
                return -1;
            }
            st = gp_db_prepare(w->db, sql);
            free(sql);
            if (!st) {
                gp_rdb_fail(w, "%s", gp_db_error(w->db));
                return -1;
            }
            if (batch)
                w->metric_batch = st;
            else
                w->ins[t->queued] = st;
        }
    }
    return 0;
}

/* The tables' names and columns as one text ("table: col, col\n"), for the
 * documentation check. */
int gp_rdb_schema_text(FILE *out)
{
    size_t i;
    for (i = 0; i < GP_RDB_NTABLES; i++)
        fprintf(out, "%s(%s%s%s)\n", gp_rdb_tables[i].name, gp_rdb_tables[i].cols,
                gp_rdb_tables[i].constraint[0] ? ", " : "", gp_rdb_tables[i].constraint);
    return ferror(out) ? -1 : 0;
}
