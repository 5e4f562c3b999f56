/* drv_util.h - what the driver-API test programs (driver_api.c, ranges.c)
 * share: a checked-call macro that names the call and CUDA's error, and
 * reading a cubin file.  Test programs only: a failure ends the program. */
#ifndef GP_DRV_UTIL_H
#define GP_DRV_UTIL_H

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#include "gp_check.h"

static inline const char *drv_error_text(CUresult r)
{
    const char *s = "?";
    cuGetErrorString(r, &s);
    return s;
}

#define CK(x) GP_CHECK_CALL(CUresult, CUDA_SUCCESS, drv_error_text, x, #x, __FILE__, 2)

/* The whole file in a malloc'd buffer (size in *size), or NULL. */
static inline void *drv_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    void *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = n > 0 ? malloc((size_t)n) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

#endif
