#!/bin/sh
# test_preload.sh - LD_PRELOAD=libgpuprof.so into programs that never touch
# CUDA: same stdout, nothing on stderr (even with a malformed variable: it is
# reported only when the program starts CUDA), no file created (outputs, log
# file), no library mapped but libgpuprof.so itself (no CUPTI, no C++
# runtime, not the profiler core), no configuration read (a pathological
# regex costs nothing), and the environment changed by CUDA_INJECTION64_PATH
# only (the driver reads it at cuInit).
B=${BUILD:-build}
pass=0; fail=0
check() { if eval "$2"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1"; fi; }
lib=$(cd "$B" && pwd)/libgpuprof.so
P=$(cd "$B" && pwd)/tests/gpu/no_cuda
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
$P >"$d/plain"
(cd "$d" && LD_PRELOAD=$lib "$P" >"$d/pre" 2>"$d/err")
check "stdout unchanged" 'cmp -s "$d/plain" "$d/pre"'
check "stderr empty" '[ ! -s "$d/err" ]'
check "no output files" '[ -z "$(ls "$d" | grep gpuprof)" ]'
GPUPROF_LAUNCH_COUNT=abc LD_PRELOAD=$lib $P >"$d/pre2" 2>"$d/err2"
check "malformed variable, no CUDA: silent" '[ ! -s "$d/err2" ] && cmp -s "$d/plain" "$d/pre2"'

# no file, not even the log file, however the variables are set
(cd "$d" && GPUPROF_LOG_FILE="$d/log" GPUPROF_OUTPUT="$d/out" LD_PRELOAD=$lib /bin/true)
check "GPUPROF_LOG_FILE not created without CUDA" '[ ! -e "$d/log" ] && [ -z "$(ls "$d" | grep out)" ]'

# nothing mapped but the library itself
LD_PRELOAD=$lib cat /proc/self/maps >"$d/maps"
check "libgpuprof.so mapped" 'grep -q "/libgpuprof.so$" "$d/maps"'
check "no CUPTI, C++ runtime or profiler core mapped" \
    '! grep -q "libcupti\|libstdc++\|libgpuprof-core\|libcuda" "$d/maps"'
check "libgpuprof.so needs the C library only" \
    '[ "$(readelf -d "$lib" | grep NEEDED | grep -vc "libc\.so")" = 0 ]'

# the configuration is not read: a regex that takes seconds to compile costs nothing
start=$(date +%s%N)
GPUPROF_KERNEL_INCLUDE='a+++++++++++++++++++++' LD_PRELOAD=$lib /bin/true
took=$(( ($(date +%s%N) - start) / 1000000 ))
check "hostile GPUPROF_KERNEL_INCLUDE, no CUDA: $took ms" '[ "$took" -lt 1000 ]'

# the environment children see: CUDA_INJECTION64_PATH added, nothing else
env | sort >"$d/env-plain"
LD_PRELOAD=$lib env | sort | grep -v "^LD_PRELOAD=" >"$d/env-pre"
check "environment: only CUDA_INJECTION64_PATH added" \
    '[ "$(comm -13 "$d/env-plain" "$d/env-pre" | grep -vc "^CUDA_INJECTION64_PATH=$lib$")" = 0 ]'
echo "preload: $pass passed, $fail failed, 0 skipped"
[ $fail -eq 0 ]
