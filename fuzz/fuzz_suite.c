/* fuzz_suite.c - the suite file parser of gpuprof-characterize, with its
 * regular expression checks, and what `list` and a comparison do with the
 * result. */
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "fuzz.h"
#include "run.h"
#include "suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[1024], *text = malloc(size + 1);
    static const char native[] = "a 1\nTime: 3 ms\nb\n", profiled[] = "a 1\nTime: 4 ms\nb 2\n";
    gpc_suite s;
    size_t i;
    if (!text)
        return 0;
    /* with its length: NUL bytes included, as a suite on standard input */
    memcpy(text, data, size);
    text[size] = 0;
    if (gpc_suite_parse_n(&s, "fuzz.suite", "/base", text, size, err, sizeof err) == 0) {
        for (i = 0; i < s.n; i++) {
            gpc_result r;
            memset(&r, 0, sizeof r);
            gpc_suite_find(&s, s.progs[i].name);
            gpc_compare_text(&s.progs[i], "stdout", native, sizeof native - 1, profiled,
                             sizeof profiled - 1, NULL, &r);
            gpc_result_free(&r);
        }
        gpc_suite_free(&s);
    }
    free(text);
    return 0;
}
