// big_writes.cu - a kernel with a large working set that writes little: the
// replay-cost benchmark's "restores move what the kernel wrote" case.
//   big_writes [GiB held] [MiB written] [launches]   (default 10 100 3)
// Holds GiB of non-zero memory, then launches a kernel that adds one to a
// window of MiB of it (the window moves each launch) and reads a sample of
// the rest.  Prints one checksum line, so that profiled and plain runs can be
// compared.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include "../rt_check.h"

__global__ void bump(uint32_t *w, size_t n, const uint32_t *far, size_t stride, uint32_t *sink)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (; i < n; i += (size_t)gridDim.x * blockDim.x)
        w[i] += 1u;
    if (blockIdx.x == 0 && threadIdx.x < 32) // a read of the untouched rest
        atomicAdd(sink, far[threadIdx.x * stride]);
}

int main(int argc, char **argv)
{
    size_t gib = argc > 1 ? strtoull(argv[1], 0, 10) : 10;
    size_t mib = argc > 2 ? strtoull(argv[2], 0, 10) : 100;
    int launches = argc > 3 ? atoi(argv[3]) : 3;
    size_t bytes = gib << 30, window = mib << 20;
    if (window * (size_t)launches > bytes) {
        fprintf(stderr, "big_writes: %d windows of %zu MiB do not fit in %zu GiB\n", launches,
                mib, gib);
        return 2;
    }
    uint32_t *mem, *sink;
    CHECK(cudaMalloc(&mem, bytes));
    CHECK(cudaMalloc(&sink, sizeof(uint32_t)));
    CHECK(cudaMemset(mem, 1, bytes)); // not zero: the snapshot keeps bytes, not tags
    CHECK(cudaMemset(sink, 0, sizeof(uint32_t)));
    size_t words = window / 4, stride = bytes / 4 / 32;
    for (int l = 0; l < launches; l++)
        bump<<<1056, 256>>>(mem + (size_t)l * words, words, mem, stride, sink);
    CHECK(cudaDeviceSynchronize());
    uint64_t sum = 0;
    uint32_t *host = (uint32_t *)malloc(window);
    for (int l = 0; l < launches; l++) {
        CHECK(cudaMemcpy(host, mem + (size_t)l * words, window, cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < words; i++)
            sum += host[i];
    }
    uint32_t s;
    CHECK(cudaMemcpy(&s, sink, sizeof(s), cudaMemcpyDeviceToHost));
    printf("big_writes: %zu GiB held, %d x %zu MiB written: sum %llu sink %u\n", gib, launches,
           mib, (unsigned long long)sum, s);
    free(host);
    return 0;
}
