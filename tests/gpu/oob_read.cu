/* oob_read.cu - a kernel that reads a few KB before its buffer, as some
 * classic benchmark programs do: natively the bytes lie in memory that is
 * mapped (the allocation before it), so the program runs and prints its
 * result.  Like those programs it checks no error until the end.
 *
 *   oob_read MODE [BYTES]
 *
 * MODE says what lies before the buffer: "neighbor" (a live allocation made
 * just before it), "freed" (an allocation made before it and freed),
 * "first" (the first allocation of the process); "after", "after-big" and
 * "after-free": the buffer (256 KB, 64 MB, 256 KB) is allocated after a
 * first kernel ran on another one (freed first with after-free), so a
 * profiler's own allocations made at that first launch can lie before it;
 * "past-end": the buffer is the process's only allocation and the kernel
 * reads BYTES past its end, in the padding of the driver's granule (the
 * read a profiler's instrumented replay must survive as the native run
 * does).  BYTES: how far before the buffer (after its end with past-end) the
 * kernel reads (default 4096).  Prints where the buffers are,
 * then the checksum of five later kernels' results, then the first CUDA
 * error seen (if any); exits 0 either way, as such programs do. */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda.h>
#include <cuda_runtime.h>

__global__ void read_before(const float *buf, long before, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = buf[i] + (i == 0 ? buf[-before] * 0.0f : 0.0f);
}

__global__ void scale(float *x, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * a + 1.0f;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "neighbor";
    long bytes = argc > 2 ? atol(argv[2]) : 4096;
    const int n = 1 << 16;
    float *pre = NULL, *buf = NULL, *out = NULL;
    if (strncmp(mode, "after", 5) == 0) {
        cudaMalloc(&pre, n * sizeof(float));
        cudaMemset(pre, 0, n * sizeof(float));
        scale<<<n / 256, 256>>>(pre, 2.0f, n);
        cudaDeviceSynchronize();
        if (strcmp(mode, "after-free") == 0) {
            cudaFree(pre);
            pre = NULL;
        }
        cudaMalloc(&buf, strcmp(mode, "after-big") == 0 ? (64 << 20) : n * sizeof(float));
    } else if (strcmp(mode, "first") == 0 || strcmp(mode, "past-end") == 0) {
        cudaMalloc(&buf, n * sizeof(float));
        cudaMalloc(&pre, n * sizeof(float));
    } else {
        cudaMalloc(&pre, n * sizeof(float));
        cudaMalloc(&buf, n * sizeof(float));
        if (strcmp(mode, "freed") == 0) {
            cudaFree(pre);
            pre = NULL;
        }
    }
    cudaMalloc(&out, n * sizeof(float));
    float *h = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 17);
    cudaMemcpy(buf, h, n * sizeof(float), cudaMemcpyHostToDevice);
    int past = strcmp(mode, "past-end") == 0;
    char *addr = past ? (char *)(buf + n) + bytes : (char *)buf - bytes;
    fprintf(stderr, "oob_read %s: buffer at %p, reading %ld bytes %s it (%p); allocation "
                    "before it at %p\n",
            mode, (void *)buf, bytes, past ? "past the end of" : "before", (void *)addr,
            (void *)pre);
    CUdeviceptr base = 0;
    size_t size = 0;
    CUresult ar = cuMemGetAddressRange(&base, &size, (CUdeviceptr)addr);
    fprintf(stderr, "oob_read: the address read %s\n",
            ar == CUDA_SUCCESS ? "lies in a live allocation" : "lies in no allocation");
    /* on stdout, compared with the native run: the buffers' places relative to
     * each other, which a profiler's own allocations must not move */
    printf("layout: buffer - earlier %lld, out - buffer %lld\n",
           pre ? (long long)((char *)buf - (char *)pre) : 0LL, (long long)((char *)out - (char *)buf));
    /* past-end: buf[-before] is buf[n + bytes / 4], past the end */
    long before = strcmp(mode, "past-end") == 0 ? -(n + bytes / (long)sizeof(float))
                                                : bytes / (long)sizeof(float);
    read_before<<<n / 256, 256>>>(buf, before, out, n);
    for (int k = 0; k < 5; k++)
        scale<<<n / 256, 256>>>(out, 0.5f, n);
    cudaMemcpy(h, out, n * sizeof(float), cudaMemcpyDeviceToHost);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += h[i];
    printf("checksum %.3f\n", sum);
    cudaError_t e = cudaDeviceSynchronize();
    fprintf(stderr, "oob_read: last error: %s\n", cudaGetErrorString(e != cudaSuccess ? e : cudaGetLastError()));
    return 0;
}
