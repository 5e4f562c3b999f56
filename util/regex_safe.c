/* regex_safe.c - see regex_safe.h. */
#include "util/regex_safe.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REGEX_MAX_DEPTH 100

typedef struct {
    const char *p;
    char *why;
    size_t whylen;
    int failed;
} regex_scan;

static double regex_alternation(regex_scan *s, int depth, int *nullable);

static void regex_fail(regex_scan *s, const char *what)
{
    if (!s->failed)
        snprintf(s->why, s->whylen, "%s", what);
    s->failed = 1;
}

/* Past a bracket expression (p on the '['); an unterminated one is left to
 * regcomp to report. */
static void regex_skip_bracket(regex_scan *s)
{
    const char *p = s->p + 1;
    if (*p == '^')
        p++;
    if (*p == ']')
        p++;
    while (*p && *p != ']') {
        if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
            char end = p[1];
            p += 2;
            while (*p && !(*p == end && p[1] == ']'))
                p++;
            if (*p)
                p += 2;
            continue;
        }
        p++;
    }
    s->p = *p ? p + 1 : p;
}

/* An interval {m}, {m,}, {m,n} or {,n} at s->p: 1 with the largest count in
 * *count (-1: unbounded, then *min is the lower bound), 0 when s->p does
 * not start one (the brace is then an ordinary character). */
static int regex_interval(regex_scan *s, double *count, double *min)
{
    const char *p = s->p + 1;
    double m = 0, n = -1;
    int digits = 0;
    while (isdigit((unsigned char)*p) && m < 1e9)
        m = m * 10 + (*p++ - '0'), digits++;
    if (*p == ',') {
        p++;
        if (isdigit((unsigned char)*p)) {
            n = 0;
            while (isdigit((unsigned char)*p) && n < 1e9)
                n = n * 10 + (*p++ - '0'), digits++;
        }
    } else {
        n = m;
    }
    if (*p != '}' || (!digits && n < 0 && *(p - 1) != ','))
        return 0;
    s->p = p + 1;
    *count = n;
    *min = m;
    return 1;
}

/* One atom with its repetitions; *nullable: it can match the empty string. */
static double regex_piece(regex_scan *s, int depth, int *nullable)
{
    double c = 1;
    *nullable = 0;
    switch (*s->p) {
    case '(':
        s->p++;
        /* the group is a node of its own, empty or not */
        c = regex_alternation(s, depth + 1, nullable) + 1;
        if (*s->p == ')')
            s->p++;
        break;
    case '[':
        regex_skip_bracket(s);
        break;
    case '^':
    case '$':
        *nullable = 1; /* anchors match no character */
        s->p++;
        break;
    case '\\':
        if (s->p[1] >= '1' && s->p[1] <= '9') {
            regex_fail(s, "it holds a back-reference (\\1 to \\9), whose matching can take "
                          "exponential time");
            return 0;
        }
        *nullable = s->p[1] && strchr("bB<>`'", s->p[1]); /* word and buffer edges */
        s->p += s->p[1] ? 2 : 1;
        break;
    default:
        s->p++;
    }
    for (;;) {
        double count = 0, min = 0;
        char q = *s->p;
        if (q == '{' && !regex_interval(s, &count, &min))
            break; /* a brace that starts no interval is an ordinary character */
        if (q != '*' && q != '?' && q != '+' && q != '{')
            break;
        /* glibc's compiler slows down exponentially on these: ((){15}*){15}
         * takes minutes, whatever its size */
        if (*nullable) {
            regex_fail(s, "it repeats something that can match nothing, such as (a*)*, (x?){9} "
                          "or ()*");
            return 0;
        }
        if (q == '*' || q == '?') {
            s->p++;
            c = c + 1;
            *nullable = 1;
        } else if (q == '+') {
            s->p++;
            c = 2 * c + 1; /* x+ is compiled as x x* */
        } else {           /* regex_interval moved past the braces */
            c = (count < 0 ? min + 1 : count < 1 ? 1 : count) * c + 1;
            *nullable = min == 0;
        }
        if (c > 1e15)
            c = 1e15;
    }
    return c;
}

/* Branches separated by '|' up to a ')' or the end; *nullable: one branch
 * can match the empty string. */
static double regex_alternation(regex_scan *s, int depth, int *nullable)
{
    double total = 0;
    int branch_nullable = 1, piece_nullable;
    *nullable = 0;
    if (depth > REGEX_MAX_DEPTH) {
        regex_fail(s, "its groups are nested more than 100 deep");
        return 0;
    }
    while (*s->p && *s->p != ')' && !s->failed) {
        if (*s->p == '|') {
            s->p++;
            total += 1;
            *nullable |= branch_nullable;
            branch_nullable = 1;
            continue;
        }
        total += regex_piece(s, depth, &piece_nullable);
        branch_nullable &= piece_nullable;
        if (total > 1e15)
            total = 1e15;
    }
    *nullable |= branch_nullable;
    return total;
}

double gp_regex_size(const char *pattern, char *why, size_t whylen)
{
    regex_scan s = {pattern, why, whylen, 0};
    double total = 0;
    if (strlen(pattern) > GP_REGEX_MAX_LEN) {
        snprintf(why, whylen, "it is longer than %d characters", GP_REGEX_MAX_LEN);
        return -1;
    }
    /* a stray ')' is an ordinary character in glibc's ERE: go on past it */
    while (*s.p && !s.failed) {
        int nullable;
        total += regex_alternation(&s, 0, &nullable);
        if (*s.p == ')')
            s.p++;
    }
    return s.failed ? -1 : total;
}

int gp_regex_compile(regex_t *re, const char *pattern, int flags, char *why, size_t whylen)
{
    char msg[160];
    double size = gp_regex_size(pattern, msg, sizeof msg);
    if (size < 0) {
        snprintf(why, whylen, "not accepted: %s", msg);
        return -1;
    }
    if (size > GP_REGEX_MAX_SIZE) {
        snprintf(why, whylen,
                 "not accepted: its repetitions multiply to more than %d copies (%.3g); nested or "
                 "stacked repetitions such as (a+)+, a++ or (a{50}){50} make the matcher take "
                 "minutes and gigabytes",
                 GP_REGEX_MAX_SIZE, size);
        return -1;
    }
    int rc = regcomp(re, pattern, flags);
    if (rc != 0) {
        regerror(rc, re, msg, sizeof msg);
        snprintf(why, whylen, "not a POSIX extended regular expression (%s)", msg);
        return -1;
    }
    return 0;
}
