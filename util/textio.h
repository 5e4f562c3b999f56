/* textio.h - writing text formats correctly: JSON strings and CSV fields.
 * The one place these escapes are written (library, report, tools). */
#ifndef GP_TEXTIO_H
#define GP_TEXTIO_H

#include <stdio.h>

/* s as a JSON string with quotes and escapes; NULL as null. */
void gp_text_json_string(FILE *f, const char *s);
/* s as one CSV field (RFC 4180: quoted when it holds , " CR or LF); NULL as empty. */
void gp_text_csv_field(FILE *f, const char *s);

#endif
