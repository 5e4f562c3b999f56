/* entry.c - libgpuprof.so, the library users preload: how gpuprof gets into
 * a program, and nothing else.
 *
 * It depends on the C library only.  Its constructor points
 * CUDA_INJECTION64_PATH at itself (when that is unset), so that the CUDA
 * driver calls InitializeInjection() when, and only if, the program
 * initializes CUDA; only then is the profiler itself (libgpuprof-core.so,
 * next to this file: CUPTI, the C++ runtime, the report code) loaded, and
 * the configuration read.  A program that never touches CUDA therefore maps
 * no library but this one because of gpuprof, reads no GPUPROF_* variable,
 * opens no file and prints nothing.  What is left is the variable itself:
 * the driver reads it at cuInit, which cannot be seen coming, so it stays in
 * the environment and children inherit it, as they inherit LD_PRELOAD.
 * CUDA_INJECTION64_PATH=libgpuprof.so alone works the same way (the driver
 * loads this file).  Nothing here calls exit() or writes to stdout. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpuprof.h"

#define GP_ENTRY_CORE "libgpuprof-core.so"

static char gp_entry_self[PATH_MAX];  /* this file, resolved */
static char gp_entry_other[PATH_MAX]; /* CUDA_INJECTION64_PATH when it names another library */
static int gp_entry_injected;         /* the driver called InitializeInjection */

/* path (resolved) is this file or the profiler next to it. */
static int gp_entry_ours(const char *path)
{
    const char *slash = strrchr(gp_entry_self, '/');
    size_t dir = slash ? (size_t)(slash + 1 - gp_entry_self) : 0;
    return strcmp(path, gp_entry_self) == 0 ||
           (strncmp(path, gp_entry_self, dir) == 0 && strcmp(path + dir, GP_ENTRY_CORE) == 0);
}

__attribute__((constructor)) static void gp_entry_constructor(void)
{
    Dl_info info;
    char curreal[PATH_MAX];
    if (!dladdr((void *)gp_entry_constructor, &info) || !info.dli_fname ||
        !realpath(info.dli_fname, gp_entry_self)) {
        gp_entry_self[0] = 0;
        return;
    }
    const char *cur = getenv("CUDA_INJECTION64_PATH");
    if (!cur || !*cur)
        setenv("CUDA_INJECTION64_PATH", gp_entry_self, 1);
    else if (!realpath(cur, curreal) || !gp_entry_ours(curreal))
        snprintf(gp_entry_other, sizeof gp_entry_other, "%s", cur);
}

/* Another injection library took CUDA's one slot: said at exit, and only
 * in a program that loaded the CUDA driver (others must hear nothing). */
__attribute__((destructor)) static void gp_entry_destructor(void)
{
    void *cuda;
    if (!gp_entry_other[0] || gp_entry_injected)
        return;
    cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!cuda)
        return;
    dlclose(cuda);
    fprintf(stderr,
            "[gpuprof %d] warning: CUDA_INJECTION64_PATH is already set to %s; gpuprof could "
            "not attach and the program ran unprofiled\n",
            (int)getpid(), gp_entry_other);
}

GP_EXPORT int InitializeInjection(void)
{
    static int done;
    char core[PATH_MAX + sizeof GP_ENTRY_CORE];
    const char *self = gp_entry_self;
    Dl_info info;
    char *slash;
    void *h;
    int (*init)(void);
    if (done)
        return 1;
    done = 1;
    gp_entry_injected = 1;
    /* loaded by the driver without LD_PRELOAD: no constructor path yet */
    if (!self[0] && dladdr((void *)InitializeInjection, &info) && info.dli_fname)
        self = info.dli_fname;
    snprintf(core, sizeof core, "%s", self);
    slash = strrchr(core, '/');
    snprintf(slash ? slash + 1 : core, sizeof core - (size_t)(slash ? slash + 1 - core : 0), "%s",
             GP_ENTRY_CORE);
    h = dlopen(core, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "[gpuprof %d] error: cannot load the profiler (%s); not profiling\n",
                (int)getpid(), dlerror());
        return 1;
    }
    init = (int (*)(void))dlsym(h, "InitializeInjection");
    return init ? init() : 1;
}

GP_EXPORT const char *gpuprof_version(void)
{
    return GPUPROF_VERSION;
}
