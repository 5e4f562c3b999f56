/* strhash.h - the one hash of keys that come from outside (JSON keys,
 * kernel, metric and file names, every uthash table): SipHash-1-3 under a
 * key drawn once per process from getrandom().  Nobody who writes an input
 * file can know the key, so nobody can make its names collide and turn a
 * table's constant time into linear time (a fixed hash such as FNV-1a or
 * uthash's Jenkins hash can be flooded: 100,000 chosen JSON keys took 35 s
 * instead of 0.06 s). */
#ifndef GP_STRHASH_H
#define GP_STRHASH_H

#include <stddef.h>
#include <stdint.h>

/* The hash of p[0..len) under this process's key (the same all the
 * process long, and in every thread). */
uint64_t gp_strhash(const void *p, size_t len);

/* SipHash with c compression and d finalization rounds under key (two
 * little-endian words): gp_strhash is gp_siphash(process key, p, len, 1, 3).
 * Public for its test against the published SipHash-2-4 vectors. */
uint64_t gp_siphash(const uint64_t key[2], const void *p, size_t len, int c, int d);

/* A set of 64-bit digests (gp_strhash of records' text): which records were
 * read before, in 16 bytes a record at most, without keeping the records.
 * Zero it to start. */
typedef struct {
    uint64_t *slot;
    size_t cap, n;
} gp_digestset;

/* Adds digest d: 1 when it was in the set already, 0 when added, -1 when
 * out of memory (the set is unchanged). */
int gp_digestset_add(gp_digestset *s, uint64_t d);
void gp_digestset_free(gp_digestset *s);

#endif
