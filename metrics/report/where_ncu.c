/* where_ncu.c - the instruction-level data in the layout of Nsight Compute's
 * source page, `ncu --page source --csv --print-source sass` (recorded in
 * tests/data/where/ncu-source-sass-stall_chase.csv), so that scripts written
 * for it read gpuprof's: per function a line "Kernel Name","<name>", then
 * ncu's header and one row per SASS instruction, every field quoted (the
 * kernel's name with the formula guard of every CSV layout; ncu's own "-"
 * cells and nvdisasm's text, whose predicated instructions start with "@"
 * as in ncu's page and which never starts with "=" or "+", without).
 *
 * Where gpuprof's data differ from ncu's (docs/report.md lists them):
 * "Address" is the offset in the function (ncu prints the virtual address);
 * "Source" is the disassembler's text, empty without one; counts of the
 * SASS pass are per launch (the mean over the function's SASS launches; ncu
 * shows one launch), stall samples are the sums over the sampled launches;
 * the L2 explicit hit-policy columns are "-" (gpuprof does not count them);
 * "L1 Conflicts Shared N-Way" is wavefronts over ideal wavefronts; stall
 * reasons ncu has no column for (gmma, warpgroup_arrive, a later GPU's) are
 * left out.  As ncu computes them (checked against its recorded page): the
 * averages are whole numbers (truncated); "Unexecuted" is the warp's 32
 * lanes less the average predicated-on threads (32 for an instruction that
 * never ran, 0 after the function's last EXIT, which needs the SASS text);
 * "Derivative" is how much "Unexecuted" changed from the instruction
 * before. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "metrics/report/report.h"
#include "util/textio.h"
#include "metrics/report/where_report.h"

/* ncu's columns in its order; the stall columns come from stall_reasons.def. */
static const char *const gp_ncu_src_head[] = {"Address",
                                              "Source",
                                              "Warp Stall Sampling (All Samples)",
                                              "Warp Stall Sampling (Not-issued Samples)",
                                              "# Samples",
                                              "Instructions Executed",
                                              "Thread Instructions Executed",
                                              "Predicated-On Thread Instructions Executed",
                                              "Avg. Threads Executed",
                                              "Avg. Predicated-On Threads Executed",
                                              "Derivative Avg. Predicated-On Threads Executed",
                                              "Avg. Predicated-On Threads Unexecuted",
                                              "Divergent Branches",
                                              "Address Space",
                                              "Access Operation",
                                              "Access Size",
                                              "L1 Tag Requests Global",
                                              "L1 Conflicts Shared N-Way",
                                              "L2 Theoretical Sectors Global Excessive",
                                              "L2 Theoretical Sectors Global",
                                              "L2 Theoretical Sectors Global Ideal",
                                              "L2 Explicit Evict Policies",
                                              "L2 Explicit Hit Policy Evict First",
                                              "L2 Explicit Hit Policy Evict Last",
                                              "L2 Explicit Hit Policy Evict Normal",
                                              "L2 Explicit Hit Policy Evict Normal Demote",
                                              "L2 Explicit Miss Policy Evict First",
                                              "L2 Explicit Miss Policy Evict Normal"};

static void gp_ncu_src_field(FILE *out, const char *s, int first)
{
    if (!first)
        fputc(',', out);
    fputc('"', out);
    for (; s && *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* A count as ncu prints it: a plain whole number; "-" when not measured. */
static void gp_ncu_src_num(FILE *out, double v)
{
    char buf[48];
    if (isnan(v))
        snprintf(buf, sizeof buf, "-");
    else if (v == floor(v) && fabs(v) < 1e15)
        snprintf(buf, sizeof buf, "%.0f", v);
    else
        snprintf(buf, sizeof buf, "%.6g", v);
    gp_ncu_src_field(out, buf, 0);
}

/* "@!P0  BRA 0x40": the guard in a field of six, as ncu aligns them. */
static void gp_ncu_src_text(const char *sass, char *buf, size_t len)
{
    const char *p = sass, *g = NULL;
    size_t gl = 0, n;
    if (!sass) {
        buf[0] = 0;
        return;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '@') {
        g = p;
        while (*p && *p != ' ' && *p != '\t')
            p++;
        gl = (size_t)(p - g);
        while (*p == ' ' || *p == '\t')
            p++;
    }
    n = strlen(p);
    while (n && (p[n - 1] == ' ' || p[n - 1] == ';'))
        n--;
    snprintf(buf, len, "%.*s%*s%.*s", (int)gl, g ? g : "", gl < 6 ? (int)(6 - gl) : 1, "", (int)n,
             p);
}

/* Memory opcodes, for instructions the records do not describe (never
 * executed): ncu leaves their access columns empty rather than "-". */
static int gp_ncu_src_memory_op(const char *op)
{
    static const char *const ops[] = {"LDG",  "STG",  "LDS",    "STS",    "LD",      "ST",
                                      "LDL",  "STL",  "ATOM",   "ATOMS",  "ATOMG",   "RED",
                                      "LDSM", "STSM", "LDGSTS", "UBLKCP", "UTMALDG", "UTMASTG"};
    size_t i, n = strcspn(op, ".");
    for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strlen(ops[i]) == n && strncmp(op, ops[i], n) == 0)
            return 1;
    return 0;
}

static const char *gp_ncu_src_space(int access)
{
    switch (access) {
    case GP_ACCESS_GLOBAL_LD:
    case GP_ACCESS_GLOBAL_ST:
    case GP_ACCESS_GLOBAL_ATOM:
    case GP_ACCESS_GLOBAL_RED:
    case GP_ACCESS_LDGSTS:
        return "Global";
    case GP_ACCESS_LOCAL:
        return "Local";
    case GP_ACCESS_SHARED_LD:
    case GP_ACCESS_SHARED_ST:
    case GP_ACCESS_SHARED_ATOM:
    case GP_ACCESS_LDSM:
    case GP_ACCESS_STSM:
        return "Shared";
    default:
        return "";
    }
}

static const char *gp_ncu_src_op(int access)
{
    switch (access) {
    case GP_ACCESS_GLOBAL_LD:
    case GP_ACCESS_SHARED_LD:
    case GP_ACCESS_LDSM:
    case GP_ACCESS_LDGSTS:
        return "Load";
    case GP_ACCESS_GLOBAL_ST:
    case GP_ACCESS_SHARED_ST:
    case GP_ACCESS_STSM:
        return "Store";
    case GP_ACCESS_GLOBAL_ATOM:
    case GP_ACCESS_SHARED_ATOM:
        return "Atomic";
    case GP_ACCESS_GLOBAL_RED:
        return "Reduction";
    default:
        return "";
    }
}

/* A raw count per launch; absent: z (0 where the SASS pass ran, else n/a). */
static double gp_ncu_src_pl(const gp_source_func *f, double x, double z)
{
    return isnan(x) ? z : gp_where_per_launch(f, x);
}

/* The pc after which the function is padding: its last EXIT (from the SASS
 * text), -1 when unknown. */
static long gp_ncu_src_last_exit(const gp_source_func *f)
{
    long pc, last = -1;
    char op[48];
    for (pc = 0; f->sass && pc / 16 < f->n_sass; pc += 16) {
        const char *t = gp_source_text_sass(f, pc);
        if (t && strcmp(gp_where_opcode(t, op, sizeof op), "EXIT") == 0)
            last = pc;
    }
    return last;
}

static void gp_ncu_src_function(const gp_report *r, const gp_kernel_report *k,
                                const gp_source_func *f, FILE *out)
{
    long pc, last_exit = gp_ncu_src_last_exit(f);
    gp_source_walk walk = {0, 0};
    size_t i, next = 0;
    double prev_unexec = 0;
    int sass = f->sass_launches > 0, sampled = f->sampled_launches > 0, first_row = 1;
    gp_ncu_src_field(out, "Kernel Name", 1);
    /* the program's name: guarded as in the other Nsight Compute layouts */
    fputc(',', out);
    gp_text_csv_quoted(out, gp_report_kernel_name(r, k));
    fputs(",\n", out); /* ncu ends this line with a comma */
    for (i = 0; i < sizeof gp_ncu_src_head / sizeof gp_ncu_src_head[0]; i++)
        gp_ncu_src_field(out, gp_ncu_src_head[i], i == 0);
    for (i = 0; i < GP_STALL_KNOWN; i++)
        if (gp_stall_defs[i].ncu)
            gp_ncu_src_field(out, gp_stall_defs[i].ncu, 0);
    for (i = 0; i < GP_STALL_KNOWN; i++)
        if (gp_stall_defs[i].ncu_not_issued)
            gp_ncu_src_field(out, gp_stall_defs[i].ncu_not_issued, 0);
    fputc('\n', out);
    /* every instruction of the code the record holds (16 bytes each), and
     * every one with a record carrying its counts: without a record, the
     * SASS pass saw it run 0 times and sampling caught no warp on it */
    while ((pc = gp_source_walk_next(f, &walk)) >= 0) {
        const gp_source_instr *in = NULL;
        double inst, thr, pred, avg_t, avg_p, unexec, z = sass ? 0 : NAN, zs = sampled ? 0 : NAN;
        char text[256], op[48], bits[16];
        const char *t = gp_source_text_sass(f, pc), *space, *oper;
        int memory;
        while (next < f->n_ins && f->ins[next].pc < pc)
            next++;
        if (next < f->n_ins && f->ins[next].pc == pc)
            in = &f->ins[next];
        snprintf(text, sizeof text, "0x%lx", pc);
        gp_ncu_src_field(out, text, 1);
        gp_ncu_src_text(t, text, sizeof text);
        /* the disassembler's text: escaped, and guarded unless it opens
         * with a predicate (@P0), as ncu's page writes it */
        fputc(',', out);
        gp_text_csv_quoted_sass(out, text);
        gp_ncu_src_num(out, in && !isnan(in->v[GP_SI_SAMPLES]) ? in->v[GP_SI_SAMPLES] : zs);
        gp_ncu_src_num(out, in && !isnan(in->v[GP_SI_SAMPLES_NOT_ISSUED])
                                ? in->v[GP_SI_SAMPLES_NOT_ISSUED]
                                : zs);
        gp_ncu_src_num(out, in && !isnan(in->v[GP_SI_SAMPLES]) ? in->v[GP_SI_SAMPLES] : zs);
        inst = in ? gp_where_value(f, in, GP_WQ_INST) : z;
        thr = in ? gp_where_value(f, in, GP_WQ_THREAD) : z;
        pred = in ? gp_where_value(f, in, GP_WQ_PRED_ON) : z;
        if (isnan(inst) && sass)
            inst = thr = pred = 0;
        gp_ncu_src_num(out, inst);
        gp_ncu_src_num(out, thr);
        gp_ncu_src_num(out, pred);
        /* ncu's whole-number averages: truncated */
        avg_t = inst > 0 && !(in && in->defects & GP_SRC_BAD_THREADS) ? floor(thr / inst)
                : inst == 0                                           ? 0
                                                                      : NAN;
        avg_p = inst > 0 && !(in && in->defects & GP_SRC_BAD_THREADS) ? floor(pred / inst)
                : inst == 0                                           ? 0
                                                                      : NAN;
        unexec = isnan(avg_p)                       ? NAN
                 : inst > 0                         ? 32 - avg_p
                 : last_exit >= 0 && pc > last_exit ? 0
                                                    : 32;
        gp_ncu_src_num(out, avg_t);
        gp_ncu_src_num(out, avg_p);
        gp_ncu_src_num(out, isnan(unexec) ? NAN : first_row ? 0 : fabs(unexec - prev_unexec));
        gp_ncu_src_num(out, unexec);
        prev_unexec = isnan(unexec) ? 0 : unexec;
        first_row = 0;
        gp_ncu_src_num(out, in ? gp_ncu_src_pl(f, in->v[GP_SI_DIVERGENT], z) : z);
        memory = in ? in->access != GP_ACCESS_NONE
                    : t && gp_ncu_src_memory_op(gp_where_opcode(t, op, sizeof op));
        space = !memory ? "-" : in && inst > 0 ? gp_ncu_src_space(in->access) : "";
        oper = !memory ? "-" : in && inst > 0 ? gp_ncu_src_op(in->access) : "";
        snprintf(bits, sizeof bits, "%d", in ? in->access_bits : 0);
        gp_ncu_src_field(out, space, 0);
        gp_ncu_src_field(out, oper, 0);
        gp_ncu_src_field(out, !memory ? "-" : in && inst > 0 && in->access_bits ? bits : "", 0);
        gp_ncu_src_num(out, in ? gp_ncu_src_pl(f, in->v[GP_SI_L1_TAGS], z) : z);
        gp_ncu_src_num(out, !in || isnan(in->v[GP_SI_WAVEFRONTS_IDEAL]) ||
                                    in->v[GP_SI_WAVEFRONTS_IDEAL] == 0
                                ? z
                            : in->defects & GP_SRC_BAD_WAVEFRONTS
                                ? NAN
                                : in->v[GP_SI_WAVEFRONTS] / in->v[GP_SI_WAVEFRONTS_IDEAL]);
        gp_ncu_src_num(out, in && !isnan(in->v[GP_SI_SECTORS]) ? gp_where_value(f, in, GP_WQ_EXCESS)
                                                               : z);
        gp_ncu_src_num(out, in ? gp_ncu_src_pl(f, in->v[GP_SI_SECTORS], z) : z);
        gp_ncu_src_num(out, in ? gp_ncu_src_pl(f, in->v[GP_SI_SECTORS_IDEAL], z) : z);
        gp_ncu_src_field(out, memory ? "" : "-", 0);
        for (i = 0; i < 6; i++) /* the hit and miss policies: not counted by gpuprof */
            gp_ncu_src_field(out, "-", 0);
        for (i = 0; i < 2 * GP_STALL_KNOWN; i++) {
            size_t reason = i % GP_STALL_KNOWN;
            int ni = i >= GP_STALL_KNOWN;
            double v = zs;
            unsigned j;
            if (!(ni ? gp_stall_defs[reason].ncu_not_issued : gp_stall_defs[reason].ncu))
                continue;
            for (j = 0; in && j < in->n_stall; j++)
                if (in->stall[j].reason == (int)reason)
                    v = ni ? in->stall[j].not_issued : in->stall[j].all;
            gp_ncu_src_num(out, v);
        }
        fputc('\n', out);
    }
}

int gp_report_ncu_source_csv(const gp_report *r, FILE *out)
{
    size_t i, j;
    for (i = 0; i < r->n; i++) {
        const gp_where *w = r->kernels[i].where;
        for (j = 0; w && j < w->n_funcs; j++)
            gp_ncu_src_function(r, &r->kernels[i], &r->source->funcs[w->funcs[j]], out);
    }
    return ferror(out) ? -1 : 0;
}
