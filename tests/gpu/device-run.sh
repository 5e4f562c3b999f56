#!/bin/sh
# device-run.sh - everything the GPU machine checks and times, in one call:
#   run "sh tests/gpu/device-run.sh" there with build/ carried from here.
# Logs and outputs are packed into $OUT/gpu.tgz when OUT is set.
export GPU_TEST_OUT=/tmp/gpu
mkdir -p "$GPU_TEST_OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
# 540 s: the capture-range cases (with PyTorch, when it imports) and the ncu cross-check corpus
timeout 540 sh tests/gpu/run-gpu-tests.sh >"$GPU_TEST_OUT/gpu-tests.log" 2>&1
grep -E "^(PASS|FAIL|SKIP)" "$GPU_TEST_OUT/gpu-tests.log" | cut -c1-160
grep -A200 "^kernel " "$GPU_TEST_OUT/gpu-tests.log" | grep -E "FAIL|^kernel" | head -40
grep -E "^(known|gpu|gpu-ranges):" "$GPU_TEST_OUT/gpu-tests.log"
[ -f "$GPU_TEST_OUT/xcheck/compare.txt" ] && awk 'NR == 1 || $3 > 0' "$GPU_TEST_OUT/xcheck/compare.txt" | head -40
[ "${SKIP_PLANTED:-0}" = 1 ] || timeout 200 sh tests/gpu/planted/check.sh 2>&1 | tee "$GPU_TEST_OUT/planted.log" | tail -12
[ "${SKIP_BENCH:-0}" = 1 ] || timeout 200 sh tests/gpu/bench.sh 2>&1 | tee "$GPU_TEST_OUT/bench.log"
[ -n "$OUT" ] && tar czf "$OUT/gpu.tgz" -C "$GPU_TEST_OUT" .
