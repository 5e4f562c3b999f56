#!/bin/sh
# none_targets.sh - replay mode none on long runs, gpuprof beside ncu in one
# run (prints figures, asserts nothing but unchanged outputs; run on the GPU
# machine with build/ carried):
#   torch  a PyTorch training loop (tests/gpu/bench/torch_loop.py), sized to
#          about TARGET_S seconds of training loop natively (default 12, the
#          program's start-up besides) from a short run;
#   cg     NVIDIA's conjugateGradient sample (CG_BIN, built by
#          tests/gpu/bench/build_cg.sh; skipped, with the reason, without it),
#          sized the same way.
# For each: the native time; gpuprof --replay-mode none with the default set
# and with 250 hardware metrics of ncu's full set (tests/gpu/ncu_full.py),
# at the default share (GPUPROF_MAX_OVERHEAD=25): wall time against native,
# the profiler's time and its set-up apart, launches profiled / counted,
# variants with every metric valued; ncu with the same 250 metrics in kernel
# replay on the first NCU_LAUNCHES launches (default 10; its cost per launch
# times the run's launches is printed as the estimate for the whole run) and
# in application replay with a time limit (NCU_APP_S, default 60 s).
# NONE_ONLY="torch cg" picks programs; NONE_SETS=default runs the default set
# alone (no full set, no ncu), NONE_SETS=full the full set alone; NONE_NCU=0
# leaves ncu out.  Prints "none-targets ..." lines.
B=${BUILD:-build}
LIB=$(cd "$B" && pwd)/libgpuprof.so
OUT=${GPU_TEST_OUT:-$B/gpu-test-out}/none-targets
HERE=$(dirname "$0")
PY=${PYTHON:-python3}
TARGET_S=${TARGET_S:-12}
NCU_LAUNCHES=${NCU_LAUNCHES:-10}
NCU_APP_S=${NCU_APP_S:-60}
mkdir -p "$OUT"
now() { date +%s.%N; }
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }
want() { [ -z "$NONE_ONLY" ] || echo " $NONE_ONLY " | grep -q " $1 "; }

# the 250-metric list: every k-th hardware counter of ncu's full set
# (NONE_SETS=default: the default set alone, no ncu run)
FULL=""
if [ "${NONE_SETS:-default full}" != default ]; then
    ncu --set full -c 1 --csv --page raw --print-units base "$B/tests/gpu/known_work" 1 \
        >"$OUT/full.csv" 2>/dev/null
    FULL=$($PY tests/gpu/ncu_full.py list "$OUT/full.csv" 250 2>/dev/null)
    [ -n "$FULL" ] || echo "none-targets: no full list from ncu --set full; the full-set runs are skipped"
fi

# summary fields of a gpuprof run: profiler and set-up seconds, launches
summary() {
    $PY - "$1" <<'PY'
import json, sys
s = {}
variants = full = enough = enough_full = 0
passes = 0
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "summary":
        s = r
    elif r.get("type") == "variant_estimate":
        variants += 1
        confs = r.get("configurations", [])
        n_conf = len(confs)
        passes = sum(c.get("passes", 1) for c in confs)
        valued = all(v is not None for v in r["metrics"].values())
        if r["launches"] >= n_conf and valued:
            full += 1
        if r["launches"] >= passes:  # launched at least as often as the list has passes
            enough += 1
            enough_full += valued
print("profiler %.2f s (set-up %.2f s: %.2f s splitting the list, %.2f s warming up); launches: %d seen, %d in kernel replay, %d profiled once, %d counted only; %d variants, %d with every metric valued; of the %d launched at least %d times (the list's passes), %d"
      % (s.get("profiler_ms", 0) / 1e3, s.get("setup_ms", 0) / 1e3,
         s.get("setup_grouping_ms", 0) / 1e3, s.get("setup_warmup_ms", 0) / 1e3, s.get("launches_seen", 0),
         s.get("launches_profiled", 0), s.get("launches_estimated", 0), s.get("launches_counted", 0),
         variants, full, enough, passes, enough_full))
PY
}

# name, environment for the run's length, command
target() {
    name=$1 cmd=$2
    t0=$(now); sh -c "$cmd" >"$OUT/$name.plain" 2>"$OUT/$name.plain.err"; rc0=$?; t1=$(now)
    native=$(calc "$t1 - $t0")
    echo "none-targets $name: native $native s (exit $rc0)"
    runs="default"
    [ -n "$FULL" ] && runs="default full"
    [ "${NONE_SETS:-}" = full ] && [ -n "$FULL" ] && runs="full"
    for set in $runs; do
        list=""
        [ "$set" = full ] && list=$FULL
        t1=$(now)
        metrics=""
        [ -n "$list" ] && metrics="GPUPROF_METRICS=$list"
        GPUPROF_REPLAY=none GPUPROF_OUTPUT=$OUT/$name.$set GPUPROF_LOG_LEVEL=info \
            timeout 900 env $metrics LD_PRELOAD=$LIB sh -c "$cmd" >"$OUT/$name.$set.out" 2>"$OUT/$name.$set.err"
        rc=$?
        t2=$(now)
        wall=$(calc "$t2 - $t1")
        same=$(cmp -s "$OUT/$name.plain" "$OUT/$name.$set.out" && [ $rc = $rc0 ] && echo "output unchanged" || echo "OUTPUT DIFFERS (exit $rc)")
        echo "none-targets $name: gpuprof none, $set set: $wall s = $(calc "$wall / $native")x native, $same"
        echo "none-targets $name:   $(summary "$OUT/$name.$set.jsonl" 2>&1)"
        grep -m3 -E "configurations \(|left out|stepped collections" "$OUT/$name.$set.err" | cut -c1-240
    done
    [ -n "$FULL" ] && [ "${NONE_NCU:-1}" != 0 ] || return
    seen=$(cat "$OUT/$name.default.jsonl" "$OUT/$name.full.jsonl" 2>/dev/null |
        grep -o -m1 '"launches_seen":[0-9]*' | cut -d: -f2)
    t1=$(now)
    timeout 900 ncu --metrics "$FULL" -c "$NCU_LAUNCHES" --clock-control none --csv --page raw \
        --print-units base sh -c "$cmd" >"$OUT/$name.ncu-kernel.csv" 2>"$OUT/$name.ncu-kernel.err"
    t2=$(now)
    k=$(calc "$t2 - $t1")
    per=$(calc "($k - $native) / $NCU_LAUNCHES")
    echo "none-targets $name: ncu kernel replay, same 250 metrics, first $NCU_LAUNCHES launches: $k s," \
        "about $per s per launch beyond the native run; for all ${seen:-?} launches about $(calc "$per * ${seen:-0} / 3600") h"
    t1=$(now)
    timeout "$NCU_APP_S" ncu --metrics "$FULL" --replay-mode application --clock-control none --csv \
        --page raw --print-units base sh -c "$cmd" >"$OUT/$name.ncu-app.csv" 2>"$OUT/$name.ncu-app.err"
    rc=$?
    t2=$(now)
    pkill -f "torch_loop.py" 2>/dev/null; [ -n "$CG_BIN" ] && pkill -f "$CG_BIN" 2>/dev/null
    passes=$(grep -o -m1 '[0-9]* passes' "$OUT/$name.ncu-app.err")
    if [ $rc = 124 ]; then
        echo "none-targets $name: ncu application replay, same 250 metrics: not finished after $NCU_APP_S s" \
            "(${passes:-its passes}: one run of the program each)"
    else
        echo "none-targets $name: ncu application replay, same 250 metrics: $(calc "$t2 - $t1") s (exit $rc) ${passes}"
    fi
}

if ! nvidia-smi -L >/dev/null 2>&1; then echo "none-targets: skipped: no GPU on this machine"; exit 0; fi
if want torch; then
    # the loop's own time (the program prints it), TARGET_S seconds of it
    loop=$($PY "$HERE/torch_loop.py" 100 2>&1 >/dev/null | sed -n 's/^torch_loop: \([0-9.]*\) s in the loop/\1/p')
    steps=$(awk -v l="${loop:-1}" -v T="$TARGET_S" 'BEGIN { n = int(T / (l / 100)); print (n < 200 ? 200 : n) }')
    echo "none-targets torch: $steps steps for about $TARGET_S s in the loop (100 steps: ${loop:-?} s)"
    target torch "$PY $HERE/torch_loop.py $steps"
fi
if want cg; then
    if [ -z "$CG_BIN" ] || [ ! -x "$CG_BIN" ]; then
        echo "none-targets cg: skipped: CG_BIN not set (build it with tests/gpu/bench/build_cg.sh)"
    else
        CG_ITERS=10 "$CG_BIN" >/dev/null 2>&1 # the first run of a process pays for loading
        t0=$(now); CG_ITERS=200 "$CG_BIN" >/dev/null 2>&1; t1=$(now)
        t2=$(now); CG_ITERS=3200 "$CG_BIN" >/dev/null 2>&1; t3=$(now)
        iters=$(awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v T="$TARGET_S" 'BEGIN {
            per = ((d - c) - (b - a)) / 3000; fixed = (b - a) - 200 * per;
            n = per > 0 ? int((T - fixed) / per) : 0; print (n < 1000 ? 1000 : n) }')
        echo "none-targets cg: $iters iterations for about $TARGET_S s"
        target cg "CG_ITERS=$iters $CG_BIN"
    fi
fi
