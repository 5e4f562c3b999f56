/* fuzz_ncu.c - Nsight Compute's raw CSV reader (metrics/ncu/ncu_raw.c) and
 * everything gpuprof-report --against does after it: the table is the
 * oracle, a later run and the DRAM-alone run of a fixed set of gpuprof
 * launches, judged (metrics/ncu/against.c) and written in every format.  The
 * judge's own counts must add up; an input that breaks them aborts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "metrics/ncu/against.h"
#include "metrics/ncu/ncu_raw.h"
#include "metrics/report/against_out.h"

static char *gp_fz_names[] = {"smsp__inst_executed.sum",        "l1tex__t_sector_hit_rate.pct",
                              "dram__bytes_write.sum",          "gpu__time_duration.sum",
                              "dram__bytes.sum.peak_sustained", "x__a.sum"};
static const double gp_fz_v0[] = {100, NAN, 20000, 2000, 1280, 0};
static const double gp_fz_v1[] = {1e9, 0, 0, NAN, 1280, -1};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const gp_against_launch l[] = {
        {"void k<int>(float*)", 6, gp_fz_names, gp_fz_v0, "NVIDIA H100", 9, 0},
        {"k", 6, gp_fz_names, gp_fz_v1, NULL, -1, -1},
        {"(anonymous namespace)::other()", 4, gp_fz_names, gp_fz_v1, "", 8, 6},
        {"", 0, gp_fz_names, gp_fz_v0, NULL, -1, -1},
    };
    gp_ncu_table t;
    gp_against_result res;
    const gp_ncu_table *again[2];
    gp_against_inputs in;
    char err[512];
    FILE *f;
    if (!size || !(f = fmemopen((void *)data, size, "r")))
        return 0;
    if (gp_ncu_raw_load_stream(&t, f, "fuzz.csv", err, sizeof err) == 0) {
        size_t i, sum[4] = {0};
        again[0] = again[1] = &t;
        if (gp_against_judge(l, sizeof l / sizeof l[0], &t, again, 2, &t, &t, &res) == 0) {
            for (i = 0; i < res.n_pairs; i++)
                sum[res.pairs[i].outcome]++;
            if (sum[GP_AG_AGREE] != res.agree || sum[GP_AG_DIFFER] != res.differ ||
                sum[GP_AG_UNSTABLE] != res.unstable || sum[GP_AG_OVER100] != res.over100 ||
                res.n_unmatched != res.n_gpuprof_only + res.n_ncu_only)
                abort();
            in = (gp_against_inputs){"run.jsonl", 1, &t, again, 2, &t};
            gp_against_text(&res, &in, gp_fuzz_sink());
            gp_against_json(&res, &in, gp_fuzz_sink());
            gp_against_csv(&res, &in, gp_fuzz_sink());
            gp_against_free(&res);
        }
        gp_ncu_raw_free(&t);
    }
    fclose(f);
    return 0;
}
