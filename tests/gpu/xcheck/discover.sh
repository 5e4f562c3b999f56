#!/bin/sh
# discover.sh - a contributor's diagnostic for the GPU machine: what the
# SASS Metrics API offers on this chip, what ncu's raw SASS counters are on
# the access-pattern kernels, how ncu attributes DRAM writes (cache control
# all vs none), and the machine code of the pattern kernels with encodings.
# Everything goes under $D (default /tmp/discover); prints a short digest.
B=${BUILD:-build}
X=$B/tests/gpu/xcheck
D=${D:-/tmp/discover}
mkdir -p "$D"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
ncu --version | tail -1
chip=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H100 && echo gh100 || echo gh100)

# 1. ncu's metric list (base names and descriptions)
ncu --query-metrics --chip $chip >"$D/ncu-query.txt" 2>&1
grep -c . "$D/ncu-query.txt"
for m in smsp__sass_average_data_bytes_per_sector_mem_global_op_ld \
         smsp__sass_average_data_bytes_per_wavefront_mem_shared; do
    ncu --query-metrics-mode suffix --metrics $m --chip $chip >>"$D/ncu-suffix.txt" 2>&1
done

# 2. the SASS Metrics API's metrics and their per-instruction values
timeout 120 $X/sassdump >"$D/sassdump.txt" 2>&1 || timeout 120 $X/sassdump 8 >"$D/sassdump8.txt" 2>&1
grep -c '^metric' "$D/sassdump.txt"; grep -E "^(error|setconfig|sassdump)" "$D/sassdump.txt" | head -5

# 3. ncu's raw SASS memory counters on the patterns
names=$(awk '{print $1}' "$D/ncu-query.txt" | grep -E '^smsp__sass_(data_bytes|sectors|l1tex|inst_executed_op_(global|shared|ld|st|ldsm|ldgsts|atom|red|generic|local)|thread_inst_executed_op_(global|shared|generic|ldgsts))' | sort -u)
avg=$(awk '{print $1}' "$D/ncu-query.txt" | grep -E '^smsp__sass_average_' | sort -u)
list=$( (for n in $names; do echo "$n.sum"; done; for n in $avg; do echo "$n.pct"; echo "$n.ratio"; done) | paste -sd, -)
echo "$list" | tr ',' '\n' >"$D/ncu-sass-list.txt"
wc -l <"$D/ncu-sass-list.txt"
timeout 300 ncu --csv --page raw --print-units base --clock-control none --cache-control all \
    --metrics "$list" $X/patterns >"$D/ncu-patterns-sass.csv" 2>"$D/ncu-patterns-sass.err"
echo "ncu sass rc=$?"; tail -3 "$D/ncu-patterns-sass.err"

# 4. gpuprof (this build) on the same program, default metrics
GPUPROF_OUTPUT=$D/gp-patterns LD_PRELOAD=$PWD/$B/libgpuprof.so $X/patterns >"$D/gp-patterns.out" 2>"$D/gp-patterns.err"
$X/patterns >"$D/plain-patterns.out"
cmp "$D/gp-patterns.out" "$D/plain-patterns.out" && echo "patterns output unchanged"
METRICS=$(python3 -c "import json;r=[json.loads(l) for l in open('$D/gp-patterns.jsonl')];print(','.join(m for m in [x for x in r if x['type']=='launch'][0]['metrics'] if not m.endswith('peak_sustained')))")
timeout 300 ncu --csv --page raw --print-units base --clock-control none --cache-control all \
    --metrics "$METRICS" $X/patterns >"$D/ncu-patterns.csv" 2>"$D/ncu-patterns.err"
echo "ncu default rc=$?"

# 5. DRAM writes: ncu's cache control all vs none, on the known-work kernels
W=dram__bytes_write.sum,dram__bytes_read.sum,lts__t_sectors_op_write.sum,lts__t_bytes.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second
for cc in all none; do
    timeout 200 ncu --csv --page raw --print-units base --clock-control none --cache-control $cc \
        --metrics $W $B/tests/gpu/known_work 2 >"$D/ncu-known-$cc.csv" 2>&1
done
GPUPROF_METRICS=$W GPUPROF_OUTPUT=$D/gp-known LD_PRELOAD=$PWD/$B/libgpuprof.so $B/tests/gpu/known_work 2 >/dev/null 2>"$D/gp-known.err"
for f in "$D/ncu-known-all.csv" "$D/ncu-known-none.csv"; do
    echo "== $f"; grep -E '^"[0-9]' "$f" | cut -d, -f5,12- | cut -c1-220
done
grep '"type":"launch"' "$D/gp-known.jsonl" | grep -o '"kernel":"[^"]*"\|"dram__bytes_write.sum":[0-9.e+]*\|"gpu__time_duration.sum":[0-9.e+]*' | paste - - - | cut -c1-200

# 6. machine code with encodings
cuobjdump -sass $X/patterns >"$D/patterns.sass" 2>&1
(cd "$D" && cuobjdump -xelf all "$OLDPWD/$X/patterns" >/dev/null 2>&1; for f in *.cubin; do nvdisasm -hex -c "$f" >"$f.hex.sass" 2>&1; done)
ls "$D" | head -40
