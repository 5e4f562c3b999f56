// drv_kernels.cu - kernels loaded by driver_api.c through cuModuleLoadData.
extern "C" __global__ void drv_inc(unsigned *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * 3u + 1u;
}
extern "C" __device__ unsigned drv_counter;
__device__ unsigned drv_counter;
extern "C" __global__ void drv_count(int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&drv_counter, 1u);
}
