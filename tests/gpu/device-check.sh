#!/bin/sh
# device-check.sh - a shorter device pass than device-run.sh: the chunk-hash
# check, the GPU tests without the ncu corpus and the planted problems, and
# the replay-cost benchmark (BENCH_ONLY picks its sections); MULTI_GPU=1 adds
# the several-GPU checks (multi_gpu.sh).
export GPU_TEST_OUT=/tmp/gpu
mkdir -p "$GPU_TEST_OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
timeout 60 build/tests/gpu/chunk_hash_check 2>&1 | tail -6
SKIP_XCHECK=1 timeout ${TESTS_S:-300} sh tests/gpu/run-gpu-tests.sh >"$GPU_TEST_OUT/gpu-tests.log" 2>&1
grep -E "^(PASS|FAIL|SKIP)" "$GPU_TEST_OUT/gpu-tests.log" | grep -v "^PASS \(static\|shared\) " | cut -c1-170
grep -cE "^PASS (static|shared) " "$GPU_TEST_OUT/gpu-tests.log" | sed 's/^/replay cases passed (static+shared): /'
grep -E "^(known|gpu|gpu-ranges):" "$GPU_TEST_OUT/gpu-tests.log"
# MULTI_GPU=1: the several-GPU checks too (tests/gpu/multi_gpu.sh; two GPUs, about 5 minutes)
if [ "${MULTI_GPU:-0}" = 1 ]; then
    timeout ${MGPU_S:-420} sh tests/gpu/multi_gpu.sh >"$GPU_TEST_OUT/multi-gpu.log" 2>&1
    cut -c1-400 "$GPU_TEST_OUT/multi-gpu.log"
fi
[ -n "$BENCH_ONLY" ] && timeout ${BENCH_S:-200} sh tests/gpu/bench/replay_cost.sh 2>&1
[ -n "$OUT" ] && tar czf "$OUT/gpu.tgz" -C "$GPU_TEST_OUT" . 2>/dev/null
exit 0
