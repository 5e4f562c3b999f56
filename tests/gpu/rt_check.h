/* rt_check.h - the runtime-API test programs' checked call: names the call
 * and CUDA's error, then ends the program (test programs only). */
#ifndef GP_RT_CHECK_H
#define GP_RT_CHECK_H

#include <cuda_runtime.h>

#include "gp_check.h"

#define CHECK(x) GP_CHECK_CALL(cudaError_t, cudaSuccess, cudaGetErrorString, x, #x, NULL, 2)

#endif
