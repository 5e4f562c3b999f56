/* fuzz_listing.c - the parser of nvdisasm's listings (metrics/instructions/sass_listing.c),
 * which reads a program's output: cubin listings with sections and line
 * comments, raw-mode listings, and anything else. */
#include "fuzz.h"
#include "metrics/instructions/sass_listing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_sass_listing l;
    if (gp_sass_listing_parse((const char *)data, size, &l) == 0) {
        gp_sass_listing_find(&l, "");
        gp_sass_listing_free(&l);
    }
    return 0;
}
