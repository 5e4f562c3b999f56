/* inject.c - the profiler's start, in libgpuprof-core.so: the CUDA driver
 * calls InitializeInjection() at cuInit, through libgpuprof.so
 * (preload/entry.c) or directly when CUDA_INJECTION64_PATH names this file.
 * Only now is the configuration read, the log file opened and CUPTI
 * subscribed: a program that never initializes CUDA never gets here.
 * Nothing here calls exit() or writes to stdout. */
#include <stdlib.h>

#include "gpuprof.h"
#include "preload/callbacks.h"
#include "preload/core.h"

static void gp_at_exit(void)
{
    gp_callbacks_flush();
    gp_core_shutdown();
}

GP_EXPORT int InitializeInjection(void)
{
    static int done;
    if (done)
        return 1;
    done = 1;
    if (gp_core_init() != 0)
        return 1;
    if (gp_core_wants_nvtx())
        gp_callbacks_nvtx_injection();
    if (gp_core_cuda_ready() != 0)
        return 1;
    if (gp_callbacks_subscribe(gp_core_crosscheck()) != 0)
        return 1;
    atexit(gp_at_exit);
    return 1;
}

GP_EXPORT const char *gpuprof_version(void)
{
    return GPUPROF_VERSION;
}
