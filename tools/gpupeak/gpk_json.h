/* gpk_json.h - a small streaming JSON writer for gpupeak's peaks file.
 *
 * Keys and values are escaped; a number that is NaN or infinite is written
 * as null (JSON has no NaN, and a missing value must never read as 0).
 * Nesting depth is limited to GPK_JSON_DEPTH; deeper calls set ->err. */
#ifndef GPK_JSON_H
#define GPK_JSON_H

#include <stdio.h>

#define GPK_JSON_DEPTH 16

typedef struct gpk_json {
    FILE *f;
    int depth;
    int count[GPK_JSON_DEPTH]; /* members written so far at each level */
    int err;
} gpk_json;

void gpk_json_init(gpk_json *j, FILE *f);
/* key is NULL inside arrays and for the top-level value */
void gpk_json_obj_begin(gpk_json *j, const char *key);
void gpk_json_obj_end(gpk_json *j);
void gpk_json_arr_begin(gpk_json *j, const char *key);
void gpk_json_arr_end(gpk_json *j);
void gpk_json_num(gpk_json *j, const char *key, double v);
void gpk_json_int(gpk_json *j, const char *key, long long v);
void gpk_json_str(gpk_json *j, const char *key, const char *v); /* NULL writes null */
void gpk_json_bool(gpk_json *j, const char *key, int v);
/* Ends the document with a newline; returns 0, or -1 if anything failed. */
int gpk_json_finish(gpk_json *j);

#endif
