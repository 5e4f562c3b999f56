/* chunk_hash_mix.h - the arithmetic of the chunk hash, written once and
 * compiled twice: into the CPU reference (chunk_hash.c) and into the device
 * kernel (chunk_hash.cu).  Plain C99 that nvcc also accepts; GP_HD marks the
 * functions for both sides.
 *
 * The hash of a chunk of L bytes (the definition both sides must follow):
 *   w_j   = the little-endian 64-bit word of bytes 8j .. 8j+7, the bytes past
 *           L taken as zero, j = 0 .. ceil(L/8) - 1;
 *   lane A: a_j = mix_a(w_j XOR (j+1)*KA),  A = sum a_j  (mod 2^64)
 *   lane B: b_j = mix_b(w_j + (j+1)*KB),    B = sum b_j  (mod 2^64)
 *   hash  = (fin(A XOR L*KC), fin(B + L)), plus zero = every byte is 0.
 * mix_a and mix_b are bijections of one word (xor-shifts and odd multipliers
 * with different constants), so a change confined to one word always changes
 * both sums.  The position enters each word before a non-linear mix, so the
 * same words in other places (swapped, moved, shifted) give unrelated terms;
 * a change spread over several words goes unnoticed only when two unrelated
 * 64-bit sums both come out equal by chance.  A sum of terms (not a chain)
 * lets every thread of the kernel take any words in any order. */
#ifndef GP_CHUNK_HASH_MIX_H
#define GP_CHUNK_HASH_MIX_H

#include <stdint.h>

#ifdef __CUDACC__
#define GP_HD __host__ __device__ __forceinline__
#else
#define GP_HD static inline
#endif

#define GP_CH_KA 0x9E3779B97F4A7C15ull
#define GP_CH_KB 0xC2B2AE3D27D4EB4Full
#define GP_CH_KC 0x165667B19E3779F9ull
#define GP_CH_MA1 0xBF58476D1CE4E5B9ull
#define GP_CH_MA2 0x94D049BB133111EBull
#define GP_CH_MB1 0xFF51AFD7ED558CCDull
#define GP_CH_MB2 0xC4CEB9FE1A85EC53ull

/* One linear range as the kernel sees it: its chunks are numbered from
 * first_chunk in the kernel's output (the layout both sides share). */
typedef struct gp_chunk_span {
    uint64_t base, size, first_chunk;
} gp_chunk_span;

/* Shifts by 32 cost one 32-bit xor on the GPU; the multiplies carry low bits
 * into high ones and the shifts carry them back, twice.  m1, m2: odd. */
GP_HD uint64_t gp_ch_mix(uint64_t x, uint64_t m1, uint64_t m2)
{
    x ^= x >> 32;
    x *= m1;
    x ^= x >> 32;
    x *= m2;
    x ^= x >> 32;
    return x;
}

GP_HD uint64_t gp_ch_mix_a(uint64_t x)
{
    return gp_ch_mix(x, GP_CH_MA1, GP_CH_MA2);
}

GP_HD uint64_t gp_ch_mix_b(uint64_t x)
{
    return gp_ch_mix(x, GP_CH_MB1, GP_CH_MB2);
}

/* The term of word w at word index j, added to lane A and lane B.  The
 * position keys (j+1)*KA and (j+1)*KB may also be carried along a loop by
 * adding a multiple of KA and KB (the _keyed forms): the same terms, fewer
 * multiplies. */
GP_HD uint64_t gp_ch_term_a_keyed(uint64_t w, uint64_t key_a)
{
    return gp_ch_mix_a(w ^ key_a);
}

GP_HD uint64_t gp_ch_term_b_keyed(uint64_t w, uint64_t key_b)
{
    return gp_ch_mix_b(w + key_b);
}

GP_HD uint64_t gp_ch_term_a(uint64_t w, uint64_t j)
{
    return gp_ch_term_a_keyed(w, (j + 1) * GP_CH_KA);
}

GP_HD uint64_t gp_ch_term_b(uint64_t w, uint64_t j)
{
    return gp_ch_term_b_keyed(w, (j + 1) * GP_CH_KB);
}

/* MurmurHash3's finalizer: spreads the sums over all bits (a bijection, so
 * it neither adds nor removes collisions). */
GP_HD uint64_t gp_ch_fin(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ull;
    x ^= x >> 33;
    return x;
}

GP_HD void gp_ch_finish(uint64_t sum_a, uint64_t sum_b, uint64_t len, uint64_t out[2])
{
    out[0] = gp_ch_fin(sum_a ^ (len * GP_CH_KC));
    out[1] = gp_ch_fin(sum_b + len);
}

#endif
