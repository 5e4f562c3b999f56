/* json.c - recursive-descent JSON reader; see json.h. */
#include "metrics/records/json.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strhash.h"
#include "util/textio.h"

typedef struct {
    const char *s;
    size_t len, pos;
    char *err;
    size_t errlen;
    int failed;
} gp_json_parser;

static void gp_json_fail(gp_json_parser *p, const char *what)
{
    if (!p->failed && p->err && p->errlen)
        snprintf(p->err, p->errlen, "offset %zu: %s", p->pos, what);
    p->failed = 1;
}

static void gp_json_skip_ws(gp_json_parser *p)
{
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                               p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static void gp_json_clear(gp_json *v)
{
    size_t i;
    if (v->type == GP_JSON_STRING)
        free(v->str);
    if (v->type == GP_JSON_ARRAY || v->type == GP_JSON_OBJECT) {
        for (i = 0; i < v->n; i++) {
            gp_json_clear(&v->items[i]);
            if (v->keys)
                free(v->keys[i]);
        }
        free(v->items);
        free(v->keys);
    }
    memset(v, 0, sizeof *v);
}

void gp_json_free(gp_json *v)
{
    if (!v)
        return;
    gp_json_clear(v);
    free(v);
}

static int gp_json_hex4(gp_json_parser *p, unsigned *out)
{
    unsigned v = 0;
    int i;
    if (p->pos + 4 > p->len) {
        gp_json_fail(p, "truncated \\u escape");
        return -1;
    }
    for (i = 0; i < 4; i++) {
        char c = p->s[p->pos++];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else {
            gp_json_fail(p, "bad hex digit in \\u escape");
            return -1;
        }
    }
    *out = v;
    return 0;
}

static size_t gp_json_utf8(unsigned cp, char *o)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Called with pos on the opening quote.  The decoded string is never longer
 * than its source text, so one allocation of that size suffices. */
static char *gp_json_parse_string(gp_json_parser *p)
{
    size_t start = ++p->pos, end = start, o = 0;
    char *out;
    while (end < p->len && p->s[end] != '"') {
        if (p->s[end] == '\\')
            end++;
        end++;
    }
    if (end >= p->len) {
        gp_json_fail(p, "unterminated string");
        return NULL;
    }
    out = malloc(end - start + 1);
    if (!out) {
        gp_json_fail(p, "out of memory");
        return NULL;
    }
    while (p->pos < end) {
        unsigned char c = (unsigned char)p->s[p->pos++];
        if (c < 0x20) {
            p->pos--;
            gp_json_fail(p, "control character in string");
            goto bad;
        }
        if (c != '\\') {
            out[o++] = (char)c;
            continue;
        }
        c = (unsigned char)p->s[p->pos++];
        switch (c) {
        case '"': out[o++] = '"'; break;
        case '\\': out[o++] = '\\'; break;
        case '/': out[o++] = '/'; break;
        case 'b': out[o++] = '\b'; break;
        case 'f': out[o++] = '\f'; break;
        case 'n': out[o++] = '\n'; break;
        case 'r': out[o++] = '\r'; break;
        case 't': out[o++] = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (gp_json_hex4(p, &cp) < 0)
                goto bad;
            if (cp >= 0xD800 && cp < 0xDC00 && p->pos + 6 <= end && p->s[p->pos] == '\\' &&
                p->s[p->pos + 1] == 'u') {
                p->pos += 2;
                if (gp_json_hex4(p, &lo) < 0)
                    goto bad;
                if (lo >= 0xDC00 && lo < 0xE000)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                else
                    cp = 0xFFFD;
            } else if (cp >= 0xD800 && cp < 0xE000) {
                cp = 0xFFFD;
            }
            if (cp == 0)
                cp = 0xFFFD; /* keep strings NUL-free */
            o += gp_json_utf8(cp, out + o);
            break;
        }
        default:
            p->pos--;
            gp_json_fail(p, "bad escape in string");
            goto bad;
        }
    }
    p->pos = end + 1;
    out[o] = 0;
    return out;
bad:
    free(out);
    return NULL;
}

static int gp_json_parse_value(gp_json_parser *p, gp_json *v, int depth);

static int gp_json_push(gp_json_parser *p, gp_json *v, size_t *cap, char *key)
{
    if (v->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        gp_json *ni = realloc(v->items, nc * sizeof *ni);
        if (!ni)
            goto oom;
        v->items = ni;
        if (v->type == GP_JSON_OBJECT) {
            char **nk = realloc(v->keys, nc * sizeof *nk);
            if (!nk)
                goto oom;
            v->keys = nk;
        }
        *cap = nc;
    }
    memset(&v->items[v->n], 0, sizeof v->items[0]);
    if (v->type == GP_JSON_OBJECT)
        v->keys[v->n] = key;
    v->n++;
    return 0;
oom:
    free(key);
    gp_json_fail(p, "out of memory");
    return -1;
}

/* The keys of one object, to refuse a repeated one: RFC 8259 leaves its
 * meaning open (Python keeps the last, a first-match lookup the first), so
 * a record that repeats a key cannot be read one way.  Small objects are
 * compared pairwise; larger ones through an open-addressing table of
 * positions + 1, so a record of 40,000 metrics costs linear time. */
typedef struct {
    size_t *slot, cap;
} gp_json_keyset;

#define GP_JSON_PAIRWISE 16

/* Keyed per process (util/strhash.h): keys chosen to collide in a fixed
 * hash (FNV-1a's low bits) made 100,000 keys take 35 s. */
static uint64_t gp_json_hash(const char *s)
{
    return gp_strhash(s, strlen(s));
}

/* Adds key i of v; 1 when an earlier key is the same, -1 out of memory. */
static int gp_json_keyset_add(gp_json_keyset *ks, const gp_json *v, size_t i)
{
    size_t at;
    if (v->n <= GP_JSON_PAIRWISE) {
        for (at = 0; at < i; at++)
            if (strcmp(v->keys[at], v->keys[i]) == 0)
                return 1;
        return 0;
    }
    if (2 * v->n > ks->cap) { /* (re)built at half load: amortized linear */
        size_t nc = ks->cap ? ks->cap : 64, k;
        while (nc < 4 * v->n)
            nc *= 2;
        free(ks->slot);
        if (!(ks->slot = calloc(nc, sizeof *ks->slot))) {
            ks->cap = 0;
            return -1;
        }
        ks->cap = nc;
        for (k = 0; k < i; k++) {
            for (at = gp_json_hash(v->keys[k]) & (nc - 1); ks->slot[at]; at = (at + 1) & (nc - 1))
                ;
            ks->slot[at] = k + 1;
        }
    }
    for (at = gp_json_hash(v->keys[i]) & (ks->cap - 1); ks->slot[at]; at = (at + 1) & (ks->cap - 1))
        if (strcmp(v->keys[ks->slot[at] - 1], v->keys[i]) == 0)
            return 1;
    ks->slot[at] = i + 1;
    return 0;
}

static int gp_json_parse_members(gp_json_parser *p, gp_json *v, int depth, gp_json_keyset *ks);

/* An object or an array, at its opening bracket. */
static int gp_json_parse_container(gp_json_parser *p, gp_json *v, int depth)
{
    gp_json_keyset ks = {NULL, 0};
    int rc = gp_json_parse_members(p, v, depth, &ks);
    free(ks.slot);
    return rc;
}

static int gp_json_parse_members(gp_json_parser *p, gp_json *v, int depth, gp_json_keyset *ks)
{
    int obj = p->s[p->pos] == '{';
    char close = obj ? '}' : ']';
    size_t cap = 0;
    v->type = obj ? GP_JSON_OBJECT : GP_JSON_ARRAY;
    p->pos++;
    gp_json_skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
        return 0;
    }
    for (;;) {
        char *key = NULL;
        gp_json_skip_ws(p);
        if (obj) {
            if (p->pos >= p->len || p->s[p->pos] != '"') {
                gp_json_fail(p, "expected a string key");
                return -1;
            }
            key = gp_json_parse_string(p);
            if (!key)
                return -1;
            gp_json_skip_ws(p);
            if (p->pos >= p->len || p->s[p->pos] != ':') {
                free(key);
                gp_json_fail(p, "expected ':' after key");
                return -1;
            }
            p->pos++;
        }
        if (gp_json_push(p, v, &cap, key) < 0)
            return -1;
        if (obj) {
            int dup = gp_json_keyset_add(ks, v, v->n - 1);
            if (dup) {
                char shown[200], what[240];
                snprintf(what, sizeof what, "duplicate key \"%s\"",
                         gp_text_plain_buf(shown, sizeof shown, key));
                gp_json_fail(p, dup < 0 ? "out of memory" : what);
                return -1;
            }
        }
        if (gp_json_parse_value(p, &v->items[v->n - 1], depth + 1) < 0)
            return -1;
        gp_json_skip_ws(p);
        if (p->pos < p->len && p->s[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->pos < p->len && p->s[p->pos] == close) {
            p->pos++;
            return 0;
        }
        gp_json_fail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
        return -1;
    }
}

/* Moves *i past the digits there: at least one, else -1 after failing with why. */
static int gp_json_digits(gp_json_parser *p, size_t *i, const char *why)
{
    if (*i >= p->len || p->s[*i] < '0' || p->s[*i] > '9') {
        gp_json_fail(p, why);
        return -1;
    }
    while (*i < p->len && p->s[*i] >= '0' && p->s[*i] <= '9')
        (*i)++;
    return 0;
}

static int gp_json_parse_number(gp_json_parser *p, gp_json *v)
{
    size_t i = p->pos;
    char buf[64];
    if (i < p->len && p->s[i] == '-')
        i++;
    if (i < p->len && p->s[i] == '0')
        i++;
    else if (gp_json_digits(p, &i, "unexpected character") != 0)
        return -1;
    if (i < p->len && p->s[i] == '.') {
        i++;
        if (gp_json_digits(p, &i, "digit expected after '.'") != 0)
            return -1;
    }
    if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
        i++;
        if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
            i++;
        if (gp_json_digits(p, &i, "digit expected in exponent") != 0)
            return -1;
    }
    if (i - p->pos >= sizeof buf) {
        gp_json_fail(p, "number too long");
        return -1;
    }
    memcpy(buf, p->s + p->pos, i - p->pos);
    buf[i - p->pos] = 0;
    v->type = GP_JSON_NUMBER;
    v->num = strtod(buf, NULL);
    if (isinf(v->num)) {
        /* 1e999 or -1e999: an infinity by another spelling, refused as
         * Infinity is (it would reach a message or a sum as inf) */
        gp_json_fail(p, "number beyond the range of a double");
        return -1;
    }
    p->pos = i;
    return 0;
}

static int gp_json_literal(gp_json_parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->pos + n <= p->len && memcmp(p->s + p->pos, word, n) == 0) {
        p->pos += n;
        return 1;
    }
    return 0;
}

static int gp_json_parse_value(gp_json_parser *p, gp_json *v, int depth)
{
    if (depth > GP_JSON_MAX_DEPTH) {
        gp_json_fail(p, "nesting too deep");
        return -1;
    }
    gp_json_skip_ws(p);
    if (p->pos >= p->len) {
        gp_json_fail(p, "unexpected end of input");
        return -1;
    }
    switch (p->s[p->pos]) {
    case '{':
    case '[':
        return gp_json_parse_container(p, v, depth);
    case '"':
        v->str = gp_json_parse_string(p);
        if (!v->str)
            return -1;
        v->type = GP_JSON_STRING;
        return 0;
    case 't':
    case 'f':
    case 'n':
        if (gp_json_literal(p, "true")) {
            v->type = GP_JSON_BOOL;
            v->num = 1;
        } else if (gp_json_literal(p, "false")) {
            v->type = GP_JSON_BOOL;
        } else if (gp_json_literal(p, "null")) {
            v->type = GP_JSON_NULL;
        } else {
            gp_json_fail(p, "unexpected word");
            return -1;
        }
        return 0;
    default:
        return gp_json_parse_number(p, v);
    }
}

gp_json *gp_json_parse(const char *text, size_t len, char *err, size_t errlen)
{
    gp_json_parser p = {text, len, 0, err, errlen, 0};
    gp_json *v = calloc(1, sizeof *v);
    if (!v) {
        if (err && errlen)
            snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (gp_json_parse_value(&p, v, 0) < 0)
        goto bad;
    gp_json_skip_ws(&p);
    if (p.pos != p.len) {
        gp_json_fail(&p, "trailing characters after the value");
        goto bad;
    }
    return v;
bad:
    gp_json_free(v);
    return NULL;
}

const gp_json *gp_json_get(const gp_json *v, const char *key)
{
    size_t i;
    if (!v || v->type != GP_JSON_OBJECT)
        return NULL;
    for (i = 0; i < v->n; i++)
        if (strcmp(v->keys[i], key) == 0)
            return &v->items[i];
    return NULL;
}

double gp_json_number(const gp_json *v)
{
    return v && v->type == GP_JSON_NUMBER ? v->num : NAN;
}

const char *gp_json_string(const gp_json *v)
{
    return v && v->type == GP_JSON_STRING ? v->str : NULL;
}
