/* suite.c - see suite.h. */
#include "suite.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "metrics/records/textfile.h"
#include "util/regex_safe.h"
#include "util/strindex.h"
#include "util/strutil.h"

__attribute__((format(printf, 5, 6))) static int
gpc_suite_err(char *err, size_t errlen, const char *path, int line, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(err, errlen, "%s:%d: ", path, line);
    if (n >= 0 && (size_t)n < errlen) {
        va_start(ap, fmt);
        vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

int gpc_suite_name_ok(const char *name)
{
    const char *p;
    if (!name[0] || name[0] == '.' || name[0] == '-' || strcmp(name, "summary") == 0)
        return 0;
    for (p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' && *p != '-')
            return 0;
    return strlen(name) < 200;
}

int gpc_push(char ***arr, size_t *n, const char *v)
{
    char **na = realloc(*arr, (*n + 1) * sizeof *na);
    if (!na)
        return -1;
    *arr = na;
    if (!(na[*n] = strdup(v)))
        return -1;
    (*n)++;
    return 0;
}

static void gpc_program_free(gpc_program *p)
{
    size_t i;
    free(p->name);
    free(p->dir);
    free(p->cmd);
    for (i = 0; i < p->n_env; i++)
        free(p->env[i]);
    free(p->env);
    for (i = 0; i < p->n_compare; i++)
        free(p->compare[i]);
    free(p->compare);
    gp_strindex_free(&p->compare_ix);
    for (i = 0; i < p->n_ignore; i++) {
        free(p->ignore[i]);
        regfree(&p->ignore_re[i]);
    }
    free(p->ignore);
    free(p->ignore_re);
}

void gpc_suite_free(gpc_suite *s)
{
    size_t i;
    for (i = 0; i < s->n; i++)
        gpc_program_free(&s->progs[i]);
    free(s->progs);
    free(s->path);
    free(s->base);
    gp_strindex_free(&s->by_name);
    memset(s, 0, sizeof *s);
}

const gpc_program *gpc_suite_find(const gpc_suite *s, const char *name)
{
    long at = gp_strindex_find(s->by_name, name, strlen(name));
    return at >= 0 ? &s->progs[at] : NULL;
}

static char *gpc_join(const char *base, const char *rel)
{
    size_t n;
    char *d;
    if (rel[0] == '/')
        return strdup(rel);
    n = strlen(base) + strlen(rel) + 2;
    if ((d = malloc(n)))
        snprintf(d, n, "%s/%s", base, rel);
    return d;
}

/* 1 when re leaves out every line: it matches the empty line and a few
 * lines that share no character (".*", "x*", "^"). */
static int gpc_matches_all(const regex_t *re)
{
    static const char *const probes[] = {"", "gpuprof", "0 1.5e-3 ms", "\t#{}[]()|\\^$?*+.",
                                         "\x01\x7f\xc3\xa9"};
    size_t i;
    for (i = 0; i < sizeof probes / sizeof probes[0]; i++)
        if (regexec(re, probes[i], 0, NULL, 0) != 0)
            return 0;
    return 1;
}

/* val without "." components and repeated slashes, so that one file has one
 * spelling ("./out.txt" is "out.txt"); NULL when out of memory. */
static char *gpc_compare_norm(const char *val)
{
    char *d = malloc(strlen(val) + 1);
    const char *c = val;
    size_t o = 0;
    if (!d)
        return NULL;
    while (*c) {
        size_t n = strcspn(c, "/");
        if (n && !(n == 1 && c[0] == '.')) {
            if (o)
                d[o++] = '/';
            memcpy(d + o, c, n);
            o += n;
        }
        c += n + (c[n] == '/');
    }
    d[o] = 0;
    return d;
}

/* A compare line: an output of the program, inside its directory, listed
 * once.  Characterize moves it away after each run, so it must not name
 * anything else, and a second listing would find it gone and report a
 * failure the program did not have. */
static int gpc_suite_compare(gpc_program *p, const char *val, const char *path, int line, char *err,
                             size_t errlen)
{
    const char *c;
    char *norm;
    long at;
    int rc;
    if (!val[0])
        return gpc_suite_err(err, errlen, path, line, "compare needs a file name");
    for (c = val; *c; c = strchr(c, '/') ? strchr(c, '/') + 1 : c + strlen(c))
        if (strncmp(c, "..", 2) == 0 && (c[2] == '/' || !c[2]))
            break;
    if (val[0] == '/' || *c || val[strlen(val) - 1] == '/')
        return gpc_suite_err(err, errlen, path, line,
                             "compare '%s' must name a file inside the program's directory "
                             "(a relative path without '..')",
                             val);
    if (!(norm = gpc_compare_norm(val)))
        return gpc_suite_err(err, errlen, path, line, "out of memory");
    if (!norm[0]) {
        free(norm);
        return gpc_suite_err(err, errlen, path, line,
                             "compare '%s' names the program's directory, not a file", val);
    }
    if ((at = gp_strindex_find(p->compare_ix, norm, strlen(norm))) >= 0) {
        rc = gpc_suite_err(err, errlen, path, line,
                           "compare '%s' is already listed at line %ld for [%s] (each output "
                           "file is compared once)",
                           val, at, p->name);
        free(norm);
        return rc;
    }
    rc = gp_strindex_add(&p->compare_ix, norm, strlen(norm), (size_t)line) < 0 ||
                 gpc_push(&p->compare, &p->n_compare, norm) < 0
             ? gpc_suite_err(err, errlen, path, line, "out of memory")
             : 0;
    free(norm);
    return rc;
}

/* One key = value line of the current program. */
static int gpc_suite_key(gpc_suite *s, gpc_program *p, const char *key, const char *val,
                         const char *path, int line, char *err, size_t errlen)
{
    if (strcmp(key, "dir") == 0 || strcmp(key, "cmd") == 0) {
        char **slot = key[0] == 'd' ? &p->dir : &p->cmd;
        if (*slot)
            return gpc_suite_err(err, errlen, path, line, "'%s' given twice for [%s]", key,
                                 p->name);
        if (!val[0])
            return gpc_suite_err(err, errlen, path, line, "'%s' needs a value", key);
        *slot = key[0] == 'd' ? gpc_join(s->base, val) : strdup(val);
        return *slot ? 0 : gpc_suite_err(err, errlen, path, line, "out of memory");
    }
    if (strcmp(key, "env") == 0) {
        const char *eq = strchr(val, '='), *c;
        int ok = eq && eq > val && !isdigit((unsigned char)val[0]);
        for (c = val; ok && c < eq; c++)
            ok = isalnum((unsigned char)*c) || *c == '_';
        if (!ok)
            return gpc_suite_err(err, errlen, path, line,
                                 "env needs VAR=value with VAR a variable name, not '%s'", val);
        return gpc_push(&p->env, &p->n_env, val) ? gpc_suite_err(err, errlen, path, line, "oom")
                                                 : 0;
    }
    if (strcmp(key, "timeout") == 0) {
        char *end;
        double t = strtod(val, &end);
        if (end == val || *end || !(t > 0) || isinf(t))
            return gpc_suite_err(err, errlen, path, line,
                                 "timeout must be a positive number of seconds, not '%s'", val);
        p->timeout = t;
        return 0;
    }
    if (strcmp(key, "compare") == 0)
        return gpc_suite_compare(p, val, path, line, err, errlen);
    if (strcmp(key, "ignore") == 0) {
        regex_t *nr = realloc(p->ignore_re, (p->n_ignore + 1) * sizeof *nr);
        char why[400];
        if (!nr)
            return gpc_suite_err(err, errlen, path, line, "out of memory");
        p->ignore_re = nr;
        if (!val[0])
            return gpc_suite_err(err, errlen, path, line,
                                 "ignore needs a regular expression (an empty one would match "
                                 "every line, and nothing would be compared)");
        if (gp_regex_compile(&nr[p->n_ignore], val, REG_EXTENDED | REG_NOSUB, why, sizeof why) < 0)
            return gpc_suite_err(err, errlen, path, line, "ignore: bad regular expression '%s': %s",
                                 val, why);
        if (gpc_matches_all(&nr[p->n_ignore])) {
            regfree(&nr[p->n_ignore]);
            return gpc_suite_err(err, errlen, path, line,
                                 "ignore '%s' matches every line (it matches an empty line and "
                                 "lines of any content), so nothing would be compared",
                                 val);
        }
        if (gpc_push(&p->ignore, &p->n_ignore, val)) {
            regfree(&nr[p->n_ignore]);
            return gpc_suite_err(err, errlen, path, line, "out of memory");
        }
        return 0;
    }
    return gpc_suite_err(err, errlen, path, line,
                         "unknown key '%s' (expected dir, cmd, env, timeout, compare or ignore)",
                         key);
}

/* Checks the block just ended. */
static int gpc_suite_close(gpc_suite *s, gpc_program *p, const char *path, char *err, size_t errlen)
{
    if (!p->cmd)
        return gpc_suite_err(err, errlen, path, p->line, "[%s] has no 'cmd ='", p->name);
    if (!p->dir && !(p->dir = strdup(s->base)))
        return gpc_suite_err(err, errlen, path, p->line, "out of memory");
    return 0;
}

int gpc_suite_parse(gpc_suite *s, const char *path, const char *base_dir, const char *text,
                    char *err, size_t errlen)
{
    return gpc_suite_parse_n(s, path, base_dir, text, strlen(text), err, errlen);
}

int gpc_suite_parse_n(gpc_suite *s, const char *path, const char *base_dir, const char *text,
                      size_t text_len, char *err, size_t errlen)
{
    const char *lp = text, *end = text + text_len;
    gpc_program *cur = NULL;
    int line = 0, rc = -1;
    memset(s, 0, sizeof *s);
    if (!(s->path = strdup(path)) || !(s->base = strdup(base_dir))) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    while (lp < end) {
        const char *nl = memchr(lp, '\n', (size_t)(end - lp));
        size_t len = nl ? (size_t)(nl - lp) : (size_t)(end - lp);
        char *l, *b, *e, *eq;
        line++;
        /* a NUL would end the line's C string early: a command cut short
         * without a word, and run */
        if (memchr(lp, 0, len)) {
            gpc_suite_err(err, errlen, path, line,
                          "NUL byte in the line (a suite file is text; the rest of the line "
                          "would be lost)");
            goto out;
        }
        l = gp_strndup(lp, len);
        lp += len + (nl ? 1 : 0);
        if (!l) {
            snprintf(err, errlen, "out of memory");
            goto out;
        }
        for (b = l; isspace((unsigned char)*b); b++)
            ;
        for (e = b + strlen(b); e > b && isspace((unsigned char)e[-1]); e--)
            ;
        *e = 0;
        if (!*b || *b == '#') {
            free(l);
            continue;
        }
        if (*b == '[') {
            gpc_program *np;
            long at;
            if (e[-1] != ']' || e - b < 3) {
                free(l);
                gpc_suite_err(err, errlen, path, line, "a program header is [name]");
                goto out;
            }
            e[-1] = 0;
            b++;
            if (!gpc_suite_name_ok(b)) {
                gpc_suite_err(err, errlen, path, line,
                              "bad program name '%s' (letters, digits, '.', '_', '-'; not "
                              "starting with '.' or '-'; not 'summary')",
                              b);
                free(l);
                goto out;
            }
            if ((at = gp_strindex_find(s->by_name, b, strlen(b))) >= 0) {
                gpc_suite_err(err, errlen, path, line, "program [%s] already defined at line %d", b,
                              s->progs[at].line);
                free(l);
                goto out;
            }
            if (cur && gpc_suite_close(s, cur, path, err, errlen) < 0) {
                free(l);
                goto out;
            }
            if (s->n == s->cap) {
                size_t nc = s->cap ? 2 * s->cap : 16;
                if (!(np = realloc(s->progs, nc * sizeof *np))) {
                    free(l);
                    snprintf(err, errlen, "out of memory");
                    goto out;
                }
                s->progs = np;
                s->cap = nc;
            }
            if (gp_strindex_add(&s->by_name, b, strlen(b), s->n) < 0) {
                free(l);
                snprintf(err, errlen, "out of memory");
                goto out;
            }
            cur = &s->progs[s->n++];
            memset(cur, 0, sizeof *cur);
            cur->line = line;
            cur->timeout = GPC_DEFAULT_TIMEOUT;
            cur->name = strdup(b);
            free(l);
            if (!cur->name) {
                snprintf(err, errlen, "out of memory");
                goto out;
            }
            continue;
        }
        if (!(eq = strchr(b, '='))) {
            gpc_suite_err(err, errlen, path, line, "expected 'key = value' or '[name]', got '%s'",
                          b);
            free(l);
            goto out;
        }
        if (!cur) {
            free(l);
            gpc_suite_err(err, errlen, path, line, "'key = value' before the first [program]");
            goto out;
        }
        {
            char *k = b, *ke = eq, *v = eq + 1;
            while (ke > k && isspace((unsigned char)ke[-1]))
                ke--;
            *ke = 0;
            while (isspace((unsigned char)*v))
                v++;
            if (gpc_suite_key(s, cur, k, v, path, line, err, errlen) < 0) {
                free(l);
                goto out;
            }
        }
        free(l);
    }
    if (cur && gpc_suite_close(s, cur, path, err, errlen) < 0)
        goto out;
    if (!s->n) {
        snprintf(err, errlen, "%s: no [program] in the suite file", path);
        goto out;
    }
    rc = 0;
out:
    if (rc < 0)
        gpc_suite_free(s);
    return rc;
}

int gpc_suite_load(gpc_suite *s, const char *path, char *err, size_t errlen)
{
    char why[256], *text, *slash, base[PATH_MAX], cwd[PATH_MAX];
    size_t len;
    int rc;
    if (!(text = gp_textfile_read(path, &len, why, sizeof why))) {
        snprintf(err, errlen, "cannot read suite file %s: %s", path, why);
        return -1;
    }
    snprintf(base, sizeof base, "%s", path);
    slash = strrchr(base, '/');
    if (slash)
        *(slash == base ? slash + 1 : slash) = 0;
    else
        snprintf(base, sizeof base, ".");
    if (base[0] != '/') {
        char tmp[2 * PATH_MAX + 2];
        if (!getcwd(cwd, sizeof cwd)) {
            free(text);
            snprintf(err, errlen, "cannot get the working directory");
            return -1;
        }
        snprintf(tmp, sizeof tmp, "%s/%s", cwd, base);
        if (strcmp(base, ".") == 0)
            snprintf(tmp, sizeof tmp, "%s", cwd);
        if (strlen(tmp) >= sizeof base) {
            free(text);
            snprintf(err, errlen, "%s: path too long", path);
            return -1;
        }
        memcpy(base, tmp, strlen(tmp) + 1);
    }
    rc = gpc_suite_parse_n(s, path, base, text, len, err, errlen);
    free(text);
    return rc;
}
