/* source_table.h - instruction-level data of the run, per (device, function,
 * pc): the SASS pass's counts summed over the profiled launches and the
 * stall samples of the launches that ran while sampling was on.  What the
 * source_function and source_instr records are written from
 * (docs/output-format.md).  Pure bookkeeping: no CUDA, no CUPTI; the caller
 * holds the lock. */
#ifndef GP_SOURCE_TABLE_H
#define GP_SOURCE_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "replay/sass_derive.h"

/* instructions the table holds at most (about 200 bytes each); beyond it the
 * new ones are counted as left out */
#define GP_SRC_MAX_PCS 2000000
/* stall reasons the table tells apart (CUPTI lists 20 on Hopper) */
#define GP_SRC_MAX_REASONS 64

/* The SASS pass's counts kept per instruction (a subset of sass_derive.h's). */
enum gp_src_count {
    GP_SRC_INST,
    GP_SRC_THREAD_INST,
    GP_SRC_THREAD_INST_PRED_ON,
    GP_SRC_DIVERGENT,
    GP_SRC_TAGS_GLOBAL,
    GP_SRC_SECTORS,
    GP_SRC_SECTORS_IDEAL,
    GP_SRC_WAVEFRONTS,
    GP_SRC_WAVEFRONTS_IDEAL,
    GP_SRC_COUNTS
};

typedef struct gp_src_reason_count {
    uint16_t reason;
    uint64_t samples, not_issued;
} gp_src_reason_count;

typedef struct gp_src_pc {
    uint64_t pc;
    int has_sass;
    uint64_t count[GP_SRC_COUNTS];
    uint16_t access;      /* enum gp_src_access, 0 = none */
    uint8_t access_bits;  /* 8..128, 0 = unknown */
    uint64_t samples, not_issued;
    uint16_t n_reasons, cap_reasons;
    gp_src_reason_count *reasons;
} gp_src_pc;

enum gp_src_access {
    GP_ACC_NONE,
    GP_ACC_GLOBAL_LD,
    GP_ACC_GLOBAL_ST,
    GP_ACC_GLOBAL_ATOM,
    GP_ACC_GLOBAL_RED,
    GP_ACC_LOCAL,
    GP_ACC_SHARED_LD,
    GP_ACC_SHARED_ST,
    GP_ACC_SHARED_ATOM,
    GP_ACC_LDSM,
    GP_ACC_STSM,
    GP_ACC_LDGSTS,
    GP_ACC_TMA,
    GP_ACC_GMMA,
    GP_ACC_N
};
/* "global_ld", ... (docs/output-format.md), "" for none */
const char *gp_src_access_name(int access);

/* What the table knows of one function (a view, valid during a callback). */
typedef struct gp_src_function_info {
    int device;
    const char *mangled;
    uint64_t crc;            /* the module's CRC, 0 when unknown */
    uint64_t sass_launches;  /* launches whose SASS pass is summed */
    uint64_t sampled_launches;
    uint64_t samples, not_issued;
} gp_src_function_info;

typedef struct gp_src_table gp_src_table;

gp_src_table *gp_src_new(void);
void gp_src_free(gp_src_table *t);

/* Adds one launch's SASS records (every function in them counts the launch
 * once).  Returns the number of records left out (table full or out of
 * memory). */
size_t gp_src_add_sass(gp_src_table *t, int device, const gp_sass_record *r, size_t n);
/* Adds `count` samples of reason `reason` (CUPTI's name without its prefix;
 * a name ending in "_not_issued" counts the not-issued samples of its base
 * reason) at (device, function, pc).  crc: the cubin's (0: unknown).
 * Returns 0, or -1 when the sample was left out. */
int gp_src_add_samples(gp_src_table *t, int device, uint64_t crc, const char *function,
                       uint64_t pc, const char *reason, uint64_t count);
/* One launch of the function ran while sampling was on. */
void gp_src_sampled_launch(gp_src_table *t, int device, const char *function);
/* Sets the module CRC of a function whose records came without it. */
void gp_src_set_crc(gp_src_table *t, int device, const char *function, uint64_t crc);

/* Instructions left out because the table was full or memory ran out. */
uint64_t gp_src_left_out(const gp_src_table *t);
/* Name of reason id r (as added), or NULL. */
const char *gp_src_reason(const gp_src_table *t, unsigned r);
size_t gp_src_n_functions(const gp_src_table *t);

/* Calls fn for each function in the order first seen, with its
 * instructions sorted by pc (an array valid during the call). */
typedef void (*gp_src_function_fn)(void *arg, const gp_src_function_info *f,
                                   const gp_src_pc *const *pcs, size_t n);
void gp_src_each(gp_src_table *t, gp_src_function_fn fn, void *arg);

#endif
