/* snapshot.h - saves the memory a kernel may touch and puts it back between
 * replay passes.  Goes to device memory while free memory allows (keeping a
 * reserve for the program), else to pinned host memory.  The buffers are
 * kept per context and reused. */
#ifndef GP_SNAPSHOT_H
#define GP_SNAPSHOT_H

#include <cuda.h>
#include <stdint.h>

#include "replay/alloc_track.h"

enum gp_snap_place { GP_SNAP_IN_NONE = 0, GP_SNAP_IN_DEVICE, GP_SNAP_IN_HOST };

typedef struct gp_snapshot {
    int place;
    CUdeviceptr dev_buf;
    uint64_t dev_cap;
    void *host_buf;
    uint64_t host_cap;
    const gp_range *ranges; /* borrowed for one launch */
    size_t n;
    uint64_t bytes;
} gp_snapshot;

/* allow: 1 = device or host, 2 = device only, 3 = host only (config order).
 * Returns 0 with s->place set, or -1 with a sentence in err (then nothing is
 * saved). Caller has synchronized the context. */
int gp_snapshot_save(gp_snapshot *s, const gp_range *ranges, size_t n, uint64_t total,
                     int allow_device, int allow_host, uint64_t reserve_bytes, char *err,
                     size_t errlen);
/* Copies everything back and synchronizes.  Returns 0 or -1. */
int gp_snapshot_restore(gp_snapshot *s, char *err, size_t errlen);
/* Frees the buffers (at context teardown). */
void gp_snapshot_free(gp_snapshot *s);

const char *gp_snap_place_name(int place);

#endif
