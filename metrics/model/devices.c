/* devices.c - see devices.h. */
#include "metrics/model/devices.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/gp_uthash.h"
#include "util/strindex.h"

/* The device index: entries found by model, by the process that uses them
 * and by (input, ordinal) in constant time (a scan per launch and per
 * record made 20,000 processes' device records quadratic).  A slot keyed
 * (input, ordinal) holds the latest entry and the latest one no process
 * has claimed, the top of a stack linked through gp_report_device.below
 * (only the top is ever claimed); input GP_DEVICES_ANY holds the latest entry
 * of the ordinal in any input. */
#define GP_DEVICES_ANY ((uint64_t)0xFFFFFFFFFFFF)

typedef struct {
    UT_hash_handle hh;
    uint64_t key; /* input << 16 | ordinal */
    long latest, unclaimed;
} gp_devices_slot;

struct gp_devices_index {
    gp_strindex *models; /* gp_devices_model_key -> first entry of the model */
    gp_strindex *procs;  /* host, pid and ordinal -> the entry that process claimed */
    gp_devices_slot *slots;
};

void gp_devices_free(gp_report *r)
{
    gp_devices_slot *s, *tmp;
    if (!r->devindex)
        return;
    gp_strindex_free(&r->devindex->models);
    gp_strindex_free(&r->devindex->procs);
    HASH_ITER(hh, r->devindex->slots, s, tmp)
    {
        HASH_DEL(r->devindex->slots, s);
        free(s);
    }
    free(r->devindex);
    r->devindex = NULL;
}

static gp_devices_slot *gp_devices_slot_of(gp_report *r, uint64_t file, int ordinal, int add)
{
    uint64_t key = file << 16 | (uint64_t)(ordinal & 0xFFFF);
    gp_devices_slot *s = NULL;
    HASH_FIND(hh, r->devindex->slots, &key, sizeof key, s);
    if (s || !add || !(s = malloc(sizeof *s)))
        return s;
    s->key = key;
    s->latest = s->unclaimed = -1;
    gp_uthash_oom = 0;
    HASH_ADD(hh, r->devindex->slots, key, sizeof s->key, s);
    if (gp_uthash_oom) {
        free(s);
        return NULL;
    }
    return s;
}

/* The key of a process's claim (pid, ordinal, host) into a buffer the
 * caller frees; NULL out of memory. */
static char *gp_devices_proc_key(const char *host, long pid, int ordinal, size_t *len)
{
    size_t n = strlen(host) + 48;
    char *k = malloc(n);
    if (k)
        *len = (size_t)snprintf(k, n, "%ld:%d:%s", pid, ordinal, host);
    return k;
}

/* The device entry of a launch, keyed by host, process and ordinal: the entry
 * its process already uses; else the latest record of that ordinal in its own
 * input not yet claimed by another process (a file is one process, or several
 * one after the other when files were concatenated), which it then claims;
 * else the latest of that ordinal in its input (a file of launches only);
 * else the latest of that ordinal in any input; else -1.  Device records
 * carry no process: the launches that follow do. */
long gp_devices_of_launch(gp_report *r, size_t file, const char *host, long pid, int ordinal)
{
    char *key = NULL;
    size_t klen = 0;
    gp_devices_slot *s;
    long at = -1;
    if (!r->devindex) /* no device record yet */
        return -1;
    if (pid >= 0) {
        if (!(key = gp_devices_proc_key(host, pid, ordinal, &klen)))
            return -1;
        if ((at = gp_strindex_find(r->devindex->procs, key, klen)) >= 0)
            goto out;
    }
    s = gp_devices_slot_of(r, file, ordinal, 0);
    if (s && s->unclaimed >= 0) {
        gp_report_device *d = &r->devices[s->unclaimed];
        at = s->unclaimed;
        d->pid = pid;
        snprintf(d->host, sizeof d->host, "%s", host);
        /* a launch without a pid leaves it open to the next one */
        if (pid >= 0) {
            s->unclaimed = d->below;
            if (gp_strindex_add(&r->devindex->procs, key, klen, (size_t)at) < 0)
                at = -1;
        }
    } else if (s) {
        at = s->latest;
    } else {
        s = gp_devices_slot_of(r, GP_DEVICES_ANY, ordinal, 0);
        at = s ? s->latest : -1;
    }
out:
    free(key);
    return at;
}

/* What makes two device records the same GPU model. */
static size_t gp_devices_model_key(const gp_device *d, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%d:%d.%d:%s%c%s", d->sm_count, d->cc_major, d->cc_minor, d->name, 0,
                     d->chip);
    return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

int gp_devices_add(gp_report *r, const gp_device *d, char *err, size_t errlen)
{
    gp_report_device *nd;
    gp_devices_slot *s, *any;
    char key[512];
    size_t klen;
    long model;
    if (!r->devindex && !(r->devindex = calloc(1, sizeof *r->devindex)))
        goto oom;
    if (r->n_devices == r->cap_devices) {
        size_t nc = r->cap_devices ? 2 * r->cap_devices : 8;
        if (!(nd = realloc(r->devices, nc * sizeof *nd)))
            goto oom;
        r->devices = nd;
        r->cap_devices = nc;
    }
    s = gp_devices_slot_of(r, r->n_files - 1, d->ordinal, 1);
    any = gp_devices_slot_of(r, GP_DEVICES_ANY, d->ordinal, 1);
    klen = gp_devices_model_key(d, key, sizeof key);
    model = gp_strindex_find(r->devindex->models, key, klen);
    if (!s || !any ||
        (model < 0 && gp_strindex_add(&r->devindex->models, key, klen, r->n_devices) < 0))
        goto oom;
    nd = &r->devices[r->n_devices];
    nd->d = *d;
    nd->file = r->n_files - 1;
    nd->pid = -1; /* claimed by the first launch that uses it */
    nd->host[0] = '\0';
    nd->model = model < 0 ? (int)r->n_devices : r->devices[model].model;
    nd->below = s->unclaimed;
    s->unclaimed = s->latest = any->latest = (long)r->n_devices;
    r->n_devices++;
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

/* The set of processes seen in a device group: "p" pid and host, or "f"
 * input, after the group's ordinal and model.  1 when key was in set, 0 when
 * not (added when add is set), -1 out of memory. */
static int gp_devices_seen(gp_strindex **set, const gp_report_device *x, int by_pid, int add)
{
    size_t hl = by_pid ? strlen(x->host) : 0, n;
    char *k = malloc(64 + hl);
    int found;
    if (!k)
        return -1;
    n = by_pid ? (size_t)sprintf(k, "%d:%d:p%ld:", x->d.ordinal, x->model, x->pid)
               : (size_t)sprintf(k, "%d:%d:f%zu", x->d.ordinal, x->model, x->file);
    memcpy(k + n, x->host, hl);
    n += hl;
    found = gp_strindex_find(*set, k, n) >= 0;
    if (!found && add && gp_strindex_add(set, k, n, 0) < 0)
        found = -1;
    free(k);
    return found;
}

void gp_devices_each(const gp_report *r, void (*fn)(const gp_device *d, size_t inputs, void *arg),
                     void *arg)
{
    /* one pass: a group is an (ordinal, model), its first entry stands for
     * it; an entry counts as another process unless an earlier one of its
     * group has its pid and host (when it has a pid) or its input (when it
     * has none) */
    gp_strindex *groups = NULL, *seen = NULL;
    size_t *inputs = calloc(r->n_devices ? r->n_devices : 1, sizeof *inputs), i;
    if (!inputs)
        return;
    for (i = 0; i < r->n_devices; i++) {
        const gp_report_device *x = &r->devices[i];
        int g[2] = {x->d.ordinal, x->model}, dup;
        long first = gp_strindex_find(groups, g, sizeof g);
        if (first < 0) {
            if (gp_strindex_add(&groups, g, sizeof g, i) < 0)
                goto out;
            first = (long)i;
        }
        /* the input is remembered for every entry, the process for claimed ones */
        dup = gp_devices_seen(&seen, x, x->pid >= 0, 1);
        if (dup < 0 || (x->pid >= 0 && gp_devices_seen(&seen, x, 0, 1) < 0))
            goto out;
        inputs[first] += !dup;
    }
    for (i = 0; i < r->n_devices; i++)
        if (inputs[i])
            fn(&r->devices[i].d, inputs[i], arg);
out:
    gp_strindex_free(&groups);
    gp_strindex_free(&seen);
    free(inputs);
}
