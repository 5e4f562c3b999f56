#!/bin/sh
# sass_own_check.sh - can gpuprof's own SASS pass replace CUPTI's instrumented
# pass for the default set's instrumented metrics?  Each program of the
# cross-check corpus runs under gpuprof with GPUPROF_SASS_EFFICIENCY=check:
# every launch gets CUPTI's instrumented value of each such metric (the
# records' Nsight Compute names) and, from the same launch's SASS pass,
# gpuprof's own derivation of it (gpuprof__sass_own__*).  sass_own_compare.py
# prints every (launch, metric) pair and fails on any difference.  Outputs
# must be unchanged under gpuprof.  On a machine without a GPU: SKIP.
#   sh tests/gpu/sass_own_check.sh [program...]     (default: all)
# OWN_OUT: where the records go (default build/sass-own-out).
B=${BUILD:-build}
X=$B/tests/gpu/xcheck
LIB=$(cd "$B" && pwd)/libgpuprof.so
O=${OWN_OUT:-$B/sass-own-out}
HERE=$(dirname "$0")
PY=${PYTHON:-python3}
mkdir -p "$O"
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); echo "PASS $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
skipped() { skip=$((skip + 1)); echo "SKIP $*"; }

if ! nvidia-smi -L >/dev/null 2>&1; then
    skipped "SASS pass against CUPTI's instrumented pass: no GPU on this machine"
    echo "sass-own-check: $pass passed, $fail failed, $skip skipped"; exit 0
fi
have_torch=0; $PY -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null && have_torch=1
have_triton=0; $PY -c 'import triton' 2>/dev/null && have_triton=1

corpus() {
    cat <<EOF
patterns|60|$X/patterns
known_work|4|$B/tests/gpu/known_work 1
cublas|20|$X/libs blas
cufft|16|$X/libs fft
thrust|30|$X/libs thrust
torch_train|60|$PY $HERE/xcheck/torch_train.py
triton|6|$PY $HERE/xcheck/triton_kernels.py
EOF
}

files=""
corpus >"$O/corpus.txt"
while IFS='|' read -r name n cmd; do
    [ $# -gt 0 ] && ! echo " $* " | grep -q " $name " && continue
    case $name in
        torch_*) [ $have_torch = 1 ] || { skipped "$name: python3 cannot use torch with CUDA here"; continue; } ;;
        triton) [ $have_triton = 1 ] || { skipped "$name: python3 has no triton"; continue; } ;;
    esac
    rm -f "$O/$name.jsonl" "$O/$name.csv"
    sh -c "$cmd" >"$O/$name.plain" 2>"$O/$name.plain.err"
    GPUPROF_SASS_EFFICIENCY=check GPUPROF_LAUNCH_COUNT=$n GPUPROF_OUTPUT=$O/$name \
        timeout 600 env LD_PRELOAD=$LIB sh -c "$cmd" >"$O/$name.prof" 2>"$O/$name.prof.err"
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$O/$name.plain" "$O/$name.prof" && [ -s "$O/$name.jsonl" ]; then
        ok "$name: output unchanged ($(grep -c '"type":"launch"' "$O/$name.jsonl") launches)"
        files="$files $O/$name.jsonl"
    else
        bad "$name: rc=$rc or output changed or no records; $(tail -2 "$O/$name.prof.err")"
    fi
done <"$O/corpus.txt"

if [ -n "$files" ]; then
    # shellcheck disable=SC2086
    $PY "$HERE/sass_own_compare.py" $files >"$O/compare.txt"
    crc=$?
    grep -E '^(DIFF|metric)' "$O/compare.txt"
    line=$(tail -1 "$O/compare.txt")
    if [ $crc -eq 0 ]; then ok "every pair equal: $line"; else bad "pairs differ: $line (all pairs in $O/compare.txt)"; fi
fi
echo "sass-own-check: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
