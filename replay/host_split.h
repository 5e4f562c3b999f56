/* host_split.h - the splits of a metric list into range-profiler
 * configurations that do not depend on the program: kernel replay's split of
 * a list CUPTI cannot take in one, and replay mode none's one-pass and
 * stepped configurations.  Taken from the set-up cache (setup_cache.h) when
 * an entry of exactly this chip, driver, CUPTI, counter availability, mode
 * and ordered list exists; else made (host_group.h: seconds for a long list)
 * and kept.  Nothing the cache gives is trusted: every configuration of an
 * entry is checked (gp_split_check: a CUPTI host configuration each, which
 * the caller builds anyway), and the names an entry leaves out of kernel
 * replay's split are asked again; one refusal and the list is split afresh.
 * Host side only: no GPU. */
#ifndef GP_HOST_SPLIT_H
#define GP_HOST_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "replay/setup_cache.h"

typedef struct gp_split_in {
    const char *chip;
    const uint8_t *avail; /* the device's counter availability image, or NULL */
    size_t avail_size;
    const char *const *names;
    size_t n;
    const int *every; /* replay mode none: names every configuration carries (NULL: none) */
    size_t max_groups;
} gp_split_in;

/* config(arg, g, stepped): 0 when CUPTI takes configuration g of the split
 * being checked (the caller's arrays, now filled) as the split says: one
 * pass unless stepped; the caller may keep what it built for it.  reset(arg):
 * forget what config() built (before a split is made afresh). */
typedef struct gp_split_check {
    int (*config)(void *arg, size_t g, int stepped);
    void (*reset)(void *arg);
    void *arg;
} gp_split_check;

/* What is not CUPTI's but keys the cache: the driver (its version), set by
 * the collection side once per process ("" until then). */
void gp_host_split_set_platform(const char *platform);

/* The key line of a split (setup_cache.h), into key; mode: "kernel" or
 * "none". */
void gp_host_split_key(const gp_split_in *in, const char *mode, char *key, size_t len);

/* Kernel replay: the cached split of in->names into s->group (s->n =
 * in->n), every configuration checked; its configurations, or 0 (no usable
 * entry: the caller tries the list whole, then gp_host_split_kernel_fresh). */
size_t gp_host_split_kernel_cached(const gp_split_in *in, gp_split *s, const gp_split_check *chk);
/* The same made afresh (gp_host_partition), checked, and kept when every
 * configuration passed.  0 when no split is possible or a check fails. */
size_t gp_host_split_kernel_fresh(const gp_split_in *in, gp_split *s, const gp_split_check *chk);

/* Replay mode none: the one-pass configurations (gp_host_partition_one_pass)
 * and, after them, the stepped ones of the names no one-pass configuration
 * takes (s->stepped of them), from the cache or made and kept; each checked.
 * *cached: 1 when from the cache.  The number of configurations, or 0. */
size_t gp_host_split_rotation(const gp_split_in *in, gp_split *s, const gp_split_check *chk,
                              int *cached);

#endif
