# common.sh - what the GPU test scripts share (sourced, not run): the build
# paths, where logs and outputs go (GPU_TEST_OUT, default build/gpu-test-out),
# and the PASS/FAIL/SKIP counters with their one-line reports.
B=${BUILD:-build}
G=$B/tests/gpu
OUT=${GPU_TEST_OUT:-$B/gpu-test-out}
mkdir -p "$OUT"
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); echo "PASS $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
skipped() { skip=$((skip + 1)); echo "SKIP $*"; }
