/* test_json.c - the peaks-file JSON writer: layout, escaping, NaN as null,
 * and the errors it must report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gp_test.h"
#include "gpk_json.h"

/* Writes with fn into a memory stream and returns the text (caller frees). */
static char *gpk_t_write(void (*fn)(gpk_json *), int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gpk_json j;
    gpk_json_init(&j, f);
    fn(&j);
    *rc = gpk_json_finish(&j);
    fclose(f);
    return buf;
}

static void doc_basic(gpk_json *j)
{
    gpk_json_obj_begin(j, NULL);
    gpk_json_str(j, "name", "NVIDIA H100 \"SXM\"\n");
    gpk_json_int(j, "sm_count", 132);
    gpk_json_num(j, "value", 6.5e13);
    gpk_json_num(j, "missing", NAN);
    gpk_json_num(j, "inf", INFINITY);
    gpk_json_arr_begin(j, "levels");
    gpk_json_num(j, NULL, 1.5);
    gpk_json_bool(j, NULL, 0);
    gpk_json_str(j, NULL, NULL);
    gpk_json_arr_end(j);
    gpk_json_obj_begin(j, "empty");
    gpk_json_obj_end(j);
    gpk_json_obj_end(j);
}

static void doc_unbalanced(gpk_json *j)
{
    gpk_json_obj_begin(j, NULL);
    gpk_json_obj_begin(j, "a");
    gpk_json_obj_end(j);
}

static void doc_overclosed(gpk_json *j)
{
    gpk_json_arr_begin(j, NULL);
    gpk_json_arr_end(j);
    gpk_json_arr_end(j);
}

static void doc_deep(gpk_json *j)
{
    for (int i = 0; i < GPK_JSON_DEPTH + 2; i++)
        gpk_json_arr_begin(j, NULL);
    for (int i = 0; i < GPK_JSON_DEPTH + 2; i++)
        gpk_json_arr_end(j);
}

static void doc_ctrl(gpk_json *j)
{
    gpk_json_str(j, NULL, "a\x01\tb\\");
}

int main(void)
{
    int rc;
    char *s = gpk_t_write(doc_basic, &rc);
    GP_CHECK(rc == 0);
    GP_CHECK_STR(s, "{\n"
                    "  \"name\": \"NVIDIA H100 \\\"SXM\\\"\\n\",\n"
                    "  \"sm_count\": 132,\n"
                    "  \"value\": 6.5e+13,\n"
                    "  \"missing\": null,\n"
                    "  \"inf\": null,\n"
                    "  \"levels\": [\n"
                    "    1.5,\n"
                    "    false,\n"
                    "    null\n"
                    "  ],\n"
                    "  \"empty\": {}\n"
                    "}\n");
    free(s);
    s = gpk_t_write(doc_unbalanced, &rc);
    GP_CHECK(rc == -1);
    free(s);
    s = gpk_t_write(doc_overclosed, &rc);
    GP_CHECK(rc == -1);
    free(s);
    s = gpk_t_write(doc_deep, &rc);
    GP_CHECK(rc == -1);
    free(s);
    s = gpk_t_write(doc_ctrl, &rc);
    GP_CHECK(rc == 0);
    GP_CHECK_STR(s, "\"a\\u0001\\tb\\\\\"\n");
    free(s);
    return gp_test_finish("gpupeak-json");
}
