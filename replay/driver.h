/* driver.h - the one boundary where gpuprof calls the CUDA driver.
 *
 * libgpuprof.so does not link libcuda: a program that never touches CUDA must
 * not load it, and the library must load on machines without a driver.  The
 * table is filled from the libcuda the program already loaded, the first time
 * CUDA initializes (InitializeInjection).  Calls made through it still reach
 * CUPTI's callbacks, so callers hold the re-entry guard (gp_guard). */
#ifndef GP_DRIVER_H
#define GP_DRIVER_H

#include <cuda.h>

#define GP_DRIVER_FUNCS(X)                                                                         \
    X(cuGetErrorString, "cuGetErrorString")                                                        \
    X(cuCtxGetCurrent, "cuCtxGetCurrent")                                                          \
    X(cuCtxSetCurrent, "cuCtxSetCurrent")                                                          \
    X(cuCtxGetDevice, "cuCtxGetDevice")                                                            \
    X(cuCtxSynchronize, "cuCtxSynchronize")                                                        \
    X(cuCtxPushCurrent, "cuCtxPushCurrent_v2")                                                     \
    X(cuCtxPopCurrent, "cuCtxPopCurrent_v2")                                                       \
    X(cuDeviceGetAttribute, "cuDeviceGetAttribute")                                                \
    X(cuDeviceGetName, "cuDeviceGetName")                                                          \
    X(cuMemGetInfo, "cuMemGetInfo_v2")                                                             \
    X(cuMemAlloc, "cuMemAlloc_v2")                                                                 \
    X(cuMemFree, "cuMemFree_v2")                                                                   \
    X(cuMemAllocHost, "cuMemAllocHost_v2")                                                         \
    X(cuMemFreeHost, "cuMemFreeHost")                                                              \
    X(cuMemcpy, "cuMemcpy")                                                                        \
    X(cuMemcpy3D, "cuMemcpy3D_v2")                                                                 \
    X(cuMemsetD32, "cuMemsetD32_v2")                                                               \
    X(cuMemsetD32Async, "cuMemsetD32Async")                                                        \
    X(cuLaunchKernel, "cuLaunchKernel")                                                            \
    X(cuLaunchKernelEx, "cuLaunchKernelEx")                                                        \
    X(cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel")                                      \
    X(cuFuncGetAttribute, "cuFuncGetAttribute")                                                    \
    X(cuFuncGetModule, "cuFuncGetModule")                                                          \
    X(cuKernelGetFunction, "cuKernelGetFunction")                                                  \
    X(cuModuleGetGlobal, "cuModuleGetGlobal_v2")                                                   \
    X(cuStreamIsCapturing, "cuStreamIsCapturing")                                                  \
    X(cuStreamSynchronize, "cuStreamSynchronize")                                                  \
    X(cuPointerGetAttribute, "cuPointerGetAttribute")                                              \
    X(cuModuleLoadData, "cuModuleLoadData")                                                        \
    X(cuModuleGetFunction, "cuModuleGetFunction")                                                  \
    X(cuModuleUnload, "cuModuleUnload")                                                            \
    X(cuFuncGetName, "cuFuncGetName")                                                              \
    X(cuFuncGetParamInfo, "cuFuncGetParamInfo")                                                    \
    X(cuGraphGetNodes, "cuGraphGetNodes")                                                          \
    X(cuGraphGetEdges, "cuGraphGetEdges_v2")                                                       \
    X(cuGraphNodeGetType, "cuGraphNodeGetType")                                                    \
    X(cuGraphKernelNodeGetParams, "cuGraphKernelNodeGetParams_v2")                                 \
    X(cuGraphMemcpyNodeGetParams, "cuGraphMemcpyNodeGetParams")                                    \
    X(cuGraphMemsetNodeGetParams, "cuGraphMemsetNodeGetParams")                                    \
    X(cuGraphChildGraphNodeGetGraph, "cuGraphChildGraphNodeGetGraph")                              \
    X(cuMemsetD2D8, "cuMemsetD2D8_v2")                                                             \
    X(cuMemsetD2D16, "cuMemsetD2D16_v2")                                                           \
    X(cuMemsetD2D32, "cuMemsetD2D32_v2")                                                           \
    X(cuMemsetD8, "cuMemsetD8_v2")                                                                 \
    X(cuMemcpyHtoD, "cuMemcpyHtoD_v2")                                                             \
    X(cuMemcpyDtoH, "cuMemcpyDtoH_v2")                                                             \
    X(cuDriverGetVersion, "cuDriverGetVersion")

typedef struct gp_driver {
#define GP_DRV_FIELD(name, sym) __typeof__(&name) name;
    GP_DRIVER_FUNCS(GP_DRV_FIELD)
#undef GP_DRV_FIELD
} gp_driver;

extern gp_driver gp_drv;

/* Fills gp_drv.  Returns 0, or -1 with a sentence in err. */
int gp_driver_load(char *err, size_t errlen);
const char *gp_driver_strerror(CUresult r);

/* gpuprof's own device memory: rounded up to whole 2 MiB granules, so that
 * none of it shares the driver's suballocated pages with the program's small
 * allocations.  Without it an allocation of a few hundred bytes (the chunk
 * digests) landed in the page of the program's last buffer and moved its
 * next buffers by that much: what lies before a buffer, which a kernel that
 * reads a little out of bounds sees, was no longer what it is natively
 * (tests/gpu/oob_read.cu, docs/measurements.md). */
#define GP_OWN_GRANULE ((size_t)2 << 20)
CUresult gp_drv_alloc_own(CUdeviceptr *p, size_t bytes);

#endif
