#!/bin/sh
# run-gpu-tests.sh - the GPU tests (run on a machine with a GPU: `make gpu-test`).
# On a machine without a GPU every test reports SKIPPED.  Prints one
# "gpu: N passed, N failed, N skipped" line at the end.
# OUT (optional): where logs and outputs go (default build/gpu-test-out).
. tests/gpu/common.sh
LIB=$(cd "$B" && pwd)/libgpuprof.so

CASES="inplace atomic indirect devglobal tosymbol uninit memset managed async threads graph multigpu pitch hostmem vmm surface graphsteps"
if ! nvidia-smi -L >/dev/null 2>&1; then
    for c in no_cuda $CASES crosscheck driver_api known_work batches batches_mixed no_permission stress fault fault_capture crash \
             gcc_evict capture_ranges torch_ranges split_list replay_none roofline_selfcheck; do skipped "$c: no GPU on this machine"; done
    echo "gpu: $pass passed, $fail failed, $skip skipped"
    exit 0
fi
nvidia-smi -L

# 1. a program that never touches CUDA: same stdout, nothing on stderr
$G/no_cuda >"$OUT/nc.plain"
LD_PRELOAD=$LIB $G/no_cuda >"$OUT/nc.prof" 2>"$OUT/nc.err"
if cmp -s "$OUT/nc.plain" "$OUT/nc.prof" && [ ! -s "$OUT/nc.err" ]; then ok "no_cuda: unchanged, silent"
else bad "no_cuda: output changed or stderr not empty"; cat "$OUT/nc.err"; fi

# 2. results unchanged under a 2-pass metric set, static and shared cudart
for link in static shared; do
    for c in $CASES; do
        exp=$($G/replay_cases_$link $c 2>&1)
        got=$(GPUPROF_OUTPUT=$OUT/rc-$link-$c timeout 300 env LD_PRELOAD=$LIB \
              $G/replay_cases_$link $c 2>"$OUT/rc-$link-$c.err")
        rc=$?
        passes=$(grep -o '"passes":[0-9]*' "$OUT/rc-$link-$c.jsonl" 2>/dev/null | sort -u | tr '\n' ' ')
        if [ $rc -eq 0 ] && [ "$exp" = "$got" ] && grep -q '"passes":[2-9]' "$OUT/rc-$link-$c.jsonl" 2>/dev/null; then
            ok "$link $c: $got ($passes)"
        else
            bad "$link $c: plain '$exp' profiled '$got' rc=$rc passes: $passes"; tail -5 "$OUT/rc-$link-$c.err"
        fi
    done
done

# 2b. the incremental snapshot checked byte for byte after every restore
#     (GPUPROF_SNAPSHOT_VERIFY=1), and the whole-footprint copies
#     (GPUPROF_SNAPSHOT_INCREMENTAL=0): outputs unchanged, no difference found
for mode in verify full; do
    nbad=0; badc=""
    for c in $CASES; do
        exp=$($G/replay_cases_static $c 2>&1)
        if [ $mode = verify ]; then v="GPUPROF_SNAPSHOT_VERIFY=1"; else v="GPUPROF_SNAPSHOT_INCREMENTAL=0"; fi
        got=$(env $v GPUPROF_OUTPUT=$OUT/sv-$mode-$c timeout 300 env LD_PRELOAD=$LIB \
              $G/replay_cases_static $c 2>"$OUT/sv-$mode-$c.err")
        if [ "$exp" != "$got" ] || grep -q "snapshot check" "$OUT/sv-$mode-$c.err"; then
            nbad=$((nbad + 1)); badc="$badc $c"
        fi
    done
    if [ $nbad = 0 ]; then ok "snapshot $mode: all replay cases unchanged$([ $mode = verify ] && echo ', byte check found no difference')"
    else bad "snapshot $mode: $nbad cases differ:$badc"; fi
done
# the records say the incremental snapshot's work: every 2-pass launch of the
# default run that is not a graph step has bytes_hashed and its times; none of
# the GPUPROF_SNAPSHOT_INCREMENTAL=0 run's records has them
with=$(cat "$OUT"/rc-static-inplace.jsonl | grep '"type":"launch"' | grep -v cuGraphLaunch | grep -c '"bytes_hashed":[1-9][0-9]*,"chunks_saved":[0-9]*,"chunks_restored":[0-9]*,"hash_ms":[0-9.e-]*,"save_ms":[0-9.e-]*,"restore_ms"')
all=$(grep '"type":"launch"' "$OUT"/rc-static-inplace.jsonl | grep -vc cuGraphLaunch)
none=$(cat "$OUT"/sv-full-*.jsonl | grep -c '"bytes_hashed"')
if [ "$all" -gt 0 ] && [ "$with" = "$all" ] && [ "$none" = 0 ]; then ok "snapshot work in the records: $with of $all launches (inplace), none with whole copies"
else bad "snapshot work in the records: $with of $all launches (inplace) have it, $none records of whole copies"; fi

# 2a. kernels inside graphs are profiled (gpuprof runs the graph's steps first)
for c in graph graphsteps; do
    want=$([ $c = graph ] && echo 2 || echo 9)
    got=$(grep -c '"api":"cuGraphLaunch"' "$OUT/rc-static-$c.jsonl" 2>/dev/null)
    if [ "$got" = "$want" ] && ! grep -q "not all profiled" "$OUT/rc-static-$c.err"; then
        ok "$c: $got kernel launches from graphs profiled"
    else bad "$c: $got kernel launches from graphs profiled, $want expected"; grep -i "graph" "$OUT/rc-static-$c.err" | head -3; fi
done

# 2b. several devices: each context profiled on its own
ngpu=$(nvidia-smi -L | grep -c '^GPU')
if [ "$ngpu" -ge 2 ]; then
    devs=$(grep -o '"device":[0-9]*' "$OUT/rc-static-multigpu.jsonl" | sort -u | wc -l)
    if [ "$devs" -ge 2 ]; then ok "multigpu: launches profiled on $devs devices"
    else bad "multigpu: records from $devs device(s) of $ngpu"; fi
else
    skipped "multigpu on several devices: this machine has $ngpu GPU"
fi

# 2c. the activity cross-check agrees wherever it ran; its window: the first N
#     launches checked, the rest not (records stopped), the counts still agree
ndiff=$(grep -l "cross-check.*DIFFER" "$OUT"/rc-static-*.err 2>/dev/null | wc -l)
nxc=$(grep -l "cross-check.*(agree)" "$OUT"/rc-static-*.err 2>/dev/null | wc -l)
if [ "$ndiff" = 0 ] && [ "$nxc" -gt 0 ]; then ok "cross-check agrees in $nxc replay cases"
else bad "cross-check: $ndiff replay cases DIFFER, $nxc agree"; grep -h "DIFFER" "$OUT"/rc-static-*.err | head -3; fi
for w in 100 all; do
    GPUPROF_CROSSCHECK=$w GPUPROF_KERNEL_INCLUDE=no_such_kernel GPUPROF_OUTPUT=$OUT/xc-$w \
        LD_PRELOAD=$LIB timeout 60 $G/many_launches 1000 >/dev/null 2>"$OUT/xc-$w.err"
    want=$([ $w = all ] && echo "cross-check: 1001 launches seen by callbacks; 1001 executed per activity records, 0 profiled (agree)" \
                        || echo "cross-check of the first 100 launches: 100 executed per activity records, 0 profiled (agree)")
    if grep -qF "$want" "$OUT/xc-$w.err"; then ok "cross-check window $w: $want"
    else bad "cross-check window $w: '$want' expected"; grep "cross-check" "$OUT/xc-$w.err"; fi
done

# 3. driver API program: cuModuleLoadData, cuLaunchKernel, Ex (cluster), cooperative
exp=$($G/driver_api $G/drv_kernels.cubin 2>&1)
got=$(GPUPROF_OUTPUT=$OUT/drv LD_PRELOAD=$LIB $G/driver_api $G/drv_kernels.cubin 2>"$OUT/drv.err")
rc=$?
apis=$(grep -o '"api":"[A-Za-z_]*"' "$OUT/drv.jsonl" 2>/dev/null | sort | uniq -c | tr '\n' ' ')
if [ $rc -eq 0 ] && [ "$exp" = "$got" ] && grep -q cuLaunchKernelEx "$OUT/drv.jsonl" && grep -q cuLaunchCooperativeKernel "$OUT/drv.jsonl"; then
    ok "driver_api: $got; $apis"
else bad "driver_api: rc=$rc plain '$exp' profiled '$got'; $apis"; tail -5 "$OUT/drv.err"; fi

# 4. CUDA_INJECTION64_PATH alone
got=$(GPUPROF_OUTPUT=$OUT/inj CUDA_INJECTION64_PATH=$LIB $G/replay_cases_static inplace 2>"$OUT/inj.err")
exp=$($G/replay_cases_static inplace)
if [ "$exp" = "$got" ] && grep -q '"type":"launch"' "$OUT/inj.jsonl" 2>/dev/null; then ok "CUDA_INJECTION64_PATH"
else bad "CUDA_INJECTION64_PATH: '$got'"; tail -3 "$OUT/inj.err"; fi

# 5. snapshot in pinned host memory; no snapshot at all (one pass only)
for mode in host none; do
    got=$(GPUPROF_SNAPSHOT=$mode GPUPROF_OUTPUT=$OUT/snap-$mode LD_PRELOAD=$LIB $G/replay_cases_static inplace 2>"$OUT/snap-$mode.err")
    case $mode in
        host) want='"snapshot":"host"' ;;
        none) want='"snapshot":"unavailable"' ;;
    esac
    if [ "$exp" = "$got" ] && grep -q "$want" "$OUT/snap-$mode.jsonl"; then ok "GPUPROF_SNAPSHOT=$mode"
    else bad "GPUPROF_SNAPSHOT=$mode: '$got'"; tail -3 "$OUT/snap-$mode.err"; fi
done

# 6. bad input: malformed variable, unknown metric -> one message, program runs on
got=$(GPUPROF_LAUNCH_COUNT=abc LD_PRELOAD=$LIB $G/replay_cases_static inplace 2>"$OUT/bad1.err")
if [ "$exp" = "$got" ] && grep -q "GPUPROF_LAUNCH_COUNT='abc'" "$OUT/bad1.err"; then ok "malformed variable: $(head -1 "$OUT/bad1.err")"
else bad "malformed variable"; cat "$OUT/bad1.err"; fi
got=$(GPUPROF_METRICS=dram__bytes_raed.sum,gpu__time_duration.sum GPUPROF_OUTPUT=$OUT/bad2 LD_PRELOAD=$LIB $G/replay_cases_static inplace 2>"$OUT/bad2.err")
if [ "$exp" = "$got" ] && grep -q "close matches" "$OUT/bad2.err" && grep -q gpu__time_duration "$OUT/bad2.jsonl"; then ok "unknown metric: $(grep 'close matches' "$OUT/bad2.err" | head -1)"
else bad "unknown metric"; cat "$OUT/bad2.err"; fi
# Nsight Compute's own names: a derived one computed by the report, a launch
# fact, a section-local definition and a bare base name refused with what to
# collect instead; the program runs on and the report has the derived value
got=$(GPUPROF_LOG_LEVEL=info GPUPROF_METRICS=smsp__maximum_warps_avg_per_active_cycle,launch__grid_size,derived__smsp__sass_thread_inst_executed_op_hfma_pred_on_x4,dram__bytes,gpu__time_duration.sum \
      GPUPROF_OUTPUT=$OUT/ncunames LD_PRELOAD=$LIB $G/replay_cases_static inplace 2>"$OUT/ncunames.err")
if [ "$exp" = "$got" ] && grep -q "'smsp__maximum_warps_avg_per_active_cycle' is computed by gpuprof-report" "$OUT/ncunames.err" &&
   grep -q "'launch__grid_size' is recorded with every launch" "$OUT/ncunames.err" &&
   grep -q "refused: a definition local to an Nsight Compute section file.*collect instead: smsp__sass_thread_inst_executed_op_hfma_pred_on.sum" "$OUT/ncunames.err" &&
   grep -q "unknown metric 'dram__bytes' for .*roll-up suffix.*close matches: dram__bytes.sum" "$OUT/ncunames.err" &&
   "$B/gpuprof-report" -f json "$OUT/ncunames.jsonl" | python3 -c "import json,sys; k=json.load(sys.stdin)['kernels'][0]; assert k['metrics']['smsp__maximum_warps_avg_per_active_cycle'] > 0"
then ok "Nsight Compute's names: accepted, or refused with the reason and what to collect"
else bad "Nsight Compute's names"; cat "$OUT/ncunames.err"; fi

# 7. filters: include regex, per-kernel limit, skip/count
GPUPROF_KERNEL_INCLUDE='scale_by' GPUPROF_MAX_PER_KERNEL=1 GPUPROF_OUTPUT=$OUT/filt LD_PRELOAD=$LIB $G/replay_cases_static all >/dev/null 2>"$OUT/filt.err"
n=$(grep -c '"type":"launch"' "$OUT/filt.jsonl" 2>/dev/null)
other=$(grep '"type":"launch"' "$OUT/filt.jsonl" | grep -vc 'scale_by')
if [ "$n" = 1 ] && [ "$other" = 0 ]; then ok "filters: include + per-kernel limit -> $n record"
else bad "filters: $n records, $other not matching"; tail -5 "$OUT/filt.err"; fi

# 8. known work: exact counts, DRAM within 1%, and ncu side by side
$G/known_work 1 >"$OUT/known.expect"
GPUPROF_OUTPUT=$OUT/known LD_PRELOAD=$LIB $G/known_work 1 >/dev/null 2>"$OUT/known.err"
METRICS=$(python3 -c "import json;r=[json.loads(l) for l in open('$OUT/known.jsonl')];print(','.join(m for m in [x for x in r if x['type']=='launch'][0]['metrics'] if not m.endswith('peak_sustained')))")
if command -v ncu >/dev/null 2>&1; then
    ncu --csv --page raw --print-units base --clock-control none --cache-control all \
        --metrics "$METRICS" $G/known_work 1 >"$OUT/known.ncu.csv" 2>"$OUT/known.ncu.err"
    python3 tests/gpu/check_known.py "$OUT/known.expect" "$OUT/known.jsonl" "$OUT/known.ncu.csv" | tee "$OUT/known.table"
else
    python3 tests/gpu/check_known.py "$OUT/known.expect" "$OUT/known.jsonl" | tee "$OUT/known.table"
    skipped "ncu comparison: ncu not installed"
fi
line=$(grep '^known:' "$OUT/known.table")
p=$(echo "$line" | sed -E 's/known: ([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
pass=$((pass + ${p:-0})); fail=$((fail + ${f:-1}))

# 8b. a list CUPTI cannot take as one configuration (250 metrics of Nsight
#     Compute's full set): split, every value present, counts as ncu's:
#     tests/gpu/split_list.sh, which also runs alone
if [ "${SKIP_SPLIT:-0}" = 1 ]; then
    skipped "a list split over several configurations: SKIP_SPLIT=1 (run tests/gpu/split_list.sh on its own)"
else
    sh tests/gpu/split_list.sh | tee "$OUT/split_list.txt"
    line=$(grep -E '^gpu-split: [0-9]+ passed' "$OUT/split_list.txt" | tail -n 1)
    p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    k=$(echo "$line" | sed -E 's/.* ([0-9]+) skipped.*/\1/')
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-1})); skip=$((skip + ${k:-0}))
fi

# 8c. replay mode none: estimates over a kernel's repeated launches against
#     kernel replay's per-launch values, outputs unchanged, wall times:
#     tests/gpu/replay_none.sh, which also runs alone
if [ "${SKIP_NONE:-0}" = 1 ]; then
    skipped "replay mode none: SKIP_NONE=1 (run tests/gpu/replay_none.sh on its own)"
else
    sh tests/gpu/replay_none.sh | tee "$OUT/replay_none.txt"
    line=$(grep -E '^gpu-none: [0-9]+ passed' "$OUT/replay_none.txt" | tail -n 1)
    p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    k=$(echo "$line" | sed -E 's/.* ([0-9]+) skipped.*/\1/')
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-1})); skip=$((skip + ${k:-0}))
fi

# 9. batches: the same values as one launch at a time; batches closed when full
#    and around launches that are not profiled, with every record complete.
#    Batches need a list of one range-profiler pass (the default set takes two:
#    its Nsight Compute SASS metrics are instrumented), so these use one.
HW1=gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum,dram__bytes_read.sum,dram__bytes_write.sum
export HW1
GPUPROF_METRICS=$HW1 GPUPROF_LOG_LEVEL=info GPUPROF_OUTPUT=$OUT/b32 LD_PRELOAD=$LIB $G/known_work 3 >/dev/null 2>"$OUT/b32.err"
GPUPROF_METRICS=$HW1 GPUPROF_BATCH=1 GPUPROF_OUTPUT=$OUT/b1 LD_PRELOAD=$LIB $G/known_work 3 >/dev/null 2>"$OUT/b1.err"
if python3 tests/gpu/check_batch.py "$OUT/b32.jsonl" "$OUT/b1.jsonl" >"$OUT/batch.txt" &&
   grep -q "decoded in batches" "$OUT/b32.err" &&
   ! grep -q "counters lost" "$OUT/b32.err"; then ok "$(tail -1 "$OUT/batch.txt")"
else bad "batched vs one at a time: $(tail -1 "$OUT/batch.txt")"; head -8 "$OUT/batch.txt"; grep "lost" "$OUT/b32.err"; fi
GPUPROF_METRICS=$HW1 GPUPROF_BATCH=2 GPUPROF_KERNEL_INCLUDE='fma_sp|stream_copy' GPUPROF_OUTPUT=$OUT/bmix LD_PRELOAD=$LIB \
    $G/known_work 3 >/dev/null 2>"$OUT/bmix.err"
n=$(grep -c '"type":"launch"' "$OUT/bmix.jsonl" 2>/dev/null)
nodur=$(grep '"type":"launch"' "$OUT/bmix.jsonl" | grep -c '"gpu__time_duration.sum":null')
if [ "$n" = 6 ] && [ "$nodur" = 0 ] && ! grep -q "counters lost" "$OUT/bmix.err"; then
    ok "batches of 2 between unprofiled launches: $n records, all with counters"
else bad "batches of 2 between unprofiled launches: $n records, $nodur without duration"; grep -i "lost\|warn" "$OUT/bmix.err" | head -3; fi

# 9b. the GPC cache eviction before each pass: with GPUPROF_CACHE_CONTROL=flush
#     (the default) each kernel fetches its code and constants through L2
#     again, so the GCC's crossbar sectors are well above those of l2
#     (L2 only: Nsight Compute gives 832 under --cache-control all and 192
#     under none for a small kernel); every record complete, no warning about
#     the eviction kernel.  The access-pattern kernels (30 launches), with
#     a list of several passes, judged on the GCC's crossbar sectors
#     (gcc__xbar2gcc_sectors, equal to Nsight Compute's under flush for 34
#     kernels); the L2 sectors from the GCC are printed beside them.  With a
#     one-pass list, or known_work's four kernels, lts__t_sectors_srcunit_gcc
#     was the same under both settings on the device (the pass starts with
#     the GCC cold there).
GCCM=lts__t_sectors_srcunit_gcc.sum,gcc__xbar2gcc_sectors.sum,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio,smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio,gpu__time_duration.sum
for cc in flush l2; do
    GPUPROF_METRICS=$GCCM GPUPROF_CACHE_CONTROL=$cc GPUPROF_LOG_LEVEL=info \
        GPUPROF_LAUNCH_COUNT=30 GPUPROF_OUTPUT=$OUT/gcc-$cc LD_PRELOAD=$LIB $G/xcheck/patterns >/dev/null 2>"$OUT/gcc-$cc.err"
done
if msg=$(python3 - "$OUT/gcc-flush.jsonl" "$OUT/gcc-l2.jsonl" <<'PY'
import json, statistics, sys
def load(p):
    return [r for r in map(json.loads, open(p)) if r.get('type') == 'launch']
f, l = load(sys.argv[1]), load(sys.argv[2])
assert f and len(f) == len(l), 'records: %d with flush, %d with l2' % (len(f), len(l))
med = {}
for m in ('gcc__xbar2gcc_sectors.sum', 'lts__t_sectors_srcunit_gcc.sum'):
    vf = [r['metrics'].get(m) for r in f]
    vl = [r['metrics'].get(m) for r in l]
    assert None not in vf + vl, '%s missing: flush %s, l2 %s' % (m, vf, vl)
    med[m] = [statistics.median(vf), statistics.median(vl),
              statistics.median([a - b for a, b in zip(vf, vl)])]
print('median over %d kernels (flush, l2, flush - l2): GCC crossbar sectors %.0f %.0f %.0f; '
      'L2 sectors from the GCC %.0f %.0f %.0f' % ((len(f),) + tuple(med['gcc__xbar2gcc_sectors.sum'])
      + tuple(med['lts__t_sectors_srcunit_gcc.sum'])))
assert med['gcc__xbar2gcc_sectors.sum'][2] >= 128, 'flush does not add the GCC misses'
PY
) && ! grep -q "counters lost\|GPCs' constant and instruction caches" "$OUT/gcc-flush.err"; then
    ok "GPC cache eviction: $msg"
else bad "GPC cache eviction: $msg"; grep -i "lost\|warn" "$OUT/gcc-flush.err" | head -3; fi

# 10. no permission to read counters: an unprivileged user where the driver
#     restricts profiling to administrators (the default): one message saying how
#     to fix it, the program's results unchanged
adm=$(awk '/RmProfilingAdminOnly/ {print $2}' /proc/driver/nvidia/params 2>/dev/null)
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1; then
    skipped "no permission: needs root (to switch to an unprivileged user) and setpriv"
elif [ "$adm" != 1 ]; then
    skipped "no permission: this driver lets every user read counters (RmProfilingAdminOnly=$adm)"
    # the same path with CUPTI's answer pretended (GPUPROF_TEST_INJECT): the message, the
    # summary's reason, the results
    exp=$($G/replay_cases_static inplace 2>&1)
    got=$(GPUPROF_TEST_INJECT=no-permission GPUPROF_OUTPUT=$OUT/permi LD_PRELOAD=$LIB $G/replay_cases_static inplace 2>"$OUT/permi.err")
    rc=$?
    n=$(grep -c "ERR_NVGPUCTRPERM" "$OUT/permi.err")
    if [ $rc -eq 0 ] && [ "$exp" = "$got" ] && [ "$n" = 1 ] && grep -q "0 profiled" "$OUT/permi.err" &&
       [ "$(grep -c 'warning' "$OUT/permi.err")" = 0 ] && grep -q "not profiled: 3 no permission" "$OUT/permi.err"; then
        ok "no permission (CUPTI's error injected): one message, nothing profiled, results unchanged ($got)"
    else bad "no permission (injected): rc=$rc plain '$exp' profiled '$got', $n messages"; head -5 "$OUT/permi.err"; fi
else
    d=$(mktemp -d /tmp/gpuprof-perm.XXXXXX)
    cp "$LIB" "$(dirname "$LIB")/libgpuprof-core.so" $G/replay_cases_static "$d/" && chmod -R a+rwX "$d"
    nobody() { (cd "$d" && setpriv --reuid=65534 --regid=65534 --clear-groups "$@"); }
    exp=$(nobody ./replay_cases_static inplace 2>&1)
    got=$(nobody env GPUPROF_OUTPUT="$d/perm" LD_PRELOAD="$d/libgpuprof.so" ./replay_cases_static inplace 2>"$OUT/perm.err")
    rc=$?
    n=$(grep -c "ERR_NVGPUCTRPERM" "$OUT/perm.err")
    if [ $rc -eq 0 ] && [ "$exp" = "$got" ] && [ "$n" = 1 ] && grep -q "RestrictProfilingToAdminUsers=0" "$OUT/perm.err"; then
        ok "no permission: one message, results unchanged ($got)"
    else bad "no permission: rc=$rc plain '$exp' profiled '$got', $n permission messages"; head -5 "$OUT/perm.err"; fi
    rm -rf "$d"
fi

# 11. 16 host threads x 3 streams, kernels and copies interleaved, 40 launches
#     profiled while the other 920 run and wait: five runs, each under a
#     timeout (a hang fails), each with the plain run's checksum
exp=$($G/replay_cases_static stress 2>&1)
hung=0; diff=0; t0=$(date +%s)
for r in 1 2 3 4 5; do
    got=$(GPUPROF_MAX_PER_KERNEL=40 GPUPROF_OUTPUT=$OUT/stress$r timeout 120 env LD_PRELOAD=$LIB \
          $G/replay_cases_static stress 2>"$OUT/stress$r.err")
    rc=$?
    [ $rc -eq 124 ] && hung=$((hung + 1))
    [ "$got" = "$exp" ] || diff=$((diff + 1))
done
np=$(grep -c '"type":"launch"' "$OUT/stress1.jsonl" 2>/dev/null)
if [ $hung -eq 0 ] && [ $diff -eq 0 ] && [ "$np" = 40 ]; then
    ok "16 threads x 3 streams, 5 runs: no hang, checksums unchanged, $np launches profiled per run ($(( $(date +%s) - t0 )) s)"
else bad "16 threads x 3 streams: $hung of 5 runs hung, $diff changed, $np launches profiled"; tail -3 "$OUT/stress1.err"; fi

# 12. a kernel that faults (after three good launches): the program's output
#     and exit status unchanged, one warning, and with GPUPROF_BATCH=1 the
#     earlier launches' records complete; by default (batches across kernels)
#     the earlier records are written and say their counters were lost
exp=$($G/replay_cases_static fault 2>&1); erc=$?
got=$(GPUPROF_METRICS=$HW1 GPUPROF_OUTPUT=$OUT/faultb GPUPROF_LOG_LEVEL=info timeout 120 env LD_PRELOAD=$LIB $G/replay_cases_static fault 2>"$OUT/faultb.err"); rc=$?
nrec=$(grep -c '"type":"launch"' "$OUT/faultb.jsonl" 2>/dev/null)
nfull=$(grep '"type":"launch"' "$OUT/faultb.jsonl" 2>/dev/null | grep -c '"gpu__time_duration.sum":[0-9]')
nlost=$(grep '"type":"launch"' "$OUT/faultb.jsonl" 2>/dev/null | grep -c 'counters lost')
if [ $rc -eq $erc ] && [ "$exp" = "$got" ] && [ "${nrec:-0}" -ge 3 ] && [ $((nfull + nlost)) -ge 3 ]; then
    ok "faulting kernel, batches across kernels: output and status unchanged, $nrec records ($nfull complete, $nlost say counters lost)"
else bad "faulting kernel, default batches: rc $rc (plain $erc), plain '$exp' profiled '$got', $nrec records, $nfull complete, $nlost lost"; tail -4 "$OUT/faultb.err"; fi
got=$(GPUPROF_BATCH=1 GPUPROF_OUTPUT=$OUT/fault timeout 120 env LD_PRELOAD=$LIB $G/replay_cases_static fault 2>"$OUT/fault.err"); rc=$?
nrec=$(grep '"type":"launch"' "$OUT/fault.jsonl" 2>/dev/null | grep -c '"gpu__time_duration.sum":[0-9]')
nwarn=$(grep -c "write_through.*not profiled" "$OUT/fault.err")
if [ $rc -eq $erc ] && [ "$exp" = "$got" ] && [ "$nrec" = 3 ] && [ "$nwarn" = 1 ]; then
    ok "faulting kernel: output and status unchanged, 3 earlier records complete, one warning: $(grep -m1 'write_through' "$OUT/fault.err" | cut -c1-150)"
else bad "faulting kernel: rc $rc (plain $erc), plain '$exp' profiled '$got', $nrec complete records, $nwarn warnings"; tail -4 "$OUT/fault.err"; fi
# the summary opens with the results' invalidity, and the record says so
if awk '/RESULTS ARE NOT VALID from launch/ { a = NR } /kernel launches seen/ { b = NR }
        END { exit !(a && a + 0 == b - 1) }' "$OUT/fault.err" &&
   grep -q '"results":{"valid":false' "$OUT/fault.jsonl"; then
    ok "faulting kernel: the summary opens with the results not valid, the record says so"
else bad "faulting kernel: results not marked invalid: $(grep -m1 'kernel launches seen' "$OUT/fault.err")"; fi
# the launches into the dead context are failures, not stream captures
if grep -q "not profiled:.*stream capture" "$OUT/fault.err"; then
    bad "launches after a fault counted as stream capture: $(grep 'not profiled:' "$OUT/fault.err")"
else ok "launches after a fault: not counted as stream capture"; fi

# 13. a program that dies of SIGSEGV after profiled launches: same status and
#     output, no hang
exp=$($G/replay_cases_static crash 2>/dev/null); erc=$?
got=$(GPUPROF_OUTPUT=$OUT/crash timeout 120 env LD_PRELOAD=$LIB $G/replay_cases_static crash 2>"$OUT/crash.err"); rc=$?
if [ $rc -eq $erc ] && [ "$exp" = "$got" ]; then ok "crashing program: exit status $rc and output unchanged"
else bad "crashing program: rc $rc (plain $erc), plain '$exp' profiled '$got'"; tail -3 "$OUT/crash.err"; fi

# 14. capture ranges (NVTX, cudaProfilerStart/Stop) from a C program and
#     from PyTorch, under the launcher: tests/gpu/capture_ranges.sh, which also
#     runs alone
sh tests/gpu/capture_ranges.sh | tee "$OUT/capture_ranges.txt"
line=$(grep -E '^gpu-ranges: [0-9]+ passed' "$OUT/capture_ranges.txt" | tail -n 1)
p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
k=$(echo "$line" | sed -E 's/.* ([0-9]+) skipped.*/\1/')
pass=$((pass + ${p:-0})); fail=$((fail + ${f:-1})); skip=$((skip + ${k:-0}))
# 15. the cross-check corpus against Nsight Compute (own access patterns,
#     cuBLAS, cuFFT, Thrust, PyTorch, Triton): outputs unchanged under
#     gpuprof, hand-computed pattern values, every (launch, metric) pair
if [ "${SKIP_XCHECK:-0}" = 1 ]; then
    skipped "ncu cross-check corpus: SKIP_XCHECK=1 (run tests/gpu/xcheck/run.sh on its own)"
elif command -v ncu >/dev/null 2>&1; then
    XC_OUT=$OUT/xcheck sh tests/gpu/xcheck/run.sh >"$OUT/xcheck.log" 2>&1
    grep -E "^(PASS|FAIL|SKIP) " "$OUT/xcheck.log"
    grep -E "^(agreement|all pairs)" "$OUT/xcheck.log"
    p=$(grep -c "^PASS " "$OUT/xcheck.log"); f=$(grep -c "^FAIL " "$OUT/xcheck.log"); s=$(grep -c "^SKIP " "$OUT/xcheck.log")
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
    # the agreement threshold: at least 99% of (launch, metric) pairs
    agree=$(sed -n 's/^agreement: \([0-9.]*\)%.*/\1/p' "$OUT/xcheck.log")
    if [ -n "$agree" ] && awk -v a="$agree" 'BEGIN { exit !(a >= 99.0) }'; then
        ok "ncu cross-check: $agree% of (launch, metric) pairs agree (>= 99%)"
    else bad "ncu cross-check: ${agree:-no}% of (launch, metric) pairs agree (< 99%)"; fi
else
    skipped "ncu cross-check corpus: ncu not installed"
fi

# 16. why and where: instruction-level counts, stall samples and warp-state
#     statistics against ncu on the corpus, outputs unchanged, a read before
#     a buffer survived, a broken run marked (tests/gpu/where/check.sh, which
#     also runs alone; SKIP_WHERE=1 leaves it out)
if [ "${SKIP_WHERE:-0}" = 1 ]; then
    skipped "why and where against ncu: SKIP_WHERE=1 (run tests/gpu/where/check.sh on its own)"
else
    BENCH=0 WH_OUT=$OUT/where sh tests/gpu/where/check.sh >"$OUT/where.log" 2>&1
    grep -E "^(PASS|FAIL|SKIP) " "$OUT/where.log"
    p=$(grep -c "^PASS " "$OUT/where.log"); f=$(grep -c "^FAIL " "$OUT/where.log"); s=$(grep -c "^SKIP " "$OUT/where.log")
    pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
fi

# 17. the roofline on its own ceilings: gpupeak measures every roof's
#     ceiling, then each roof's peak kernel runs alone under gpuprof and must
#     land within 5% of its measured ceiling and never above its
#     architectural one (tests/gpu/roofline_selfcheck.sh, which also runs
#     alone; SKIP_ROOFLINE=1 leaves it out)
if [ "${SKIP_ROOFLINE:-0}" = 1 ]; then
    skipped "roofline self-check: SKIP_ROOFLINE=1 (run tests/gpu/roofline_selfcheck.sh on its own)"
else
    sh tests/gpu/roofline_selfcheck.sh | tee "$OUT/roofline_selfcheck.txt"
    line=$(grep -E '^gpu-roofline: [0-9]+ passed' "$OUT/roofline_selfcheck.txt" | tail -n 1)
    p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    k=$(echo "$line" | sed -E 's/.* ([0-9]+) skipped.*/\1/')
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-1})); skip=$((skip + ${k:-0}))
fi

echo "gpu: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
