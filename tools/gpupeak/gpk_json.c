/* gpk_json.c - see gpk_json.h. */
#include "gpk_json.h"
#include "util/textio.h"

#include <math.h>

void gpk_json_init(gpk_json *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->count[0] = 0;
    j->err = 0;
}

/* Comma, newline, indentation and key before a value. */
static void gpk_json_pre(gpk_json *j, const char *key)
{
    if (j->count[j->depth]++ > 0)
        fputc(',', j->f);
    if (j->depth > 0) {
        fputc('\n', j->f);
        for (int i = 0; i < j->depth; i++)
            fputs("  ", j->f);
    }
    if (key) {
        gp_text_json_string(j->f, key);
        fputs(": ", j->f);
    }
}

static void gpk_json_open(gpk_json *j, const char *key, char c)
{
    gpk_json_pre(j, key);
    fputc(c, j->f);
    if (j->depth + 1 >= GPK_JSON_DEPTH) {
        j->err = 1;
        return;
    }
    j->count[++j->depth] = 0;
}

static void gpk_json_close(gpk_json *j, char c)
{
    if (j->depth == 0) {
        j->err = 1;
        return;
    }
    int had = j->count[j->depth];
    j->depth--;
    if (had) {
        fputc('\n', j->f);
        for (int i = 0; i < j->depth; i++)
            fputs("  ", j->f);
    }
    fputc(c, j->f);
}

void gpk_json_obj_begin(gpk_json *j, const char *key) { gpk_json_open(j, key, '{'); }
void gpk_json_obj_end(gpk_json *j) { gpk_json_close(j, '}'); }
void gpk_json_arr_begin(gpk_json *j, const char *key) { gpk_json_open(j, key, '['); }
void gpk_json_arr_end(gpk_json *j) { gpk_json_close(j, ']'); }

void gpk_json_num(gpk_json *j, const char *key, double v)
{
    gpk_json_pre(j, key);
    if (isfinite(v))
        fprintf(j->f, "%.8g", v);
    else
        fputs("null", j->f);
}

void gpk_json_int(gpk_json *j, const char *key, long long v)
{
    gpk_json_pre(j, key);
    fprintf(j->f, "%lld", v);
}

void gpk_json_str(gpk_json *j, const char *key, const char *v)
{
    gpk_json_pre(j, key);
    gp_text_json_string(j->f, v); /* NULL: null */
}

void gpk_json_bool(gpk_json *j, const char *key, int v)
{
    gpk_json_pre(j, key);
    fputs(v ? "true" : "false", j->f);
}

int gpk_json_finish(gpk_json *j)
{
    if (j->depth != 0)
        j->err = 1;
    fputc('\n', j->f);
    if (ferror(j->f))
        j->err = 1;
    return j->err ? -1 : 0;
}
