/* snap_plan.h - the bookkeeping of the incremental snapshot, without the
 * GPU: which stored range a tracked range is, which chunks a save or a
 * restore must copy or clear, which slot of a range's buffer holds a chunk,
 * and the runs of chunks one copy can move.  snapshot.c does the copies;
 * tests/unit/test_snap_plan.c checks this part. */
#ifndef GP_SNAP_PLAN_H
#define GP_SNAP_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "replay/alloc_track.h"
#include "replay/chunk_hash.h"

#define GP_SNAP_SLOT_NONE UINT32_MAX

enum gp_chunk_action {
    GP_CH_KEEP = 0, /* same contents: nothing to do */
    GP_CH_COPY,     /* save: memory to its slot; restore: slot to memory */
    GP_CH_ZERO,     /* save: tag as zero (no bytes kept); restore: clear */
};

/* One range of the store.  Linear ranges are kept chunk by chunk: a digest
 * per chunk and, for chunks that are not all zero, a slot in the range's
 * buffer (slots are slot_bytes apart, in no particular order).  Ranges a
 * kernel cannot hash (arrays, managed and host memory) are kept whole:
 * their buffer holds size bytes and they are copied every time. */
typedef struct gp_snap_entry {
    gp_range r;
    int whole;
    uint64_t chunk_bytes, n_chunks, slot_bytes;
    gp_chunk_digest *dig; /* as stored; NULL until the first save */
    uint32_t *slot;       /* per chunk, GP_SNAP_SLOT_NONE when zero-tagged */
    uint32_t *free_slots; /* slots given back, reused first */
    uint32_t n_free;
    uint32_t n_slots; /* slots handed out so far (used or free) */
    uint32_t cap;     /* slots the buffer holds (whole: 1) */
    uint64_t buf;     /* CUdeviceptr of the buffer (device or pinned host) */
    int place;        /* GP_SNAP_IN_DEVICE or _HOST; 0 = no buffer */
} gp_snap_entry;

/* A run of consecutive chunks with one action whose slots are consecutive
 * too (for GP_CH_COPY), so one copy moves it. */
typedef struct gp_snap_run {
    uint64_t chunk, count;
    uint32_t slot; /* first slot (GP_CH_COPY) */
    int action;
    uint64_t offset, bytes; /* in the range */
} gp_snap_run;

/* A range saved whole: arrays (no address), managed memory (a kernel would
 * migrate it), host memory (not always addressable by a kernel). */
int gp_snap_saved_whole(const gp_range *r);

/* Sets up e for range r (no digests, no slots).  Returns 0, or -1 when out
 * of memory or the range has more chunks than slots can number. */
int gp_snap_entry_init(gp_snap_entry *e, const gp_range *r, uint64_t chunk_bytes);
/* Frees e's host-side arrays (the caller frees e->buf). */
void gp_snap_entry_release(gp_snap_entry *e);

/* Matches the tracked ranges against the stored ones: match[i] = index of
 * the stored entry that is range i (same base, size, kind and shape), or -1
 * when range i is new.  A stored entry no range matches is gone.  Returns
 * 0, or -1 when out of memory. */
int gp_snap_match(const gp_snap_entry *old, size_t n_old, const gp_range *ranges, size_t n,
                  long *match);

/* The save of a linear entry with the digests now[]: fills act[] per chunk
 * (COPY for a changed chunk that is not zero, ZERO for a chunk that became
 * zero; every chunk on the first save), gives slots back for chunks that
 * became zero and hands out slots for the ones that need one.  Returns the
 * number of slots the buffer must hold afterwards, or -1 when out of
 * memory (e unchanged then).  The digests are taken with
 * gp_snap_commit() once the copies succeeded. */
long gp_snap_plan_save(gp_snap_entry *e, const gp_chunk_digest *now, uint8_t *act);
/* act: the plan gp_snap_plan_save() made (only the chunks it acts on are
 * taken), or NULL for every digest. */
void gp_snap_commit(gp_snap_entry *e, const gp_chunk_digest *now, const uint8_t *act);

/* The restore of a linear entry whose memory now has digests now[]: COPY
 * where a stored chunk differs and has bytes, ZERO where the stored chunk
 * is zero and memory is not.  Returns the number of chunks to act on. */
uint64_t gp_snap_plan_restore(const gp_snap_entry *e, const gp_chunk_digest *now, uint8_t *act);

/* Groups act[] into runs (KEEP left out).  out must hold n_chunks runs.
 * Returns how many. */
size_t gp_snap_runs(const gp_snap_entry *e, const uint8_t *act, gp_snap_run *out);

#endif
