#!/bin/sh
# release-check.sh - one call on the GPU machine that checks and times a
# release's changes (prints figures and PASS/FAIL lines; build/ built on the
# development machine and carried).  PARTS picks what runs (default: all):
#   same     the library of an earlier build (OLD, default build/old: its
#            libgpuprof.so and libgpuprof-core.so) against this one: replay
#            cases' checksums and known-work records (same_as_before.sh)
#   cost     the cost of a launch the filters exclude, the earlier build and
#            this one interleaved in the same call (many_launches, medians)
#   tests    run-gpu-tests.sh without the long corpus sections (TESTS_S)
#   details  tests/gpu/details/check.sh (Nsight Compute's sets against ncu)
#   setup    the set-up cache (bench/setup_cache.sh)
#   bench    time per profiled launch beside ncu: the default set, and
#            GPUPROF_SASS_EFFICIENCY=own (bench.sh, REPEAT)
#   oob      a program that reads past its buffer: outputs unchanged
# OUT=dir: logs packed into $OUT/release.tgz.
B=${BUILD:-build}
G=$B/tests/gpu
PARTS=${PARTS:-same cost tests details setup bench oob}
L=/tmp/release-check
mkdir -p "$L"
export GPU_TEST_OUT=$L/gpu
mkdir -p "$GPU_TEST_OUT"
has() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
stamp() { echo "== $1 ($(date +%T))"; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
if has same; then
    stamp same
    OLD=${OLD:-$B/old} timeout ${SAME_S:-240} sh tests/gpu/same_as_before.sh 2>&1 | tail -4
fi
if has cost; then
    stamp cost
    NEWLIB=$(cd "$B" && pwd)/libgpuprof.so
    OLDLIB=$(cd "${OLD:-$B/old}" && pwd)/libgpuprof.so
    N=${ML_N:-200000}
    for r in $(seq ${ML_ROUNDS:-5}); do
        $G/many_launches $N >>"$L/ml.plain"
        for v in old new; do
            lib=$([ $v = old ] && echo "$OLDLIB" || echo "$NEWLIB")
            GPUPROF_KERNEL_INCLUDE=no_such_kernel GPUPROF_CROSSCHECK=0 LD_PRELOAD=$lib $G/many_launches $N 2>/dev/null >>"$L/ml.$v.filt0"
            GPUPROF_KERNEL_INCLUDE=no_such_kernel LD_PRELOAD=$lib $G/many_launches $N 2>/dev/null >>"$L/ml.$v.filt1"
            GPUPROF_ENABLE=0 GPUPROF_CROSSCHECK=0 LD_PRELOAD=$lib $G/many_launches $N 2>/dev/null >>"$L/ml.$v.off"
        done
    done
    median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
    for field in 6 8; do
        m() { awk -v f=$field '{print $f}' "$L/ml.$1" | median; }
        echo "cost (field $field, $([ $field = 6 ] && echo until finished || echo until enqueued), us per $N launches, median of ${ML_ROUNDS:-5}): plain $(m plain); filtered, no cross-check: old $(m old.filt0) new $(m new.filt0); filtered, default: old $(m old.filt1) new $(m new.filt1); GPUPROF_ENABLE=0: old $(m old.off) new $(m new.off)"
    done
fi
if has tests; then
    stamp tests
    SKIP_XCHECK=1 SKIP_WHERE=1 SKIP_ROOFLINE=1 SKIP_SPLIT=${SKIP_SPLIT:-1} SKIP_NONE=${SKIP_NONE:-1} \
        timeout ${TESTS_S:-300} sh tests/gpu/run-gpu-tests.sh >"$L/gpu-tests.log" 2>&1
    grep -E "^(FAIL|SKIP)" "$L/gpu-tests.log" | cut -c1-200
    grep -cE "^PASS" "$L/gpu-tests.log" | sed 's/^/PASS lines: /'
    grep -E "^(known|gpu|gpu-ranges|gpu-none|gpu-split):" "$L/gpu-tests.log"
fi
if has details && [ -f tests/gpu/details/check.sh ]; then
    stamp details
    DT_OUT=$L/details timeout ${DETAILS_S:-240} sh tests/gpu/details/check.sh 2>&1 | grep -v "^PASS" | tail -40
fi
if has setup && [ -f tests/gpu/bench/setup_cache.sh ]; then
    stamp setup
    timeout ${SETUP_S:-150} sh tests/gpu/bench/setup_cache.sh 2>&1 | tail -6
fi
if has bench; then
    stamp bench
    ML_N=1 REPEAT=${REPEAT:-3} timeout ${BENCH_S:-120} sh tests/gpu/bench.sh 2>&1 | grep -v "launch cost" | sed 's/^/default: /'
    [ "${BENCH_OWN:-1}" = 1 ] && GPUPROF_SASS_EFFICIENCY=own REPEAT=${REPEAT:-3} timeout 120 sh tests/gpu/bench.sh 2>&1 | grep -v "launch cost\|ncu " | sed 's/^/own: /'
fi
if has oob; then
    stamp oob
    LIB=$(cd "$B" && pwd)/libgpuprof.so
    for mode in neighbor first after past-end; do
        $G/oob_read $mode >"$L/oob.plain" 2>&1; rp=$?
        GPUPROF_OUTPUT=$L/oob LD_PRELOAD=$LIB $G/oob_read $mode >"$L/oob.prof" 2>"$L/oob.err"; rg=$?
        if [ $rp = $rg ] && cmp -s "$L/oob.plain" "$L/oob.prof"; then echo "PASS oob_read $mode: output and status unchanged ($rp)"
        else echo "FAIL oob_read $mode: status $rp -> $rg"; diff "$L/oob.plain" "$L/oob.prof" | head -3; fi
        grep -i "not valid\|fault" "$L/oob.err" | head -2
    done
fi
stamp end
[ -n "$OUT" ] && tar czf "$OUT/release.tgz" -C "$L" . 2>/dev/null
exit 0
