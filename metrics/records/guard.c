/* guard.c - see guard.h. */
#include "metrics/records/guard.h"

#include <math.h>
#include <string.h>

static const struct {
    const char *ratio, *count, *reason;
} gp_guards[GP_GUARD_COUNT] = {
#define GP_GUARD(id, ratio, count, reason) {ratio, count, reason},
#include "metrics/records/guards.def"
#undef GP_GUARD
};

const char *gp_guard_reason(int id)
{
    return id >= 0 && id < GP_GUARD_COUNT ? gp_guards[id].reason : "";
}

int gp_guard_of_reason(const char *why)
{
    int g;
    for (g = 0; why && g < GP_GUARD_COUNT; g++)
        if (strstr(why, gp_guards[g].reason))
            return g;
    return -1;
}

/* A record has tens of metrics and the table a handful of lines: a scan per
 * guard costs less than an index would to build. */
static long gp_guard_find(const char *const *names, size_t n, const char *name)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0)
            return (long)i;
    return -1;
}

size_t gp_guard_apply(const char *const *names, double *values, size_t n,
                      void (*set_missing)(void *ctx, size_t i, const char *reason), void *ctx)
{
    size_t withheld = 0;
    int g;
    for (g = 0; g < GP_GUARD_COUNT; g++) {
        long r = gp_guard_find(names, n, gp_guards[g].ratio);
        long c = r >= 0 ? gp_guard_find(names, n, gp_guards[g].count) : -1;
        if (c < 0 || values[c] != 0 || isnan(values[r]))
            continue;
        values[r] = NAN;
        withheld++;
        if (set_missing)
            set_missing(ctx, (size_t)r, gp_guards[g].reason);
    }
    return withheld;
}

size_t gp_guard_unallocated_shared(const char *const *names, double *values, size_t n,
                                   void (*set_missing)(void *ctx, size_t i, const char *reason),
                                   void *ctx)
{
    static const char why[] = "no shared-memory accesses (0 shared wavefronts), the launch "
                              "allocates no shared memory";
    long r = gp_guard_find(names, n, gp_guards[GP_GUARD_SHARED].ratio);
    /* with the count there the table's guard has decided; a ratio above 0
     * is left for the invariant checks to question */
    if (r < 0 || values[r] != 0 || gp_guard_find(names, n, gp_guards[GP_GUARD_SHARED].count) >= 0)
        return 0;
    values[r] = NAN;
    if (set_missing)
        set_missing(ctx, (size_t)r, why);
    return 1;
}
