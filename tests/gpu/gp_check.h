/* gp_check.h - the checked call every GPU test program uses, whatever CUDA
 * API it calls: the call is evaluated once and, when its status is not the
 * API's success, the call's text and the API's words for the status are
 * printed and the program ends (test programs only).  The per-API headers
 * (rt_check.h, drv_util.h) name the status type, success and text function. */
#ifndef GP_GPU_CHECK_H
#define GP_GPU_CHECK_H

#include <stdio.h>
#include <stdlib.h>

/* "file:line: call: why", or "call: why" when file is NULL; then exit. */
static inline void gp_check_fail(const char *file, int line, const char *call, const char *why,
                                 int status)
{
    if (file)
        fprintf(stderr, "%s:%d: %s: %s\n", file, line, call, why);
    else
        fprintf(stderr, "%s: %s\n", call, why);
    exit(status);
}

/* call_text is #call, taken by the macro the program calls, so that the
 * message shows the call as written (its macros not expanded). */
#define GP_CHECK_CALL(type, success, text_of, call, call_text, file, status)                       \
    do {                                                                                           \
        type gp_st_ = (call);                                                                      \
        if (gp_st_ != (success))                                                                   \
            gp_check_fail(file, __LINE__, call_text, text_of(gp_st_), status);                    \
    } while (0)

#endif
