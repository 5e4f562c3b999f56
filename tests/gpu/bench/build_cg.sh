#!/bin/sh
# build_cg.sh - builds NVIDIA's conjugateGradient sample (github.com/NVIDIA/
# cuda-samples, Samples/4_CUDA_Libraries/conjugateGradient: a CG solver on
# cuSPARSE and cuBLAS) as a long-running iterative solver for
# tests/gpu/bench/none_targets.sh.  Three changes, made with sed so that the
# sample's own code is what runs: the matrix order (N, default 2^24 instead
# of 2^20), no convergence test (the sample's matrix converges in about 20
# iterations; the loop runs every iteration, as a solver benchmark does: the
# residual reaches 0, then NaN, the kernels' work stays the same) and the
# iteration count, read from the environment (CG_ITERS, default 10000) so
# that the run's length can be chosen without a rebuild.  The sample prints
# each iteration's residual and exits 1 when it stops at the iteration count.
#     sh tests/gpu/bench/build_cg.sh CUDA_SAMPLES_DIR OUTPUT_BINARY [N]
set -e
src=$1 out=$2 n=${3:-16777216}
[ -f "$src/Samples/4_CUDA_Libraries/conjugateGradient/main.cpp" ] || {
    echo "build_cg: $src is not a cuda-samples checkout" >&2; exit 2; }
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -e "s/M = N = 1048576;/M = N = $n;/" \
    -e 's/while (r1 > tol \* tol \&\& k <= max_iter)/while (k <= max_iter)/' \
    -e 's/const int   max_iter = 10000;/const int   max_iter = getenv("CG_ITERS") ? atoi(getenv("CG_ITERS")) : 10000;/' \
    "$src/Samples/4_CUDA_Libraries/conjugateGradient/main.cpp" >"$tmp/main.cpp"
for pat in "M = N = $n;" "while (k <= max_iter)" 'getenv("CG_ITERS")'; do
    grep -q "$pat" "$tmp/main.cpp" || { echo "build_cg: the sample changed; '$pat' not applied" >&2; exit 2; }
done
"$NVCC" -O2 -std=c++17 -arch=sm_90 -I"$src/Common" -o "$out" "$tmp/main.cpp" -lcublas -lcusparse
echo "build_cg: $out (N = $n)"
