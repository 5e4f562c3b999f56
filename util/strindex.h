/* strindex.h - positions in a caller's array found by a byte-string key in
 * constant time: the tools' name lookups (kernels of a report, programs of
 * a suite, results of a merge), where a linear scan made 50,000 kernels
 * take 45 s and a 100,000-program suite 23 s. */
#ifndef GP_STRINDEX_H
#define GP_STRINDEX_H

#include <stddef.h>

typedef struct gp_strindex gp_strindex; /* NULL is the empty index */

/* The position stored for key[0..len), or -1 when absent. */
long gp_strindex_find(const gp_strindex *ix, const void *key, size_t len);
/* Stores pos for key (copied; a key already present keeps its first
 * position).  Returns 0, or -1 when out of memory. */
int gp_strindex_add(gp_strindex **ix, const void *key, size_t len, size_t pos);
void gp_strindex_free(gp_strindex **ix);

#endif
