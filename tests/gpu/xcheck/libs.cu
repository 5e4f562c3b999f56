// libs.cu - library kernels for the cross-check against ncu: cuBLAS SGEMM,
// HGEMM and BF16 GEMM (tensor cores), cuFFT (1D complex, 2D real), Thrust/CUB
// sort, reduce and scan.  Prints one checksum per part so that the output
// can be compared with and without the profiler.
//   libs [blas|fft|thrust|all]
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        int e_ = (int)(x);                                                                         \
        if (e_) {                                                                                  \
            fprintf(stderr, "%s failed: %d\n", #x, e_);                                            \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

template <typename T> static double device_sum(const T *d, size_t n)
{
    T *h = (T *)malloc(n * sizeof(T));
    CHECK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += (double)(float)h[i];
    free(h);
    return s;
}

__global__ void fill_f32(float *p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned x = (unsigned)i * 2654435761u + seed;
        x ^= x >> 13;
        p[i] = (float)(x % 2001) / 1000.0f - 1.0f;
    }
}
template <typename T> __global__ void to_lowp(const float *in, T *out, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = (T)in[i];
}

static void blas(void)
{
    const int n = 1024;
    const size_t nn = (size_t)n * n;
    float *a, *b, *c;
    __half *ha, *hb, *hc;
    __nv_bfloat16 *ba, *bb, *bc;
    CHECK(cudaMalloc(&a, nn * 4));
    CHECK(cudaMalloc(&b, nn * 4));
    CHECK(cudaMalloc(&c, nn * 4));
    CHECK(cudaMalloc(&ha, nn * 2));
    CHECK(cudaMalloc(&hb, nn * 2));
    CHECK(cudaMalloc(&hc, nn * 2));
    CHECK(cudaMalloc(&ba, nn * 2));
    CHECK(cudaMalloc(&bb, nn * 2));
    CHECK(cudaMalloc(&bc, nn * 2));
    fill_f32<<<256, 256>>>(a, nn, 1);
    fill_f32<<<256, 256>>>(b, nn, 2);
    to_lowp<<<256, 256>>>(a, ha, nn);
    to_lowp<<<256, 256>>>(b, hb, nn);
    to_lowp<<<256, 256>>>(a, ba, nn);
    to_lowp<<<256, 256>>>(b, bb, nn);
    cublasHandle_t h;
    CHECK(cublasCreate(&h));
    float one = 1, zero = 0;
    CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n));
    CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, ha, CUDA_R_16F, n, hb, CUDA_R_16F,
                       n, &zero, hc, CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    CHECK(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, ba, CUDA_R_16BF, n, bb,
                       CUDA_R_16BF, n, &zero, bc, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT));
    CHECK(cudaDeviceSynchronize());
    printf("blas sgemm %.4e hgemm %.4e bf16 %.4e\n", device_sum(c, nn), device_sum(hc, nn),
           device_sum(bc, nn));
    cublasDestroy(h);
    cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(ha), cudaFree(hb), cudaFree(hc);
    cudaFree(ba), cudaFree(bb), cudaFree(bc);
}

static void fft(void)
{
    const int n1 = 1 << 20, nx = 512, ny = 512;
    cufftComplex *x, *y, *z2;
    float *r2;
    CHECK(cudaMalloc(&x, n1 * sizeof(cufftComplex)));
    CHECK(cudaMalloc(&y, n1 * sizeof(cufftComplex)));
    CHECK(cudaMalloc(&r2, (size_t)nx * ny * 4));
    CHECK(cudaMalloc(&z2, (size_t)nx * (ny / 2 + 1) * sizeof(cufftComplex)));
    fill_f32<<<256, 256>>>((float *)x, 2 * (size_t)n1, 3);
    fill_f32<<<256, 256>>>(r2, (size_t)nx * ny, 4);
    cufftHandle p1, p2;
    CHECK(cufftPlan1d(&p1, n1, CUFFT_C2C, 1));
    CHECK(cufftPlan2d(&p2, nx, ny, CUFFT_R2C));
    CHECK(cufftExecC2C(p1, x, y, CUFFT_FORWARD));
    CHECK(cufftExecR2C(p2, r2, z2));
    CHECK(cudaDeviceSynchronize());
    printf("fft c2c %.4e r2c %.4e\n", device_sum((float *)y, 2 * (size_t)n1),
           device_sum((float *)z2, 2 * (size_t)nx * (ny / 2 + 1)));
    cufftDestroy(p1), cufftDestroy(p2);
    cudaFree(x), cudaFree(y), cudaFree(r2), cudaFree(z2);
}

static void thrust_algos(void)
{
    const size_t n = 1 << 22;
    thrust::device_vector<float> v(n);
    fill_f32<<<256, 256>>>(thrust::raw_pointer_cast(v.data()), n, 5);
    thrust::device_vector<unsigned> k(n);
    thrust::transform(v.begin(), v.end(), k.begin(),
                      [] __device__(float f) { return (unsigned)((f + 1.0f) * 1e6f); });
    thrust::sort(k.begin(), k.end());
    thrust::sort(v.begin(), v.end());
    double s = thrust::reduce(v.begin(), v.end(), 0.0);
    /* an integer scan: CUB's decoupled look-back adds float partials in an
     * order that depends on timing, so a float scan differs run to run */
    thrust::device_vector<unsigned long long> sc(n);
    thrust::inclusive_scan(k.begin(), k.end(), sc.begin());
    unsigned k0 = k[0], kl = k[n - 1];
    unsigned long long last = sc[n - 1];
    printf("thrust sum %.6e scan %llu keys %u..%u\n", s, last, k0, kl);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    int all = strcmp(what, "all") == 0;
    if (all || !strcmp(what, "blas"))
        blas();
    if (all || !strcmp(what, "fft"))
        fft();
    if (all || !strcmp(what, "thrust"))
        thrust_algos();
    return 0;
}
