/* chunk_hash_dev.h - the chunk hash (chunk_hash.h) of many linear ranges at
 * once on the device: one launch of the embedded kernel, one block per
 * chunk.  Per context: the module is loaded into the context current at the
 * first call and kept with its scratch buffer until gp_chunk_dev_free(). */
#ifndef GP_CHUNK_HASH_DEV_H
#define GP_CHUNK_HASH_DEV_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#include "replay/chunk_hash.h"
#include "replay/chunk_hash_mix.h"

typedef struct gp_chunk_dev {
    CUmodule module;
    CUfunction fn;
    int failed; /* the module could not be loaded: do not try again */
    CUdeviceptr scratch;
    uint64_t scratch_cap;
    /* where the digests come back, as the kernel lays them out
     * (gp_chunk_digest); pinned (a fast copy), else malloc'd */
    gp_chunk_digest *host;
    int host_pinned;
    uint64_t host_cap; /* chunks it holds */
    uint64_t launches; /* hash kernels launched so far (an open range-profiler batch counts them) */
} gp_chunk_dev;

/* Hashes spans[0..n) (sorted by first_chunk, first_chunk of span 0 is 0,
 * n_chunks in all) in chunks of chunk_bytes, and synchronizes.  Returns the
 * n_chunks digests, in d's own buffer until the next call; or NULL with a
 * sentence in err. */
const gp_chunk_digest *gp_chunk_dev_hash(gp_chunk_dev *d, const gp_chunk_span *spans, unsigned n,
                                         uint64_t chunk_bytes, uint64_t n_chunks, char *err,
                                         size_t errlen);
/* Unloads the module and frees the buffers (context teardown). */
void gp_chunk_dev_free(gp_chunk_dev *d);

#endif
