/* test_ranges.c - capture ranges without a GPU: Nsight Compute's NVTX
 * expressions against hand-built range stacks (table-driven), the range state
 * that CUPTI's NVTX callbacks feed (push/pop per thread and domain, start/end
 * by id, domains by handle), cu(da)ProfilerStart/Stop, and the decision a
 * launch gets from both. */
#include <pthread.h>
#include <stdlib.h>

#include "preload/config.h"
#include "preload/filter.h"
#include "preload/nvtx_expr.h"
#include "preload/ranges.h"
#include "tests/unit/fake_env.h"
#include "tests/unit/gp_test.h"

#define R(d, n)                                                                                    \
    {                                                                                              \
        d, n                                                                                       \
    }

/* One expression against one view: want 1 (matches) or 0. */
static void expect(const char *expr, const gp_nvtx_range *stack, size_t ns,
                   const gp_nvtx_range *open, size_t no, int want)
{
    char err[256];
    gp_nvtx_expr *e = gp_nvtx_expr_parse(expr, err, sizeof(err));
    GP_CHECK_MSG(e != NULL, "'%s' does not parse: %s", expr, err);
    if (!e)
        return;
    gp_nvtx_view v = {stack, ns, open, no};
    int got = gp_nvtx_expr_match(e, &v);
    GP_CHECK_MSG(got == want, "'%s': %d, want %d", expr, got, want);
    gp_nvtx_expr_free(e);
}

static void expect_error(const char *expr, const char *why)
{
    char err[256] = "";
    gp_nvtx_expr *e = gp_nvtx_expr_parse(expr, err, sizeof(err));
    GP_CHECK_MSG(!e && strstr(err, why), "'%s': want an error with '%s', got '%s'", expr, why,
                 e ? "(parsed)" : err);
    gp_nvtx_expr_free(e);
}

static int decide_with(const char *const *table)
{
    gp_config c;
    char err[512];
    fake_env_table = table;
    if (gp_config_parse(&c, fake_env, err, sizeof(err)) != 0) {
        fprintf(stderr, "config: %s\n", err);
        return -99;
    }
    int d = gp_ranges_decide(&c);
    gp_config_free(&c);
    return d;
}

static void *other_thread(void *arg)
{
    /* a push on another thread is not around this thread's launches */
    static const char *const inc[] = {"GPUPROF_NVTX_INCLUDE", "step/", NULL};
    int *out = arg;
    *out = decide_with(inc);
    return NULL;
}

int main(void)
{
    /* push/pop: main > train > step (default domain), one range of domain D */
    const gp_nvtx_range st[] = {R("", "main"), R("", "train"), R("D", "io"), R("", "step")};
    const gp_nvtx_range se[] = {R("", "A_range"), R("Dom A", "B range")};
    expect("train/", st, 4, NULL, 0, 1); /* anywhere in the stack */
    expect("io/", st, 4, NULL, 0, 0);    /* io is in domain D */
    expect("D@io/", st, 4, NULL, 0, 1);
    expect("D@io]", st, 4, NULL, 0, 1); /* D's stack has io alone */
    expect("[main", st, 4, NULL, 0, 1); /* bottom */
    expect("[train", st, 4, NULL, 0, 0);
    expect("step]", st, 4, NULL, 0, 1); /* top */
    expect("train]", st, 4, NULL, 0, 0);
    expect("main/train/step", st, 4, NULL, 0, 1); /* directly nested */
    expect("main/step", st, 4, NULL, 0, 0);
    expect("main/*/step", st, 4, NULL, 0, 1); /* zero or more between */
    expect("main/+/step", st, 4, NULL, 0, 1); /* exactly one between */
    expect("[main/+/+/step]", st, 4, NULL, 0, 0);
    expect("train/*/main", st, 4, NULL, 0, 0); /* order matters: main is below */
    expect("[main/*]", st, 4, NULL, 0, 1);
    expect("regex:^tr/", st, 4, NULL, 0, 1);
    expect("regex:^D$@^i/", st, 4, NULL, 0, 1);
    expect("regex:^x@^i/", st, 4, NULL, 0, 0);
    expect("train/", NULL, 0, NULL, 0, 0); /* nothing open */
    /* start/end: comma = inside all of them */
    expect("A_range", NULL, 0, se, 2, 1);
    expect("A_range", st, 4, NULL, 0, 0); /* no '/': a start/end range */
    expect("Dom A@B range", NULL, 0, se, 2, 1);
    expect("B range", NULL, 0, se, 2, 0); /* other domain */
    expect("A_range,C", NULL, 0, se, 2, 0);
    expect("regex:Dom@B", NULL, 0, se, 2, 1);
    /* escapes: quantifiers inside names */
    const gp_nvtx_range odd[] = {R("", "a/b[i]"), R("", "x,y")};
    expect("a\\/b\\[i\\]/", odd, 1, NULL, 0, 1);
    expect("x\\,y", NULL, 0, odd + 1, 1, 1);
    expect("regex:^a/b\\[i\\]$/", odd, 1, NULL, 0, 0); /* '/' splits: "a" and "b\[i\]" */
    expect("regex:^a\\/b\\[i\\]$/", odd, 1, NULL, 0, 1);
    /* Nsight Compute's "/[" and "/]": brackets of the regex, not anchors */
    const gp_nvtx_range num[] = {R("", "7rangeA"), R("", "RangeC3")};
    expect("regex:/[0-9]rangeA,RangeC[0-9/]", NULL, 0, num, 2, 1);
    expect("regex:/[0-9]rangeA,RangeC[a-z/]", NULL, 0, num, 2, 0);
    /* errors name the problem */
    expect_error("@A/", "empty domain name");
    expect_error("a//b", "empty range name");
    expect_error("a,,b", "empty range name");
    expect_error("regex:a(/", "not a POSIX extended regular expression");

    /* lists: ';' separates, "\;" is literal */
    gp_nvtx_expr *list[4];
    char err[256];
    GP_CHECK(gp_nvtx_list_parse("train/; eval/ ;a\\;b", list, 4, err, sizeof(err)) == 3);
    GP_CHECK_STR(gp_nvtx_expr_text(list[1]), "eval/");
    GP_CHECK_STR(gp_nvtx_expr_text(list[2]), "a;b");
    const gp_nvtx_range semi[] = {R("", "a;b")};
    gp_nvtx_view vs = {NULL, 0, semi, 1};
    GP_CHECK(gp_nvtx_expr_match(list[2], &vs));
    /* include any, exclude none */
    gp_nvtx_view v = {st, 4, NULL, 0};
    GP_CHECK(gp_nvtx_select(list, 3, NULL, 0, &v));      /* train/ matches */
    GP_CHECK(!gp_nvtx_select(list + 1, 1, NULL, 0, &v)); /* eval/ alone does not */
    GP_CHECK(gp_nvtx_select(NULL, 0, NULL, 0, &v));      /* no include: all */
    GP_CHECK(!gp_nvtx_select(NULL, 0, list, 1, &v));     /* excluded */
    for (int i = 0; i < 3; i++)
        gp_nvtx_expr_free(list[i]);
    GP_CHECK(gp_nvtx_list_parse("a/;b//", list, 4, err, sizeof(err)) == -1 && strstr(err, "'b//'"));
    GP_CHECK(gp_nvtx_list_parse("a/;b/;c/", list, 2, err, sizeof(err)) == -1 &&
             strstr(err, "more than 2"));

    /* the state as the NVTX callbacks feed it, and the launch decision */
    static const char *const none[] = {NULL};
    static const char *const inc_step[] = {"GPUPROF_NVTX_INCLUDE", "step/", NULL};
    static const char *const exc_warm[] = {"GPUPROF_NVTX_EXCLUDE", "warmup/", NULL};
    static const char *const dom[] = {"GPUPROF_NVTX_INCLUDE", "model@fwd/", NULL};
    static const char *const se_inc[] = {"GPUPROF_NVTX_INCLUDE", "phase2", NULL};
    gp_ranges_reset(1);
    GP_CHECK(decide_with(none) == GP_PROFILE);
    GP_CHECK(decide_with(inc_step) == GP_SKIP_NVTX);
    gp_ranges_push(0, "step");
    GP_CHECK(decide_with(inc_step) == GP_PROFILE);
    int other = -1;
    pthread_t th;
    pthread_create(&th, NULL, other_thread, &other);
    pthread_join(th, NULL);
    GP_CHECK_MSG(other == GP_SKIP_NVTX, "another thread's launch: %d", other);
    gp_ranges_push(0, "warmup"); /* step > warmup */
    GP_CHECK(decide_with(exc_warm) == GP_SKIP_NVTX);
    GP_CHECK(gp_ranges_pop(0) == 0);
    GP_CHECK(decide_with(exc_warm) == GP_PROFILE);
    GP_CHECK(gp_ranges_pop(0) == 0);
    GP_CHECK(gp_ranges_pop(0) == -1); /* nothing left: a push gpuprof never saw */
    GP_CHECK(decide_with(inc_step) == GP_SKIP_NVTX);
    /* a domain known by its handle; pops are per domain */
    gp_ranges_domain_created(0x1234, "model");
    gp_ranges_push(0x1234, "fwd");
    gp_ranges_push(0, "inner");
    GP_CHECK(decide_with(dom) == GP_PROFILE);
    GP_CHECK(gp_ranges_pop(0x1234) == 0); /* pops fwd, under inner */
    GP_CHECK(decide_with(dom) == GP_SKIP_NVTX);
    GP_CHECK(gp_ranges_pop(0) == 0);
    gp_ranges_push(0x9999, "fwd"); /* a domain created before gpuprof saw it */
    GP_CHECK(decide_with(dom) == GP_SKIP_NVTX);
    GP_CHECK(gp_ranges_pop(0x9999) == 0);
    /* start/end ranges are process-wide, ended by id */
    gp_ranges_start(0, 41, "phase1");
    gp_ranges_start(0, 42, "phase2");
    GP_CHECK(decide_with(se_inc) == GP_PROFILE);
    GP_CHECK(gp_ranges_end(42) == 0 && gp_ranges_end(42) == -1);
    GP_CHECK(decide_with(se_inc) == GP_SKIP_NVTX);
    char s[32];
    gp_ranges_string_registered(7, "registered name");
    gp_ranges_string(7, s, sizeof(s));
    GP_CHECK_STR(s, "registered name");
    gp_ranges_string(8, s, sizeof(s));
    GP_CHECK_STR(s, "");
    /* cu(da)ProfilerStart/Stop, and GPUPROF_PROFILE_FROM_START=0 */
    gp_ranges_reset(0);
    GP_CHECK(decide_with(none) == GP_SKIP_PROFILER_RANGE);
    gp_ranges_profiler(1);
    GP_CHECK(decide_with(none) == GP_PROFILE);
    gp_ranges_profiler(0);
    GP_CHECK(decide_with(none) == GP_SKIP_PROFILER_RANGE);
    gp_ranges_profiler(1);
    GP_CHECK(decide_with(inc_step) == GP_SKIP_NVTX); /* both must let it through */
    gp_ranges_reset(1);
    return gp_test_finish("ranges");
}
