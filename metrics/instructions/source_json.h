/* source_json.h - the fields of the instruction-level records read from
 * their JSON objects with the checks every reader of them makes (types,
 * lengths, ranges), each failure one sentence naming the record (what)
 * and the key. */
#ifndef GP_SOURCE_JSON_H
#define GP_SOURCE_JSON_H

#include <stddef.h>

#include "metrics/records/json.h"

/* A string field: *out NULL when absent; -1 (with the reason) when present
 * but not a string, empty when required, or longer than max bytes, or
 * absent when required. */
int gp_source_json_str(const gp_json *obj, const char *key, int required, size_t max,
                       const char **out, const char *what, char *err, size_t errlen);
/* A whole number within [lo, hi]; absent or null: dflt. */
int gp_source_json_int(const gp_json *obj, const char *key, double lo, double hi, long dflt,
                       long *out, const char *what, char *err, size_t errlen);
/* A count (a number from 0 to 2^53): absent or null is NaN. */
int gp_source_json_count(const gp_json *v, double *out, const char *what, const char *key,
                         char *err, size_t errlen);

#endif
