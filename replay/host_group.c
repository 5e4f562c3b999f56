/* host_group.c - see host_group.h. */
#include "replay/host_group.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/cupti_host.h"
#include "replay/host_obj.h"
#include "replay/nvpw_sched.h"
#include "util/clock.h"
#include "util/log.h"

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
    CUpti_Profiler_Host_Object *h = gp_host_obj_open(chip, avail, &r);
    if (!h)
        return -1;
    int ok = n == 0 || gp_host_obj_add(h, names, n) == 0;
    gp_host_obj_close(h);
    return ok;
}

int gp_host_refused_alone(const char *chip, const uint8_t *avail, const char *name)
{
    int t = host_takes(chip, avail, &name, 1);
    return t < 0 ? -1 : !t;
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
        CUpti_Profiler_Host_Object *h = gp_host_obj_open(chip, avail, &r);
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
        gp_host_obj_close(h);
    }
    if (groups < 0)
        groups = greedy(&g, n, every, group, carries_every, max_groups);
out:
    free(g.in);
    free(copies);
    free(g.trials);
    return groups > 0 ? (size_t)groups : 0;
}
