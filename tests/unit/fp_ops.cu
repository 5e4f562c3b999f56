// fp_ops.cu - one kernel with each FP operation the SASS pass classifies by
// opcode; compiled to a cubin for test_sass_derive.c (no GPU needed).
#include <cuda_fp16.h>
__global__ void fp_ops(const float *a, const double *d, const __half2 *h, float *of, double *od,
                       __half2 *oh)
{
    int i = threadIdx.x;
    of[i] = fmaf(a[i], a[i + 1], a[i + 2]);   // FFMA
    of[i + 64] = a[i + 3] * a[i + 4];         // FMUL
    of[i + 128] = a[i + 5] + a[i + 6];        // FADD
    od[i] = fma(d[i], d[i + 1], d[i + 2]);    // DFMA
    od[i + 64] = d[i + 3] * d[i + 4];         // DMUL
    od[i + 128] = d[i + 5] + d[i + 6];        // DADD
    oh[i] = __hfma2(h[i], h[i + 1], h[i + 2]); // HFMA2
    oh[i + 64] = __hmul2(h[i + 3], h[i + 4]);  // HMUL2
    oh[i + 128] = __hadd2(h[i + 5], h[i + 6]); // HADD2
}
