/* callbacks.c - the CUPTI boundary: subscribes to the driver API and resource
 * callbacks, turns CUPTI's callback data into core calls, and reads the
 * activity records that count what the GPU executed.
 *
 * Driver-API callbacks fire inside libcuda however the program reached the
 * entry point: shared or static cudart, a driver-API program, or a handle from
 * cuGetProcAddress.  Each handler only translates and forwards. */
#define _GNU_SOURCE
#include "preload/callbacks.h"

#include <cupti.h>
#include <dlfcn.h>
#include <generated_nvtx_meta.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "preload/config.h"
#include "preload/core.h"
#include "preload/ranges.h"
#include "replay/alloc_track.h"
#include "util/log.h"

static CUpti_SubscriberHandle subscriber;
static void tracing(int on);
static int activity_on;      /* kernel records were turned on (flushed at exit) */
static int activity_stopped; /* the cross-check's window is full: never resumed */
static char nvtx_injection_why[768]; /* why NVTX calls will not reach gpuprof, "" if they will */

/* What each driver callback id is, found once from CUPTI's own names. */
enum cb_class {
    CB_OTHER = 0,
    CB_LAUNCH,
    CB_GRAPH_LAUNCH,
    CB_GRAPH_INSTANTIATE,
    CB_GRAPH_EXEC_DESTROY,
    CB_GRAPH_EXEC_CHANGE,
    CB_ALLOC,
    CB_FREE,
    CB_COPY,
    CB_SET,
    CB_PROFILER_START,
    CB_PROFILER_STOP,
    CB_PEER,
    CB_SHARE
};
static unsigned char cb_class_of[CUPTI_DRIVER_TRACE_CBID_SIZE];

static int starts_with(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static int classify(const char *name)
{
    if (starts_with(name, "cuLaunchKernel") || starts_with(name, "cuLaunchCooperativeKernel"))
        return strstr(name, "MultiDevice") ? CB_OTHER : CB_LAUNCH;
    if (starts_with(name, "cuGraphLaunch"))
        return CB_GRAPH_LAUNCH;
    if (starts_with(name, "cuGraphInstantiate"))
        return CB_GRAPH_INSTANTIATE;
    if (starts_with(name, "cuGraphExecDestroy"))
        return CB_GRAPH_EXEC_DESTROY;
    if ((starts_with(name, "cuGraphExec") &&
         (strstr(name, "SetParams") || strstr(name, "Update"))) ||
        starts_with(name, "cuGraphNodeSetEnabled"))
        return CB_GRAPH_EXEC_CHANGE;
    if (starts_with(name, "cuMemAlloc") || starts_with(name, "cuMemHostAlloc") ||
        starts_with(name, "cuMemHostRegister") || starts_with(name, "cuMemMap"))
        return starts_with(name, "cuMemMapArray") ? CB_OTHER : CB_ALLOC;
    if (starts_with(name, "cuArray3DCreate"))
        return CB_ALLOC;
    if (starts_with(name, "cuMemFree") || starts_with(name, "cuMemHostUnregister") ||
        starts_with(name, "cuMemUnmap") || starts_with(name, "cuArrayDestroy"))
        return CB_FREE;
    if (starts_with(name, "cuMemcpy"))
        return CB_COPY;
    if (starts_with(name, "cuMemset"))
        return CB_SET;
    if (starts_with(name, "cuCtxEnablePeerAccess") || starts_with(name, "cuCtxDisablePeerAccess"))
        return CB_PEER;
    if (starts_with(name, "cuIpcGetMemHandle") || starts_with(name, "cuMemExportToShareableHandle") ||
        starts_with(name, "cuMemImportFromShareableHandle"))
        return CB_SHARE;
    if (starts_with(name, "cuProfilerStart"))
        return CB_PROFILER_START;
    if (starts_with(name, "cuProfilerStop"))
        return CB_PROFILER_STOP;
    return CB_OTHER;
}

static uint64_t stream_id(CUcontext ctx, CUstream stream, int per_thread)
{
    uint32_t id = 0;
    if (cuptiGetStreamIdEx(ctx, stream, (uint8_t)per_thread, &id) != CUPTI_SUCCESS)
        return 0;
    return id;
}

/* ---- launches ---------------------------------------------------------- */

static int launch_event(CUpti_CallbackId cbid, const CUpti_CallbackData *cb, gp_launch_event *ev)
{
    memset(ev, 0, sizeof(*ev));
    ev->ctx = cb->context;
    ev->ctx_id = cb->contextUid;
    ev->symbol = cb->symbolName;
    ev->api = cb->functionName;
    ev->correlation = cb->correlationId;
    gp_launch_exec *e = &ev->exec;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
        const cuLaunchKernel_params *p = cb->functionParams;
        e->api = GP_API_LAUNCH_KERNEL;
        e->f = p->f;
        GP_EXEC_SET_SHAPE(e, p);
        e->stream = p->hStream;
        e->params = p->kernelParams;
        e->extra = p->extra;
        ev->per_thread_stream = cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz;
        return 0;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
        const cuLaunchCooperativeKernel_params *p = cb->functionParams;
        e->api = GP_API_LAUNCH_COOPERATIVE;
        e->f = p->f;
        GP_EXEC_SET_SHAPE(e, p);
        e->stream = p->hStream;
        e->params = p->kernelParams;
        ev->per_thread_stream = cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
        return 0;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
        const cuLaunchKernelEx_params *p = cb->functionParams;
        const CUlaunchConfig *c = p->config;
        if (!c)
            return -1;
        e->api = GP_API_LAUNCH_KERNEL_EX;
        e->f = p->f;
        e->config = c;
        GP_EXEC_SET_SHAPE(e, c);
        e->stream = c->hStream;
        e->params = p->kernelParams;
        e->extra = p->extra;
        for (unsigned i = 0; c->attrs && i < c->numAttrs; i++) {
            if (c->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
                ev->cluster[0] = c->attrs[i].value.clusterDim.x;
                ev->cluster[1] = c->attrs[i].value.clusterDim.y;
                ev->cluster[2] = c->attrs[i].value.clusterDim.z;
            }
        }
        ev->per_thread_stream = cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz;
        return 0;
    }
    default:
        return -1; /* legacy cuLaunch/cuLaunchGrid: counted, not replayed */
    }
}

/* ---- memory -------------------------------------------------------------- */

static void on_alloc_exit(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    const void *a = cb->functionParams;
    CUcontext ctx = cb->context;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2: {
        const cuMemAlloc_v2_params *p = a;
        gp_core_mem_alloc(*p->dptr, p->bytesize, GP_MEM_DEVICE, ctx);
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2: {
        const cuMemAllocPitch_v2_params *p = a;
        gp_core_mem_alloc(*p->dptr, (uint64_t)*p->pPitch * p->Height, GP_MEM_PITCH, ctx);
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged: {
        const cuMemAllocManaged_params *p = a;
        gp_core_mem_alloc(*p->dptr, p->bytesize, GP_MEM_MANAGED, ctx);
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz: {
        const cuMemAllocAsync_params *p = a;
        gp_core_mem_alloc(*p->dptr, p->bytesize, GP_MEM_ASYNC, ctx);
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocFromPoolAsync_ptsz: {
        const cuMemAllocFromPoolAsync_params *p = a;
        gp_core_mem_alloc(*p->dptr, p->bytesize, GP_MEM_ASYNC, ctx);
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2: {
        const cuMemAllocHost_v2_params *p = a;
        gp_core_mem_alloc((uint64_t)(uintptr_t)*p->pp, p->bytesize, GP_MEM_HOST, ctx);
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc: {
        const cuMemHostAlloc_params *p = a;
        gp_core_mem_alloc((uint64_t)(uintptr_t)*p->pp, p->bytesize, GP_MEM_HOST, ctx);
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2: {
        const cuMemHostRegister_v2_params *p = a;
        gp_core_mem_alloc((uint64_t)(uintptr_t)p->p, p->bytesize, GP_MEM_HOST, ctx);
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuMemMap: {
        const cuMemMap_params *p = a;
        gp_core_vmm_map(p->ptr, p->size, (uint64_t)p->handle, ctx);
        break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuArray3DCreate_v2: {
        /* only arrays with surface load/store can be written by a kernel */
        const cuArray3DCreate_v2_params *p = a;
        const CUDA_ARRAY3D_DESCRIPTOR *d = p->pAllocateArray;
        if (!(d->Flags & CUDA_ARRAY3D_SURFACE_LDST))
            break;
        unsigned el = gp_array_element_bytes((int)d->Format, d->NumChannels);
        if (el == 0) {
            gp_log_once(GP_LOG_WARN, "array-format",
                        "a surface-writable CUDA array of format 0x%x is not saved for replay; "
                        "kernels that write it may see their own writes in later passes",
                        (unsigned)d->Format);
            break;
        }
        gp_core_array_alloc((uint64_t)(uintptr_t)*p->pHandle, (uint64_t)d->Width * el,
                            d->Height ? d->Height : 1, d->Depth ? d->Depth : 1, ctx);
        break;
    }
    default:
        gp_log_once(GP_LOG_INFO, cb->functionName,
                    "%s is seen but its memory is not tracked for replay", cb->functionName);
    }
}

static void on_free_enter(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    const void *a = cb->functionParams;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2:
        gp_core_mem_free(((const cuMemFree_v2_params *)a)->dptr);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz:
        gp_core_mem_free(((const cuMemFreeAsync_params *)a)->dptr);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost:
        gp_core_mem_free((uint64_t)(uintptr_t)((const cuMemFreeHost_params *)a)->p);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister:
        gp_core_mem_free((uint64_t)(uintptr_t)((const cuMemHostUnregister_params *)a)->p);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemUnmap:
        gp_core_mem_free(((const cuMemUnmap_params *)a)->ptr);
        break;
    case CUPTI_DRIVER_TRACE_CBID_cuArrayDestroy:
        gp_core_array_free((uint64_t)(uintptr_t)((const cuArrayDestroy_params *)a)->hArray);
        break;
    default:
        break;
    }
}

/* Where the 1D copies and memsets keep their destination and size: one row
 * per driver entry point (the per-thread-stream variants share the struct). */
#define W(cb, type, dst, count, unit)                                                              \
    {                                                                                              \
        CUPTI_DRIVER_TRACE_CBID_##cb, offsetof(type, dst), offsetof(type, count), unit             \
    }
static const struct {
    CUpti_CallbackId cbid;
    size_t dst, count;
    unsigned unit; /* bytes per counted element */
} write_shapes[] = {
    W(cuMemcpyHtoD_v2, cuMemcpyHtoD_v2_params, dstDevice, ByteCount, 1),
    W(cuMemcpyHtoD_v2_ptds, cuMemcpyHtoD_v2_params, dstDevice, ByteCount, 1),
    W(cuMemcpyHtoDAsync_v2, cuMemcpyHtoDAsync_v2_params, dstDevice, ByteCount, 1),
    W(cuMemcpyHtoDAsync_v2_ptsz, cuMemcpyHtoDAsync_v2_params, dstDevice, ByteCount, 1),
    W(cuMemcpyDtoD_v2, cuMemcpyDtoD_v2_params, dstDevice, ByteCount, 1),
    W(cuMemcpyDtoD_v2_ptds, cuMemcpyDtoD_v2_params, dstDevice, ByteCount, 1),
    W(cuMemcpyDtoDAsync_v2, cuMemcpyDtoDAsync_v2_params, dstDevice, ByteCount, 1),
    W(cuMemcpyDtoDAsync_v2_ptsz, cuMemcpyDtoDAsync_v2_params, dstDevice, ByteCount, 1),
    W(cuMemcpy, cuMemcpy_params, dst, ByteCount, 1),
    W(cuMemcpy_ptds, cuMemcpy_params, dst, ByteCount, 1),
    W(cuMemcpyAsync, cuMemcpyAsync_params, dst, ByteCount, 1),
    W(cuMemcpyAsync_ptsz, cuMemcpyAsync_params, dst, ByteCount, 1),
    W(cuMemsetD8_v2, cuMemsetD8_v2_params, dstDevice, N, 1),
    W(cuMemsetD8_v2_ptds, cuMemsetD8_v2_params, dstDevice, N, 1),
    W(cuMemsetD8Async, cuMemsetD8Async_params, dstDevice, N, 1),
    W(cuMemsetD8Async_ptsz, cuMemsetD8Async_params, dstDevice, N, 1),
    W(cuMemsetD32_v2, cuMemsetD32_v2_params, dstDevice, N, 4),
    W(cuMemsetD32_v2_ptds, cuMemsetD32_v2_params, dstDevice, N, 4),
    W(cuMemsetD32Async, cuMemsetD32Async_params, dstDevice, N, 4),
    W(cuMemsetD32Async_ptsz, cuMemsetD32Async_params, dstDevice, N, 4),
};
#undef W

/* Records where the program's copies and memsets wrote. */
static void on_write_exit(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    const char *a = cb->functionParams;
    for (size_t i = 0; i < sizeof(write_shapes) / sizeof(write_shapes[0]); i++) {
        if (write_shapes[i].cbid != cbid)
            continue;
        CUdeviceptr dst;
        size_t count;
        memcpy(&dst, a + write_shapes[i].dst, sizeof(dst));
        memcpy(&count, a + write_shapes[i].count, sizeof(count));
        gp_core_mem_write(dst, (uint64_t)count * write_shapes[i].unit);
        return;
    }
    const CUDA_MEMCPY2D *c = NULL; /* 2D copies describe the destination in a struct */
    if (cbid == CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2 ||
        cbid == CUPTI_DRIVER_TRACE_CBID_cuMemcpy2D_v2_ptds)
        c = ((const cuMemcpy2D_v2_params *)(const void *)a)->pCopy;
    else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2 ||
             cbid == CUPTI_DRIVER_TRACE_CBID_cuMemcpy2DAsync_v2_ptsz)
        c = ((const cuMemcpy2DAsync_v2_params *)(const void *)a)->pCopy;
    if (c && c->dstMemoryType != CU_MEMORYTYPE_HOST)
        gp_core_mem_write(c->dstDevice, (uint64_t)c->dstPitch * c->Height);
    /* other shapes (3D, arrays, peer, batches): counted only */
}

/* ---- dispatch ------------------------------------------------------------ */

static void on_driver(CUpti_CallbackId cbid, const CUpti_CallbackData *cb)
{
    if (cbid >= CUPTI_DRIVER_TRACE_CBID_SIZE)
        return;
    int cls = cb_class_of[cbid];
    int enter = cb->callbackSite == CUPTI_API_ENTER;
    if (gp_core_in_profiler()) { /* the profiler's own calls */
        if (cls == CB_LAUNCH && enter)
            gp_core_count_internal_launch();
        return;
    }
    switch (cls) {
    case CB_LAUNCH: {
        gp_launch_event ev;
        if (launch_event(cbid, cb, &ev) != 0) {
            if (enter)
                gp_core_launch_unprofilable(cb->functionName, 0);
            return;
        }
        if (enter)
            gp_core_launch_enter(&ev, cb->correlationData);
        else
            gp_core_launch_exit(&ev, *(const CUresult *)cb->functionReturnValue,
                                cb->correlationData);
        return;
    }
    case CB_GRAPH_LAUNCH:
        if (enter) {
            const cuGraphLaunch_params *p = cb->functionParams; /* _ptsz: same layout */
            gp_core_graph_launch(p->hGraph, p->hStream, cb->context, cb->contextUid);
            gp_core_api_enter(cb->correlationData);
        } else {
            gp_core_api_exit(cb->correlationData);
        }
        return;
    case CB_GRAPH_INSTANTIATE:
        /* every variant starts with (CUgraphExec *phGraphExec, CUgraph hGraph) */
        if (!enter && *(const CUresult *)cb->functionReturnValue == CUDA_SUCCESS) {
            const cuGraphInstantiateWithFlags_params *p = cb->functionParams;
            if (p->phGraphExec)
                gp_core_graph_instantiated(*p->phGraphExec, p->hGraph);
        }
        return;
    case CB_GRAPH_EXEC_DESTROY:
        if (enter)
            gp_core_graph_forget(
                ((const cuGraphExecDestroy_params *)cb->functionParams)->hGraphExec);
        return;
    case CB_GRAPH_EXEC_CHANGE: /* every such call starts with (CUgraphExec hGraphExec, ...) */
        if (!enter && *(const CUresult *)cb->functionReturnValue == CUDA_SUCCESS)
            gp_core_graph_changed(*(const CUgraphExec *)cb->functionParams, cb->functionName);
        return;
    case CB_PEER: /* both calls start with (CUcontext peerContext, ...) */
        if (!enter && *(const CUresult *)cb->functionReturnValue == CUDA_SUCCESS)
            gp_core_peer_access(cb->context,
                                ((const cuCtxEnablePeerAccess_params *)cb->functionParams)->peerContext,
                                cbid == CUPTI_DRIVER_TRACE_CBID_cuCtxEnablePeerAccess);
        return;
    case CB_SHARE: /* memory another process writes or owns */
        if (!enter && *(const CUresult *)cb->functionReturnValue == CUDA_SUCCESS) {
            if (cbid == CUPTI_DRIVER_TRACE_CBID_cuIpcGetMemHandle)
                gp_core_mem_shared(((const cuIpcGetMemHandle_params *)cb->functionParams)->dptr, 0);
            else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuMemExportToShareableHandle)
                gp_core_mem_shared(
                    0, ((const cuMemExportToShareableHandle_params *)cb->functionParams)->handle);
            else if (cbid == CUPTI_DRIVER_TRACE_CBID_cuMemImportFromShareableHandle)
                gp_core_mem_shared(
                    0, *((const cuMemImportFromShareableHandle_params *)cb->functionParams)->handle);
        }
        return;
    case CB_PROFILER_START:
    case CB_PROFILER_STOP:
        if (enter)
            gp_ranges_profiler(cls == CB_PROFILER_START);
        return;
    case CB_ALLOC:
    case CB_FREE:
    case CB_COPY:
    case CB_SET:
        if (enter) {
            gp_core_api_enter(cb->correlationData);
            gp_core_memop_seen(cls == CB_ALLOC ? 0 : cls == CB_FREE ? 1 : cls == CB_COPY ? 2 : 3);
            if (cls == CB_FREE)
                on_free_enter(cbid, cb);
            return;
        }
        if (*(const CUresult *)cb->functionReturnValue == CUDA_SUCCESS) {
            if (cls == CB_ALLOC)
                on_alloc_exit(cbid, cb);
            else if (cls == CB_COPY || cls == CB_SET)
                on_write_exit(cbid, cb);
        }
        gp_core_api_exit(cb->correlationData);
        return;
    default:
        return;
    }
}

static void on_resource(CUpti_CallbackId cbid, const CUpti_ResourceData *rd)
{
    switch (cbid) {
    case CUPTI_CBID_RESOURCE_MODULE_LOADED: {
        const CUpti_ModuleResourceData *m = rd->resourceDescriptor;
        if (m)
            gp_core_module_loaded(m->pCubin, m->cubinSize);
        break;
    }
    case CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING:
        gp_core_context_destroying(rd->context);
        break;
    default:
        break;
    }
}

/* ---- NVTX ranges ----------------------------------------------------------- */

/* The name an event's attributes carry, into buf. */
static const char *nvtx_message(const nvtxEventAttributes_t *a, char *buf, size_t len)
{
    buf[0] = '\0';
    if (!a)
        return buf;
    switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
        return a->message.ascii ? a->message.ascii : buf;
    case NVTX_MESSAGE_TYPE_UNICODE:
        if (a->message.unicode && wcstombs(buf, a->message.unicode, len - 1) == (size_t)-1)
            buf[0] = '\0';
        buf[len - 1] = '\0';
        return buf;
    case NVTX_MESSAGE_TYPE_REGISTERED:
        gp_ranges_string((uint64_t)(uintptr_t)a->message.registered, buf, len);
        return buf;
    default:
        return buf;
    }
}

static const char *nvtx_wide(const wchar_t *w, char *buf, size_t len)
{
    buf[0] = '\0';
    if (w && wcstombs(buf, w, len - 1) == (size_t)-1)
        buf[0] = '\0';
    buf[len - 1] = '\0';
    return buf;
}

static uint64_t nvtx_handle(const void *p)
{
    return (uint64_t)(uintptr_t)p;
}

static void nvtx_pop(uint64_t domain)
{
    if (gp_ranges_pop(domain) != 0)
        gp_log_once(GP_LOG_WARN, "nvtx-unseen-pop",
                    "an NVTX range was popped that gpuprof did not see pushed (ranges opened "
                    "before the program initialized CUDA are not seen); NVTX filters may miss "
                    "launches inside it");
}

/* The NVTX calls that open and close ranges: what each does and where its
 * parameters keep the domain, the name (a string, a wide string or event
 * attributes) and the range id (one row per entry point, like write_shapes). */
enum { NX_PUSH, NX_POP, NX_START, NX_END, NX_DOMAIN, NX_STRING };
enum { NX_NONE, NX_ASCII, NX_WIDE, NX_ATTR };
#define NX_NO ((size_t)-1)
#define NX(cb, op, dom, kind, msg, id)                                                             \
    {                                                                                              \
        CUPTI_CBID_NVTX_##cb, op, dom, kind, msg, id                                               \
    }
#define AT(type, field) offsetof(type, field)
static const struct {
    CUpti_CallbackId cbid;
    int op;
    size_t domain; /* offset of the domain handle, NX_NO: the default domain */
    int kind;      /* how the name is given */
    size_t name;   /* offset of the name */
    size_t id;     /* offset of the range id (end) */
} nvtx_calls[] = {
    NX(nvtxRangePushA, NX_PUSH, NX_NO, NX_ASCII, AT(nvtxRangePushA_params, message), NX_NO),
    NX(nvtxRangePushW, NX_PUSH, NX_NO, NX_WIDE, AT(nvtxRangePushW_params, message), NX_NO),
    NX(nvtxRangePushEx, NX_PUSH, NX_NO, NX_ATTR, AT(nvtxRangePushEx_params, eventAttrib), NX_NO),
    NX(nvtxDomainRangePushEx, NX_PUSH, AT(nvtxDomainRangePushEx_params, domain), NX_ATTR,
       AT(nvtxDomainRangePushEx_params, core.eventAttrib), NX_NO),
    NX(nvtxRangePop, NX_POP, NX_NO, NX_NONE, NX_NO, NX_NO),
    NX(nvtxDomainRangePop, NX_POP, AT(nvtxDomainRangePop_params, domain), NX_NONE, NX_NO, NX_NO),
    NX(nvtxRangeStartA, NX_START, NX_NO, NX_ASCII, AT(nvtxRangeStartA_params, message), NX_NO),
    NX(nvtxRangeStartW, NX_START, NX_NO, NX_WIDE, AT(nvtxRangeStartW_params, message), NX_NO),
    NX(nvtxRangeStartEx, NX_START, NX_NO, NX_ATTR, AT(nvtxRangeStartEx_params, eventAttrib), NX_NO),
    NX(nvtxDomainRangeStartEx, NX_START, AT(nvtxDomainRangeStartEx_params, domain), NX_ATTR,
       AT(nvtxDomainRangeStartEx_params, core.eventAttrib), NX_NO),
    NX(nvtxRangeEnd, NX_END, NX_NO, NX_NONE, NX_NO, AT(nvtxRangeEnd_params, id)),
    NX(nvtxDomainRangeEnd, NX_END, NX_NO, NX_NONE, NX_NO, AT(nvtxDomainRangeEnd_params, core.id)),
    NX(nvtxDomainCreateA, NX_DOMAIN, NX_NO, NX_ASCII, AT(nvtxDomainCreateA_params, name), NX_NO),
    NX(nvtxDomainRegisterStringA, NX_STRING, NX_NO, NX_ASCII,
       AT(nvtxDomainRegisterStringA_params, string), NX_NO),
};
#undef NX
#undef AT

static const void *nvtx_field(const void *params, size_t offset)
{
    const void *v;
    memcpy(&v, (const char *)params + offset, sizeof(v));
    return v;
}

/* Translates one NVTX call into the range state. */
static void on_nvtx(CUpti_CallbackId cbid, const CUpti_NvtxData *d)
{
    const void *p = d->functionParams, *ret = d->functionReturnValue;
    char buf[512];
    size_t i;
    if (!p)
        return;
    for (i = 0; i < sizeof(nvtx_calls) / sizeof(nvtx_calls[0]); i++)
        if (nvtx_calls[i].cbid == cbid)
            break;
    if (i == sizeof(nvtx_calls) / sizeof(nvtx_calls[0]))
        return;
    int op = nvtx_calls[i].op;
    uint64_t domain =
        nvtx_calls[i].domain == NX_NO ? 0 : nvtx_handle(nvtx_field(p, nvtx_calls[i].domain));
    const char *name = NULL;
    switch (nvtx_calls[i].kind) {
    case NX_ASCII:
        name = nvtx_field(p, nvtx_calls[i].name);
        break;
    case NX_WIDE:
        name = nvtx_wide(nvtx_field(p, nvtx_calls[i].name), buf, sizeof buf);
        break;
    case NX_ATTR:
        name = nvtx_message(nvtx_field(p, nvtx_calls[i].name), buf, sizeof buf);
        break;
    default:
        break;
    }
    /* a new range, domain or string is known by the call's return value */
    if ((op == NX_START || op == NX_DOMAIN || op == NX_STRING) && !ret)
        return;
    if (op == NX_PUSH)
        gp_ranges_push(domain, name);
    else if (op == NX_POP)
        nvtx_pop(domain);
    else if (op == NX_START)
        gp_ranges_start(domain, *(const nvtxRangeId_t *)ret, name);
    else if (op == NX_END)
        gp_ranges_end(*(const nvtxRangeId_t *)((const char *)p + nvtx_calls[i].id));
    else if (op == NX_DOMAIN)
        gp_ranges_domain_created(nvtx_handle(*(const nvtxDomainHandle_t *)ret), name);
    else
        gp_ranges_string_registered(nvtx_handle(*(const nvtxStringHandle_t *)ret), name);
}

static void CUPTIAPI on_callback(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                 const void *data)
{
    (void)userdata;
    if (domain == CUPTI_CB_DOMAIN_DRIVER_API)
        on_driver(cbid, data);
    else if (domain == CUPTI_CB_DOMAIN_RESOURCE)
        on_resource(cbid, data);
    else if (domain == CUPTI_CB_DOMAIN_NVTX)
        on_nvtx(cbid, data);
}

/* ---- activity records (the second count) ----------------------------------- */

#define ACTIVITY_BUFFER (4u << 20)

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, ACTIVITY_BUFFER);
    *size = *buffer ? ACTIVITY_BUFFER : 0;
    *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    CUpti_Activity *rec = NULL;
    gp_activity_kernel batch[256]; /* handed over 256 at a time: one lock each */
    size_t n = 0;
    while (cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
        if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
            rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
            continue;
        const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
        batch[n++] =
            (gp_activity_kernel){k->correlationId, k->start, k->end, k->name, k->graphId != 0};
        if (n == sizeof(batch) / sizeof(batch[0])) {
            gp_core_activity_kernels(batch, n);
            n = 0;
        }
    }
    gp_core_activity_kernels(batch, n);
    free(buffer);
}

/* ---- set-up ---------------------------------------------------------------- */

int gp_callbacks_subscribe(long crosscheck)
{
    /* what the policy asks of CUPTI, handed over before any callback can
     * reach it (it never calls this file) */
    static const gp_core_boundary boundary = {tracing, stream_id};
    gp_core_set_boundary(&boundary);
    CUptiResult r = cuptiSubscribe(&subscriber, on_callback, NULL);
    if (r != CUPTI_SUCCESS) {
        const char *s = NULL;
        cuptiGetResultString(r, &s);
        if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
            gp_error("another CUPTI tool is attached to this program (Nsight Compute, Nsight "
                     "Systems, compute-sanitizer, or the program itself); gpuprof stays out and "
                     "the program runs unprofiled");
        else
            gp_error("cannot subscribe to CUDA callbacks (%s); not profiling", s ? s : "?");
        return -1;
    }
    const gp_config *cfg = gp_core_config();
    for (CUpti_CallbackId id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; id++) {
        const char *name = NULL;
        if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, id, &name) != CUPTI_SUCCESS || !name)
            continue;
        cb_class_of[id] = (unsigned char)classify(name);
        if ((cb_class_of[id] == CB_PROFILER_START || cb_class_of[id] == CB_PROFILER_STOP) &&
            !cfg->profiler_start_stop)
            cb_class_of[id] = CB_OTHER;
        if (cb_class_of[id] != CB_OTHER)
            cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
    }
    /* NVTX calls reach CUPTI only through NVTX_INJECTION64_PATH (set at
     * cuInit by gp_callbacks_nvtx_injection); they cost nothing to the
     * program unless some NVTX expression asks for them. */
    if (cfg->n_nvtx_include || cfg->n_nvtx_exclude) {
        if (cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_NVTX) != CUPTI_SUCCESS)
            gp_warn("cannot subscribe to NVTX callbacks; GPUPROF_NVTX_INCLUDE/_EXCLUDE cannot "
                    "see any range and no launch will be profiled");
        if (nvtx_injection_why[0])
            gp_warn("%s", nvtx_injection_why);
    }
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
    cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                        CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    if (crosscheck) {
        if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) == CUPTI_SUCCESS &&
            cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) == CUPTI_SUCCESS)
            activity_on = 1;
        else {
            gp_warn("CUPTI activity records are unavailable: the launch cross-check is off");
            gp_core_crosscheck_unavailable();
        }
    }
    return 0;
}

void gp_callbacks_nvtx_injection(void)
{
    Dl_info info;
    const char *cur = getenv("NVTX_INJECTION64_PATH");
    if (!dladdr((void *)cuptiSubscribe, &info) || !info.dli_fname) {
        snprintf(nvtx_injection_why, sizeof nvtx_injection_why,
                 "cannot locate the CUPTI library to receive NVTX calls; NVTX filters see no "
                 "range unless NVTX_INJECTION64_PATH names libcupti.so");
        return;
    }
    if (!cur || !*cur) {
        setenv("NVTX_INJECTION64_PATH", info.dli_fname, 1);
        return;
    }
    const char *base = strrchr(cur, '/');
    base = base ? base + 1 : cur;
    if (strncmp(base, "libcupti", 8) != 0)
        snprintf(nvtx_injection_why, sizeof nvtx_injection_why,
                 "NVTX_INJECTION64_PATH is already set to %.300s: NVTX calls go to that tool, not "
                 "to gpuprof, so NVTX filters see no range (unset it, or set it to %.300s)",
                 cur, info.dli_fname);
}

/* Pauses (0) or resumes (1) kernel activity records around a profiled
 * launch, or stops them for good (-1).  Called only in the exclusive section. */
static void tracing(int on)
{
    if (!activity_on || activity_stopped)
        return;
    if (on < 0)
        activity_stopped = 1;
    if (on > 0)
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    else
        cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
}

void gp_callbacks_flush(void)
{
    if (activity_on)
        cuptiActivityFlushAll(1);
}
