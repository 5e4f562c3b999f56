/* gp_uthash.h - the one place uthash is included.  Out of memory is not fatal:
 * the failed insert is dropped and the caller sees it through gp_uthash_oom. */
#ifndef GP_UTHASH_H
#define GP_UTHASH_H

extern __thread int gp_uthash_oom;
#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(elt) (gp_uthash_oom = 1)
#include <uthash.h>

#endif
