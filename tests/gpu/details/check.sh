#!/bin/sh
# check.sh - Nsight Compute's sets and details page on the GPU machine: on
# code gpuprof did not write (cuBLAS, cuFFT, Thrust, a PyTorch training step,
# Triton), `ncu --clock-control none --set S -c N --page details --csv`
# against `gpuprof --set S -c N` then `gpuprof-report --page details --csv`,
# the same launches (matched by kernel name and ordinal): every ncu (section,
# metric) row must be in gpuprof's page, with a value or as n/a with its
# reason, and at least 99% of the values judged over a set's programs must
# agree (each program's share is printed)
# (compare_details.py: percentages within 1 point, other values within 5%;
# durations, cycles, frequencies and per-second rates judged apart, within
# 10%).  S is full, then basic and detailed.  The program's output must be
# unchanged under gpuprof.  Then the time per profiled launch of --set full,
# gpuprof beside ncu, and one run of --set full in replay mode none.
#   sh tests/gpu/details/check.sh            (about 6-8 minutes on an H100)
# DT_PROGRAMS="cublas torch" picks programs; DT_SETS="full" picks sets;
# DT_N (3) and DT_N_FULL (5): launches profiled; DT_OUT: where outputs go
# (default build/details-out): per program P and set S, P.S.ncu.csv (ncu's
# page), P.S.jsonl (gpuprof's records), P.S.gp.csv (gpuprof's page),
# P.S.cmp.txt (the comparison).  Needs a GPU and ncu; python3 with torch and
# triton for the framework programs (skipped with the reason when absent).
B=${BUILD:-build}
X=$B/tests/gpu/xcheck
HERE=$(cd "$(dirname "$0")" && pwd)
O=${DT_OUT:-$B/details-out}
PY=${PYTHON:-python3}
mkdir -p "$O"
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); echo "PASS $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
skipped() { skip=$((skip + 1)); echo "SKIP $*"; }
finish() { echo "details: $pass passed, $fail failed, $skip skipped"; [ "$fail" -eq 0 ]; exit $?; }

if ! nvidia-smi -L >/dev/null 2>&1; then skipped "details page against ncu: no GPU on this machine"; finish; fi
if ! command -v ncu >/dev/null 2>&1; then skipped "details page against ncu: ncu not installed"; finish; fi
if ! command -v "$PY" >/dev/null 2>&1; then skipped "details page against ncu: no python3 for the comparison"; finish; fi
for f in "$B/gpuprof" "$B/gpuprof-report" "$X/libs"; do
    [ -x "$f" ] || { bad "$f not built (make, then carry build/)"; finish; }
done
ncu --version | tail -1
have_torch=0; $PY -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null && have_torch=1
have_triton=0; $PY -c 'import triton' 2>/dev/null && have_triton=1

# name | command
programs() {
    cat <<EOF
cublas|$X/libs blas
cufft|$X/libs fft
thrust|$X/libs thrust
torch|$PY $HERE/../xcheck/torch_train.py
triton|$PY $HERE/../xcheck/triton_kernels.py
EOF
}
wanted() { [ -z "$DT_PROGRAMS" ] || echo " $DT_PROGRAMS " | grep -q " $1 "; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

programs >"$O/programs.txt"
: >"$O/ran.txt"
# the native run of each: its output and its time
while IFS='|' read -r name cmd; do
    wanted "$name" || continue
    case $name in
        torch) [ $have_torch = 1 ] || { skipped "$name: python3 cannot use torch with CUDA here"; continue; } ;;
        triton) [ $have_triton = 1 ] || { skipped "$name: python3 has no triton"; continue; } ;;
    esac
    t0=$(now)
    timeout 300 sh -c "$cmd" >"$O/$name.plain" 2>"$O/$name.plain.err"
    echo "$name|$(secs "$t0" "$(now)")|$cmd" >>"$O/ran.txt"
done <"$O/programs.txt"

for set in ${DT_SETS:-full basic detailed}; do
    n=${DT_N:-3}
    [ "$set" = full ] && n=${DT_N_FULL:-5}
    rm -f "$O/$set.times" "$O"/*."$set".cmp.txt
    while IFS='|' read -r name t_native cmd; do
        pre=$O/$name.$set
        rm -f "$pre.jsonl" "$pre.csv"
        t0=$(now)
        timeout 400 ncu --clock-control none --set "$set" -c "$n" --page details --csv \
            sh -c "$cmd" >"$pre.ncu.csv" 2>"$pre.ncu.err"
        t1=$(now)
        timeout 400 "$B/gpuprof" --set "$set" -c "$n" -f -o "$pre" sh -c "$cmd" \
            >"$pre.prof" 2>"$pre.prof.err"
        rc=$?
        t2=$(now)
        if [ $rc -ne 0 ] || ! cmp -s "$O/$name.plain" "$pre.prof"; then
            bad "$name --set $set: rc $rc or output changed under gpuprof"
            diff "$O/$name.plain" "$pre.prof" | head -4; tail -3 "$pre.prof.err"
            continue
        fi
        ok "$name --set $set: output unchanged under gpuprof"
        if ! "$B/gpuprof-report" --page details --csv "$pre.jsonl" >"$pre.gp.csv" 2>"$pre.gp.err"; then
            bad "$name --set $set: gpuprof-report --page details --csv failed: $(head -1 "$pre.gp.err")"
            continue
        fi
        # every row present or explained, every launch matched; the share of
        # values that agree is judged over the set's programs together
        $PY "$HERE/compare_details.py" --min 0 --label "$name $set" "$pre.ncu.csv" "$pre.gp.csv" \
            >"$pre.cmp.txt" 2>&1
        rc=$?
        grep "^  MISSING" "$pre.cmp.txt" | head -10
        grep "^  DIFFER" "$pre.cmp.txt" | head -10
        line=$(grep "^details " "$pre.cmp.txt")
        if [ $rc -eq 0 ]; then ok "$line"; else bad "$line"; fi
        echo "$name|$n|$t_native|$(secs "$t0" "$t1")|$(secs "$t1" "$t2")" >>"$O/$set.times"
        grep -h "cannot be collected" "$pre.prof.err" | head -1
    done <"$O/ran.txt"
    # the set over every program: the share of values that agree
    cat "$O"/*."$set".cmp.txt 2>/dev/null | grep "^details-counts" | awk -v s="$set" '
        { for (i = 2; i <= NF; i++) { split($i, kv, "="); t[kv[1]] += kv[2] } }
        END { share = t["judged"] ? 100 * t["agree"] / t["judged"] : 0
              printf "details-set %s: %d ncu rows, %d present, %d explained, %d missing, %d unmatched launches; %d values judged, %d agree (%.2f%%); clock-sensitive %d, %d within 10%%\n",
                     s, t["rows"], t["present"], t["explained"], t["missing"], t["unmatched"], t["judged"], t["agree"], share, t["clock"], t["clock_ok"]
              exit !(t["judged"] > 0 && t["missing"] == 0 && share >= 99) }' >"$O/$set.total"
    rc=$?
    if [ $rc -eq 0 ]; then ok "$(cat "$O/$set.total")"; else bad "$(cat "$O/$set.total") (at least 99% must agree, no row missing)"; fi
done

# the time per profiled launch of --set full: (run - native run) / launches
if [ -s "$O/full.times" ]; then
    echo "FIGURES time per profiled launch, --set full (beyond the native run):"
    awk -F'|' '{ printf "  %-8s %d launches: gpuprof %.0f ms, ncu %.0f ms per launch (native %.1f s, ncu %.1f s, gpuprof %.1f s)\n",
                 $1, $2, 1000 * ($5 - $3) / $2, 1000 * ($4 - $3) / $2, $3, $4, $5 }' "$O/full.times"
fi

# replay mode none: the full set's longer list split over configurations
if wanted cublas && [ -s "$O/cublas.plain" ]; then
    pre=$O/cublas.none
    rm -f "$pre.jsonl"
    timeout 400 "$B/gpuprof" --set full --replay-mode none -f -o "$pre" sh -c "$X/libs blas" \
        >"$pre.prof" 2>"$pre.prof.err"
    rc=$?
    "$B/gpuprof-report" --page details --csv "$pre.jsonl" >"$pre.gp.csv" 2>"$pre.gp.err"
    values=$(grep -vc '"n/a"' "$pre.gp.csv")
    if [ $rc -eq 0 ] && cmp -s "$O/cublas.plain" "$pre.prof" && [ "$values" -gt 50 ]; then
        ok "cublas --set full --replay-mode none: output unchanged, $values rows with a value"
    else
        bad "cublas --set full --replay-mode none: rc $rc, $values rows with a value"; tail -3 "$pre.prof.err"
    fi
fi
finish
