#!/bin/sh
# device-run.sh - everything the GPU machine checks and times, in one call:
#   run "sh tests/gpu/device-run.sh" there with build/ carried from here.
# Logs and outputs are packed into $OUT/gpu.tgz when OUT is set.
export GPU_TEST_OUT=/tmp/gpu
mkdir -p "$GPU_TEST_OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
timeout 400 sh tests/gpu/run-gpu-tests.sh >"$GPU_TEST_OUT/gpu-tests.log" 2>&1
tail -60 "$GPU_TEST_OUT/gpu-tests.log"
[ "${SKIP_BENCH:-0}" = 1 ] || timeout 150 sh tests/gpu/bench.sh 2>&1 | tee "$GPU_TEST_OUT/bench.log"
[ -n "$OUT" ] && tar czf "$OUT/gpu.tgz" -C "$GPU_TEST_OUT" .
