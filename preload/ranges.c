/* ranges.c - see ranges.h */
#include "preload/ranges.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "preload/config.h"
#include "preload/filter.h"
#include "preload/nvtx_expr.h"

/* ---- state --------------------------------------------------------------- */

typedef struct {
    uint64_t handle;
    char *text;
} handle_name;

typedef struct {
    uint64_t domain, id;
    char *name;
} open_range;

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;
static handle_name *domains, *strings;
static size_t n_domains, n_strings;
static open_range *opened;
static size_t n_opened;
static atomic_int profiler_on = 1;

/* This thread's push/pop ranges, bottom first.  The names are copies: NVTX
 * strings may be freed after the call. */
static __thread struct {
    uint64_t *domain;
    char **name;
    size_t n, cap;
} t_stack;

static void table_set(handle_name **t, size_t *n, uint64_t handle, const char *text)
{
    char *copy = strdup(text ? text : "");
    if (!copy)
        return;
    pthread_mutex_lock(&state_lock);
    for (size_t i = 0; i < *n; i++)
        if ((*t)[i].handle == handle) {
            free((*t)[i].text);
            (*t)[i].text = copy;
            pthread_mutex_unlock(&state_lock);
            return;
        }
    handle_name *nt = realloc(*t, (*n + 1) * sizeof(*nt));
    if (nt) {
        *t = nt;
        nt[(*n)++] = (handle_name){handle, copy};
    } else {
        free(copy);
    }
    pthread_mutex_unlock(&state_lock);
}

/* Caller holds state_lock. */
static const char *table_get(const handle_name *t, size_t n, uint64_t handle)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].handle == handle)
            return t[i].text;
    return NULL;
}

void gp_ranges_domain_created(uint64_t handle, const char *name)
{
    table_set(&domains, &n_domains, handle, name);
}

void gp_ranges_string_registered(uint64_t handle, const char *s)
{
    table_set(&strings, &n_strings, handle, s);
}

void gp_ranges_string(uint64_t handle, char *buf, size_t len)
{
    pthread_mutex_lock(&state_lock);
    const char *s = table_get(strings, n_strings, handle);
    snprintf(buf, len, "%s", s ? s : "");
    pthread_mutex_unlock(&state_lock);
}

/* Caller holds state_lock.  An unknown domain handle (created before gpuprof
 * saw it) has no name: it matches no "domain@" expression. */
static const char *domain_name(uint64_t handle)
{
    if (handle == 0)
        return "";
    const char *d = table_get(domains, n_domains, handle);
    return d ? d : "?";
}

void gp_ranges_push(uint64_t domain, const char *name)
{
    if (t_stack.n == t_stack.cap) {
        size_t cap = t_stack.cap ? 2 * t_stack.cap : 16;
        uint64_t *d = realloc(t_stack.domain, cap * sizeof(*d));
        if (d)
            t_stack.domain = d;
        char **nm = realloc(t_stack.name, cap * sizeof(*nm));
        if (nm)
            t_stack.name = nm;
        if (!d || !nm)
            return;
        t_stack.cap = cap;
    }
    char *copy = strdup(name ? name : "");
    if (!copy)
        return;
    t_stack.domain[t_stack.n] = domain;
    t_stack.name[t_stack.n++] = copy;
}

int gp_ranges_pop(uint64_t domain)
{
    for (size_t i = t_stack.n; i-- > 0;) {
        if (t_stack.domain[i] != domain)
            continue;
        free(t_stack.name[i]);
        memmove(&t_stack.domain[i], &t_stack.domain[i + 1],
                (t_stack.n - i - 1) * sizeof(*t_stack.domain));
        memmove(&t_stack.name[i], &t_stack.name[i + 1], (t_stack.n - i - 1) * sizeof(char *));
        t_stack.n--;
        return 0;
    }
    return -1;
}

void gp_ranges_start(uint64_t domain, uint64_t id, const char *name)
{
    char *copy = strdup(name ? name : "");
    if (!copy)
        return;
    pthread_mutex_lock(&state_lock);
    open_range *n = realloc(opened, (n_opened + 1) * sizeof(*n));
    if (n) {
        opened = n;
        opened[n_opened++] = (open_range){domain, id, copy};
    } else {
        free(copy);
    }
    pthread_mutex_unlock(&state_lock);
}

int gp_ranges_end(uint64_t id)
{
    int rc = -1;
    pthread_mutex_lock(&state_lock);
    for (size_t i = 0; i < n_opened; i++)
        if (opened[i].id == id) {
            free(opened[i].name);
            opened[i] = opened[--n_opened];
            rc = 0;
            break;
        }
    pthread_mutex_unlock(&state_lock);
    return rc;
}

void gp_ranges_profiler(int on)
{
    atomic_store_explicit(&profiler_on, on ? 1 : 0, memory_order_relaxed);
}

void gp_ranges_reset(int profile_from_start)
{
    pthread_mutex_lock(&state_lock);
    for (size_t i = 0; i < n_opened; i++)
        free(opened[i].name);
    n_opened = 0;
    pthread_mutex_unlock(&state_lock);
    while (t_stack.n)
        free(t_stack.name[--t_stack.n]);
    gp_ranges_profiler(profile_from_start);
}

int gp_ranges_decide(const struct gp_config *cfg)
{
    if (!atomic_load_explicit(&profiler_on, memory_order_relaxed))
        return GP_SKIP_PROFILER_RANGE;
    if (!cfg->n_nvtx_include && !cfg->n_nvtx_exclude)
        return GP_PROFILE;
    gp_nvtx_range *stack = calloc(t_stack.n ? t_stack.n : 1, sizeof(*stack));
    if (!stack)
        return GP_SKIP_NVTX;
    pthread_mutex_lock(&state_lock);
    gp_nvtx_range *open = calloc(n_opened ? n_opened : 1, sizeof(*open));
    int in = 0;
    if (open) {
        for (size_t i = 0; i < t_stack.n; i++)
            stack[i] = (gp_nvtx_range){domain_name(t_stack.domain[i]), t_stack.name[i]};
        for (size_t i = 0; i < n_opened; i++)
            open[i] = (gp_nvtx_range){domain_name(opened[i].domain), opened[i].name};
        gp_nvtx_view v = {stack, t_stack.n, open, n_opened};
        in = gp_nvtx_select(cfg->nvtx_include, cfg->n_nvtx_include, cfg->nvtx_exclude,
                            cfg->n_nvtx_exclude, &v);
    }
    pthread_mutex_unlock(&state_lock);
    free(open);
    free(stack);
    return in ? GP_PROFILE : GP_SKIP_NVTX;
}
