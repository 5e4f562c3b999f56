#!/bin/sh
# replay_cost.sh - what a profiled launch costs when the program holds far
# more memory than its kernels touch, gpuprof beside ncu in one run (prints
# figures, asserts nothing; run on the GPU machine with build/ carried):
#   1. JAX (XLA preallocates 75% of GPU memory), two profiled launches;
#   2. PyTorch holding a 20 GB tensor, ten profiled elementwise launches;
#   3. a PyTorch training step (a new kernel at nearly every launch);
#   4. a many-pass set: 250 hardware metrics of ncu's full set on known_work;
#   5. what one counter pass costs inside CUPTI, by counter unit and by API
#      (pass_cost, outside the profiler: section passcost).
# Each: plain, gpuprof (incremental snapshot, the default), gpuprof with the
# whole-footprint snapshot (GPUPROF_SNAPSHOT_INCREMENTAL=0) where it takes
# less than a few minutes, and ncu with the same metric list and count.
# BENCH_ONLY="jax torch_big torch_train manypass bigwrite passcost" picks sections.
B=${BUILD:-build}
LIB=$(cd "$B" && pwd)/libgpuprof.so
OUT=${GPU_TEST_OUT:-$B/gpu-test-out}/replay-cost
HERE=$(dirname "$0")
PY=${PYTHON:-python3}
mkdir -p "$OUT"
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.1f\", $1 }"; }
want() { [ -z "$BENCH_ONLY" ] || echo " $BENCH_ONLY " | grep -q " $1 "; }

# name, launches to profile, skip, command; then optional "old" to time the
# whole-footprint snapshot too
bench() {
    name=$1 n=$2 skip=$3 cmd=$4 old=$5
    t0=$(now); sh -c "$cmd" >"$OUT/$name.plain" 2>"$OUT/$name.plain.err"; t1=$(now)
    plain=$(calc "$t1 - $t0")
    GPUPROF_LAUNCH_SKIP=$skip GPUPROF_LAUNCH_COUNT=$n GPUPROF_OUTPUT=$OUT/$name GPUPROF_LOG_LEVEL=info \
        timeout 400 env LD_PRELOAD=$LIB sh -c "$cmd" >"$OUT/$name.prof" 2>"$OUT/$name.prof.err"
    t2=$(now)
    gp=$(calc "$t2 - $t1")
    prof=$(grep -c '"type":"launch"' "$OUT/$name.jsonl" 2>/dev/null)
    same=$(cmp -s "$OUT/$name.plain" "$OUT/$name.prof" && echo "output unchanged" || echo "OUTPUT DIFFERS")
    echo "replay-cost $name: plain $plain s; gpuprof $gp s, $prof launches profiled, $same:" \
        "$(calc "($gp - $plain) * 1000 / ($prof > 0 ? $prof : 1)") ms per profiled launch"
    grep -h -E "snapshot|the profiler added" "$OUT/$name.prof.err" | head -4 | cut -c1-300
    $PY -c "
import json,statistics,sys
ms=[r.get('replay_ms') for r in map(json.loads,open(sys.argv[1])) if r.get('type')=='launch']
ms=[m for m in ms if m is not None]
if len(ms)>1: print('replay-cost %s: after the first profiled launch, by the profiler\'s clock: median %.1f ms, max %.1f ms (first %.1f ms)' % (sys.argv[2], statistics.median(ms[1:]), max(ms[1:]), ms[0]))" \
        "$OUT/$name.jsonl" "$name" 2>/dev/null
    if [ "$old" = old ]; then
        t1=$(now)
        GPUPROF_SNAPSHOT_INCREMENTAL=0 GPUPROF_LAUNCH_SKIP=$skip GPUPROF_LAUNCH_COUNT=$n \
            GPUPROF_OUTPUT=$OUT/$name.full timeout 400 env LD_PRELOAD=$LIB sh -c "$cmd" \
            >"$OUT/$name.full.out" 2>"$OUT/$name.full.err"
        t2=$(now)
        fp=$(grep -c '"type":"launch"' "$OUT/$name.full.jsonl" 2>/dev/null)
        echo "replay-cost $name: whole-footprint snapshot $(calc "$t2 - $t1") s:" \
            "$(calc "($t2 - $t1 - $plain) * 1000 / ($fp > 0 ? $fp : 1)") ms per profiled launch"
    fi
    list=$($PY -c "
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    if r.get('type')=='launch':
        print(','.join(m for m in r['metrics'] if not m.endswith('peak_sustained'))); break" "$OUT/$name.jsonl" 2>/dev/null)
    [ -n "$NCU_LIST" ] && list=$NCU_LIST
    t1=$(now)
    timeout 400 ncu --clock-control none --cache-control all -s "$skip" -c "$n" --metrics "$list" \
        sh -c "$cmd" >"$OUT/$name.ncu" 2>&1
    t2=$(now)
    nr=$(grep -c '^  [^ ].*(' "$OUT/$name.ncu")
    echo "replay-cost $name: ncu $(calc "$t2 - $t1") s, $nr kernel reports:" \
        "$(calc "($t2 - $t1 - $plain) * 1000 / ($nr > 0 ? $nr : 1)") ms per profiled launch"
    grep -m1 -i "backing up\|slow" "$OUT/$name.ncu" | cut -c1-200
}

if ! nvidia-smi -L >/dev/null 2>&1; then echo "replay-cost: skipped: no GPU"; exit 0; fi
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
have_jax=0; $PY -c 'import jax; assert jax.devices("gpu")' 2>/dev/null && have_jax=1
have_torch=0; $PY -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null && have_torch=1

if want jax; then
    if [ $have_jax = 1 ]; then bench jax 2 0 "$PY $HERE/jax_small.py"
    else echo "replay-cost jax: skipped: python3 cannot use jax with a GPU here"; fi
fi
if want torch_big; then
    if [ $have_torch = 1 ]; then bench torch_big 10 17 "$PY $HERE/torch_big.py" old  # after the 16 launches that fill the 20 GB and linspace
    else echo "replay-cost torch_big: skipped: no torch with CUDA"; fi
fi
if want torch_train; then
    if [ $have_torch = 1 ]; then bench torch_train 60 0 "$PY $HERE/../xcheck/torch_train.py"
    else echo "replay-cost torch_train: skipped: no torch with CUDA"; fi
fi
if want manypass; then
    # 250 hardware (not SASS) metrics spread over ncu's full set (every k-th of its
    # counter rollups, its own derived and device attributes left out), as ncu names them
    ncu --set full -c 1 --csv --page raw --print-units base "$B/tests/gpu/known_work" 1 \
        >"$OUT/full.csv" 2>/dev/null
    NCU_LIST=$($PY tests/gpu/ncu_full.py list "$OUT/full.csv" 250 2>/dev/null)
    if [ -n "$NCU_LIST" ]; then
        export GPUPROF_METRICS="$NCU_LIST"
        bench manypass 4 0 "$B/tests/gpu/known_work 1"
        # where a pass's time goes (CUPTI's start and stop of each pass), and
        # CUPTI's own kernel replay (one start and stop around all passes)
        for mode in profiler cupti; do
            t1=$(now)
            GPUPROF_REPLAY=$mode GPUPROF_LAUNCH_COUNT=4 GPUPROF_LOG_LEVEL=debug GPUPROF_OUTPUT=$OUT/mp-$mode \
                timeout 400 env LD_PRELOAD=$LIB "$B/tests/gpu/known_work" 1 >/dev/null 2>"$OUT/mp-$mode.err"
            t2=$(now)
            echo "replay-cost manypass GPUPROF_REPLAY=$mode: $(calc "$t2 - $t1") s for 4 launches;" \
                "$(grep -o '"passes":[0-9]*' "$OUT/mp-$mode.jsonl" | head -1)"
            grep -h "ms in all" "$OUT/mp-$mode.err" | tail -1 | sed 's/.*: \([0-9.]* ms in all\)/  \1/' | cut -c1-300
        done
        unset GPUPROF_METRICS
        grep -o '"passes":[0-9]*' "$OUT/manypass.jsonl" | sort | uniq -c | head -3
    else echo "replay-cost manypass: skipped: ncu --set full gave no metric names"; fi
    NCU_LIST=
fi
if want bigwrite; then
    # a 12-pass set on a kernel whose working set is 10 GiB and which writes
    # 100 MiB: restores should move about what it wrote, not the 10 GiB
    L=$(grep -v '^#' "$HERE/passes12-gh100.txt")
    cmd="$B/tests/gpu/bench/big_writes 10 100 3"
    t0=$(now); $cmd >"$OUT/bigwrite.plain" 2>&1; t1=$(now); t1b=$t1
    GPUPROF_METRICS=$L GPUPROF_OUTPUT=$OUT/bigwrite GPUPROF_LOG_LEVEL=info \
        timeout 400 env LD_PRELOAD=$LIB $cmd >"$OUT/bigwrite.prof" 2>"$OUT/bigwrite.prof.err"
    t2=$(now)
    same=$(cmp -s "$OUT/bigwrite.plain" "$OUT/bigwrite.prof" && echo "output unchanged" || echo "OUTPUT DIFFERS")
    echo "replay-cost bigwrite: plain $(calc "$t1 - $t0") s; gpuprof $(calc "$t2 - $t1") s, $same"
    $PY -c "
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    if r.get('type')!='launch': continue
    p=r.get('passes',0); b=r.get('bytes_restored',0)
    print('replay-cost bigwrite: launch %s: %d passes, %.1f MB restored in all, %.1f MB per pass after the first; %s chunks restored; saved %.1f MB; restore %.1f ms; %.1f ms in all' % (
        r.get('launch_id'), p, b/1e6, b/1e6/max(p-1,1), r.get('chunks_restored'), r.get('bytes_saved',0)/1e6,
        r.get('restore_ms') or 0, r.get('replay_ms') or 0))" "$OUT/bigwrite.jsonl" 2>&1 | head -5
    t1=$(now)
    timeout 300 ncu --clock-control none --cache-control all -c 3 --metrics "$L" $cmd \
        >"$OUT/bigwrite.ncu" 2>&1
    nrc=$?
    t2=$(now)
    echo "replay-cost bigwrite: ncu $(calc "$t2 - $t1") s for 3 launches (rc $nrc; plain $(calc "$t1b - $t0"))"
    grep -m1 -i "backing up\|slow" "$OUT/bigwrite.ncu" | cut -c1-200
fi
if want passcost; then
    # CUPTI's start and stop of a pass, call by call, on a 4M-element saxpy: which
    # counters make a pass dear, and whether the older target API (one session,
    # BeginPass/EndPass) is cheaper than the range profiler's Start/Stop
    PC=$B/tests/gpu/bench/pass_cost
    pc_line() { grep "launch 2:" | sed 's/; values.*//' | sed "s|^|  $1: |"; }
    for m in gpu__time_duration.sum smsp__inst_executed.sum l1tex__t_bytes.sum sm__cycles_elapsed.avg \
             dram__bytes_read.sum lts__t_bytes.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
             smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct; do
        timeout 60 "$PC" "$m" range 3 2>&1 | pc_line "$m alone"
    done
    # the default set's hardware metrics, its instrumented ones, both as one
    # configuration (one image range, then the 96 of a batch)
    $PY - "$B" <<'PYEOF'
import re,sys
names=[m.group(1) for l in open('metrics/catalog/counters.def')
       for m in [re.match(r'GP_COUNTER\("([^"]+)", "[^"]*", "[^"]*", "default"', l)] if m]
own=('smsp__sass_thread_inst_executed_op_global_pred_on.sum','smsp__sass_thread_inst_executed_op_shared_pred_on.sum',
     'smsp__sass_thread_inst_executed_op_ldgsts_pred_on.sum','smsp__sass_sectors_mem_global_ideal.sum',
     'smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum')
rp=[n for n in names if not n.startswith('gpuprof__') and n not in own]
instr=[n for n in rp if '__sass_' in n and not n.endswith('.peak_sustained')]
hw=[n for n in rp if n not in instr]
for f,l in (('hw',hw),('instr',instr),('both',hw+instr)):
    open('%s/pass_cost_%s.txt'%(sys.argv[1],f),'w').write(','.join(l)+'\n')
PYEOF
    timeout 60 "$PC" "@$B/pass_cost_hw.txt" range 3 2>&1 | pc_line "default set, hardware metrics"
    timeout 60 "$PC" "@$B/pass_cost_instr.txt" range 3 2>&1 | pc_line "default set, instrumented metrics"
    timeout 60 "$PC" "@$B/pass_cost_both.txt" range 3 2>&1 | pc_line "default set, one configuration, 1 range"
    RANGES=96 timeout 60 "$PC" "@$B/pass_cost_both.txt" range 3 2>&1 | pc_line "default set, one configuration, 96 ranges"
    L12="@$HERE/passes12-gh100.txt"
    for mode in range session keep; do
        timeout 120 "$PC" "$L12" $mode 3 2>&1 | pc_line "71 counters in 12 passes, $mode"
    done
fi
