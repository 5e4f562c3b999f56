#!/bin/sh
# test_preload.sh - LD_PRELOAD=libgpuprof.so into a program that never touches
# CUDA: same stdout, nothing on stderr, even with a malformed variable (it is
# reported only when the program starts CUDA), and no output files.
B=${BUILD:-build}
P=$B/tests/gpu/no_cuda
pass=0; fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
d=$(mktemp -d)
$P >"$d/plain"
(cd "$d" && LD_PRELOAD=$(cd "$OLDPWD" && pwd)/$B/libgpuprof.so "$OLDPWD/$P" >"$d/pre" 2>"$d/err")
check "stdout unchanged" 'cmp -s "$d/plain" "$d/pre"'
check "stderr empty" '[ ! -s "$d/err" ]'
check "no output files" '[ -z "$(ls "$d" | grep gpuprof)" ]'
GPUPROF_LAUNCH_COUNT=abc LD_PRELOAD=$B/libgpuprof.so $P >"$d/pre2" 2>"$d/err2"
check "malformed variable, no CUDA: silent" '[ ! -s "$d/err2" ] && cmp -s "$d/plain" "$d/pre2"'
rm -rf "$d"
echo "preload: $pass passed, $fail failed, 0 skipped"
[ $fail -eq 0 ]
