/* chunk_hash.c - see chunk_hash.h.  The reference the device kernel is
 * checked against (tests/gpu/chunk_hash_check.c): it follows the definition
 * word by word, with no shortcut the kernel could disagree with. */
#include "replay/chunk_hash.h"

#include <string.h>

#include "replay/chunk_hash_mix.h"

void gp_chunk_hash_cpu(const void *p, uint64_t len, gp_chunk_digest *out)
{
    const unsigned char *b = p;
    uint64_t sa = 0, sb = 0, any = 0;
    uint64_t words = (len + 7) / 8;
    for (uint64_t j = 0; j < words; j++) {
        uint64_t w = 0;
        uint64_t n = len - 8 * j < 8 ? len - 8 * j : 8;
        for (uint64_t k = 0; k < n; k++)
            w |= (uint64_t)b[8 * j + k] << (8 * k);
        any |= w;
        sa += gp_ch_term_a(w, j);
        sb += gp_ch_term_b(w, j);
    }
    gp_ch_finish(sa, sb, len, out->h);
    out->zero = any == 0;
}

uint64_t gp_chunk_count(uint64_t size, uint64_t chunk_bytes)
{
    return chunk_bytes ? (size + chunk_bytes - 1) / chunk_bytes : 0;
}

uint64_t gp_chunk_len(uint64_t size, uint64_t chunk_bytes, uint64_t i)
{
    uint64_t start = i * chunk_bytes;
    if (start >= size)
        return 0;
    return size - start < chunk_bytes ? size - start : chunk_bytes;
}
