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

/* ---- compiled formulas (gp_expr_compile): the grammar above, parsed once
 * into a tree whose evaluation follows the parser's own, rule for rule ---- */

typedef enum {
    GP_EN_NUM,
    GP_EN_NAME,
    GP_EN_NEG,
    GP_EN_ADD,
    GP_EN_SUB,
    GP_EN_MUL,
    GP_EN_DIV,
    GP_EN_KNOWN_OR,
    GP_EN_AT_MOST,
    GP_EN_MIN,
    GP_EN_MAX,
    GP_EN_CEIL,
    GP_EN_FLOOR,
    GP_EN_NONZERO
} gp_expr_op;

typedef struct {
    gp_expr_op op;
    int a, b;         /* operands (node indexes), -1: none */
    double num;       /* GP_EN_NUM */
    const char *text; /* a name; the divisor's text (its messages); nonzero's reason */
    int len;
    int slot; /* a name's slot (resolve's answer) */
} gp_expr_node;

struct gp_expr_prog {
    gp_expr_node *n;
    int count, cap, root;
};

typedef struct {
    const char *s;
    size_t pos;
    gp_expr_prog *p;
    gp_expr_resolve_fn resolve;
    void *rctx;
    int failed;
} gp_expr_comp;

static int gp_expr_node_add(gp_expr_comp *c, gp_expr_op op, int a, int b)
{
    gp_expr_node *n;
    if (c->failed)
        return -1;
    if (c->p->count == c->p->cap) {
        int nc = c->p->cap ? 2 * c->p->cap : 32;
        gp_expr_node *nn = realloc(c->p->n, (size_t)nc * sizeof *nn);
        if (!nn) {
            c->failed = 1;
            return -1;
        }
        c->p->n = nn;
        c->p->cap = nc;
    }
    n = &c->p->n[c->p->count];
    memset(n, 0, sizeof *n);
    n->op = op;
    n->a = a;
    n->b = b;
    n->slot = -1;
    return c->p->count++;
}

static void gp_expr_cskip(gp_expr_comp *c)
{
    while (isspace((unsigned char)c->s[c->pos]))
        c->pos++;
}

static int gp_expr_csum(gp_expr_comp *c);

static int gp_expr_cunary(gp_expr_comp *c);

/* A call, at its '(' (the text was checked: see gp_expr_compile). */
static int gp_expr_ccall(gp_expr_comp *c, const char *fn, size_t fnlen)
{
    static const struct {
        const char *name;
        gp_expr_op op;
    } fns[] = {{"known_or", GP_EN_KNOWN_OR}, {"at_most", GP_EN_AT_MOST}, {"min", GP_EN_MIN},
               {"max", GP_EN_MAX},           {"ceil", GP_EN_CEIL},       {"floor", GP_EN_FLOOR}};
    int args[2] = {-1, -1}, nargs = 0, x;
    size_t i, len = 0;
    if (fnlen == 7 && memcmp(fn, "nonzero", 7) == 0) {
        c->pos++;
        x = gp_expr_csum(c);
        gp_expr_cskip(c);
        c->pos++; /* ',' */
        gp_expr_cskip(c);
        c->pos++; /* the opening quote */
        while (c->s[c->pos + len] && c->s[c->pos + len] != '\'')
            len++;
        x = gp_expr_node_add(c, GP_EN_NONZERO, x, -1);
        if (x >= 0) {
            c->p->n[x].text = c->s + c->pos;
            c->p->n[x].len = (int)len;
        }
        c->pos += len + 1;
        gp_expr_cskip(c);
        c->pos++; /* ')' */
        return x;
    }
    c->pos++; /* '(' */
    for (;;) {
        int a = gp_expr_csum(c);
        if (nargs < 2)
            args[nargs] = a;
        nargs++;
        gp_expr_cskip(c);
        if (c->s[c->pos] == ',') {
            c->pos++;
            continue;
        }
        c->pos++; /* ')' */
        break;
    }
    for (i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (strlen(fns[i].name) == fnlen && memcmp(fns[i].name, fn, fnlen) == 0)
            return gp_expr_node_add(c, fns[i].op, args[0], args[1]);
    c->failed = 1;
    return -1;
}

static int gp_expr_cprimary(gp_expr_comp *c)
{
    char ch;
    gp_expr_cskip(c);
    ch = c->s[c->pos];
    if (ch == '(') {
        int x;
        c->pos++;
        x = gp_expr_csum(c);
        gp_expr_cskip(c);
        c->pos++; /* ')' */
        return x;
    }
    if (isdigit((unsigned char)ch) || ch == '.') {
        char *end;
        double v = strtod(c->s + c->pos, &end);
        int x = gp_expr_node_add(c, GP_EN_NUM, -1, -1);
        c->pos = (size_t)(end - c->s);
        if (x >= 0)
            c->p->n[x].num = v;
        return x;
    }
    {
        const char *name = c->s + c->pos;
        size_t len = 0;
        int x;
        while (gp_expr_is_name_char(name[len]))
            len++;
        c->pos += len;
        gp_expr_cskip(c);
        if (c->s[c->pos] == '(')
            return gp_expr_ccall(c, name, len);
        if ((x = gp_expr_node_add(c, GP_EN_NAME, -1, -1)) >= 0) {
            c->p->n[x].text = name;
            c->p->n[x].len = (int)len;
            c->p->n[x].slot = c->resolve ? c->resolve(c->rctx, name, len) : -1;
        }
        return x;
    }
}

static int gp_expr_cunary(gp_expr_comp *c)
{
    gp_expr_cskip(c);
    if (c->s[c->pos] == '-') {
        c->pos++;
        return gp_expr_node_add(c, GP_EN_NEG, gp_expr_cunary(c), -1);
    }
    return gp_expr_cprimary(c);
}

static int gp_expr_cproduct(gp_expr_comp *c)
{
    int x = gp_expr_cunary(c);
    for (;;) {
        char op;
        size_t rstart;
        int y;
        gp_expr_cskip(c);
        op = c->s[c->pos];
        if ((op != '*' && op != '/') || c->failed)
            return x;
        c->pos++;
        gp_expr_cskip(c);
        rstart = c->pos;
        y = gp_expr_cunary(c);
        x = gp_expr_node_add(c, op == '*' ? GP_EN_MUL : GP_EN_DIV, x, y);
        if (x >= 0) { /* the divisor's text, as the parser quotes it */
            c->p->n[x].text = c->s + rstart;
            c->p->n[x].len = (int)(c->pos - rstart);
        }
    }
}

static int gp_expr_csum(gp_expr_comp *c)
{
    int x = gp_expr_cproduct(c);
    for (;;) {
        char op;
        gp_expr_cskip(c);
        op = c->s[c->pos];
        if ((op != '+' && op != '-') || c->failed)
            return x;
        c->pos++;
        x = gp_expr_node_add(c, op == '+' ? GP_EN_ADD : GP_EN_SUB, x, gp_expr_cproduct(c));
    }
}

gp_expr_prog *gp_expr_compile(const char *formula, gp_expr_resolve_fn resolve, void *rctx,
                              char *err, size_t errlen)
{
    gp_expr_comp c = {formula, 0, NULL, resolve, rctx, 0};
    /* the text is checked by the parser itself first: the compiler below
     * then follows a formula known to be well formed */
    if (gp_expr_names(formula, NULL, NULL) < 0) {
        gp_expr_parser p = {formula, 0, GP_EXPR_MODE_NAMES, NULL, NULL, NULL, 0, err, errlen, 0};
        gp_expr_run(&p, NULL);
        return NULL;
    }
    if (!(c.p = calloc(1, sizeof *c.p))) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c.p->root = gp_expr_csum(&c);
    if (c.failed || c.p->root < 0) {
        snprintf(err, errlen, "out of memory");
        gp_expr_prog_free(c.p);
        return NULL;
    }
    return c.p;
}

void gp_expr_prog_free(gp_expr_prog *p)
{
    if (p)
        free(p->n);
    free(p);
}

/* The parser's evaluation, node by node (gp_expr_parse_*: the same
 * messages, the first missing operand's reason winning).  Operands have
 * no side effects, so one after a missing one is not evaluated. */
static void gp_expr_ev(const gp_expr_prog *p, int i, gp_expr_slot_lookup_fn lookup, void *ctx,
                       gp_expr_v *out)
{
    const gp_expr_node *n = &p->n[i];
    gp_expr_v rhs;
    char why[GP_EXPR_WHY];
    double v;
    switch (n->op) {
    case GP_EN_NUM:
        gp_expr_set(out, n->num, NULL);
        return;
    case GP_EN_NAME:
        v = NAN;
        why[0] = 0;
        if (lookup(ctx, n->text, (size_t)n->len, n->slot, &v, why, sizeof why) < 0) {
            snprintf(why, sizeof why, "unknown name '%.*s'", n->len, n->text);
            v = NAN;
        } else if (isnan(v) && !why[0]) {
            snprintf(why, sizeof why, "%.*s not available", n->len, n->text);
        }
        gp_expr_set(out, v, why);
        return;
    case GP_EN_NEG:
        gp_expr_ev(p, n->a, lookup, ctx, out);
        if (!isnan(out->value))
            out->value = -out->value;
        return;
    case GP_EN_KNOWN_OR:
        gp_expr_ev(p, n->a, lookup, ctx, out);
        if (isnan(out->value))
            gp_expr_ev(p, n->b, lookup, ctx, out);
        return;
    case GP_EN_NONZERO:
        gp_expr_ev(p, n->a, lookup, ctx, out);
        if (!isnan(out->value) && out->value == 0) {
            out->value = NAN;
            snprintf(out->why, sizeof out->why, "%.*s", n->len, n->text);
        }
        return;
    default:
        break;
    }
    /* the operators of two operands (one for ceil and floor) */
    gp_expr_ev(p, n->a, lookup, ctx, out);
    if (isnan(out->value))
        return;
    if (n->b >= 0) {
        gp_expr_ev(p, n->b, lookup, ctx, &rhs);
        if (isnan(rhs.value)) {
            *out = rhs;
            return;
        }
    }
    switch (n->op) {
    case GP_EN_ADD:
        gp_expr_set(out, out->value + rhs.value, NULL);
        break;
    case GP_EN_SUB:
        gp_expr_set(out, out->value - rhs.value, NULL);
        break;
    case GP_EN_MUL:
        gp_expr_set(out, out->value * rhs.value, NULL);
        break;
    case GP_EN_DIV:
        if (rhs.value == 0 || isinf(out->value / rhs.value)) {
            if (rhs.value == 0)
                snprintf(why, sizeof why, "division by zero (%.*s is 0)",
                         n->len > 100 ? 100 : n->len, n->text);
            else
                snprintf(why, sizeof why, "overflow: division by %.3g (%.*s)", rhs.value,
                         n->len > 90 ? 90 : n->len, n->text);
            gp_expr_set(out, NAN, why);
        } else {
            gp_expr_set(out, out->value / rhs.value, NULL);
        }
        break;
    case GP_EN_AT_MOST:
        if (!(out->value <= rhs.value * (1 + GP_EXPR_AT_MOST_SLACK))) {
            snprintf(why, sizeof why,
                     "impossible value %.6g (at most %g by definition): the record's counters "
                     "disagree",
                     out->value, rhs.value);
            gp_expr_set(out, NAN, why);
        }
        break;
    case GP_EN_MIN:
        gp_expr_set(out, fmin(out->value, rhs.value), NULL);
        break;
    case GP_EN_MAX:
        gp_expr_set(out, fmax(out->value, rhs.value), NULL);
        break;
    case GP_EN_CEIL:
        gp_expr_set(out, ceil(out->value), NULL);
        break;
    case GP_EN_FLOOR:
        gp_expr_set(out, floor(out->value), NULL);
        break;
    default:
        break;
    }
}

void gp_expr_prog_run(const gp_expr_prog *p, gp_expr_slot_lookup_fn lookup, void *ctx,
                      gp_expr_value *out)
{
    gp_expr_ev(p, p->root, lookup, ctx, out);
}
