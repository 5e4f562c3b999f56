/* expr.h - the formula language of the derived metrics (metrics/catalog/derived.def).
 *
 * Grammar:  expr := term (('+'|'-') term)*     term := unary (('*'|'/') unary)*
 *           unary := '-' unary | primary
 *           primary := number | name | func '(' expr (',' expr)* ')' | '(' expr ')'
 *           func := min | max | ceil | floor | known_or | at_most
 *           | nonzero '(' expr ',' "'" text "'" ')'
 * known_or(x, d) is x, or d where x is missing: for a counter that records
 * written by older versions lack (the only case where a default is stated).
 * at_most(x, m) is x when x <= m (with GP_EXPR_AT_MOST_SLACK of m for
 * rounding), else NaN "impossible value": for a metric its definition
 * bounds (an efficiency of at most 100%), where more means the counters in
 * the record disagree.
 * nonzero(x, 'reason') is x, or NaN with that reason where x is 0: the count
 * under an efficiency or a ratio ('no shared-memory accesses'), so that an
 * efficiency of nothing is n/a with what the kernel did not do, not a
 * division by zero (nor the 0 CUPTI gives for its own ratios).
 * Names are [A-Za-z_][A-Za-z0-9_.]* (PerfWorks names such as
 * dram__bytes_read.sum, facts such as launch.blocks, other derived metrics).
 *
 * Missing data stays missing: a NaN input gives a NaN result whose reason is
 * the first missing input's reason; x/0 gives NaN "division by zero"; an
 * unknown name gives NaN "unknown name"; a result beyond a double's range
 * gives NaN "overflow" (never an infinity).  Nothing is ever turned into 0. */
#ifndef GP_EXPR_H
#define GP_EXPR_H

#include <stddef.h>

#define GP_EXPR_WHY 160
/* at_most's allowance for rounding in the counters, a fraction of the bound */
#define GP_EXPR_AT_MOST_SLACK 0.005

typedef struct {
    double value;          /* NaN when not available */
    char why[GP_EXPR_WHY]; /* reason when value is NaN, else "" */
} gp_expr_value;

/* Resolves a name (name[0..len), not NUL-terminated).  Returns 0 and sets *v
 * (NaN allowed, with a reason in why) when the name is known, -1 when it is
 * not. */
typedef int (*gp_expr_lookup_fn)(void *ctx, const char *name, size_t len, double *v, char *why,
                                 size_t whylen);

/* Evaluates formula.  Returns 0 (out->value may be NaN, then out->why says
 * why), or -1 on a syntax error, described with its offset in err. */
int gp_expr_eval(const char *formula, gp_expr_lookup_fn lookup, void *ctx, gp_expr_value *out,
                 char *err, size_t errlen);

/* Checks syntax and that every name is known to lookup (build time).  Returns
 * 0, or -1 with the first problem in err. */
int gp_expr_check(const char *formula, gp_expr_lookup_fn lookup, void *ctx, char *err,
                  size_t errlen);

/* Calls fn for each name occurrence in formula (in order). Returns
 * the number of names, or -1 on a syntax error. */
int gp_expr_names(const char *formula, void (*fn)(void *ctx, const char *name, size_t len),
                  void *ctx);

#endif
