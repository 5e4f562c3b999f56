/* where.h - "where" per kernel: the instructions of a kernel's functions
 * (source.h) grouped into rows, one per source line (or, for code without
 * line information, one per SASS instruction), the values the report derives
 * from their counts, and the rows ranked by stall samples (by instructions
 * executed when nothing was sampled).  Also the attribution the verdicts
 * quote: which row holds the largest share of a quantity, and its hottest
 * instruction ("81% of excess sectors at srad.cu:142, LDG.E at +0x1a0").
 *
 * Derived values follow the counts' meaning (docs/output-format.md):
 * counts of the SASS pass are shown per launch (divided by the function's
 * sass_launches), stall samples as the sums they are.  An instruction whose
 * counts have a defect (source.h) is left out of the quantities that defect
 * touches, and the kernel says how many were. */
#ifndef GP_WHERE_H
#define GP_WHERE_H

#include <stddef.h>

#include "metrics/instructions/source.h"

/* Quantities per instruction, summed per row and per kernel. */
typedef enum {
    GP_WQ_SAMPLES,    /* stall samples (sum over sampled launches) */
    GP_WQ_NOT_ISSUED, /* samples with no instruction issued */
    GP_WQ_INST,       /* warp instructions executed, per launch */
    GP_WQ_THREAD,     /* thread instructions executed, per launch */
    GP_WQ_PRED_ON,    /* predicated-on thread instructions, per launch */
    GP_WQ_IDLE_LANES, /* 32 x inst - predicated-on threads: lanes that did no work */
    GP_WQ_DIVERGENT,  /* divergent branch targets, per launch */
    GP_WQ_L1_TAGS,    /* L1 tag requests of global accesses, per launch */
    GP_WQ_SECTORS,    /* global sectors, per launch */
    GP_WQ_EXCESS,     /* sectors - ideal sectors, per launch */
    GP_WQ_EXCESS_LD,  /* the same for global loads (and LDGSTS) only */
    GP_WQ_EXCESS_ST,  /* ... for global stores, atomics and reductions */
    GP_WQ_WAVEFRONTS, /* shared wavefronts, per launch */
    GP_WQ_CONFLICTS,  /* wavefronts - ideal wavefronts: bank-conflict wavefronts */
    GP_WQ_COUNT
} gp_where_q;

/* Words for a quantity in evidence ("excess sectors"). */
const char *gp_where_q_label(int q);

typedef struct {
    size_t func; /* index into gp_source.funcs */
    size_t ins;  /* index into its ins[] */
} gp_where_ref;

typedef struct {
    int file;              /* a source line: file index and line (> 0); */
    long line;             /* line 0: one instruction without line information */
    size_t first, n;       /* its instructions: refs[first .. first + n), by pc */
    double q[GP_WQ_COUNT]; /* sums; NaN when no instruction had the value */
} gp_where_row;

enum { GP_WHERE_BY_NONE, GP_WHERE_BY_SAMPLES, GP_WHERE_BY_INST };

typedef struct gp_where {
    const char *kernel; /* the functions' demangled name */
    int ordinal, model;
    size_t *funcs; /* indices into gp_source.funcs */
    size_t n_funcs;
    gp_where_ref *refs;
    size_t n_refs;
    gp_where_row *rows; /* ranked: hottest first */
    size_t n_rows;
    int by;    /* GP_WHERE_BY_*: what ranks the rows */
    int lines; /* some instruction had line information: rows are lines */
    double total[GP_WQ_COUNT];
    double *stall; /* samples per reason index (gp_source.reasons), n_stall of them */
    size_t n_stall;
    long sass_launches, sampled_launches; /* of its functions, summed */
    long dropped;                         /* instruction records left out (limits) */
    long defects;                         /* instructions with a defect */
    char defect[320];                     /* the first, described */
    int shown;                            /* a kernel of the report asked for it */
} gp_where;

/* Groups, derives and ranks (gp_source_finish calls it). */
int gp_where_build(const gp_source *s, gp_where *w);
void gp_where_free(gp_where *w);

/* A count of f's SASS pass per launch (NaN without SASS launches). */
double gp_where_per_launch(const gp_source_func *f, double x);

/* The value of quantity q for one instruction (per launch where the
 * quantity is), NaN when absent or when the instruction's defect touches it. */
double gp_where_value(const gp_source_func *f, const gp_source_instr *in, int q);

/* A row's stall samples of reason index r. */
double gp_where_row_stall(const gp_source *s, const gp_where *w, const gp_where_row *row, int r);

/* The reasons of a row (or of the kernel when row is NULL) with the most
 * samples, most first: up to n reason indices into out with their samples
 * in v.  Returns how many. */
size_t gp_where_top_reasons(const gp_source *s, const gp_where *w, const gp_where_row *row,
                            size_t n, int *out, double *v);

/* What an attribution adds up: a quantity, or (reasons not 0) the stall
 * samples of the reasons whose gp_stall_id bits are set. */
typedef struct {
    int q;
    unsigned long reasons;
} gp_where_what;

typedef struct {
    const gp_where_row *row;    /* NULL: nothing to attribute (no data, or all 0) */
    double value, total, share; /* share of the kernel's total, % */
    size_t func;                /* the row's instruction with the most of it */
    long pc;
    const gp_source_instr *ins;
} gp_where_top;

/* The row with the most of `what`, its share and its hottest instruction. */
void gp_where_attribute(const gp_source *s, const gp_where *w, gp_where_what what,
                        gp_where_top *out);

/* "81% of excess sectors at srad.cu:142, LDG.E at +0x1a0" into buf (raw:
 * the file name is the input's, for the writers to escape); "" when top has
 * no row. */
void gp_where_describe(const gp_source *s, const gp_where *w, const gp_where_top *top,
                       const char *what, char *buf, size_t len);

/* The opcode of a SASS text ("@!P0 LDG.E.64 R2, ..." -> "LDG.E.64") into buf. */
const char *gp_where_opcode(const char *sass, char *buf, size_t len);

/* The last component of a path. */
const char *gp_where_basename(const char *path);

#endif
