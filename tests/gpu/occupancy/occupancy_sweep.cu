// occupancy_sweep - records the driver's own occupancy answer
// (cuOccupancyMaxActiveBlocksPerMultiprocessor) over block sizes x register
// counts x static and dynamic shared memory x carveout x opt-in, as CSV on
// stdout.  Saved as tests/data/occupancy-h100.csv, it is the table `make test`
// checks metrics/catalog/occupancy.c against (tests/report/test_occupancy.c).
//
//   occupancy_sweep > tests/data/occupancy-h100.csv
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>

// Register pressure: R independent accumulators live across a loop; __maxnreg__
// caps what the compiler may use, so each kernel lands near its cap.
#define GP_HEAVY(NAME, CAP, R)                                                                     \
    __global__ void __maxnreg__(CAP) NAME(float *out, const float *in, int n)                     \
    {                                                                                              \
        float acc[R];                                                                              \
        _Pragma("unroll") for (int k = 0; k < R; k++) acc[k] = in[(threadIdx.x + k) % n];          \
        for (int it = 0; it < n; it++) {                                                           \
            float x = in[it];                                                                      \
            _Pragma("unroll") for (int k = 0; k < R; k++) acc[k] = fmaf(acc[k], x, acc[(k + 1) % R]); \
        }                                                                                          \
        float s = 0;                                                                               \
        _Pragma("unroll") for (int k = 0; k < R; k++) s += acc[k];                                 \
        out[blockIdx.x * blockDim.x + threadIdx.x] = s;                                            \
    }

GP_HEAVY(k_regs32, 32, 24)
GP_HEAVY(k_regs64, 64, 56)
GP_HEAVY(k_regs72, 72, 64)
GP_HEAVY(k_regs96, 96, 88)
GP_HEAVY(k_regs128, 128, 120)
GP_HEAVY(k_regs168, 168, 160)
GP_HEAVY(k_regs255, 255, 240)

__global__ void k_light(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * 2.0f;
}

#define GP_SMEM(NAME, BYTES)                                                                       \
    __global__ void NAME(float *out, const float *in, int n)                                      \
    {                                                                                              \
        __shared__ float s[(BYTES) / 4];                                                           \
        for (int k = threadIdx.x; k < (BYTES) / 4; k += blockDim.x) s[k] = in[k % n];              \
        __syncthreads();                                                                           \
        out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x * 7) % ((BYTES) / 4)];         \
    }
GP_SMEM(k_smem1k, 1024)
GP_SMEM(k_smem10k, 10240)
GP_SMEM(k_smem40k, 40960)

struct gp_kernel {
    const char *name;
    const void *fn;
};

int main(void)
{
    const gp_kernel kernels[] = {
        {"k_light", (const void *)k_light},     {"k_regs32", (const void *)k_regs32},
        {"k_regs64", (const void *)k_regs64},
        {"k_regs72", (const void *)k_regs72},   {"k_regs96", (const void *)k_regs96},
        {"k_regs128", (const void *)k_regs128}, {"k_regs168", (const void *)k_regs168},
        {"k_regs255", (const void *)k_regs255}, {"k_smem1k", (const void *)k_smem1k},
        {"k_smem10k", (const void *)k_smem10k}, {"k_smem40k", (const void *)k_smem40k},
    };
    const int blocks[] = {1, 16, 32, 48, 64, 96, 128, 160, 192, 256, 384, 512, 640, 768, 1024};
    const int dyns[] = {0, 1, 1024, 8192, 20000, 32768, 47000, 65536, 100000, 160000, 226000};
    const int carveouts[] = {-1, 0, 50, 100};
    cudaDeviceProp p;
    int dev = 0, cases = 0;
    if (cudaGetDeviceProperties(&p, dev) != cudaSuccess || cudaFree(0) != cudaSuccess) {
        fprintf(stderr, "occupancy_sweep: no usable CUDA device\n");
        return 1;
    }
    printf("# device: %s; sm_%d%d; %d SMs; smem_per_sm %zu; smem_per_block %zu; optin %zu; "
           "reserved %zu; regs_per_sm %d; max_threads_per_sm %d; max_blocks_per_sm %d\n",
           p.name, p.major, p.minor, p.multiProcessorCount, p.sharedMemPerMultiprocessor,
           p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.reservedSharedMemPerBlock,
           p.regsPerMultiprocessor, p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
    printf("kernel,regs_per_thread,static_smem,max_dynamic_smem,carveout,block,dynamic_smem,rc,"
           "blocks_per_sm\n");
    for (const gp_kernel &k : kernels) {
        cudaFunction_t rf;
        if (cudaGetFuncBySymbol(&rf, k.fn) != cudaSuccess) {
            fprintf(stderr, "occupancy_sweep: cudaGetFuncBySymbol(%s) failed\n", k.name);
            return 1;
        }
        CUfunction f = (CUfunction)rf;
        int regs = 0, stat = 0, maxt = 0;
        cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
        cuFuncGetAttribute(&stat, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
        cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
        for (int optin = 0; optin < 2; optin++) {
            int maxdyn = optin ? (int)p.sharedMemPerBlockOptin - stat : (int)p.sharedMemPerBlock - stat;
            if (cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, maxdyn) !=
                CUDA_SUCCESS) {
                fprintf(stderr, "occupancy_sweep: cannot set max dynamic smem %d on %s\n", maxdyn,
                        k.name);
                continue;
            }
            for (int c : carveouts) {
                cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, c);
                for (int b : blocks) {
                    if (b > maxt)
                        continue;
                    for (int d : dyns) {
                        if (d > maxdyn)
                            continue;
                        int n = -1;
                        CUresult rc = cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, b, (size_t)d);
                        printf("%s,%d,%d,%d,%d,%d,%d,%d,%d\n", k.name, regs, stat, maxdyn, c, b, d,
                               (int)rc, rc == CUDA_SUCCESS ? n : -1);
                        cases++;
                    }
                }
            }
        }
    }
    printf("# cases: %d\n", cases);
    return 0;
}
