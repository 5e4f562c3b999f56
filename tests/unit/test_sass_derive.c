/* test_sass_derive.c - the SASS pass's arithmetic: opcode classes on real
 * nvcc output for sm_90, metric sums by opcode, global/shared efficiency from
 * per-instruction records, NaN when a kernel has no access of a kind. */
#include "preload/cubin.h"
#include "replay/sass_derive.h"
#include "tests/unit/gp_test.h"

#include <stdlib.h>

static int counts[GP_OP_HFMA + 1];
static int functions;

static void count_ops(const char *name, const uint8_t *code, size_t size, void *arg)
{
    (void)arg;
    functions += strcmp(name, "_Z6fp_opsPKfPKdPK7__half2PfPdPS3_") == 0;
    for (size_t pc = 0; pc + 16 <= size; pc += 16)
        counts[gp_sass_fp_op(code + pc)]++;
}

/* A fake function: instruction i's first byte pair encodes ops[i]. */
static uint8_t fake_code[6 * 16];
static const uint8_t *fake_lookup(const char *f, size_t *size, void *arg)
{
    (void)arg;
    if (strcmp(f, "k") != 0)
        return NULL;
    *size = sizeof(fake_code);
    return fake_code;
}

int main(void)
{
    /* 1. opcode classes on a cubin built by nvcc for sm_90 */
    FILE *f = fopen("build/tests/fp_ops.cubin", "rb");
    GP_CHECK(f != NULL);
    if (f) {
        static uint8_t img[1 << 20];
        size_t n = fread(img, 1, sizeof(img), f);
        fclose(f);
        GP_CHECK(gp_cubin_each_function(img, n, count_ops, NULL) == 1 && functions == 1);
        GP_CHECK_MSG(counts[GP_OP_FFMA] == 1 && counts[GP_OP_FMUL] == 1 &&
                         counts[GP_OP_FADD] == 1,
                     "F: fma %d mul %d add %d", counts[GP_OP_FFMA], counts[GP_OP_FMUL],
                     counts[GP_OP_FADD]);
        GP_CHECK_MSG(counts[GP_OP_DFMA] == 1 && counts[GP_OP_DMUL] == 1 &&
                         counts[GP_OP_DADD] == 1,
                     "D: fma %d mul %d add %d", counts[GP_OP_DFMA], counts[GP_OP_DMUL],
                     counts[GP_OP_DADD]);
        GP_CHECK_MSG(counts[GP_OP_HFMA] == 1 && counts[GP_OP_HMUL] == 1 &&
                         counts[GP_OP_HADD] == 1,
                     "H: fma %d mul %d add %d", counts[GP_OP_HFMA], counts[GP_OP_HMUL],
                     counts[GP_OP_HADD]);
    }

    /* 2. sums by opcode and efficiencies from records */
    const uint8_t ops[6][2] = {{0x23, 0x7c}, {0x23, 0x72}, {0x21, 0x74}, {0x81, 0x79},
                               {0x86, 0x79}, {0x88, 0x73}}; /* FFMA, FFMA, FADD, 3 others */
    for (int i = 0; i < 6; i++) {
        fake_code[i * 16] = ops[i][0];
        fake_code[i * 16 + 1] = ops[i][1];
    }
    gp_sass_record r[6];
    memset(r, 0, sizeof(r));
    for (int i = 0; i < 6; i++) {
        r[i].function = "k";
        r[i].pc = (uint32_t)(16 * i);
    }
    r[0].v[GP_SASS_THREAD_INST] = 1000;
    r[1].v[GP_SASS_THREAD_INST] = 24;
    r[2].v[GP_SASS_THREAD_INST] = 7;
    /* a global 4-byte load by 320 threads touching 80 sectors (stride 2): 1280 B / 2560 B = 50% */
    r[3].v[GP_SASS_THREAD_INST] = r[3].v[GP_SASS_THREAD_GLOBAL] = 320;
    r[3].v[GP_SASS_GLOBAL_LD] = 10;
    r[3].v[GP_SASS_MEM32] = 10;
    r[3].v[GP_SASS_SECTORS] = 80;
    r[3].v[GP_SASS_SECTORS_IDEAL] = 40;
    /* a global 16-byte store, fully coalesced: 64 threads x 16 B = 32 sectors */
    r[4].v[GP_SASS_THREAD_INST] = r[4].v[GP_SASS_THREAD_GLOBAL] = 64;
    r[4].v[GP_SASS_GLOBAL_ST] = 2;
    r[4].v[GP_SASS_MEM128] = 2;
    r[4].v[GP_SASS_SECTORS] = r[4].v[GP_SASS_SECTORS_IDEAL] = 32;
    /* a shared 4-byte load with a 32-way conflict: 32 threads, 32 wavefronts */
    r[5].v[GP_SASS_THREAD_INST] = r[5].v[GP_SASS_THREAD_SHARED] = 32;
    r[5].v[GP_SASS_SHARED] = 1;
    r[5].v[GP_SASS_MEM32] = 1;
    r[5].v[GP_SASS_WAVEFRONTS] = 32;
    r[5].v[GP_SASS_WAVEFRONTS_IDEAL] = 1;
    r[5].v[GP_SASS_DIVERGENT] = 5;
    const char *names[] = {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                           "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
                           "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
                           "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
                           "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
                           "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct",
                           "smsp__sass_branch_targets_threads_divergent.sum",
                           "smsp__sass_sectors_mem_global.sum",
                           "dram__bytes_read.sum"};
    double v[9];
    for (int i = 0; i < 9; i++)
        v[i] = -1;
    gp_sass_derive(r, 6, fake_lookup, NULL, names, 9, v);
    GP_CHECK(v[0] == 1024 && v[1] == 7 && v[2] == 0);
    GP_CHECK_NEAR(v[3], 50.0, 1e-12);
    GP_CHECK_NEAR(v[4], 100.0, 1e-12);
    GP_CHECK_NEAR(v[5], 100.0 * 128 / (32 * 128), 1e-12);
    GP_CHECK(v[6] == 5 && v[7] == 112);
    GP_CHECK(v[8] == -1); /* not a SASS metric: untouched */

    /* one instruction split over two records (CUPTI does this): merged */
    gp_sass_record split[2];
    memset(split, 0, sizeof(split));
    split[0].function = split[1].function = "k";
    split[0].pc = split[1].pc = 48;
    split[0].v[GP_SASS_THREAD_INST] = split[0].v[GP_SASS_THREAD_GLOBAL] = 320;
    split[0].v[GP_SASS_MEM32] = 10;
    split[1].v[GP_SASS_GLOBAL_LD] = 10;
    split[1].v[GP_SASS_SECTORS] = split[1].v[GP_SASS_SECTORS_IDEAL] = 40;
    gp_sass_derive(split, 2, fake_lookup, NULL, names, 9, v);
    GP_CHECK_NEAR(v[3], 100.0, 1e-12);

    /* no loads at all: efficiency is NaN, never 0; unknown code: FP counts NaN */
    r[3].v[GP_SASS_GLOBAL_LD] = 0;
    r[0].function = "unknown";
    gp_sass_derive(r, 6, fake_lookup, NULL, names, 9, v);
    GP_CHECK(isnan(v[3]) && isnan(v[0]));

    /* 3. access patterns whose values are known by hand: one warp-instruction
     * per record, 32 threads; (width, sectors, ideal sectors) as CUPTI
     * reported them on an H100 for tests/gpu/xcheck/patterns.cuh.
     * Nsight Compute's meaning (distinct bytes / bytes fetched) and nvprof's
     * (requested bytes / bytes fetched, above 100% on broadcast). */
    static const struct {
        const char *what;
        int width, sectors, ideal, threads;
        double ncu, nvprof;
    } g[] = {
        {"coalesced 4 B", 4, 4, 4, 32, 100, 100},
        {"stride 2", 4, 8, 4, 32, 50, 50},
        {"stride 4", 4, 16, 4, 32, 25, 25},
        {"stride 32", 4, 32, 4, 32, 12.5, 12.5},
        {"misaligned by 4 B", 4, 5, 4, 32, 80, 80},
        {"1 B", 1, 1, 1, 32, 100, 100},
        {"2 B", 2, 2, 2, 32, 100, 100},
        {"8 B", 8, 8, 8, 32, 100, 100},
        {"16 B", 16, 16, 16, 32, 100, 100},
        {"16 B stride 2", 16, 32, 16, 32, 50, 50},
        {"pairs share an address", 4, 2, 2, 32, 100, 200},
        {"16 B, groups of 8 share", 16, 2, 2, 32, 100, 800},
        {"half the warp predicated off", 4, 2, 2, 16, 100, 100},
        /* a warp-wide broadcast: ncu 12.5 (4 distinct bytes in a sector);
         * without addresses gpuprof can only bound it by the ideal sector */
        {"warp broadcast", 4, 1, 1, 32, 100, 400},
    };
    const char *eff[] = {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
                         "gpuprof__sass_requested_bytes_mem_global_op_ld.sum",
                         "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"};
    for (size_t i = 0; i < sizeof(g) / sizeof(g[0]); i++) {
        gp_sass_record one;
        memset(&one, 0, sizeof(one));
        one.function = "k";
        one.pc = 48;
        one.v[GP_SASS_THREAD_INST] = one.v[GP_SASS_THREAD_GLOBAL] = (uint64_t)g[i].threads;
        one.v[GP_SASS_GLOBAL_LD] = one.v[GP_SASS_INST] = 1;
        int wm = g[i].width == 1 ? GP_SASS_MEM8 : g[i].width == 2 ? GP_SASS_MEM16
               : g[i].width == 4 ? GP_SASS_MEM32 : g[i].width == 8 ? GP_SASS_MEM64 : GP_SASS_MEM128;
        one.v[wm] = 1;
        one.v[GP_SASS_SECTORS] = (uint64_t)g[i].sectors;
        one.v[GP_SASS_SECTORS_IDEAL] = (uint64_t)g[i].ideal;
        double e[3];
        gp_sass_derive(&one, 1, fake_lookup, NULL, eff, 3, e);
        double nvprof = 100.0 * e[1] / (32.0 * e[2]);
        GP_CHECK_MSG(fabs(e[0] - g[i].ncu) < 1e-9 && fabs(nvprof - g[i].nvprof) < 1e-9,
                     "%s: ncu-meaning %g (want %g), nvprof-meaning %g (want %g)", g[i].what, e[0],
                     g[i].ncu, nvprof, g[i].nvprof);
        GP_CHECK(e[0] <= 100.0);
    }
    /* shared memory: bank-conflict degrees 1..32 of 4-byte loads, 8- and
     * 16-byte loads, ldmatrix, and cp.async's shared side */
    static const struct {
        const char *what;
        int width, wf, ideal, threads, ldgsts;
        double ncu, nvprof;
    } sh[] = {
        {"conflict-free", 4, 1, 1, 32, 0, 100, 100},   {"2-way", 4, 2, 1, 32, 0, 50, 50},
        {"4-way", 4, 4, 1, 32, 0, 25, 25},             {"8-way", 4, 8, 1, 32, 0, 12.5, 12.5},
        {"16-way", 4, 16, 1, 32, 0, 6.25, 6.25},       {"32-way", 4, 32, 1, 32, 0, 3.125, 3.125},
        {"8 B sequential", 8, 2, 2, 32, 0, 100, 100}, {"16 B sequential", 16, 4, 4, 32, 0, 100, 100},
        {"8 B stride 16 B", 8, 4, 2, 32, 0, 50, 50},   {"ldmatrix x4", 16, 4, 4, 32, 0, 100, 100},
        {"cp.async 16 B", 16, 4, 4, 32, 1, 100, 100},
        {"16 B, groups of 8 share", 16, 2, 1, 32, 0, 50, 200},
    };
    const char *sheff[] = {"smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct",
                           "gpuprof__sass_requested_bytes_mem_shared.sum",
                           "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"};
    for (size_t i = 0; i < sizeof(sh) / sizeof(sh[0]); i++) {
        gp_sass_record one;
        memset(&one, 0, sizeof(one));
        one.function = "k";
        one.pc = 48;
        one.v[GP_SASS_THREAD_INST] = (uint64_t)sh[i].threads;
        one.v[sh[i].ldgsts ? GP_SASS_THREAD_LDGSTS : GP_SASS_THREAD_SHARED] = (uint64_t)sh[i].threads;
        one.v[sh[i].ldgsts ? GP_SASS_LDGSTS : GP_SASS_SHARED] = one.v[GP_SASS_INST] = 1;
        one.v[sh[i].width == 4 ? GP_SASS_MEM32 : sh[i].width == 8 ? GP_SASS_MEM64 : GP_SASS_MEM128] = 1;
        one.v[GP_SASS_WAVEFRONTS] = (uint64_t)sh[i].wf;
        one.v[GP_SASS_WAVEFRONTS_IDEAL] = (uint64_t)sh[i].ideal;
        double e[3];
        gp_sass_derive(&one, 1, fake_lookup, NULL, sheff, 3, e);
        double nvprof = 100.0 * e[1] / (128.0 * e[2]);
        GP_CHECK_MSG(fabs(e[0] - sh[i].ncu) < 1e-9 && fabs(nvprof - sh[i].nvprof) < 1e-9,
                     "shared %s: ncu-meaning %g (want %g), nvprof-meaning %g (want %g)",
                     sh[i].what, e[0], sh[i].ncu, nvprof, sh[i].nvprof);
    }

    /* 4. constants materialized as HFMA2.MMA Rd, -RZ, RZ, 1.875, 0 (as
     * ptxas emits them, sm_90 encoding) are moves; a real HFMA2 is not */
    static const uint8_t hmov[16] = {0x35, 0x74, 0x05, 0xff, 0x00, 0x00, 0x80, 0x3f,
                                     0xff, 0x01, 0x00, 0x00, 0x00, 0xe2, 0x0f, 0x00};
    static const uint8_t hfma[16] = {0x31, 0x72, 0x05, 0x02, 0x03, 0x00, 0x00, 0x00,
                                     0x04, 0x00, 0x00, 0x00, 0x00, 0xe2, 0x0f, 0x00};
    GP_CHECK(gp_sass_is_fp_move(hmov) && gp_sass_fp_op(hmov) == GP_OP_HFMA);
    GP_CHECK(!gp_sass_is_fp_move(hfma) && gp_sass_fp_op(hfma) == GP_OP_HFMA);
    memcpy(fake_code, hmov, 16);
    gp_sass_record mv;
    memset(&mv, 0, sizeof(mv));
    mv.function = "k";
    mv.v[GP_SASS_THREAD_INST] = 640;
    const char *hn[] = {"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum",
                        "gpuprof__sass_thread_inst_executed_op_hfma_move_pred_on.sum"};
    double hv[2];
    gp_sass_derive(&mv, 1, fake_lookup, NULL, hn, 2, hv);
    GP_CHECK_MSG(hv[0] == 640 && hv[1] == 640, "hfma %g moves %g", hv[0], hv[1]);

    GP_CHECK(gp_sass_derivable("smsp__sass_thread_inst_executed_op_hfma_pred_on.sum"));
    GP_CHECK(gp_sass_derivable("smsp__sass_inst_executed.sum"));
    GP_CHECK(!gp_sass_derivable("smsp__sass_inst_executed.max"));
    GP_CHECK(!gp_sass_derivable("dram__bytes_read.sum"));

    /* @fast routes only the exact sums to the SASS pass: never an efficiency,
     * whose distinct bytes the SASS Metrics API does not count */
    GP_CHECK(gp_sass_exact("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"));
    GP_CHECK(gp_sass_exact("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"));
    GP_CHECK(gp_sass_exact("gpuprof__sass_requested_bytes_mem_shared.sum"));
    GP_CHECK(!gp_sass_exact("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"));
    GP_CHECK(!gp_sass_exact("smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct"));
    GP_CHECK(!gp_sass_exact("dram__bytes_read.sum"));

    /* GPUPROF_SASS_EFFICIENCY=check: an own name is the SASS pass's value of
     * the instrumented name it stands for, derived the same way, the SASS
     * pass's alone (gp_sass_only); the efficiencies are known as such */
    char ob[256];
    GP_CHECK_STR(gp_sass_own_of("gpuprof__sass_own__average_data_bytes_per_sector_mem_global_op_"
                                "ld.pct", ob, sizeof(ob)),
                 "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct");
    GP_CHECK(!gp_sass_own_of("gpuprof__sass_own__", ob, sizeof(ob)) &&
             !gp_sass_own_of("smsp__sass_inst_executed.sum", ob, sizeof(ob)));
    GP_CHECK(gp_sass_only("gpuprof__sass_own__thread_inst_executed_op_ffma_pred_on.sum") &&
             gp_sass_needs_code("gpuprof__sass_own__thread_inst_executed_op_ffma_pred_on.sum"));
    GP_CHECK(!gp_sass_only("gpuprof__sass_own__no_such_metric.sum"));
    GP_CHECK(gp_sass_is_efficiency("smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct") &&
             !gp_sass_is_efficiency("smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum"));
    {
        /* the broadcast of part 3: Nsight Compute's 12.5% (4 distinct bytes
         * in a 32-byte sector), the derivation's bound 100%, under both names */
        gp_sass_record one;
        memset(&one, 0, sizeof(one));
        one.function = "k";
        one.v[GP_SASS_THREAD_INST] = one.v[GP_SASS_THREAD_GLOBAL] = 32;
        one.v[GP_SASS_GLOBAL_LD] = one.v[GP_SASS_INST] = one.v[GP_SASS_MEM32] = 1;
        one.v[GP_SASS_SECTORS] = one.v[GP_SASS_SECTORS_IDEAL] = 1;
        const char *both[] = {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
                              "gpuprof__sass_own__average_data_bytes_per_sector_mem_global_op_ld.pct"};
        double bv[2];
        gp_sass_derive(&one, 1, fake_lookup, NULL, both, 2, bv);
        GP_CHECK_MSG(bv[0] == 100.0 && bv[1] == 100.0, "%g %g", bv[0], bv[1]);
    }
    return gp_test_finish("sass_derive");
}
