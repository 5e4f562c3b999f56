/* kernels.h - the kernel tables: each (handle, context) seen at a launch with
 * its name (demangled once, the name filters decided once) and attributes;
 * the machine code and __device__ variables of every loaded module. */
#ifndef GP_KERNELS_H
#define GP_KERNELS_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#include "preload/core_state.h"

/* The launch's kernel, added at its first launch.  NULL when out of memory.
 * Caller holds state_lock. */
gp_kernel *gp_kernels_lookup(const gp_launch_event *ev);
/* Reads the kernel's attributes once (the driver is asked).  Runs under the
 * exclusive launch lock with the guard raised. */
void gp_kernels_attrs(gp_kernel *k);
/* Adds the addresses of every known __device__ variable that module `mod`
 * holds to the allocation table, once per module and cubin generation.
 * Caller holds the exclusive launch lock, the guard and state_lock. */
void gp_kernels_resolve_globals(CUmodule mod, CUcontext ctx);
/* A kernel's machine code by mangled name (gp_code_lookup), or NULL.  Takes
 * state_lock. */
const uint8_t *gp_kernels_code(const char *function, size_t *size, void *arg);
/* Forgets the kernels of a context that is going away.  Caller holds
 * state_lock. */
void gp_kernels_forget(CUcontext ctx);

#endif
