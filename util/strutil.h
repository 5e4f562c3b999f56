/* strutil.h - small string helpers shared by the library and the tools. */
#ifndef GP_STRUTIL_H
#define GP_STRUTIL_H

#include <stddef.h>

/* Levenshtein distance (for "did you mean" lists). */
size_t gp_edit_distance(const char *a, const char *b);

/* A NUL-terminated copy of s[0..len) (len bytes, NULs included), or NULL
 * when out of memory. */
char *gp_strndup(const char *s, size_t len);

/* Splits s at sep into at most max items (pointers into s, which is
 * modified); trims spaces; skips empty items.  Returns the count, or
 * (size_t)-1 when there were more than max. */
size_t gp_split(char *s, char sep, char **items, size_t max);

/* Expands %p (pid), %h (host name), %q{VAR} (the environment variable VAR,
 * empty when unset) and %% in pattern into out.  Returns 0, or -1 if out is
 * too small or the pattern has another %x. */
int gp_expand_path(const char *pattern, long pid, const char *host, char *out, size_t len);

#endif
