/* entry.c - how libgpuprof.so gets into a program.
 *
 * LD_PRELOAD: the constructor reads the configuration and points
 * CUDA_INJECTION64_PATH at this library, so that the CUDA driver calls
 * InitializeInjection() when (and only if) the program initializes CUDA.  A
 * program that never touches CUDA therefore loads no CUDA library because of
 * gpuprof and sees no output from it.  CUDA_INJECTION64_PATH=libgpuprof.so
 * alone works the same way.  Nothing here calls exit() or writes to stdout. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gpuprof.h"
#include "preload/callbacks.h"
#include "preload/core.h"
#include "util/log.h"

static int core_ok;

static void gp_at_exit(void)
{
    gp_callbacks_flush();
    gp_core_shutdown();
}

__attribute__((constructor)) static void gp_entry_constructor(void)
{
    core_ok = gp_core_init() == 0;
    if (!core_ok)
        return;
    Dl_info info;
    char self[PATH_MAX];
    if (!dladdr((void *)gp_entry_constructor, &info) || !info.dli_fname ||
        !realpath(info.dli_fname, self))
        return;
    const char *cur = getenv("CUDA_INJECTION64_PATH");
    if (!cur || !*cur) {
        setenv("CUDA_INJECTION64_PATH", self, 1);
    } else {
        char curreal[PATH_MAX];
        if (!realpath(cur, curreal) || strcmp(curreal, self) != 0)
            gp_warn("CUDA_INJECTION64_PATH is already set to %s; gpuprof cannot attach and the "
                    "program runs unprofiled", cur);
    }
}

GP_EXPORT int InitializeInjection(void)
{
    static int done;
    if (done)
        return 1;
    done = 1;
    if (!core_ok || gp_core_cuda_ready() != 0)
        return 1;
    if (gp_callbacks_subscribe(gp_core_crosscheck()) != 0)
        return 1;
    atexit(gp_at_exit);
    return 1;
}

GP_EXPORT const char *gpuprof_version(void) { return GPUPROF_VERSION; }
