#!/bin/sh
# replay_none.sh - replay mode none (GPUPROF_REPLAY=none) on repeat_work: a
# kernel launched LAUNCHES times with the same work and one whose work
# shrinks over the run.  The program runs plainly, under the default mode
# (kernel replay, every launch profiled) and under replay mode none.  Checks:
# the output is unchanged in both; the none run wrote variant_estimate
# records, every metric valued for a variant launched at least as many times
# as it has configurations; the estimates agree with the sums of the default
# mode's per-launch values within 2% for counts and 1 point for percentages
# on the fixed-work kernel and within the printed bound on the drifting one
# (tests/gpu/check_estimates.py).  With ncu on the machine, the same
# estimates against Nsight Compute's own per-launch values summed over the
# same launches (ncu --clock-control none, every launch, gpuprof's list;
# DRAM writes, DRAM throughput and L2 bytes from ncu's run of those alone,
# one pass, as the cross-check takes them; NCU_TRUTH=0: not run).  Then the replay cases (graphs, graph steps,
# threads, streams, pitched and managed memory, several devices where there
# are) and 16 threads x 3 streams under mode none, every launch profiled:
# output unchanged, no hang, records written.  Prints the wall times of the three runs side by
# side.  Run by run-gpu-tests.sh, or alone:
#     sh tests/gpu/replay_none.sh            (LAUNCHES=300, ROTATE=16)
# Prints "gpu-none: N passed, N failed, N skipped".
. tests/gpu/common.sh
LIB=$(cd "$B" && pwd)/libgpuprof.so
PY=${PYTHON:-python3}
N=${LAUNCHES:-300}
ROT=${ROTATE:-16}
NSHARE=${LAUNCHES_SHARE:-100000}
now() { date +%s.%N; }
if ! nvidia-smi -L >/dev/null 2>&1; then skipped "replay mode none: no GPU on this machine"
elif [ ! -x "$G/repeat_work" ]; then skipped "replay mode none: $G/repeat_work not built (make)"
else
    t0=$(now); "$G/repeat_work" "$N" >"$OUT/none.plain"; t1=$(now)
    GPUPROF_OUTPUT=$OUT/none.default GPUPROF_LOG_LEVEL=info \
        timeout 1200 env LD_PRELOAD=$LIB "$G/repeat_work" "$N" >"$OUT/none.default.out" 2>"$OUT/none.default.err"
    t2=$(now)
    # ROTATE launches a block and no time floor, every launch profiled:
    # every configuration comes round many times in this short run
    GPUPROF_REPLAY=none GPUPROF_MAX_OVERHEAD=100 GPUPROF_ROTATE_LAUNCHES=$ROT GPUPROF_ROTATE_MS=0 GPUPROF_OUTPUT=$OUT/none.none \
        GPUPROF_LOG_LEVEL=info timeout 1200 env LD_PRELOAD=$LIB "$G/repeat_work" "$N" \
        >"$OUT/none.none.out" 2>"$OUT/none.none.err"
    t3=$(now)
    # the default share of the run (25%) over a longer run of the same
    # program (NSHARE launches of each kernel): launches profiled in slices,
    # the others counted only; the fixed-work kernel's estimates against its
    # mean launch in kernel replay times the launches
    GPUPROF_REPLAY=none GPUPROF_OUTPUT=$OUT/none.share \
        GPUPROF_LOG_LEVEL=info timeout 1200 env LD_PRELOAD=$LIB "$G/repeat_work" "$NSHARE" \
        >"$OUT/none.share.out" 2>"$OUT/none.share.err"
    t3s=$(now)
    "$G/repeat_work" "$NSHARE" >"$OUT/none.share.plain"
    t3b=$(now)
    # the defaults (25%, 64 launches and 1 s a slice), for the time only
    GPUPROF_REPLAY=none GPUPROF_OUTPUT=$OUT/none.defaults \
        timeout 1200 env LD_PRELOAD=$LIB "$G/repeat_work" "$N" >/dev/null 2>"$OUT/none.defaults.err"
    t4=$(now)
    if cmp -s "$OUT/none.plain" "$OUT/none.default.out"; then ok "replay mode none: default mode's output unchanged"
    else bad "replay mode none: default mode's output changed"; fi
    if cmp -s "$OUT/none.plain" "$OUT/none.none.out"; then ok "replay mode none: output unchanged"
    else bad "replay mode none: output changed"; cat "$OUT/none.plain" "$OUT/none.none.out"; fi
    if grep -q "replay mode none: [0-9]* configurations (" "$OUT/none.none.err"; then
        ok "replay mode none: $(grep -m1 -o 'replay mode none: [0-9]* configurations ([^)]*)' "$OUT/none.none.err")"
    else bad "replay mode none: no rotation set up"; grep -m5 "gpuprof" "$OUT/none.none.err"; fi
    if $PY tests/gpu/check_estimates.py "$OUT/none.none.jsonl" "$OUT/none.default.jsonl" \
        fixed_work drift_work >"$OUT/none.check"; then :; fi
    cat "$OUT/none.check"
    pass=$((pass + $(grep -c '^PASS ' "$OUT/none.check")))
    fail=$((fail + $(grep -c '^FAIL ' "$OUT/none.check")))
    # the oracle outside gpuprof: ncu's per-launch values of every launch,
    # with the list gpuprof's launch records carry
    if [ "${NCU_TRUTH:-1}" = 0 ]; then skipped "replay mode none against ncu: NCU_TRUTH=0"
    elif ! command -v ncu >/dev/null 2>&1; then skipped "replay mode none against ncu: ncu not installed"
    else
        list=$($PY -c "
import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    if r.get('type')=='launch':
        print(','.join(m for m in r['metrics'] if not m.startswith('gpuprof__') and not m.endswith('peak_sustained'))); break" "$OUT/none.default.jsonl")
        tn0=$(now)
        timeout 1200 ncu --csv --page raw --print-units base --clock-control none --cache-control all \
            --metrics "$list" "$G/repeat_work" "$N" >"$OUT/none.ncu.csv" 2>"$OUT/none.ncu.err"
        tn1=$(now)
        # the metrics whose ncu value follows its pass count, alone (one
        # pass), as the cross-check takes them (--against-one-pass)
        alone=$(echo "$list" | tr , '\n' | grep -x 'dram__bytes_write.sum\|dram__throughput.avg.pct_of_peak_sustained_elapsed\|lts__t_bytes.sum' | paste -sd, -)
        one=
        if [ -n "$alone" ]; then
            timeout 600 ncu --csv --page raw --print-units base --clock-control none --cache-control all \
                --metrics "$alone" "$G/repeat_work" "$N" >"$OUT/none.ncu1.csv" 2>"$OUT/none.ncu1.err" &&
                one="--one-pass $OUT/none.ncu1.csv"
        fi
        if $PY tests/gpu/check_estimates.py --ncu $one "$OUT/none.none.jsonl" "$OUT/none.ncu.csv" \
            fixed_work drift_work >"$OUT/none.ncu.check"; then :; fi
        sed 's/^\(PASS\|FAIL\) /\1 against ncu: /' "$OUT/none.ncu.check"
        pass=$((pass + $(grep -c '^PASS ' "$OUT/none.ncu.check")))
        fail=$((fail + $(grep -c '^FAIL ' "$OUT/none.ncu.check")))
        awk -v a="$tn0" -v b="$tn1" -v n="$N" 'BEGIN { printf "FIGURES ncu (kernel replay, the same list) over the %d launches of each kernel: %.1f s\n", n, b - a }'
    fi
    # metrics that fit no one-pass configuration (each needs several passes
    # even alone): a stepped configuration, one pass on each of a variant's
    # successive launches; against kernel replay's per-launch values and
    # ncu's of the same launches
    SL=gpu__time_duration.sum,smsp__inst_executed.sum,sm__cycles_elapsed.avg,dram__bytes_read.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_access_throughput.min.pct_of_peak_sustained_elapsed,gcc__xbar2gcc_sectors.sum,l1tex__throughput.min.pct_of_peak_sustained_active
    NS=${LAUNCHES_STEPPED:-60}
    "$G/repeat_work" "$NS" >"$OUT/step.plain"
    GPUPROF_METRICS=$SL GPUPROF_OUTPUT=$OUT/step.default GPUPROF_SUMMARY=0 \
        timeout 900 env LD_PRELOAD=$LIB "$G/repeat_work" "$NS" >"$OUT/step.default.out" 2>"$OUT/step.default.err"
    ts0=$(now)
    GPUPROF_METRICS=$SL GPUPROF_REPLAY=none GPUPROF_MAX_OVERHEAD=100 GPUPROF_ROTATE_LAUNCHES=4 GPUPROF_ROTATE_MS=0 \
        GPUPROF_OUTPUT=$OUT/step.none GPUPROF_LOG_LEVEL=debug timeout 900 env LD_PRELOAD=$LIB "$G/repeat_work" "$NS" \
        >"$OUT/step.none.out" 2>"$OUT/step.none.err"
    ts1=$(now)
    if cmp -s "$OUT/step.plain" "$OUT/step.none.out" && cmp -s "$OUT/step.plain" "$OUT/step.default.out"; then
        ok "replay mode none, stepped configuration: output unchanged"
    else bad "replay mode none, stepped configuration: output changed"; fi
    done_=$(grep -c "configuration [0-9]* of [0-9]* programmed ([0-9]* passes" "$OUT/step.none.err")
    comp=$(grep -o "[0-9]* stepped collections completed, [0-9]* given up" "$OUT/step.none.err" | head -1)
    if [ -n "$comp" ] && [ "$(echo "$comp" | cut -d' ' -f1)" -gt 0 ]; then
        ok "replay mode none, stepped configuration: $comp (programmed $done_ times)"
    else bad "replay mode none, stepped configuration: none completed ($comp)"; grep -m5 "warn\|stepped\|given up" "$OUT/step.none.err"; fi
    if $PY tests/gpu/check_estimates.py --stepped "$OUT/step.none.jsonl" "$OUT/step.default.jsonl" \
        fixed_work drift_work >"$OUT/step.check"; then :; fi
    sed 's/^\(PASS\|FAIL\) /\1 stepped: /' "$OUT/step.check"
    pass=$((pass + $(grep -c '^PASS ' "$OUT/step.check")))
    fail=$((fail + $(grep -c '^FAIL ' "$OUT/step.check")))
    if [ "${NCU_TRUTH:-1}" != 0 ] && command -v ncu >/dev/null 2>&1; then
        timeout 900 ncu --csv --page raw --print-units base --clock-control none --cache-control all \
            --metrics "$SL" "$G/repeat_work" "$NS" >"$OUT/step.ncu.csv" 2>"$OUT/step.ncu.err"
        if $PY tests/gpu/check_estimates.py --ncu --stepped "$OUT/step.none.jsonl" "$OUT/step.ncu.csv" \
            fixed_work drift_work >"$OUT/step.ncu.check"; then :; fi
        sed 's/^\(PASS\|FAIL\) /\1 stepped against ncu: /' "$OUT/step.ncu.check"
        pass=$((pass + $(grep -c '^PASS ' "$OUT/step.ncu.check")))
        fail=$((fail + $(grep -c '^FAIL ' "$OUT/step.ncu.check")))
    fi
    awk -v a="$ts0" -v b="$ts1" -v n="$NS" 'BEGIN { printf "FIGURES stepped list, %d launches of each kernel, none every launch: %.2f s\n", n, b - a }'
    if cmp -s "$OUT/none.share.plain" "$OUT/none.share.out"; then ok "replay mode none, 25% share, $NSHARE launches each: output unchanged"
    else bad "replay mode none, 25% share: output changed"; fi
    est=$(grep -o '"launches_estimated":[0-9]*' "$OUT/none.share.jsonl" | head -1 | cut -d: -f2)
    if [ "${est:-0}" -gt 0 ]; then ok "replay mode none, 25% share: $est launches profiled in slices"
    else bad "replay mode none, 25% share: no launch profiled in a slice"; fi
    counted=$(grep -o '"launches_counted":[0-9]*' "$OUT/none.share.jsonl" | head -1 | cut -d: -f2)
    if [ "${counted:-0}" -gt 0 ]; then ok "replay mode none, 25% share: $counted launches counted only"
    else bad "replay mode none, 25% share: no launch ran unprofiled"; fi
    if $PY tests/gpu/check_estimates.py --partial --per-launch "$OUT/none.share.jsonl" "$OUT/none.default.jsonl" \
        fixed_work - >"$OUT/none.share.check"; then :; fi
    sed 's/^\(PASS\|FAIL\) /\1 25% share: /' "$OUT/none.share.check"
    pass=$((pass + $(grep -c '^PASS ' "$OUT/none.share.check")))
    fail=$((fail + $(grep -c '^FAIL ' "$OUT/none.share.check")))
    if gpuprof_rep=$("$B/gpuprof-report" "$OUT/none.none.jsonl" 2>&1); then ok "replay mode none: gpuprof-report reads the records"
    else bad "replay mode none: gpuprof-report failed: $(echo "$gpuprof_rep" | tail -2)"; fi
    t5=$(now); "$G/repeat_work" "$NSHARE" >/dev/null; t6=$(now)
    awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v d2="$t3s" -v d3="$t3b" -v e="$t4" -v f="$t5" -v g="$t6" -v n="$N" -v ns="$NSHARE" -v r="$ROT" 'BEGIN {
        printf "FIGURES repeat_work %d launches of each kernel: native %.2f s, default (kernel replay) %.2f s, none with %d-launch blocks, every launch %.2f s (%.1fx native), none with its defaults %.2f s (%.1fx)\n",
               n, b - a, c - b, r, d - c, (d - c) / (b - a), e - d3, (e - d3) / (b - a);
        printf "FIGURES repeat_work %d launches of each kernel: native %.2f s, none with its defaults (25%% share) %.2f s (%.2fx native)\n",
               ns, g - f, d2 - d, (d2 - d) / (g - f) }'
    # the replay cases and the thread stress under mode none (every launch
    # profiled, so that each configuration comes round in these short runs)
    for c in inplace atomic memset managed async threads graph graphsteps multigpu pitch vmm stress; do
        exp=$("$G/replay_cases_static" $c 2>&1)
        got=$(GPUPROF_REPLAY=none GPUPROF_MAX_OVERHEAD=100 GPUPROF_ROTATE_MS=0 GPUPROF_OUTPUT=$OUT/none-rc-$c \
              timeout 180 env LD_PRELOAD=$LIB "$G/replay_cases_static" $c 2>"$OUT/none-rc-$c.err")
        rc=$?
        recs=$(grep -c '"type":"\(launch\|variant_estimate\)"' "$OUT/none-rc-$c.jsonl" 2>/dev/null)
        if [ $rc -eq 0 ] && [ "$exp" = "$got" ] && [ "${recs:-0}" -gt 0 ] &&
            ! grep -q "counters lost\|not profiled: .*failed" "$OUT/none-rc-$c.err"; then
            ok "replay mode none, $c: $got ($recs records)"
        else
            bad "replay mode none, $c: rc=$rc plain '$exp' profiled '$got', $recs records"
            grep -i "warn\|error" "$OUT/none-rc-$c.err" | head -3
        fi
    done
    for c in graph graphsteps; do
        n=$(grep -c '"api":"cuGraphLaunch"' "$OUT/none-rc-$c.jsonl" 2>/dev/null)
        e=$(grep '"type":"variant_estimate"' "$OUT/none-rc-$c.jsonl" 2>/dev/null | grep -c '"launches":')
        if [ "${n:-0}" -gt 0 ]; then ok "replay mode none, $c: $n launch records from graphs, $e variant estimates"
        else bad "replay mode none, $c: no launch record from a graph"; fi
    done
    grep -E "profiler added|replay mode none" "$OUT/none.none.err" | head -3
    grep -E "profiler added|replay mode none" "$OUT/none.share.err" | head -4
fi
echo "gpu-none: $pass passed, $fail failed, $skip skipped"
