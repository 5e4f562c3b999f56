/* snapshot.c - see snapshot.h.  Every copy goes through cuMemcpy (unified
 * addressing), which handles device, managed and pinned host ranges alike
 * (CUDA arrays: cuMemcpy3D, rows packed in the buffer);
 * a context synchronize follows, since device-to-device copies do not block
 * the host and the program's streams may not be ordered with the default
 * stream.  Which chunks to copy is decided in snap_plan.c. */
#include "replay/snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/driver.h"
#include "util/clock.h"
#include "util/log.h"

const char *gp_snap_place_name(int place)
{
    static const char *const names[] = {"none", "device", "host"};
    return place >= 0 && place <= 2 ? names[place] : "?";
}

static int ensure_device(gp_snapshot *s, uint64_t total, uint64_t reserve)
{
    if (s->dev_cap >= total)
        return 0;
    if (s->dev_buf) {
        gp_drv.cuMemFree(s->dev_buf);
        s->dev_buf = 0;
        s->dev_cap = 0;
    }
    size_t free_b = 0, total_b = 0;
    if (gp_drv.cuMemGetInfo(&free_b, &total_b) != CUDA_SUCCESS || free_b < reserve ||
        free_b - reserve < total)
        return -1;
    if (gp_drv_alloc_own(&s->dev_buf, total) != CUDA_SUCCESS) {
        s->dev_buf = 0;
        return -1;
    }
    s->dev_cap = total;
    return 0;
}

static int ensure_host(gp_snapshot *s, uint64_t total)
{
    if (s->host_cap >= total)
        return 0;
    if (s->host_buf) {
        gp_drv.cuMemFreeHost(s->host_buf);
        s->host_buf = NULL;
        s->host_cap = 0;
    }
    if (gp_drv.cuMemAllocHost(&s->host_buf, total) != CUDA_SUCCESS) {
        s->host_buf = NULL;
        return -1;
    }
    s->host_cap = total;
    return 0;
}

static CUdeviceptr slot(const gp_snapshot *s, uint64_t offset)
{
    return s->place == GP_SNAP_IN_DEVICE ? s->dev_buf + offset
                                         : (CUdeviceptr)((char *)s->host_buf + offset);
}

/* A CUDA array to or from its slot, rows packed. */
static CUresult copy_array(const gp_range *r, CUdeviceptr at, int save)
{
    CUDA_MEMCPY3D c;
    memset(&c, 0, sizeof(c));
    if (save) {
        c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c.srcArray = (CUarray)(uintptr_t)r->base;
        c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
        c.dstDevice = at;
        c.dstPitch = r->row_bytes;
        c.dstHeight = r->rows;
    } else {
        c.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
        c.srcDevice = at;
        c.srcPitch = r->row_bytes;
        c.srcHeight = r->rows;
        c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        c.dstArray = (CUarray)(uintptr_t)r->base;
    }
    c.WidthInBytes = r->row_bytes;
    c.Height = r->rows;
    c.Depth = r->layers;
    return gp_drv.cuMemcpy3D(&c);
}

/* Copies every range to (save) or from (restore) the buffer. */
static int copy_all(gp_snapshot *s, int save, char *err, size_t errlen)
{
    uint64_t off = 0;
    for (size_t i = 0; i < s->n; i++) {
        const gp_range *r = &s->ranges[i];
        CUdeviceptr src = save ? (CUdeviceptr)r->base : slot(s, off);
        CUdeviceptr dst = save ? slot(s, off) : (CUdeviceptr)r->base;
        CUresult rc = r->kind == GP_MEM_ARRAY ? copy_array(r, slot(s, off), save)
                                              : gp_drv.cuMemcpy(dst, src, r->size);
        if (rc != CUDA_SUCCESS) {
            snprintf(err, errlen, "%s of %llu bytes at 0x%llx failed: %s",
                     save ? "saving" : "restoring", (unsigned long long)r->size,
                     (unsigned long long)r->base, gp_driver_strerror(rc));
            return -1;
        }
        off += r->size;
    }
    CUresult rc = gp_drv.cuCtxSynchronize();
    if (rc != CUDA_SUCCESS) {
        snprintf(err, errlen, "synchronize after %s failed: %s", save ? "saving" : "restoring",
                 gp_driver_strerror(rc));
        return -1;
    }
    return 0;
}

/* ---- full copies ---- */

static int save_full(gp_snapshot *s, uint64_t total, int allow_device, int allow_host,
                     uint64_t reserve_bytes, char *err, size_t errlen)
{
    if (total == 0) {
        s->place = GP_SNAP_IN_DEVICE; /* nothing to save: trivially done */
        return 0;
    }
    if (allow_device && ensure_device(s, total, reserve_bytes) == 0)
        s->place = GP_SNAP_IN_DEVICE;
    else if (allow_host && ensure_host(s, total) == 0)
        s->place = GP_SNAP_IN_HOST;
    else {
        snprintf(err, errlen,
                 "no room for a %.1f MB replay snapshot (device: free memory minus the %.0f MB "
                 "reserve is too small%s)",
                 total / 1e6, reserve_bytes / 1e6,
                 allow_host ? "; pinned host memory: allocation failed" : "");
        return -1;
    }
    if (copy_all(s, 1, err, errlen) != 0) {
        s->place = GP_SNAP_IN_NONE;
        return -1;
    }
    s->stats.bytes_to_store = total;
    return 0;
}

static void free_full(gp_snapshot *s)
{
    if (s->dev_buf)
        gp_drv.cuMemFree(s->dev_buf);
    if (s->host_buf)
        gp_drv.cuMemFreeHost(s->host_buf);
    s->dev_buf = 0;
    s->host_buf = NULL;
    s->dev_cap = s->host_cap = 0;
}

/* ---- the incremental store ---- */

/* A buffer of bytes: device memory when allowed and free memory minus the
 * reserve holds it, else pinned host memory when allowed. */
static int alloc_buf(uint64_t bytes, int allow_device, int allow_host, uint64_t reserve,
                     uint64_t *buf, int *place)
{
    size_t free_b = 0, total_b = 0;
    CUdeviceptr d = 0;
    if (allow_device && gp_drv.cuMemGetInfo(&free_b, &total_b) == CUDA_SUCCESS &&
        free_b >= reserve && free_b - reserve >= bytes &&
        gp_drv_alloc_own(&d, bytes) == CUDA_SUCCESS) {
        *buf = d;
        *place = GP_SNAP_IN_DEVICE;
        return 0;
    }
    void *h = NULL;
    if (allow_host && gp_drv.cuMemAllocHost(&h, bytes) == CUDA_SUCCESS) {
        *buf = (uint64_t)(uintptr_t)h;
        *place = GP_SNAP_IN_HOST;
        return 0;
    }
    return -1;
}

static void free_buf(uint64_t buf, int place)
{
    if (place == GP_SNAP_IN_DEVICE)
        gp_drv.cuMemFree((CUdeviceptr)buf);
    else if (place == GP_SNAP_IN_HOST)
        gp_drv.cuMemFreeHost((void *)(uintptr_t)buf);
}

static void entry_free(gp_snap_entry *e)
{
    free_buf(e->buf, e->place);
    gp_snap_entry_release(e);
    e->buf = 0;
    e->place = 0;
}

static void store_clear(gp_snapshot *s)
{
    for (size_t i = 0; i < s->n_ent; i++)
        entry_free(&s->ent[i]);
    free(s->ent);
    s->ent = NULL;
    s->n_ent = 0;
}

/* Hashes every linear entry into s->cur, in entry order. */
static int hash_all(gp_snapshot *s, char *err, size_t errlen)
{
    double t = gp_now_s();
    size_t n_spans = 0;
    uint64_t chunks = 0, bytes = 0;
    for (size_t i = 0; i < s->n_ent; i++)
        if (!s->ent[i].whole && s->ent[i].n_chunks) {
            n_spans++;
            chunks += s->ent[i].n_chunks;
            bytes += s->ent[i].r.size;
        }
    if (chunks == 0)
        return 0;
    gp_chunk_span *spans = malloc(n_spans * sizeof(*spans));
    if (!spans) {
        snprintf(err, errlen, "out of memory for %llu chunk hashes", (unsigned long long)chunks);
        return -1;
    }
    uint64_t c = 0;
    size_t k = 0;
    for (size_t i = 0; i < s->n_ent; i++) {
        const gp_snap_entry *e = &s->ent[i];
        if (e->whole || !e->n_chunks)
            continue;
        spans[k++] = (gp_chunk_span){e->r.base, e->r.size, c};
        c += e->n_chunks;
    }
    s->cur = gp_chunk_dev_hash(&s->dev, spans, (unsigned)n_spans, GP_CHUNK_BYTES, chunks, err,
                               errlen);
    int r = s->cur ? 0 : -1;
    free(spans);
    if (r == 0) {
        s->stats.bytes_hashed += bytes;
        s->stats.chunks_hashed += chunks;
    }
    s->stats.t_hash += gp_now_s() - t;
    return r;
}

/* Makes e's buffer hold need slots, keeping the slots it has. */
static int grow(gp_snap_entry *e, uint64_t need, int allow_device, int allow_host, uint64_t reserve)
{
    if (need <= e->cap && e->place)
        return 0;
    uint64_t cap = e->cap ? e->cap + e->cap / 2 : need; /* first save: exactly */
    if (cap < need)
        cap = need;
    if (cap > e->n_chunks && !e->whole)
        cap = e->n_chunks;
    uint64_t buf;
    int place;
    if (alloc_buf(cap * e->slot_bytes, allow_device, allow_host, reserve, &buf, &place) != 0)
        return -1;
    if (e->place && e->cap &&
        gp_drv.cuMemcpy((CUdeviceptr)buf, (CUdeviceptr)e->buf, e->cap * e->slot_bytes) !=
            CUDA_SUCCESS) {
        free_buf(buf, place);
        return -1;
    }
    free_buf(e->buf, e->place);
    e->buf = buf;
    e->place = place;
    e->cap = (uint32_t)cap;
    return 0;
}

static CUresult copy_whole(const gp_snap_entry *e, int save)
{
    if (e->r.kind == GP_MEM_ARRAY)
        return copy_array(&e->r, (CUdeviceptr)e->buf, save);
    return save ? gp_drv.cuMemcpy((CUdeviceptr)e->buf, (CUdeviceptr)e->r.base, e->r.size)
                : gp_drv.cuMemcpy((CUdeviceptr)e->r.base, (CUdeviceptr)e->buf, e->r.size);
}

/* The tracked ranges become the store's entries: matched ones kept, new
 * ones added, the rest freed. */
static int store_update(gp_snapshot *s, const gp_range *ranges, size_t n)
{
    long *match = malloc((n ? n : 1) * sizeof(*match));
    gp_snap_entry *ent = calloc(n ? n : 1, sizeof(*ent));
    uint8_t *kept = calloc(s->n_ent ? s->n_ent : 1, 1);
    int rc = -1;
    if (!match || !ent || !kept || gp_snap_match(s->ent, s->n_ent, ranges, n, match) != 0)
        goto out;
    size_t i;
    for (i = 0; i < n; i++) {
        if (match[i] >= 0) {
            ent[i] = s->ent[match[i]];
            kept[match[i]] = 1;
        } else if (gp_snap_entry_init(&ent[i], &ranges[i], GP_CHUNK_BYTES) != 0) {
            break;
        } else {
            s->stats.ranges_new++;
        }
    }
    if (i < n) { /* out of memory: give back what was made */
        for (size_t j = 0; j < i; j++)
            if (match[j] < 0)
                entry_free(&ent[j]);
        goto out;
    }
    for (size_t j = 0; j < s->n_ent; j++)
        if (!kept[j]) {
            entry_free(&s->ent[j]);
            s->stats.ranges_dropped++;
        }
    free(s->ent);
    s->ent = ent;
    s->n_ent = n;
    ent = NULL;
    rc = 0;
out:
    free(match);
    free(ent);
    free(kept);
    return rc;
}

/* What a save or a restore plans with: an action per chunk and the runs of
 * chunks they make, sized for the entry with the most chunks. */
typedef struct {
    uint8_t *act;
    gp_snap_run *runs;
} plan_buf;

static int plan_alloc(const gp_snapshot *s, plan_buf *p, char *err, size_t errlen)
{
    uint64_t m = 1;
    for (size_t i = 0; i < s->n_ent; i++)
        if (s->ent[i].n_chunks > m)
            m = s->ent[i].n_chunks;
    p->act = malloc(m);
    p->runs = malloc(m * sizeof(*p->runs));
    if (p->act && p->runs)
        return 0;
    snprintf(err, errlen, "out of memory for the snapshot's plan");
    return -1;
}

static void plan_free(plan_buf *p)
{
    free(p->act);
    free(p->runs);
}

/* Waits for the copies issued up to the range at; -1 with the range named
 * (doing: "saving" or "restoring") when one of them failed. */
static int copies_done(CUresult r, const gp_snap_entry *at, const char *doing, char *err,
                       size_t errlen)
{
    if (r == CUDA_SUCCESS)
        r = gp_drv.cuCtxSynchronize();
    if (r == CUDA_SUCCESS)
        return 0;
    snprintf(err, errlen, "%s the range at 0x%llx failed: %s", doing,
             at ? (unsigned long long)at->r.base : 0ull, gp_driver_strerror(r));
    return -1;
}

static void store_place(gp_snapshot *s)
{
    s->stats.store_device_bytes = s->stats.store_host_bytes = 0;
    for (size_t i = 0; i < s->n_ent; i++) {
        const gp_snap_entry *e = &s->ent[i];
        uint64_t b = (uint64_t)e->cap * e->slot_bytes;
        if (e->place == GP_SNAP_IN_DEVICE)
            s->stats.store_device_bytes += b;
        else if (e->place == GP_SNAP_IN_HOST)
            s->stats.store_host_bytes += b;
    }
    s->place = s->stats.store_host_bytes ? GP_SNAP_IN_HOST : GP_SNAP_IN_DEVICE;
}

static int save_incremental(gp_snapshot *s, const gp_range *ranges, size_t n, int allow_device,
                            int allow_host, uint64_t reserve, char *err, size_t errlen)
{
    if (store_update(s, ranges, n) != 0) {
        snprintf(err, errlen, "out of memory for the snapshot's list of %zu ranges", n);
        return -1;
    }
    if (hash_all(s, err, errlen) != 0)
        return -1;
    double t = gp_now_s();
    plan_buf p;
    int rc = -1;
    uint64_t c = 0;
    CUresult r = CUDA_SUCCESS;
    const gp_snap_entry *at = NULL;
    if (plan_alloc(s, &p, err, errlen) != 0)
        goto out;
    for (size_t i = 0; i < s->n_ent && r == CUDA_SUCCESS; i++) {
        gp_snap_entry *e = &s->ent[i];
        at = e;
        if (e->whole) {
            if (!e->r.size)
                continue;
            if (grow(e, 1, allow_device, allow_host, reserve) != 0)
                goto no_room;
            r = copy_whole(e, 1);
            s->stats.bytes_to_store += e->r.size;
            continue;
        }
        const gp_chunk_digest *now = s->cur + c;
        c += e->n_chunks;
        long need = gp_snap_plan_save(e, now, p.act);
        if (need > 0 && grow(e, (uint64_t)need, allow_device, allow_host, reserve) != 0)
            goto no_room;
        const gp_snap_run *runs = p.runs;
        size_t nr = gp_snap_runs(e, p.act, p.runs);
        for (size_t k = 0; k < nr && r == CUDA_SUCCESS; k++) {
            if (runs[k].action == GP_CH_ZERO) {
                s->stats.chunks_zero_tagged += runs[k].count;
                continue;
            }
            r = gp_drv.cuMemcpy((CUdeviceptr)(e->buf + runs[k].slot * e->slot_bytes),
                                (CUdeviceptr)(e->r.base + runs[k].offset), runs[k].bytes);
            s->stats.chunks_saved += runs[k].count;
            s->stats.bytes_to_store += runs[k].bytes;
        }
        gp_snap_commit(e, now, p.act);
        if (!e->dig) {
            snprintf(err, errlen, "out of memory for the snapshot's chunk hashes");
            goto out;
        }
    }
    if (copies_done(r, at, "saving", err, errlen) != 0)
        goto out;
    store_place(s);
    rc = 0;
    goto out;
no_room:
    snprintf(err, errlen,
             "no room for a replay snapshot of a %.1f MB range (device: free memory minus the %.0f "
             "MB reserve is too small%s)",
             at->r.size / 1e6, reserve / 1e6,
             allow_host ? "; pinned host memory: allocation failed" : "");
out:
    plan_free(&p);
    if (rc != 0)
        store_clear(s); /* never keep a slot whose bytes do not match its hash */
    s->stats.t_save += gp_now_s() - t;
    return rc;
}

static int restore_incremental(gp_snapshot *s, char *err, size_t errlen)
{
    if (hash_all(s, err, errlen) != 0)
        return -1;
    double t = gp_now_s();
    plan_buf p;
    uint64_t c = 0;
    CUresult r = CUDA_SUCCESS;
    const gp_snap_entry *at = NULL;
    int rc = -1;
    if (plan_alloc(s, &p, err, errlen) != 0)
        goto out;
    for (size_t i = 0; i < s->n_ent && r == CUDA_SUCCESS; i++) {
        const gp_snap_entry *e = &s->ent[i];
        at = e;
        if (e->whole) {
            if (!e->r.size)
                continue;
            r = copy_whole(e, 0);
            s->stats.bytes_from_store += e->r.size;
            continue;
        }
        const gp_chunk_digest *now = s->cur + c;
        c += e->n_chunks;
        if (gp_snap_plan_restore(e, now, p.act) == 0)
            continue;
        const gp_snap_run *runs = p.runs;
        size_t nr = gp_snap_runs(e, p.act, p.runs);
        for (size_t k = 0; k < nr && r == CUDA_SUCCESS; k++) {
            CUdeviceptr dst = (CUdeviceptr)(e->r.base + runs[k].offset);
            if (runs[k].action == GP_CH_ZERO) {
                r = gp_drv.cuMemsetD8(dst, 0, runs[k].bytes);
                s->stats.chunks_zeroed += runs[k].count;
                s->stats.bytes_zeroed += runs[k].bytes;
            } else {
                r = gp_drv.cuMemcpy(dst, (CUdeviceptr)(e->buf + runs[k].slot * e->slot_bytes),
                                    runs[k].bytes);
                s->stats.chunks_restored += runs[k].count;
                s->stats.bytes_from_store += runs[k].bytes;
            }
        }
    }
    if (copies_done(r, at, "restoring", err, errlen) != 0)
        goto out;
    rc = 0;
out:
    plan_free(&p);
    s->stats.t_restore += gp_now_s() - t;
    return rc;
}

/* ---- GPUPROF_SNAPSHOT_VERIFY: every byte against the saved copy, on the
 * host with memcmp, so that the check shares no code with the hashing it
 * checks ---- */

#define GP_VERIFY_WARNINGS 8

static void mismatch(gp_snapshot *s, const gp_range *r, uint64_t offset)
{
    if (s->stats.verify_mismatches++ < GP_VERIFY_WARNINGS)
        gp_warn("snapshot check: after a restore, the range at 0x%llx (%llu bytes) differs from "
                "its saved copy at offset %llu",
                (unsigned long long)r->base, (unsigned long long)r->size,
                (unsigned long long)offset);
}

static uint64_t first_diff(const unsigned char *a, const unsigned char *b, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (a[i] != (b ? b[i] : 0))
            return i;
    return n;
}

/* Reads n bytes of memory (or of the array r) at src into host memory. */
static CUresult read_host(void *dst, const gp_range *r, uint64_t src, uint64_t n)
{
    if (r && r->kind == GP_MEM_ARRAY)
        return copy_array(r, (CUdeviceptr)(uintptr_t)dst, 1);
    return gp_drv.cuMemcpy((CUdeviceptr)(uintptr_t)dst, (CUdeviceptr)src, n);
}

/* Compares the range r with n saved bytes at saved (0: all zero) from
 * offset off.  a and b hold n bytes.  Returns 0, or -1 when a read failed. */
static int verify_piece(gp_snapshot *s, const gp_range *r, uint64_t off, uint64_t saved, uint64_t n,
                        unsigned char *a, unsigned char *b)
{
    const gp_range *whole = r->kind == GP_MEM_ARRAY ? r : NULL;
    if (read_host(a, whole, r->base + off, n) != CUDA_SUCCESS ||
        (saved && read_host(b, NULL, saved, n) != CUDA_SUCCESS))
        return -1;
    uint64_t d = first_diff(a, saved ? b : NULL, n);
    if (d < n)
        mismatch(s, r, off + d);
    return 0;
}

static void verify(gp_snapshot *s)
{
    double t = gp_now_s();
    uint64_t big = GP_CHUNK_BYTES;
    if (s->use_full) {
        for (size_t i = 0; i < s->n; i++)
            big = s->ranges[i].size > big ? s->ranges[i].size : big;
    } else {
        for (size_t i = 0; i < s->n_ent; i++)
            if (s->ent[i].whole && s->ent[i].r.size > big)
                big = s->ent[i].r.size;
    }
    unsigned char *a = malloc(big), *b = malloc(big);
    int failed = !a || !b;
    uint64_t off = 0;
    for (size_t i = 0; s->use_full && !failed && i < s->n; i++) {
        failed = verify_piece(s, &s->ranges[i], 0, slot(s, off), s->ranges[i].size, a, b) != 0;
        off += s->ranges[i].size;
    }
    for (size_t i = 0; !s->use_full && !failed && i < s->n_ent; i++) {
        const gp_snap_entry *e = &s->ent[i];
        if (e->whole) {
            failed = verify_piece(s, &e->r, 0, e->buf, e->r.size, a, b) != 0;
            continue;
        }
        for (uint64_t c = 0; c < e->n_chunks && !failed; c++) {
            uint64_t saved = e->slot[c] == GP_SNAP_SLOT_NONE ? 0 : e->buf + e->slot[c] * e->slot_bytes;
            failed = verify_piece(s, &e->r, c * e->chunk_bytes, saved,
                                  gp_chunk_len(e->r.size, e->chunk_bytes, c), a, b) != 0;
        }
    }
    if (failed)
        gp_log_once(GP_LOG_WARN, "snapshot-verify",
                    "snapshot check: could not read memory back to compare it");
    free(a);
    free(b);
    s->stats.t_verify += gp_now_s() - t;
}

/* ---- the interface ---- */

static int save_full_timed(gp_snapshot *s, uint64_t total, int allow_device, int allow_host,
                           uint64_t reserve_bytes, char *err, size_t errlen)
{
    double t = gp_now_s();
    int r = save_full(s, total, allow_device, allow_host, reserve_bytes, err, errlen);
    s->stats.t_save += gp_now_s() - t;
    if (r != 0)
        s->bytes = 0; /* nothing saved: a restore must not write anything */
    return r;
}

void gp_snapshot_configure(gp_snapshot *s, int incremental, int verify_on)
{
    s->full = !incremental;
    s->verify = verify_on;
}

int gp_snapshot_save(gp_snapshot *s, const gp_range *ranges, size_t n, uint64_t total,
                     int allow_device, int allow_host, uint64_t reserve_bytes, char *err,
                     size_t errlen)
{
    memset(&s->stats, 0, sizeof(s->stats));
    s->place = GP_SNAP_IN_NONE;
    s->ranges = ranges;
    s->n = n;
    s->bytes = total;
    s->reserve = reserve_bytes;
    s->stats.ranges = n;
    s->stats.bytes_tracked = total;
    s->use_full = s->full || s->dev.failed;
    if (s->use_full) {
        store_clear(s);
        return save_full_timed(s, total, allow_device, allow_host, reserve_bytes, err, errlen);
    }
    free_full(s);
    s->stats.incremental = 1;
    if (save_incremental(s, ranges, n, allow_device, allow_host, reserve_bytes, err, errlen) == 0)
        return 0;
    if (!s->dev.failed) {
        s->bytes = 0; /* nothing saved: a restore must not write anything */
        return -1;
    }
    /* the hash kernel cannot run here: full copies from now on */
    gp_log_once(GP_LOG_WARN, "snapshot-hash", "%s; replay snapshots copy all tracked memory", err);
    s->use_full = 1;
    s->stats.incremental = 0;
    store_clear(s);
    return save_full_timed(s, total, allow_device, allow_host, reserve_bytes, err, errlen);
}

int gp_snapshot_restore(gp_snapshot *s, char *err, size_t errlen)
{
    if (s->bytes == 0)
        return 0;
    int r;
    s->stats.restores++;
    if (s->use_full) {
        double t = gp_now_s();
        r = copy_all(s, 0, err, errlen);
        s->stats.t_restore += gp_now_s() - t;
        if (r == 0)
            s->stats.bytes_from_store += s->bytes;
    } else {
        r = restore_incremental(s, err, errlen);
    }
    if (r == 0 && s->verify)
        verify(s);
    return r;
}

/* A device store entry moves to pinned host memory; one that cannot is
 * dropped (the next save takes it anew). */
static void move_to_host(gp_snap_entry *e)
{
    uint64_t bytes = (uint64_t)e->cap * e->slot_bytes;
    void *h = NULL;
    if (gp_drv.cuMemAllocHost(&h, bytes) == CUDA_SUCCESS &&
        gp_drv.cuMemcpy((CUdeviceptr)(uintptr_t)h, (CUdeviceptr)e->buf, bytes) == CUDA_SUCCESS) {
        gp_drv.cuMemFree((CUdeviceptr)e->buf);
        e->buf = (uint64_t)(uintptr_t)h;
        e->place = GP_SNAP_IN_HOST;
        return;
    }
    if (h)
        gp_drv.cuMemFreeHost(h);
    gp_range r = e->r;
    entry_free(e);
    gp_snap_entry_init(e, &r, GP_CHUNK_BYTES); /* empty: everything copied next time */
}

void gp_snapshot_end_launch(gp_snapshot *s)
{
    s->ranges = NULL; /* borrowed for the launch only */
    s->n = 0;
    free_full(s);
    size_t free_b = 0, total_b = 0;
    if (!s->n_ent || gp_drv.cuMemGetInfo(&free_b, &total_b) != CUDA_SUCCESS || free_b >= s->reserve)
        return;
    for (size_t i = 0; i < s->n_ent && free_b < s->reserve; i++) {
        gp_snap_entry *e = &s->ent[i];
        if (e->place != GP_SNAP_IN_DEVICE)
            continue;
        move_to_host(e);
        if (gp_drv.cuMemGetInfo(&free_b, &total_b) != CUDA_SUCCESS)
            break;
    }
}

void gp_snapshot_free(gp_snapshot *s)
{
    free_full(s);
    store_clear(s);
    gp_chunk_dev_free(&s->dev);
    s->cur = NULL; /* dev's buffer, freed with it */
}
