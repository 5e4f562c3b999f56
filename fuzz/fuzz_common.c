/* fuzz_common.c - see fuzz.h. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

FILE *gp_fuzz_sink(void)
{
    static FILE *sink;
    if (!sink)
        sink = fopen("/dev/null", "w");
    return sink;
}

char *gp_fuzz_text(const uint8_t *data, size_t size)
{
    char *t;
    if (memchr(data, 0, size) || !(t = malloc(size + 1)))
        return NULL;
    memcpy(t, data, size);
    t[size] = 0;
    return t;
}
