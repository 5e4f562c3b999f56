/* alloc_track.h - the device memory a kernel may touch: every allocation the
 * program made (any kind), every __device__ global of the loaded modules, and
 * what the host wrote into them.  Lookup by any address inside a range.
 * Thread-safe. */
#ifndef GP_ALLOC_TRACK_H
#define GP_ALLOC_TRACK_H

#include <stddef.h>
#include <stdint.h>

enum gp_mem_kind {
    GP_MEM_DEVICE,  /* cuMemAlloc / cudaMalloc */
    GP_MEM_PITCH,   /* cuMemAllocPitch */
    GP_MEM_ASYNC,   /* cuMemAllocAsync, pools */
    GP_MEM_MANAGED, /* cuMemAllocManaged */
    GP_MEM_HOST,    /* pinned/mapped/registered host memory a kernel can reach */
    GP_MEM_VMM,     /* cuMemMap ranges */
    GP_MEM_GLOBAL,  /* __device__ variables */
    GP_MEM_ARRAY,   /* CUDA arrays kernels can write (surface load/store); base = the CUarray */
    GP_MEM_KINDS
};

typedef struct gp_range {
    uint64_t base, size;
    int kind;
    uint64_t row_bytes, rows, layers; /* GP_MEM_ARRAY: its shape, size = their product */
} gp_range;

typedef struct gp_alloc_table gp_alloc_table;

gp_alloc_table *gp_alloc_table_create(void);
void gp_alloc_table_destroy(gp_alloc_table *t);

/* Adds [base, base+size) for context `ctx`.  A range with the same base is
 * replaced.  Returns 0, or -1 when out of memory. */
int gp_alloc_add(gp_alloc_table *t, uint64_t base, uint64_t size, int kind, uint64_t ctx);
/* A CUDA array kernels can write through surfaces: rows of row_bytes, rows
 * per layer, layers (depth, layers or cubemap faces; at least 1 each).  Kept
 * apart from the address ranges (a handle is not an address); collected with
 * them.  Returns 0, or -1 when out of memory or the shape is empty. */
int gp_alloc_add_array(gp_alloc_table *t, uint64_t handle, uint64_t row_bytes, uint64_t rows,
                       uint64_t layers, uint64_t ctx);
int gp_alloc_remove_array(gp_alloc_table *t, uint64_t handle);
/* Bytes per element of a CUDA array format (CUarray_format) with `channels`
 * (1, 2 or 4); 0 for formats gpuprof does not save (planar, compressed,
 * packed video formats). */
unsigned gp_array_element_bytes(int format, unsigned channels);

/* A cuMemMap range of the physical allocation `handle`; left out of
 * collections when that allocation is shared with other processes
 * (gp_alloc_share_handle, before or after the mapping).  Returns 0 or -1. */
int gp_alloc_add_vmm(gp_alloc_table *t, uint64_t base, uint64_t size, uint64_t handle,
                     uint64_t ctx);
/* Memory other processes write or own: the allocation containing addr
 * (exported with cuIpcGetMemHandle), or every mapping of the physical
 * allocation `handle` (exported or imported as a shareable handle).  Left
 * out of gp_alloc_collect: a restore must not undo what another process
 * wrote meanwhile (NCCL's buffers).  Returns 0, or -1 when out of memory. */
int gp_alloc_share(gp_alloc_table *t, uint64_t addr);
int gp_alloc_share_handle(gp_alloc_table *t, uint64_t handle);

/* Removes the range that starts at base.  Returns 0, or -1 if none does. */
int gp_alloc_remove(gp_alloc_table *t, uint64_t base);
/* Finds the range containing addr; fills *out.  Returns 0 or -1. */
int gp_alloc_find(gp_alloc_table *t, uint64_t addr, gp_range *out);
/* Records that the host wrote `bytes` at addr (copy or memset).  Returns 0 if
 * addr is tracked, -1 otherwise. */
int gp_alloc_note_host_write(gp_alloc_table *t, uint64_t addr, uint64_t bytes);
/* Bytes the host wrote into the range starting at base (0 when none). */
uint64_t gp_alloc_host_written(gp_alloc_table *t, uint64_t base);
/* Copies the ranges of context ctx (all contexts when ctx == 0), those of
 * the contexts ctx has peer access to, and all
 * managed and host ranges (reachable from any context) into out,
 * sorted by address, then the context's arrays; returns how many there are (may exceed max: call again
 * with more room).  *total gets their byte sum. */
size_t gp_alloc_collect(gp_alloc_table *t, uint64_t ctx, gp_range *out, size_t max,
                        uint64_t *total);
size_t gp_alloc_count(gp_alloc_table *t);
/* Peer access from context `from` to the memory of context `to` turned on
 * (on = 1) or off: a kernel in `from` may then touch `to`'s memory, which
 * gp_alloc_collect(from) includes.  to = 0 with on = 0: every link of `from`
 * is forgotten (the context is gone).  Returns 0, or -1 when out of memory. */
int gp_alloc_peer_access(gp_alloc_table *t, uint64_t from, uint64_t to, int on);
/* The contexts linked to ctx by peer access in either direction (their work
 * can touch ctx's memory or ctx's kernels theirs), each once, into out[0..max);
 * returns how many there are. */
size_t gp_alloc_peers_of(gp_alloc_table *t, uint64_t ctx, uint64_t *out, size_t max);

#endif
