/* gp_uthash.h - the one place uthash is included.  Out of memory is not fatal:
 * the failed insert is dropped and the caller sees it through gp_uthash_oom.
 * Every table hashes its keys with gp_strhash (keyed per process), never
 * uthash's fixed Jenkins hash: names from an input file cannot be chosen to
 * fall in one bucket. */
#ifndef GP_UTHASH_H
#define GP_UTHASH_H

#include "util/strhash.h"

extern __thread int gp_uthash_oom;
#define HASH_FUNCTION(keyptr, keylen, hashv)                                                       \
    ((hashv) = (unsigned)gp_strhash((keyptr), (size_t)(keylen)))
#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(elt) (gp_uthash_oom = 1)
#include <uthash.h>

/* item = the entry of head whose key member is key (an lvalue), else a new
 * zeroed one (calloc) with that key, added; NULL when memory ran out. */
#define GP_HASH_FIND_OR_ADD(head, member, key, item)                                               \
    do {                                                                                           \
        HASH_FIND(hh, head, &(key), sizeof((item)->member), item);                                 \
        if (!(item) && ((item) = calloc(1, sizeof(*(item))))) {                                    \
            (item)->member = (key);                                                                \
            gp_uthash_oom = 0;                                                                     \
            HASH_ADD(hh, head, member, sizeof((item)->member), item);                              \
            if (gp_uthash_oom) {                                                                   \
                free(item);                                                                        \
                (item) = NULL;                                                                     \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#endif
