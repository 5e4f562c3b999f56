/* lines.cu - kernels with line information (built with -lineinfo) for the
 * source-line tests: one with an inlined helper, of different code sizes so
 * that readelf's line table can be told apart by function. */
__device__ __forceinline__ float lines_square(float x)
{
    return x * x;
}

__global__ void lines_saxpy(float a, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * lines_square(x[i]) + y[i];
}

__global__ void lines_count(int *p)
{
    atomicAdd(p + (threadIdx.x & 7), 1);
}
