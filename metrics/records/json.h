/* json.h - a small JSON reader (RFC 8259) for the report: whole documents or
 * one JSON-lines record at a time into a tree the caller frees.  No external
 * dependency; nesting is limited (GP_JSON_MAX_DEPTH) so hostile input cannot
 * exhaust the stack. */
#ifndef GP_JSON_H
#define GP_JSON_H

#include <stddef.h>

#define GP_JSON_MAX_DEPTH 64

typedef enum {
    GP_JSON_NULL,
    GP_JSON_BOOL,
    GP_JSON_NUMBER,
    GP_JSON_STRING,
    GP_JSON_ARRAY,
    GP_JSON_OBJECT
} gp_json_type;

typedef struct gp_json gp_json;
struct gp_json {
    gp_json_type type;
    double num;     /* NUMBER; BOOL as 0/1 */
    char *str;      /* STRING (NUL-terminated, UTF-8; may contain no NUL) */
    size_t n;       /* ARRAY/OBJECT: element count */
    gp_json *items; /* ARRAY/OBJECT: the values */
    char **keys;    /* OBJECT: the keys, keys[i] names items[i] */
};

/* Parses text[0..len) as one JSON value (surrounding white space allowed).
 * Returns the tree, or NULL with "offset N: what" written into err. */
gp_json *gp_json_parse(const char *text, size_t len, char *err, size_t errlen);
void gp_json_free(gp_json *v);

/* Member of an object by key (first match), NULL when absent or v is not an
 * object. */
const gp_json *gp_json_get(const gp_json *v, const char *key);
/* NUMBER value, NaN for anything else (null included). */
double gp_json_number(const gp_json *v);
/* STRING value, NULL for anything else. */
const char *gp_json_string(const gp_json *v);

#endif
