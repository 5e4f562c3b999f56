/* lineinfo.h - the cubins that carry line information (built with -lineinfo,
 * or JIT code that has it), kept from their load to the end of the run so
 * that each sampled or counted instruction can be given its source line,
 * and which of the loaded modules each function came from.  The caller
 * holds state_lock. */
#ifndef GP_LINEINFO_H
#define GP_LINEINFO_H

#include <stddef.h>
#include <stdint.h>

/* bytes of cubins kept at most; a module beyond it keeps no line information
 * (its functions' records say so) */
#define GP_LINEINFO_BUDGET (256u << 20)

/* Notes every function of the module and keeps a copy of each of its cubins
 * that has line information. */
void gp_lineinfo_module_loaded(const void *image, size_t size);

typedef struct gp_lineinfo_module {
    const uint8_t *elf; /* the cubin holding the function (NULL: none kept) */
    size_t size;
    uint64_t crc; /* CUPTI's CRC of that cubin (0 when not computed) */
} gp_lineinfo_module;

/* 1 with *m filled when the function's cubin for SM version sm (90 for
 * sm_90; a fat binary holds one per version) has line information and was
 * kept; 0 when it has none or was not kept (*why says which); -1 when no
 * loaded module held the function. */
int gp_lineinfo_find(const char *function, int sm, gp_lineinfo_module *m, const char **why);
void gp_lineinfo_free(void);

#endif
