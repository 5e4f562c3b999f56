/* chunk_hash_dev.c - see chunk_hash_dev.h.  The kernel is PTX generated from
 * chunk_hash.cu at build time (replay/module.mk), so the library needs no
 * CUDA runtime and the driver compiles it for whatever GPU it finds. */
#include "replay/chunk_hash_dev.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "gp_chunk_hash_ptx.h"
#include "replay/driver.h"

#define GP_CH_BLOCK 256

/* The kernel writes digests in this layout (chunk_hash.cu). */
_Static_assert(sizeof(gp_chunk_digest) == 24 && offsetof(gp_chunk_digest, zero) == 16,
               "gp_chunk_digest must be two hash words and the zero flag's word");

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

static void host_free(gp_chunk_dev *d)
{
    if (d->host && d->host_pinned)
        gp_drv.cuMemFreeHost(d->host);
    else
        free(d->host);
    d->host = NULL;
    d->host_cap = 0;
}

static int ensure(gp_chunk_dev *d, uint64_t bytes, uint64_t n_chunks)
{
    if (d->scratch_cap < bytes) {
        if (d->scratch)
            gp_drv.cuMemFree(d->scratch);
        d->scratch = 0;
        d->scratch_cap = 0;
        if (gp_drv_alloc_own(&d->scratch, bytes) != CUDA_SUCCESS) {
            d->scratch = 0;
            return -1;
        }
        d->scratch_cap = bytes;
    }
    if (d->host_cap < n_chunks) {
        host_free(d);
        /* the digests of a large footprint are megabytes per hash: a copy
         * into pageable memory took longer than hashing a GB */
        void *h = NULL;
        if (gp_drv.cuMemAllocHost(&h, n_chunks * sizeof(gp_chunk_digest)) == CUDA_SUCCESS) {
            d->host_pinned = 1;
        } else {
            h = malloc(n_chunks * sizeof(gp_chunk_digest));
            d->host_pinned = 0;
        }
        d->host = h;
        d->host_cap = h ? n_chunks : 0;
        if (!d->host_cap)
            return -1;
    }
    return 0;
}

const gp_chunk_digest *gp_chunk_dev_hash(gp_chunk_dev *d, const gp_chunk_span *spans, unsigned n,
                                         uint64_t chunk_bytes, uint64_t n_chunks, char *err,
                                         size_t errlen)
{
    static const gp_chunk_digest none;
    if (n_chunks == 0)
        return &none;
    if (n == 0 || n_chunks > 0x7fffffffu) {
        snprintf(err, errlen, "%llu chunks to hash: more than one launch can take",
                 (unsigned long long)n_chunks);
        return NULL;
    }
    if (load(d, err, errlen) != 0)
        return NULL;
    /* scratch: the spans, then each chunk's digest */
    uint64_t spans_b = ((uint64_t)n * sizeof(*spans) + 255) & ~(uint64_t)255;
    uint64_t dig_b = n_chunks * sizeof(gp_chunk_digest);
    if (ensure(d, spans_b + dig_b, n_chunks) != 0) {
        snprintf(err, errlen, "no memory for the hashes of %llu chunks",
                 (unsigned long long)n_chunks);
        return NULL;
    }
    CUdeviceptr dspans = d->scratch, ddig = d->scratch + spans_b;
    CUresult r = gp_drv.cuMemcpyHtoD(dspans, spans, (size_t)n * sizeof(*spans));
    const char *what = "copying the range list";
    if (r == CUDA_SUCCESS) {
        void *args[] = {&dspans, &n, &chunk_bytes, &ddig};
        what = "the chunk hash kernel";
        r = gp_drv.cuLaunchKernel(d->fn, (unsigned)n_chunks, 1, 1, GP_CH_BLOCK, 1, 1, 0, NULL, args,
                                  NULL);
    }
    if (r == CUDA_SUCCESS) {
        d->launches++;
        what = "synchronizing after the chunk hash";
        r = gp_drv.cuCtxSynchronize();
    }
    if (r == CUDA_SUCCESS) {
        what = "reading the chunk hashes";
        r = gp_drv.cuMemcpyDtoH(d->host, ddig, dig_b);
    }
    if (r != CUDA_SUCCESS) {
        snprintf(err, errlen, "%s failed: %s", what, gp_driver_strerror(r));
        return NULL;
    }
    return d->host;
}

void gp_chunk_dev_free(gp_chunk_dev *d)
{
    if (d->module)
        gp_drv.cuModuleUnload(d->module);
    if (d->scratch)
        gp_drv.cuMemFree(d->scratch);
    host_free(d);
    *d = (gp_chunk_dev){0};
}
