/* chunk_hash.cu - the device side of the chunk hash (chunk_hash_mix.h): one
 * block per chunk.  Compiled to PTX at build time (replay/module.mk) and
 * embedded in the library, which loads it into the program's context with
 * cuModuleLoadData (chunk_hash_dev.c); no CUDA runtime is involved. */
#include "replay/chunk_hash_mix.h"

#define GP_CH_THREADS 256

/* Which span holds chunk c: the last one whose first_chunk is <= c. */
__device__ static const gp_chunk_span *find_span(const gp_chunk_span *s, unsigned n, uint64_t c)
{
    unsigned lo = 0, hi = n;
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        if (s[mid].first_chunk <= c)
            lo = mid;
        else
            hi = mid;
    }
    return &s[lo];
}

/* Word j of the chunk at p of len bytes, bytes past len as zero, any
 * alignment. */
__device__ static uint64_t word_bytes(const unsigned char *p, uint64_t len, uint64_t j)
{
    uint64_t w = 0;
    for (uint64_t k = 0; k < 8 && 8 * j + k < len; k++)
        w |= (uint64_t)p[8 * j + k] << (8 * k);
    return w;
}

extern "C" __global__ void __launch_bounds__(GP_CH_THREADS)
    gp_chunk_hash(const gp_chunk_span *spans, unsigned n_spans, uint64_t chunk_bytes,
                  uint64_t *out)
{
    __shared__ uint64_t red[3][GP_CH_THREADS / 32];
    uint64_t c = blockIdx.x;
    const gp_chunk_span *s = find_span(spans, n_spans, c);
    uint64_t off = (c - s->first_chunk) * chunk_bytes;
    uint64_t len = s->size - off < chunk_bytes ? s->size - off : chunk_bytes;
    const unsigned char *p = (const unsigned char *)(s->base + off);
    uint64_t sa = 0, sb = 0, any = 0;
    uint64_t words = (len + 7) / 8;
    uint64_t body = 0; /* words read 16 bytes at a time */
    if (((uintptr_t)p & 15) == 0) {
        body = (len / 16) * 2;
        const uint4 *v = (const uint4 *)p;
        /* the position keys of words 2i and 2i+1, carried from one
         * iteration to the next by adding (not multiplying) */
        uint64_t ka = (2 * (uint64_t)threadIdx.x + 1) * GP_CH_KA;
        uint64_t kb = (2 * (uint64_t)threadIdx.x + 1) * GP_CH_KB;
        const uint64_t step_a = 2 * GP_CH_THREADS * GP_CH_KA, step_b = 2 * GP_CH_THREADS * GP_CH_KB;
        for (uint64_t i = threadIdx.x; i < len / 16; i += GP_CH_THREADS) {
            uint4 q = __ldcs(v + i); /* streamed: read once, keep L2 for the program */
            uint64_t w0 = (uint64_t)q.x | ((uint64_t)q.y << 32);
            uint64_t w1 = (uint64_t)q.z | ((uint64_t)q.w << 32);
            any |= w0 | w1;
            sa += gp_ch_term_a_keyed(w0, ka) + gp_ch_term_a_keyed(w1, ka + GP_CH_KA);
            sb += gp_ch_term_b_keyed(w0, kb) + gp_ch_term_b_keyed(w1, kb + GP_CH_KB);
            ka += step_a;
            kb += step_b;
        }
    }
    for (uint64_t j = body + threadIdx.x; j < words; j += GP_CH_THREADS) {
        uint64_t w = word_bytes(p, len, j);
        any |= w;
        sa += gp_ch_term_a(w, j);
        sb += gp_ch_term_b(w, j);
    }
    for (int d = 16; d > 0; d /= 2) {
        sa += __shfl_down_sync(0xffffffffu, sa, d);
        sb += __shfl_down_sync(0xffffffffu, sb, d);
        any |= __shfl_down_sync(0xffffffffu, any, d);
    }
    unsigned warp = threadIdx.x / 32;
    if (threadIdx.x % 32 == 0) {
        red[0][warp] = sa;
        red[1][warp] = sb;
        red[2][warp] = any;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (unsigned i = 1; i < GP_CH_THREADS / 32; i++) {
            sa += red[0][i];
            sb += red[1][i];
            any |= red[2][i];
        }
        uint64_t h[2];
        gp_ch_finish(sa, sb, len, h);
        /* the host's gp_chunk_digest: two hash words, then the zero flag
         * in the low byte of the third (little-endian) */
        out[3 * c] = h[0];
        out[3 * c + 1] = h[1];
        out[3 * c + 2] = any == 0;
    }
}
