/* memory.c - the program's memory operations (core.h): allocations, frees
 * and host writes into the allocation table the snapshot saves, and the
 * operation counts of the summary. */
#include "preload/core_state.h"
#include "util/log.h"

/* rc: an allocation table call's result; -1 (out of memory) is said once */
static void tracked(int rc)
{
    if (rc != 0)
        gp_log_once(GP_LOG_WARN, "alloc-oom",
                    "out of memory tracking an allocation; replays may not restore it");
}

void gp_core_mem_alloc(uint64_t base, uint64_t size, int kind, CUcontext ctx)
{
    if (!gp_core.active || !base)
        return;
    tracked(gp_alloc_add(gp_core.allocs, base, size, kind, (uint64_t)(uintptr_t)ctx));
}

void gp_core_array_alloc(uint64_t handle, uint64_t row_bytes, uint64_t rows, uint64_t layers,
                         CUcontext ctx)
{
    if (!gp_core.active || !handle)
        return;
    tracked(gp_alloc_add_array(gp_core.allocs, handle, row_bytes, rows, layers,
                               (uint64_t)(uintptr_t)ctx));
}

void gp_core_array_free(uint64_t handle)
{
    if (gp_core.active && handle)
        gp_alloc_remove_array(gp_core.allocs, handle);
}

void gp_core_mem_free(uint64_t base)
{
    if (gp_core.active && base)
        gp_alloc_remove(gp_core.allocs, base);
}

void gp_core_vmm_map(uint64_t base, uint64_t size, uint64_t handle, CUcontext ctx)
{
    if (!gp_core.active || !base)
        return;
    tracked(gp_alloc_add_vmm(gp_core.allocs, base, size, handle, (uint64_t)(uintptr_t)ctx));
}

void gp_core_mem_shared(uint64_t addr, uint64_t handle)
{
    if (!gp_core.active)
        return;
    if (addr)
        gp_alloc_share(gp_core.allocs, addr);
    if (handle)
        gp_alloc_share_handle(gp_core.allocs, handle);
    gp_log_once(GP_LOG_INFO, "shared-memory",
                "memory shared with other processes (CUDA IPC, shareable handles) is left out "
                "of replay snapshots: another process may write it at any time");
}

void gp_core_peer_access(CUcontext ctx, CUcontext peer, int on)
{
    if (!gp_core.active || !ctx || !peer)
        return;
    tracked(gp_alloc_peer_access(gp_core.allocs, (uint64_t)(uintptr_t)ctx,
                                 (uint64_t)(uintptr_t)peer, on));
}

void gp_core_mem_write(uint64_t dst, uint64_t bytes)
{
    if (gp_core.active && dst)
        gp_alloc_note_host_write(gp_core.allocs, dst, bytes);
}

void gp_core_memop_seen(int kind)
{
    if (!gp_core.active)
        return;
    atomic_fetch_add(&gp_core.summary.memops[kind & 3], 1);
}
