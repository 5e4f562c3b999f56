/* fuzz_config.c - the library's configuration parser (every GPUPROF_*
 * variable, regular expressions included) and the filters it sets up.  The
 * input is the environment, one NAME=value per line. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "preload/config.h"
#include "preload/filter.h"

#define FUZZ_MAX_VARS 64

static char *fuzz_names[FUZZ_MAX_VARS], *fuzz_values[FUZZ_MAX_VARS];
static size_t fuzz_n;

static const char *fuzz_env(const char *name)
{
    for (size_t i = 0; i < fuzz_n; i++)
        if (strcmp(fuzz_names[i], name) == 0)
            return fuzz_values[i];
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const kernels[] = {"void gemm<float, 4>(float*, int)", "add_one",
                                          "_Z6kernelPfi", ""};
    char *text = gp_fuzz_text(data, size), *line, *save = NULL, err[2048], buf[256];
    gp_config cfg;
    if (!text)
        return 0;
    fuzz_n = 0;
    for (line = strtok_r(text, "\n", &save); line && fuzz_n < FUZZ_MAX_VARS;
         line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        *eq = 0;
        fuzz_names[fuzz_n] = line;
        fuzz_values[fuzz_n++] = eq + 1;
    }
    gp_config_parse(&cfg, fuzz_env, err, sizeof err);
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
        gp_filter_name_matches(&cfg, gp_filter_name(&cfg, kernels[i], kernels[i], buf, sizeof buf));
    gp_config_free(&cfg);
    free(text);
    return 0;
}
