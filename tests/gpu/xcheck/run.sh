#!/bin/sh
# run.sh - the cross-check corpus: each program runs plain, under gpuprof and
# under ncu (--clock-control none, the same metric list and launch count);
# outputs must be unchanged under gpuprof, and `gpuprof-report --against`
# (the command users run to check gpuprof on their own program) matches
# launches and judges every (launch, metric) pair of each program.  Needs a
# GPU and ncu; python3 with torch and triton for the framework programs
# (skipped, with the reason, when absent).
#   sh tests/gpu/xcheck/run.sh [program...]      (default: all)
# XC_OUT: where outputs go (default build/xcheck-out); per program P:
# P.jsonl, P.ncu.csv, P.ncu2.csv, P.ncu-dram.csv, P.ncu-dram2.csv and P.against.txt (the
# comparison; its messages in P.against.err).  XC_EXTRA=1 adds ncu's raw SASS memory counters to ncu's list
# (for studying definitions).  XC_NCU_REPEAT=1 (default) runs ncu a second
# time with the same list, and its one-pass run of the DRAM writes and L2
# bytes a second time: a (launch, metric) pair whose two ncu values
# disagree under the tolerances has no oracle value to agree with, and
# --against lists it apart (XC_NCU_REPEAT=0: one ncu run of each, every
# pair judged).  compare.py, the Python form of the same rules, gives a second
# opinion when python3 is there (compare.txt); the verdict is --against's.
B=${BUILD:-build}
X=$B/tests/gpu/xcheck
LIB=$(cd "$B" && pwd)/libgpuprof.so
O=${XC_OUT:-$B/xcheck-out}
HERE=$(dirname "$0")
mkdir -p "$O"
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); echo "PASS $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
skipped() { skip=$((skip + 1)); echo "SKIP $*"; }

if ! nvidia-smi -L >/dev/null 2>&1; then
    skipped "cross-check against ncu: no GPU on this machine"
    echo "xcheck-run: $pass passed, $fail failed, $skip skipped"; exit 0
fi
if ! command -v ncu >/dev/null 2>&1; then
    skipped "cross-check against ncu: ncu not installed"
    echo "xcheck-run: $pass passed, $fail failed, $skip skipped"; exit 0
fi
PY=${PYTHON:-python3}
have_torch=0; $PY -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null && have_torch=1
have_triton=0; $PY -c 'import triton' 2>/dev/null && have_triton=1

# name | launches | command
corpus() {
    cat <<EOF
patterns|60|$X/patterns
known_work|4|$B/tests/gpu/known_work 1
cublas|20|$X/libs blas
cufft|16|$X/libs fft
thrust|30|$X/libs thrust
torch_train|60|$PY $HERE/torch_train.py
torch_graph|30|$PY $HERE/torch_graph.py
triton|6|$PY $HERE/triton_kernels.py
EOF
}

# gpuprof's default metric list, as its records name them
metrics_of() {
    $PY -c "
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    if r.get('type')=='launch':
        print(','.join(m for m in r['metrics'] if not m.endswith('peak_sustained'))); break" "$1"
}

EXTRA=smsp__sass_data_bytes_mem_global_op_ld.sum,smsp__sass_data_bytes_mem_global_op_st.sum,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_data_bytes_mem_shared.sum,smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_data_bytes_mem_shared_op_ld.sum,smsp__sass_data_bytes_mem_shared_op_st.sum,smsp__sass_data_bytes_mem_shared_op_ldsm.sum,smsp__sass_data_bytes_mem_shared_op_ldgsts.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,smsp__sass_inst_executed_op_shared_gmma.sum,smsp__sass_data_bytes_mem_global_op_ldgsts.sum,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum

DRAM_ALONE=${XC_DRAM_ALONE:-dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum}

corpus >"$O/corpus.txt"
while IFS='|' read -r name n cmd; do
    [ $# -gt 0 ] && ! echo " $* " | grep -q " $name " && continue
    case $name in
        torch_*) [ $have_torch = 1 ] || { skipped "$name: python3 cannot use torch with CUDA here"; continue; } ;;
        triton) [ $have_triton = 1 ] || { skipped "$name: python3 has no triton"; continue; } ;;
    esac
    rm -f "$O/$name.jsonl" "$O/$name.csv" "$O/$name.sass"
    t0=$(date +%s.%N)
    sh -c "$cmd" >"$O/$name.plain" 2>"$O/$name.plain.err"
    t1=$(date +%s.%N)
    GPUPROF_LAUNCH_COUNT=$n GPUPROF_OUTPUT=$O/$name GPUPROF_SASS_DUMP=$O/$name.sass \
        timeout 600 env LD_PRELOAD=$LIB sh -c "$cmd" >"$O/$name.prof" 2>"$O/$name.prof.err"
    rc=$?
    t2=$(date +%s.%N)
    if [ $rc -eq 0 ] && cmp -s "$O/$name.plain" "$O/$name.prof" && [ -s "$O/$name.jsonl" ]; then
        ok "$name: output unchanged under gpuprof ($(grep -c '"type":"launch"' "$O/$name.jsonl") launches profiled)"
    else
        bad "$name: rc=$rc; plain '$(head -c 200 "$O/$name.plain")' profiled '$(head -c 200 "$O/$name.prof")'"
        tail -3 "$O/$name.prof.err"
        continue
    fi
    list=$(metrics_of "$O/$name.jsonl")
    [ "${XC_EXTRA:-0}" = 1 ] && list="$list,$EXTRA"
    timeout 900 ncu --csv --page raw --print-units base --clock-control none --cache-control all \
        -c "$n" --metrics "$list" sh -c "$cmd" >"$O/$name.ncu.csv" 2>"$O/$name.ncu.err"
    t3=$(date +%s.%N)
    rm -f "$O/$name.ncu2.csv"
    if [ "${XC_NCU_REPEAT:-1}" = 1 ]; then
        timeout 900 ncu --csv --page raw --print-units base --clock-control none --cache-control all \
            -c "$n" --metrics "$list" sh -c "$cmd" >"$O/$name.ncu2.csv" 2>"$O/$name.ncu2.err"
    fi
    # DRAM writes and L2 bytes with nothing restored: Nsight Compute with
    # these metrics alone needs one pass, so its kernel replay restores no
    # memory (with more passes, the lines it restores before a pass are dirty
    # in L2 and their write-back is charged to the kernel, and its passes'
    # memory-barrier traffic adds L2 bytes); --against-one-pass takes these
    # metrics from this run
    timeout 900 ncu --csv --page raw --print-units base --clock-control none --cache-control all \
        -c "$n" --metrics "$DRAM_ALONE" sh -c "$cmd" >"$O/$name.ncu-dram.csv" 2>"$O/$name.ncu-dram.err"
    # and again: a one-pass value ncu does not repeat (write-backs that land
    # in one run and not the next) has no oracle value, as with the full list
    rm -f "$O/$name.ncu-dram2.csv"
    if [ "${XC_NCU_REPEAT:-1}" = 1 ]; then
        timeout 900 ncu --csv --page raw --print-units base --clock-control none --cache-control all \
            -c "$n" --metrics "$DRAM_ALONE" sh -c "$cmd" >"$O/$name.ncu-dram2.csv" 2>"$O/$name.ncu-dram2.err"
    fi
    awk -v n="$name" -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" \
        'BEGIN { printf "time %s: plain %.1f s, gpuprof %.1f s, ncu %.1f s\n", n, b - a, c - b, d - c }'
done <"$O/corpus.txt"
# the access patterns against values computed by hand (nvprof's meaning,
# bank efficiency, constant moves)
if [ -s "$O/patterns.jsonl" ]; then
    if $PY "$HERE/check_patterns.py" "$O/patterns.jsonl" >"$O/patterns.check"; then
        ok "$(tail -1 "$O/patterns.check")"
    else bad "$(tail -1 "$O/patterns.check")"; grep FAIL "$O/patterns.check" | head -10; fi
fi
# the verdict: gpuprof-report --against on each program of $O (verdict.sh)
BUILD=$B PYTHON=$PY sh "$HERE/verdict.sh" "$O" >"$O/verdict.txt"
vrc=$?
cat "$O/verdict.txt"
fail=$((fail + $(grep -c '^FAIL ' "$O/verdict.txt"))); skip=$((skip + $(grep -c '^SKIP ' "$O/verdict.txt")))
echo "xcheck-run: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ] && [ $vrc -eq 0 ]
