/* kname.c - see kname.h */
#include "util/kname.h"

#include <string.h>

static const char gp_kname_anon[] = "(anonymous namespace)";

/* The qualified function name inside a demangled signature: [*b, *e) without
 * the return type (ends at the last space outside brackets) and the parameter
 * list (the first '(' outside brackets).  "(anonymous namespace)" is part of
 * a name, not a parameter list; lambdas ("{lambda(int)#1}") are names too. */
static void gp_kname_span(const char *s, const char **b, const char **e)
{
    int angle = 0, paren = 0, brace = 0;
    const char *p;
    *b = s;
    for (p = s; *p; p++) {
        if (strncmp(p, gp_kname_anon, sizeof gp_kname_anon - 1) == 0) {
            p += sizeof gp_kname_anon - 2;
            continue;
        }
        int top = angle == 0 && paren == 0 && brace == 0;
        switch (*p) {
        case '<':
            angle++;
            break;
        case '>':
            if (angle)
                angle--;
            break;
        case '{':
            brace++;
            break;
        case '}':
            if (brace)
                brace--;
            break;
        case '(':
            if (top) {
                *e = p;
                return;
            }
            paren++;
            break;
        case ')':
            if (paren)
                paren--;
            break;
        case ' ':
            if (top)
                *b = p + 1;
            break;
        default:
            break;
        }
    }
    *e = p;
}

/* Splits [b, e) into the last component's name [*nb, *ne) and its template
 * arguments [*tb, *te) (empty when none). */
static void gp_kname_parts(const char *b, const char *e, const char **nb, const char **ne,
                           const char **tb, const char **te)
{
    int depth = 0;
    const char *p, *last = b, *open = NULL;
    for (p = b; p < e; p++) {
        if (strncmp(p, gp_kname_anon, sizeof gp_kname_anon - 1) == 0 &&
            p + sizeof gp_kname_anon - 1 <= e) {
            p += sizeof gp_kname_anon - 2;
            continue;
        }
        if (*p == '<' || *p == '(' || *p == '{') {
            if (depth == 0 && *p == '<' && !open)
                open = p;
            depth++;
        } else if ((*p == '>' || *p == ')' || *p == '}') && depth) {
            depth--;
        } else if (depth == 0 && p[0] == ':' && p + 1 < e && p[1] == ':') {
            last = p + 2;
            open = NULL;
            p++;
        }
    }
    *nb = last;
    *ne = open ? open : e;
    *tb = *te = *ne;
    if (open) {
        depth = 0;
        for (p = open; p < e; p++) {
            if (*p == '<')
                depth++;
            else if (*p == '>' && --depth == 0) {
                *te = p + 1;
                break;
            }
        }
        if (*te == *tb)
            *te = e; /* unbalanced: keep the rest */
    }
}

static void gp_kname_copy(const char *b, const char *e, char *buf, size_t len)
{
    size_t n = (size_t)(e - b);
    if (!len)
        return;
    if (n >= len)
        n = len - 1;
    memcpy(buf, b, n);
    buf[n] = '\0';
}

void gp_kname_function(const char *demangled, char *buf, size_t len)
{
    const char *b, *e, *nb, *ne, *tb, *te;
    gp_kname_span(demangled, &b, &e);
    gp_kname_parts(b, e, &nb, &ne, &tb, &te);
    if (ne == nb) /* nothing left (a name made only of brackets): keep it whole */
        gp_kname_copy(b, e, buf, len);
    else
        gp_kname_copy(nb, ne, buf, len);
}

void gp_kname_template_args(const char *demangled, char *buf, size_t len)
{
    const char *b, *e, *nb, *ne, *tb, *te;
    gp_kname_span(demangled, &b, &e);
    gp_kname_parts(b, e, &nb, &ne, &tb, &te);
    gp_kname_copy(tb, te, buf, len);
}
