// range_kernels.cu - kernels of tests/gpu/ranges.c, one per place in the
// program, so that the records say which places were profiled.
#define RK(name, k)                                                                                \
    extern "C" __global__ void name(unsigned *x, int n)                                            \
    {                                                                                              \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                                             \
        if (i < n)                                                                                 \
            x[i] = x[i] * 3u + k;                                                                  \
    }
RK(rk_outside, 1u)
RK(rk_warmup, 2u)
RK(rk_step, 3u)
RK(rk_fwd, 4u)
RK(rk_phase, 5u)
RK(rk_profiled, 6u)
RK(rk_after_stop, 7u)
RK(rk_other_thread, 8u)
