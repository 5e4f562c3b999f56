/* strindex.c - see strindex.h; a uthash of copied keys. */
#include "util/strindex.h"

#include <stdlib.h>
#include <string.h>

#include "util/gp_uthash.h"

struct gp_strindex {
    UT_hash_handle hh;
    size_t pos;
    char key[];
};

long gp_strindex_find(const gp_strindex *ix, const void *key, size_t len)
{
    gp_strindex *e = NULL;
    HASH_FIND(hh, (gp_strindex *)ix, key, len, e);
    return e ? (long)e->pos : -1;
}

int gp_strindex_add(gp_strindex **ix, const void *key, size_t len, size_t pos)
{
    gp_strindex *e;
    if (gp_strindex_find(*ix, key, len) >= 0)
        return 0;
    if (!(e = malloc(sizeof *e + (len ? len : 1))))
        return -1;
    memcpy(e->key, key, len);
    e->pos = pos;
    gp_uthash_oom = 0;
    HASH_ADD_KEYPTR(hh, *ix, e->key, len, e);
    if (gp_uthash_oom) {
        free(e);
        return -1;
    }
    return 0;
}

void gp_strindex_free(gp_strindex **ix)
{
    gp_strindex *e, *tmp;
    HASH_ITER(hh, *ix, e, tmp)
    {
        HASH_DEL(*ix, e);
        free(e);
    }
    *ix = NULL;
}
