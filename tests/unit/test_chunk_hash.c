/* test_chunk_hash.c - the chunk hash's CPU reference (the definition the
 * device kernel must match) and the incremental snapshot's plan, no GPU. */
#include <stdlib.h>
#include <string.h>

#include "gp_test.h"
#include "replay/chunk_hash.h"
#include "replay/snap_plan.h"

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t next_rand(void)
{
    return gp_test_rand(&rng);
}

static void fill(unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)next_rand();
}

static gp_chunk_digest H(const void *p, uint64_t n)
{
    gp_chunk_digest d;
    gp_chunk_hash_cpu(p, n, &d);
    return d;
}

static int differ(gp_chunk_digest a, gp_chunk_digest b)
{
    return a.h[0] != b.h[0] && a.h[1] != b.h[1]; /* both lanes, each on its own */
}

/* Frozen values: the definition in chunk_hash_mix.h must not drift (the
 * device kernel and any stored digest follow it). */
static void test_vectors(void)
{
    unsigned char b[19];
    for (int i = 0; i < 19; i++)
        b[i] = (unsigned char)(i * 37 + 1);
    gp_chunk_digest d0 = H(b, 0), d1 = H(b, 1), d19 = H(b, 19);
    GP_CHECK(d0.zero && !d1.zero && !d19.zero);
    GP_CHECK(d0.h[0] == 0 && d0.h[1] == 0); /* empty: both sums and the length are 0 */

    GP_CHECK(d1.h[0] == 0xd95fd422865d0234ull && d1.h[1] == 0x89e739b3b38efb4eull);
    GP_CHECK(d19.h[0] == 0xb2273e46a1ea9d01ull && d19.h[1] == 0x605990886fc2a162ull);
}

static void test_zero(void)
{
    static unsigned char z[65536 + 64];
    uint64_t sizes[] = {1, 7, 8, 9, 255, 4096, 65535, 65536};
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        GP_CHECK(H(z, sizes[k]).zero);
        /* one non-zero byte anywhere, the last included, clears the flag */
        uint64_t at = next_rand() % sizes[k];
        z[at] = 0x80;
        GP_CHECK_MSG(!H(z, sizes[k]).zero, "size %llu byte %llu", (unsigned long long)sizes[k],
                     (unsigned long long)at);
        z[at] = 0;
        z[sizes[k] - 1] = 1;
        GP_CHECK(!H(z, sizes[k]).zero);
        z[sizes[k] - 1] = 0;
    }
    /* zero chunks of different lengths hash differently (length is mixed in) */
    GP_CHECK(differ(H(z, 8), H(z, 16)));
}

/* Every single bit flip of a buffer with a tail changes both lanes. */
static void test_bit_flips(void)
{
    enum { N = 1037 };
    unsigned char b[N];
    fill(b, N);
    gp_chunk_digest ref = H(b, N);
    int missed = 0;
    for (size_t i = 0; i < N; i++)
        for (int bit = 0; bit < 8; bit++) {
            b[i] ^= (unsigned char)(1u << bit);
            missed += !differ(H(b, N), ref);
            b[i] ^= (unsigned char)(1u << bit);
        }
    GP_CHECK_MSG(missed == 0, "%d of %d flips missed", missed, N * 8);
    /* and in a full 64 KiB chunk, a sample */
    static unsigned char c[65536];
    fill(c, sizeof(c));
    ref = H(c, sizeof(c));
    missed = 0;
    for (int t = 0; t < 300; t++) {
        uint64_t i = next_rand() % sizeof(c);
        int bit = (int)(next_rand() % 8);
        c[i] ^= (unsigned char)(1u << bit);
        missed += !differ(H(c, sizeof(c)), ref);
        c[i] ^= (unsigned char)(1u << bit);
    }
    GP_CHECK(missed == 0);
}

/* Swapped and moved words: the same words in other places must not give the
 * same sums.  The hard cases for a sum of per-word terms are words that
 * differ in one bit (the sign of a double: x and -x swapped). */
static void test_swaps(void)
{
    enum { W = 40 };
    uint64_t w[W];
    int missed = 0, tried = 0;
    for (int bit = 0; bit < 64; bit++) {
        for (int i = 0; i < W; i++)
            w[i] = next_rand();
        for (int i = 0; i < W; i++)
            for (int j = i + 1; j < W; j++) {
                uint64_t a = w[i], b = w[j];
                w[j] = a ^ (1ull << bit); /* two words one bit apart */
                gp_chunk_digest before = H(w, sizeof(w));
                w[i] = w[j];
                w[j] = a;
                missed += !differ(H(w, sizeof(w)), before);
                tried++;
                w[i] = a;
                w[j] = b;
            }
    }
    GP_CHECK_MSG(missed == 0, "%d of %d swaps missed", missed, tried);
    /* doubles x and -x swapped, 32-bit halves swapped, data shifted by one word */
    double d[64];
    for (int i = 0; i < 64; i++)
        d[i] = (double)(i + 1) * 0.37;
    d[9] = -d[3];
    gp_chunk_digest before = H(d, sizeof(d));
    double t = d[3];
    d[3] = d[9];
    d[9] = t;
    GP_CHECK(differ(H(d, sizeof(d)), before));
    uint32_t h[32];
    for (int i = 0; i < 32; i++)
        h[i] = (uint32_t)next_rand();
    before = H(h, sizeof(h));
    uint32_t u = h[4];
    h[4] = h[5];
    h[5] = u;
    GP_CHECK(differ(H(h, sizeof(h)), before));
    before = H(w, sizeof(w));
    memmove(w + 1, w, sizeof(w) - 8);
    GP_CHECK(differ(H(w, sizeof(w)), before));
}

/* The tail: bytes past the length are never read, and an unaligned start
 * hashes like the same bytes aligned. */
static void test_tail(void)
{
    static unsigned char a[70000], b[70016];
    fill(a, sizeof(a));
    uint64_t lens[] = {1, 3, 15, 17, 255, 65535, 65537};
    for (size_t k = 0; k < sizeof(lens) / sizeof(lens[0]); k++) {
        uint64_t n = lens[k];
        memcpy(b + 3, a, n);
        b[3 + n] = (unsigned char)(a[n] ^ 0x5a); /* different bytes just past the end */
        gp_chunk_digest x = H(a, n), y = H(b + 3, n);
        GP_CHECK_MSG(gp_chunk_same(&x, &y), "length %llu", (unsigned long long)n);
    }
    GP_CHECK(gp_chunk_count(0, 65536) == 0);
    GP_CHECK(gp_chunk_count(1, 65536) == 1);
    GP_CHECK(gp_chunk_count(65536, 65536) == 1);
    GP_CHECK(gp_chunk_count(65537, 65536) == 2);
    GP_CHECK(gp_chunk_len(65537, 65536, 1) == 1);
    GP_CHECK(gp_chunk_len(65537, 65536, 0) == 65536);
    GP_CHECK(gp_chunk_len(65537, 65536, 2) == 0);
    GP_CHECK(gp_chunk_len(100, 65536, 0) == 100);
}

static gp_range lin(uint64_t base, uint64_t size)
{
    gp_range r = {base, size, GP_MEM_DEVICE, 0, 0, 0};
    return r;
}

static void test_match(void)
{
    gp_snap_entry old[4];
    gp_range r0 = lin(0x1000, 4096), r1 = lin(0x10000, 8192), r2 = lin(0x40000, 100);
    gp_range arr = {0x10000, 4096, GP_MEM_ARRAY, 64, 64, 1}; /* handle equal to r1's address */
    GP_CHECK(gp_snap_entry_init(&old[0], &r0, 1024) == 0);
    GP_CHECK(gp_snap_entry_init(&old[1], &r1, 1024) == 0);
    GP_CHECK(gp_snap_entry_init(&old[2], &r2, 1024) == 0);
    GP_CHECK(gp_snap_entry_init(&old[3], &arr, 1024) == 0);
    GP_CHECK(old[3].whole && !old[0].whole && old[2].n_chunks == 1 && old[2].slot_bytes == 100);
    gp_range now[4] = {arr, lin(0x1000, 4096), lin(0x10000, 8192 + 256), lin(0x90000, 64)};
    long m[4];
    GP_CHECK(gp_snap_match(old, 4, now, 4, m) == 0);
    GP_CHECK(m[0] == 3); /* the array, not the linear range at the same number */
    GP_CHECK(m[1] == 0);
    GP_CHECK(m[2] == -1); /* same base, other size: a new allocation */
    GP_CHECK(m[3] == -1);
    now[2].size = 8192;
    GP_CHECK(gp_snap_match(old, 4, now, 4, m) == 0 && m[2] == 1);
    gp_range twice[2] = {r0, r0}; /* one entry matches one range only */
    GP_CHECK(gp_snap_match(old, 4, twice, 2, m) == 0 && m[0] == 0 && m[1] == -1);
    GP_CHECK(gp_snap_match(old, 0, now, 4, m) == 0 && m[0] == -1);
    for (int i = 0; i < 4; i++)
        gp_snap_entry_release(&old[i]);
}

static gp_chunk_digest dg(uint64_t v)
{
    gp_chunk_digest d = {{v, ~v}, v == 0};
    return d;
}

static void test_plan(void)
{
    /* 10 chunks of 1024 bytes, the last one 100 bytes */
    gp_range r = lin(0x100000, 9 * 1024 + 100);
    gp_snap_entry e;
    GP_CHECK(gp_snap_entry_init(&e, &r, 1024) == 0);
    GP_CHECK(e.n_chunks == 10 && e.slot_bytes == 1024);
    gp_chunk_digest d[10];
    uint8_t act[10];
    gp_snap_run runs[10];
    uint64_t v1[10] = {1, 2, 0, 0, 5, 6, 7, 0, 9, 10};
    for (int i = 0; i < 10; i++)
        d[i] = dg(v1[i]);
    /* first save: every non-zero chunk copied, slots in chunk order */
    GP_CHECK(gp_snap_plan_save(&e, d, act) == 7);
    GP_CHECK(act[0] == GP_CH_COPY && act[2] == GP_CH_ZERO && act[7] == GP_CH_ZERO);
    GP_CHECK(e.slot[0] == 0 && e.slot[1] == 1 && e.slot[2] == GP_SNAP_SLOT_NONE && e.slot[4] == 2 &&
             e.slot[9] == 6);
    size_t n = gp_snap_runs(&e, act, runs);
    /* copy 0-1, zero 2-3, copy 4-6, zero 7, copy 8-9 (tail) */
    GP_CHECK(n == 5);
    GP_CHECK(runs[0].action == GP_CH_COPY && runs[0].count == 2 && runs[0].bytes == 2048);
    GP_CHECK(runs[1].action == GP_CH_ZERO && runs[1].count == 2 && runs[1].offset == 2048);
    GP_CHECK(runs[2].slot == 2 && runs[2].count == 3);
    GP_CHECK(runs[4].chunk == 8 && runs[4].slot == 5 && runs[4].bytes == 1024 + 100);
    gp_snap_commit(&e, d, act);
    /* nothing changed: nothing to do */
    GP_CHECK(gp_snap_plan_save(&e, d, act) == 7);
    GP_CHECK(gp_snap_runs(&e, act, runs) == 0);
    GP_CHECK(gp_snap_plan_restore(&e, d, act) == 0);
    /* the program changed chunk 5, zeroed chunk 1, wrote into zero chunk 3 */
    d[5] = dg(55);
    d[1] = dg(0);
    d[3] = dg(33);
    GP_CHECK(gp_snap_plan_save(&e, d, act) == 7); /* chunk 3 takes chunk 1's slot */
    GP_CHECK(act[5] == GP_CH_COPY && act[1] == GP_CH_ZERO && act[3] == GP_CH_COPY &&
             act[0] == GP_CH_KEEP && act[9] == GP_CH_KEEP);
    GP_CHECK(e.slot[1] == GP_SNAP_SLOT_NONE && e.slot[3] == 1 && e.slot[5] == 3);
    GP_CHECK(gp_snap_runs(&e, act, runs) == 3);
    gp_snap_commit(&e, d, act);
    /* a pass wrote chunks 0 and 2 and cleared 4: restore copies 0, clears 2, copies 4 */
    gp_chunk_digest now[10];
    memcpy(now, d, sizeof(now));
    now[0] = dg(100);
    now[2] = dg(7);
    now[4] = dg(0);
    GP_CHECK(gp_snap_plan_restore(&e, now, act) == 3);
    GP_CHECK(act[0] == GP_CH_COPY && act[2] == GP_CH_ZERO && act[4] == GP_CH_COPY &&
             act[1] == GP_CH_KEEP);
    n = gp_snap_runs(&e, act, runs);
    GP_CHECK(n == 3 && runs[1].action == GP_CH_ZERO && runs[1].bytes == 1024);
    /* a range smaller than a chunk: one slot of its own size */
    gp_range small = lin(0x8, 13);
    gp_snap_entry s;
    GP_CHECK(gp_snap_entry_init(&s, &small, 1024) == 0 && s.n_chunks == 1 && s.slot_bytes == 13);
    gp_chunk_digest one = dg(4);
    GP_CHECK(gp_snap_plan_save(&s, &one, act) == 1 && gp_snap_runs(&s, act, runs) == 1 &&
             runs[0].bytes == 13);
    gp_snap_entry_release(&s);
    gp_snap_entry_release(&e);
}

/* The plan on a large entry (many blocks of digests, a partial last one)
 * against the chunk-by-chunk definition, over rounds of random changes:
 * the same actions, runs that cover exactly the acted chunks, and stored
 * digests equal to the memory's after each commit. */
static void test_plan_large(void)
{
    enum { N = 1000 };
    gp_range r = lin(0x200000, (uint64_t)N * 256 - 17);
    gp_snap_entry e;
    GP_CHECK(gp_snap_entry_init(&e, &r, 256) == 0 && e.n_chunks == N);
    gp_chunk_digest *d = calloc(N, sizeof(*d)), *pass = calloc(N, sizeof(*pass));
    uint8_t *act = malloc(N), *want = malloc(N);
    gp_snap_run *runs = malloc(N * sizeof(*runs));
    uint64_t seed = 12345;
    for (int i = 0; i < N; i++)
        d[i] = dg(i % 7 == 3 ? 0 : (uint64_t)i + 1);
    int bad = 0;
    for (int round = 0; round < 40; round++) {
        if (round) /* the program changes a few chunks, some to zero, some in bursts */
            for (int k = 0; k < 1 + round % 9; k++) {
                int at = (int)(gp_test_rand(&seed) % N), len = 1 + (int)(gp_test_rand(&seed) % 12);
                for (int j = at; j < at + len && j < N; j++)
                    d[j] = dg(j % 5 == 0 ? 0 : gp_test_rand(&seed) | 1);
            }
        for (int i = 0; i < N; i++)
            want[i] = e.dig && gp_chunk_same(&e.dig[i], &d[i]) ? GP_CH_KEEP
                      : d[i].zero                              ? GP_CH_ZERO
                                                               : GP_CH_COPY;
        GP_CHECK(gp_snap_plan_save(&e, d, act) > 0);
        bad += memcmp(act, want, N) != 0;
        size_t nr = gp_snap_runs(&e, act, runs);
        uint64_t covered = 0, acted = 0;
        for (size_t k = 0; k < nr; k++) {
            covered += runs[k].count;
            for (uint64_t j = runs[k].chunk; j < runs[k].chunk + runs[k].count; j++)
                bad += act[j] != runs[k].action;
        }
        for (int i = 0; i < N; i++)
            acted += act[i] != GP_CH_KEEP;
        bad += covered != acted;
        gp_snap_commit(&e, d, act);
        for (int i = 0; i < N; i++)
            bad += !gp_chunk_same(&e.dig[i], &d[i]);
        /* a pass changes other chunks: the restore finds exactly those */
        memcpy(pass, d, N * sizeof(*pass));
        uint64_t changed = 0;
        for (int k = 0; k < 3; k++) {
            int at = (int)(gp_test_rand(&seed) % N);
            if (gp_chunk_same(&pass[at], &d[at]))
                changed++;
            pass[at] = dg(gp_test_rand(&seed) | 1);
        }
        bad += gp_snap_plan_restore(&e, pass, act) != changed;
        for (int i = 0; i < N; i++)
            bad += (act[i] != GP_CH_KEEP) != !gp_chunk_same(&e.dig[i], &pass[i]);
    }
    GP_CHECK_MSG(bad == 0, "large plan: %d disagreements with the chunk-by-chunk definition", bad);
    free(d);
    free(pass);
    free(act);
    free(want);
    free(runs);
    gp_snap_entry_release(&e);
}

int main(void)
{
    test_vectors();
    test_zero();
    test_bit_flips();
    test_swaps();
    test_tail();
    test_match();
    test_plan();
    test_plan_large();
    return gp_test_finish("chunk_hash");
}
