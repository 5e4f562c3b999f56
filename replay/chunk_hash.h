/* chunk_hash.h - the 128-bit hash of a chunk of memory (definition in
 * chunk_hash_mix.h) and its CPU reference.  The snapshot hashes every linear
 * range in chunks of GP_CHUNK_BYTES on the device (chunk_hash_dev.h) to find
 * what a kernel or the program changed; this file needs no GPU, so the unit
 * tests and the GPU test's comparison use it. */
#ifndef GP_CHUNK_HASH_H
#define GP_CHUNK_HASH_H

#include <stddef.h>
#include <stdint.h>

/* 64 KiB: large enough that a 16-byte load per thread keeps a block busy,
 * small enough that a kernel writing a few scattered values costs little. */
#define GP_CHUNK_BYTES ((uint64_t)65536)

typedef struct gp_chunk_digest {
    uint64_t h[2];
    uint8_t zero; /* every byte of the chunk is 0 */
} gp_chunk_digest;

/* The hash of len bytes at p (any alignment; len 0 hashes as an empty,
 * all-zero chunk). */
void gp_chunk_hash_cpu(const void *p, uint64_t len, gp_chunk_digest *out);

/* Chunks of chunk_bytes a range of size bytes has: the last one holds the
 * tail.  A range smaller than a chunk is one chunk of its own size. */
uint64_t gp_chunk_count(uint64_t size, uint64_t chunk_bytes);
/* Length of chunk i of a range of size bytes. */
uint64_t gp_chunk_len(uint64_t size, uint64_t chunk_bytes, uint64_t i);

/* Two digests describe the same contents (hash and zero flag). */
static inline int gp_chunk_same(const gp_chunk_digest *a, const gp_chunk_digest *b)
{
    return a->h[0] == b->h[0] && a->h[1] == b->h[1] && a->zero == b->zero;
}

#endif
