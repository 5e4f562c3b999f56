/* rp_rotation.c - replay mode none's configurations of the range profiler
 * (range_profiler.h): the one-pass ones the metric list is split into, and
 * the stepped ones for the names no one-pass configuration takes. */
#include "replay/range_profiler.h"

#include <stdio.h>
#include <stdlib.h>

#include "replay/host_group.h"
#include "replay/range_profiler_int.h"
#include "util/clock.h"
#include "util/log.h"

/* Replay mode none: the names no one-pass configuration takes (group -1)
 * split into configurations of several passes, numbered from `first` on,
 * as the kernel-replay split does; their passes are collected over a
 * variant's successive launches, one pass each (stepped).  Names CUPTI
 * refuses even alone stay -1.  Returns the configurations made. */
static size_t stepped_groups(gp_rp *rp, int *group, size_t first)
{
    size_t n = 0;
    for (size_t k = 0; k < rp->n_all; k++)
        n += group[k] == -1;
    const char **names = n ? calloc(n, sizeof(char *)) : NULL;
    size_t *where = n ? calloc(n, sizeof(size_t)) : NULL;
    int *sub = n ? calloc(n, sizeof(int)) : NULL;
    size_t made = 0;
    if (names && where && sub) {
        size_t m = 0;
        for (size_t k = 0; k < rp->n_all; k++)
            if (group[k] == -1) {
                where[m] = k;
                names[m++] = rp->all_names[k];
            }
        made = gp_host_partition(rp->chip, rp->avail, names, n, sub);
        if (first + made > GP_RP_MAX_ROT)
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
    rp->n_rot_stepped = made;
    return made;
}

size_t gp_rp_rotation_build(gp_rp *rp, const int *every, char *err, size_t errlen)
{
    int *group = calloc(rp->n_all ? rp->n_all : 1, sizeof(int));
    int carries[GP_RP_MAX_ROT] = {0};
    if (!group || !rp->all_names) {
        free(group);
        snprintf(err, errlen, "out of memory");
        return 0;
    }
    double t0 = gp_host_grouping_s();
    size_t groups = gp_host_partition_one_pass(rp->chip, rp->avail, rp->all_names, rp->n_all, every,
                                               group, carries, GP_RP_MAX_ROT);
    gp_debug("replay mode none: %zu names in %zu one-pass configurations, grouped in %.0f ms (%s)",
             rp->n_all, groups, (gp_host_grouping_s() - t0) * 1e3,
             gp_host_last_grouping_fast() ? "PerfWorks' scheduler, each one checked by CUPTI"
                                          : "a CUPTI host configuration per trial");
    if (groups > 0) /* the names no one-pass configuration takes: stepped ones */
        groups += stepped_groups(rp, group, groups);
    size_t used = 0, bad = 0;
    for (size_t k = 0; k < rp->n_all; k++)
        if (group[k] == -1) {
            if (bad++ == 0)
                used = (size_t)snprintf(rp->rot_left_out, sizeof(rp->rot_left_out),
                                        "in no configuration that can rotate (collected only by "
                                        "the kernel replay of a variant's first launch): ");
            if (used < sizeof(rp->rot_left_out))
                used += (size_t)snprintf(rp->rot_left_out + used, sizeof(rp->rot_left_out) - used,
                                         "%s%s", bad > 1 ? ", " : "", rp->all_names[k]);
        }
    int rc = 0;
    double t_build = gp_now_s();
    for (size_t g = 0; g < groups && rc == 0; g++) {
        rp_set *t = &rp->sets[GP_RP_ROT + g];
        t->index = calloc(rp->n_all ? rp->n_all : 1, sizeof(size_t));
        t->names = calloc(rp->n_all ? rp->n_all : 1, sizeof(char *));
        if (!t->index || !t->names) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
            break;
        }
        for (size_t k = 0; k < rp->n_all; k++)
            if (group[k] == (int)g || (carries[g] && group[k] == GP_HOST_EVERY)) {
                t->index[t->n] = k;
                t->names[t->n++] = rp->all_names[k];
            }
        t->stepped = g >= groups - rp->n_rot_stepped;
        rc = gp_rp_set_finish(rp, t, rp->avail, 0, err, errlen) != 0 ? -1 : 0;
        if (rc == 0 && !t->stepped && gp_host_config_passes(t->cfg) != 1) {
            snprintf(err, errlen, "a configuration of one pass became %zu passes",
                     gp_host_config_passes(t->cfg));
            rc = -1;
        }
    }
    gp_debug("replay mode none: %zu configurations' images built in %.0f ms", groups,
             (gp_now_s() - t_build) * 1e3);
    free(group);
    rp->all_names = NULL; /* borrowed only for this */
    if (rc != 0 || groups == 0) {
        for (size_t g = 0; g < GP_RP_MAX_ROT; g++)
            gp_rp_set_free(&rp->sets[GP_RP_ROT + g]);
        rp->n_rot_stepped = 0;
        if (groups == 0 && rc == 0)
            snprintf(err, errlen, "no configuration of one pass could be made of the list");
        return 0;
    }
    rp->n_rot = groups;
    return groups;
}

size_t gp_rp_rotation_configs(const gp_rp *rp)
{
    return rp ? rp->n_rot : 0;
}

int gp_rp_is_stepped(const gp_rp *rp, int set)
{
    return rp && set >= GP_RP_ROT && set < GP_RP_MAX_SETS && rp->sets[set].cfg &&
           rp->sets[set].stepped;
}

const char *gp_rp_rotation_left_out(const gp_rp *rp)
{
    return rp && rp->rot_left_out[0] ? rp->rot_left_out : NULL;
}
