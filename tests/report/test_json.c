/* test_json.c - the JSON reader on valid, malformed and hostile input. */
#include <math.h>
#include <stdlib.h>

#include "gp_test.h"
#include "metrics/records/json.h"

static gp_json *parse(const char *s)
{
    char err[128];
    return gp_json_parse(s, strlen(s), err, sizeof err);
}

static void test_values(void)
{
    gp_json *v = parse(" {\"a\": [1, -2.5e3, true, null], \"s\": \"x\\n\\u00e9\\ud83d\\ude00\", "
                       "\"o\": {}} ");
    const gp_json *a;
    GP_CHECK(v != NULL);
    if (!v)
        return;
    a = gp_json_get(v, "a");
    GP_CHECK(a && a->type == GP_JSON_ARRAY && a->n == 4);
    GP_CHECK(gp_json_number(&a->items[0]) == 1);
    GP_CHECK(gp_json_number(&a->items[1]) == -2500);
    GP_CHECK(a->items[2].type == GP_JSON_BOOL && a->items[2].num == 1);
    GP_CHECK(isnan(gp_json_number(&a->items[3]))); /* null is not 0 */
    GP_CHECK_STR(gp_json_string(gp_json_get(v, "s")), "x\n\xc3\xa9\xf0\x9f\x98\x80");
    GP_CHECK(gp_json_get(v, "o")->type == GP_JSON_OBJECT && gp_json_get(v, "o")->n == 0);
    GP_CHECK(gp_json_get(v, "missing") == NULL);
    gp_json_free(v);
}

static void test_malformed(void)
{
    static const char *const bad[] = {
        "",          "{",           "{\"a\":}",   "[1,]",         "{\"a\" 1}", "[1 2]",
        "\"abc",     "tru",         "01",         "1.",           "-",         "1e",
        "{\"a\":1}x", "[\"\x01\"]", "\"\\x\"",    "{1:2}",        "[1]]",      "nul",
    };
    size_t i;
    char err[128];
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gp_json *v = gp_json_parse(bad[i], strlen(bad[i]), err, sizeof err);
        GP_CHECK_MSG(v == NULL, "accepted malformed input '%s'", bad[i]);
        GP_CHECK_MSG(v != NULL || strncmp(err, "offset ", 7) == 0, "error text '%s'", err);
        gp_json_free(v);
    }
}

static void test_deep(void)
{
    size_t n = 100000, i;
    char *s = malloc(2 * n + 1), err[128];
    gp_json *v;
    for (i = 0; i < n; i++) {
        s[i] = '[';
        s[n + i] = ']';
    }
    s[2 * n] = 0;
    v = gp_json_parse(s, 2 * n, err, sizeof err);
    GP_CHECK(v == NULL);
    GP_CHECK(strstr(err, "deep") != NULL);
    free(s);
}

/* A repeated key is refused, in a small object (compared pairwise) and in
 * a large one (through the table), nested too; the message names the key,
 * escaped.  Keys that only share a hash or a prefix are not duplicates. */
static void test_duplicate_keys(void)
{
    char err[160], *big;
    size_t n = 5000, i, o = 0;
    gp_json *v;
    static const char *const dup[] = {
        "{\"a\":1,\"a\":2}", "{\"x\":{\"k\":1,\"b\":2,\"k\":3}}", "[{\"a\":1},{\"b\":1,\"b\":1}]",
        "{\"\\u0061\":1,\"a\":2}", /* the same key once decoded */
    };
    for (i = 0; i < sizeof dup / sizeof dup[0]; i++) {
        v = gp_json_parse(dup[i], strlen(dup[i]), err, sizeof err);
        GP_CHECK_MSG(!v && strstr(err, "duplicate key \""), "'%s' gave '%s'", dup[i], err);
        gp_json_free(v);
    }
    static const char esc[] = "{\"\\u001b[2J\":1,\"\\u001b[2J\":1}",
                      near[] = "{\"a\":1,\"ab\":2,\"A\":3}";
    v = gp_json_parse(esc, sizeof esc - 1, err, sizeof err);
    GP_CHECK_MSG(!v && strstr(err, "duplicate key \"\\x1b[2J\"") != NULL, "%s", err);
    v = gp_json_parse(near, sizeof near - 1, err, sizeof err);
    GP_CHECK(v && v->n == 3);
    gp_json_free(v);
    /* 5,000 distinct keys, then the same with the first repeated at the end */
    big = malloc(n * 24 + 64);
    big[o++] = '{';
    for (i = 0; i < n; i++)
        o += (size_t)sprintf(big + o, "%s\"metric_%zu.sum\":%zu", i ? "," : "", i, i);
    big[o] = '}';
    v = gp_json_parse(big, o + 1, err, sizeof err);
    GP_CHECK(v && v->n == n && gp_json_number(gp_json_get(v, "metric_4999.sum")) == 4999);
    gp_json_free(v);
    o += (size_t)sprintf(big + o, ",\"metric_0.sum\":1}");
    v = gp_json_parse(big, o, err, sizeof err);
    GP_CHECK_MSG(!v && strstr(err, "duplicate key \"metric_0.sum\""), "%s", err);
    gp_json_free(v);
    free(big);
}

int main(void)
{
    test_values();
    test_malformed();
    test_deep();
    test_duplicate_keys();
    return gp_test_finish("report-json");
}
