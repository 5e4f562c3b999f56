/* derived.h - the derived metrics of derived.def: their table and their
 * evaluation for one launch.  The enum of indices (GP_M_<NAME>) comes from
 * the build-time checker (metrics/catalog/gen.c -> gp_derived_checked.h), so a metric
 * renamed in derived.def breaks every use of the old name at compile time. */
#ifndef GP_DERIVED_H
#define GP_DERIVED_H

#include <stddef.h>

#include "metrics/catalog/expr.h"
#include "metrics/catalog/facts.h"
#include "gp_derived_checked.h"

typedef enum { GP_AGG_SUM, GP_AGG_TIME } gp_agg;

typedef struct {
    const char *name, *unit, *cls, *agg_name, *formula, *description;
} gp_derived_def;

extern const gp_derived_def gp_derived_defs[GP_DERIVED_COUNT];

/* Values of all derived metrics for one launch or one kernel; NaN values have
 * their reason in why. */
typedef struct {
    double v[GP_DERIVED_COUNT];
    char why[GP_DERIVED_COUNT][GP_EXPR_WHY];
} gp_derived_row;

gp_agg gp_derived_agg(size_t i);
/* Index by name, -1 when unknown. */
int gp_derived_index(const char *name);

/* Evaluates every definition in order (a formula may use those above it).
 * Returns 0, or -1 if a formula failed to parse (cannot happen after the
 * build check; the metric is then NaN with the reason). */
int gp_derived_eval(const gp_facts *facts, gp_derived_row *row);

/* Marks every metric of row n/a with reason why. */
void gp_derived_row_missing(gp_derived_row *row, const char *why);

#endif
