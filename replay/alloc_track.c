/* alloc_track.c - see alloc_track.h.
 *
 * A uthash keyed by base address owns the entries; a sorted array of pointers
 * into it, rebuilt lazily after a change, answers "which range holds addr" by
 * binary search.  Launches are far more frequent than allocations, so lookups
 * stay cheap and changes stay simple. */
#include "replay/alloc_track.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/gp_uthash.h"


typedef struct alloc_entry {
    uint64_t base;
    uint64_t size;
    uint64_t ctx;
    uint64_t host_written;
    uint64_t vmm_handle; /* GP_MEM_VMM: the physical allocation mapped */
    int kind;
    int shared; /* other processes write or own it: never saved or restored */
    UT_hash_handle hh;
} alloc_entry;

typedef struct array_entry {
    uint64_t handle, row_bytes, rows, layers, ctx;
    UT_hash_handle hh;
} array_entry;

typedef struct {
    uint64_t from, to;
} peer_pair;

struct gp_alloc_table {
    pthread_mutex_t lock;
    peer_pair *peers; /* peer access turned on, from -> to */
    size_t n_peers;
    uint64_t *shared_handles; /* physical allocations shared with other processes */
    size_t n_shared_handles;
    array_entry *arrays;
    alloc_entry *by_base;
    alloc_entry **sorted;
    size_t n_sorted, cap_sorted;
    int dirty;
};

gp_alloc_table *gp_alloc_table_create(void)
{
    gp_alloc_table *t = calloc(1, sizeof(*t));
    if (t)
        pthread_mutex_init(&t->lock, NULL);
    return t;
}

void gp_alloc_table_destroy(gp_alloc_table *t)
{
    if (!t)
        return;
    alloc_entry *e, *tmp;
    HASH_ITER(hh, t->by_base, e, tmp)
    {
        HASH_DEL(t->by_base, e);
        free(e);
    }
    array_entry *a, *atmp;
    HASH_ITER(hh, t->arrays, a, atmp)
    {
        HASH_DEL(t->arrays, a);
        free(a);
    }
    free(t->sorted);
    free(t->peers);
    free(t->shared_handles);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

static int by_address(const void *a, const void *b)
{
    const alloc_entry *x = *(alloc_entry *const *)a, *y = *(alloc_entry *const *)b;
    return x->base < y->base ? -1 : x->base > y->base;
}

/* Caller holds the lock.  Returns -1 when out of memory. */
static int rebuild_sorted(gp_alloc_table *t)
{
    if (!t->dirty)
        return 0;
    size_t n = HASH_COUNT(t->by_base);
    if (n > t->cap_sorted) {
        size_t cap = n * 2;
        alloc_entry **s = realloc(t->sorted, cap * sizeof(*s));
        if (!s)
            return -1;
        t->sorted = s;
        t->cap_sorted = cap;
    }
    size_t i = 0;
    for (alloc_entry *e = t->by_base; e; e = e->hh.next)
        t->sorted[i++] = e;
    qsort(t->sorted, n, sizeof(*t->sorted), by_address);
    t->n_sorted = n;
    t->dirty = 0;
    return 0;
}

/* Caller holds the lock. */
static alloc_entry *find_locked(gp_alloc_table *t, uint64_t addr)
{
    if (rebuild_sorted(t) != 0)
        return NULL;
    size_t lo = 0, hi = t->n_sorted;
    while (lo < hi) { /* first entry with base > addr */
        size_t mid = lo + (hi - lo) / 2;
        if (t->sorted[mid]->base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    alloc_entry *e = t->sorted[lo - 1];
    return addr - e->base < e->size ? e : NULL;
}

int gp_alloc_add(gp_alloc_table *t, uint64_t base, uint64_t size, int kind, uint64_t ctx)
{
    if (!t || size == 0)
        return -1;
    pthread_mutex_lock(&t->lock);
    alloc_entry *e;
    GP_HASH_FIND_OR_ADD(t->by_base, base, base, e);
    if (!e) {
        pthread_mutex_unlock(&t->lock);
        return -1;
    }
    e->size = size;
    e->kind = kind;
    e->ctx = ctx;
    e->host_written = 0;
    t->dirty = 1;
    pthread_mutex_unlock(&t->lock);
    return 0;
}

int gp_alloc_remove(gp_alloc_table *t, uint64_t base)
{
    pthread_mutex_lock(&t->lock);
    alloc_entry *e;
    HASH_FIND(hh, t->by_base, &base, sizeof(base), e);
    if (e) {
        HASH_DEL(t->by_base, e);
        free(e);
        t->dirty = 1;
    }
    pthread_mutex_unlock(&t->lock);
    return e ? 0 : -1;
}

int gp_alloc_find(gp_alloc_table *t, uint64_t addr, gp_range *out)
{
    pthread_mutex_lock(&t->lock);
    alloc_entry *e = find_locked(t, addr);
    if (e && out)
        *out = (gp_range){e->base, e->size, e->kind, 0, 0, 0};
    pthread_mutex_unlock(&t->lock);
    return e ? 0 : -1;
}

int gp_alloc_note_host_write(gp_alloc_table *t, uint64_t addr, uint64_t bytes)
{
    pthread_mutex_lock(&t->lock);
    alloc_entry *e = find_locked(t, addr);
    if (e)
        e->host_written += bytes;
    pthread_mutex_unlock(&t->lock);
    return e ? 0 : -1;
}

uint64_t gp_alloc_host_written(gp_alloc_table *t, uint64_t base)
{
    pthread_mutex_lock(&t->lock);
    alloc_entry *e;
    HASH_FIND(hh, t->by_base, &base, sizeof(base), e);
    uint64_t w = e ? e->host_written : 0;
    pthread_mutex_unlock(&t->lock);
    return w;
}

/* lock held */
static int handle_shared(const gp_alloc_table *t, uint64_t handle)
{
    for (size_t i = 0; i < t->n_shared_handles; i++)
        if (t->shared_handles[i] == handle)
            return 1;
    return 0;
}

int gp_alloc_add_vmm(gp_alloc_table *t, uint64_t base, uint64_t size, uint64_t handle,
                     uint64_t ctx)
{
    if (gp_alloc_add(t, base, size, GP_MEM_VMM, ctx) != 0)
        return -1;
    pthread_mutex_lock(&t->lock);
    alloc_entry *e;
    HASH_FIND(hh, t->by_base, &base, sizeof(base), e);
    if (e) {
        e->vmm_handle = handle;
        e->shared = handle_shared(t, handle);
    }
    pthread_mutex_unlock(&t->lock);
    return 0;
}

int gp_alloc_share(gp_alloc_table *t, uint64_t addr)
{
    pthread_mutex_lock(&t->lock);
    alloc_entry *e = find_locked(t, addr);
    if (e)
        e->shared = 1;
    pthread_mutex_unlock(&t->lock);
    return e ? 0 : -1;
}

int gp_alloc_share_handle(gp_alloc_table *t, uint64_t handle)
{
    int rc = 0;
    pthread_mutex_lock(&t->lock);
    if (!handle_shared(t, handle)) {
        uint64_t *nh =
            realloc(t->shared_handles, (t->n_shared_handles + 1) * sizeof(*t->shared_handles));
        if (nh) {
            t->shared_handles = nh;
            t->shared_handles[t->n_shared_handles++] = handle;
        } else {
            rc = -1;
        }
    }
    alloc_entry *e, *tmp;
    HASH_ITER(hh, t->by_base, e, tmp)
    {
        if (e->kind == GP_MEM_VMM && e->vmm_handle == handle)
            e->shared = 1;
    }
    pthread_mutex_unlock(&t->lock);
    return rc;
}

/* lock held */
static int has_peer(const gp_alloc_table *t, uint64_t from, uint64_t to)
{
    for (size_t i = 0; i < t->n_peers; i++)
        if (t->peers[i].from == from && t->peers[i].to == to)
            return 1;
    return 0;
}

int gp_alloc_peer_access(gp_alloc_table *t, uint64_t from, uint64_t to, int on)
{
    int rc = 0;
    pthread_mutex_lock(&t->lock);
    if (on && !has_peer(t, from, to)) {
        peer_pair *np = realloc(t->peers, (t->n_peers + 1) * sizeof(*np));
        if (np) {
            t->peers = np;
            t->peers[t->n_peers++] = (peer_pair){from, to};
        } else {
            rc = -1;
        }
    }
    for (size_t i = 0; !on && i < t->n_peers;) {
        const peer_pair *p = &t->peers[i];
        if ((p->from == from && p->to == to) || (!to && (p->from == from || p->to == from)))
            t->peers[i] = t->peers[--t->n_peers];
        else
            i++;
    }
    pthread_mutex_unlock(&t->lock);
    return rc;
}

size_t gp_alloc_peers_of(gp_alloc_table *t, uint64_t ctx, uint64_t *out, size_t max)
{
    size_t n = 0;
    pthread_mutex_lock(&t->lock);
    for (size_t i = 0; i < t->n_peers; i++) {
        const peer_pair *p = &t->peers[i];
        uint64_t other = p->from == ctx ? p->to : p->to == ctx ? p->from : 0;
        int seen = !other;
        for (size_t k = 0; k < n && k < max && !seen; k++)
            seen = out[k] == other;
        if (seen)
            continue;
        if (n < max)
            out[n] = other;
        n++;
    }
    pthread_mutex_unlock(&t->lock);
    return n;
}

size_t gp_alloc_collect(gp_alloc_table *t, uint64_t ctx, gp_range *out, size_t max,
                        uint64_t *total)
{
    size_t n = 0;
    uint64_t sum = 0;
    pthread_mutex_lock(&t->lock);
    if (rebuild_sorted(t) == 0) {
        for (size_t i = 0; i < t->n_sorted; i++) {
            alloc_entry *e = t->sorted[i];
            /* managed and host memory are reachable from every context */
            if ((ctx && e->ctx != ctx && e->kind != GP_MEM_MANAGED && e->kind != GP_MEM_HOST &&
                 !has_peer(t, ctx, e->ctx)) ||
                e->shared)
                continue;
            if (n < max)
                out[n] = (gp_range){e->base, e->size, e->kind, 0, 0, 0};
            n++;
            sum += e->size;
        }
        for (array_entry *a = t->arrays; a; a = a->hh.next) {
            if (ctx && a->ctx != ctx)
                continue;
            if (n < max)
                out[n] = (gp_range){a->handle, a->row_bytes * a->rows * a->layers, GP_MEM_ARRAY,
                                    a->row_bytes, a->rows, a->layers};
            n++;
            sum += a->row_bytes * a->rows * a->layers;
        }
    }
    pthread_mutex_unlock(&t->lock);
    if (total)
        *total = sum;
    return n;
}

size_t gp_alloc_count(gp_alloc_table *t)
{
    pthread_mutex_lock(&t->lock);
    size_t n = HASH_COUNT(t->by_base);
    pthread_mutex_unlock(&t->lock);
    return n;
}

int gp_alloc_add_array(gp_alloc_table *t, uint64_t handle, uint64_t row_bytes, uint64_t rows,
                       uint64_t layers, uint64_t ctx)
{
    if (!t || row_bytes == 0 || rows == 0 || layers == 0)
        return -1;
    pthread_mutex_lock(&t->lock);
    array_entry *a;
    GP_HASH_FIND_OR_ADD(t->arrays, handle, handle, a);
    if (!a) {
        pthread_mutex_unlock(&t->lock);
        return -1;
    }
    a->row_bytes = row_bytes;
    a->rows = rows;
    a->layers = layers;
    a->ctx = ctx;
    pthread_mutex_unlock(&t->lock);
    return 0;
}

int gp_alloc_remove_array(gp_alloc_table *t, uint64_t handle)
{
    pthread_mutex_lock(&t->lock);
    array_entry *a;
    HASH_FIND(hh, t->arrays, &handle, sizeof(handle), a);
    if (a) {
        HASH_DEL(t->arrays, a);
        free(a);
    }
    pthread_mutex_unlock(&t->lock);
    return a ? 0 : -1;
}

unsigned gp_array_element_bytes(int format, unsigned channels)
{
    unsigned b;
    switch (format) { /* CUarray_format values (cuda.h) */
    case 0x01: /* UNSIGNED_INT8 */
    case 0x08: /* SIGNED_INT8 */
        b = 1;
        break;
    case 0x02: /* UNSIGNED_INT16 */
    case 0x09: /* SIGNED_INT16 */
    case 0x10: /* HALF */
        b = 2;
        break;
    case 0x03: /* UNSIGNED_INT32 */
    case 0x0a: /* SIGNED_INT32 */
    case 0x20: /* FLOAT */
        b = 4;
        break;
    default:
        return 0;
    }
    return channels == 1 || channels == 2 || channels == 4 ? b * channels : 0;
}
