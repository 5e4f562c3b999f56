/* drv_util.h - what the driver-API test programs (driver_api.c, ranges.c)
 * share: a checked-call macro that names the call and CUDA's error, and
 * reading a cubin file.  Test programs only: a failure ends the program. */
#ifndef GP_DRV_UTIL_H
#define GP_DRV_UTIL_H

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x)                                                                                      \
    do {                                                                                           \
        CUresult r_ = (x);                                                                         \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            const char *s_ = "?";                                                                  \
            cuGetErrorString(r_, &s_);                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_);                        \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

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
