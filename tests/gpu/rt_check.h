/* rt_check.h - the runtime-API test programs' checked call: names the call
 * and CUDA's error, then ends the program (test programs only). */
#ifndef GP_RT_CHECK_H
#define GP_RT_CHECK_H

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x)                                                                                   \
    do {                                                                                           \
        cudaError_t e_ = (x);                                                                      \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                              \
            exit(2);                                                                               \
        }                                                                                          \
    } while (0)

#endif
