// multi_device.cu - work on two devices whose results must not change under
// the profiler (tests/gpu/multi_gpu.sh).  `multi_device MODE` prints
// "checksum MODE HEX" on stdout and, on stderr, one "expect device D KERNEL N"
// line per (device, kernel) it launched, so that the script can check that
// every launch was profiled and named the right device.
//
// Modes:
//   one-thread    one host thread switches between devices 0 and 1
//   two-threads   one host thread per device, meeting at barriers
//   peer-write    a kernel on device 0 updates device 1's memory in place
//                 through peer access (memory of another device, which a
//                 replay must restore as well)
//   one-device N  N in-place updates on device 0 alone (for timing; run it
//                 with CUDA_VISIBLE_DEVICES to pick the GPU)
//
// Each device runs, in phases separated by a full synchronization (and, with
// two threads, a barrier): a writer (mg_fill), in-place updates (mg_update,
// 3 launches on device 0 and 4 on device 1, so that a record naming the wrong
// device shows in the counts), a peer copy of the other device's buffer
// (cudaMemcpyPeer into device 0, cudaMemcpyPeerAsync into device 1) folded in
// by mg_mix, then a kernel reading the other device's memory through peer
// access (mg_peer_read).  When the devices cannot access each other, the
// program says so on stderr ("peer access ... not supported") and leaves out
// only the peer-access kernels.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_check.h"

#define MG_N (1 << 20)
#define MG_BYTES ((size_t)MG_N * sizeof(float))

__global__ void mg_fill(float *x, int n, float seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = (float)(i % 1013) * 0.5f + seed;
}

__global__ void mg_update(float *x, int n, float k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 0.75f + k;
}

__global__ void mg_mix(float *x, const float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] + 0.5f * y[i];
}

/* x is this device's; other is the other device's, read through peer access */
__global__ void mg_peer_read(float *x, const float *other, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 0.5f + other[n - 1 - i];
}

/* remote is the other device's, written in place through peer access */
__global__ void mg_peer_update(float *remote, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        remote[i] = remote[i] * 1.5f + 1.0f;
}

static uint64_t fnv(const void *p, size_t n, uint64_t h)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

static const int grid = (MG_N + 255) / 256;

/* what one device holds and how many launches of each kernel it made */
struct mg_dev {
    int id;
    float *a, *b, *c;
    cudaStream_t s;
    int n_fill, n_update, n_mix, n_peer_read, n_peer_update;
};

static struct mg_dev devs[2];
static int peer_ok;
static pthread_barrier_t barrier;
static int threaded;

static void mg_sync_point(void)
{
    if (threaded)
        pthread_barrier_wait(&barrier);
}

/* Whether devices 0 and 1 can read each other's memory; enables it both ways. */
static int mg_enable_peer(void)
{
    int can01 = 0, can10 = 0;
    CHECK(cudaDeviceCanAccessPeer(&can01, 0, 1));
    CHECK(cudaDeviceCanAccessPeer(&can10, 1, 0));
    if (!can01 || !can10) {
        fprintf(stderr,
                "peer access between devices 0 and 1 not supported (0->1 %d, 1->0 %d): the "
                "peer-access kernels are left out\n",
                can01, can10);
        return 0;
    }
    for (int d = 0; d < 2; d++) {
        CHECK(cudaSetDevice(d));
        cudaError_t e = cudaDeviceEnablePeerAccess(1 - d, 0);
        if (e == cudaErrorPeerAccessAlreadyEnabled)
            (void)cudaGetLastError(); /* the refusal is also the last error: cleared */
        else
            CHECK(e);
    }
    return 1;
}

static void mg_phase_setup(struct mg_dev *d)
{
    CHECK(cudaSetDevice(d->id));
    CHECK(cudaStreamCreateWithFlags(&d->s, cudaStreamNonBlocking));
    CHECK(cudaMalloc(&d->a, MG_BYTES));
    CHECK(cudaMalloc(&d->b, MG_BYTES));
    CHECK(cudaMalloc(&d->c, MG_BYTES));
    mg_fill<<<grid, 256>>>(d->a, MG_N, 1.0f + d->id);
    mg_fill<<<grid, 256>>>(d->c, MG_N, 7.0f + d->id);
    d->n_fill += 2;
    for (int r = 0; r < 3 + d->id; r++) {
        mg_update<<<grid, 256>>>(d->a, MG_N, 0.25f * (float)(r + 1));
        d->n_update++;
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
}

/* The other device's a into this device's b by a peer copy, folded into c. */
static void mg_phase_copy(struct mg_dev *d)
{
    const struct mg_dev *o = &devs[1 - d->id];
    CHECK(cudaSetDevice(d->id));
    if (d->id == 0) {
        /* it may return before the copy ends, and d->s does not wait for the default stream */
        CHECK(cudaMemcpyPeer(d->b, d->id, o->a, o->id, MG_BYTES));
        CHECK(cudaDeviceSynchronize());
    } else { /* the kernel after it in the same stream, no host wait between them */
        CHECK(cudaMemcpyPeerAsync(d->b, d->id, o->a, o->id, MG_BYTES, d->s));
    }
    mg_mix<<<grid, 256, 0, d->s>>>(d->c, d->b, MG_N);
    d->n_mix++;
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
}

/* Reads the other device's a (which no one writes in this phase). */
static void mg_phase_peer(struct mg_dev *d)
{
    if (!peer_ok)
        return;
    CHECK(cudaSetDevice(d->id));
    mg_peer_read<<<grid, 256>>>(d->c, devs[1 - d->id].a, MG_N);
    d->n_peer_read++;
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
}

static uint64_t mg_phase_sum(struct mg_dev *d, float *h, uint64_t sum)
{
    CHECK(cudaSetDevice(d->id));
    CHECK(cudaMemcpy(h, d->a, MG_BYTES, cudaMemcpyDeviceToHost));
    sum = fnv(h, MG_BYTES, sum);
    CHECK(cudaMemcpy(h, d->c, MG_BYTES, cudaMemcpyDeviceToHost));
    return fnv(h, MG_BYTES, sum);
}

static void mg_free(struct mg_dev *d)
{
    CHECK(cudaSetDevice(d->id));
    CHECK(cudaFree(d->a));
    CHECK(cudaFree(d->b));
    CHECK(cudaFree(d->c));
    CHECK(cudaStreamDestroy(d->s));
}

static void *mg_thread(void *arg)
{
    struct mg_dev *d = (struct mg_dev *)arg;
    mg_phase_setup(d);
    mg_sync_point();
    mg_phase_copy(d);
    mg_sync_point();
    mg_phase_peer(d);
    mg_sync_point();
    return NULL;
}

static void mg_expect(void)
{
    static const char *const names[] = {"mg_fill", "mg_update", "mg_mix", "mg_peer_read",
                                        "mg_peer_update"};
    for (int i = 0; i < 2; i++) {
        const int n[] = {devs[i].n_fill, devs[i].n_update, devs[i].n_mix, devs[i].n_peer_read,
                         devs[i].n_peer_update};
        for (int k = 0; k < 5; k++)
            if (n[k])
                fprintf(stderr, "expect device %d %s %d\n", i, names[k], n[k]);
    }
}

/* The two-device modes: one thread or two, the same work and checksum. */
static uint64_t mg_two_devices(int two_threads)
{
    uint64_t sum = 1469598103934665603ull;
    float *h = (float *)malloc(MG_BYTES);
    if (!h) {
        fprintf(stderr, "out of host memory\n");
        exit(2);
    }
    peer_ok = mg_enable_peer();
    if (two_threads) {
        pthread_t th[2];
        threaded = 1;
        pthread_barrier_init(&barrier, NULL, 2);
        for (int i = 0; i < 2; i++)
            if (pthread_create(&th[i], NULL, mg_thread, &devs[i]) != 0) {
                fprintf(stderr, "pthread_create failed\n");
                exit(2);
            }
        for (int i = 0; i < 2; i++)
            pthread_join(th[i], NULL);
        pthread_barrier_destroy(&barrier);
    } else {
        for (int i = 0; i < 2; i++)
            mg_phase_setup(&devs[i]);
        for (int i = 0; i < 2; i++)
            mg_phase_copy(&devs[i]);
        for (int i = 0; i < 2; i++)
            mg_phase_peer(&devs[i]);
    }
    for (int i = 0; i < 2; i++)
        sum = mg_phase_sum(&devs[i], h, sum);
    for (int i = 0; i < 2; i++)
        mg_free(&devs[i]);
    free(h);
    return sum;
}

/* A kernel on device 0 updates device 1's a in place, twice. */
static uint64_t mg_peer_write(void)
{
    uint64_t sum = 1469598103934665603ull;
    float *h = (float *)malloc(MG_BYTES);
    if (!h) {
        fprintf(stderr, "out of host memory\n");
        exit(2);
    }
    peer_ok = mg_enable_peer();
    if (!peer_ok) {
        free(h);
        return sum;
    }
    for (int i = 0; i < 2; i++) {
        struct mg_dev *d = &devs[i];
        CHECK(cudaSetDevice(i));
        CHECK(cudaMalloc(&d->a, MG_BYTES));
        mg_fill<<<grid, 256>>>(d->a, MG_N, 3.0f + i);
        d->n_fill++;
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
    }
    CHECK(cudaSetDevice(0));
    for (int r = 0; r < 2; r++) {
        mg_peer_update<<<grid, 256>>>(devs[1].a, MG_N);
        devs[0].n_peer_update++;
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 2; i++) {
        CHECK(cudaSetDevice(i));
        CHECK(cudaMemcpy(h, devs[i].a, MG_BYTES, cudaMemcpyDeviceToHost));
        sum = fnv(h, MG_BYTES, sum);
        CHECK(cudaFree(devs[i].a));
    }
    free(h);
    return sum;
}

static uint64_t mg_one_device(int n)
{
    float *a, *h = (float *)malloc(MG_BYTES);
    if (!h) {
        fprintf(stderr, "out of host memory\n");
        exit(2);
    }
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&a, MG_BYTES));
    mg_fill<<<grid, 256>>>(a, MG_N, 5.0f);
    devs[0].n_fill++;
    for (int r = 0; r < n; r++) {
        mg_update<<<grid, 256>>>(a, MG_N, 0.125f * (float)(r % 8));
        devs[0].n_update++;
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, a, MG_BYTES, cudaMemcpyDeviceToHost));
    uint64_t sum = fnv(h, MG_BYTES, 1469598103934665603ull);
    CHECK(cudaFree(a));
    free(h);
    return sum;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    int ndev = 0;
    uint64_t sum;
    devs[0].id = 0;
    devs[1].id = 1;
    if (strcmp(mode, "one-device") == 0) {
        int n = argc > 2 ? atoi(argv[2]) : 40;
        sum = mg_one_device(n > 0 ? n : 40);
    } else if (strcmp(mode, "one-thread") == 0 || strcmp(mode, "two-threads") == 0 ||
               strcmp(mode, "peer-write") == 0) {
        CHECK(cudaGetDeviceCount(&ndev));
        if (ndev < 2) {
            fprintf(stderr, "%s needs 2 devices, %d visible\n", mode, ndev);
            return 3;
        }
        if (strcmp(mode, "peer-write") == 0)
            sum = mg_peer_write();
        else
            sum = mg_two_devices(strcmp(mode, "two-threads") == 0);
    } else {
        fprintf(stderr, "usage: %s one-thread|two-threads|peer-write|one-device [N]\n", argv[0]);
        return 2;
    }
    printf("checksum %s %016llx\n", mode, (unsigned long long)sum);
    mg_expect();
    return 0;
}
