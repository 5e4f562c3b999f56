/* gp_test.h - a minimal test harness shared by the project's unit tests.
 *
 * Each test binary calls GP_CHECK* inside test functions and ends main() with
 * gp_test_finish(), which prints "N passed, N failed, N skipped" and returns
 * the exit status.  A check that fails prints file:line and the expression.
 * gp_test_skip() counts a skip with a reason (used by GPU tests on a machine
 * without a GPU: a skip is never a pass). */
#ifndef GP_TEST_H
#define GP_TEST_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int gp_test_passed, gp_test_failed, gp_test_skipped;

#define GP_CHECK(cond)                                                                             \
    do {                                                                                           \
        if (cond) {                                                                                \
            gp_test_passed++;                                                                      \
        } else {                                                                                   \
            gp_test_failed++;                                                                      \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                        \
        }                                                                                          \
    } while (0)

#define GP_CHECK_MSG(cond, ...)                                                                    \
    do {                                                                                           \
        if (cond) {                                                                                \
            gp_test_passed++;                                                                      \
        } else {                                                                                   \
            gp_test_failed++;                                                                      \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

#define GP_CHECK_STR(a, b)                                                                         \
    GP_CHECK_MSG(strcmp((a), (b)) == 0, "\"%s\" != \"%s\"", (a), (b))

/* relative tolerance; NaN never passes */
#define GP_CHECK_NEAR(a, b, rel)                                                                   \
    GP_CHECK_MSG(!isnan((double)(a)) && !isnan((double)(b)) &&                                     \
                     fabs((double)(a) - (double)(b)) <= (rel) * fmax(fabs((double)(b)), 1e-300),   \
                 "%.9g vs %.9g (rel %.3g)", (double)(a), (double)(b), (double)(rel))

static inline void gp_test_skip(const char *what, const char *why)
{
    gp_test_skipped++;
    fprintf(stderr, "SKIP %s: %s\n", what, why);
}

/* The next of a xorshift64 sequence from *state (not 0): test data that is
 * the same on every run. */
static inline uint64_t gp_test_rand(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* What fn writes for arg, as a string (malloc'd; the caller frees it). */
static inline char *gp_test_capture(void (*fn)(FILE *, const void *), const void *arg)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fn(f, arg);
    fclose(f);
    return buf;
}

static inline int gp_test_finish(const char *suite)
{
    printf("%s: %d passed, %d failed, %d skipped\n", suite, gp_test_passed, gp_test_failed,
           gp_test_skipped);
    return gp_test_failed ? 1 : 0;
}

#endif
