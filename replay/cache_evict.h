/* cache_evict.h - the PTX of the kernel that empties the GPCs' constant and
 * instruction caches (the "GCC", L1.5) and the SMs' instruction and constant
 * caches before a counter pass, as Nsight Compute's --cache-control all does.
 *
 * The L2 flush (replay.c) leaves those caches holding the previous passes'
 * code and constants, so that a short kernel's instruction and constant
 * misses, the L2 sectors the GCC asks for and its stalls on instruction
 * fetch were those of a warm start where Nsight Compute's are of a cold one
 * (docs/measurements.md).  This kernel runs far more straight-line code
 * than those caches hold, and reads a whole 64 KB constant bank, on every
 * SM, so that afterwards they hold only its own lines; the L2 flush that
 * follows then pushes those out of L2.
 *
 * Pure text generation: no driver call, no allocation. */
#ifndef GP_CACHE_EVICT_H
#define GP_CACHE_EVICT_H

#include <stddef.h>

/* The kernel's name; its one parameter is a .u64 device address where it
 * may store 4 bytes (it never does in practice: the store only keeps the
 * computation alive). */
#define GP_EVICT_ENTRY "gp_cache_evict"

/* The default body: 16,384 multiply-adds, 256 KB of SASS on sm_90 (16 bytes
 * an instruction), more than the GPC's and the SM's instruction caches. */
enum { GP_EVICT_DEFAULT_INSNS = 16384 };
/* The constant array it reads: a whole bank. */
enum { GP_EVICT_CONST_BYTES = 65536 };
/* Independent dependency chains the multiply-adds are spread over (enough
 * for the warp not to wait on each one). */
enum { GP_EVICT_CHAINS = 8 };
/* Bounds accepted by gp_cache_evict_ptx(). */
enum { GP_EVICT_MIN_INSNS = GP_EVICT_CHAINS, GP_EVICT_MAX_INSNS = 1 << 20 };

/* Bytes the text for n_insns needs, its final NUL included (an upper
 * bound); 0 when n_insns is outside [GP_EVICT_MIN_INSNS, GP_EVICT_MAX_INSNS]. */
size_t gp_cache_evict_ptx_size(unsigned n_insns);

/* Writes into buf (cap bytes) the PTX module of the eviction kernel with
 * n_insns multiply-adds in straight line (each with its own constant, so
 * that none folds) and one constant load per lane for every 64-byte line of
 * the constant array.  Returns the text's length (without the NUL), or 0
 * when buf is NULL, n_insns is out of bounds or cap is too small (buf then
 * holds an empty string when cap > 0). */
size_t gp_cache_evict_ptx(char *buf, size_t cap, unsigned n_insns);

#endif
