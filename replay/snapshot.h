/* snapshot.h - saves the memory a kernel may touch and puts it back between
 * replay passes.
 *
 * Incremental (the default): a store per context kept across profiled
 * launches.  Linear ranges are hashed on the device in chunks of
 * GP_CHUNK_BYTES (chunk_hash_dev.h); a save copies only the chunks whose
 * hash changed since the store last saw them, a restore only the chunks a
 * pass changed; all-zero chunks are kept as a tag and restored with a
 * memset.  Ranges no kernel can hash (CUDA arrays, managed and host memory)
 * are copied whole each time.  Full (gp_snapshot_configure(.., 0, ..)):
 * every range copied to one buffer and back each time.
 *
 * Where the bytes go: device memory while free memory minus the reserve
 * allows, else pinned host memory.  Between launches
 * (gp_snapshot_end_launch) a device store stays only while free memory is
 * at least the reserve; otherwise it moves to pinned host memory. */
#ifndef GP_SNAPSHOT_H
#define GP_SNAPSHOT_H

#include <cuda.h>
#include <stdint.h>

#include "replay/alloc_track.h"
#include "replay/chunk_hash_dev.h"
#include "replay/snap_plan.h"

enum gp_snap_place { GP_SNAP_IN_NONE = 0, GP_SNAP_IN_DEVICE, GP_SNAP_IN_HOST };

/* What one launch's snapshot cost (reset by each gp_snapshot_save). */
typedef struct gp_snapshot_stats {
    int incremental;         /* chunk hashes used (0: full copies) */
    uint64_t ranges;         /* ranges saved */
    uint64_t ranges_new;     /* not in the store before (first save: all) */
    uint64_t ranges_dropped; /* in the store, no longer tracked (freed) */
    uint64_t bytes_tracked;  /* their size */
    uint64_t bytes_hashed;   /* read by the hash kernel, all hashes of the launch */
    uint64_t chunks_hashed;
    uint64_t chunks_saved;       /* copied into the store */
    uint64_t chunks_zero_tagged; /* became all zero: tag, no bytes */
    uint64_t chunks_restored;    /* copied back (all restores) */
    uint64_t chunks_zeroed;      /* cleared with a memset (all restores) */
    uint64_t bytes_to_store;     /* copied into the store (whole ranges included) */
    uint64_t bytes_from_store;   /* copied back (whole ranges included), all restores */
    uint64_t bytes_zeroed;       /* cleared by restores */
    uint64_t store_device_bytes; /* store held in device memory after the save */
    uint64_t store_host_bytes;   /* in pinned host memory */
    uint64_t verify_mismatches;  /* GPUPROF_SNAPSHOT_VERIFY: places that differed */
    unsigned restores;
    double t_hash, t_save, t_restore, t_verify; /* seconds (hashing not in save/restore) */
} gp_snapshot_stats;

typedef struct gp_snapshot {
    int place; /* of the last save: HOST when any byte is in host memory */
    /* full copies */
    CUdeviceptr dev_buf;
    uint64_t dev_cap;
    void *host_buf;
    uint64_t host_cap;
    const gp_range *ranges; /* borrowed for one launch */
    size_t n;
    uint64_t bytes;
    /* incremental store */
    int full;     /* gp_snapshot_configure: full copies */
    int verify;   /* compare every byte after each restore */
    int use_full; /* this launch: full copies (configured, or hashing unavailable) */
    uint64_t reserve;
    gp_snap_entry *ent;
    size_t n_ent;
    gp_chunk_dev dev;
    const gp_chunk_digest *cur; /* hashes of the last hash run (dev's buffer) */
    gp_snapshot_stats stats;
} gp_snapshot;

/* incremental: 0 = full copies each time (GPUPROF_SNAPSHOT_INCREMENTAL=0);
 * verify: compare every byte with the saved copy after each restore
 * (GPUPROF_SNAPSHOT_VERIFY=1).  A zeroed gp_snapshot is incremental and does
 * not verify. */
void gp_snapshot_configure(gp_snapshot *s, int incremental, int verify);

/* allow: 1 = device or host, 2 = device only, 3 = host only (config order).
 * Returns 0 with s->place set, or -1 with a sentence in err (then nothing is
 * saved, and the store is emptied).  Caller has synchronized the context,
 * which is current.  ranges must stay valid until the launch ends. */
int gp_snapshot_save(gp_snapshot *s, const gp_range *ranges, size_t n, uint64_t total,
                     int allow_device, int allow_host, uint64_t reserve_bytes, char *err,
                     size_t errlen);
/* Puts back what changed since the save and synchronizes.  Returns 0 or -1. */
int gp_snapshot_restore(gp_snapshot *s, char *err, size_t errlen);
/* After each profiled launch (in place of freeing the snapshot): full
 * copies give their buffers back; an incremental store stays, moved to
 * pinned host memory when free device memory is below the reserve. */
void gp_snapshot_end_launch(gp_snapshot *s);
/* Frees everything, the store included (context teardown). */
void gp_snapshot_free(gp_snapshot *s);

const char *gp_snap_place_name(int place);

#endif
