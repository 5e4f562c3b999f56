/* source_text.h - text the report tool finds at report time and gives to
 * the instruction-level model: each source file's text (or why there is
 * none) and each function's SASS text by instruction (or why there is
 * none).  The model only keeps them; reading files and running the
 * disassembler are tools/report/'s. */
#ifndef GP_SOURCE_TEXT_H
#define GP_SOURCE_TEXT_H

#include <stddef.h>

#include "metrics/instructions/source.h"

/* The file's line (1-based) as read, NULL when not read or beyond it. */
const char *gp_source_text_line(const gp_source *s, int file, long line);

/* Gives file's text (taken over: malloc'd, NUL-terminated, len bytes), or
 * (text NULL) the reason there is none (copied). */
void gp_source_text_set_file(gp_source *s, int file, char *text, size_t len, const char *why);

/* Sets the SASS text of the instruction at pc of f (copied, at most 200
 * bytes); 0, or -1 when f's record holds no code (f->code), pc is not an
 * instruction of that code (beyond code_bytes, not a multiple of 16) or
 * memory ran out. */
int gp_source_text_set_sass(gp_source_func *f, long pc, const char *text);
/* The SASS text at pc, NULL when none. */
const char *gp_source_text_sass(const gp_source_func *f, long pc);
/* Sets why f has no SASS text (copied). */
void gp_source_text_set_sass_why(gp_source_func *f, const char *why);

#endif
