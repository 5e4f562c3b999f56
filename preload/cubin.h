/* cubin.h - names and sizes of the __device__ variables in a cubin (ELF).
 * Pure parsing, no CUDA calls. */
#ifndef GP_CUBIN_H
#define GP_CUBIN_H

#include <stddef.h>
#include <stdint.h>

typedef struct gp_cubin_global {
    char *name;
    uint64_t size;
} gp_cubin_global;

/* Parses image[0..size) and returns the number of global variables found
 * (in .nv.global and .nv.global.init sections), filling *out with a malloc'd
 * array (free with gp_cubin_globals_free).  Returns -1 if the image is not a
 * 64-bit ELF or is malformed. */
int gp_cubin_globals(const void *image, size_t size, gp_cubin_global **out);
void gp_cubin_globals_free(gp_cubin_global *g, int n);

#endif
