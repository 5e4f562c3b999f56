/* textio.c - see textio.h */
#include "util/textio.h"

#include <string.h>

/* Length of the UTF-8 sequence at p and its code point, or 0 when the bytes
 * are not one (overlong, surrogate, beyond U+10FFFF, cut short). */
static size_t utf8_seq(const unsigned char *p, unsigned *cp)
{
    size_t n;
    unsigned c;
    if (p[0] < 0x80) {
        *cp = p[0];
        return 1;
    }
    if (p[0] >= 0xC2 && p[0] <= 0xDF)
        n = 2, c = p[0] & 0x1F;
    else if (p[0] >= 0xE0 && p[0] <= 0xEF)
        n = 3, c = p[0] & 0x0F;
    else if (p[0] >= 0xF0 && p[0] <= 0xF4)
        n = 4, c = p[0] & 0x07;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (p[i] & 0x3F);
    }
    if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
        (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
}

void gp_text_json_string(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        unsigned cp;
        size_t n = utf8_seq(p, &cp);
        if (n == 0) {
            /* not UTF-8: the output must stay valid JSON (RFC 8259 8.1) */
            fputs("\\ufffd", f);
            p++;
            continue;
        }
        switch (cp) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            /* controls (C0, DEL, C1), the separators JavaScript takes for
             * line ends, bidirectional overrides and isolates: escaped, the
             * same string to a JSON reader, and nothing a terminal or an
             * editor acts on when the file is shown */
            if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == 0x2028 || cp == 0x2029 ||
                (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
                fprintf(f, "\\u%04x", cp);
            else if (n == 1)
                fputc(*p, f);
            else
                fwrite(p, 1, n, f);
        }
        p += n;
    }
    fputc('"', f);
}

/* A cell a spreadsheet would run as a formula. */
static int csv_formula(const char *s)
{
    return s[0] && strchr("=+-@\t\r", s[0]);
}

static size_t plain_next(const unsigned char *p, char out[16]);

/* The cell's text: every character as gp_text_plain shows it but tabs
 * (indentation of a source line), and '"' doubled when quoted. */
static void csv_text(FILE *f, const char *s, int quoted)
{
    const unsigned char *p = (const unsigned char *)s;
    char one[16];
    while (*p) {
        if (*p == '\t' || (*p == '"' && quoted)) {
            if (*p == '"')
                fputc('"', f);
            fputc(*p++, f);
            continue;
        }
        p += plain_next(p, one);
        fputs(one, f);
    }
}

static void csv_quoted(FILE *f, const char *s, int formula)
{
    fputc('"', f);
    if (formula)
        fputc('\'', f);
    csv_text(f, s, 1);
    fputc('"', f);
}

void gp_text_csv_field(FILE *f, const char *s)
{
    if (!s)
        return;
    if (!csv_formula(s) && !strpbrk(s, ",\"\n\r")) {
        csv_text(f, s, 0);
        return;
    }
    csv_quoted(f, s, csv_formula(s));
}

void gp_text_csv_quoted(FILE *f, const char *s)
{
    csv_quoted(f, s ? s : "", s && csv_formula(s));
}

/* A SASS predicate guard: @P0, @!P1, @PT, @UP2, @!UPT, followed by a blank
 * or the end. */
static int sass_predicate(const char *s)
{
    const char *p = s + 1;
    if (*p == '!')
        p++;
    if (*p == 'U')
        p++;
    if (*p++ != 'P')
        return 0;
    if (*p == 'T')
        p++;
    else if (*p >= '0' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return 0;
    return *p == ' ' || *p == '\t' || *p == 0;
}

void gp_text_csv_quoted_sass(FILE *f, const char *s)
{
    int formula = s && csv_formula(s) && !(s[0] == '@' && sass_predicate(s));
    csv_quoted(f, s ? s : "", formula);
}

void gp_text_html(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    char one[16];
    while (p && *p) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\t':
        case '\n': fputc(*p, f); break; /* white space of the text (a source file's lines) */
        default: /* any other character as gp_text_plain shows it */
            p += plain_next(p, one);
            fputs(one, f);
            continue;
        }
        p++;
    }
}

/* One character of s as it is shown: into out (at most 16 bytes with the
 * NUL); returns how many bytes of s it took. */
static size_t plain_next(const unsigned char *p, char out[16])
{
    unsigned cp;
    size_t n = utf8_seq(p, &cp);
    if (n == 0) {
        snprintf(out, 16, "\\x%02x", p[0]);
        return 1;
    }
    if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || cp == 0x2028 || cp == 0x2029 ||
               (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
        if (cp < 0x100)
            snprintf(out, 16, "\\x%02x", cp);
        else
            snprintf(out, 16, "\\u{%04x}", cp);
    } else {
        memcpy(out, p, n);
        out[n] = 0;
    }
    return n;
}

void gp_text_plain(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "(null)");
    char one[16];
    while (*p) {
        p += plain_next(p, one);
        fputs(one, f);
    }
}

char *gp_text_plain_buf(char *buf, size_t len, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "(null)");
    size_t o = 0;
    char one[16];
    if (!len)
        return buf;
    while (*p) {
        size_t used = plain_next(p, one), l = strlen(one);
        if (o + l >= len)
            break;
        memcpy(buf + o, one, l);
        o += l;
        p += used;
    }
    buf[o] = 0;
    return buf;
}
