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

# bad input never crashes, hangs or misleads
one() { printf '%s\n' "$@" >"$tmp/in.jsonl"; }
one '{"type":"launch","kernel":"k","block":[32,1,1],"static_smem":-1024}'
check 1 '"static_smem" is negative (-1024)' "$tmp/in.jsonl"
one '{"type":"device","device":0,"smem_reserved_per_block":0}' '{"type":"launch","kernel":"k","block":[32,1,1]}'
check 0 "#1 k" "$tmp/in.jsonl"
one '{"type":"device","device":0,"warp_size":2147483647}' '{"type":"launch","kernel":"k","block":[32,1,1]}'
check 0 '"warp_size" is 2147483647, outside 1..1024' "$tmp/in.jsonl"
one '{"type":"launch","kernel":"k","block":[32,1,1],"regs_per_thread":1e99,"grid":[1e300]}'
check 1 "within" "$tmp/in.jsonl"
one '{"type":"launch","kernel":"k","block":[32,1,1],"metrics":{"gpu__time_duration.sum":-150}}'
check 0 "invalid value -150 in the record" "$tmp/in.jsonl"
if "$report" "$tmp/in.jsonl" 2>&1 | grep -q -- "-[0-9.]* \(ns\|us\|ms\|s\)\b\|about -"; then
    fail=$((fail + 1)); echo "FAIL: a negative duration is printed" >&2; else pass=$((pass + 1)); fi
# nothing usable: exit 1, not a report of nothing
mkdir -p "$tmp/dir"
check 1 "it is a directory" "$tmp/dir"
check 1 "cannot read /proc/self/mem" /proc/self/mem
printf 'not json\n{"no":"type"}\n' >"$tmp/junk.jsonl"
check 1 "nothing usable read" "$tmp/junk.jsonl"
: >"$tmp/empty.jsonl"
check 1 "nothing usable read" "$tmp/empty.jsonl"
check 1 "is a directory" --peaks "$tmp/dir" "$fix/h100-planted.jsonl"
printf '{"fp32_flops_per_s":6e13,"dram_bytes_per_s":-3}\n' >"$tmp/negpeak.json"
check 1 "the peak dram_bytes_per_s is -3" --peaks "$tmp/negpeak.json" "$fix/h100-planted.jsonl"
# names cannot write terminal escapes or forge lines; CSV cells are no formulas
one '{"type":"launch","kernel":"evil\n#2 forged\u001b[31m","block":[32,1,1]}' \
    '{"type":"launch","kernel":"=HYPERLINK(1)","block":[32,1,1]}'
"$report" "$tmp/in.jsonl" >"$tmp/text" 2>&1
if grep -q "$(printf '\033')" "$tmp/text" || grep -q "^#2 forged" "$tmp/text" || ! grep -q 'evil\\x0a#2 forged\\x1b\[31m' "$tmp/text"; then
    fail=$((fail + 1)); echo "FAIL: a kernel name reaches the text report raw" >&2; else pass=$((pass + 1)); fi
"$report" --format csv "$tmp/in.jsonl" >"$tmp/csv" 2>&1
if grep -q ',=HYPERLINK' "$tmp/csv" || ! grep -q ",\"'=HYPERLINK(1)\"," "$tmp/csv"; then
    fail=$((fail + 1)); echo "FAIL: a CSV cell starting with = is not guarded" >&2; else pass=$((pass + 1)); fi
# -o: a link another user planted is not written through; the file is 0644
if [ "$(id -u)" = 0 ]; then
    printf 'victim\n' >"$tmp/victim"; ln -s "$tmp/victim" "$tmp/planted"; chown -h 12345 "$tmp/planted"
    check 1 "owned by another user" -o "$tmp/planted" "$fix/h100-planted.jsonl"
    if grep -qx victim "$tmp/victim"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: -o wrote through a planted link" >&2; fi
fi
(umask 0; "$report" -o "$tmp/r0.txt" "$fix/h100-planted.jsonl")
if [ "$(stat -c %a "$tmp/r0.txt")" = 644 ] && [ -z "$(ls -a "$tmp" | grep '^\.r0')" ]; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL: -o mode $(stat -c %a "$tmp/r0.txt") with umask 0, or a temporary file left" >&2; fi
check 0 "gpuprof report" -o /dev/stdout "$fix/h100-planted.jsonl"
# many distinct kernels: time grows with their number, not its square (a
# linear scan made 50,000 take 25 s and 1.3 GB): 8 times the kernels must take
# well under 8 x 8 times as long
kernels() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "{\"type\":\"launch\",\"kernel\":\"kernel_%d\",\"block\":[128,1,1],\"metrics\":{\"gpu__time_duration.sum\":%d}}\n", i, 1000 + i }' >"$tmp/many.jsonl"; }
timed() { s0=$(date +%s%N); "$report" --format csv -o "$tmp/many.csv" "$tmp/many.jsonl" 2>/dev/null; echo $(( ($(date +%s%N) - s0) / 1000000 )); }
kernels 5000; t1=$(timed)
kernels 40000; t8=$(timed)
if [ "$(wc -l <"$tmp/many.csv")" -eq 40001 ] && [ "$t8" -lt $((11 * t1 + 300)) ]; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL: 5,000 kernels in $t1 ms, 40,000 in $t8 ms: not linear" >&2; fi
echo "$suite: $pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
