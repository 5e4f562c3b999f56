# characterize.sh - sourced by the gpuprof-characterize command tests: the
# counters and check helpers, and $tool (absolute) and $lib, the command and
# the library from $BUILD.  Needs $suite set by the caller; ends the test as
# failed when either is not built.
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { if eval "$1"; then ok; else ko "$2"; fi; }
b=${BUILD:-build}
tool=$b/gpuprof-characterize
lib=$b/libgpuprof.so
if [ ! -x "$tool" ] || [ ! -f "$lib" ]; then
    ko "$tool or $lib not built"
    echo "$suite: $pass passed, $fail failed, $skip skipped"; exit 1
fi
tool=$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")
lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
