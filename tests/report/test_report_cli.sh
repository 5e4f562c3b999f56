#!/bin/sh
# test_report_cli.sh - gpuprof-report as a command: table-driven cases of
# arguments, formats, exit codes and messages.
suite=report-cli
pass=0; fail=0
report=${BUILD:-build}/gpuprof-report
fix=tests/data/report
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# case: want_rc  grep_pattern(stdout+stderr; "" for none)  args...
check() {
    want=$1; pat=$2; shift 2
    "$report" "$@" >"$tmp/out" 2>&1; rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail=$((fail + 1)); echo "FAIL: gpuprof-report $*: exit $rc, want $want" >&2; return
    fi
    if [ -n "$pat" ] && ! grep -q -- "$pat" "$tmp/out"; then
        fail=$((fail + 1)); echo "FAIL: gpuprof-report $*: no '$pat' in output" >&2
        head -5 "$tmp/out" >&2; return
    fi
    pass=$((pass + 1))
}
if [ ! -x "$report" ]; then
    echo "FAIL: $report not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
check 2 "usage:"
check 2 "usage:" --format
check 2 "must be text, csv or html" --format pdf "$fix/h100-planted.jsonl"
check 2 "unknown or incomplete option" --bogus "$fix/h100-planted.jsonl"
check 2 "options go before" "$fix/h100-planted.jsonl" --format csv
check 0 "usage:" --help
check 1 "cannot open" "$fix/no-such-file.jsonl"
check 1 "peaks file" --peaks "$fix/no-such-peaks.json" "$fix/h100-planted.jsonl"
check 1 "not valid JSON" --peaks "$fix/malformed.jsonl" "$fix/h100-planted.jsonl"
check 0 "#1 one_block" "$fix/h100-planted.jsonl"
check 0 "measured ceilings: $fix/peaks-h100.json" --peaks "$fix/peaks-h100.json" "$fix/h100-planted.jsonl"
check 0 "malformed JSON" "$fix/malformed.jsonl"
check 0 "^rank,kernel,device" --format csv "$fix/h100-planted.jsonl"
check 0 ",dram_bound," --format=csv "$fix/h100-planted.jsonl"
check 0 "<svg" --format html "$fix/h100-planted.jsonl"
# -o writes the file and nothing to stdout
"$report" --format csv -o "$tmp/r.csv" "$fix/h100-planted.jsonl" >"$tmp/stdout" 2>&1
if [ -s "$tmp/r.csv" ] && [ ! -s "$tmp/stdout" ] && [ "$(wc -l <"$tmp/r.csv")" -eq 11 ]; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: -o FILE" >&2; fi
# every CSV row has as many fields as the header (quoted commas in kernel names)
if awk '{ q = 0; c = 0
           for (i = 1; i <= length($0); i++) { ch = substr($0, i, 1)
               if (ch == "\"") q = !q; else if (ch == "," && !q) c++ }
           if (NR == 1) n = c; else if (c != n) bad = 1 }
         END { exit bad }' "$tmp/r.csv"; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: CSV rows have unequal field counts" >&2; fi
# n/a is never 0: reduce_partial's rf_g cell is empty and its reason present
if grep '^[0-9]*,"reduce_partial' "$tmp/r.csv" | grep -q 'rf_g: .*CUPTI_ERROR_NOT_SUPPORTED'; then
    pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: missing reason for rf_g" >&2; fi
if "$report" "$fix/h100-planted.jsonl" | grep -qi 'nan'; then
    fail=$((fail + 1)); echo "FAIL: text report prints nan" >&2; else pass=$((pass + 1)); fi
echo "$suite: $pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
