/* sass_derive.c - see sass_derive.h.
 *
 * Opcode classes were read off cuobjdump listings of sm_90 code: the low 9
 * bits of an instruction's first 64-bit word name the operation and bits 9-11
 * its operand form (register, immediate, constant, uniform register), e.g.
 * FFMA R6, R6, UR6, R3 = ...7c23 and FADD R8, R6, 1 = ...7421.  The
 * known-work GPU test (tests/gpu/known_work.cu) checks the counts exactly.
 *
 * What this pass gives.  Nsight Compute's own SASS metrics (efficiencies from
 * distinct bytes, FP counts) are collected by CUPTI's range profiler in an
 * instrumented pass (gp_sass_only() routes names); this pass gives what that
 * profiler has no name for: the requested bytes of nvprof's efficiencies
 * (every thread's bytes, above 100% on broadcast), the ideal wavefronts of
 * the bank efficiency, and the HFMA2 constant moves, which need the machine
 * code.  gp_sass_derive() can also derive the Nsight Compute names from the
 * per-instruction data, counting a record's used bytes as min(requested, ideal
 * units x unit size): without addresses that is Nsight Compute's value only
 * where no two threads of a warp share an address, so those values are not
 * reported under Nsight Compute's names: only beside them, under own names
 * (GP_SASS_OWN_PREFIX), for GPUPROF_SASS_EFFICIENCY=check's cross-check; the
 * unit tests keep the derivation checked. */
#include "replay/sass_derive.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const gp_sass_metric_names[GP_SASS_N] = {
#define GP_SASS_NAME(id, name) name,
    GP_SASS_METRICS(GP_SASS_NAME)
#undef GP_SASS_NAME
};

int gp_sass_fp_op(const uint8_t insn[16])
{
    unsigned op = (unsigned)insn[0] | ((unsigned)(insn[1] & 0x01) << 8);
    switch (op) {
    case 0x020: return GP_OP_FMUL;
    case 0x021: return GP_OP_FADD;
    case 0x023: return GP_OP_FFMA;
    case 0x028: return GP_OP_DMUL;
    case 0x029: return GP_OP_DADD;
    case 0x02b: return GP_OP_DFMA;
    case 0x030: return GP_OP_HADD;
    case 0x031: return GP_OP_HFMA;
    case 0x032: return GP_OP_HMUL;
    case 0x035: return GP_OP_HFMA; /* HFMA2.MMA */
    default: return GP_OP_NONE;
    }
}

int gp_sass_is_fp_move(const uint8_t insn[16])
{
    unsigned op = (unsigned)insn[0] | ((unsigned)(insn[1] & 0x01) << 8);
    if (op != 0x031 && op != 0x035) /* HFMA2, HFMA2.MMA */
        return 0;
    unsigned form = (insn[1] >> 1) & 7;
    int a_zero = insn[3] == 0xff; /* Ra, bits 24-31 */
    int b_zero = (form == 1 && insn[4] == 0xff) || /* R, R, R: Rb bits 32-39 */
                 (form == 2 && insn[8] == 0xff);   /* R, R, imm: Rb bits 64-71 */
    return a_zero || b_zero;
}

/* A metric name and what it stands for here (an id of 0 or more). */
typedef struct {
    const char *name;
    int id;
} named_metric;

static const named_metric fp_metrics[] = {
    {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", GP_OP_FADD},
    {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", GP_OP_FMUL},
    {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", GP_OP_FFMA},
    {"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", GP_OP_DADD},
    {"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", GP_OP_DMUL},
    {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", GP_OP_DFMA},
    {"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", GP_OP_HADD},
    {"smsp__sass_thread_inst_executed_op_hmul_pred_on.sum", GP_OP_HMUL},
    {"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", GP_OP_HFMA},
};
#define N_FP (sizeof(fp_metrics) / sizeof(fp_metrics[0]))

enum { EFF_GLOBAL_LD = 1, EFF_GLOBAL_ST, EFF_SHARED, EFF_N };
static const named_metric eff_metrics[] = {
    {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct", EFF_GLOBAL_LD},
    {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct", EFF_GLOBAL_ST},
    {"smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct", EFF_SHARED},
};
#define N_EFF (sizeof(eff_metrics) / sizeof(eff_metrics[0]))

/* The id of name in table t of n, or -1. */
static int named_id(const named_metric *t, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, t[i].name) == 0)
            return t[i].id;
    return -1;
}

/* Sums the derivation produces besides the efficiencies. */
enum { SUM_HFMA_MOVE, SUM_REQ_LD, SUM_REQ_ST, SUM_REQ_SHARED, SUM_SECTORS_LD, SUM_SECTORS_ST,
       SUM_N };
static const char *const sum_metrics[SUM_N] = {
    [SUM_HFMA_MOVE] = "gpuprof__sass_thread_inst_executed_op_hfma_move_pred_on.sum",
    [SUM_REQ_LD] = "gpuprof__sass_requested_bytes_mem_global_op_ld.sum",
    [SUM_REQ_ST] = "gpuprof__sass_requested_bytes_mem_global_op_st.sum",
    [SUM_REQ_SHARED] = "gpuprof__sass_requested_bytes_mem_shared.sum",
    [SUM_SECTORS_LD] = "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
    [SUM_SECTORS_ST] = "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum",
};

/* "<api name>.sum" for a counter CUPTI gives per instruction. */
static int plain_sum(const char *name)
{
    for (int m = 0; m < GP_SASS_N; m++) {
        size_t l = strlen(gp_sass_metric_names[m]);
        if (strncmp(name, gp_sass_metric_names[m], l) == 0 && strcmp(name + l, ".sum") == 0)
            return m;
    }
    return -1;
}

void gp_sass_dump(FILE *f, const char *kernel, const gp_sass_record *r, size_t n,
                  gp_code_lookup lookup, void *arg)
{
    for (size_t i = 0; i < n; i++) {
        size_t size = 0;
        const uint8_t *code = lookup ? lookup(r[i].function, &size, arg) : NULL;
        uint64_t w[2] = {0, 0};
        if (code && (size_t)r[i].pc + 16 <= size)
            memcpy(w, code + r[i].pc, sizeof(w));
        fprintf(f, "%s %s %u %016llx %016llx", kernel, r[i].function, r[i].pc,
                (unsigned long long)w[0], (unsigned long long)w[1]);
        for (int m = 0; m < GP_SASS_N; m++)
            if (r[i].v[m])
                fprintf(f, " %s=%llu", gp_sass_metric_names[m], (unsigned long long)r[i].v[m]);
        fputc('\n', f);
    }
}

const char *gp_sass_own_of(const char *name, char *buf, size_t len)
{
    size_t p = strlen(GP_SASS_OWN_PREFIX);
    if (strncmp(name, GP_SASS_OWN_PREFIX, p) != 0 || !name[p])
        return NULL;
    int w = snprintf(buf, len, "smsp__sass_%s", name + p);
    return w > 0 && (size_t)w < len ? buf : NULL;
}

int gp_sass_is_efficiency(const char *name)
{
    return named_id(eff_metrics, N_EFF, name) >= 0;
}

/* The instrumented name name stands for: itself, or what an own name
 * (GP_SASS_OWN_PREFIX) names. */
static const char *underlying(const char *name, char *buf, size_t len)
{
    const char *u = gp_sass_own_of(name, buf, len);
    return u ? u : name;
}

int gp_sass_needs_code(const char *name)
{
    char buf[256];
    name = underlying(name, buf, sizeof(buf));
    return named_id(fp_metrics, N_FP, name) >= 0 || strcmp(name, sum_metrics[SUM_HFMA_MOVE]) == 0;
}

int gp_sass_exact(const char *name)
{
    if (named_id(fp_metrics, N_FP, name) >= 0)
        return 1;
    for (int i = 0; i < SUM_N; i++)
        if (strcmp(name, sum_metrics[i]) == 0)
            return 1;
    return plain_sum(name) >= 0;
}

int gp_sass_derivable(const char *name)
{
    char buf[256];
    name = underlying(name, buf, sizeof(buf));
    return named_id(eff_metrics, N_EFF, name) >= 0 || gp_sass_exact(name);
}

int gp_sass_only(const char *name)
{
    if (strncmp(name, "gpuprof__sass_", 14) == 0)
        return gp_sass_derivable(name);
    int m = plain_sum(name);
    return m == GP_SASS_THREAD_GLOBAL || m == GP_SASS_THREAD_SHARED || m == GP_SASS_THREAD_LDGSTS ||
           m == GP_SASS_SECTORS_IDEAL || m == GP_SASS_WAVEFRONTS_IDEAL;
}

/* Access width in bytes of the memory instruction at this record (0 if none). */
static double width_bytes(const gp_sass_record *r)
{
    if (r->v[GP_SASS_MEM128])
        return 16;
    if (r->v[GP_SASS_MEM64])
        return 8;
    if (r->v[GP_SASS_MEM32])
        return 4;
    if (r->v[GP_SASS_MEM16])
        return 2;
    if (r->v[GP_SASS_MEM8])
        return 1;
    return 0;
}

static int by_instruction(const void *a, const void *b)
{
    const gp_sass_record *x = a, *y = b;
    int c = strcmp(x->function, y->function);
    return c ? c : (x->pc > y->pc) - (x->pc < y->pc);
}

/* CUPTI may report one instruction in several records, each carrying some of
 * the counters: merge them so that every record is one instruction. */
static gp_sass_record *merge_by_instruction(const gp_sass_record *r, size_t n, size_t *out_n)
{
    gp_sass_record *m = malloc((n ? n : 1) * sizeof(*m));
    if (!m)
        return NULL;
    memcpy(m, r, n * sizeof(*m));
    qsort(m, n, sizeof(*m), by_instruction);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && by_instruction(&m[k - 1], &m[i]) == 0) {
            for (int v = 0; v < GP_SASS_N; v++)
                m[k - 1].v[v] += m[i].v[v];
        } else {
            m[k++] = m[i];
        }
    }
    *out_n = k;
    return m;
}

/* One merged instruction's contribution to the memory sums. */
typedef struct {
    double used[EFF_N], units[EFF_N]; /* used bytes; bytes of sectors/wavefronts */
    double sum[SUM_N];
} mem_sums;

static double minimum(double a, double b) { return a < b ? a : b; }

static void add_memory(const gp_sass_record *r, mem_sums *m)
{
    const uint64_t *v = r->v;
    double w = width_bytes(r);
    double sectors = (double)v[GP_SASS_SECTORS], sectors_ideal = (double)v[GP_SASS_SECTORS_IDEAL];
    double wf = (double)v[GP_SASS_WAVEFRONTS], wf_ideal = (double)v[GP_SASS_WAVEFRONTS_IDEAL];
    if (v[GP_SASS_LDGSTS]) { /* global to shared: counted on the shared side, as ncu does */
        double req = (double)v[GP_SASS_THREAD_LDGSTS] * w;
        m->used[EFF_SHARED] += minimum(req, 128.0 * wf_ideal);
        m->units[EFF_SHARED] += 128.0 * wf;
        m->sum[SUM_REQ_SHARED] += req;
        return;
    }
    double req_global = (double)v[GP_SASS_THREAD_GLOBAL] * w;
    if (v[GP_SASS_GLOBAL_LD] && !v[GP_SASS_GLOBAL_ATOM] && !v[GP_SASS_GLOBAL_RED]) {
        m->used[EFF_GLOBAL_LD] += minimum(req_global, 32.0 * sectors_ideal);
        m->units[EFF_GLOBAL_LD] += 32.0 * sectors;
        m->sum[SUM_REQ_LD] += req_global;
        m->sum[SUM_SECTORS_LD] += sectors;
    } else if (v[GP_SASS_GLOBAL_ST] && !v[GP_SASS_GLOBAL_ATOM] && !v[GP_SASS_GLOBAL_RED]) {
        m->used[EFF_GLOBAL_ST] += minimum(req_global, 32.0 * sectors_ideal);
        m->units[EFF_GLOBAL_ST] += 32.0 * sectors;
        m->sum[SUM_REQ_ST] += req_global;
        m->sum[SUM_SECTORS_ST] += sectors;
    }
    if (v[GP_SASS_SHARED]) { /* LDS, STS, ATOMS, LDSM, STSM, generic that went to shared, GMMA */
        double req = (double)v[GP_SASS_THREAD_SHARED] * w;
        m->used[EFF_SHARED] += minimum(req, 128.0 * wf_ideal);
        m->units[EFF_SHARED] += 128.0 * wf;
        m->sum[SUM_REQ_SHARED] += req;
    }
}

int gp_sass_derive(const gp_sass_record *records, size_t n_records, gp_code_lookup lookup,
                    void *arg, const char *const *names, size_t n_names, double *values)
{
    size_t n = 0;
    gp_sass_record *r = merge_by_instruction(records, n_records, &n);
    if (!r)
        return 0;
    double fp[GP_OP_HFMA + 1] = {0};
    double sums[GP_SASS_N] = {0};
    mem_sums mem;
    memset(&mem, 0, sizeof(mem));
    int code_missing = 0;
    for (size_t i = 0; i < n; i++) {
        for (int m = 0; m < GP_SASS_N; m++)
            sums[m] += (double)r[i].v[m];
        size_t size = 0;
        const uint8_t *code = lookup ? lookup(r[i].function, &size, arg) : NULL;
        if (!code) {
            code_missing = 1;
        } else if ((size_t)r[i].pc + 16 <= size) {
            double threads = (double)r[i].v[GP_SASS_THREAD_INST];
            fp[gp_sass_fp_op(code + r[i].pc)] += threads;
            if (gp_sass_is_fp_move(code + r[i].pc))
                mem.sum[SUM_HFMA_MOVE] += threads;
        }
        add_memory(&r[i], &mem);
    }
    for (size_t k = 0; k < n_names; k++) {
        char buf[256];
        const char *name = underlying(names[k], buf, sizeof(buf));
        int op = named_id(fp_metrics, N_FP, name);
        if (op >= 0)
            values[k] = code_missing ? NAN : fp[op];
        int e = named_id(eff_metrics, N_EFF, name);
        if (e >= 0) {
            double pct = 100.0 * mem.used[e] / mem.units[e];
            /* used bytes never exceed the bytes served: an invariant, not a clamp */
            values[k] = mem.units[e] > 0 && pct <= 100.0 + 1e-9 ? pct : NAN;
        }
        for (int i = 0; i < SUM_N; i++)
            if (strcmp(name, sum_metrics[i]) == 0)
                values[k] = i == SUM_HFMA_MOVE && code_missing ? NAN : mem.sum[i];
        int m = plain_sum(name);
        if (m >= 0)
            values[k] = sums[m];
    }
    free(r);
    return code_missing;
}
