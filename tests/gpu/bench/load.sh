#!/bin/sh
# load.sh - the library under load: a program with 10,000 distinct kernels
# and 1,000,000 launches, each kernel profiled once (--max-per-kernel 1,
# one hardware metric), the rest only counted.  Prints the program's own
# time and peak memory natively and under gpuprof, the records written (one
# per profiled launch is expected) and the summary's counts.  A benchmark:
# it asserts nothing; LOAD_N and LOAD_L change the sizes.
B=${BUILD:-build}
N=${LOAD_N:-10000}
L=${LOAD_L:-1000000}
P=$B/tests/gpu/bench/many_kernels
O=${LOAD_OUT:-/tmp/load}
mkdir -p "$O"
echo "== native"
$P "$N" "$L" >"$O/plain" 2>"$O/plain.err"; cat "$O/plain" "$O/plain.err"
echo "== gpuprof --max-per-kernel 1 --metrics gpu__time_duration.sum"
t=$(date +%s%N)
$B/gpuprof --max-per-kernel 1 --metrics gpu__time_duration.sum -o "$O/load" -f $P "$N" "$L" \
    >"$O/prof" 2>"$O/prof.err"
echo "exit $?, wall $(( ($(date +%s%N) - t) / 1000000 )) ms"
cat "$O/prof"; grep "many_kernels:" "$O/prof.err"
cmp -s "$O/plain" "$O/prof" && echo "output unchanged" || echo "OUTPUT CHANGED"
echo "records: $(grep -c '"type":"launch"' "$O/load.jsonl") launch records for $N kernels"
grep -E "launches seen|not profiled:|cross-check" "$O/prof.err" | cut -c1-200
