/* gpk_dev_vmm.cu - the TLB over memory built from separate physical chunks
 * (cuMemCreate of the minimum granularity, at least 2 MB, mapped in
 * shuffled order into one reserved range with cuMemMap/cuMemSetAccess), so
 * no translation covers more than one chunk; the chase is
 * gpk_dev_latency.cu's.  The only file that calls the CUDA driver API. */
#include <cuda.h>
#include <time.h>

#include "gpk_dev.cuh"

/* The driver's virtual-memory calls, fetched through the runtime
 * (cudaGetDriverEntryPointByVersion), so the binary needs no -lcuda and
 * still starts (--help) where no driver is installed. */
#define GPK_DRV_FNS(X)                                                                             \
    X(cuGetErrorString) X(cuMemGetAllocationGranularity) X(cuMemAddressReserve)                   \
    X(cuMemAddressFree) X(cuMemCreate) X(cuMemRelease) X(cuMemMap) X(cuMemUnmap) X(cuMemSetAccess)
static struct {
#define GPK_DRV_DECL(f) decltype(&::f) f;
    GPK_DRV_FNS(GPK_DRV_DECL)
#undef GPK_DRV_DECL
    int state; /* 0: not loaded; 1: loaded; -1: unavailable */
} gpk_drv;

static int gpk_drv_load(void)
{
    if (gpk_drv.state)
        return gpk_drv.state > 0 ? 0 : -1;
    gpk_drv.state = 1;
#define GPK_DRV_GET(f)                                                                             \
    {                                                                                              \
        void *fp_ = NULL;                                                                          \
        cudaDriverEntryPointQueryResult q_ = cudaDriverEntryPointSymbolNotFound;                   \
        if (cudaGetDriverEntryPointByVersion(#f, &fp_, 12000, cudaEnableDefault, &q_) !=          \
                cudaSuccess ||                                                                     \
            q_ != cudaDriverEntryPointSuccess || !fp_) {                                           \
            fprintf(stderr, "gpupeak: driver entry point %s not found\n", #f);                    \
            gpk_drv.state = -1;                                                                    \
        }                                                                                          \
        gpk_drv.f = (decltype(gpk_drv.f))fp_;                                                      \
    }
    GPK_DRV_FNS(GPK_DRV_GET)
#undef GPK_DRV_GET
    return gpk_drv.state > 0 ? 0 : -1;
}

#define GPK_CD(call, label)                                                                        \
    do {                                                                                           \
        CUresult gpk_r_ = (call);                                                                  \
        if (gpk_r_ != CUDA_SUCCESS) {                                                              \
            const char *gpk_s_ = NULL;                                                             \
            gpk_drv.cuGetErrorString(gpk_r_, &gpk_s_);                                             \
            fprintf(stderr, "gpupeak: %s failed: %s (%s:%d)\n", #call, gpk_s_ ? gpk_s_ : "?",     \
                    __FILE__, __LINE__);                                                           \
            goto label;                                                                            \
        }                                                                                          \
    } while (0)

static double gpk_wall(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static CUdeviceptr gpk_vmm_base;
static size_t gpk_vmm_size, gpk_vmm_chunk, gpk_vmm_n;
static unsigned char *gpk_vmm_mapped; /* per slot: 1 when a chunk is mapped there */

extern "C" void gpk_dev_vmm_free(void)
{
    if (!gpk_vmm_base) {
        free(gpk_vmm_mapped);
        gpk_vmm_mapped = NULL;
        return;
    }
    (void)cudaDeviceSynchronize(); /* no kernel may still read the range */
    for (size_t k = 0; k < gpk_vmm_n; k++)
        if (gpk_vmm_mapped && gpk_vmm_mapped[k])
            gpk_drv.cuMemUnmap(gpk_vmm_base + k * gpk_vmm_chunk, gpk_vmm_chunk); /* frees the chunk */
    gpk_drv.cuMemAddressFree(gpk_vmm_base, gpk_vmm_size);
    free(gpk_vmm_mapped);
    gpk_vmm_mapped = NULL;
    gpk_vmm_base = 0;
    gpk_vmm_size = gpk_vmm_chunk = gpk_vmm_n = 0;
}

extern "C" int gpk_dev_vmm_alloc(size_t bytes, size_t *chunk_bytes, size_t *mapped_bytes)
{
    CUmemAllocationProp prop;
    CUmemAccessDesc acc;
    size_t gran = 0, chunk, n, *perm = NULL;
    int dev = 0;
    double t0 = 0;
    unsigned long long x = 0x9e3779b97f4a7c15ull; /* fixed seed: the same shuffle every run */
    gpk_dev_vmm_free();
    if (gpk_drv_load())
        return -1;
    memset(&prop, 0, sizeof prop);
    memset(&acc, 0, sizeof acc);
    GPK_CU(cudaGetDevice(&dev), fail);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    GPK_CD(gpk_drv.cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM), fail);
    if (gran == 0)
        goto fail;
    chunk = (((size_t)2 << 20) + gran - 1) / gran * gran; /* at least 2 MB, whole granules */
    n = bytes / chunk;
    if (n < 2)
        goto fail;
    perm = (size_t *)malloc(n * sizeof *perm);
    gpk_vmm_mapped = (unsigned char *)calloc(n, 1);
    if (!perm || !gpk_vmm_mapped)
        goto fail;
    for (size_t k = 0; k < n; k++)
        perm[k] = k;
    for (size_t k = n - 1; k > 0; k--) { /* Fisher-Yates, xorshift64 */
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const size_t j = (size_t)(x % (k + 1)), t = perm[k];
        perm[k] = perm[j];
        perm[j] = t;
    }
    t0 = gpk_wall();
    GPK_CD(gpk_drv.cuMemAddressReserve(&gpk_vmm_base, n * chunk, chunk, 0, 0), fail);
    gpk_vmm_size = n * chunk;
    gpk_vmm_chunk = chunk;
    gpk_vmm_n = n;
    /* chunk i (created i-th) goes to slot perm[i]: neighbouring virtual
     * chunks are not neighbouring allocations, so nothing can merge them
     * into one larger translation */
    for (size_t i = 0; i < n; i++) {
        CUmemGenericAllocationHandle h;
        if ((i & 255) == 255 && gpk_wall() - t0 > 30.0) {
            fprintf(stderr, "gpupeak: mapping %zu chunks took over 30 s; giving up\n", n);
            goto fail;
        }
        GPK_CD(gpk_drv.cuMemCreate(&h, chunk, &prop, 0), fail);
        CUresult r = gpk_drv.cuMemMap(gpk_vmm_base + perm[i] * chunk, chunk, 0, h, 0);
        gpk_drv.cuMemRelease(h); /* the mapping keeps the memory until it is unmapped */
        GPK_CD(r, fail);
        gpk_vmm_mapped[perm[i]] = 1;
    }
    acc.location = prop.location;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (gpk_drv.cuMemSetAccess(gpk_vmm_base, gpk_vmm_size, &acc, 1) != CUDA_SUCCESS)
        for (size_t k = 0; k < n; k++) /* one call per mapping instead */
            GPK_CD(gpk_drv.cuMemSetAccess(gpk_vmm_base + k * chunk, chunk, &acc, 1), fail);
    free(perm);
    *chunk_bytes = chunk;
    *mapped_bytes = gpk_vmm_size;
    return 0;
fail:
    free(perm);
    gpk_dev_vmm_free();
    return -1;
}

extern "C" int gpk_dev_vmm_chase(size_t footprint, size_t stride, int order, double *cycles,
                                 double *clk_mhz)
{
    if (!gpk_vmm_base || footprint / stride < 2 || stride < 256 || stride % 256 ||
        footprint > gpk_vmm_size)
        return -1;
    return gpk_tlb_chase_at((char *)gpk_vmm_base, footprint, stride, order, cycles, clk_mhz);
}

extern "C" int gpk_dev_probe_vmm(void)
{
    size_t chunk = 0, mapped = 0;
    double cyc = NAN, mhz = NAN;
    int rc = -1;
    if (gpk_dev_vmm_alloc((size_t)64 << 20, &chunk, &mapped) == 0)
        rc = gpk_dev_vmm_chase(mapped, chunk, 1, &cyc, &mhz);
    gpk_dev_vmm_free();
    if (rc == 0 && !(cyc > 0 && cyc < 1e6))
        rc = -1;
    return rc;
}
