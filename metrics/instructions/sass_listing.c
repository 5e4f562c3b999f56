/* sass_listing.c - see sass_listing.h. */
#include "metrics/instructions/sass_listing.h"

#include <stdlib.h>
#include <string.h>

#include "util/strutil.h"

static int gp_sass_listing_starts(const char *p, const char *end, const char *prefix)
{
    size_t n = strlen(prefix);
    return (size_t)(end - p) >= n && memcmp(p, prefix, n) == 0;
}

/* A function NAME[0..n) becomes the current one (added when new). */
static gp_sass_func *gp_sass_listing_func(gp_sass_listing *l, const char *name, size_t n)
{
    size_t i;
    for (i = 0; i < l->n; i++)
        if (strlen(l->funcs[i].name) == n && memcmp(l->funcs[i].name, name, n) == 0)
            return &l->funcs[i];
    if (l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 8;
        gp_sass_func *nf = realloc(l->funcs, nc * sizeof *nf);
        if (!nf)
            return NULL;
        l->funcs = nf;
        l->cap = nc;
    }
    memset(&l->funcs[l->n], 0, sizeof l->funcs[l->n]);
    if (!(l->funcs[l->n].name = gp_strndup(name, n)))
        return NULL;
    return &l->funcs[l->n++];
}

/* The name of a .text.NAME section at p (up to a blank, comma or colon). */
static size_t gp_sass_listing_name(const char *p, const char *end)
{
    size_t n = 0;
    while (p + n < end && p[n] != ' ' && p[n] != '\t' && p[n] != ',' && p[n] != ':')
        n++;
    return n;
}

static int gp_sass_listing_file(gp_sass_listing *l, const char *path, size_t n)
{
    size_t i;
    char **nf;
    for (i = 0; i < l->n_files; i++)
        if (strlen(l->files[i]) == n && memcmp(l->files[i], path, n) == 0)
            return (int)i;
    if (!(nf = realloc(l->files, (l->n_files + 1) * sizeof *nf)))
        return -2;
    l->files = nf;
    if (!(l->files[l->n_files] = gp_strndup(path, n)))
        return -2;
    return (int)l->n_files++;
}

/* An instruction line at p (offset comment, text, " ;"): 1 and the offset
 * and the text, else 0. */
static int gp_sass_listing_instr(const char *p, const char *end, long *pc, const char **text,
                                 size_t *tn)
{
    const char *q, *semi = NULL;
    long v = 0;
    int digits = 0;
    if (!gp_sass_listing_starts(p, end, "/*"))
        return 0;
    for (q = p + 2; q < end && digits < 12; q++, digits++) {
        int c = *q, d = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
        if (d < 0)
            break;
        v = v * 16 + d;
    }
    if (!digits || !gp_sass_listing_starts(q, end, "*/"))
        return 0; /* a comment "0x000fe2...": an encoding, not an offset */
    q += 2;
    while (q < end && (*q == ' ' || *q == '\t'))
        q++;
    /* the text ends at the last ';' before an encoding comment */
    for (p = q; p < end && !gp_sass_listing_starts(p, end, "/*"); p++)
        if (*p == ';')
            semi = p;
    p = semi ? semi : p;
    while (p > q && (p[-1] == ' ' || p[-1] == '\t'))
        p--;
    if (p == q || *q == '.')
        return 0; /* empty, or a directive (.byte ...) */
    *pc = v;
    *text = q;
    *tn = (size_t)(p - q);
    return 1;
}

static int gp_sass_listing_add(gp_sass_func *f, long pc, const char *text, size_t n, int file,
                               long line)
{
    if (f->n == f->cap) {
        size_t nc = f->cap ? 2 * f->cap : 64;
        gp_sass_line *ni = realloc(f->ins, nc * sizeof *ni);
        if (!ni)
            return -1;
        f->ins = ni;
        f->cap = nc;
    }
    if (n > GP_SASS_LISTING_MAX_TEXT)
        n = GP_SASS_LISTING_MAX_TEXT;
    if (!(f->ins[f->n].text = gp_strndup(text, n)))
        return -1;
    f->ins[f->n].pc = pc;
    f->ins[f->n].file = file;
    f->ins[f->n].line = line;
    f->n++;
    return 0;
}

int gp_sass_listing_parse(const char *text, size_t len, gp_sass_listing *out)
{
    const char *p = text, *end = text + len;
    gp_sass_func *cur = NULL;
    int file = -1, sections = 0;
    long line = 0;
    memset(out, 0, sizeof *out);
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p)), *q = p;
        const char *stop = eol ? eol : end, *t;
        long pc;
        size_t tn;
        while (q < stop && (*q == ' ' || *q == '\t'))
            q++;
        if (gp_sass_listing_starts(q, stop, "//--")) {
            /* a section header: a function's code, or something else */
            const char *s = q;
            while (s < stop && (*s == '/' || *s == '-' || *s == ' '))
                s++;
            sections = 1;
            cur = NULL;
            if (gp_sass_listing_starts(s, stop, ".text.")) {
                s += 6;
                if (!(cur = gp_sass_listing_func(out, s, gp_sass_listing_name(s, stop))))
                    goto oom;
            }
            file = -1;
            line = 0;
        } else if (gp_sass_listing_starts(q, stop, ".text.") && q == p) {
            q += 6; /* the label ".text.NAME:" */
            sections = 1;
            if (!(cur = gp_sass_listing_func(out, q, gp_sass_listing_name(q, stop))))
                goto oom;
        } else if (gp_sass_listing_starts(q, stop, "//## File \"")) {
            const char *path = q + 11, *close = path;
            while (close < stop && *close != '"')
                close++;
            file = gp_sass_listing_file(out, path, (size_t)(close - path));
            if (file == -2)
                goto oom;
            line = 0;
            if (gp_sass_listing_starts(close, stop, "\", line ")) /* bounded by the line's end */
                for (t = close + 8; t < stop && *t >= '0' && *t <= '9' && line < 1L << 40; t++)
                    line = line * 10 + (*t - '0');
        } else if (gp_sass_listing_instr(q, stop, &pc, &t, &tn)) {
            if (!cur && !sections && !(cur = gp_sass_listing_func(out, "", 0)))
                goto oom; /* raw mode: one unnamed function */
            if (cur && gp_sass_listing_add(cur, pc, t, tn, file, line) < 0)
                goto oom;
        }
        p = eol ? eol + 1 : end;
    }
    return 0;
oom:
    gp_sass_listing_free(out);
    return -1;
}

void gp_sass_listing_free(gp_sass_listing *l)
{
    size_t i, j;
    for (i = 0; i < l->n; i++) {
        for (j = 0; j < l->funcs[i].n; j++)
            free(l->funcs[i].ins[j].text);
        free(l->funcs[i].ins);
        free(l->funcs[i].name);
    }
    free(l->funcs);
    for (i = 0; i < l->n_files; i++)
        free(l->files[i]);
    free(l->files);
    memset(l, 0, sizeof *l);
}

const gp_sass_func *gp_sass_listing_find(const gp_sass_listing *l, const char *name)
{
    size_t i;
    for (i = 0; i < l->n; i++)
        if (strcmp(l->funcs[i].name, name) == 0)
            return &l->funcs[i];
    return NULL;
}
