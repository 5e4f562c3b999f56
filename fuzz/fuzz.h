/* fuzz.h - what every fuzz target shares: the libFuzzer entry point, and a
 * sink for the writers' output (written, then thrown away). */
#ifndef GP_FUZZ_H
#define GP_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A stream whose contents are discarded (opened once). */
FILE *gp_fuzz_sink(void);
/* data as a NUL-terminated copy (the caller frees it); NULL when it holds a
 * NUL byte, which no text input may. */
char *gp_fuzz_text(const uint8_t *data, size_t size);

#endif
