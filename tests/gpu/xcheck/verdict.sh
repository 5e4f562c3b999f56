#!/bin/sh
# verdict.sh - the cross-check's verdict (run.sh calls it after the runs):
# `gpuprof-report --against`, the command users run, on each program P of
# DIR that has P.jsonl and P.ncu.csv, with P.ncu2.csv (a second ncu run)
# and P.ncu-dram.csv (ncu with the DRAM write-back metrics and the L2 bytes
# alone: one pass), and P.ncu-dram2.csv (that run again: the pairs it does
# not repeat are set apart) when there.  Writes DIR/P.against.txt (and .err) and prints, per program, the
# comparison's last line and its first differences; a SKIP line for a
# program whose ncu CSV holds no table (ncu failed), a FAIL line for one
# where nothing could be compared; then the sums:
#   agreement: X% of N (launch, metric) pairs; ...
#   all pairs: ...            (when ncu did not repeat some pairs)
#   xcheck: N passed, N failed, N skipped
# where passed/failed count (launch, metric) pairs and skipped gpuprof's
# launches ncu has no row for.  compare.py (the Python form of the same
# rules) gives a second opinion when python3 is there (DIR/compare.txt).
# Exit status 0 when no pair differs, no program failed and some pair was
# judged.  BUILD (build), PYTHON (python3).
#   sh tests/gpu/xcheck/verdict.sh DIR
O=${1:?usage: verdict.sh DIR}
B=${BUILD:-build}
PY=${PYTHON:-python3}
HERE=$(dirname "$0")
REPORT=$B/gpuprof-report
failed=0
agree=0; differ=0; unstable=0; unstable_ok=0; over=0; gp_only=0; ncu_only=0; progs=""
for j in "$O"/*.jsonl; do
    [ -f "$j" ] || continue
    name=$(basename "$j" .jsonl)
    [ -f "$O/$name.ncu.csv" ] || continue
    set -- --against "$O/$name.ncu.csv"
    [ -s "$O/$name.ncu2.csv" ] && set -- "$@" --against "$O/$name.ncu2.csv"
    if [ -s "$O/$name.ncu-dram.csv" ]; then
        set -- "$@" --against-one-pass "$O/$name.ncu-dram.csv"
        [ -s "$O/$name.ncu-dram2.csv" ] && set -- "$@" --against-one-pass "$O/$name.ncu-dram2.csv"
    fi
    "$REPORT" "$@" "$j" >"$O/$name.against.txt" 2>"$O/$name.against.err"
    line=$(grep '^against: [0-9]' "$O/$name.against.txt")
    if [ -z "$line" ]; then
        echo "SKIP $name: no comparison with ncu: $(tail -1 "$O/$name.against.err") (see $O/$name.ncu.err)"
        continue
    fi
    progs="$progs $name"
    echo "$name $line"
    if grep -q '^against: nothing compared' "$O/$name.against.txt"; then
        echo "FAIL $name: $(grep '^against: nothing compared' "$O/$name.against.txt")"
        failed=$((failed + 1))
    fi
    grep '^DIFF ' "$O/$name.against.txt" | head -10 | sed "s/^/  $name: /"
    # shellcheck disable=SC2046 # four numbers
    set -- $(echo "$line" | sed 's/^against: \([0-9]*\) agree, \([0-9]*\) differ, [0-9]* not judged (\([0-9]*\) unstable, \([0-9]*\) over 100%).*/\1 \2 \3 \4/')
    agree=$((agree + $1)); differ=$((differ + $2)); unstable=$((unstable + $3)); over=$((over + $4))
    u=$(sed -n 's/^all pairs: .*(\([0-9]*\) of them agree)$/\1/p' "$O/$name.against.txt")
    unstable_ok=$((unstable_ok + ${u:-0}))
    gp_only=$((gp_only + $(grep -c '^UNMATCHED gpuprof only' "$O/$name.against.txt")))
    ncu_only=$((ncu_only + $(grep -c '^UNMATCHED ncu only' "$O/$name.against.txt")))
done
total=$((agree + differ))
awk -v a="$agree" -v t="$total" -v g="$gp_only" -v n="$ncu_only" -v p="$progs" 'BEGIN {
    printf "agreement: %.2f%% of %d (launch, metric) pairs; %d launches unmatched (%d gpuprof only, %d ncu only); programs:%s\n",
        t ? 100 * a / t : 0, t, g + n, g, n, p }'
[ "$unstable" -gt 0 ] && awk -v a="$((agree + unstable_ok))" -v t="$((total + unstable))" \
    -v u="$unstable" -v k="$unstable_ok" 'BEGIN {
    printf "all pairs: %.2f%% of %d agree with the first ncu run, counting the %d pairs ncu did not repeat (%d of them agree)\n",
        100 * a / t, t, u, k }'
[ "$over" -gt 0 ] && echo "not judged: $over pairs where ncu puts a percentage over 100"
# a second opinion: the Python form of the same rules, on the same files
if command -v "$PY" >/dev/null 2>&1 && [ -f "$HERE/compare.py" ]; then
    $PY "$HERE/compare.py" "$O" >"$O/compare.txt" 2>&1
    second=$(grep '^xcheck:' "$O/compare.txt")
    [ -n "$second" ] && echo "second opinion (compare.py): $second"
fi
echo "xcheck: $agree passed, $differ failed, $gp_only skipped"
[ "$failed" -eq 0 ] && [ "$differ" -eq 0 ] && [ "$total" -gt 0 ]
