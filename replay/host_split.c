/* host_split.c - see host_split.h. */
#include "replay/host_split.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/cupti_host.h"
#include "replay/host_group.h"
#include "replay/host_obj.h"
#include "util/log.h"

static char platform[256];

void gp_host_split_set_platform(const char *p)
{
    snprintf(platform, sizeof(platform), "%s", p ? p : "");
}

/* CUPTI's identity (cupti_host.h), once its host library is loaded: a host
 * object opened first makes CUPTI load it. */
static void identity(const char *chip, char *buf, size_t len)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static char kept[256];
    pthread_mutex_lock(&lock);
    if (!kept[0]) {
        CUptiResult r;
        gp_host_obj_close(gp_host_obj_open(chip, NULL, &r));
        char id[256];
        gp_host_identity(id, sizeof(id));
        if (!strchr(id, '?'))
            memcpy(kept, id, sizeof(kept));
        snprintf(buf, len, "%s", id);
    } else {
        snprintf(buf, len, "%s", kept);
    }
    pthread_mutex_unlock(&lock);
}

void gp_host_split_key(const gp_split_in *in, const char *mode, char *key, size_t len)
{
    char ident[256];
    identity(in->chip, ident, sizeof(ident));
    uint64_t list = GP_HASH_INIT;
    for (size_t i = 0; i < in->n; i++) {
        char flag = in->every && in->every[i] ? 'e' : '-';
        list = gp_setup_cache_hash(list, in->names[i], strlen(in->names[i]) + 1);
        list = gp_setup_cache_hash(list, &flag, 1);
    }
    uint64_t avail = in->avail ? gp_setup_cache_hash(GP_HASH_INIT, in->avail, in->avail_size) : 0;
    snprintf(key, len, "chip=%s driver=%s %s avail=%016llx/%zu mode=%s max=%zu list=%016llx/%zu",
             in->chip, platform[0] ? platform : "?", ident, (unsigned long long)avail,
             in->avail ? in->avail_size : 0, mode, in->max_groups, (unsigned long long)list, in->n);
}

/* Runs chk on every configuration of s: 0 when all pass. */
static int check_all(const gp_split *s, const gp_split_check *chk)
{
    for (size_t g = 0; g < s->groups; g++)
        if (chk->config(chk->arg, g, g >= s->groups - s->stepped) != 0)
            return -1;
    return 0;
}

/* What an entry must hold for this list beyond its own form: "every"
 * placements only where the caller asked, stepped configurations carrying
 * nothing.  NULL when fine, else why not. */
static const char *entry_fits(const gp_split_in *in, const gp_split *s, int rotation)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->group[i] == GP_HOST_EVERY && (!rotation || !in->every || !in->every[i]))
            return "it places a name in every configuration that the list does not";
    for (size_t g = s->groups - s->stepped; g < s->groups; g++)
        if (s->carries && s->carries[g])
            return "a configuration of several passes carries the spread counters";
    if (!rotation && s->stepped)
        return "it has stepped configurations, which kernel replay does not use";
    return NULL;
}

/* An entry loaded, then checked: the names it leaves out must still be
 * refused alone (kernel replay only: mode none leaves out names it has no
 * room for too), then every configuration must pass.  1 when usable. */
static int cached_usable(const gp_split_in *in, const char *key, gp_split *s,
                         const gp_split_check *chk, int rotation)
{
    const char *why = entry_fits(in, s, rotation), *kind = "fits";
    for (size_t i = 0; !why && !rotation && i < s->n; i++)
        if (s->group[i] == -1 && gp_host_refused_alone(in->chip, in->avail, in->names[i]) != 1) {
            why = "CUPTI now takes a name it leaves out";
            kind = "left-out";
        }
    if (!why && check_all(s, chk) != 0) {
        why = "CUPTI refuses one of its configurations";
        kind = "config";
    }
    if (!why)
        return 1;
    gp_setup_cache_refused(key, kind, why);
    if (chk->reset)
        chk->reset(chk->arg);
    return 0;
}

size_t gp_host_split_kernel_cached(const gp_split_in *in, gp_split *s, const gp_split_check *chk)
{
    char key[1024];
    if (!gp_setup_cache_on())
        return 0;
    gp_host_split_key(in, "kernel", key, sizeof(key));
    s->n = in->n;
    s->stepped = 0;
    if (!gp_setup_cache_load(key, s) || !cached_usable(in, key, s, chk, 0))
        return 0;
    gp_debug("%zu names split into %zu configurations for kernel replay: from the set-up cache",
             in->n, s->groups);
    gp_setup_cache_count_use(1);
    return s->groups;
}

size_t gp_host_split_kernel_fresh(const gp_split_in *in, gp_split *s, const gp_split_check *chk)
{
    s->n = in->n;
    s->stepped = 0;
    if (s->carries)
        memset(s->carries, 0, s->max_groups * sizeof(int));
    s->groups = gp_host_partition(in->chip, in->avail, in->names, in->n, s->group);
    gp_setup_cache_count_use(0);
    if (s->groups == 0 || s->groups > s->max_groups || check_all(s, chk) != 0)
        return 0;
    if (gp_setup_cache_on()) {
        char key[1024];
        gp_host_split_key(in, "kernel", key, sizeof(key));
        gp_setup_cache_store(key, s);
    }
    return s->groups;
}

/* Replay mode none: the names no one-pass configuration takes (group -1)
 * split into configurations of several passes, numbered from `first` on,
 * as the kernel-replay split does; their passes are collected over a
 * variant's successive launches, one pass each.  Names CUPTI refuses even
 * alone stay -1.  Returns the configurations made. */
static size_t stepped_groups(const gp_split_in *in, int *group, size_t first)
{
    size_t n = 0;
    for (size_t k = 0; k < in->n; k++)
        n += group[k] == -1;
    const char **names = n ? calloc(n, sizeof(char *)) : NULL;
    size_t *where = n ? calloc(n, sizeof(size_t)) : NULL;
    int *sub = n ? calloc(n, sizeof(int)) : NULL;
    size_t made = 0;
    if (names && where && sub) {
        size_t m = 0;
        for (size_t k = 0; k < in->n; k++)
            if (group[k] == -1) {
                where[m] = k;
                names[m++] = in->names[k];
            }
        made = gp_host_partition(in->chip, in->avail, names, n, sub);
        if (first + made > in->max_groups)
            made = 0;
        for (size_t m2 = 0; m2 < n && made; m2++)
            if (sub[m2] >= 0)
                group[where[m2]] = (int)first + sub[m2];
        gp_debug("replay mode none: %zu names in no one-pass configuration: %zu configurations "
                 "of several passes, collected over successive launches",
                 n, made);
    }
    free(names);
    free(where);
    free(sub);
    return made;
}

size_t gp_host_split_rotation(const gp_split_in *in, gp_split *s, const gp_split_check *chk,
                              int *cached)
{
    char key[1024];
    int on = gp_setup_cache_on();
    *cached = 0;
    s->n = in->n;
    if (on) {
        gp_host_split_key(in, "none", key, sizeof(key));
        if (gp_setup_cache_load(key, s) && cached_usable(in, key, s, chk, 1)) {
            *cached = 1;
            gp_setup_cache_count_use(1);
            gp_debug("replay mode none: %zu names in %zu configurations (%zu stepped): from the "
                     "set-up cache",
                     in->n, s->groups, s->stepped);
            return s->groups;
        }
    }
    int *every = NULL;
    if (!in->every) { /* the grouping reads one flag per name */
        every = calloc(in->n ? in->n : 1, sizeof(int));
        if (!every)
            return 0;
    }
    double t0 = gp_host_grouping_s();
    s->groups = gp_host_partition_one_pass(in->chip, in->avail, in->names, in->n,
                                           in->every ? in->every : every, s->group, s->carries,
                                           s->max_groups);
    free(every);
    gp_debug("replay mode none: %zu names in %zu one-pass configurations, grouped in %.0f ms (%s)",
             in->n, s->groups, (gp_host_grouping_s() - t0) * 1e3,
             gp_host_last_grouping_fast() ? "PerfWorks' scheduler, each one checked by CUPTI"
                                          : "a CUPTI host configuration per trial");
    s->stepped = 0;
    if (s->groups > 0) { /* the names no one-pass configuration takes: stepped ones */
        s->stepped = stepped_groups(in, s->group, s->groups);
        for (size_t g = s->groups; g < s->groups + s->stepped; g++)
            s->carries[g] = 0;
        s->groups += s->stepped;
    }
    gp_setup_cache_count_use(0);
    if (s->groups == 0 || check_all(s, chk) != 0)
        return 0;
    if (on)
        gp_setup_cache_store(key, s);
    return s->groups;
}
