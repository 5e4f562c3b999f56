#!/bin/sh
# test_report_scale.sh - inputs that grow must cost time in proportion: 8
# times the input must take well under 8 x 8 times as long (the faster of two
# runs each, and a margin for a loaded 2-core machine, as test_report_cli.sh's
# kernel test: 24 x plus half a second).  Each case was quadratic before:
#   - one launch of 40,000 distinct metrics, half of them null with a reason,
#     in Nsight Compute's raw layout (a column scan per metric, a scan of the
#     reasons per metric: 5,000 in 0.23 s, 40,000 in 19 s);
#   - 20,000 device records of distinct GPU models (a scan of the devices per
#     record and per header line: 2,500 in 0.04 s, 20,000 in 3.6 s).
# The JSON reader's check for repeated keys runs on the 40,000 keys too.
#   - one launch of 20,000 metrics whose names collide in the low 20 bits of
#     FNV-1a (key_flood.c), the fixed hash the repeated-key check and the
#     name index once used (20,000 in 0.5 s, 160,000 in 30 s): the keyed
#     hash (util/strhash.c) spreads them as any names.
suite=report-scale
pass=0; fail=0
report=${BUILD:-build}/gpuprof-report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -x "$report" ]; then
    echo "FAIL: $report not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
metrics() {
    awk -v n="$1" 'BEGIN {
        printf "{\"type\":\"launch\",\"kernel\":\"k\",\"block\":[128,1,1],\"metrics\":{"
        for (i = 0; i < n; i++) printf "%s\"m%d.sum\":%s", (i ? "," : ""), i, ((i % 2) ? "null" : i "")
        printf "},\"missing\":{"
        for (i = 1; i < n; i += 2) printf "%s\"m%d.sum\":\"pass %d failed\"", (i > 1 ? "," : ""), i, i
        printf "}}\n" }' >"$tmp/in.jsonl"
}
devices() {
    awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
        printf "{\"type\":\"device\",\"device\":%d,\"name\":\"GPU %d\",\"sm_count\":132}\n", i % 8, i }' >"$tmp/in.jsonl"
}
timed1() { s0=$(date +%s%N); "$report" "$@" -o "$tmp/out" "$tmp/in.jsonl" 2>/dev/null; echo $(( ($(date +%s%N) - s0) / 1000000 )); }
timed() { a=$(timed1 "$@"); b=$(timed1 "$@"); echo $(( a < b ? a : b )); }
# linear WHAT MAKER SMALL CHECK ARGS...: MAKER SMALL, then 8 x SMALL; CHECK is
# a command that must succeed on the larger output
linear() {
    what=$1; make=$2; n=$3; chk=$4; shift 4
    $make "$n"; t1=$(timed "$@")
    $make $((8 * n)); t8=$(timed "$@")
    if ! eval "$chk"; then fail=$((fail + 1)); echo "FAIL: $what: wrong output" >&2
    elif [ "$t8" -lt $((24 * t1 + 500)) ]; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL: $what: $n in $t1 ms, $((8 * n)) in $t8 ms: not linear" >&2; fi
}
linear "ncu-raw-csv of 5,000 and 40,000 metrics" metrics 5000 \
    '[ "$(head -1 "$tmp/out" | tr "," "\n" | wc -l)" -eq 40017 ]' -f ncu-raw-csv
linear "2,500 and 20,000 device records" devices 2500 \
    '[ "$(grep -c "^device [0-7]: GPU" "$tmp/out")" -eq 20000 ]'
cc=${CC:-cc}
if $cc -O2 -o "$tmp/key_flood" tests/report/key_flood.c 2>"$tmp/cc.err"; then
    flood() { "$tmp/key_flood" "$1" 20 >"$tmp/in.jsonl"; }
    linear "20,000 and 160,000 metric names colliding in FNV-1a" flood 20000 \
        '[ "$(head -1 "$tmp/out" | tr "," "\n" | wc -l)" -eq 160017 ]' -f ncu-raw-csv
else
    fail=$((fail + 1)); echo "FAIL: key_flood.c does not build: $(head -3 "$tmp/cc.err")" >&2
fi
echo "$suite: $pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
