/* nvtx_expr.c - see nvtx_expr.h */
#include "preload/nvtx_expr.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- expressions ------------------------------------------------------- */

enum { EL_NAME, EL_ONE, EL_ANY };

typedef struct {
    int kind;
    char *name; /* EL_NAME */
    regex_t re; /* EL_NAME in regex mode */
} nvtx_el;

struct gp_nvtx_expr {
    char *text;
    int regex;
    int push_pop;    /* 1: push/pop stack pattern, 0: start/end names */
    int bottom, top; /* push/pop anchors '[' and ']' */
    char *domain;    /* "" = the default domain */
    regex_t domain_re;
    int has_domain_re;
    nvtx_el *el;
    size_t n;
};

void gp_nvtx_expr_free(gp_nvtx_expr *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->n; i++) {
        if (e->el[i].kind == EL_NAME && e->regex && e->el[i].name)
            regfree(&e->el[i].re);
        free(e->el[i].name);
    }
    if (e->has_domain_re)
        regfree(&e->domain_re);
    free(e->el);
    free(e->domain);
    free(e->text);
    free(e);
}

const char *gp_nvtx_expr_text(const gp_nvtx_expr *e)
{
    return e->text;
}

/* Position of the first unescaped c in [s, end), or NULL. */
static const char *find_unescaped(const char *s, const char *end, char c)
{
    for (const char *p = s; p < end; p++) {
        if (*p == '\\' && p + 1 < end)
            p++;
        else if (*p == c)
            return p;
    }
    return NULL;
}

/* A copy of [s, end) with escapes resolved: '\x' is x; in regex mode a
 * regex-significant quantifier keeps its backslash (then literal in the
 * regex too). */
static char *unescape(const char *s, const char *end, int regex)
{
    char *out = malloc((size_t)(end - s) + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *p = s; p < end; p++) {
        if (*p == '\\' && p + 1 < end) {
            p++;
            if (regex && strchr("[]*+", *p))
                *o++ = '\\';
        }
        *o++ = *p;
    }
    *o = '\0';
    return out;
}

static int compile(regex_t *re, const char *pattern, char *err, size_t errlen)
{
    int rc = regcomp(re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char why[128];
        regerror(rc, re, why, sizeof(why));
        snprintf(err, errlen, "'%s' is not a POSIX extended regular expression (%s)", pattern, why);
        return -1;
    }
    return 0;
}

static int add_el(gp_nvtx_expr *e, const char *s, const char *end, char *err, size_t errlen)
{
    nvtx_el *n = realloc(e->el, (e->n + 1) * sizeof(*n));
    if (!n) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    e->el = n;
    nvtx_el *el = &e->el[e->n];
    memset(el, 0, sizeof(*el));
    if (end - s == 1 && (*s == '*' || *s == '+') && e->push_pop) {
        el->kind = *s == '*' ? EL_ANY : EL_ONE;
        e->n++;
        return 0;
    }
    if (s == end) {
        snprintf(err, errlen, "an empty range name (ranges without a name cannot be selected)");
        return -1;
    }
    el->kind = EL_NAME;
    el->name = unescape(s, end, e->regex);
    if (!el->name) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (e->regex && compile(&el->re, el->name, err, errlen) != 0) {
        free(el->name);
        return -1;
    }
    e->n++;
    return 0;
}

gp_nvtx_expr *gp_nvtx_expr_parse(const char *text, char *err, size_t errlen)
{
    gp_nvtx_expr *e = calloc(1, sizeof(*e));
    char *range = NULL;
    if (!e || !(e->text = strdup(text)))
        goto oom;
    const char *s = text, *end;
    if (strncmp(s, "regex:", 6) == 0) {
        e->regex = 1;
        s += 6;
    }
    end = s + strlen(s);
    const char *at = find_unescaped(s, end, '@');
    if (at == s) {
        snprintf(err, errlen,
                 "empty domain name before '@' (leave out 'domain@' for the default domain)");
        goto fail;
    }
    if (!(e->domain = at ? unescape(s, at, e->regex) : strdup("")))
        goto oom;
    if (at && e->regex) {
        if (compile(&e->domain_re, e->domain, err, errlen) != 0)
            goto fail;
        e->has_domain_re = 1;
    }
    if (at)
        s = at + 1;
    if (!(range = strdup(s)))
        goto oom;
    size_t len = strlen(range);
    /* In regex mode "/[" at the start and "/]" at the end keep the bracket in
     * the regex instead of anchoring the stack (Nsight Compute's rule). */
    int lit_start = e->regex && len >= 2 && range[0] == '/' && range[1] == '[';
    int lit_end = e->regex && len >= 2 && range[len - 1] == ']' && range[len - 2] == '/' &&
                  !(len >= 3 && range[len - 3] == '\\');
    if (lit_end) {
        range[len - 2] = ']';
        range[--len] = '\0';
    }
    char *r = range + lit_start;
    len -= (size_t)lit_start;
    if (!lit_start && r[0] == '[') {
        e->bottom = 1;
        r++;
        len--;
    }
    if (!lit_end && len && r[len - 1] == ']' && !(len >= 2 && r[len - 2] == '\\')) {
        e->top = 1;
        r[--len] = '\0';
    }
    const char *rend = r + len;
    e->push_pop = e->bottom || e->top || find_unescaped(r, rend, '/') != NULL;
    char sep = e->push_pop ? '/' : ',';
    for (const char *p = r;;) {
        const char *cut = find_unescaped(p, rend, sep);
        const char *stop = cut ? cut : rend;
        /* "A/" names one push/pop range: a trailing delimiter ends the list */
        if (!(cut == NULL && stop == p && e->push_pop && e->n > 0) &&
            add_el(e, p, stop, err, errlen) != 0)
            goto fail;
        if (!cut)
            break;
        p = cut + 1;
    }
    free(range);
    return e;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    free(range);
    gp_nvtx_expr_free(e);
    return NULL;
}

int gp_nvtx_list_parse(const char *text, gp_nvtx_expr **out, size_t max, char *err, size_t errlen)
{
    size_t n = 0;
    const char *s = text, *end = text + strlen(text);
    while (s <= end) {
        const char *cut = find_unescaped(s, end, ';');
        const char *stop = cut ? cut : end;
        while (s < stop && (*s == ' ' || *s == '\t'))
            s++;
        while (stop > s && (stop[-1] == ' ' || stop[-1] == '\t') &&
               !(stop - 1 > s && stop[-2] == '\\'))
            stop--;
        if (stop > s) {
            char *one = malloc((size_t)(stop - s) + 1), *o = one;
            if (!one) {
                snprintf(err, errlen, "out of memory");
                goto fail;
            }
            for (const char *p = s; p < stop; p++) { /* "\;" -> ";", other escapes stay */
                if (p[0] == '\\' && p + 1 < stop && p[1] == ';')
                    p++;
                *o++ = *p;
            }
            *o = '\0';
            if (n == max) {
                snprintf(err, errlen, "more than %zu expressions", max);
                free(one);
                goto fail;
            }
            char why[256];
            out[n] = gp_nvtx_expr_parse(one, why, sizeof(why));
            if (!out[n]) {
                snprintf(err, errlen, "'%s': %s", one, why);
                free(one);
                goto fail;
            }
            free(one);
            n++;
        }
        if (!cut)
            break;
        s = cut + 1;
    }
    return (int)n;
fail:
    while (n)
        gp_nvtx_expr_free(out[--n]);
    return -1;
}

/* ---- matching ------------------------------------------------------------ */

static int name_matches(const gp_nvtx_expr *e, const nvtx_el *el, const char *name)
{
    if (e->regex)
        return regexec(&el->re, name, 0, NULL, 0) == 0;
    return strcmp(el->name, name) == 0;
}

static int domain_matches(const gp_nvtx_expr *e, const char *domain)
{
    if (e->has_domain_re)
        return regexec(&e->domain_re, domain, 0, NULL, 0) == 0;
    return strcmp(e->domain, domain) == 0;
}

/* Elements el[pi..) against names s[si..m). */
static int stack_rec(const gp_nvtx_expr *e, size_t pi, const char *const *s, size_t si, size_t m)
{
    if (pi == e->n)
        return e->top ? si == m : 1;
    const nvtx_el *el = &e->el[pi];
    switch (el->kind) {
    case EL_ANY:
        for (size_t j = si; j <= m; j++)
            if (stack_rec(e, pi + 1, s, j, m))
                return 1;
        return 0;
    case EL_ONE:
        return si < m && stack_rec(e, pi + 1, s, si + 1, m);
    default:
        return si < m && name_matches(e, el, s[si]) && stack_rec(e, pi + 1, s, si + 1, m);
    }
}

/* The push/pop pattern against the stack of one domain. */
static int stack_match(const gp_nvtx_expr *e, const gp_nvtx_view *v, const char *domain,
                       const char **names)
{
    size_t m = 0;
    for (size_t i = 0; i < v->n_stack; i++)
        if (strcmp(v->stack[i].domain, domain) == 0)
            names[m++] = v->stack[i].name;
    for (size_t start = 0; start <= (e->bottom ? 0 : m); start++)
        if (stack_rec(e, 0, names, start, m))
            return 1;
    return 0;
}

int gp_nvtx_expr_match(const gp_nvtx_expr *e, const gp_nvtx_view *v)
{
    if (!e->push_pop) {
        for (size_t i = 0; i < e->n; i++) {
            int found = 0;
            for (size_t j = 0; j < v->n_open && !found; j++)
                found = domain_matches(e, v->open[j].domain) &&
                        name_matches(e, &e->el[i], v->open[j].name);
            if (!found)
                return 0;
        }
        return 1;
    }
    const char **names = malloc((v->n_stack ? v->n_stack : 1) * sizeof(*names));
    if (!names)
        return 0;
    int hit = 0;
    if (!e->has_domain_re) {
        hit = stack_match(e, v, e->domain, names);
    } else { /* every domain on the stack that the domain regex matches */
        for (size_t i = 0; i < v->n_stack && !hit; i++) {
            const char *d = v->stack[i].domain;
            int seen = 0;
            for (size_t j = 0; j < i && !seen; j++)
                seen = strcmp(v->stack[j].domain, d) == 0;
            if (!seen && domain_matches(e, d))
                hit = stack_match(e, v, d, names);
        }
    }
    free(names);
    return hit;
}

int gp_nvtx_select(gp_nvtx_expr *const *inc, size_t n_inc, gp_nvtx_expr *const *exc, size_t n_exc,
                   const gp_nvtx_view *v)
{
    int in = n_inc == 0;
    for (size_t i = 0; i < n_inc && !in; i++)
        in = gp_nvtx_expr_match(inc[i], v);
    for (size_t i = 0; i < n_exc && in; i++)
        in = !gp_nvtx_expr_match(exc[i], v);
    return in;
}
