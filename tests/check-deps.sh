#!/bin/sh
# Says plainly what is missing to build gpuprof, and how to install it.
missing=0
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
if [ ! -f /usr/include/uthash.h ] && [ ! -f /usr/local/include/uthash.h ]; then
    echo "gpuprof: uthash.h not found. Install it with:  apt-get install -y uthash-dev" >&2
    missing=1
fi
if [ ! -f "$CUDA_HOME/include/cupti.h" ] || [ ! -x "$CUDA_HOME/bin/nvcc" ]; then
    echo "gpuprof: CUDA toolkit with CUPTI not found at $CUDA_HOME (set CUDA_HOME=...)." >&2
    missing=1
fi
exit $missing
