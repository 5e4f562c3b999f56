/* test_sass_derive.c - the SASS pass's arithmetic: opcode classes on real
 * nvcc output for sm_90, metric sums by opcode, global/shared efficiency from
 * per-instruction records, NaN when a kernel has no access of a kind. */
#include "preload/cubin.h"
#include "preload/sass_derive.h"
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
    /* a global 4-byte load by 320 threads touching 80 sectors: 1280 B / 2560 B = 50% */
    r[3].v[GP_SASS_THREAD_INST] = 320;
    r[3].v[GP_SASS_GLOBAL_LD] = 10;
    r[3].v[GP_SASS_MEM32] = 10;
    r[3].v[GP_SASS_SECTORS] = 80;
    /* a global 16-byte store, fully coalesced: 64 threads x 16 B = 32 sectors */
    r[4].v[GP_SASS_THREAD_INST] = 64;
    r[4].v[GP_SASS_GLOBAL_ST] = 2;
    r[4].v[GP_SASS_MEM128] = 2;
    r[4].v[GP_SASS_SECTORS] = 32;
    /* a shared 4-byte load with a 32-way conflict: 32 threads, 32 wavefronts */
    r[5].v[GP_SASS_THREAD_INST] = 32;
    r[5].v[GP_SASS_SHARED] = 1;
    r[5].v[GP_SASS_MEM32] = 1;
    r[5].v[GP_SASS_WAVEFRONTS] = 32;
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
    split[0].v[GP_SASS_THREAD_INST] = 320;
    split[0].v[GP_SASS_MEM32] = 10;
    split[1].v[GP_SASS_GLOBAL_LD] = 10;
    split[1].v[GP_SASS_SECTORS] = 40;
    gp_sass_derive(split, 2, fake_lookup, NULL, names, 9, v);
    GP_CHECK_NEAR(v[3], 100.0, 1e-12);

    /* no loads at all: efficiency is NaN, never 0; unknown code: FP counts NaN */
    r[3].v[GP_SASS_GLOBAL_LD] = 0;
    r[0].function = "unknown";
    gp_sass_derive(r, 6, fake_lookup, NULL, names, 9, v);
    GP_CHECK(isnan(v[3]) && isnan(v[0]));

    GP_CHECK(gp_sass_derivable("smsp__sass_thread_inst_executed_op_hfma_pred_on.sum"));
    GP_CHECK(gp_sass_derivable("smsp__sass_inst_executed.sum"));
    GP_CHECK(!gp_sass_derivable("smsp__sass_inst_executed.max"));
    GP_CHECK(!gp_sass_derivable("dram__bytes_read.sum"));
    return gp_test_finish("sass_derive");
}
