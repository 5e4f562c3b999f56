// globals.cu - a module with __device__ variables, compiled to a cubin for
// test_cubin.c (the parser must find every one with its size).
__device__ int counter;
__device__ float table[100] = {1.0f};
__device__ double pair[2];
__constant__ float coeffs[8]; // read-only for kernels: not reported
__global__ void use(int *x)
{
    atomicAdd(&counter, 1);
    x[0] = (int)(table[threadIdx.x] + pair[threadIdx.x & 1] + coeffs[threadIdx.x & 7]);
}
