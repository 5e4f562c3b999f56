/* driver.c - see driver.h */
#include "replay/driver.h"

#include <dlfcn.h>
#include <stdio.h>

gp_driver gp_drv;

int gp_driver_load(char *err, size_t errlen)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!h)
        h = dlopen("libcuda.so.1", RTLD_NOW);
    if (!h) {
        snprintf(err, errlen, "cannot load the CUDA driver (libcuda.so.1): %s", dlerror());
        return -1;
    }
#define GP_DRV_LOAD(name, sym)                                                                     \
    gp_drv.name = (__typeof__(gp_drv.name))dlsym(h, sym);                                          \
    if (!gp_drv.name) {                                                                            \
        snprintf(err, errlen, "the CUDA driver lacks %s (driver too old?)", sym);                  \
        return -1;                                                                                 \
    }
    GP_DRIVER_FUNCS(GP_DRV_LOAD)
#undef GP_DRV_LOAD
    return 0;
}

const char *gp_driver_strerror(CUresult r)
{
    const char *s = NULL;
    if (gp_drv.cuGetErrorString)
        gp_drv.cuGetErrorString(r, &s);
    return s ? s : "unknown CUDA error";
}

CUresult gp_drv_alloc_own(CUdeviceptr *p, size_t bytes)
{
    size_t rounded = (bytes + GP_OWN_GRANULE - 1) & ~(GP_OWN_GRANULE - 1);
    return gp_drv.cuMemAlloc(p, rounded ? rounded : GP_OWN_GRANULE);
}
