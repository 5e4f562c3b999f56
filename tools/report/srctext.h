/* srctext.h - the source files that instruction records name, read at
 * report time for the text and HTML reports' source lines.  Only regular
 * files with a source file's name (.cu, .cuh, .c, .cpp, .h, .py, ...) are
 * read, never through a symbolic link at the file itself, each at most
 * GP_SRCTEXT_MAX_FILE bytes and GP_SRCTEXT_MAX_TOTAL in all, never a file
 * with NUL bytes: a report shared with others must not carry a file that a
 * record named by accident or on purpose (/etc/passwd, a key, a link
 * named kernel.cu to either). */
#ifndef GP_SRCTEXT_H
#define GP_SRCTEXT_H

#include <stddef.h>

#include "metrics/instructions/source.h"
#include "metrics/instructions/source_text.h"

#define GP_SRCTEXT_MAX_FILE (4L << 20)
#define GP_SRCTEXT_MAX_TOTAL (64L << 20)

/* Reads each file of s at its recorded path, else under each folder (the
 * path when relative, then the file's name alone), and gives the text or
 * the reason there is none to s.  Returns how many files were read. */
int gp_srctext_read(gp_source *s, char *const *folders, size_t n_folders);

#endif
