// known_work.cu - kernels whose counts are known by hand.  Prints, for each
// kernel, the expected exact instruction counts and byte counts as
//   expect KERNEL METRIC VALUE
// lines, then a checksum.  tests/gpu/check_known.py compares them with
// gpuprof's output (and with ncu's).
//
//   fma_sp: every thread makes 4 values with 3 FADD, runs `iters` iterations of 4
//           independent FFMA, then sums them with 3 FADD
//   fma_dp: the same in double precision
//   fma_hp: the same with half2 (HFMA2, HADD2)
//   stream_copy: y[i] = x[i] for n floats (n*4 bytes read and written)
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#include "rt_check.h"

__global__ void fma_sp(float *out, int iters, float b, float c)
{
    float a0 = threadIdx.x, a1 = a0 + 1.0f, a2 = a0 + 2.0f, a3 = a0 + 3.0f;
    for (int i = 0; i < iters; i++) {
        a0 = fmaf(a0, b, c);
        a1 = fmaf(a1, b, c);
        a2 = fmaf(a2, b, c);
        a3 = fmaf(a3, b, c);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = (a0 + a1) + (a2 + a3);
}

__global__ void fma_dp(double *out, int iters, double b, double c)
{
    double a0 = threadIdx.x, a1 = a0 + 1.0, a2 = a0 + 2.0, a3 = a0 + 3.0;
    for (int i = 0; i < iters; i++) {
        a0 = fma(a0, b, c);
        a1 = fma(a1, b, c);
        a2 = fma(a2, b, c);
        a3 = fma(a3, b, c);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = (a0 + a1) + (a2 + a3);
}

__global__ void fma_hp(__half2 *io, int iters, __half2 b, __half2 c)
{
    long i = 4l * (blockIdx.x * blockDim.x + threadIdx.x); /* loads and stores: HFMA2 only */
    __half2 a0 = io[i], a1 = io[i + 1], a2 = io[i + 2], a3 = io[i + 3];
    for (int k = 0; k < iters; k++) {
        a0 = __hfma2(a0, b, c);
        a1 = __hfma2(a1, b, c);
        a2 = __hfma2(a2, b, c);
        a3 = __hfma2(a3, b, c);
    }
    io[i] = a0;
    io[i + 1] = a1;
    io[i + 2] = a2;
    io[i + 3] = a3;
}

__global__ void stream_copy(const float *__restrict__ x, float *__restrict__ y, long n)
{
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i];
}

int main(int argc, char **argv)
{
    int repeat = argc > 1 ? atoi(argv[1]) : 1;
    (void)repeat;
    const int blocks = 528, threads = 256, iters = 1000;
    const long threads_total = (long)blocks * threads;
    const long n = 64l << 20; // 64 Mi floats = 256 MiB each way
    float *o_sp, *x, *y;
    double *o_dp;
    __half2 *o_hp;
    CHECK(cudaMalloc(&o_sp, threads_total * sizeof(float)));
    CHECK(cudaMalloc(&o_dp, threads_total * sizeof(double)));
    CHECK(cudaMalloc(&o_hp, 4 * threads_total * sizeof(__half2)));
    CHECK(cudaMemset(o_hp, 0x30, 4 * threads_total * sizeof(__half2)));
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&y, n * sizeof(float)));
    CHECK(cudaMemset(x, 0x3c, n * sizeof(float)));
    for (int r = 0; r < repeat; r++) {
        fma_sp<<<blocks, threads>>>(o_sp, iters, 0.999f, 0.001f);
        fma_dp<<<blocks, threads>>>(o_dp, iters, 0.999, 0.001);
        fma_hp<<<blocks, threads>>>(o_hp, iters, __float2half2_rn(0.999f), __float2half2_rn(0.001f));
        stream_copy<<<(unsigned)((n + 255) / 256), 256>>>(x, y, n);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("expect fma_sp smsp__sass_thread_inst_executed_op_ffma_pred_on.sum %ld\n",
           threads_total * 4 * iters);
    /* 3 adds make a1..a3 from a0, 3 more sum the chains */
    printf("expect fma_sp smsp__sass_thread_inst_executed_op_fadd_pred_on.sum %ld\n",
           threads_total * 6);
    printf("expect fma_sp l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum %ld\n",
           threads_total * 4);
    printf("expect fma_dp smsp__sass_thread_inst_executed_op_dfma_pred_on.sum %ld\n",
           threads_total * 4 * iters);
    printf("expect fma_dp smsp__sass_thread_inst_executed_op_dadd_pred_on.sum %ld\n",
           threads_total * 6);
    printf("expect fma_hp smsp__sass_thread_inst_executed_op_hfma_pred_on.sum %ld\n",
           threads_total * 4 * iters);
    printf("expect fma_hp smsp__sass_thread_inst_executed_op_hadd_pred_on.sum 0\n");
    printf("expect stream_copy l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum %ld\n", n * 4);
    printf("expect stream_copy l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum %ld\n", n * 4);
    printf("expect stream_copy dram__bytes_read.sum %ld\n", n * 4);
    /* written data may still sit in L2 when the kernel ends: at least n*4
     * minus the L2 size reaches DRAM during the kernel, at most n*4 (+1%) */
    int l2 = 0;
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
    printf("expect_range stream_copy dram__bytes_write.sum %ld %ld\n", n * 4 - l2,
           n * 4 + n * 4 / 100);
    printf("expect_range fma_sp dram__bytes_write.sum 0 %ld\n", threads_total * 4);
    float h[4];
    CHECK(cudaMemcpy(h, y + 12345, sizeof(h), cudaMemcpyDeviceToHost));
    printf("checksum known_work %08x\n", *(unsigned *)h);
    return 0;
}
