/* textio.h - writing text formats correctly: JSON strings, CSV fields, HTML
 * and SVG text, and names shown on a terminal or in a text report.  The one
 * place these escapes are written (library, report, tools). */
#ifndef GP_TEXTIO_H
#define GP_TEXTIO_H

#include <stddef.h>
#include <stdio.h>

/* s as a JSON string with quotes and escapes; NULL as null.  Bytes that are
 * not UTF-8 become \ufffd (the output stays valid JSON whatever s holds);
 * controls (C0, DEL, C1), U+2028 and U+2029, bidirectional overrides and
 * isolates are written as \uNNNN. */
void gp_text_json_string(FILE *f, const char *s);
/* s as one CSV field (RFC 4180: quoted when it holds , " CR or LF); NULL as
 * empty.  A field that starts with = + - @ TAB or CR gets a leading ' so that
 * a spreadsheet shows it as text instead of running it as a formula.
 * Control characters but the tab, bidirectional overrides and bytes that
 * are not UTF-8 are written as gp_text_plain writes them (\xNN, \u{NNNN}):
 * a cell shown on a terminal (cat, less) must not move the cursor or
 * reverse a line. */
void gp_text_csv_field(FILE *f, const char *s);
/* s as one CSV field that is always quoted (Nsight Compute's layouts quote
 * every field), with the same formula guard and escapes; NULL as "". */
void gp_text_csv_quoted(FILE *f, const char *s);
/* The same for a SASS instruction's text: a predicate guard (@P0, @!UP1,
 * @PT) is left as Nsight Compute's source page writes it; any other text
 * that a spreadsheet would run (=, +, -, @SUM...) is guarded. */
void gp_text_csv_quoted_sass(FILE *f, const char *s);
/* s for a terminal or a text report, where a name must not be able to move
 * the cursor, change colours or start a line of its own: control characters
 * (C0, DEL, C1), line and paragraph separators, bidirectional overrides and
 * bytes that are not UTF-8 are written as \xNN or \u{NNNN}.  NULL as
 * "(null)". */
void gp_text_plain(FILE *f, const char *s);
/* The same into buf (always terminated, cut at a character boundary when
 * it does not fit); returns buf. */
char *gp_text_plain_buf(char *buf, size_t len, const char *s);
/* s as HTML or SVG (XML) text or as a double-quoted attribute value: & < >
 * and " as entities; tab and LF as they are; other control characters (CR too),
 * bidirectional overrides and bytes that are not UTF-8 as gp_text_plain
 * writes them (\xNN, \u{NNNN}), so that no name can put a raw control
 * character in a report or make its SVG invalid XML.  NULL writes nothing. */
void gp_text_html(FILE *f, const char *s);

#endif
