/* snap_plan.c - see snap_plan.h.  No driver call here. */
#include "replay/snap_plan.h"

#include <stdlib.h>
#include <string.h>

int gp_snap_saved_whole(const gp_range *r)
{
    return r->kind == GP_MEM_ARRAY || r->kind == GP_MEM_MANAGED || r->kind == GP_MEM_HOST;
}

int gp_snap_entry_init(gp_snap_entry *e, const gp_range *r, uint64_t chunk_bytes)
{
    memset(e, 0, sizeof(*e));
    e->r = *r;
    e->whole = gp_snap_saved_whole(r);
    e->chunk_bytes = chunk_bytes;
    if (e->whole) {
        e->n_chunks = 0;
        e->slot_bytes = r->size;
        return 0;
    }
    e->n_chunks = gp_chunk_count(r->size, chunk_bytes);
    e->slot_bytes = r->size < chunk_bytes ? r->size : chunk_bytes;
    if (e->n_chunks >= GP_SNAP_SLOT_NONE)
        return -1;
    size_t n = e->n_chunks ? (size_t)e->n_chunks : 1;
    e->slot = malloc(n * sizeof(*e->slot));
    e->free_slots = malloc(n * sizeof(*e->free_slots));
    if (!e->slot || !e->free_slots) {
        gp_snap_entry_release(e);
        return -1;
    }
    for (uint64_t i = 0; i < e->n_chunks; i++)
        e->slot[i] = GP_SNAP_SLOT_NONE;
    return 0;
}

void gp_snap_entry_release(gp_snap_entry *e)
{
    free(e->dig);
    free(e->slot);
    free(e->free_slots);
    e->dig = NULL;
    e->slot = NULL;
    e->free_slots = NULL;
}

static int same_range(const gp_range *a, const gp_range *b)
{
    return a->base == b->base && a->size == b->size && a->kind == b->kind &&
           (a->kind != GP_MEM_ARRAY ||
            (a->row_bytes == b->row_bytes && a->rows == b->rows && a->layers == b->layers));
}

typedef struct by_base {
    uint64_t base;
    size_t i;
} by_base;

static int cmp_base(const void *a, const void *b)
{
    const by_base *x = a, *y = b;
    return x->base < y->base ? -1 : x->base > y->base;
}

int gp_snap_match(const gp_snap_entry *old, size_t n_old, const gp_range *ranges, size_t n,
                  long *match)
{
    by_base *idx = malloc((n_old ? n_old : 1) * sizeof(*idx));
    uint8_t *taken = calloc(n_old ? n_old : 1, 1);
    if (!idx || !taken) {
        free(idx);
        free(taken);
        return -1;
    }
    for (size_t i = 0; i < n_old; i++)
        idx[i] = (by_base){old[i].r.base, i};
    qsort(idx, n_old, sizeof(*idx), cmp_base);
    for (size_t k = 0; k < n; k++) {
        match[k] = -1;
        size_t lo = 0, hi = n_old; /* first index with base >= ranges[k].base */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (idx[mid].base < ranges[k].base)
                lo = mid + 1;
            else
                hi = mid;
        }
        /* an array handle may equal an address: every entry of that base */
        for (size_t j = lo; j < n_old && idx[j].base == ranges[k].base; j++) {
            size_t o = idx[j].i;
            if (!taken[o] && same_range(&old[o].r, &ranges[k])) {
                taken[o] = 1;
                match[k] = (long)o;
                break;
            }
        }
    }
    free(idx);
    free(taken);
    return 0;
}

/* Chunks a hash run leaves unchanged are nearly all of them (a framework's
 * 20 GB hold 330,000 chunks; a kernel writes a few): whole blocks of
 * digests are compared at once, chunk by chunk only where a block differs
 * (a difference in padding bytes alone only costs that detour). */
enum { GP_SNAP_BLOCK = 64 };

static uint64_t block_len(const gp_snap_entry *e, uint64_t i)
{
    return e->n_chunks - i < GP_SNAP_BLOCK ? e->n_chunks - i : GP_SNAP_BLOCK;
}

/* From chunk i on, whole blocks whose digests equal the stored ones are
 * marked KEEP; returns where the first block that differs starts (or the
 * end).  Nothing is stored before the first save: every block differs. */
static uint64_t keep_same_blocks(const gp_snap_entry *e, const gp_chunk_digest *now, uint8_t *act,
                                 uint64_t i)
{
    while (e->dig && i < e->n_chunks) {
        uint64_t n = block_len(e, i);
        if (memcmp(e->dig + i, now + i, n * sizeof(*now)) != 0)
            break;
        memset(act + i, GP_CH_KEEP, n);
        i += n;
    }
    return i;
}

/* The next chunk at or after i whose action is not KEEP (n_chunks if none),
 * eight actions at a time through runs of KEEP (GP_CH_KEEP is 0). */
static uint64_t next_acted(const gp_snap_entry *e, const uint8_t *act, uint64_t i)
{
    while (i < e->n_chunks && act[i] == GP_CH_KEEP) {
        uint64_t w = 1;
        if (i + 8 <= e->n_chunks)
            memcpy(&w, act + i, 8);
        i += w == 0 ? 8 : 1;
    }
    return i;
}

long gp_snap_plan_save(gp_snap_entry *e, const gp_chunk_digest *now, uint8_t *act)
{
    uint32_t n_free = e->n_free, n_slots = e->n_slots;
    /* first pass: what each chunk needs, slots of chunks now zero given back */
    for (uint64_t i = keep_same_blocks(e, now, act, 0); i < e->n_chunks;
         i = keep_same_blocks(e, now, act, i)) {
        for (uint64_t end = i + block_len(e, i); i < end; i++) {
            int changed = !e->dig || !gp_chunk_same(&e->dig[i], &now[i]);
            if (!changed)
                act[i] = GP_CH_KEEP;
            else if (now[i].zero)
                act[i] = GP_CH_ZERO;
            else
                act[i] = GP_CH_COPY;
            if (act[i] == GP_CH_ZERO && e->slot[i] != GP_SNAP_SLOT_NONE) {
                e->free_slots[n_free++] = e->slot[i];
                e->slot[i] = GP_SNAP_SLOT_NONE;
            }
        }
    }
    /* second pass, in chunk order: a changed chunk keeps its slot; one that
     * had none takes a freed slot, else the next new one (so that a first
     * save lays the chunks out in order and copies whole runs) */
    for (uint64_t i = next_acted(e, act, 0); i < e->n_chunks; i = next_acted(e, act, i + 1)) {
        if (act[i] != GP_CH_COPY || e->slot[i] != GP_SNAP_SLOT_NONE)
            continue;
        e->slot[i] = n_free ? e->free_slots[--n_free] : n_slots++;
    }
    e->n_free = n_free;
    e->n_slots = n_slots;
    return (long)n_slots;
}

void gp_snap_commit(gp_snap_entry *e, const gp_chunk_digest *now, const uint8_t *act)
{
    if (!e->dig) {
        e->dig = malloc((e->n_chunks ? e->n_chunks : 1) * sizeof(*e->dig));
        act = NULL; /* every digest */
    }
    if (!e->dig)
        return;
    if (!act) {
        memcpy(e->dig, now, e->n_chunks * sizeof(*e->dig));
        return;
    }
    for (uint64_t i = next_acted(e, act, 0); i < e->n_chunks; i = next_acted(e, act, i + 1))
        e->dig[i] = now[i];
}

uint64_t gp_snap_plan_restore(const gp_snap_entry *e, const gp_chunk_digest *now, uint8_t *act)
{
    uint64_t n = 0;
    for (uint64_t i = keep_same_blocks(e, now, act, 0); i < e->n_chunks;
         i = keep_same_blocks(e, now, act, i)) {
        for (uint64_t end = i + block_len(e, i); i < end; i++) {
            if (gp_chunk_same(&e->dig[i], &now[i]))
                act[i] = GP_CH_KEEP;
            else
                act[i] = e->dig[i].zero ? GP_CH_ZERO : GP_CH_COPY;
            n += act[i] != GP_CH_KEEP;
        }
    }
    return n;
}

size_t gp_snap_runs(const gp_snap_entry *e, const uint8_t *act, gp_snap_run *out)
{
    size_t n = 0;
    for (uint64_t i = next_acted(e, act, 0); i < e->n_chunks; i = next_acted(e, act, i + 1)) {
        gp_snap_run *last = n ? &out[n - 1] : NULL;
        if (last && last->action == act[i] && last->chunk + last->count == i &&
            (act[i] != GP_CH_COPY || e->slot[i] == last->slot + last->count)) {
            last->count++;
        } else {
            last = &out[n++];
            last->chunk = i;
            last->count = 1;
            last->action = act[i];
            last->slot = act[i] == GP_CH_COPY ? e->slot[i] : GP_SNAP_SLOT_NONE;
            last->offset = i * e->chunk_bytes;
        }
        uint64_t end = (last->chunk + last->count) * e->chunk_bytes;
        last->bytes = (end < e->r.size ? end : e->r.size) - last->offset;
    }
    return n;
}
