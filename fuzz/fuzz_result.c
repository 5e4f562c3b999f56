/* fuzz_result.c - the result loader of gpuprof-characterize (result.json),
 * and the text a loaded result is shown with. */
#include "fuzz.h"
#include "result.h"
#include "summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024];
    gpc_result r;
    size_t i;
    if (gpc_result_parse(&r, (const char *)data, size, "result.json", err, sizeof err) < 0)
        return 0;
    for (i = 0; i < r.n_diffs; i++)
        gpc_diff_text(&r.diffs[i], gp_fuzz_sink());
    gpc_validity_text(&r.results, gp_fuzz_sink());
    gpc_result_free(&r);
    return 0;
}
