/* source_table.c - see source_table.h */
#include "preload/source_table.h"

#include <stdlib.h>
#include <string.h>

#include "util/gp_uthash.h"
#include "util/strutil.h"

typedef struct pc_entry {
    uint64_t pc; /* key */
    gp_src_pc d;
    UT_hash_handle hh;
} pc_entry;

typedef struct fn_entry {
    gp_src_function_info info;
    char *key; /* device (sizeof(int) bytes) then the mangled name and its NUL */
    size_t key_len;
    pc_entry *pcs;
    size_t n_pcs;
    UT_hash_handle hh;
} fn_entry;

struct gp_src_table {
    fn_entry *fns;
    size_t n_pcs;
    uint64_t left_out;
    char *reason[GP_SRC_MAX_REASONS];
    unsigned n_reasons;
};

static const char *const access_names[GP_ACC_N] = {
    "",          "global_ld", "global_st", "global_atom", "global_red", "local", "shared_ld",
    "shared_st", "shared_atom", "ldsm",   "stsm",        "ldgsts",     "tma",   "gmma"};

const char *gp_src_access_name(int access)
{
    return access > 0 && access < GP_ACC_N ? access_names[access] : "";
}

gp_src_table *gp_src_new(void)
{
    return calloc(1, sizeof(gp_src_table));
}

void gp_src_free(gp_src_table *t)
{
    if (!t)
        return;
    fn_entry *f, *ft;
    HASH_ITER(hh, t->fns, f, ft)
    {
        pc_entry *p, *pt;
        HASH_ITER(hh, f->pcs, p, pt)
        {
            HASH_DEL(f->pcs, p);
            free(p->d.reasons);
            free(p);
        }
        HASH_DEL(t->fns, f);
        free(f->key);
        free(f);
    }
    for (unsigned r = 0; r < t->n_reasons; r++)
        free(t->reason[r]);
    free(t);
}

/* The function's entry, added when new; NULL when out of memory. */
static fn_entry *function_get(gp_src_table *t, int device, const char *mangled)
{
    size_t nl = strlen(mangled) + 1, kl = sizeof(int) + nl;
    char stack[512], *key = kl <= sizeof(stack) ? stack : malloc(kl);
    if (!key)
        return NULL;
    memcpy(key, &device, sizeof(int));
    memcpy(key + sizeof(int), mangled, nl);
    fn_entry *f;
    HASH_FIND(hh, t->fns, key, kl, f);
    if (f || !(f = calloc(1, sizeof(*f))))
        goto out;
    f->key = malloc(kl);
    if (!f->key) {
        free(f);
        f = NULL;
        goto out;
    }
    memcpy(f->key, key, kl);
    f->key_len = kl;
    f->info.device = device;
    f->info.mangled = f->key + sizeof(int);
    gp_uthash_oom = 0;
    HASH_ADD_KEYPTR(hh, t->fns, f->key, f->key_len, f);
    if (gp_uthash_oom) {
        free(f->key);
        free(f);
        f = NULL;
    }
out:
    if (key != stack)
        free(key);
    return f;
}

/* The instruction's entry, added when new and the table has room. */
static gp_src_pc *pc_get(gp_src_table *t, fn_entry *f, uint64_t pc)
{
    pc_entry *e;
    HASH_FIND(hh, f->pcs, &pc, sizeof(pc), e);
    if (e)
        return &e->d;
    if (t->n_pcs >= GP_SRC_MAX_PCS || !(e = calloc(1, sizeof(*e))))
        return NULL;
    e->pc = pc;
    e->d.pc = pc;
    gp_uthash_oom = 0;
    HASH_ADD(hh, f->pcs, pc, sizeof(e->pc), e);
    if (gp_uthash_oom) {
        free(e);
        return NULL;
    }
    f->n_pcs++;
    t->n_pcs++;
    return &e->d;
}

/* The access an instruction makes, from which per-class counter counted it. */
static void classify(gp_src_pc *d, const uint64_t *v)
{
    static const struct {
        int metric, access;
    } classes[] = {
        {GP_SASS_GLOBAL_LD, GP_ACC_GLOBAL_LD},     {GP_SASS_GLOBAL_ST, GP_ACC_GLOBAL_ST},
        {GP_SASS_GLOBAL_ATOM, GP_ACC_GLOBAL_ATOM}, {GP_SASS_GLOBAL_RED, GP_ACC_GLOBAL_RED},
        {GP_SASS_LDGSTS, GP_ACC_LDGSTS},           {GP_SASS_LOCAL, GP_ACC_LOCAL},
        {GP_SASS_LDSM, GP_ACC_LDSM},               {GP_SASS_STSM, GP_ACC_STSM},
        {GP_SASS_SHARED_ATOM, GP_ACC_SHARED_ATOM}, {GP_SASS_SHARED_LD, GP_ACC_SHARED_LD},
        {GP_SASS_SHARED_ST, GP_ACC_SHARED_ST},     {GP_SASS_TMA, GP_ACC_TMA},
        {GP_SASS_GMMA, GP_ACC_GMMA},
    };
    static const struct {
        int metric, bits;
    } sizes[] = {{GP_SASS_MEM8, 8},
                 {GP_SASS_MEM16, 16},
                 {GP_SASS_MEM32, 32},
                 {GP_SASS_MEM64, 64},
                 {GP_SASS_MEM128, 128}};
    if (!d->access)
        for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
            if (v[classes[i].metric]) {
                d->access = (uint16_t)classes[i].access;
                break;
            }
    if (!d->access_bits)
        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
            if (v[sizes[i].metric]) {
                d->access_bits = (uint8_t)sizes[i].bits;
                break;
            }
}

size_t gp_src_add_sass(gp_src_table *t, int device, const gp_sass_record *r, size_t n)
{
    static const int from[GP_SRC_COUNTS] = {
        [GP_SRC_INST] = GP_SASS_INST,
        [GP_SRC_THREAD_INST] = GP_SASS_THREAD_INST_ALL,
        [GP_SRC_THREAD_INST_PRED_ON] = GP_SASS_THREAD_INST,
        [GP_SRC_DIVERGENT] = GP_SASS_DIVERGENT,
        [GP_SRC_TAGS_GLOBAL] = GP_SASS_TAGS,
        [GP_SRC_SECTORS] = GP_SASS_SECTORS,
        [GP_SRC_SECTORS_IDEAL] = GP_SASS_SECTORS_IDEAL,
        [GP_SRC_WAVEFRONTS] = GP_SASS_WAVEFRONTS,
        [GP_SRC_WAVEFRONTS_IDEAL] = GP_SASS_WAVEFRONTS_IDEAL,
    };
    size_t left = 0;
    fn_entry *last = NULL, *counted[16];
    size_t n_counted = 0;
    for (size_t i = 0; i < n; i++) {
        fn_entry *f = last && strcmp(last->info.mangled, r[i].function) == 0
                          ? last
                          : function_get(t, device, r[i].function);
        gp_src_pc *d = f ? pc_get(t, f, r[i].pc) : NULL;
        if (!d) {
            left++;
            continue;
        }
        if (f != last) { /* a launch counts once per function it ran */
            size_t k = 0;
            while (k < n_counted && counted[k] != f)
                k++;
            if (k == n_counted) {
                f->info.sass_launches++;
                if (n_counted < sizeof(counted) / sizeof(counted[0]))
                    counted[n_counted++] = f;
            }
            last = f;
        }
        d->has_sass = 1;
        for (int c = 0; c < GP_SRC_COUNTS; c++)
            d->count[c] += r[i].v[from[c]];
        classify(d, r[i].v);
    }
    t->left_out += left;
    return left;
}

/* The id of a reason name, registered when new; -1 when the table is full. */
static int reason_id(gp_src_table *t, const char *name, size_t len)
{
    for (unsigned r = 0; r < t->n_reasons; r++)
        if (strlen(t->reason[r]) == len && memcmp(t->reason[r], name, len) == 0)
            return (int)r;
    if (t->n_reasons == GP_SRC_MAX_REASONS)
        return -1;
    char *copy = gp_strndup(name, len);
    if (!copy)
        return -1;
    t->reason[t->n_reasons] = copy;
    return (int)t->n_reasons++;
}

int gp_src_add_samples(gp_src_table *t, int device, uint64_t crc, const char *function,
                       uint64_t pc, const char *reason, uint64_t count)
{
    static const char ni[] = "_not_issued";
    size_t len = strlen(reason);
    int not_issued = len > sizeof(ni) - 1 && strcmp(reason + len - (sizeof(ni) - 1), ni) == 0;
    if (not_issued)
        len -= sizeof(ni) - 1;
    fn_entry *f = function_get(t, device, function);
    gp_src_pc *d = f ? pc_get(t, f, pc) : NULL;
    int id = reason_id(t, reason, len);
    if (!d || id < 0) {
        t->left_out++;
        return -1;
    }
    if (crc && !f->info.crc)
        f->info.crc = crc;
    gp_src_reason_count *rc = NULL;
    for (unsigned i = 0; i < d->n_reasons; i++)
        if (d->reasons[i].reason == id)
            rc = &d->reasons[i];
    if (!rc) {
        if (d->n_reasons == d->cap_reasons) {
            unsigned cap = d->cap_reasons ? 2u * d->cap_reasons : 4u;
            gp_src_reason_count *nr = realloc(d->reasons, cap * sizeof(*nr));
            if (!nr) {
                t->left_out++;
                return -1;
            }
            d->reasons = nr;
            d->cap_reasons = (uint16_t)cap;
        }
        rc = &d->reasons[d->n_reasons++];
        memset(rc, 0, sizeof(*rc));
        rc->reason = (uint16_t)id;
    }
    /* a not-issued sample is also one of its reason's samples: CUPTI
     * reports it under both names, so only the plain name adds to the
     * instruction's total */
    if (not_issued) {
        rc->not_issued += count;
        d->not_issued += count;
        f->info.not_issued += count;
    } else {
        rc->samples += count;
        d->samples += count;
        f->info.samples += count;
    }
    return 0;
}

void gp_src_sampled_launch(gp_src_table *t, int device, const char *function)
{
    fn_entry *f = function_get(t, device, function);
    if (f)
        f->info.sampled_launches++;
}

void gp_src_set_crc(gp_src_table *t, int device, const char *function, uint64_t crc)
{
    fn_entry *f = function_get(t, device, function);
    if (f && !f->info.crc)
        f->info.crc = crc;
}

uint64_t gp_src_left_out(const gp_src_table *t)
{
    return t ? t->left_out : 0;
}

const char *gp_src_reason(const gp_src_table *t, unsigned r)
{
    return t && r < t->n_reasons ? t->reason[r] : NULL;
}

size_t gp_src_n_functions(const gp_src_table *t)
{
    return t ? HASH_COUNT(t->fns) : 0;
}

static int by_pc(const void *a, const void *b)
{
    uint64_t x = (*(const gp_src_pc *const *)a)->pc, y = (*(const gp_src_pc *const *)b)->pc;
    return x < y ? -1 : x > y;
}

void gp_src_each(gp_src_table *t, gp_src_function_fn fn, void *arg)
{
    if (!t)
        return;
    for (fn_entry *f = t->fns; f; f = f->hh.next) {
        if (!f->n_pcs && !f->info.sampled_launches)
            continue;
        const gp_src_pc **v = malloc((f->n_pcs ? f->n_pcs : 1) * sizeof(*v));
        if (!v)
            continue;
        size_t i = 0;
        for (pc_entry *p = f->pcs; p; p = p->hh.next)
            v[i++] = &p->d;
        qsort(v, i, sizeof(*v), by_pc);
        fn(arg, &f->info, v, i);
        free(v);
    }
}
