/* guard.h - an efficiency of nothing is n/a, not 0: the ratios of
 * guards.def whose count is 0 in a launch become NaN with the guard's
 * reason.  Used by the library before it writes a record and by the report
 * when it reads one (records written before the guard existed). */
#ifndef GP_GUARD_H
#define GP_GUARD_H

#include <stddef.h>

typedef enum {
#define GP_GUARD(id, ratio, count, reason) GP_GUARD_##id,
#include "metrics/records/guards.def"
#undef GP_GUARD
    GP_GUARD_COUNT
} gp_guard_id;

/* The reason of guard id ("no shared-memory accesses (...)"), "" when out of
 * range. */
const char *gp_guard_reason(int id);

/* The guard whose reason why carries (a derived metric's reason quotes the
 * counter's), or -1. */
int gp_guard_of_reason(const char *why);

/* Applies every guard to one launch's values: names[i] / values[i] for i <
 * n.  For a guard whose ratio and count are both there and whose count is 0,
 * values[ratio] becomes NaN and set_missing(ctx, ratio's index, reason) is
 * called (set_missing may be NULL).  Returns how many values it withheld.
 * Invariant checked: a count that is negative is left alone (the record's
 * readers already refuse it). */
size_t gp_guard_apply(const char *const *names, double *values, size_t n,
                      void (*set_missing)(void *ctx, size_t i, const char *reason), void *ctx);

/* The shared-memory guard of a launch that allocates no shared memory
 * (static and dynamic both 0, as its record says): such a launch made no
 * shared-memory access, so where the record has the ratio as 0 but not the
 * wavefront count (records of runs that did not collect it), the ratio is
 * withheld as the guard would withhold it, its reason carrying the guard's.
 * The caller knows the allocation; returns 1 when it withheld the ratio. */
size_t gp_guard_unallocated_shared(const char *const *names, double *values, size_t n,
                                   void (*set_missing)(void *ctx, size_t i, const char *reason),
                                   void *ctx);

#endif
