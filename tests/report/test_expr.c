/* test_expr.c - the formula evaluator: arithmetic, precedence, NaN with its
 * reason, division by zero, unknown names and syntax errors (the cases of
 * perf's tests/expr.c). */
#include <math.h>

#include "metrics/catalog/expr.h"
#include "gp_test.h"

/* a = 6, b = 0, dram__bytes_read.sum = 1e9, m = missing ("pass failed") */
static int lookup(void *ctx, const char *name, size_t len, double *v, char *why, size_t whylen)
{
    (void)ctx;
#define IS(s) (len == strlen(s) && strncmp(name, s, len) == 0)
    if (IS("a"))
        *v = 6;
    else if (IS("b"))
        *v = 0;
    else if (IS("dram__bytes_read.sum"))
        *v = 1e9;
    else if (IS("m")) {
        *v = NAN;
        snprintf(why, whylen, "m: pass failed");
    } else
        return -1;
    return 0;
#undef IS
}

static double ev(const char *f, gp_expr_value *out)
{
    char err[160];
    int rc = gp_expr_eval(f, lookup, NULL, out, err, sizeof err);
    GP_CHECK_MSG(rc == 0, "'%s': %s", f, err);
    return out->value;
}

int main(void)
{
    gp_expr_value o;
    char err[160];
    GP_CHECK_NEAR(ev("1 + 2 * 3", &o), 7, 1e-12);
    GP_CHECK_NEAR(ev("(1 + 2) * 3", &o), 9, 1e-12);
    GP_CHECK_NEAR(ev("a / 4 - 1", &o), 0.5, 1e-12);
    GP_CHECK_NEAR(ev("-a + 10", &o), 4, 1e-12);
    GP_CHECK_NEAR(ev("2 - - 3", &o), 5, 1e-12);
    GP_CHECK_NEAR(ev("12 / 3 / 2", &o), 2, 1e-12); /* left associative */
    GP_CHECK_NEAR(ev("min(a, 2) + max(a, 2)", &o), 8, 1e-12);
    GP_CHECK_NEAR(ev("ceil(2.1) + floor(2.9)", &o), 5, 1e-12);
    GP_CHECK_NEAR(ev("1.5e3 + .5", &o), 1500.5, 1e-12);
    /* unit conversion: ns -> s, bytes/ns -> B/s */
    GP_CHECK_NEAR(ev("dram__bytes_read.sum / (250000 * 1e-9)", &o), 4e12, 1e-12);

    /* known_or: a stated default for a counter older records lack, nothing else */
    GP_CHECK_NEAR(ev("a - known_or(m, 0)", &o), 6, 1e-12);
    GP_CHECK_NEAR(ev("a - known_or(2, 0)", &o), 4, 1e-12);
    /* division by zero: n/a with the reason, never 0 or inf */
    GP_CHECK(isnan(ev("a / b", &o)));
    GP_CHECK_MSG(strstr(o.why, "division by zero") && strstr(o.why, "b"), "why: %s", o.why);
    GP_CHECK(isnan(ev("0 / 0", &o)));
    GP_CHECK(isnan(ev("a / (a - 6)", &o)));
    GP_CHECK_MSG(strstr(o.why, "(a - 6)") != NULL, "why: %s", o.why);
    /* missing input: NaN propagates with the first reason */
    GP_CHECK(isnan(ev("a + m * 2", &o)));
    GP_CHECK_STR(o.why, "m: pass failed");
    GP_CHECK(isnan(ev("max(m, 1)", &o))); /* min/max do not hide a missing value */
    GP_CHECK(isnan(ev("m / b", &o)));
    GP_CHECK_STR(o.why, "m: pass failed");
    /* a result beyond a double's range: n/a with the reason, never an infinity */
    GP_CHECK(isnan(ev("1e300 * 1e300", &o)));
    GP_CHECK_MSG(strstr(o.why, "overflow") != NULL, "why: %s", o.why);
    GP_CHECK(isnan(ev("1e308 + 1e308", &o)) && strstr(o.why, "overflow"));
    GP_CHECK(isnan(ev("a / 1e-320", &o)));
    GP_CHECK_MSG(strstr(o.why, "overflow: division by") && strstr(o.why, "1e-320"), "why: %s",
                 o.why);
    GP_CHECK(isnan(ev("-(1e300 * 1e300)", &o)));
    /* at_most: a bound the definition guarantees; beyond it (and its half
     * per cent of slack) the value is impossible, never clamped */
    GP_CHECK_NEAR(ev("at_most(a, 100)", &o), 6, 1e-12);
    GP_CHECK_NEAR(ev("at_most(100.4, 100)", &o), 100.4, 1e-12);
    GP_CHECK(isnan(ev("at_most(101, 100)", &o)));
    GP_CHECK_MSG(strstr(o.why, "impossible value 101 (at most 100"), "why: %s", o.why);
    GP_CHECK(isnan(ev("at_most(m, 100)", &o)));
    GP_CHECK_STR(o.why, "m: pass failed");
    GP_CHECK(gp_expr_eval("at_most(a)", lookup, NULL, &o, err, sizeof err) == -1);
    /* nonzero: a count under an efficiency; 0 means nothing was accessed,
     * and the efficiency of nothing is n/a with that reason */
    GP_CHECK_NEAR(ev("100 * a / (2 * nonzero(a, 'no loads'))", &o), 50, 1e-12);
    GP_CHECK(isnan(ev("100 * a / (2 * nonzero(b, 'no shared-memory accesses'))", &o)));
    GP_CHECK_STR(o.why, "no shared-memory accesses");
    GP_CHECK(isnan(ev("nonzero(m, 'no loads')", &o))); /* missing stays missing, its reason */
    GP_CHECK_STR(o.why, "m: pass failed");
    {
        static const char *const bad[] = {"nonzero(a)", "nonzero(a, no)", "nonzero(a, '')",
                                          "nonzero(a, 'open", "nonzero(a, 'x' b)"};
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
            GP_CHECK_MSG(gp_expr_eval(bad[i], lookup, NULL, &o, err, sizeof err) == -1,
                         "accepted %s", bad[i]);
    }
    GP_CHECK(gp_expr_check("a / nonzero(b, 'no b')", lookup, NULL, err, sizeof err) == 0);
    GP_CHECK(gp_expr_names("a / nonzero(b, 'no x.y')", NULL, NULL) == 2);
    /* unknown name at run time: n/a, named */
    GP_CHECK(isnan(ev("a + nosuch.counter", &o)));
    GP_CHECK_MSG(strstr(o.why, "nosuch.counter") != NULL, "why: %s", o.why);

    /* syntax errors */
    {
        static const char *const bad[] = {"a +",   "a * ",   "(a + 1", "a + 1)", "a b",
                                          "",      "min(a)", "sqrt(a)", "a $ 2", "2a",
                                          "a..b.", "max(a,", "* a"};
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            int rc = gp_expr_eval(bad[i], lookup, NULL, &o, err, sizeof err);
            GP_CHECK_MSG(rc == -1 && isnan(o.value), "accepted '%s'", bad[i]);
        }
        GP_CHECK(gp_expr_eval("a +", lookup, NULL, &o, err, sizeof err) == -1 &&
                 strstr(err, "operand is missing") != NULL);
    }
    /* build-time check: unknown names are errors there */
    GP_CHECK(gp_expr_check("a + dram__bytes_read.sum", lookup, NULL, err, sizeof err) == 0);
    GP_CHECK(gp_expr_check("a + dram__bytes_red.sum", lookup, NULL, err, sizeof err) == -1);
    GP_CHECK_MSG(strstr(err, "dram__bytes_red.sum") != NULL, "err: %s", err);
    GP_CHECK(gp_expr_check("m / b", lookup, NULL, err, sizeof err) == 0);
    GP_CHECK(gp_expr_names("a + min(b, a) * x.y", NULL, NULL) == 4);
    return gp_test_finish("report-expr");
}
