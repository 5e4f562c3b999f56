#!/bin/sh
# split_list.sh - a metric list CUPTI cannot take as one range-profiler
# configuration (250 hardware metrics spread over Nsight Compute's full set):
# gpuprof splits it over several configurations, replays each, and merges
# their values.  Checks, on known_work's first launch: the split happened,
# every name has a value, the program's output is unchanged, and the counts
# agree with ncu's own full-set run (tests/gpu/ncu_full.py).  Run by
# run-gpu-tests.sh, or alone.  Prints "gpu-split: N passed, N failed, N skipped".
. tests/gpu/common.sh
LIB=$(cd "$B" && pwd)/libgpuprof.so
PY=${PYTHON:-python3}
if ! nvidia-smi -L >/dev/null 2>&1; then skipped "split list: no GPU on this machine"
elif ! command -v ncu >/dev/null 2>&1; then skipped "split list: ncu not installed (it names the list and checks the values)"
else
    ncu --set full -c 1 --csv --page raw --print-units base --cache-control all "$G/known_work" 1 \
        >"$OUT/split.full.csv" 2>"$OUT/split.full.err"
    list=$($PY tests/gpu/ncu_full.py list "$OUT/split.full.csv" 250 2>"$OUT/split.list.err")
    if [ -z "$list" ]; then
        bad "split list: no metric names from ncu --set full"; head -3 "$OUT/split.full.err" "$OUT/split.list.err"
    else
        $G/known_work 1 >"$OUT/split.plain"
        GPUPROF_METRICS=$list GPUPROF_LAUNCH_COUNT=1 GPUPROF_LOG_LEVEL=info GPUPROF_OUTPUT=$OUT/split \
            timeout 300 env LD_PRELOAD=$LIB "$G/known_work" 1 >"$OUT/split.prof" 2>"$OUT/split.err"
        if cmp -s "$OUT/split.plain" "$OUT/split.prof"; then ok "split list: output unchanged"
        else bad "split list: output changed"; fi
        cfgs=$(sed -n 's/.* range-profiler passes in \([0-9]*\) configurations.*/\1/p' "$OUT/split.err" | head -1)
        if [ "${cfgs:-1}" -ge 2 ]; then ok "split list: $cfgs configurations"
        else bad "split list: the list was not split ($(grep -m1 'range-profiler passes' "$OUT/split.err"))"; fi
        if $PY tests/gpu/ncu_full.py compare "$OUT/split.full.csv" "$OUT/split.jsonl" "$list" \
            >"$OUT/split.compare"; then ok "$(tail -1 "$OUT/split.compare")"
        else bad "$(tail -1 "$OUT/split.compare")"; head -12 "$OUT/split.compare"; fi
    fi
fi
echo "gpu-split: $pass passed, $fail failed, $skip skipped"
