/* gp_uthash.c - the out-of-memory flag of gp_uthash.h. */
#include "util/gp_uthash.h"

__thread int gp_uthash_oom;
