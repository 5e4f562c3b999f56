/* sass_derive.h - turns per-instruction SASS data (CUPTI's SASS Metrics API:
 * a record per instruction with its counts) plus the kernel's machine code
 * into the PerfWorks smsp__sass_* metrics that CUPTI 13.0's range profiler
 * does not deliver: FP operation counts by opcode, global load/store and
 * shared-memory efficiency, divergent branches.  Pure computation. */
#ifndef GP_SASS_DERIVE_H
#define GP_SASS_DERIVE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

/* The per-instruction counters gpuprof asks CUPTI for, in this order. */
#define GP_SASS_METRICS(X)                                                                         \
    X(THREAD_INST, "smsp__sass_thread_inst_executed_pred_on")                                      \
    X(INST, "smsp__sass_inst_executed")                                                            \
    X(GLOBAL_LD, "smsp__sass_inst_executed_op_global_ld")                                          \
    X(GLOBAL_ST, "smsp__sass_inst_executed_op_global_st")                                          \
    X(GLOBAL_ATOM, "smsp__sass_inst_executed_op_global_atom")                                      \
    X(GLOBAL_RED, "smsp__sass_inst_executed_op_global_red")                                        \
    X(SHARED, "smsp__sass_inst_executed_op_shared")                                                \
    X(SHARED_LD, "smsp__sass_inst_executed_op_shared_ld")                                          \
    X(SHARED_ST, "smsp__sass_inst_executed_op_shared_st")                                          \
    X(SHARED_ATOM, "smsp__sass_inst_executed_op_shared_atom")                                      \
    X(LDSM, "smsp__sass_inst_executed_op_ldsm")                                                    \
    X(STSM, "smsp__sass_inst_executed_op_shared_stsm")                                             \
    X(GMMA, "smsp__sass_inst_executed_op_shared_gmma")                                             \
    X(LDGSTS, "smsp__sass_inst_executed_op_ldgsts")                                                \
    X(TMA, "smsp__sass_inst_executed_op_tma")                                                      \
    X(LOCAL, "smsp__sass_inst_executed_op_local")                                                  \
    X(MEM8, "smsp__sass_inst_executed_op_memory_8b")                                               \
    X(MEM16, "smsp__sass_inst_executed_op_memory_16b")                                             \
    X(MEM32, "smsp__sass_inst_executed_op_memory_32b")                                             \
    X(MEM64, "smsp__sass_inst_executed_op_memory_64b")                                             \
    X(MEM128, "smsp__sass_inst_executed_op_memory_128b")                                           \
    X(THREAD_GLOBAL, "smsp__sass_thread_inst_executed_op_global_pred_on")                          \
    X(THREAD_SHARED, "smsp__sass_thread_inst_executed_op_shared_pred_on")                          \
    X(THREAD_LDGSTS, "smsp__sass_thread_inst_executed_op_ldgsts_pred_on")                          \
    X(SECTORS, "smsp__sass_sectors_mem_global")                                                    \
    X(SECTORS_IDEAL, "smsp__sass_sectors_mem_global_ideal")                                        \
    X(TAGS, "smsp__sass_l1tex_tags_mem_global")                                                    \
    X(WAVEFRONTS, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared")                               \
    X(WAVEFRONTS_IDEAL, "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal")                   \
    X(DIVERGENT, "smsp__sass_branch_targets_threads_divergent")                                    \
    X(THREAD_INST_ALL, "smsp__sass_thread_inst_executed")

enum gp_sass_metric {
#define GP_SASS_ENUM(id, name) GP_SASS_##id,
    GP_SASS_METRICS(GP_SASS_ENUM)
#undef GP_SASS_ENUM
        GP_SASS_N
};

extern const char *const gp_sass_metric_names[GP_SASS_N];

typedef struct gp_sass_record {
    const char *function; /* mangled name */
    uint32_t pc;          /* byte offset in the function */
    uint64_t v[GP_SASS_N];
} gp_sass_record;

/* FP operation classes by opcode (low 9 bits of the 128-bit sm_90 encoding). */
enum gp_fp_op { GP_OP_NONE = 0, GP_OP_FADD, GP_OP_FMUL, GP_OP_FFMA, GP_OP_DADD, GP_OP_DMUL,
                GP_OP_DFMA, GP_OP_HADD, GP_OP_HMUL, GP_OP_HFMA };
int gp_sass_fp_op(const uint8_t insn[16]);

/* 1 when the instruction is an FP16 FMA with a zero multiplicand (RZ): ptxas
 * materializes constants as HFMA2.MMA Rd, -RZ, RZ, imm, imm.  Such moves are
 * counted by the hfma counter (as in Nsight Compute) but are no arithmetic. */
int gp_sass_is_fp_move(const uint8_t insn[16]);

/* Finds the machine code of a function: returns a pointer and sets *size, or
 * NULL when unknown. */
typedef const uint8_t *(*gp_code_lookup)(const char *function, size_t *size, void *arg);

/* Writes one line per instruction (function, pc, the instruction's two
 * 64-bit words when the code is known, every nonzero counter) for
 * GPUPROF_SASS_DUMP, a contributor's view of what the derivation sees. */
void gp_sass_dump(FILE *f, const char *kernel, const gp_sass_record *r, size_t n,
                  gp_code_lookup lookup, void *arg);

/* 1 if `name` is counted by opcode, so needs the machine code. */
int gp_sass_needs_code(const char *name);

/* 1 if gpuprof can derive `name` from the SASS data. */
int gp_sass_derivable(const char *name);

/* 1 for the instrumented names the SASS pass gives exactly as Nsight Compute's
 * instrumented pass does: per-instruction sums (the FP operation counts by
 * opcode, sectors, wavefronts, thread counts), not the efficiencies, whose
 * distinct bytes only the range profiler counts. */
int gp_sass_exact(const char *name);

/* 1 for the names only the SASS pass gives (gpuprof__sass_* and the SASS
 * Metrics API counters CUPTI's range profiler does not define: ideal
 * sectors and wavefronts, thread counts by memory class); every other
 * instrumented name is the range profiler's. */
int gp_sass_only(const char *name);

/* 1 for Nsight Compute's memory efficiencies (smsp__sass_average_data_bytes_
 * per_{sector,wavefront}_*.pct): distinct bytes over the bytes of the sectors
 * or wavefronts that served them.  The SASS pass has no addresses, so its
 * derivation, min(requested bytes, ideal sectors or wavefronts x their
 * size) per instruction, is exact only where no two threads of a warp share
 * an address (or the distinct bytes fill whole ideal units); elsewhere it is
 * an upper bound (docs/measurements.md).  Never routed to the SASS pass as
 * Nsight Compute's value. */
int gp_sass_is_efficiency(const char *name);

/* GPUPROF_SASS_EFFICIENCY=check: GP_SASS_OWN_PREFIX followed by what comes
 * after "smsp__sass_" in an instrumented name is the SASS pass's own
 * derivation of that name, recorded beside the range profiler's value of it
 * for the cross-check (tests/gpu/sass_own_check.sh).  gp_sass_own_of() gives
 * the instrumented name an own name stands for (into buf), or NULL. */
#define GP_SASS_OWN_PREFIX "gpuprof__sass_own__"
const char *gp_sass_own_of(const char *name, char *buf, size_t len);

/* Computes every derivable name of names[] into values[] (others untouched).
 * A metric whose inputs are absent (no global loads, say) gets NaN. */
/* Returns 1 when some instruction's function had no machine code to look up
 * (its module held none gpuprof can read: the opcode counts are then NaN), else 0. */
int gp_sass_derive(const gp_sass_record *r, size_t n, gp_code_lookup lookup, void *arg,
                    const char *const *names, size_t n_names, double *values);

#endif
