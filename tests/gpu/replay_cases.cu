// replay_cases.cu - small programs whose results must not change under the
// profiler.  `replay_cases CASE` runs one case and prints "checksum CASE HEX";
// tests/gpu/run-gpu-tests.sh compares it with and without libgpuprof.so.
// Every kernel both reads and writes what it touches, so that a replay that
// does not restore memory changes the checksum.
#include <cuda.h>
#include <cuda_runtime.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gp_check.h"

#define CHECK(x) GP_CHECK_CALL(cudaError_t, cudaSuccess, cudaGetErrorString, x, #x, __FILE__, 2)

static uint64_t fnv(const void *p, size_t n, uint64_t h)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}
static uint64_t H0 = 1469598103934665603ull;

static void print_sum(const char *name, uint64_t h) { printf("checksum %s %016llx\n", name, (unsigned long long)h); }

__global__ void add_one(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] += 1.0f;
}

__global__ void histogram(const int *in, int n, unsigned *bins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&bins[in[i] & 63], 1u);
}

struct Holder {
    float *data;
    int n;
};
__global__ void through_pointer(const Holder *h)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < h->n)
        h->data[i] = h->data[i] * 2.0f + 1.0f;
}

__device__ unsigned long long g_counter;
__device__ float g_table[256];
__global__ void bump_global(int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&g_counter, 1ull);
        if (i < 256)
            g_table[i] = g_table[i] * 3.0f + 1.0f;
    }
}

__global__ void rmw_uninit(unsigned *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 7u + (unsigned)i;
}

__global__ void scale_by(float *x, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * s + 0.5f;
}

static int blocks(int n) { return (n + 255) / 256; }

/* A device copy of h's n floats. */
static float *upload(const float *h, int n)
{
    float *d;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

/* The checksum of the n floats at d (read back through h) chained on from h0. */
static uint64_t download_sum(const float *d, float *h, int n, uint64_t h0)
{
    CHECK(cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    return fnv(h, n * sizeof(float), h0);
}

static uint64_t case_inplace(void)
{
    const int n = 1 << 20;
    float *h = (float *)malloc(n * sizeof(float)), *d;
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 1000);
    d = upload(h, n);
    for (int r = 0; r < 3; r++)
        add_one<<<blocks(n), 256>>>(d, n);
    CHECK(cudaGetLastError());
    uint64_t s = download_sum(d, h, n, H0);
    cudaFree(d);
    free(h);
    return s;
}

static uint64_t case_atomic(void)
{
    const int n = 1 << 20;
    int *h = (int *)malloc(n * sizeof(int)), *d;
    unsigned *bins, hb[64];
    for (int i = 0; i < n; i++)
        h[i] = (i * 2654435761u) >> 7;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMalloc(&bins, sizeof(hb)));
    CHECK(cudaMemset(bins, 0, sizeof(hb)));
    CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    for (int r = 0; r < 2; r++)
        histogram<<<blocks(n), 256>>>(d, n, bins);
    CHECK(cudaMemcpy(hb, bins, sizeof(hb), cudaMemcpyDeviceToHost));
    cudaFree(d);
    cudaFree(bins);
    free(h);
    return fnv(hb, sizeof(hb), H0);
}

static uint64_t case_indirect(void)
{
    const int n = 100000;
    float *data, *h = (float *)malloc(n * sizeof(float));
    Holder hh, *dh;
    for (int i = 0; i < n; i++)
        h[i] = (float)i * 0.25f;
    data = upload(h, n);
    hh.data = data;
    hh.n = n;
    CHECK(cudaMalloc(&dh, sizeof(Holder)));
    CHECK(cudaMemcpy(dh, &hh, sizeof(hh), cudaMemcpyHostToDevice));
    through_pointer<<<blocks(n), 256>>>(dh);
    through_pointer<<<blocks(n), 256>>>(dh);
    uint64_t s = download_sum(data, h, n, H0);
    cudaFree(data);
    cudaFree(dh);
    free(h);
    return s;
}

static uint64_t case_devglobal(void)
{
    // g_counter is never written by the host: only kernels change it.
    float t[256];
    for (int r = 0; r < 3; r++)
        bump_global<<<blocks(5000), 256>>>(5000);
    unsigned long long c = 0;
    CHECK(cudaMemcpyFromSymbol(&c, g_counter, sizeof(c)));
    CHECK(cudaMemcpyFromSymbol(t, g_table, sizeof(t)));
    return fnv(t, sizeof(t), fnv(&c, sizeof(c), H0));
}

static uint64_t case_tosymbol(void)
{
    float t[256];
    for (int i = 0; i < 256; i++)
        t[i] = (float)i;
    CHECK(cudaMemcpyToSymbol(g_table, t, sizeof(t)));
    bump_global<<<1, 256>>>(256);
    bump_global<<<1, 256>>>(256);
    CHECK(cudaMemcpyFromSymbol(t, g_table, sizeof(t)));
    return fnv(t, sizeof(t), H0);
}

static uint64_t case_uninit(void)
{
    const int n = 1 << 18;
    unsigned *d, *h = (unsigned *)malloc(n * sizeof(unsigned));
    CHECK(cudaMalloc(&d, n * sizeof(unsigned))); // never written by the host
    rmw_uninit<<<blocks(n), 256>>>(d, n);
    rmw_uninit<<<blocks(n), 256>>>(d, n);
    CHECK(cudaMemcpy(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    uint64_t s = fnv(h, n * sizeof(unsigned), H0);
    cudaFree(d);
    free(h);
    return s;
}

static uint64_t case_memset(void)
{
    const int n = 1 << 18;
    float *d, *h = (float *)malloc(n * sizeof(float));
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemset(d, 0x3f, n * sizeof(float)));
    scale_by<<<blocks(n), 256>>>(d, n, 1.5f);
    CHECK(cudaMemset(d, 0x40, 1024 * sizeof(float)));
    scale_by<<<blocks(n), 256>>>(d, n, 0.75f);
    uint64_t s = download_sum(d, h, n, H0);
    cudaFree(d);
    free(h);
    return s;
}

static uint64_t case_managed(void)
{
    const int n = 1 << 16;
    float *m;
    CHECK(cudaMallocManaged(&m, n * sizeof(float)));
    for (int i = 0; i < n; i++)
        m[i] = (float)i;
    scale_by<<<blocks(n), 256>>>(m, n, 2.0f);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i += 7)
        m[i] += 1.0f; // the host writes between launches
    scale_by<<<blocks(n), 256>>>(m, n, 0.5f);
    CHECK(cudaDeviceSynchronize());
    uint64_t s = fnv(m, n * sizeof(float), H0);
    cudaFree(m);
    return s;
}

static uint64_t case_async_alloc(void)
{
    const int n = 1 << 16;
    cudaStream_t st;
    float *d, *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        h[i] = (float)(n - i);
    CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    CHECK(cudaMallocAsync(&d, n * sizeof(float), st));
    CHECK(cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, st));
    scale_by<<<blocks(n), 256, 0, st>>>(d, n, 1.25f);
    scale_by<<<blocks(n), 256, 0, st>>>(d, n, 1.25f);
    CHECK(cudaMemcpyAsync(h, d, n * sizeof(float), cudaMemcpyDeviceToHost, st));
    CHECK(cudaFreeAsync(d, st));
    CHECK(cudaStreamSynchronize(st));
    uint64_t s = fnv(h, n * sizeof(float), H0);
    cudaStreamDestroy(st);
    free(h);
    return s;
}

struct worker {
    int id;
    uint64_t sum;
};
static void *thread_body(void *arg)
{
    struct worker *w = (struct worker *)arg;
    const int n = 1 << 16;
    cudaStream_t s[2];
    float *d[2], *h = (float *)malloc(n * sizeof(float));
    for (int k = 0; k < 2; k++) {
        CHECK(cudaStreamCreateWithFlags(&s[k], cudaStreamNonBlocking));
        CHECK(cudaMalloc(&d[k], n * sizeof(float)));
        for (int i = 0; i < n; i++)
            h[i] = (float)(i + w->id * 100 + k);
        CHECK(cudaMemcpy(d[k], h, n * sizeof(float), cudaMemcpyHostToDevice));
    }
    for (int r = 0; r < 4; r++)
        for (int k = 0; k < 2; k++)
            scale_by<<<blocks(n), 256, 0, s[k]>>>(d[k], n, 1.0f + 0.125f * (r + k));
    uint64_t sum = H0;
    for (int k = 0; k < 2; k++) {
        CHECK(cudaStreamSynchronize(s[k]));
        sum = download_sum(d[k], h, n, sum);
        cudaFree(d[k]);
        cudaStreamDestroy(s[k]);
    }
    free(h);
    w->sum = sum;
    return NULL;
}

/* Runs body on T (at most 16) host threads at once (worker ids 0..T-1); a
 * checksum of their checksums. */
static uint64_t run_workers(int T, void *(*body)(void *))
{
    pthread_t th[16];
    struct worker w[16];
    for (int t = 0; t < T; t++) {
        w[t].id = t;
        pthread_create(&th[t], NULL, body, &w[t]);
    }
    uint64_t s = H0;
    for (int t = 0; t < T; t++) {
        pthread_join(th[t], NULL);
        s = fnv(&w[t].sum, sizeof(w[t].sum), s);
    }
    return s;
}

/* The same, the context made first by this thread. */
static uint64_t fan_out(int T, void *(*body)(void *))
{
    CHECK(cudaFree(0));
    return run_workers(T, body);
}

static uint64_t case_threads(void) { return fan_out(4, thread_body); }

static uint64_t case_graph(void)
{
    const int n = 1 << 16;
    float *d, *h = (float *)malloc(n * sizeof(float));
    cudaStream_t st;
    cudaGraph_t g;
    cudaGraphExec_t ge;
    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    d = upload(h, n);
    CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    scale_by<<<blocks(n), 256, 0, st>>>(d, n, 1.5f); // captured: must not be replayed
    CHECK(cudaStreamEndCapture(st, &g));
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    CHECK(cudaGraphLaunch(ge, st));
    CHECK(cudaGraphLaunch(ge, st));
    scale_by<<<blocks(n), 256, 0, st>>>(d, n, 0.5f);
    CHECK(cudaStreamSynchronize(st));
    uint64_t s = download_sum(d, h, n, H0);
    free(h);
    return s;
}

/* A captured graph of a memset, a kernel, a device-to-device copy, a second
 * kernel reading the copy and a child graph, launched three times: gpuprof
 * runs the steps itself to profile the kernels, then lets the graph run. */
static uint64_t case_graph_steps(void)
{
    const int n = 1 << 16;
    float *a, *b, *h = (float *)malloc(2 * n * sizeof(float));
    cudaStream_t st;
    cudaGraph_t g, child;
    cudaGraphExec_t ge;
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 113);
    CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice));
    /* the child: one kernel on b */
    CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    scale_by<<<blocks(n), 256, 0, st>>>(b, n, 0.5f);
    CHECK(cudaStreamEndCapture(st, &child));
    CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemsetAsync(b, 0, n * sizeof(float), st));
    add_one<<<blocks(n), 256, 0, st>>>(a, n);
    CHECK(cudaMemcpyAsync(b, a, n * sizeof(float) / 2, cudaMemcpyDeviceToDevice, st));
    scale_by<<<blocks(n), 256, 0, st>>>(b, n, 1.25f);
    CHECK(cudaStreamEndCapture(st, &g));
    /* the child runs after the captured chain: after its one leaf */
    cudaGraphNode_t nodes[16], from[16], to[16], leaf = NULL, cn;
    size_t nn = 16, ne = 16;
    CHECK(cudaGraphGetNodes(g, nodes, &nn));
    CHECK(cudaGraphGetEdges(g, from, to, NULL, &ne));
    for (size_t i = 0; i < nn; i++) {
        int has_out = 0;
        for (size_t e = 0; e < ne; e++)
            has_out |= from[e] == nodes[i];
        if (!has_out)
            leaf = nodes[i];
    }
    CHECK(cudaGraphAddChildGraphNode(&cn, g, &leaf, 1, child));
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    for (int r = 0; r < 3; r++)
        CHECK(cudaGraphLaunch(ge, st));
    CHECK(cudaStreamSynchronize(st));
    CHECK(cudaMemcpy(h, a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h + n, b, n * sizeof(float), cudaMemcpyDeviceToHost));
    uint64_t s = fnv(h, 2 * n * sizeof(float), H0);
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);
    cudaGraphDestroy(child);
    free(h);
    return s;
}

/* "error N" for the driver's status N. */
static const char *drv_status(CUresult r)
{
    static char text[32];
    snprintf(text, sizeof text, "error %d", (int)r);
    return text;
}

#define CHECK_DRV(x) GP_CHECK_CALL(CUresult, CUDA_SUCCESS, drv_status, x, #x, __FILE__, 2)

/* Pitched 2D allocation, updated in place. */
static uint64_t case_pitch(void)
{
    const int w = 1000, hgt = 300;
    size_t pitch;
    float *d, *h = (float *)malloc(w * hgt * sizeof(float));
    for (int i = 0; i < w * hgt; i++)
        h[i] = (float)(i % 313);
    CHECK(cudaMallocPitch(&d, &pitch, w * sizeof(float), hgt));
    CHECK(cudaMemcpy2D(d, pitch, h, w * sizeof(float), w * sizeof(float), hgt,
                       cudaMemcpyHostToDevice));
    int n = (int)(pitch / sizeof(float)) * hgt; /* the padding is updated too */
    scale_by<<<blocks(n), 256>>>(d, n, 1.5f);
    scale_by<<<blocks(n), 256>>>(d, n, 0.25f);
    CHECK(cudaMemcpy2D(h, w * sizeof(float), d, pitch, w * sizeof(float), hgt,
                       cudaMemcpyDeviceToHost));
    uint64_t sum = fnv(h, w * hgt * sizeof(float), H0);
    cudaFree(d);
    free(h);
    return sum;
}

/* Host memory a kernel writes: mapped pinned memory and registered memory. */
static uint64_t case_hostmem(void)
{
    const int n = 1 << 16;
    float *mapped, *dmapped, *reg = (float *)malloc(n * sizeof(float)), *dreg;
    CHECK(cudaHostAlloc(&mapped, n * sizeof(float), cudaHostAllocMapped));
    for (int i = 0; i < n; i++) {
        mapped[i] = (float)i;
        reg[i] = (float)(n - i);
    }
    CHECK(cudaHostRegister(reg, n * sizeof(float), cudaHostRegisterMapped));
    CHECK(cudaHostGetDevicePointer(&dmapped, mapped, 0));
    CHECK(cudaHostGetDevicePointer(&dreg, reg, 0));
    scale_by<<<blocks(n), 256>>>(dmapped, n, 3.0f);
    scale_by<<<blocks(n), 256>>>(dreg, n, 0.5f);
    CHECK(cudaDeviceSynchronize());
    uint64_t sum = fnv(reg, n * sizeof(float), fnv(mapped, n * sizeof(float), H0));
    CHECK(cudaHostUnregister(reg));
    cudaFreeHost(mapped);
    free(reg);
    return sum;
}

/* Virtual memory management: cuMemCreate + cuMemMap (PyTorch's expandable
 * segments and NCCL allocate this way). */
static uint64_t case_vmm(void)
{
    CHECK(cudaFree(0));
    CUdevice dev;
    CHECK_DRV(cuCtxGetDevice(&dev));
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof(prop));
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    size_t gran = 0;
    CHECK_DRV(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    size_t size = 4 * gran;
    CUmemGenericAllocationHandle handle;
    CUdeviceptr ptr;
    CHECK_DRV(cuMemCreate(&handle, size, &prop, 0));
    CHECK_DRV(cuMemAddressReserve(&ptr, size, 0, 0, 0));
    CHECK_DRV(cuMemMap(ptr, size, 0, handle, 0));
    CUmemAccessDesc access;
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CHECK_DRV(cuMemSetAccess(ptr, size, &access, 1));
    int n = (int)(size / sizeof(float));
    float *h = (float *)malloc(size);
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 1021);
    CHECK(cudaMemcpy((void *)ptr, h, size, cudaMemcpyHostToDevice));
    scale_by<<<blocks(n), 256>>>((float *)ptr, n, 2.5f);
    scale_by<<<blocks(n), 256>>>((float *)ptr, n, 0.5f);
    CHECK(cudaMemcpy(h, (void *)ptr, size, cudaMemcpyDeviceToHost));
    uint64_t sum = fnv(h, size, H0);
    CHECK_DRV(cuMemUnmap(ptr, size));
    CHECK_DRV(cuMemRelease(handle));
    CHECK_DRV(cuMemAddressFree(ptr, size));
    free(h);
    return sum;
}

/* Worker id: the device. */
static void *device_body(void *arg)
{
    struct worker *j = (struct worker *)arg;
    const int n = 1 << 18;
    float *d, *h = (float *)malloc(n * sizeof(float));
    CHECK(cudaSetDevice(j->id));
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 97 + j->id);
    d = upload(h, n);
    for (int r = 0; r < 3; r++)
        scale_by<<<blocks(n), 256>>>(d, n, 1.0f + 0.25f * r);
    j->sum = download_sum(d, h, n, H0);
    cudaFree(d);
    free(h);
    return NULL;
}

/* Every device at once, one host thread each (one device: the same, once). */
/* CUDA arrays written through surfaces (2D, and 3D with 4 slices), updated
 * in place: arrays are not device pointers, and are saved separately. */
__global__ void surf2d_add_one(cudaSurfaceObject_t s, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x < w && y < h) {
        float v = surf2Dread<float>(s, x * (int)sizeof(float), y);
        surf2Dwrite(v + 1.0f, s, x * (int)sizeof(float), y);
    }
}

__global__ void surf3d_scale(cudaSurfaceObject_t s, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    if (x < w && y < h) {
        float4 v = surf3Dread<float4>(s, x * (int)sizeof(float4), y, z);
        v.x = v.x * 2.0f + 1.0f;
        v.w += (float)z;
        surf3Dwrite(v, s, x * (int)sizeof(float4), y, z);
    }
}

static cudaSurfaceObject_t surface_of(cudaArray_t a)
{
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof(rd));
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t so;
    CHECK(cudaCreateSurfaceObject(&so, &rd));
    return so;
}

static uint64_t case_surface(void)
{
    const int w = 1000, h = 200, d = 4;
    float *hb = (float *)malloc((size_t)w * h * d * sizeof(float4));
    for (int i = 0; i < w * h * d * 4; i++)
        hb[i] = (float)(i % 977) * 0.5f;
    /* 2D float array */
    cudaChannelFormatDesc c1 = cudaCreateChannelDesc<float>();
    cudaArray_t a2;
    CHECK(cudaMallocArray(&a2, &c1, w, h, cudaArraySurfaceLoadStore));
    CHECK(cudaMemcpy2DToArray(a2, 0, 0, hb, w * sizeof(float), w * sizeof(float), h,
                              cudaMemcpyHostToDevice));
    cudaSurfaceObject_t s2 = surface_of(a2);
    /* 3D float4 array */
    cudaChannelFormatDesc c4 = cudaCreateChannelDesc<float4>();
    cudaArray_t a3;
    CHECK(cudaMalloc3DArray(&a3, &c4, make_cudaExtent(w, h, d), cudaArraySurfaceLoadStore));
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof(p));
    p.srcPtr = make_cudaPitchedPtr(hb, w * sizeof(float4), w, h);
    p.dstArray = a3;
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaSurfaceObject_t s3 = surface_of(a3);
    for (int r = 0; r < 3; r++) {
        surf2d_add_one<<<dim3((w + 255) / 256, h), 256>>>(s2, w, h);
        surf3d_scale<<<dim3((w + 127) / 128, h, d), 128>>>(s3, w, h);
    }
    CHECK(cudaDeviceSynchronize());
    uint64_t sum = H0;
    CHECK(cudaMemcpy2DFromArray(hb, w * sizeof(float), a2, 0, 0, w * sizeof(float), h,
                                cudaMemcpyDeviceToHost));
    sum = fnv(hb, (size_t)w * h * sizeof(float), sum);
    p.srcPtr = make_cudaPitchedPtr(NULL, 0, 0, 0);
    p.srcArray = a3;
    p.dstArray = NULL;
    p.dstPtr = make_cudaPitchedPtr(hb, w * sizeof(float4), w, h);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p));
    sum = fnv(hb, (size_t)w * h * d * sizeof(float4), sum);
    cudaDestroySurfaceObject(s2);
    cudaDestroySurfaceObject(s3);
    cudaFreeArray(a2);
    cudaFreeArray(a3);
    free(hb);
    return sum;
}

/* Many host threads at once, each with three streams, kernels and copies
 * interleaved: with GPUPROF_MAX_PER_KERNEL a few launches are profiled while
 * the others run (and wait for them); tests/gpu/run-gpu-tests.sh runs it
 * under a timeout to show that the profiled launches cannot hang it. */
__global__ void stress_step(float *x, int n, float s)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * s + 0.25f;
}

static void *stress_body(void *p)
{
    struct worker *a = (struct worker *)p;
    const int n = 1 << 14, S = 3, R = 20;
    cudaStream_t st[S];
    float *d[S], *h;
    CHECK(cudaMallocHost(&h, S * n * sizeof(float)));
    for (int k = 0; k < S; k++) {
        CHECK(cudaStreamCreateWithFlags(&st[k], cudaStreamNonBlocking));
        CHECK(cudaMalloc(&d[k], n * sizeof(float)));
        for (int i = 0; i < n; i++)
            h[k * n + i] = (float)((i + a->id * 7 + k) % 101);
        CHECK(cudaMemcpyAsync(d[k], h + k * n, n * sizeof(float), cudaMemcpyHostToDevice, st[k]));
    }
    for (int r = 0; r < R; r++)
        for (int k = 0; k < S; k++) {
            stress_step<<<blocks(n), 256, 0, st[k]>>>(d[k], n, 0.5f + 0.03125f * (r % 7));
            if (r % 5 == 4) { /* a round trip through the host now and then */
                CHECK(cudaMemcpyAsync(h + k * n, d[k], n * sizeof(float), cudaMemcpyDeviceToHost,
                                      st[k]));
                CHECK(cudaStreamSynchronize(st[k]));
                for (int i = 0; i < n; i += 97)
                    h[k * n + i] += 1.0f;
                CHECK(cudaMemcpyAsync(d[k], h + k * n, n * sizeof(float), cudaMemcpyHostToDevice,
                                      st[k]));
            }
        }
    uint64_t sum = H0;
    for (int k = 0; k < S; k++) {
        CHECK(cudaMemcpyAsync(h + k * n, d[k], n * sizeof(float), cudaMemcpyDeviceToHost, st[k]));
        CHECK(cudaStreamSynchronize(st[k]));
        sum = fnv(h + k * n, n * sizeof(float), sum);
        CHECK(cudaFree(d[k]));
        CHECK(cudaStreamDestroy(st[k]));
    }
    CHECK(cudaFreeHost(h));
    a->sum = sum;
    return NULL;
}

static uint64_t case_stress(void) { return fan_out(16, stress_body); }

/* Three good launches, then a kernel that faults: the program reports the
 * error itself and exits 0; its output must be the same under the profiler. */
__global__ void write_through(float *p) { p[threadIdx.x] = 1.0f; }

static uint64_t case_fault(void)
{
    const int n = 1 << 16;
    float *d, *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 1000);
    d = upload(h, n);
    for (int r = 0; r < 3; r++)
        add_one<<<blocks(n), 256>>>(d, n);
    uint64_t s = download_sum(d, h, n, H0);
    write_through<<<1, 32>>>((float *)(uintptr_t)0x10); /* an address nothing maps */
    cudaError_t e = cudaDeviceSynchronize();
    printf("after the faulting kernel: %s\n", cudaGetErrorName(e));
    /* launches into the dead context fail: the profiler must count them as
     * failed launches, not as launches during a stream capture */
    for (int r = 0; r < 2; r++)
        add_one<<<blocks(n), 256>>>(d, n);
    printf("a launch after the fault: %s\n", cudaGetErrorName(cudaGetLastError()));
    free(h);
    return s;
}

/* Profiled launches, then the process dies of SIGSEGV: the exit status and
 * what was printed before must be the same under the profiler. */
static uint64_t case_crash(void)
{
    const int n = 1 << 16;
    float *d;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemset(d, 0, n * sizeof(float)));
    for (int r = 0; r < 3; r++)
        add_one<<<blocks(n), 256>>>(d, n);
    CHECK(cudaDeviceSynchronize());
    printf("crashing now\n");
    fflush(stdout);
    raise(SIGSEGV);
    return 0;
}

static uint64_t case_multigpu(void)
{
    int n = 0;
    CHECK(cudaGetDeviceCount(&n));
    if (n > 8)
        n = 8;
    return run_workers(n, device_body);
}

static const struct {
    const char *name;
    uint64_t (*run)(void);
} cases[] = {
    {"inplace", case_inplace},   {"atomic", case_atomic},     {"indirect", case_indirect},
    {"devglobal", case_devglobal}, {"tosymbol", case_tosymbol}, {"uninit", case_uninit},
    {"memset", case_memset},     {"managed", case_managed},   {"async", case_async_alloc},
    {"threads", case_threads},   {"graph", case_graph},       {"multigpu", case_multigpu},
    {"pitch", case_pitch},       {"hostmem", case_hostmem},   {"vmm", case_vmm},
    {"surface", case_surface},   {"stress", case_stress},     {"fault", case_fault},
    {"graphsteps", case_graph_steps},
    {"crash", case_crash},
};

int main(int argc, char **argv)
{
    int ran = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const int named = argc > 1 && strcmp(argv[1], cases[i].name) == 0;
        if (argc > 1 && strcmp(argv[1], "all") != 0 && !named)
            continue;
        /* these end the context or the process: only when asked by name */
        if (!named && (strcmp(cases[i].name, "fault") == 0 || strcmp(cases[i].name, "crash") == 0))
            continue;
        print_sum(cases[i].name, cases[i].run());
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "usage: %s [all|inplace|atomic|...]\n", argv[0]);
        return 2;
    }
    return 0;
}
