/* lineinfo.c - see lineinfo.h */
#include "preload/lineinfo.h"

#include <stdlib.h>
#include <string.h>

#include "preload/cubin.h"
#include "replay/pc_sampling.h"
#include "util/gp_uthash.h"

enum { NO_LINES = -1, OVER_BUDGET = -2 };

typedef struct kept_cubin {
    uint8_t *elf;
    size_t size;
    uint64_t crc;
    int sm;
} kept_cubin;

/* cubins with lines one function is looked up in: a fat binary holds one per
 * SM version */
#define GP_LINEINFO_PER_FUNCTION 4

typedef struct fn_module {
    char *name;
    int modules[GP_LINEINFO_PER_FUNCTION]; /* indices into kept */
    int n_modules;
    int none; /* NO_LINES or OVER_BUDGET when a cubin of it was not kept */
    UT_hash_handle hh;
} fn_module;

static kept_cubin *kept;
static size_t n_kept, cap_kept, kept_bytes;
static fn_module *functions;

static void note_function(const char *name, const uint8_t *code, size_t size, void *arg)
{
    (void)code;
    (void)size;
    int module = *(const int *)arg;
    fn_module *f;
    HASH_FIND_STR(functions, name, f);
    if (!f) {
        if (!(f = calloc(1, sizeof(*f))) || !(f->name = strdup(name))) {
            free(f);
            return;
        }
        f->none = NO_LINES;
        gp_uthash_oom = 0;
        HASH_ADD_KEYPTR(hh, functions, f->name, strlen(f->name), f);
        if (gp_uthash_oom) {
            free(f->name);
            free(f);
            return;
        }
    }
    if (module >= 0 && f->n_modules < GP_LINEINFO_PER_FUNCTION)
        f->modules[f->n_modules++] = module;
    else if (module == OVER_BUDGET)
        f->none = OVER_BUDGET;
}

/* One ELF of a loaded module: kept when it has lines and the budget allows. */
static void take_elf(const uint8_t *elf, size_t size, void *arg)
{
    (void)arg;
    int module = NO_LINES;
    if (gp_cubin_has_section(elf, size, ".debug_line")) {
        uint64_t crc = gp_pcs_cubin_crc(elf, size);
        module = OVER_BUDGET;
        for (size_t i = 0; i < n_kept && module < 0; i++) /* loaded again */
            if (kept[i].size == size && kept[i].crc == crc && memcmp(kept[i].elf, elf, size) == 0)
                module = (int)i;
        if (module < 0 && kept_bytes + size <= GP_LINEINFO_BUDGET) {
            if (n_kept == cap_kept) {
                size_t cap = cap_kept ? 2 * cap_kept : 16;
                kept_cubin *k = realloc(kept, cap * sizeof(*k));
                if (k) {
                    kept = k;
                    cap_kept = cap;
                }
            }
            uint8_t *copy = n_kept < cap_kept ? malloc(size) : NULL;
            if (copy) {
                memcpy(copy, elf, size);
                kept[n_kept].elf = copy;
                kept[n_kept].size = size;
                kept[n_kept].crc = crc;
                kept[n_kept].sm = gp_cubin_sm(copy, size);
                kept_bytes += size;
                module = (int)n_kept++;
            }
        }
    }
    gp_cubin_each_function(elf, size, note_function, &module);
}

void gp_lineinfo_module_loaded(const void *image, size_t size)
{
    gp_cubin_each_elf(image, size, take_elf, NULL);
}

int gp_lineinfo_find(const char *function, int sm, gp_lineinfo_module *m, const char **why)
{
    fn_module *f;
    HASH_FIND_STR(functions, function, f);
    memset(m, 0, sizeof(*m));
    *why = NULL;
    if (!f) {
        *why = "its module was not seen loading (it holds no ELF gpuprof can read)";
        return -1;
    }
    int pick = -1;
    for (int i = 0; i < f->n_modules; i++)
        if (pick < 0 || kept[f->modules[i]].sm == sm)
            pick = f->modules[i];
    if (pick >= 0 && (kept[pick].sm == sm || !sm || !kept[pick].sm)) {
        m->elf = kept[pick].elf;
        m->size = kept[pick].size;
        m->crc = kept[pick].crc;
        return 1;
    }
    if (f->none == OVER_BUDGET)
        *why = "its module came after 256 MB of modules with line information were kept";
    else
        *why = "its module has no line information for this GPU (build with -lineinfo)";
    return 0;
}

void gp_lineinfo_free(void)
{
    fn_module *f, *t;
    HASH_ITER(hh, functions, f, t)
    {
        HASH_DEL(functions, f);
        free(f->name);
        free(f);
    }
    for (size_t i = 0; i < n_kept; i++)
        free(kept[i].elf);
    free(kept);
    kept = NULL;
    n_kept = cap_kept = kept_bytes = 0;
}
