/* chunk_hash_check.c - the snapshot's device side on a GPU: the chunk hash
 * kernel against the CPU reference (random and edge-case buffers, tails,
 * unaligned starts, many ranges in one launch), its speed, and the
 * incremental snapshot (save, a pass's changes, restore, the program's
 * changes, freed and new ranges, the byte check) against host copies.
 * Prints "chunk_hash_check: N passed, N failed, N skipped"; skips without a
 * GPU. */
#include <cuda.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gp_test.h"
#include "replay/chunk_hash.h"
#include "replay/chunk_hash_dev.h"
#include "replay/driver.h"
#include "replay/snapshot.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_rand(void)
{
    return gp_test_rand(&rng);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

#define OK(x) GP_CHECK((x) == CUDA_SUCCESS)

/* Device hashes of spans over one device buffer holding host copy h. */
static void check_spans(gp_chunk_dev *d, CUdeviceptr base, const unsigned char *h,
                        const uint64_t *off, const uint64_t *len, unsigned n, const char *what)
{
    gp_chunk_span sp[16];
    uint64_t c = 0;
    for (unsigned i = 0; i < n; i++) {
        sp[i] = (gp_chunk_span){base + off[i], len[i], c};
        c += gp_chunk_count(len[i], GP_CHUNK_BYTES);
    }
    char err[256] = "";
    const gp_chunk_digest *out = gp_chunk_dev_hash(d, sp, n, GP_CHUNK_BYTES, c, err, sizeof(err));
    GP_CHECK_MSG(out != NULL, "%s: %s", what, err);
    if (!out)
        return;
    int bad = 0;
    for (unsigned i = 0; i < n; i++)
        for (uint64_t k = 0; k < gp_chunk_count(len[i], GP_CHUNK_BYTES); k++) {
            gp_chunk_digest ref;
            gp_chunk_hash_cpu(h + off[i] + k * GP_CHUNK_BYTES,
                              gp_chunk_len(len[i], GP_CHUNK_BYTES, k), &ref);
            const gp_chunk_digest *g = &out[sp[i].first_chunk + k];
            if (!gp_chunk_same(&ref, g) && bad++ < 5)
                fprintf(stderr, "%s: span %u (offset %llu, %llu bytes) chunk %llu differs\n", what,
                        i, (unsigned long long)off[i], (unsigned long long)len[i],
                        (unsigned long long)k);
        }
    GP_CHECK_MSG(bad == 0, "%s: %d chunks differ from the CPU reference", what, bad);
}

static void test_hash(void)
{
    enum { BUF = 8 << 20 };
    unsigned char *h = malloc(BUF);
    CUdeviceptr d;
    OK(gp_drv.cuMemAlloc(&d, BUF));
    gp_chunk_dev dev = {0};
    uint64_t sizes[] = {1, 255, 65535, 65537, (3 << 20) + 17};
    uint64_t offs[] = {0, 1, 3, 8, 100, 256};
    for (int content = 0; content < 4; content++) {
        for (size_t i = 0; i < BUF; i++) /* random, zero, 0xff, zero with a byte at the end */
            h[i] = content == 0 ? (unsigned char)next_rand() : content == 2 ? 0xff : 0;
        for (size_t s = 0; s < 5; s++)
            for (size_t o = 0; o < 6; o++) {
                uint64_t off = 4096 * (1 + s) + offs[o], len = sizes[s];
                if (content == 3)
                    h[off + len - 1] = 0x01;
                OK(gp_drv.cuMemcpyHtoD(d, h, BUF));
                char what[96];
                snprintf(what, sizeof(what), "content %d size %llu offset %llu", content,
                         (unsigned long long)len, (unsigned long long)offs[o]);
                check_spans(&dev, d, h, &off, &len, 1, what);
                if (content == 3)
                    h[off + len - 1] = 0;
            }
    }
    /* many ranges in one launch, some sharing bytes */
    for (size_t i = 0; i < BUF; i++)
        h[i] = (unsigned char)next_rand();
    OK(gp_drv.cuMemcpyHtoD(d, h, BUF));
    uint64_t off[] = {0, 65536, 131075, 4000000, 17, 7000000, 5000000, 300};
    uint64_t len[] = {1, 65536, 65535, 3000017, 70000, 1000000, 1, 255};
    check_spans(&dev, d, h, off, len, 8, "eight ranges");
    gp_chunk_dev_free(&dev);
    OK(gp_drv.cuMemFree(d));
    free(h);
}

/* Speed of the hash over a large buffer (printed, not asserted). */
static void bench_hash(void)
{
    size_t free_b, total_b;
    gp_drv.cuMemGetInfo(&free_b, &total_b);
    uint64_t bytes = (uint64_t)4 << 30;
    if (free_b < 2 * bytes)
        bytes = free_b / 4;
    CUdeviceptr d;
    if (gp_drv.cuMemAlloc(&d, bytes) != CUDA_SUCCESS)
        return;
    gp_drv.cuMemsetD8(d, 0x5a, bytes);
    gp_chunk_dev dev = {0};
    uint64_t n = gp_chunk_count(bytes, GP_CHUNK_BYTES);
    gp_chunk_span sp = {d, bytes, 0};
    char err[256];
    gp_chunk_dev_hash(&dev, &sp, 1, GP_CHUNK_BYTES, n, err, sizeof(err)); /* warm up */
    double best = 1e9;
    for (int i = 0; i < 5; i++) {
        double t = now();
        if (!gp_chunk_dev_hash(&dev, &sp, 1, GP_CHUNK_BYTES, n, err, sizeof(err)))
            break;
        best = now() - t < best ? now() - t : best;
    }
    printf("chunk hash: %.2f GB in %.2f ms = %.0f GB/s (digests read back included)\n", bytes / 1e9,
           best * 1e3, bytes / best / 1e9);
    gp_chunk_dev_free(&dev);
    gp_drv.cuMemFree(d);
}

typedef struct buf {
    CUdeviceptr d;
    uint64_t size;
    unsigned char *h; /* what it must hold */
} buf;

static void put(buf *b, uint64_t off, uint64_t n, int value) /* value < 0: random */
{
    for (uint64_t i = 0; i < n; i++)
        b->h[off + i] = value < 0 ? (unsigned char)next_rand() : (unsigned char)value;
    gp_drv.cuMemcpyHtoD(b->d + off, b->h + off, n);
}

static int same(const buf *b)
{
    unsigned char *g = malloc(b->size);
    int r = gp_drv.cuMemcpyDtoH(g, b->d, b->size) == CUDA_SUCCESS && memcmp(g, b->h, b->size) == 0;
    free(g);
    return r;
}

static void scribble(buf *b, uint64_t off, uint64_t n, int value) /* a pass's writes */
{
    unsigned char *t = malloc(n);
    memset(t, value, n);
    gp_drv.cuMemcpyHtoD(b->d + off, t, n);
    free(t);
}

static void test_snapshot(int incremental)
{
    const char *mode = incremental ? "incremental" : "full";
    uint64_t C = GP_CHUNK_BYTES;
    buf b[4] = {{0, (3 << 20) + 17, 0}, {0, 8 << 20, 0}, {0, 1000, 0}, {0, 5 * C + 3, 0}};
    for (int i = 0; i < 4; i++) {
        OK(gp_drv.cuMemAlloc(&b[i].d, b[i].size));
        b[i].h = calloc(b[i].size, 1);
        gp_drv.cuMemsetD8(b[i].d, 0, b[i].size);
    }
    put(&b[0], 0, b[0].size, -1); /* random; b[1] zero; b[2] random */
    put(&b[2], 0, b[2].size, -1);
    put(&b[3], 2 * C, C, -1);
    gp_range r[4];
    for (int i = 0; i < 4; i++)
        r[i] = (gp_range){b[i].d, b[i].size, GP_MEM_DEVICE, 0, 0, 0};
    gp_snapshot s;
    memset(&s, 0, sizeof(s));
    gp_snapshot_configure(&s, incremental, 1);
    char err[300] = "";
    uint64_t total = b[0].size + b[1].size + b[2].size;
    GP_CHECK_MSG(gp_snapshot_save(&s, r, 3, total, 1, 1, 0, err, sizeof(err)) == 0, "%s: %s", mode,
                 err);
    uint64_t a_chunks = gp_chunk_count(b[0].size, C), z_chunks = gp_chunk_count(b[1].size, C);
    if (incremental) {
        GP_CHECK(s.stats.incremental && s.stats.ranges_new == 3);
        GP_CHECK(s.stats.chunks_saved == a_chunks + 1 && s.stats.chunks_zero_tagged == z_chunks);
        GP_CHECK(s.stats.store_device_bytes == (a_chunks * C) + 1000); /* zero chunks: no bytes */
        GP_CHECK(s.stats.bytes_to_store == b[0].size + 1000);
    } else {
        GP_CHECK(s.stats.bytes_to_store == total);
    }
    /* a pass writes one chunk of A (at its tail), two of the zero range, all of C */
    for (int pass = 0; pass < 2; pass++) {
        scribble(&b[0], b[0].size - 17, 17, 0x11);
        scribble(&b[1], 2 * C + 5, 100, 0x22);
        scribble(&b[1], 7 * C, 2 * C, 0x23);
        scribble(&b[2], 0, 1000, 0x33);
        GP_CHECK_MSG(gp_snapshot_restore(&s, err, sizeof(err)) == 0, "%s: %s", mode, err);
        GP_CHECK(same(&b[0]) && same(&b[1]) && same(&b[2]));
    }
    GP_CHECK(s.stats.verify_mismatches == 0 && s.stats.restores == 2);
    if (incremental) {
        GP_CHECK(s.stats.chunks_restored == 2 * 2 && s.stats.chunks_zeroed == 2 * 3);
        GP_CHECK(s.stats.bytes_zeroed == 2 * 3 * C);
    }
    gp_snapshot_end_launch(&s);
    /* between launches the program changes A and the zero range, frees C,
     * allocates D */
    put(&b[0], 7 * C + 9, 3, 0x44);
    put(&b[1], 0, 10, 0x55);
    gp_range r2[3] = {r[0], r[1], r[3]};
    total = b[0].size + b[1].size + b[3].size;
    GP_CHECK_MSG(gp_snapshot_save(&s, r2, 3, total, 1, 1, 0, err, sizeof(err)) == 0, "%s: %s", mode,
                 err);
    if (incremental) {
        GP_CHECK(s.stats.ranges_new == 1 && s.stats.ranges_dropped == 1);
        GP_CHECK_MSG(s.stats.chunks_saved == 1 + 1 + 1, "%llu chunks saved",
                     (unsigned long long)s.stats.chunks_saved);
        GP_CHECK(s.stats.chunks_zero_tagged == 5); /* D: 5 of its 6 chunks */
    }
    scribble(&b[0], 7 * C, C, 0);    /* a chunk cleared by the pass */
    scribble(&b[1], 0, 10, 0);       /* the program's new bytes undone by the pass */
    scribble(&b[3], 5 * C, 3, 0x77); /* D's 3-byte tail */
    GP_CHECK_MSG(gp_snapshot_restore(&s, err, sizeof(err)) == 0, "%s: %s", mode, err);
    GP_CHECK(same(&b[0]) && same(&b[1]) && same(&b[3]));
    GP_CHECK(s.stats.verify_mismatches == 0);
    if (incremental) {
        /* A's chunk 7 and the zero range's chunk 0 hold bytes: copied back;
         * D's 3-byte tail chunk was all zero when saved: cleared */
        GP_CHECK_MSG(s.stats.chunks_restored == 2 && s.stats.chunks_zeroed == 1,
                     "%llu restored, %llu cleared", (unsigned long long)s.stats.chunks_restored,
                     (unsigned long long)s.stats.chunks_zeroed);
        /* the byte check sees a store that no longer matches memory: spoil
         * the saved copy of an unchanged chunk of A */
        const gp_snap_entry *e = &s.ent[0];
        OK(gp_drv.cuMemsetD8((CUdeviceptr)(e->buf + e->slot[3] * e->slot_bytes + 100), 0xEE, 1));
        GP_CHECK(gp_snapshot_restore(&s, err, sizeof(err)) == 0);
        GP_CHECK(s.stats.verify_mismatches == 1);
    }
    gp_snapshot_end_launch(&s);
    gp_snapshot_free(&s);
    for (int i = 0; i < 4; i++) {
        gp_drv.cuMemFree(b[i].d);
        free(b[i].h);
    }
}

int main(void)
{
    char err[256];
    CUdevice dev;
    CUcontext ctx;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS) {
        gp_test_skip("chunk_hash_check", "no GPU");
        return gp_test_finish("chunk_hash_check");
    }
    if (gp_driver_load(err, sizeof(err)) != 0 ||
        cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS ||
        cuCtxSetCurrent(ctx) != CUDA_SUCCESS) {
        fprintf(stderr, "set-up failed: %s\n", err);
        return 1;
    }
    test_hash();
    test_snapshot(1);
    test_snapshot(0);
    bench_hash();
    return gp_test_finish("chunk_hash_check");
}
