/* plain.cu - a kernel built without line information (lineinfo tests). */
__global__ void plain_kernel(int *p)
{
    p[threadIdx.x] = 1;
}
