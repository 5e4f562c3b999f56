#!/bin/sh
# test_report_cli.sh - gpuprof-report as a command: table-driven cases of
# arguments (getopt_long: options anywhere, --x=v, '-' for standard input),
# formats, the baseline comparison, exit codes and messages.
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
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
if [ ! -x "$report" ]; then
    echo "FAIL: $report not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
P=$fix/h100-planted.jsonl
N=$fix/h100-planted-new.jsonl
check 2 "usage:"
check 2 "usage:" --format
check 2 "must be text, csv, html, json, ncu-csv, ncu-raw-csv, source-csv, ncu-source-csv or sqlite, not 'pdf'" --format pdf "$P"
check 2 "unknown option '--bogus'" --bogus "$P"
check 2 "option '--peaks' needs a value" "$P" --peaks
check 2 "kernel-name-base must be function, demangled or mangled" --kernel-name-base x "$P"
check 2 "compares in text, csv or html, not json" --baseline "$P" -f json "$N"
check 0 "usage:" --help
check 0 "^gpuprof-report [0-9][0-9.]*$" --version
check 1 "cannot open" "$fix/no-such-file.jsonl"
check 1 "peaks file" --peaks "$fix/no-such-peaks.json" "$P"
check 1 "not valid JSON" --peaks "$fix/malformed.jsonl" "$P"
check 0 "#1 one_block" "$P"
check 0 "measured ceilings: $fix/peaks-h100.json" --peaks "$fix/peaks-h100.json" "$P"
check 0 "malformed JSON" "$fix/malformed.jsonl"
check 0 ",dram_bound," --format=csv "$P"
check 0 "<svg" --format html "$P"
# options anywhere, --x=v, -f v, '-' for standard input
check 0 "^rank,kernel,demangled,device" --format csv "$P"
check 0 "^rank,kernel,demangled,device" "$P" --format csv
check 0 "^rank,kernel,demangled,device" "$P" -f csv
if "$report" --format csv - <"$P" 2>&1 | grep -q '^1,one_block,'; then ok
else ko "'-' does not read standard input"; fi
# short names by default, the demangled or mangled one on request
check 0 "^#3 sgemm_tiled$" "$P"
check 0 "^   demangled: sgemm_tiled<128, 128>(int, int, int" "$P"
check 0 "^#3 sgemm_tiled<128, 128>(int, int" --kernel-name-base demangled "$P"
check 0 "^#1 _Z36one_block" --kernel-name-base=mangled "$P"
check 0 "^#1 reduce<256>$" "$fix/names.jsonl"
check 0 "^#3 scale (1)$" "$fix/names.jsonl"
check 0 'title="sgemm_tiled&lt;128, 128&gt;(int, int, int, const float\*, const float\*, float\*)">sgemm_tiled</code>' -f html "$P"
# a peaks file of another GPU: one warning naming both; none for the same GPU
sed 's/NVIDIA H100 80GB HBM3/NVIDIA H200/' "$fix/peaks-h100.json" >"$tmp/peaks-h200.json"
check 0 "gpuprof-report: warning: the measured ceilings ($tmp/peaks-h200.json) are from NVIDIA H200, but the profiled device is NVIDIA H100 80GB HBM3" --peaks "$tmp/peaks-h200.json" "$P"
"$report" --peaks "$fix/peaks-h100.json" "$P" >"$tmp/same" 2>&1
if grep -q "warning: the measured" "$tmp/same"; then ko "a warning for peaks of the same GPU"; else ok; fi
# two hosts' device 0: both listed, kernels kept apart
check 0 "^device 0: NVIDIA H100 PCIe (GH100, sm_90, 114 SMs)$" "$P" "$fix/h100-pcie-rank1.jsonl"
check 0 "device 0 (NVIDIA H100 PCIe); main launch: 57 blocks" "$P" "$fix/h100-pcie-rank1.jsonl"
cat "$P" "$fix/h100-pcie-rank1.jsonl" | "$report" - >"$tmp/cat.out" 2>&1
if grep -q "^device 0: NVIDIA H100 PCIe" "$tmp/cat.out" && grep -q "device 0 (NVIDIA H100 PCIe); main launch: 57 blocks" "$tmp/cat.out" &&
   grep -q "device 0 (NVIDIA H100 80GB HBM3); main launch: 1 blocks" "$tmp/cat.out"; then ok
else ko "two processes' files concatenated on standard input: their device 0s mixed"; fi
# the comparison with a baseline, in each format
check 0 "^#1 one_block (device 0)$" --baseline "$P" "$N"
check 0 "verdicts lost:   uncoalesced(load), dram_bound" --baseline "$P" "$N"
check 0 '^one_block,"one_block(const float\*, float\*, int)",0,both,0.002,0.0001,-95,' -f csv --baseline "$P" "$N"
check 0 'data-status="new"' --format html --baseline="$P" "$N"
check 1 "cannot open" --baseline "$fix/no-such-file.jsonl" "$N"
# JSON and Nsight Compute's CSV layouts
check 0 '"schema":"gpuprof-report/1"' -f json "$P"
# a kernel's main launch (grid, block, registers) as the text and CSV formats give it
check 0 '"name":"register_heavy","kernel":[^[]*"blocks":1056,"threads_per_block":256,"regs_per_thread":' -f json "$P"
check 0 '^"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"$' -f ncu-csv "$P"
check 0 '^"0","4242","","h100-node","saxpy_4x4(int, float, const float\*, float\*)","1","7","(4, 4, 1)","(4096, 256, 1)","0","9.0","Command line profiler metrics","dram__bytes_read.sum","byte","134217728"$' -f ncu-csv "$P"
check 0 '^"ID",.*"CC","launch__block_size",' -f ncu-raw-csv "$P"
# a script written for `ncu --csv --page raw` (header, units row, one row per launch) reads it
"$report" -f ncu-raw-csv -o "$tmp/raw.csv" "$P" "$fix/h100-pcie-rank1.jsonl"
if awk -F'","' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "gpu__time_duration.sum") c = i }
                 NR == 2 { if ($c != "ns") exit 1 }
                 NR > 2 { n++; if ($c !~ /^[0-9]+$/) exit 1 }
                 END { exit !(c && n == 14) }' "$tmp/raw.csv"; then ok
else ko "ncu-raw-csv: no duration column, units row or 14 rows"; fi
# -o writes the file and nothing to stdout
"$report" --format csv -o "$tmp/r.csv" "$P" >"$tmp/stdout" 2>&1
if [ -s "$tmp/r.csv" ] && [ ! -s "$tmp/stdout" ] && [ "$(wc -l <"$tmp/r.csv")" -eq 11 ]; then ok
else ko "-o FILE"; fi
# every CSV row has as many fields as the header (quoted commas in kernel names)
for f in "$tmp/r.csv" "$tmp/raw.csv"; do
    if awk '{ q = 0; c = 0
               for (i = 1; i <= length($0); i++) { ch = substr($0, i, 1)
                   if (ch == "\"") q = !q; else if (ch == "," && !q) c++ }
               if (NR == 1) n = c; else if (c != n) bad = 1 }
             END { exit bad }' "$f"; then ok
    else ko "$f: CSV rows have unequal field counts"; fi
done
# n/a is never 0: reduce_partial's rf_g cell is empty and its reason present
if grep '^[0-9]*,reduce_partial,' "$tmp/r.csv" | grep -q 'rf_g: .*CUPTI_ERROR_NOT_SUPPORTED'; then ok
else ko "missing reason for rf_g"; fi
for f in text json ncu-csv; do
    if "$report" -f $f "$P" | grep -qi 'nan'; then ko "$f report prints nan"; else ok; fi
done

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
one '{"type":"launch","kernel":"evil\n#9 forged\u001b[31m","block":[32,1,1]}' \
    '{"type":"launch","kernel":"=HYPERLINK(1)","block":[32,1,1]}'
"$report" "$tmp/in.jsonl" >"$tmp/text" 2>&1
if grep -q "$(printf '\033')" "$tmp/text" || grep -q "^#9 forged" "$tmp/text" || ! grep -q 'evil\\x0a#9 forged\\x1b\[31m' "$tmp/text"; then
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
# replay mode none: the kernel's row counts the variant's estimated launches,
# and every format says how many were estimated
check 0 "1 launches (and 199 estimated) of 1 kernels" "$fix/none-mode.jsonl"
check 0 "36 ms in 200 launches (~: 199 of them estimated" "$fix/none-mode.jsonl"
check 0 '"launches":200,"launches_estimated":199' -f json "$fix/none-mode.jsonl"
check 0 "200 (~ estimated)" -f html "$fix/none-mode.jsonl"
"$report" -f csv "$fix/none-mode.jsonl" >"$tmp/none.csv" 2>/dev/null
if head -1 "$tmp/none.csv" | grep -q ',launches_estimated$' && sed -n 2p "$tmp/none.csv" | grep -q ',199$'
then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: csv launches_estimated" >&2; fi
# many distinct kernels: time grows with their number, not its square (a
# linear scan made 50,000 take 25 s and 1.3 GB): 8 times the kernels must take
# well under 8 x 8 times as long (the faster of two runs each, and a margin
# for a loaded machine: 3 x linear still fails a quadratic 8 x 8)
kernels() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "{\"type\":\"launch\",\"kernel\":\"kernel_%d\",\"block\":[128,1,1],\"metrics\":{\"gpu__time_duration.sum\":%d}}\n", i, 1000 + i }' >"$tmp/many.jsonl"; }
timed1() { s0=$(date +%s%N); "$report" --format csv -o "$tmp/many.csv" "$tmp/many.jsonl" 2>/dev/null; echo $(( ($(date +%s%N) - s0) / 1000000 )); }
timed() { a=$(timed1); b=$(timed1); echo $(( a < b ? a : b )); }
kernels 5000; t1=$(timed)
kernels 40000; t8=$(timed)
if [ "$(wc -l <"$tmp/many.csv")" -eq 40001 ] && [ "$t8" -lt $((24 * t1 + 500)) ]; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL: 5,000 kernels in $t1 ms, 40,000 in $t8 ms: not linear" >&2; fi
echo "$suite: $pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
