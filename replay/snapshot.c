/* snapshot.c - see snapshot.h.  Every copy goes through cuMemcpy (unified
 * addressing), which handles device, managed and pinned host ranges alike
 * (CUDA arrays: cuMemcpy3D, rows packed in the buffer);
 * a context synchronize follows, since device-to-device copies do not block
 * the host and the program's streams may not be ordered with the default
 * stream. */
#include "replay/snapshot.h"

#include <stdio.h>
#include <string.h>

#include "replay/driver.h"

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
    if (gp_drv.cuMemAlloc(&s->dev_buf, total) != CUDA_SUCCESS) {
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

int gp_snapshot_save(gp_snapshot *s, const gp_range *ranges, size_t n, uint64_t total,
                     int allow_device, int allow_host, uint64_t reserve_bytes, char *err,
                     size_t errlen)
{
    s->place = GP_SNAP_IN_NONE;
    s->ranges = ranges;
    s->n = n;
    s->bytes = total;
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
    return 0;
}

int gp_snapshot_restore(gp_snapshot *s, char *err, size_t errlen)
{
    if (s->bytes == 0)
        return 0;
    return copy_all(s, 0, err, errlen);
}

void gp_snapshot_free(gp_snapshot *s)
{
    if (s->dev_buf)
        gp_drv.cuMemFree(s->dev_buf);
    if (s->host_buf)
        gp_drv.cuMemFreeHost(s->host_buf);
    s->dev_buf = 0;
    s->host_buf = NULL;
    s->dev_cap = s->host_cap = 0;
}
