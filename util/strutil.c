/* strutil.c - see strutil.h */
#include "util/strutil.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *gp_strndup(const char *s, size_t len)
{
    char *d = malloc(len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = 0;
    }
    return d;
}

size_t gp_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t *row = malloc((lb + 1) * sizeof(size_t));
    if (!row)
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    size_t d = row[lb];
    free(row);
    return d;
}

size_t gp_split(char *s, char sep, char **items, size_t max)
{
    size_t n = 0;
    char *p = s;
    for (;;) {
        char *end = strchr(p, sep);
        if (end)
            *end = '\0';
        while (isspace((unsigned char)*p))
            p++;
        size_t l = strlen(p);
        while (l && isspace((unsigned char)p[l - 1]))
            p[--l] = '\0';
        if (*p) {
            if (n == max)
                return (size_t)-1;
            items[n++] = p;
        }
        if (!end)
            break;
        p = end + 1;
    }
    return n;
}

int gp_expand_path(const char *pattern, long pid, const char *host, char *out, size_t len)
{
    size_t o = 0;
    for (const char *p = pattern; *p; p++) {
        char tmp[64];
        const char *add = tmp;
        if (*p != '%') {
            tmp[0] = *p;
            tmp[1] = '\0';
        } else if (p[1] == 'p') {
            snprintf(tmp, sizeof(tmp), "%ld", pid);
            p++;
        } else if (p[1] == 'h') {
            add = host;
            p++;
        } else if (p[1] == 'q' && p[2] == '{') {
            /* %q{VAR}: the variable's value, as Nsight Compute's -o expands it
             * (e.g. an MPI rank); an unset variable expands to nothing */
            const char *name = p + 3, *close = name;
            while ((*close >= 'A' && *close <= 'Z') || (*close >= 'a' && *close <= 'z') ||
                   (*close >= '0' && *close <= '9') || *close == '_')
                close++;
            if (*close != '}' || close == name || (size_t)(close - name) >= sizeof(tmp))
                return -1;
            memcpy(tmp, name, (size_t)(close - name));
            tmp[close - name] = '\0';
            add = getenv(tmp);
            if (!add)
                add = "";
            p = close;
        } else if (p[1] == '%') {
            tmp[0] = '%';
            tmp[1] = '\0';
            p++;
        } else {
            return -1;
        }
        size_t l = strlen(add);
        if (o + l >= len)
            return -1;
        memcpy(out + o, add, l);
        o += l;
    }
    out[o] = '\0';
    return 0;
}
