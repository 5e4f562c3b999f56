/* gpuprof.h - the public surface of libgpuprof.so.
 *
 * The library is used without code changes: LD_PRELOAD=libgpuprof.so ./app
 * (or CUDA_INJECTION64_PATH=libgpuprof.so ./app).  Everything else is
 * configured through GPUPROF_* environment variables (docs/user-guide.md).
 * It exports only these symbols; everything internal is hidden and prefixed
 * gp_. */
#ifndef GPUPROF_H
#define GPUPROF_H

#define GPUPROF_VERSION "0.1.0"
#define GP_EXPORT __attribute__((visibility("default")))

#ifdef __cplusplus
extern "C" {
#endif

/* Called by the CUDA driver when CUDA_INJECTION64_PATH names this library
 * (the LD_PRELOAD constructor sets it).  Returns 1. */
GP_EXPORT int InitializeInjection(void);

/* The library's version string, e.g. "0.1.0". */
GP_EXPORT const char *gpuprof_version(void);

#ifdef __cplusplus
}
#endif

#endif
