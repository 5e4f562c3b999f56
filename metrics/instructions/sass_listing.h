/* sass_listing.h - nvdisasm's listing read into instructions: per function
 * its instructions' offsets and text, and the source line nvdisasm -g gives
 * them.  Pure parsing, no process is run here (the report tool runs the
 * disassembler, tools/report/disasm.c).
 *
 * Accepted: a cubin's listing (`nvdisasm -c [-g] [-hex] file.cubin`:
 * sections "//------ .text.NAME ------", labels ".text.NAME:", the line
 * comments `//## File "PATH", line N`, instruction lines: the offset in a
 * C comment of hex digits, the text up to " ;", then the encoding in a
 * comment "0x..." when -hex was given, its second half on a line of its
 * own) and the raw
 * mode's (`nvdisasm -b SM90 file.bin`: the same instruction lines without
 * sections, one unnamed function).  Labels, directives, encodings on lines
 * of their own and anything else are skipped. */
#ifndef GP_SASS_LISTING_H
#define GP_SASS_LISTING_H

#include <stddef.h>

#define GP_SASS_LISTING_MAX_TEXT 200 /* bytes of one instruction's text */

typedef struct {
    long pc;    /* byte offset in the function */
    char *text; /* "@!P0 BRA `(.L_x_1)", without the " ;" and encodings */
    int file;   /* index into gp_sass_listing.files, -1: no line comment */
    long line;
} gp_sass_line;

typedef struct {
    char *name; /* "" in raw mode */
    gp_sass_line *ins;
    size_t n, cap;
} gp_sass_func;

typedef struct {
    gp_sass_func *funcs;
    size_t n, cap;
    char **files; /* the paths of the line comments */
    size_t n_files;
} gp_sass_listing;

/* Parses text[0..len).  Returns 0, or -1 when memory ran out (out is then
 * freed).  A listing with no instruction is not an error: n is 0. */
int gp_sass_listing_parse(const char *text, size_t len, gp_sass_listing *out);
void gp_sass_listing_free(gp_sass_listing *l);

/* The function of that name, NULL when none. */
const gp_sass_func *gp_sass_listing_find(const gp_sass_listing *l, const char *name);

#endif
