/* source_json.c - see source_json.h. */
#include "metrics/instructions/source_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* a count is exact in a double up to 2^53 */
#define GP_SOURCE_JSON_MAX_COUNT 9007199254740992.0

/* A string field: NULL when absent; -1 (with the reason) when present but
 * not a string, empty when it must not be, or longer than max. */
int gp_source_json_str(const gp_json *obj, const char *key, int required, size_t max,
                       const char **out, const char *what, char *err, size_t errlen)
{
    const gp_json *v = gp_json_get(obj, key);
    *out = NULL;
    if (!v || v->type == GP_JSON_NULL) {
        if (required)
            snprintf(err, errlen, "%s without a \"%s\" string", what, key);
        return required ? -1 : 0;
    }
    if (v->type != GP_JSON_STRING || (required && !v->str[0])) {
        snprintf(err, errlen, "%s: \"%s\" is not a%s string", what, key,
                 required ? " non-empty" : "");
        return -1;
    }
    if (strlen(v->str) > max) {
        snprintf(err, errlen, "%s: \"%s\" is longer than %zu bytes", what, key, max);
        return -1;
    }
    *out = v->str;
    return 0;
}

/* A whole number within [lo, hi]; absent or null: dflt. */
int gp_source_json_int(const gp_json *obj, const char *key, double lo, double hi, long dflt,
                       long *out, const char *what, char *err, size_t errlen)
{
    const gp_json *v = gp_json_get(obj, key);
    double x;
    if (!v || v->type == GP_JSON_NULL) {
        *out = dflt;
        return 0;
    }
    x = gp_json_number(v);
    if (v->type != GP_JSON_NUMBER || isnan(x) || x < lo || x > hi || x != floor(x)) {
        if (v->type == GP_JSON_NUMBER && x < 0 && lo >= 0)
            snprintf(err, errlen, "%s: \"%s\" is negative (%.15g)", what, key, x);
        else if (v->type == GP_JSON_NUMBER)
            snprintf(err, errlen, "%s: \"%s\" is %.15g, not a whole number within %.0f..%.0f", what,
                     key, x, lo, hi);
        else
            snprintf(err, errlen, "%s: \"%s\" is not a number", what, key);
        return -1;
    }
    *out = (long)x;
    return 0;
}

/* A count: absent or null is NaN; otherwise a number within 0..2^53. */
int gp_source_json_count(const gp_json *v, double *out, const char *what, const char *key,
                         char *err, size_t errlen)
{
    double x;
    *out = NAN;
    if (!v || v->type == GP_JSON_NULL)
        return 0;
    x = gp_json_number(v);
    if (v->type != GP_JSON_NUMBER || isnan(x) || x < 0 || x > GP_SOURCE_JSON_MAX_COUNT) {
        if (v->type != GP_JSON_NUMBER)
            snprintf(err, errlen, "%s: \"%s\" is not a number", what, key);
        else
            snprintf(err, errlen, "%s: \"%s\" is %.15g, not a count (0 to 2^53)", what, key, x);
        return -1;
    }
    *out = x;
    return 0;
}
