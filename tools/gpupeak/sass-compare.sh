#!/bin/sh
# sass-compare.sh [REV] - do gpupeak's kernels in the working tree compile to
# the same machine code as at REV (default HEAD)?  Builds the cubins of both
# (nvcc -cubin, the flags of module.mk; no GPU, no cuobjdump needed) and
# compares them kernel by kernel with cubin-diff.py.  Run from the
# repository root; exit status 1 when any kernel differs.
#   sh tools/gpupeak/sass-compare.sh 98a4f1a   # the kernels before the split
set -u
rev=${1:-HEAD}
NVCC=${NVCC:-${CUDA_HOME:-/usr/local/cuda}/bin/nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/old"
git archive "$rev" tools/gpupeak metrics | tar -x -C "$tmp/old" || exit 1
# the sm_90 kernels: one module (gpk_dev_module.cu), or gpk_device.cu before
# the split; the sm_90a ones: gpk_wgmma.cu
cubins() { # $1: tree, $2: out prefix
    src=$1/tools/gpupeak/gpk_dev_module.cu
    [ -f "$src" ] || src=$1/tools/gpupeak/gpk_device.cu
    (cd "$1" && "$NVCC" -O2 -gencode=arch=compute_90,code=sm_90 -lineinfo -I. -cubin \
        "$src" -o "$2-sm90.cubin" &&
     "$NVCC" -O2 -gencode=arch=compute_90a,code=sm_90a -lineinfo -I. -cubin \
        tools/gpupeak/gpk_wgmma.cu -o "$2-sm90a.cubin" 2>"$2.log") || rc=1
    grep -v C7519 "$2.log" >&2 # ptxas's notes on wgmma register use
    return ${rc:-0}
}
cubins "$tmp/old" "$tmp/old" || exit 1
cubins "$(pwd)" "$tmp/new" || exit 1
rc=0
for k in sm90 sm90a; do
    echo "== $k"
    python3 "$(dirname "$0")/cubin-diff.py" "$tmp/old-$k.cubin" "$tmp/new-$k.cubin" || rc=1
done
exit $rc
