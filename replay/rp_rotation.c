/* rp_rotation.c - replay mode none's configurations of the range profiler
 * (range_profiler.h): the one-pass ones the metric list is split into, and
 * the stepped ones for the names no one-pass configuration takes. */
#include "replay/range_profiler.h"

#include <stdio.h>
#include <stdlib.h>

#include "replay/host_group.h"
#include "replay/host_split.h"
#include "replay/range_profiler_int.h"
#include "util/clock.h"
#include "util/log.h"

/* A configuration of the split being checked (host_split.h): made into
 * range-profiler set GP_RP_ROT + g, its CUPTI host configuration and counter
 * data image; refused when CUPTI does not take it, or not in one pass when
 * it is not stepped. */
typedef struct rot_check {
    gp_rp *rp;
    const gp_split *s;
    char *err;
    size_t errlen;
} rot_check;

static void rot_reset(void *arg)
{
    rot_check *c = arg;
    for (size_t g = 0; g < GP_RP_MAX_ROT; g++)
        gp_rp_set_free(&c->rp->sets[GP_RP_ROT + g]);
}

static int rot_config(void *arg, size_t g, int stepped)
{
    rot_check *c = arg;
    gp_rp *rp = c->rp;
    rp_set *t = &rp->sets[GP_RP_ROT + g];
    gp_rp_set_free(t);
    t->index = calloc(rp->n_all ? rp->n_all : 1, sizeof(size_t));
    t->names = calloc(rp->n_all ? rp->n_all : 1, sizeof(char *));
    if (!t->index || !t->names) {
        snprintf(c->err, c->errlen, "out of memory");
        return -1;
    }
    for (size_t k = 0; k < rp->n_all; k++)
        if (c->s->group[k] == (int)g || (c->s->carries[g] && c->s->group[k] == GP_HOST_EVERY)) {
            t->index[t->n] = k;
            t->names[t->n++] = rp->all_names[k];
        }
    t->stepped = stepped;
    if (gp_rp_set_finish(rp, t, rp->avail, rp->avail_size, c->err, c->errlen) != 0)
        return -1;
    if (!stepped && gp_host_config_passes(t->cfg) != 1) {
        snprintf(c->err, c->errlen, "a configuration of one pass became %zu passes",
                 gp_host_config_passes(t->cfg));
        return -1;
    }
    return 0;
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
    /* the split (cached or made), each configuration built and checked */
    gp_split s = {rp->n_all, group, 0, 0, carries, GP_RP_MAX_ROT};
    gp_split_in in = {rp->chip, rp->avail, rp->avail_size, rp->all_names, rp->n_all, every,
                      GP_RP_MAX_ROT};
    rot_check rc = {rp, &s, err, errlen};
    gp_split_check chk = {rot_config, rot_reset, &rc};
    int cached = 0;
    err[0] = '\0';
    double t_build = gp_now_s();
    size_t groups = gp_host_split_rotation(&in, &s, &chk, &cached);
    gp_debug("replay mode none: %zu configurations (%zu stepped) %s and built in %.0f ms", groups,
             s.stepped, cached ? "from the set-up cache" : "made", (gp_now_s() - t_build) * 1e3);
    size_t used = 0, bad = 0;
    for (size_t k = 0; groups && k < rp->n_all; k++)
        if (group[k] == -1) {
            if (bad++ == 0)
                used = (size_t)snprintf(rp->rot_left_out, sizeof(rp->rot_left_out),
                                        "in no configuration that can rotate (collected only by "
                                        "the kernel replay of a variant's first launch): ");
            if (used < sizeof(rp->rot_left_out))
                used += (size_t)snprintf(rp->rot_left_out + used, sizeof(rp->rot_left_out) - used,
                                         "%s%s", bad > 1 ? ", " : "", rp->all_names[k]);
        }
    free(group);
    rp->all_names = NULL; /* borrowed only for this */
    if (groups == 0) {
        rot_reset(&rc);
        rp->n_rot_stepped = 0;
        if (!err[0])
            snprintf(err, errlen, "no configuration of one pass could be made of the list");
        return 0;
    }
    rp->n_rot_stepped = s.stepped;
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
