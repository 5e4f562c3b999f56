/* cache_evict.c - see cache_evict.h */
#include "replay/cache_evict.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

/* Each lane reads its own 64-byte line: one load covers 32 lines. */
enum { LINE = 64, LANES = 32, LOADS = GP_EVICT_CONST_BYTES / (LINE * LANES) };
/* The longest line written (a multiply-add with two 10-digit numbers is 48). */
enum { MAX_LINE = 96, FIXED = 2048 };

typedef struct out {
    char *buf;
    size_t cap, len;
    int full;
} out;

__attribute__((format(printf, 2, 3))) static void put(out *o, const char *fmt, ...)
{
    if (o->full)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= o->cap - o->len) {
        o->full = 1;
        return;
    }
    o->len += (size_t)n;
}

/* Distinct for every i < 2^32 (an odd multiplier is a bijection mod 2^32),
 * so that no two multiply-adds of a chain are alike. */
static uint32_t addend(uint32_t i)
{
    return i * 0x9E3779B9u + 0x7F4A7C15u;
}

size_t gp_cache_evict_ptx_size(unsigned n_insns)
{
    if (n_insns < GP_EVICT_MIN_INSNS || n_insns > GP_EVICT_MAX_INSNS)
        return 0;
    return FIXED + ((size_t)n_insns + LOADS + 2 * GP_EVICT_CHAINS) * MAX_LINE;
}

size_t gp_cache_evict_ptx(char *buf, size_t cap, unsigned n_insns)
{
    if (!buf || cap == 0)
        return 0;
    buf[0] = '\0';
    if (gp_cache_evict_ptx_size(n_insns) == 0)
        return 0;
    out o = {buf, cap, 0, 0};
    put(&o, ".version 8.0\n.target sm_90\n.address_size 64\n");
    put(&o, ".const .align 16 .b8 gp_evict_const[%d];\n", GP_EVICT_CONST_BYTES);
    put(&o, ".visible .entry " GP_EVICT_ENTRY "(.param .u64 p_sink)\n{\n");
    put(&o, "  .reg .pred %%p<2>;\n  .reg .b32 %%r<8>;\n  .reg .b32 %%c<%d>;\n", GP_EVICT_CHAINS);
    put(&o, "  .reg .b32 %%k<%d>;\n  .reg .b64 %%rd<5>;\n", LOADS);
    put(&o, "  ld.param.u64 %%rd1, [p_sink];\n");
    put(&o, "  mov.u32 %%r1, %%tid.x;\n  mov.u32 %%r2, %%ctaid.x;\n");
    /* the chains start from the thread's coordinates: nothing is known at
     * compile time */
    for (unsigned c = 0; c < GP_EVICT_CHAINS; c++)
        put(&o, "  mad.lo.u32 %%c%u, %%r1, %u, %%r2;\n", c, addend(0xFFFFFFFFu - c));
    /* the constant bank: lane l reads line l of every 2 KB, so that the 32
     * loads of a warp touch every line of the array */
    put(&o, "  and.b32 %%r3, %%r1, %d;\n  mul.wide.u32 %%rd2, %%r3, %d;\n", LANES - 1, LINE);
    put(&o, "  mov.u64 %%rd3, gp_evict_const;\n  add.u64 %%rd4, %%rd3, %%rd2;\n");
    for (unsigned j = 0; j < LOADS; j++)
        put(&o, "  ld.const.u32 %%k%u, [%%rd4+%u];\n", j, j * LINE * LANES);
    for (unsigned j = 0; j < LOADS; j++)
        put(&o, "  xor.b32 %%c%u, %%c%u, %%k%u;\n", j % GP_EVICT_CHAINS, j % GP_EVICT_CHAINS, j);
    /* the body: straight-line code, each instruction depending on the one
     * GP_EVICT_CHAINS before it, none alike */
    for (unsigned i = 0; i < n_insns; i++) {
        unsigned c = i % GP_EVICT_CHAINS;
        put(&o, "  mad.lo.u32 %%c%u, %%c%u, %%c%u, %u;\n", c, c, c, addend(i));
    }
    put(&o, "  mov.u32 %%r4, %%c0;\n");
    for (unsigned c = 1; c < GP_EVICT_CHAINS; c++)
        put(&o, "  xor.b32 %%r4, %%r4, %%c%u;\n", c);
    /* stored only when it equals an arbitrary value: the work stays live */
    put(&o, "  setp.ne.u32 %%p1, %%r4, 305419896;\n  @%%p1 bra DONE;\n");
    put(&o, "  st.global.u32 [%%rd1], %%r4;\nDONE:\n  ret;\n}\n");
    if (o.full) {
        buf[0] = '\0';
        return 0;
    }
    return o.len;
}
