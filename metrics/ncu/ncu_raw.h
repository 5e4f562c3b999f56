/* ncu_raw.h - Nsight Compute's raw CSV page read into a table: what
 * `ncu --csv --page raw --print-units base` prints for a program.
 *
 * The layout: whatever the program and ncu printed before it (skipped), a
 * header row starting "ID","Process ID", one column per fixed field (ID,
 * Process ID, Process Name, Host Name, Kernel Name, Context, Stream, Block
 * Size, Grid Size, Device, CC) and per metric; a units row (its ID field
 * empty); one row per profiled launch, in the order ncu profiled them.  Every
 * field is quoted; a value is a number (thousands separators allowed:
 * "1,048,576"), "n/a", empty or text.  ncu's own messages inside or after
 * the table ("==PROF== ...", "==WARNING== ...") and empty lines are passed
 * over; the same header again (a second process) with its units row too.
 *
 * The reader is bounded (textfile.h): regular files, pipes and standard
 * input only, at most GP_NCU_MAX_FILE bytes, GP_NCU_MAX_LINE bytes a line
 * inside the table (a longer line before it is skipped: program output),
 * GP_NCU_MAX_COLS columns.  Anything else inside the table -- a row with
 * another number of fields than the header, an unterminated quote (a field
 * over two lines), text after a closing quote, an ID that is not a number,
 * a repeated column name, a header with other columns -- is malformed: the
 * file is refused with one sentence naming it and the line.  A file with no
 * header row, or with the --page details layout, is refused the same way. */
#ifndef GP_NCU_RAW_H
#define GP_NCU_RAW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GP_NCU_MAX_FILE ((uint64_t)1 << 30)
#define GP_NCU_MAX_LINE ((size_t)16 << 20)
#define GP_NCU_MAX_COLS 100000

/* what a field held */
enum { GP_NCU_NUM, GP_NCU_NA, GP_NCU_EMPTY, GP_NCU_TEXT };

typedef struct {
    long id;             /* the ID column */
    long line;           /* where the row is in the file */
    char *kernel;        /* the Kernel Name column ("" when it is empty) */
    char *cc;            /* the CC column, NULL: no such column */
    char *device;        /* device__attribute_display_name, NULL: no such column */
    double *v;           /* one per column: the number, NaN when not a number */
    unsigned char *kind; /* one per column: GP_NCU_* */
} gp_ncu_row;

typedef struct {
    char name[320]; /* the path as messages show it (escaped) */
    size_t n_cols;
    char **cols;  /* header names */
    char **units; /* the units row ("" where none; all "" without one) */
    size_t n_rows, cap_rows;
    gp_ncu_row *rows;
    long col_id, col_kernel, col_cc, col_device; /* -1: absent */
    struct gp_strindex *index;                   /* column by name */
} gp_ncu_table;

/* Reads path ("-": standard input) into t (zeroed first).  Returns 0, or -1
 * with one sentence in err ("FILE:LINE: ..." for a malformed table); t is
 * then empty. */
int gp_ncu_raw_load(gp_ncu_table *t, const char *path, char *err, size_t errlen);
/* The same from a stream the caller opened and closes. */
int gp_ncu_raw_load_stream(gp_ncu_table *t, FILE *f, const char *name, char *err, size_t errlen);
void gp_ncu_raw_free(gp_ncu_table *t);

/* The column named name, or -1. */
long gp_ncu_raw_col(const gp_ncu_table *t, const char *name);

/* Whether column c is a metric (a PerfWorks name, "unit__counter..."), not
 * one of the fixed fields. */
int gp_ncu_raw_is_metric(const gp_ncu_table *t, size_t c);

/* A field's text as a number: digits with an optional sign, fraction and
 * exponent, thousands separators in groups of three.  1 and *v, or 0 (not
 * a number: "n/a", text, "inf", an empty field). */
int gp_ncu_raw_number(const char *s, size_t len, double *v);

/* Whether a unit of the units row carries a scale that --print-units base
 * would not print ("Kbyte", "Mcycle/second", "usecond", "msecond", "KB"):
 * the values are then not in the metric's base unit. */
int gp_ncu_raw_scaled_unit(const char *unit);

#endif
