/* expr.c - recursive-descent evaluator for derived-metric formulas; see expr.h. */
#include "metrics/catalog/expr.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { GP_EXPR_MODE_EVAL, GP_EXPR_MODE_CHECK, GP_EXPR_MODE_NAMES } gp_expr_mode;

typedef struct {
    const char *s;
    size_t pos;
    gp_expr_mode mode;
    gp_expr_lookup_fn lookup;
    void *ctx;
    void (*name_fn)(void *ctx, const char *name, size_t len);
    int names;
    char *err;
    size_t errlen;
    int failed;
} gp_expr_parser;

/* A value in flight: NaN carries its reason. */
typedef gp_expr_value gp_expr_v;

static void gp_expr_fail(gp_expr_parser *p, const char *fmt, const char *arg, size_t arglen)
{
    char what[200];
    if (p->failed)
        return;
    p->failed = 1;
    snprintf(what, sizeof what, fmt, (int)arglen, arg ? arg : "");
    if (p->err && p->errlen)
        snprintf(p->err, p->errlen, "at offset %zu: %s", p->pos, what);
}

static void gp_expr_skip(gp_expr_parser *p)
{
    while (isspace((unsigned char)p->s[p->pos]))
        p->pos++;
}

static void gp_expr_set(gp_expr_v *v, double x, const char *why)
{
    /* an infinity is no measurement: a value in the record so large (or a
     * divisor so small) that the result left a double's range */
    if (isinf(x)) {
        x = NAN;
        if (!why || !*why)
            why = "overflow: the result is beyond a double's range (absurd values in the record)";
    }
    v->value = x;
    if (isnan(x))
        snprintf(v->why, sizeof v->why, "%s", why && *why ? why : "not a number");
    else
        v->why[0] = 0;
}

/* Combines two operands whose reasons must survive: the first NaN's reason
 * wins. */
static int gp_expr_nan_of(gp_expr_v *out, const gp_expr_v *a, const gp_expr_v *b)
{
    if (isnan(a->value)) {
        *out = *a;
        return 1;
    }
    if (b && isnan(b->value)) {
        *out = *b;
        return 1;
    }
    return 0;
}

static void gp_expr_parse_sum(gp_expr_parser *p, gp_expr_v *out);

static int gp_expr_is_name_start(char c)
{
    return isalpha((unsigned char)c) || c == '_';
}

static int gp_expr_is_name_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '.';
}

/* nonzero(x, 'what the kernel did not do'): x, or NaN with that reason when
 * x is 0 (a count that is the denominator of an efficiency: no accesses, no
 * efficiency).  The reason is a quoted text without quotes in it. */
static void gp_expr_parse_nonzero(gp_expr_parser *p, gp_expr_v *out)
{
    gp_expr_v x;
    const char *text;
    size_t len = 0;
    p->pos++; /* '(' */
    gp_expr_parse_sum(p, &x);
    if (p->failed)
        return;
    gp_expr_skip(p);
    if (p->s[p->pos] != ',') {
        gp_expr_fail(p, "nonzero() takes a value and a quoted reason%.*s", "", 0);
        return;
    }
    p->pos++;
    gp_expr_skip(p);
    if (p->s[p->pos] != '\'') {
        gp_expr_fail(p, "nonzero()'s second argument must be a quoted reason%.*s", "", 0);
        return;
    }
    text = p->s + ++p->pos;
    while (text[len] && text[len] != '\'')
        len++;
    if (!text[len] || len == 0 || len >= GP_EXPR_WHY) {
        gp_expr_fail(p, "nonzero()'s reason is empty, too long or not closed%.*s", "", 0);
        return;
    }
    p->pos += len + 1;
    gp_expr_skip(p);
    if (p->s[p->pos] != ')') {
        gp_expr_fail(p, "expected ')' after nonzero()'s reason%.*s", "", 0);
        return;
    }
    p->pos++;
    if (isnan(x.value) || x.value != 0) {
        *out = x;
        return;
    }
    x.value = NAN;
    snprintf(x.why, sizeof x.why, "%.*s", (int)len, text);
    *out = x;
}

static void gp_expr_parse_call(gp_expr_parser *p, const char *fn, size_t fnlen, gp_expr_v *out)
{
    gp_expr_v args[2];
    int nargs = 0, want;
    int known_or = fnlen == 8 && memcmp(fn, "known_or", 8) == 0;
    int at_most = fnlen == 7 && memcmp(fn, "at_most", 7) == 0;
    if (fnlen == 7 && memcmp(fn, "nonzero", 7) == 0) {
        gp_expr_parse_nonzero(p, out);
        return;
    }
    if (known_or || at_most ||
        (fnlen == 3 && (memcmp(fn, "min", 3) == 0 || memcmp(fn, "max", 3) == 0)))
        want = 2;
    else if ((fnlen == 4 && memcmp(fn, "ceil", 4) == 0) ||
             (fnlen == 5 && memcmp(fn, "floor", 5) == 0))
        want = 1;
    else {
        gp_expr_fail(p, "unknown function '%.*s'", fn, fnlen);
        return;
    }
    p->pos++; /* '(' */
    for (;;) {
        gp_expr_v a;
        gp_expr_parse_sum(p, &a);
        if (p->failed)
            return;
        if (nargs < 2)
            args[nargs] = a;
        nargs++;
        gp_expr_skip(p);
        if (p->s[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->s[p->pos] == ')') {
            p->pos++;
            break;
        }
        gp_expr_fail(p, "expected ',' or ')' in call of '%.*s'", fn, fnlen);
        return;
    }
    if (nargs != want) {
        gp_expr_fail(p, "wrong number of arguments to '%.*s'", fn, fnlen);
        return;
    }
    if (known_or) { /* a counter older records lack: its stated default */
        *out = isnan(args[0].value) ? args[1] : args[0];
        return;
    }
    if (gp_expr_nan_of(out, &args[0], want == 2 ? &args[1] : NULL))
        return;
    if (at_most) { /* a bound the definition guarantees: above it, the data is wrong */
        char why[GP_EXPR_WHY];
        if (args[0].value <= args[1].value * (1 + GP_EXPR_AT_MOST_SLACK)) {
            *out = args[0];
            return;
        }
        snprintf(why, sizeof why,
                 "impossible value %.6g (at most %g by definition): the record's counters "
                 "disagree",
                 args[0].value, args[1].value);
        gp_expr_set(out, NAN, why);
        return;
    }
    switch (fn[1]) {
    case 'i': gp_expr_set(out, fmin(args[0].value, args[1].value), NULL); break;
    case 'a': gp_expr_set(out, fmax(args[0].value, args[1].value), NULL); break;
    case 'e': gp_expr_set(out, ceil(args[0].value), NULL); break;
    default: gp_expr_set(out, floor(args[0].value), NULL); break;
    }
}

static void gp_expr_parse_name(gp_expr_parser *p, gp_expr_v *out)
{
    const char *name = p->s + p->pos;
    size_t len = 0;
    double v = NAN;
    char why[GP_EXPR_WHY] = "";
    while (gp_expr_is_name_char(name[len]))
        len++;
    if (name[len - 1] == '.') {
        gp_expr_fail(p, "name '%.*s' ends with '.'", name, len);
        return;
    }
    p->pos += len;
    gp_expr_skip(p);
    if (p->s[p->pos] == '(') {
        gp_expr_parse_call(p, name, len, out);
        return;
    }
    if (p->mode == GP_EXPR_MODE_NAMES) {
        if (p->name_fn)
            p->name_fn(p->ctx, name, len);
        p->names++;
        gp_expr_set(out, 1, NULL);
        return;
    }
    if (p->lookup(p->ctx, name, len, &v, why, sizeof why) < 0) {
        if (p->mode == GP_EXPR_MODE_CHECK) {
            p->pos -= len;
            gp_expr_fail(p, "unknown name '%.*s'", name, len);
            return;
        }
        snprintf(why, sizeof why, "unknown name '%.*s'", (int)len, name);
        v = NAN;
    } else if (isnan(v) && !why[0]) {
        snprintf(why, sizeof why, "%.*s not available", (int)len, name);
    }
    if (p->mode == GP_EXPR_MODE_CHECK)
        v = 1; /* keep checking without dividing by missing data */
    gp_expr_set(out, v, why);
}

static void gp_expr_parse_primary(gp_expr_parser *p, gp_expr_v *out)
{
    char c;
    gp_expr_skip(p);
    c = p->s[p->pos];
    if (c == '(') {
        p->pos++;
        gp_expr_parse_sum(p, out);
        if (p->failed)
            return;
        gp_expr_skip(p);
        if (p->s[p->pos] != ')') {
            gp_expr_fail(p, "expected ')'%.*s", "", 0);
            return;
        }
        p->pos++;
        return;
    }
    if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)p->s[p->pos + 1]))) {
        char *end;
        double v = strtod(p->s + p->pos, &end);
        p->pos = (size_t)(end - p->s);
        if (gp_expr_is_name_start(p->s[p->pos])) {
            gp_expr_fail(p, "letter right after a number%.*s", "", 0);
            return;
        }
        gp_expr_set(out, v, NULL);
        return;
    }
    if (gp_expr_is_name_start(c)) {
        gp_expr_parse_name(p, out);
        return;
    }
    if (c == 0)
        gp_expr_fail(p, "unexpected end of formula (an operand is missing)%.*s", "", 0);
    else
        gp_expr_fail(p, "unexpected character '%.*s'", &p->s[p->pos], 1);
}

static void gp_expr_parse_unary(gp_expr_parser *p, gp_expr_v *out)
{
    gp_expr_skip(p);
    if (p->s[p->pos] == '-') {
        p->pos++;
        gp_expr_parse_unary(p, out);
        if (!p->failed && !isnan(out->value))
            out->value = -out->value;
        return;
    }
    gp_expr_parse_primary(p, out);
}

static void gp_expr_parse_product(gp_expr_parser *p, gp_expr_v *out)
{
    gp_expr_parse_unary(p, out);
    for (;;) {
        gp_expr_v rhs, lhs;
        size_t rstart;
        char op;
        if (p->failed)
            return;
        gp_expr_skip(p);
        op = p->s[p->pos];
        if (op != '*' && op != '/')
            return;
        p->pos++;
        gp_expr_skip(p);
        rstart = p->pos;
        gp_expr_parse_unary(p, &rhs);
        if (p->failed)
            return;
        lhs = *out;
        if (gp_expr_nan_of(out, &lhs, &rhs))
            continue;
        if (op == '*') {
            gp_expr_set(out, lhs.value * rhs.value, NULL);
        } else if (rhs.value == 0 || isinf(lhs.value / rhs.value)) {
            char why[GP_EXPR_WHY];
            if (rhs.value == 0)
                snprintf(why, sizeof why, "division by zero (%.*s is 0)",
                         (int)(p->pos - rstart > 100 ? 100 : p->pos - rstart), p->s + rstart);
            else
                snprintf(why, sizeof why, "overflow: division by %.3g (%.*s)", rhs.value,
                         (int)(p->pos - rstart > 90 ? 90 : p->pos - rstart), p->s + rstart);
            gp_expr_set(out, NAN, why);
        } else {
            gp_expr_set(out, lhs.value / rhs.value, NULL);
        }
    }
}

static void gp_expr_parse_sum(gp_expr_parser *p, gp_expr_v *out)
{
    gp_expr_parse_product(p, out);
    for (;;) {
        gp_expr_v rhs, lhs;
        char op;
        if (p->failed)
            return;
        gp_expr_skip(p);
        op = p->s[p->pos];
        if (op != '+' && op != '-')
            return;
        p->pos++;
        gp_expr_parse_product(p, &rhs);
        if (p->failed)
            return;
        lhs = *out;
        if (gp_expr_nan_of(out, &lhs, &rhs))
            continue;
        gp_expr_set(out, op == '+' ? lhs.value + rhs.value : lhs.value - rhs.value, NULL);
    }
}

static int gp_expr_run(gp_expr_parser *p, gp_expr_v *out)
{
    gp_expr_v tmp;
    if (!out)
        out = &tmp;
    gp_expr_parse_sum(p, out);
    if (!p->failed) {
        gp_expr_skip(p);
        if (p->s[p->pos] == ')')
            gp_expr_fail(p, "unbalanced ')'%.*s", "", 0);
        else if (p->s[p->pos] != 0)
            gp_expr_fail(p, "unexpected character '%.*s' after an operand", &p->s[p->pos], 1);
    }
    if (p->failed) {
        gp_expr_set(out, NAN, "formula has a syntax error");
        return -1;
    }
    return 0;
}

int gp_expr_eval(const char *formula, gp_expr_lookup_fn lookup, void *ctx, gp_expr_value *out,
                 char *err, size_t errlen)
{
    gp_expr_parser p = {formula, 0, GP_EXPR_MODE_EVAL, lookup, ctx, NULL, 0, err, errlen, 0};
    return gp_expr_run(&p, out);
}

int gp_expr_check(const char *formula, gp_expr_lookup_fn lookup, void *ctx, char *err,
                  size_t errlen)
{
    gp_expr_parser p = {formula, 0, GP_EXPR_MODE_CHECK, lookup, ctx, NULL, 0, err, errlen, 0};
    return gp_expr_run(&p, NULL);
}

int gp_expr_names(const char *formula, void (*fn)(void *ctx, const char *name, size_t len),
                  void *ctx)
{
    gp_expr_parser p = {formula, 0, GP_EXPR_MODE_NAMES, NULL, ctx, fn, 0, NULL, 0, 0};
    if (gp_expr_run(&p, NULL) < 0)
        return -1;
    return p.names;
}
