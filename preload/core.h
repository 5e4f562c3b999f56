/* core.h - what gpuprof does with each event the CUDA boundary reports.
 * callbacks.c turns CUPTI callback data into these calls; nothing here sees
 * a CUPTI type.  Every entry point is cheap when the event is not profiled. */
#ifndef GP_CORE_H
#define GP_CORE_H

#include <cuda.h>
#include <stdint.h>

#include "replay/replay.h"

typedef struct gp_launch_event {
    CUcontext ctx;
    uint32_t ctx_id;
    const char *symbol; /* mangled name, from CUPTI */
    const char *api;    /* driver entry point name */
    int per_thread_stream;
    uint64_t correlation;
    unsigned cluster[3];
    gp_launch_exec exec;
    int graph_step; /* a kernel of a graph that gpuprof runs itself, before the graph */
} gp_launch_event;

/* Start-up: reads the configuration once (errors are kept until CUDA starts).
 * Returns 0, or -1 when out of memory. */
int gp_core_init(void);
/* Called once CUDA is initialized: reports configuration errors (then
 * returns -1: gpuprof stays out), loads the driver table. */
int gp_core_cuda_ready(void);
void gp_core_shutdown(void);
/* GPUPROF_CROSSCHECK: count executions from activity records too (for the
 * first launches: the window, -1 = all; 0 = off). */
long gp_core_crosscheck(void);
/* The boundary could not turn activity records on: no cross-check. */
void gp_core_crosscheck_unavailable(void);
/* The configuration read at start-up (for the boundary's subscriptions). */
struct gp_config;
const struct gp_config *gp_core_config(void);
/* True when the configuration is valid and NVTX expressions select
 * launches: the boundary must then see the program's NVTX calls. */
int gp_core_wants_nvtx(void);

/* What the policy needs from the CUPTI boundary, handed over once it has
 * subscribed (the boundary calls the core, never the reverse).  Until then
 * activity tracing is off and every stream id is 0. */
typedef struct gp_core_boundary {
    /* pauses (0) or resumes (1) kernel activity records around a profiled
     * launch; stops them for good (-1) once the cross-check's window is full */
    void (*tracing)(int on);
    /* CUPTI's id of a stream (per_thread: the per-thread default stream) */
    uint64_t (*stream_id)(CUcontext ctx, CUstream stream, int per_thread);
} gp_core_boundary;
void gp_core_set_boundary(const gp_core_boundary *b);

/* The calls made by the profiler itself re-enter the callbacks: this
 * thread-local flag tells the boundary to ignore them. */
int gp_core_in_profiler(void);

/* Kernel launches.  *slot is per-call storage kept between enter and exit. */
void gp_core_launch_enter(const gp_launch_event *ev, uint64_t *slot);
void gp_core_launch_exit(const gp_launch_event *ev, CUresult status, uint64_t *slot);
/* A launch the profiler saw but does not profile by design: a graph launch,
 * or a legacy launch API it cannot replay. */
void gp_core_launch_unprofilable(const char *what, int is_graph);
/* Graphs: plans taken at instantiation, forgotten at destruction, dropped
 * when the executable graph is changed; at launch, the chosen kernels are
 * profiled by running the plan's steps before the graph (graph_plan.h). */
void gp_core_graph_instantiated(CUgraphExec exec, CUgraph graph);
void gp_core_graph_forget(CUgraphExec exec);
void gp_core_graph_changed(CUgraphExec exec, const char *api);
void gp_core_graph_launch(CUgraphExec exec, CUstream stream, CUcontext ctx, uint32_t ctx_id);
/* Launches the profiler made itself (replay passes). */
void gp_core_count_internal_launch(void);

/* Any other tracked API call (memory): waits while a launch is profiled. */
void gp_core_api_enter(uint64_t *slot);
void gp_core_api_exit(uint64_t *slot);

void gp_core_mem_alloc(uint64_t base, uint64_t size, int kind, CUcontext ctx);
/* A surface-writable CUDA array (saved and restored like memory). */
void gp_core_array_alloc(uint64_t handle, uint64_t row_bytes, uint64_t rows, uint64_t layers,
                         CUcontext ctx);
void gp_core_array_free(uint64_t handle);
/* cuMemMap of the physical allocation `handle`. */
void gp_core_vmm_map(uint64_t base, uint64_t size, uint64_t handle, CUcontext ctx);
/* Memory shared with other processes (addr: cuIpcGetMemHandle; handle: a
 * physical allocation exported or imported): never saved or restored. */
void gp_core_mem_shared(uint64_t addr, uint64_t handle);
/* cuCtxEnablePeerAccess (on = 1) / cuCtxDisablePeerAccess from context `ctx`:
 * its kernels may touch `peer`'s memory, which its snapshots then include. */
void gp_core_peer_access(CUcontext ctx, CUcontext peer, int on);
void gp_core_mem_free(uint64_t base);
void gp_core_mem_write(uint64_t dst, uint64_t bytes);
void gp_core_memop_seen(int kind); /* 0 alloc, 1 free, 2 copy, 3 set */

void gp_core_module_loaded(const void *cubin, size_t size);
void gp_core_context_destroying(CUcontext ctx);

/* The second source of truth: kernel executions reported by CUPTI's
 * activity records (correlation id, duration, name). */
typedef struct gp_activity_kernel {
    uint64_t correlation, start_ns, end_ns;
    const char *name; /* valid during the call */
    int in_graph;
} gp_activity_kernel;
/* Kernel executions from CUPTI activity records, n at a time (one lock). */
void gp_core_activity_kernels(const gp_activity_kernel *k, size_t n);

#endif
