/* textfile.h - whole-file and line-by-line reading with no length limit. */
#ifndef GP_TEXTFILE_H
#define GP_TEXTFILE_H

#include <stddef.h>
#include <stdio.h>

/* Reads a whole file (NUL-terminated; *len excludes the NUL).  NULL with the
 * reason in err on failure ("it is a directory", the errno text). */
char *gp_textfile_read(const char *path, size_t *len, char *err, size_t errlen);

#endif
