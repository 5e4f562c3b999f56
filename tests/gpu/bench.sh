#!/bin/sh
# bench.sh - speed figures (run on the GPU machine; prints figures, asserts nothing).
#  1. time per profiled launch, gpuprof vs ncu, same metric list, same program,
#     REPEAT x 3 launches of tests/gpu/known_work;
#  2. cost of a launch the filters exclude (many_launches, 100000 launches).
B=${BUILD:-build}
G=$B/tests/gpu
LIB=$(cd "$B" && pwd)/libgpuprof.so
OUT=${GPU_TEST_OUT:-$B/gpu-test-out}
REPEAT=${REPEAT:-20}
mkdir -p "$OUT"
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.3f\", $1 }"; }
launches=$((REPEAT * 4))   # known_work launches 4 kernels per repeat

t0=$(now); $G/known_work $REPEAT >/dev/null; t1=$(now)
plain=$(calc "$t1 - $t0")
t0=$(now); GPUPROF_OUTPUT=$OUT/bench LD_PRELOAD=$LIB $G/known_work $REPEAT >/dev/null 2>"$OUT/bench.err"; t1=$(now)
gp=$(calc "$t1 - $t0")
prof=$(grep -c '"type":"launch"' "$OUT/bench.jsonl")
passes=$(grep -o '"passes":[0-9]*' "$OUT/bench.jsonl" | sort | uniq -c | tr '\n' ' ')
METRICS=$(python3 -c "import json;r=[json.loads(l) for l in open('$OUT/bench.jsonl')];print(','.join(m for m in [x for x in r if x['type']=='launch'][0]['metrics'] if not m.endswith('peak_sustained')))")
t0=$(now); ncu --clock-control none --cache-control all --metrics "$METRICS" $G/known_work $REPEAT >"$OUT/bench.ncu.log" 2>&1; t1=$(now)
nc=$(calc "$t1 - $t0")
ncp=$(grep -c '^  [a-z_]*(' "$OUT/bench.ncu.log")   # kernel reports ncu wrote
echo "bench: plain run $plain s; $launches launches"
echo "bench: gpuprof $gp s, $prof launches profiled ($passes): $(calc "($gp - $plain) * 1000 / $prof") ms per profiled launch"
echo "bench: ncu     $nc s, $ncp kernel reports: $(calc "($nc - $plain) * 1000 / $ncp") ms per profiled launch"
grep 'the profiler added' "$OUT/bench.err"

# Launch cost: 5 rounds of the five variants, interleaved; medians.  Two
# figures per variant: until all launches finished (field 6) and until all were
# enqueued (field 8, the host's own cost of a launch).
ML_N=${ML_N:-200000}  # a launch-bound loop of 200000 launches
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
for r in 1 2 3 4 5; do
    $G/many_launches $ML_N >>"$OUT/ml.plain"
    GPUPROF_KERNEL_INCLUDE=no_such_kernel GPUPROF_CROSSCHECK=0 LD_PRELOAD=$LIB $G/many_launches $ML_N 2>/dev/null >>"$OUT/ml.filt0"
    GPUPROF_KERNEL_INCLUDE=no_such_kernel LD_PRELOAD=$LIB $G/many_launches $ML_N 2>/dev/null >>"$OUT/ml.filt1"
    GPUPROF_KERNEL_INCLUDE=no_such_kernel GPUPROF_CROSSCHECK=all LD_PRELOAD=$LIB $G/many_launches $ML_N 2>/dev/null >>"$OUT/ml.filtall"
    GPUPROF_ENABLE=0 GPUPROF_CROSSCHECK=0 LD_PRELOAD=$LIB $G/many_launches $ML_N 2>/dev/null >>"$OUT/ml.off"
done
for field in 6 8; do
    m() { awk -v f=$field '{print $f}' "$OUT/ml.$1" | median; }
    p=$(m plain); f0=$(m filt0); f1=$(m filt1); fa=$(m filtall); off=$(m off)
    what=$([ $field = 6 ] && echo "until finished" || echo "until enqueued")
    echo "bench: launch cost $what (median of 5 x $ML_N launches): plain $p us; filtered out $f0 us (+$(calc "$f0 - $p") us) without the activity cross-check, $f1 us (+$(calc "$f1 - $p") us) with it on the first 1000 (default), $fa us (+$(calc "$fa - $p") us) with it on all; GPUPROF_ENABLE=0 $off us (+$(calc "$off - $p") us)"
done
