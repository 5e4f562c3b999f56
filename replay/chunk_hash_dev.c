/* chunk_hash_dev.c - see chunk_hash_dev.h.  The kernel is PTX generated from
 * chunk_hash.cu at build time (replay/module.mk), so the library needs no
 * CUDA runtime and the driver compiles it for whatever GPU it finds. */
#include "replay/chunk_hash_dev.h"

#include <stdio.h>
#include <stdlib.h>

#include "gp_chunk_hash_ptx.h"
#include "replay/driver.h"

#define GP_CH_BLOCK 256

static int load(gp_chunk_dev *d, char *err, size_t errlen)
{
    if (d->fn)
        return 0;
    if (d->failed) {
        snprintf(err, errlen, "the chunk hash kernel could not be loaded");
        return -1;
    }
    CUresult r = gp_drv.cuModuleLoadData(&d->module, gp_chunk_hash_ptx);
    if (r == CUDA_SUCCESS)
        r = gp_drv.cuModuleGetFunction(&d->fn, d->module, "gp_chunk_hash");
    if (r != CUDA_SUCCESS) {
        snprintf(err, errlen, "loading the chunk hash kernel failed: %s", gp_driver_strerror(r));
        if (d->module)
            gp_drv.cuModuleUnload(d->module);
        d->module = NULL;
        d->fn = NULL;
        d->failed = 1;
        return -1;
    }
    return 0;
}

static int ensure(gp_chunk_dev *d, uint64_t bytes, uint64_t n_chunks)
{
    if (d->scratch_cap < bytes) {
        if (d->scratch)
            gp_drv.cuMemFree(d->scratch);
        d->scratch = 0;
        d->scratch_cap = 0;
        if (gp_drv.cuMemAlloc(&d->scratch, bytes) != CUDA_SUCCESS) {
            d->scratch = 0;
            return -1;
        }
        d->scratch_cap = bytes;
    }
    if (d->host_cap < n_chunks) {
        free(d->host_h);
        free(d->host_zero);
        d->host_h = malloc(n_chunks * 2 * sizeof(uint64_t));
        d->host_zero = malloc(n_chunks);
        d->host_cap = d->host_h && d->host_zero ? n_chunks : 0;
        if (!d->host_cap)
            return -1;
    }
    return 0;
}

int gp_chunk_dev_hash(gp_chunk_dev *d, const gp_chunk_span *spans, unsigned n, uint64_t chunk_bytes,
                      uint64_t n_chunks, gp_chunk_digest *out, char *err, size_t errlen)
{
    if (n_chunks == 0)
        return 0;
    if (n == 0 || n_chunks > 0x7fffffffu) {
        snprintf(err, errlen, "%llu chunks to hash: more than one launch can take",
                 (unsigned long long)n_chunks);
        return -1;
    }
    if (load(d, err, errlen) != 0)
        return -1;
    /* scratch: the spans, then 16 bytes of hash and 1 zero flag per chunk */
    uint64_t spans_b = ((uint64_t)n * sizeof(*spans) + 255) & ~(uint64_t)255;
    uint64_t hash_b = n_chunks * 16;
    if (ensure(d, spans_b + hash_b + n_chunks, n_chunks) != 0) {
        snprintf(err, errlen, "no memory for the hashes of %llu chunks",
                 (unsigned long long)n_chunks);
        return -1;
    }
    CUdeviceptr dspans = d->scratch, dh = d->scratch + spans_b, dz = dh + hash_b;
    CUresult r = gp_drv.cuMemcpyHtoD(dspans, spans, (size_t)n * sizeof(*spans));
    const char *what = "copying the range list";
    if (r == CUDA_SUCCESS) {
        void *args[] = {&dspans, &n, &chunk_bytes, &dh, &dz};
        what = "the chunk hash kernel";
        r = gp_drv.cuLaunchKernel(d->fn, (unsigned)n_chunks, 1, 1, GP_CH_BLOCK, 1, 1, 0, NULL, args,
                                  NULL);
    }
    if (r == CUDA_SUCCESS) {
        what = "synchronizing after the chunk hash";
        r = gp_drv.cuCtxSynchronize();
    }
    if (r == CUDA_SUCCESS) {
        what = "reading the chunk hashes";
        r = gp_drv.cuMemcpyDtoH(d->host_h, dh, hash_b);
    }
    if (r == CUDA_SUCCESS)
        r = gp_drv.cuMemcpyDtoH(d->host_zero, dz, n_chunks);
    if (r != CUDA_SUCCESS) {
        snprintf(err, errlen, "%s failed: %s", what, gp_driver_strerror(r));
        return -1;
    }
    for (uint64_t i = 0; i < n_chunks; i++) {
        out[i].h[0] = d->host_h[2 * i];
        out[i].h[1] = d->host_h[2 * i + 1];
        out[i].zero = d->host_zero[i];
    }
    return 0;
}

void gp_chunk_dev_free(gp_chunk_dev *d)
{
    if (d->module)
        gp_drv.cuModuleUnload(d->module);
    if (d->scratch)
        gp_drv.cuMemFree(d->scratch);
    free(d->host_h);
    free(d->host_zero);
    *d = (gp_chunk_dev){0};
}
