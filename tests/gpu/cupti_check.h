/* cupti_check.h - CU(x) for the GPU diagnostic programs (where/pcs_probe,
 * xcheck/sassdump): a failed CUPTI call is printed (its text, CUPTI's
 * message and code) and the program goes on. */
#ifndef GP_TESTS_CUPTI_CHECK_H
#define GP_TESTS_CUPTI_CHECK_H

#include <cupti.h>
#include <stdio.h>

#define CU(x)                                                                                      \
    do {                                                                                           \
        CUptiResult r_ = (x);                                                                      \
        if (r_ != CUPTI_SUCCESS) {                                                                 \
            const char *s_ = "?";                                                                  \
            cuptiGetResultString(r_, &s_);                                                         \
            printf("CUPTI ERROR %s: %s (%d)\n", #x, s_, (int)r_);                                  \
        }                                                                                          \
    } while (0)

#endif
