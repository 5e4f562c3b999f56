/* source.h - the instruction-level records of docs/output-format.md
 * ("source_function", "source_instr" and the summary's "sampling" object)
 * read into the report's model: per function its machine code and its
 * instructions with their counts and stall samples, the functions grouped
 * per kernel as load.c groups launches (demangled name, device ordinal, GPU
 * model).  The per-kernel tables and rankings are where.h's.
 *
 * Reading checks every record: a field of the wrong type, a negative or
 * non-finite count, a pc beyond the function's code, a line without a file
 * make the record malformed (one message, the record skipped), as do a
 * second source_function of the same function in one process and a second
 * source_instr of the same instruction.  Counts that cannot all be true
 * together (ideal sectors above the sectors touched, more predicated-on
 * threads than threads, more threads than 32 per warp instruction, more
 * not-issued samples than samples) are kept and flagged as a defect in the
 * data: the values derived from them are n/a with that reason, never a
 * percentage over 100.
 *
 * Modules: this one (the model, source_function records, summaries),
 * source_instr.c (source_instr records and their checks), source_json.c
 * (the field readers), source_group.c (after reading: processes summed,
 * functions grouped per kernel), source_text.c (source and SASS text given
 * at report time).
 *
 * Memory is bounded: at most GP_SOURCE_MAX_INSTR instructions per function,
 * GP_SOURCE_MAX_FILE_INSTR instruction records per input, GP_SOURCE_MAX_CODE
 * bytes of machine code per function, GP_SOURCE_MAX_REASONS stall reason
 * names and GP_SOURCE_MAX_FILES source file names; what is beyond is counted
 * and the report says it was left out. */
#ifndef GP_SOURCE_H
#define GP_SOURCE_H

#include <stddef.h>

#include "metrics/records/json.h"

#define GP_SOURCE_MAX_INSTR 262144L       /* 4 MiB of code at 16 bytes an instruction */
#define GP_SOURCE_MAX_FILE_INSTR 1048576L /* about 150 MB of model per input */
#define GP_SOURCE_MAX_CODE (4L << 20)
#define GP_SOURCE_MAX_REASONS 64
#define GP_SOURCE_MAX_FILES 4096
/* bytes of a kernel or symbol name and of a sentence: demangled names of
 * C++ templates pass 4 KiB (PyTorch's do); a line is bounded anyway */
#define GP_SOURCE_MAX_NAME (1L << 20)
#define GP_SOURCE_MAX_PATH 65536 /* bytes of a source file's name */

/* The stall reasons of stall_reasons.def; a reason index below
 * GP_STALL_KNOWN is one of these, above it a name the table lacks. */
typedef enum {
#define GP_STALL(id, sampled, counter, ncu, ncu_ni, desc) GP_STALL_##id,
#include "metrics/instructions/stall_reasons.def"
#undef GP_STALL
    GP_STALL_KNOWN
} gp_stall_id;

typedef struct {
    const char *sampled, *counter, *ncu, *ncu_not_issued, *description;
} gp_stall_def;
extern const gp_stall_def gp_stall_defs[GP_STALL_KNOWN];

/* The counts of source_fields.def. */
typedef enum {
#define GP_SI_FIELD(key, id, from, desc) GP_SI_##id,
#include "metrics/instructions/source_fields.def"
#undef GP_SI_FIELD
    GP_SI_COUNT
} gp_si_field;

enum { GP_SI_FROM_SASS, GP_SI_FROM_SAMPLED };
typedef struct {
    const char *key, *description;
    int from; /* GP_SI_FROM_* */
} gp_si_def;
extern const gp_si_def gp_si_defs[GP_SI_COUNT];

/* The memory access of an instruction ("access" of the record). */
typedef enum {
    GP_ACCESS_NONE,
    GP_ACCESS_GLOBAL_LD,
    GP_ACCESS_GLOBAL_ST,
    GP_ACCESS_GLOBAL_ATOM,
    GP_ACCESS_GLOBAL_RED,
    GP_ACCESS_LOCAL,
    GP_ACCESS_SHARED_LD,
    GP_ACCESS_SHARED_ST,
    GP_ACCESS_SHARED_ATOM,
    GP_ACCESS_LDSM,
    GP_ACCESS_STSM,
    GP_ACCESS_LDGSTS,
    GP_ACCESS_TMA,
    GP_ACCESS_GMMA,
    GP_ACCESS_OTHER, /* a kind this report does not know (a later library's) */
    GP_ACCESS_COUNT
} gp_access;
/* The record's name of an access kind ("global_ld"; "other" for OTHER). */
const char *gp_source_access_name(int access);

/* Defects: counts of one instruction that cannot all be true. */
enum {
    GP_SRC_BAD_SECTORS = 1,    /* sectors_global_ideal > sectors_global */
    GP_SRC_BAD_WAVEFRONTS = 2, /* wavefronts_shared_ideal > wavefronts_shared */
    GP_SRC_BAD_THREADS = 4,    /* pred_on > thread, or thread > 32 x inst */
    GP_SRC_BAD_SAMPLES = 8     /* not-issued samples above samples, or reasons
                                  adding up to other than samples */
};

typedef struct {
    int reason; /* index into gp_source.reasons */
    double all, not_issued;
} gp_source_stall;

typedef struct {
    long pc;
    long line;       /* 0: no line information */
    int file;        /* index into gp_source.files, -1: none */
    int access;      /* gp_access */
    int access_bits; /* 0: unknown */
    unsigned defects;
    double v[GP_SI_COUNT]; /* NaN: absent from the record */
    gp_source_stall *stall;
    unsigned n_stall;
} gp_source_instr;

typedef struct {
    char *kernel, *mangled, *module; /* demangled name, symbol, module id */
    int ordinal, model;              /* device ordinal; its model (-1: no device record) */
    int cc_major, cc_minor;          /* of its device record (0: none) */
    size_t input;                    /* index into the report's files */
    long epoch;                      /* summaries of that input before it: its process */
    long code_bytes;
    unsigned char *code; /* code_bytes bytes, NULL when unknown (code_why) */
    char *code_why;
    int lineinfo;
    char *lineinfo_why;
    long sass_launches, sampled_launches, instructions;
    double samples, samples_not_issued;
    gp_source_instr *ins; /* sorted by pc after gp_source_group_finish */
    size_t n_ins, cap_ins;
    long dropped;            /* instruction records beyond GP_SOURCE_MAX_INSTR */
    long defects;            /* instructions with a defect */
    char defect[320];        /* the first, described */
    long processes;          /* records of several processes summed into this one */
    struct gp_strindex *pcs; /* pc -> instruction, made when records come out of order */
    int sorted;              /* ins[] in ascending pc order */
    /* SASS text from a disassembler at report time, by pc / 16 (NULL: none) */
    char **sass;
    long n_sass;
    char *sass_why; /* why there is none (NULL: not tried) */
} gp_source_func;

typedef struct {
    char *name;
    char *text;   /* the file as read at report time, lines NUL-separated */
    char **lines; /* n_lines pointers into text */
    long n_lines;
    char *text_why; /* why there is no text (NULL: not tried) */
} gp_source_file;

/* The stall sampling and results of the processes (summary records). */
typedef struct {
    long summaries, with_sampling, on, off;
    char *off_why; /* the first reason sampling was off or stopped */
    double samples, dropped, non_user, launches, interval_cycles;
    long with_results;    /* summaries with a "results" object */
    long results_invalid; /* processes whose results are not to be trusted */
    char *results_why;    /* the first such: "from launch N (kernel): reason" */
} gp_source_run;

struct gp_where;

typedef struct gp_source {
    gp_source_func *funcs;
    size_t n_funcs, cap_funcs;
    gp_source_file *files;
    size_t n_files;
    char **reasons; /* the known ones first (gp_stall_defs' sampled names) */
    size_t n_reasons;
    long reasons_dropped; /* samples of reasons beyond GP_SOURCE_MAX_REASONS, in "other" */
    long files_dropped;   /* instruction records whose file was beyond the table: no line */
    long file_records;    /* source_instr records kept from the current input */
    long input_dropped;   /* records beyond GP_SOURCE_MAX_FILE_INSTR, all inputs */
    long orphans;         /* source_instr records without their source_function */
    char *orphan_key;     /* the function the last one named: one message per function */
    int started;          /* a record was read: cur_input is set */
    size_t cur_input;     /* the input being read, and its summaries so far */
    long cur_epoch;
    long cur_func; /* the function source_instr records most likely follow */
    gp_source_run run;
    struct gp_where *kernels; /* after gp_source_group_finish: functions per kernel */
    size_t n_kernels;
    char *disasm; /* how SASS text was had: the disassembler's path, or why none */
    struct gp_strindex *func_index, *file_index, *reason_index, *kernel_index;
} gp_source;

/* Where a record comes from: its input, and the device record of its
 * ordinal there (model -1 and cc 0 when none). */
typedef struct {
    size_t input;
    int model, cc_major, cc_minor;
} gp_source_origin;

/* 1 when type is a record this module reads. */
int gp_source_is_record(const char *type);

/* A walk over the instructions present in a function, in pc order. */
typedef struct {
    size_t ins;  /* the next instruction record to look at */
    long from;   /* the lowest pc still to give */
} gp_source_walk;

/* The next pc of f's walk (start with *w zeroed), or -1 at its end: every
 * 16-byte slot of its machine code when the record holds the code (f->code),
 * and every pc an instruction record names (f's instructions sorted), each
 * once.  Never a range that code_bytes or a pc alone claims: a record can
 * say 2^40 bytes of code, or hold one instruction at pc 2^40, and the walk
 * still costs what the records hold. */
long gp_source_walk_next(const gp_source_func *f, gp_source_walk *w);

/* The instruction at pc (f's instructions sorted, as they are after
 * gp_source_group_finish), NULL when none; _in looks among ins[0..n). */
gp_source_instr *gp_source_find(gp_source_func *f, long pc);
gp_source_instr *gp_source_find_in(gp_source_func *f, size_t n, long pc);

/* For the record readers: the function the next source_instr of (ordinal,
 * module, mangled) belongs to, in the current input's process; -1 when
 * none.  And a copy of s (NULL: out of memory). */
long gp_source_function_at(const gp_source *s, long ordinal, const char *module,
                           const char *mangled);
char *gp_source_dup(const char *s);

/* The key of a function within one process in the function index: input,
 * epoch, ordinal, module, mangled name (NULL: out of memory; *len its size). */
char *gp_source_fkey(size_t input, long epoch, long ordinal, const char *module,
                     const char *mangled, size_t *len);


#endif
