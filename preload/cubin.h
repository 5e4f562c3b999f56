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

/* Calls fn once per kernel code section (.text.<name>) with the function's
 * name and machine code.  Returns the number of functions, or -1 when the
 * image is not a 64-bit ELF. */
typedef void (*gp_cubin_function_fn)(const char *name, const uint8_t *code, size_t size, void *arg);
int gp_cubin_each_function(const void *image, size_t size, gp_cubin_function_fn fn, void *arg);

/* The same over an image that may be a fat binary: when the image is not an
 * ELF file, every uncompressed ELF embedded in it (8-byte aligned) is
 * visited.  Returns the number of functions visited, -1 when none was found
 * (compressed fat binaries hold no readable machine code). */
int gp_cubin_each_function_any(const void *image, size_t size, gp_cubin_function_fn fn, void *arg);

/* Calls fn once per ELF image in image[0..size): the image itself when it is
 * an ELF file, else every uncompressed ELF embedded in it (a fat binary),
 * with that ELF's extent.  Returns the number of ELF images visited. */
typedef void (*gp_cubin_elf_fn)(const uint8_t *elf, size_t size, void *arg);
int gp_cubin_each_elf(const void *image, size_t size, gp_cubin_elf_fn fn, void *arg);

/* The SM version a cubin is built for (90 for sm_90), 0 when unknown. */
int gp_cubin_sm(const void *image, size_t size);

/* 1 when the ELF image has a section of that name (".debug_line"), 0 when
 * not or when the image is not a well-formed 64-bit ELF. */
int gp_cubin_has_section(const void *image, size_t size, const char *name);

#endif
