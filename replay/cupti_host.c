/* cupti_host.c - host side of the CUPTI Profiler (see cupti_host.h). */
#include "cupti_host.h"

#include <cupti_profiler_host.h>
#include <cupti_result.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/nvpw_sched.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/strutil.h"

struct gp_host_config {
    CUpti_Profiler_Host_Object *host;
    uint8_t *image;
    size_t image_size;
    size_t passes;
    size_t n;
    char **names;
};

static const char *host_strerror(CUptiResult r)
{
    const char *s = NULL;
    cuptiGetResultString(r, &s);
    return s ? s : "unknown CUPTI error";
}

static CUpti_Profiler_Host_Object *host_open(const char *chip, const uint8_t *avail, CUptiResult *res)
{
    CUpti_Profiler_Host_Initialize_Params p = {CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip;
    p.pCounterAvailabilityImage = avail;
    *res = cuptiProfilerHostInitialize(&p);
    return *res == CUPTI_SUCCESS ? p.pHostObject : NULL;
}

static void host_close(CUpti_Profiler_Host_Object *h)
{
    if (!h)
        return;
    CUpti_Profiler_Host_Deinitialize_Params p = {CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    p.pHostObject = h;
    cuptiProfilerHostDeinitialize(&p);
}

static int host_add(CUpti_Profiler_Host_Object *h, const char *const *names, size_t n)
{
    CUpti_Profiler_Host_ConfigAddMetrics_Params p = {
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    p.pHostObject = h;
    p.ppMetricNames = (const char **)names;
    p.numMetrics = n;
    return cuptiProfilerHostConfigAddMetrics(&p) == CUPTI_SUCCESS ? 0 : -1;
}

int gp_metric_is_instrumented(const char *name)
{
    /* the .peak_sustained constants of sass metrics are hardware metrics */
    size_t l = strlen(name), s = strlen(".peak_sustained");
    if (l > s && strcmp(name + l - s, ".peak_sustained") == 0)
        return 0;
    return strstr(name, "__sass_") != NULL;
}

/* Calls fn once per base metric of h (type 0: counter, 1: ratio, 2:
 * throughput); a type CUPTI cannot list is left out. */
static void each_base(CUpti_Profiler_Host_Object *h,
                      void (*fn)(void *ctx, const char *name, int type), void *ctx)
{
    for (int t = CUPTI_METRIC_TYPE_COUNTER; t <= CUPTI_METRIC_TYPE_THROUGHPUT; t++) {
        CUpti_Profiler_Host_GetBaseMetrics_Params p = {
            CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
        p.pHostObject = h;
        p.metricType = (CUpti_MetricType)t;
        if (cuptiProfilerHostGetBaseMetrics(&p) != CUPTI_SUCCESS)
            continue;
        for (size_t i = 0; i < p.numMetrics; i++)
            fn(ctx, p.ppMetricNames[i], t - CUPTI_METRIC_TYPE_COUNTER);
    }
}

/* The 3 base metrics closest to base so far, nearest first. */
typedef struct {
    const char *base;
    const char *best[3];
    size_t bestd[3];
} closest;

static void closest_note(void *ctx, const char *name, int type)
{
    closest *c = ctx;
    (void)type;
    size_t d = gp_edit_distance(c->base, name);
    for (int k = 0; k < 3; k++) {
        if (d < c->bestd[k]) {
            for (int m = 2; m > k; m--) {
                c->bestd[m] = c->bestd[m - 1];
                c->best[m] = c->best[m - 1];
            }
            c->bestd[k] = d;
            c->best[k] = name;
            break;
        }
    }
}

/* Lists up to 3 base metrics of the chip closest to name's base (the part
 * before the first '.'), each with name's suffix, into buf. */
static void close_matches(CUpti_Profiler_Host_Object *h, const char *name, char *buf, size_t len)
{
    char base[256];
    const char *dot = strchr(name, '.');
    size_t bl = dot ? (size_t)(dot - name) : strlen(name);
    if (bl >= sizeof(base))
        bl = sizeof(base) - 1;
    memcpy(base, name, bl);
    base[bl] = '\0';
    closest c = {base, {0}, {(size_t)-1, (size_t)-1, (size_t)-1}};
    each_base(h, closest_note, &c);
    buf[0] = '\0';
    size_t used = 0;
    for (int k = 0; k < 3 && c.best[k]; k++)
        used += (size_t)snprintf(buf + used, used < len ? len - used : 0, "%s%s%s",
                                 k ? ", " : "", c.best[k], dot ? dot : "");
}

int gp_host_each_base(const char *chip, void (*fn)(void *ctx, const char *name, int type),
                      void *ctx)
{
    CUptiResult r;
    CUpti_Profiler_Host_Object *h = host_open(chip, NULL, &r);
    if (!h)
        return -1;
    each_base(h, fn, ctx);
    host_close(h);
    return 0;
}

enum { CHECK_GROUP = 16 };

size_t gp_host_check_names_each(const char *chip, const char *const *names, size_t n, int *known,
                                char *err, size_t errlen)
{
    size_t unknown = 0;
    CUptiResult r;
    if (err && errlen)
        err[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        /* a group at once first; a group CUPTI refuses, name by name */
        if (i % CHECK_GROUP == 0 && n - i > 1) {
            size_t k = n - i < CHECK_GROUP ? n - i : CHECK_GROUP;
            CUpti_Profiler_Host_Object *h = host_open(chip, NULL, &r);
            int all = h && host_add(h, &names[i], k) == 0;
            host_close(h);
            if (all) {
                for (size_t j = 0; known && j < k; j++)
                    known[i + j] = 1;
                i += k - 1;
                continue;
            }
        }
        CUpti_Profiler_Host_Object *h = host_open(chip, NULL, &r);
        if (!h) {
            if (err)
                snprintf(err, errlen, "CUPTI does not know chip '%s' (%s)", chip, host_strerror(r));
            for (size_t j = 0; known && j < n; j++)
                known[j] = 0;
            return n;
        }
        int ok = host_add(h, &names[i], 1) == 0;
        if (known)
            known[i] = ok;
        if (!ok && unknown++ == 0 && err) {
            char matches[512];
            close_matches(h, names[i], matches, sizeof(matches));
            snprintf(err, errlen, "unknown metric '%s' for %s; close matches: %s", names[i], chip,
                     matches[0] ? matches : "none");
        }
        host_close(h);
    }
    return unknown;
}

size_t gp_host_check_names(const char *chip, const char *const *names, size_t n, char *err,
                           size_t errlen)
{
    return gp_host_check_names_each(chip, names, n, NULL, err, errlen);
}

/* ---- time spent grouping ------------------------------------------------ */
static pthread_mutex_t grouping_lock = PTHREAD_MUTEX_INITIALIZER;
static double grouping_s;

static void grouping_add(double since)
{
    double d = gp_now_s() - since;
    pthread_mutex_lock(&grouping_lock);
    grouping_s += d;
    pthread_mutex_unlock(&grouping_lock);
}

double gp_host_grouping_s(void)
{
    pthread_mutex_lock(&grouping_lock);
    double s = grouping_s;
    pthread_mutex_unlock(&grouping_lock);
    return s;
}

static size_t partition(const char *chip, const uint8_t *avail, const char *const *names, size_t n,
                        int *group);

size_t gp_host_partition(const char *chip, const uint8_t *avail, const char *const *names,
                         size_t n, int *group)
{
    double t = gp_now_s();
    size_t groups = partition(chip, avail, names, n, group);
    grouping_add(t);
    return groups;
}

/* 1 when a fresh host object takes names[0..n) in one add (any number of
 * passes), 0 when CUPTI refuses them, -1 when it cannot be asked. */
static int host_takes(const char *chip, const uint8_t *avail, const char *const *names, size_t n)
{
    CUptiResult r;
    CUpti_Profiler_Host_Object *h = host_open(chip, avail, &r);
    if (!h)
        return -1;
    int ok = n == 0 || host_add(h, names, n) == 0;
    host_close(h);
    return ok;
}

/* The largest m such that a fresh host object takes in[0..k + m): in[0..k)
 * the configuration's names so far (taken), in[k..k + c) the candidates in
 * order; the whole list first (the usual case: CUPTI takes it), then a
 * bisection.  -1 when CUPTI cannot be asked. */
static long longest_taken(const char *chip, const uint8_t *avail, const char **in, size_t k,
                          size_t c)
{
    int all = host_takes(chip, avail, in, k + c);
    if (all != 0)
        return all < 0 ? -1 : (long)c;
    size_t lo = 0, hi = c - 1; /* lo: taken; more than hi: refused */
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        int t = host_takes(chip, avail, in, k + mid);
        if (t < 0)
            return -1;
        if (t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return (long)lo;
}

/* Each configuration takes the longest run of the remaining names, in
 * order, that CUPTI takes together with it (one add: adding a list name by
 * name costs CUPTI a schedule per name, 1 s for 250 names on the host); the
 * name that ends the run is then tried alone: refused alone, it is left out
 * and the configuration goes on with the names after it; taken alone, the
 * configuration is full.  (A host object per name beforehand cost about 3 s
 * for 254 names on an H100.) */
static size_t partition(const char *chip, const uint8_t *avail, const char *const *names, size_t n,
                        int *group)
{
    enum { UNPLACED = -2 };
    const char **in = calloc(n ? n : 1, sizeof(char *));
    size_t *idx = calloc(n ? n : 1, sizeof(size_t));
    size_t groups = 0;
    if (!in || !idx)
        goto out;
    for (size_t i = 0; i < n; i++)
        group[i] = UNPLACED;
    for (;;) {
        size_t k = 0; /* the configuration's names so far */
        for (;;) {
            size_t c = 0;
            for (size_t i = 0; i < n; i++)
                if (group[i] == UNPLACED) {
                    idx[c] = i;
                    in[k + c++] = names[i];
                }
            if (c == 0)
                break;
            long m = longest_taken(chip, avail, in, k, c);
            if (m < 0) {
                groups = 0; /* nothing can be said */
                goto out;
            }
            for (long j = 0; j < m; j++)
                group[idx[j]] = (int)groups;
            k += (size_t)m;
            if ((size_t)m == c)
                break;
            int alone = host_takes(chip, avail, &names[idx[m]], 1);
            if (alone < 0) {
                groups = 0;
                goto out;
            }
            if (alone)
                break; /* the configuration is full */
            group[idx[m]] = -1;
        }
        if (k == 0) /* nothing left, or taken alone and refused in a fresh configuration */
            break;
        groups++;
    }
    for (size_t i = 0; i < n; i++)
        if (group[i] == UNPLACED)
            group[i] = -1;
out:
    free(in);
    free(idx);
    return groups;
}

static size_t inject_limit; /* tests: CUPTI "refuses" lists longer than this (0: off) */

void gp_host_inject_one_pass_limit(size_t names)
{
    inject_limit = names;
}

/* 1 when `names` make one configuration of one pass on chip. */
static int one_pass(const char *chip, const uint8_t *avail, const char *const *names, size_t n)
{
    if (inject_limit && n > inject_limit)
        return 0;
    char err[256];
    gp_host_config *c = gp_host_config_create(chip, avail, 0, names, n, err, sizeof(err));
    int ok = c && gp_host_config_passes(c) == 1;
    gp_host_config_destroy(c);
    return ok;
}

/* ---- trials in parallel ----------------------------------------------- *
 * Each trial (is base + one candidate one pass?) opens a host
 * configuration: 3-8 ms on the host, thousands of them for a long list.
 * They are independent (CUPTI's host objects share nothing), so a round
 * tries the next few candidates at once on threads, against the same base;
 * the first that fits is taken, as the one-at-a-time greedy would, and the
 * candidates after it are tried again against the grown base: the result is
 * the same as one at a time. */
enum { TRIAL_THREADS_MAX = 8 };

typedef struct trial {
    const char *chip;
    const uint8_t *avail;
    const char **in; /* base (k names) + the candidate; the thread's own copy */
    size_t k;
    int ok;
} trial;

static void *trial_run(void *arg)
{
    trial *t = arg;
    t->ok = one_pass(t->chip, t->avail, t->in, t->k + 1);
    return NULL;
}

/* Runs trials[0..n) (threads when there are several and they start; inline
 * otherwise); none when n is 0. */
static void trials_run(trial *trials, size_t n)
{
    if (n == 0)
        return;
    pthread_t th[TRIAL_THREADS_MAX];
    int started[TRIAL_THREADS_MAX] = {0};
    for (size_t j = 1; j < n && j < TRIAL_THREADS_MAX; j++)
        started[j] = pthread_create(&th[j], NULL, trial_run, &trials[j]) == 0;
    trial_run(&trials[0]);
    for (size_t j = 1; j < n && j < TRIAL_THREADS_MAX; j++) {
        if (started[j])
            pthread_join(th[j], NULL);
        else
            trial_run(&trials[j]);
    }
}

static size_t trial_threads(void)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t t = cpus > 1 ? (size_t)cpus / 2 : 1; /* half the machine: the program runs too */
    return t > TRIAL_THREADS_MAX ? TRIAL_THREADS_MAX : t < 1 ? 1 : t;
}

size_t gp_host_partition_one_pass(const char *chip, const uint8_t *avail, const char *const *names,
                                  size_t n, const int *every, int *group, int *carries_every,
                                  size_t max_groups)
{
    return gp_host_partition_one_pass_threads(chip, avail, names, n, every, group, carries_every,
                                              max_groups, trial_threads());
}

static size_t partition_one_pass(const char *chip, const uint8_t *avail, const char *const *names,
                                 size_t n, const int *every, int *group, int *carries_every,
                                 size_t max_groups, size_t threads);

size_t gp_host_partition_one_pass_threads(const char *chip, const uint8_t *avail,
                                          const char *const *names, size_t n, const int *every,
                                          int *group, int *carries_every, size_t max_groups,
                                          size_t threads)
{
    double t = gp_now_s();
    size_t groups = partition_one_pass(chip, avail, names, n, every, group, carries_every,
                                       max_groups, threads);
    grouping_add(t);
    return groups;
}

static int fast_grouping = 1;
static int last_fast; /* the last one-pass grouping was PerfWorks' */

void gp_host_fast_grouping(int on)
{
    fast_grouping = on;
}

int gp_host_last_grouping_fast(void)
{
    return last_fast;
}

/* How the greedy below asks "does name i still fit the configuration being
 * made, in one pass?": PerfWorks' open pass group (nvpw, about 0.1 ms a
 * trial; its configurations are checked with CUPTI afterwards), or a CUPTI
 * host configuration per trial, several candidates at once on threads. */
typedef struct grouper {
    const char *chip;
    const uint8_t *avail;
    const char *const *names;
    gp_nvpw *nvpw;     /* NULL: host configurations */
    const char **in;   /* the configuration so far (k names) */
    size_t k;
    trial *trials;     /* `threads` trials, each with room for n + 1 names */
    size_t threads;
} grouper;

static int grouper_begin(grouper *g)
{
    g->k = 0;
    return g->nvpw ? gp_nvpw_group_begin(g->nvpw) : 0;
}

/* Tries cands[0..m) in order, each against the configuration so far, and
 * takes the first that fits: its position, m when none fits, -1 on error. */
static long grouper_first_fit(grouper *g, const size_t *cands, size_t m)
{
    if (g->nvpw) {
        for (size_t j = 0; j < m; j++) {
            int a = gp_nvpw_group_add(g->nvpw, cands[j]);
            if (a < 0)
                return -1;
            if (a == 1) {
                g->in[g->k++] = g->names[cands[j]];
                return (long)j;
            }
        }
        return (long)m;
    }
    for (size_t j = 0; j < m; j++) {
        memcpy(g->trials[j].in, g->in, g->k * sizeof(char *));
        g->trials[j].in[g->k] = g->names[cands[j]];
        g->trials[j].k = g->k;
    }
    trials_run(g->trials, m);
    for (size_t j = 0; j < m; j++)
        if (g->trials[j].ok) {
            g->in[g->k++] = g->names[cands[j]];
            return (long)j;
        }
    return (long)m;
}

/* The greedy in the caller's order (cupti_host.h): the every names first,
 * as many as one pass takes; then each configuration takes every remaining
 * name with which it stays one pass, the candidates after a taken one tried
 * again against the grown configuration.  Names that fit with none of the
 * every names get configurations without them.  The number of
 * configurations, or -1 on an error. */
static long greedy(grouper *g, size_t n, const int *every, int *group, int *carries_every,
                   size_t max_groups)
{
    enum { UNPLACED = -3 };
    size_t *cands = calloc(g->threads, sizeof(size_t));
    if (!cands)
        return -1;
    long groups = -1;
    size_t n_every = 0;
    if (grouper_begin(g) != 0)
        goto out;
    for (size_t i = 0; i < n; i++) {
        group[i] = UNPLACED;
        long r = every[i] ? grouper_first_fit(g, &i, 1) : 1;
        if (r < 0)
            goto out;
        if (r == 0) {
            group[i] = GP_HOST_EVERY;
            n_every++;
        }
    }
    groups = 0;
    for (int with_every = n_every > 0; (size_t)groups < max_groups;) {
        if (grouper_begin(g) != 0)
            goto fail;
        for (size_t i = 0; with_every && i < n; i++)
            if (group[i] == GP_HOST_EVERY && grouper_first_fit(g, &i, 1) != 0)
                goto fail;
        size_t took = 0;
        for (size_t i = 0; i < n;) {
            /* an instrumented pass slows the kernel and adds instructions:
             * the every names (durations, instructions) are not taken there */
            size_t m = 0;
            for (; i < n && m < g->threads; i++)
                if (group[i] == UNPLACED && !(with_every && gp_metric_is_instrumented(g->names[i])))
                    cands[m++] = i;
            if (m == 0)
                break;
            long r = grouper_first_fit(g, cands, m);
            if (r < 0)
                goto fail;
            if ((size_t)r < m) {
                group[cands[r]] = (int)groups;
                took++;
                i = cands[r] + 1; /* the later ones again, against the grown configuration */
            }
        }
        if (took == 0) {
            if (!with_every)
                break; /* the rest fit in no configuration, even alone */
            with_every = 0;
            continue;
        }
        carries_every[groups++] = with_every;
    }
    for (size_t i = 0; i < n; i++)
        if (group[i] == UNPLACED)
            group[i] = -1;
    goto out;
fail:
    groups = -1;
out:
    free(cands);
    return groups;
}

/* The names of configuration c (with the every names when it carries
 * them, first) into g->in; their count. */
static size_t config_names(const grouper *g, size_t n, const int *group, int carries, long c,
                           size_t *idx)
{
    size_t k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++)
            if (pass == 0 ? carries && group[i] == GP_HOST_EVERY : group[i] == (int)c) {
                if (idx)
                    idx[k] = i;
                g->in[k++] = g->names[i];
            }
    return k;
}

/* The longest prefix of in[0..k) that CUPTI takes in one pass, at least
 * `least` long (0 when even that is refused): a bisection, a few host
 * configurations where trying name by name would open one per name. */
static size_t one_pass_prefix(const grouper *g, size_t k, size_t least)
{
    if (!one_pass(g->chip, g->avail, g->in, least))
        return 0;
    size_t lo = least, hi = k; /* lo: taken; hi + 1 and more: refused */
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (one_pass(g->chip, g->avail, g->in, mid))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* PerfWorks proposes, CUPTI decides: a configuration CUPTI does not take in
 * one pass (seen on the device, where the counter availability image is the
 * GPU's: 65 names PerfWorks put together needed more) keeps the longest
 * prefix CUPTI takes, and the rest of its names become a configuration of
 * their own, appended and checked in turn.  The new number of
 * configurations, or -1 when that cannot be done (then the whole list goes
 * the slow way). */
static long repair(grouper *g, size_t n, int *group, int *carries_every, long groups,
                   size_t max_groups)
{
    size_t *idx = calloc(n ? n : 1, sizeof(size_t));
    long total = idx ? groups : -1;
    for (long c = 0; c < total; c++) {
        size_t k = config_names(g, n, group, carries_every[c], c, idx);
        size_t carried = 0;
        while (carried < k && group[idx[carried]] == GP_HOST_EVERY)
            carried++;
        if (one_pass(g->chip, g->avail, g->in, k))
            continue;
        size_t keep = carried < k ? one_pass_prefix(g, k, carried + 1) : 0;
        if (keep == 0 && carried > 0) { /* not even one name beside the every names */
            carries_every[c] = 0;
            c--; /* the same configuration again, without them */
            continue;
        }
        gp_debug("PerfWorks' scheduler: configuration %ld (%zu names) is not one pass for "
                 "CUPTI: it keeps %zu, the rest are a configuration of their own",
                 c + 1, k, keep);
        if (keep == 0 || (size_t)total >= max_groups) {
            total = -1;
            break;
        }
        for (size_t j = keep; j < k; j++)
            group[idx[j]] = (int)total;
        carries_every[total++] = carries_every[c];
    }
    free(idx);
    return total;
}

static size_t partition_one_pass(const char *chip, const uint8_t *avail, const char *const *names,
                                 size_t n, const int *every, int *group, int *carries_every,
                                 size_t max_groups, size_t threads)
{
    if (threads < 1)
        threads = 1;
    if (threads > TRIAL_THREADS_MAX)
        threads = TRIAL_THREADS_MAX;
    grouper g = {chip, avail, names, NULL, calloc(n ? n : 1, sizeof(char *)), 0, NULL, threads};
    const char **copies = calloc((n + 1) * threads, sizeof(char *));
    g.trials = calloc(threads, sizeof(trial));
    long groups = -1;
    last_fast = 0;
    if (!g.in || !copies || !g.trials)
        goto out;
    for (size_t j = 0; j < threads; j++)
        g.trials[j] = (trial){chip, avail, copies + j * (n + 1), 0, 0};
    if (fast_grouping) {
        /* CUPTI's host API loads libnvperf_host its own way first */
        CUptiResult r;
        double t_open = gp_now_s();
        CUpti_Profiler_Host_Object *h = host_open(chip, avail, &r);
        g.nvpw = h ? gp_nvpw_open(chip, avail, names, n) : NULL;
        t_open = gp_now_s() - t_open;
        if (g.nvpw) {
            double t = gp_now_s();
            groups = greedy(&g, n, every, group, carries_every, max_groups);
            gp_nvpw_close(g.nvpw);
            g.nvpw = NULL;
            double t_greedy = gp_now_s() - t;
            if (groups >= 0)
                groups = repair(&g, n, group, carries_every, groups, max_groups);
            gp_debug("PerfWorks' scheduler: opened in %.0f ms, grouped in %.0f ms, checked by "
                     "CUPTI in %.0f ms",
                     t_open * 1e3, t_greedy * 1e3, (gp_now_s() - t - t_greedy) * 1e3);
            last_fast = groups >= 0;
        }
        host_close(h);
    }
    if (groups < 0)
        groups = greedy(&g, n, every, group, carries_every, max_groups);
out:
    free(g.in);
    free(copies);
    free(g.trials);
    return groups > 0 ? (size_t)groups : 0;
}

gp_host_config *gp_host_config_create(const char *chip, const uint8_t *avail, size_t avail_size,
                                      const char *const *names, size_t n, char *err, size_t errlen)
{
    (void)avail_size;
    CUptiResult r;
    gp_host_config *cfg = calloc(1, sizeof(*cfg));
    if (!cfg) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    cfg->host = host_open(chip, avail, &r);
    if (!cfg->host) {
        snprintf(err, errlen, "CUPTI host profiler cannot start for chip '%s': %s", chip,
                 host_strerror(r));
        goto fail;
    }
    if (host_add(cfg->host, names, n) != 0) {
        if (gp_host_check_names(chip, names, n, err, errlen) == 0)
            snprintf(err, errlen, "CUPTI could not schedule this set of %zu metrics on %s", n,
                     chip);
        goto fail;
    }
    CUpti_Profiler_Host_GetConfigImageSize_Params sp = {
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    sp.pHostObject = cfg->host;
    if ((r = cuptiProfilerHostGetConfigImageSize(&sp)) != CUPTI_SUCCESS) {
        snprintf(err, errlen, "config image size: %s", host_strerror(r));
        goto fail;
    }
    cfg->image_size = sp.configImageSize;
    cfg->image = malloc(cfg->image_size);
    if (!cfg->image) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    CUpti_Profiler_Host_GetConfigImage_Params ip = {
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    ip.pHostObject = cfg->host;
    ip.configImageSize = cfg->image_size;
    ip.pConfigImage = cfg->image;
    if ((r = cuptiProfilerHostGetConfigImage(&ip)) != CUPTI_SUCCESS) {
        snprintf(err, errlen, "config image: %s", host_strerror(r));
        goto fail;
    }
    CUpti_Profiler_Host_GetNumOfPasses_Params np = {
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    np.configImageSize = cfg->image_size;
    np.pConfigImage = cfg->image;
    if ((r = cuptiProfilerHostGetNumOfPasses(&np)) != CUPTI_SUCCESS) {
        snprintf(err, errlen, "pass count: %s", host_strerror(r));
        goto fail;
    }
    cfg->passes = np.numOfPasses;
    cfg->names = calloc(n ? n : 1, sizeof(char *));
    if (!cfg->names)
        goto fail;
    for (size_t i = 0; i < n; i++) {
        cfg->names[i] = strdup(names[i]);
        if (!cfg->names[i])
            goto fail;
        cfg->n = i + 1;
    }
    return cfg;
fail:
    gp_host_config_destroy(cfg);
    return NULL;
}

void gp_host_config_destroy(gp_host_config *cfg)
{
    if (!cfg)
        return;
    host_close(cfg->host);
    for (size_t i = 0; i < cfg->n; i++)
        free(cfg->names[i]);
    free(cfg->names);
    free(cfg->image);
    free(cfg);
}

size_t gp_host_config_passes(const gp_host_config *cfg) { return cfg->passes; }
size_t gp_host_config_count(const gp_host_config *cfg) { return cfg->n; }
const char *gp_host_config_name(const gp_host_config *cfg, size_t i) { return cfg->names[i]; }

const uint8_t *gp_host_config_image(const gp_host_config *cfg, size_t *size)
{
    *size = cfg->image_size;
    return cfg->image;
}

int gp_host_config_evaluate(const gp_host_config *cfg, const uint8_t *counter_data, size_t size,
                            size_t range, double *values)
{
    CUpti_Profiler_Host_EvaluateToGpuValues_Params p = {
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    p.pHostObject = cfg->host;
    p.pCounterDataImage = counter_data;
    p.counterDataImageSize = size;
    p.rangeIndex = range;
    p.ppMetricNames = (const char **)cfg->names;
    p.numMetrics = cfg->n;
    p.pMetricValues = values;
    if (cuptiProfilerHostEvaluateToGpuValues(&p) != CUPTI_SUCCESS) {
        for (size_t i = 0; i < cfg->n; i++)
            values[i] = NAN;
        return -1;
    }
    return 0;
}
