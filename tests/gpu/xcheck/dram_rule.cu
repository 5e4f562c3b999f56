// dram_rule.cu - how DRAM writes are charged to a kernel: a fixed sequence
// of launches whose write traffic is known, for finding Nsight Compute's
// rule by experiment (tests/gpu/xcheck/dram_rule.sh runs it under ncu with
// one-pass and several-pass lists, cache control all and none, and under
// gpuprof).  Every launch is its own kernel, so launches match by name.
//   1 fill_big      writes 256 MiB (more than L2): leaves L2 full of dirty lines
//   2 write_cold    writes 2 MiB not touched since allocation
//   3 write_warm    writes the same 2 MiB again (dirty in L2 from launch 2)
//   4 write_partial writes 4 of every 32 bytes of 2 MiB (partial sectors)
//   5 read_only     reads 2 MiB, writes one word
//   6 write_mid     writes 32 MiB
//   7 write_huge    writes 128 MiB (more than L2)
//   8 rmw_small     adds one to 2 MiB (read-modify-write)
// Prints one checksum line.
#include <cstdio>
#include <cstdint>
#include "../rt_check.h"

__global__ void fill_big(uint32_t *p, size_t n, uint32_t v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = v + (uint32_t)i;
}
__global__ void write_cold(uint32_t *p, size_t n, uint32_t v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = v ^ (uint32_t)i;
}
__global__ void write_warm(uint32_t *p, size_t n, uint32_t v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = v * (uint32_t)i;
}
__global__ void write_partial(uint32_t *p, size_t n, uint32_t v)
{ // one word of each 32-byte sector
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n / 8; i += (size_t)gridDim.x * blockDim.x)
        p[i * 8] = v + (uint32_t)i;
}
__global__ void read_only(const uint32_t *p, size_t n, uint32_t *out)
{
    uint32_t s = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        s += p[i];
    if (s == 0x12345678u)
        *out = s; // almost never: keeps the loads
}
__global__ void write_mid(uint32_t *p, size_t n, uint32_t v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = v - (uint32_t)i;
}
__global__ void write_huge(uint32_t *p, size_t n, uint32_t v)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] = v + 3u * (uint32_t)i;
}
__global__ void rmw_small(uint32_t *p, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        p[i] += 1u;
}

int main()
{
    const size_t MiB = 1 << 20, w = sizeof(uint32_t);
    uint32_t *big, *a, *b, *mid, *huge, *out;
    CHECK(cudaMalloc(&big, 256 * MiB));
    CHECK(cudaMalloc(&a, 2 * MiB));
    CHECK(cudaMalloc(&b, 2 * MiB));
    CHECK(cudaMalloc(&mid, 32 * MiB));
    CHECK(cudaMalloc(&huge, 128 * MiB));
    CHECK(cudaMalloc(&out, w));
    CHECK(cudaMemset(out, 0, w));
    CHECK(cudaDeviceSynchronize());
    const int g = 528, t = 256;
    fill_big<<<g, t>>>(big, 256 * MiB / w, 7);
    write_cold<<<g, t>>>(a, 2 * MiB / w, 11);
    write_warm<<<g, t>>>(a, 2 * MiB / w, 13);
    write_partial<<<g, t>>>(b, 2 * MiB / w, 17);
    read_only<<<g, t>>>(a, 2 * MiB / w, out);
    write_mid<<<g, t>>>(mid, 32 * MiB / w, 19);
    write_huge<<<g, t>>>(huge, 128 * MiB / w, 23);
    rmw_small<<<g, t>>>(a, 2 * MiB / w);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    uint32_t h[4];
    uint64_t sum = 0;
    uint32_t *bufs[] = {big, a, b, mid, huge};
    for (uint32_t *p : bufs) {
        CHECK(cudaMemcpy(h, p + 1000, sizeof h, cudaMemcpyDeviceToHost));
        for (uint32_t x : h)
            sum = sum * 31 + x;
    }
    printf("dram_rule checksum %llu\n", (unsigned long long)sum);
    return 0;
}
