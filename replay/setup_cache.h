/* setup_cache.h - what gpuprof keeps between runs that depends on the chip,
 * the driver, CUPTI and the metric list but never on the program: the split
 * of a list into range-profiler configurations (replay/host_split.h).  One
 * small text file per key (a line naming chip, driver, CUPTI, the counter
 * availability image's hash, the mode and the exact ordered list's hash) in a
 * private directory (GPUPROF_CACHE_DIR: created mode 0700, refused when it is
 * a link, another user's or writable by others).  An entry is versioned and
 * ends with a checksum; one that is a link, not a regular file, another
 * user's, over 1 MiB, truncated, corrupt, of another format version or of
 * another key is ignored with one line and rewritten.  Entries are written
 * atomically (a temporary file created O_EXCL|O_NOFOLLOW mode 0600, then
 * renamed), and a failure to write is never fatal.  What is read here is
 * only well formed, not trusted: the caller checks every configuration with
 * CUPTI before using it.  Pure file handling: no CUPTI, no driver. */
#ifndef GP_SETUP_CACHE_H
#define GP_SETUP_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* A split as the cache keeps it (host_group.h's conventions): group[i] the
 * configuration of name i (0 .. groups-1), -1 for a name in none, -2
 * (GP_HOST_EVERY) for a name every carrying configuration carries;
 * carries[g] 1 when configuration g carries those; the last `stepped`
 * configurations take several passes.  The caller owns the arrays: group
 * holds n, carries max_groups. */
typedef struct gp_split {
    size_t n;
    int *group;
    size_t groups;
    size_t stepped;
    int *carries; /* may be NULL when no configuration carries anything */
    size_t max_groups;
} gp_split;

/* The directory entries go to ("" or NULL: the cache is off).  Once per
 * process, before the first load or store. */
void gp_setup_cache_set_dir(const char *dir);
/* 1 when a directory is set. */
int gp_setup_cache_on(void);

/* Reads the entry of key into s (s->n, s->group, s->carries and
 * s->max_groups set by the caller).  1 when an entry exists, is well formed,
 * is of this key and fits s; 0 otherwise (off, none, or refused: one line
 * per kind of refusal). */
int gp_setup_cache_load(const char *key, gp_split *s);
/* Writes s as the entry of key.  0, or -1 (one line at info level). */
int gp_setup_cache_store(const char *key, const gp_split *s);
/* The caller found an entry CUPTI does not take (a configuration it
 * refuses): says why, once per kind (a short word); the caller splits
 * afresh and stores over it. */
void gp_setup_cache_refused(const char *key, const char *kind, const char *why);

/* The entry's file for key, into buf.  0, or -1 when off or too long. */
int gp_setup_cache_path(const char *key, char *buf, size_t len);

/* FNV-1a over bytes, continuing from h (start with GP_HASH_INIT): the
 * keys' hashes (the list, the availability image) and the entries'
 * checksums. */
#define GP_HASH_INIT 0xcbf29ce484222325ull
uint64_t gp_setup_cache_hash(uint64_t h, const void *bytes, size_t n);

/* A split was used: from the cache (1) or made afresh (0); counted for
 * gp_setup_cache_counts(). */
void gp_setup_cache_count_use(int from_cache);
/* Counts over the process: splits taken from the cache, splits made
 * afresh, entries refused, entries written. */
typedef struct gp_setup_cache_stats {
    unsigned hits, misses, refused, stored;
} gp_setup_cache_stats;
gp_setup_cache_stats gp_setup_cache_counts(void);

#endif
