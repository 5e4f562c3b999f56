#!/bin/sh
# test_details_cli.sh - Nsight Compute's pages of gpuprof-report on recorded
# records: --page details as text (ncu's CLI layout, checked line for line
# against the page ncu printed for the same kernel on an H100) and as CSV
# (ncu's 20 columns, one row per launch, section and row, every field
# quoted), --print-units base, --section/--set/regex: choosing the sections,
# --print-summary per-kernel (text and CSV), the raw page; records that
# lack a section (a default-set run): each row says why; hostile names
# escaped; bad options give one message.  The fixture is what
# tests/data/details/make-details.py writes.
suite=report-details
pass=0; fail=0; skip=0
report=${BUILD:-build}/gpuprof-report
F=tests/data/details/h100-full.jsonl
D=tests/data/report/h100-second.jsonl
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
# case: want_rc  fixed-string (stdout+stderr; "" for none)  args...
check() {
    want=$1; pat=$2; shift 2
    "$report" "$@" >"$tmp/out" 2>&1; rc=$?
    if [ "$rc" -ne "$want" ]; then ko "gpuprof-report $*: exit $rc, want $want"; head -3 "$tmp/out" >&2; return; fi
    if [ -n "$pat" ] && ! grep -qF -- "$pat" "$tmp/out"; then
        ko "gpuprof-report $*: no '$pat' in output"; head -5 "$tmp/out" >&2; return
    fi
    ok
}
if [ ! -x "$report" ]; then
    echo "FAIL: $report not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi

# the fixture is what its generator writes
if command -v python3 >/dev/null 2>&1; then
    mkdir -p "$tmp/fx/tests/data/details" "$tmp/fx/metrics/ncu"
    cp metrics/ncu/sections.def "$tmp/fx/metrics/ncu/"
    cp tests/data/details/make-details.py tests/data/details/ncu-fill_f32.details-base.csv \
       "$tmp/fx/tests/data/details/"
    if (cd "$tmp/fx" && python3 tests/data/details/make-details.py) &&
       cmp -s "$tmp/fx/$F" "$F"; then ok
    else ko "$F is not what make-details.py writes"; fi
else
    skip=$((skip + 1)); echo "SKIP fixture generator: python3 is not installed" >&2
fi

# Nsight Compute 2025.3.1's own pages of the two fill_f32 launches the
# fixture holds (an H100, --set full): gpuprof-report's pages of the same
# values must print every row gpuprof has as ncu printed it
N=tests/data/details/ncu-fill_f32
"$report" --page details "$F" >"$tmp/page.txt" 2>"$tmp/err"; rc=$?
if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ]; then ok; else ko "--page details: exit $rc $(head -1 "$tmp/err")"; fi
# the SOL section of the first launch, line for line as ncu printed it
sed -n '4,17p' "$N.details.txt" >"$tmp/sol.want"
sed -n '3,16p' "$tmp/page.txt" >"$tmp/sol.got"
if [ "$(head -2 "$tmp/page.txt")" = "$(head -2 "$N.details.txt")" ]; then ok
else ko "details text: the process and kernel lines differ from ncu's"; head -2 "$tmp/page.txt" >&2; fi
if cmp -s "$tmp/sol.want" "$tmp/sol.got"; then ok
else ko "details text: the SOL section differs from ncu's"; diff "$tmp/sol.want" "$tmp/sol.got" | head -10 >&2; fi
if command -v python3 >/dev/null 2>&1; then
    # every row of every section: the same cells, or n/a with its reason
    if python3 tests/report/details_pages.py compare "$N.details.txt" "$tmp/page.txt" >"$tmp/cmp" 2>&1 &&
       grep -q "^rows 174 same 140 na 34 differ 0 absent 0" "$tmp/cmp"; then ok
    else ko "details text against ncu's: $(tail -3 "$tmp/cmp")"; fi
    # the CSV page: gpuprof's judge of the GPU machine (compare_details.py)
    # finds every row, and every value agrees, in both unit modes
    "$report" --page details --csv "$F" >"$tmp/page.csv" 2>&1
    "$report" --page details --csv --print-units base "$F" >"$tmp/base.csv" 2>&1
    for pair in "details.csv page.csv" "details-base.csv base.csv"; do
        set -- $pair
        python3 tests/gpu/details/compare_details.py "$N.$1" "$tmp/$2" >"$tmp/cmp" 2>&1; rc=$?
        if [ $rc -eq 0 ] && grep -q "^details-counts agree=104 clock=36 clock_ok=36 explained=34 judged=104 missing=0" "$tmp/cmp"; then ok
        else ko "compare_details on $1: $(tail -2 "$tmp/cmp")"; fi
    done
    # ... and its rows with a value are ncu's rows, byte for byte
    grep '^"[01]",' "$tmp/page.csv" | grep -v '"n/a",$' | grep -v GpuprofUnavailable >"$tmp/gp01"
    if [ "$(wc -l <"$tmp/gp01")" -eq 140 ] && [ -z "$(grep -vxFf "$N.details.csv" "$tmp/gp01")" ]; then ok
    else ko "details csv: rows not as ncu wrote them: $(grep -vxFf "$N.details.csv" "$tmp/gp01" | head -2)"; fi
    grep '^"[01]",' "$tmp/base.csv" | grep -v '"n/a",$' | grep -v GpuprofUnavailable >"$tmp/gp01b"
    if [ -z "$(grep -vxFf "$N.details-base.csv" "$tmp/gp01b")" ]; then ok
    else ko "details csv base units: rows not as ncu wrote them: $(grep -vxFf "$N.details-base.csv" "$tmp/gp01b" | head -2)"; fi
    # the header is ncu's, metric rows are 15 fields and a trailing comma,
    # rule rows 20 quoted fields
    if [ "$(head -1 "$tmp/page.csv")" = "$(head -1 "$N.details.csv")" ]; then ok; else ko "details csv: header"; fi
    python3 - "$tmp/page.csv" >"$tmp/py" 2>&1 <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
body = rows[1:]
metric = [r for r in body if r[12]]
rule = [r for r in body if not r[12]]
bad = [r for r in metric if len(r) != 16 or r[15] != ''] + [r for r in rule if len(r) != 20]
why = [r for r in rule if r[15] != 'GpuprofUnavailable' or r[16] != 'INF' or ' / ' not in r[17]]
na = [r for r in metric if r[14] == 'n/a']
print(len(metric), len(rule), len(bad), len(why), len(na))
sys.exit(1 if bad or why or len(na) != len(rule) or sorted(set(r[0] for r in body)) != ['0', '1', '2'] else 0)
PY
    if [ $? -eq 0 ]; then ok; else ko "details csv: fields: $(cat "$tmp/py")"; fi
else
    skip=$((skip + 5)); echo "SKIP details against ncu's pages: python3 is not installed" >&2
fi
# the hostile process name is escaped, no control byte reaches the page
if grep -qF '[760] app\x1b[31mred@127.0.0.1' "$tmp/page.txt" && ! LC_ALL=C grep -q "$(printf '\033')" "$tmp/page.txt"; then ok
else ko "details text: hostile process name not escaped"; fi
# a null value: n/a with the record's reason, said once after the page
if grep -qF "Memory Workload Analysis / L2 Hit Rate (lts__t_sector_hit_rate.pct): n/a: lts__t_sector_hit_rate.pct: no L2 requests (0 sectors)" "$tmp/page.txt" &&
   [ "$(grep -c 'Launch Statistics / Stack Size (launch__stack_size): gpuprof cannot collect it' "$tmp/page.txt")" -eq 1 ]; then ok
else ko "details text: the reasons after the page"; fi
# sections in the details page's order (ncu's order, then display name)
if [ "$(grep '^    Section: ' "$tmp/page.txt" | head -13 | tr '\n' '|')" = "$(grep '^    Section: ' "$N.details.txt" | grep -v 'Roofline Chart\|Workload Analysis Chart' | head -13 | tr '\n' '|')" ]; then ok
else ko "details text: section order"; grep '^    Section: ' "$tmp/page.txt" | head -13 >&2; fi
# base units: no scaling, thousands separators as ncu's
check 0 '"Duration","ns","4,064",' --page details --csv --print-units base "$F"
check 0 '"DRAM Frequency","hz","2,612,598,425.20",' --page details --csv --print-units base "$F"

# choosing sections: by name, regex:, set; the records' own otherwise
"$report" --page details --section SpeedOfLight "$F" >"$tmp/sol" 2>&1
if [ "$(grep -c '^    Section: ' "$tmp/sol")" -eq 3 ] && [ "$(grep -c 'Section: GPU Speed Of Light Throughput' "$tmp/sol")" -eq 3 ]; then ok
else ko "--section SpeedOfLight: $(grep -c '^    Section: ' "$tmp/sol") sections"; fi
# the sections of a CSV page: its Section Name column (the kernel names hold commas)
sections_of() { grep ',$' "$1" | grep -o '","9\.0","[^"]*",' | sed 's/^","9\.0","//; s/",$//' | sort -u | tr '\n' '|'; }
"$report" --page details --csv --section 'regex:^(Launch|Occ)' "$F" >"$tmp/re" 2>&1
if [ "$(sections_of "$tmp/re")" = 'Launch Statistics|Occupancy|' ]; then ok
else ko "--section regex: sections $(sections_of "$tmp/re")"; fi
"$report" --page details --csv --set basic "$F" >"$tmp/basic" 2>&1
if [ "$(sections_of "$tmp/basic")" = 'GPU Speed Of Light Throughput|GPU and Memory Workload Distribution|Launch Statistics|Occupancy|' ]; then ok
else ko "--set basic: sections $(sections_of "$tmp/basic")"; fi
check 0 "Section: Launch Statistics" --section LaunchStats "$F" # a section alone implies --page details

# records without sections (a default-set run): ncu's default set, each row
# it lacks saying which section or set collects it
"$report" --page details --csv "$D" >"$tmp/dflt" 2>&1; rc=$?
if [ $rc -eq 0 ] && [ "$(sections_of "$tmp/dflt")" = 'GPU Speed Of Light Throughput|GPU and Memory Workload Distribution|Launch Statistics|Occupancy|' ] &&
   grep -qF '"SM Frequency","hz","n/a",' "$tmp/dflt" &&
   grep -qF '"GpuprofUnavailable","INF","GPU Speed Of Light Throughput / SM Frequency (gpc__cycles_elapsed.avg.per_second): not collected by this run: gpuprof --section SpeedOfLight (or --set basic, detailed, full, roofline) collects it"' "$tmp/dflt" &&
   grep -qF '"Duration","us","360",' "$tmp/dflt"; then ok
else ko "records without sections"; grep -m3 "SM Frequency\|Duration" "$tmp/dflt" >&2; fi
# a formula whose counter the run lacks names it
check 0 "Branch Instructions Ratio (derived__smsp__inst_executed_op_branch_pct): not collected by this run (it needs smsp__inst_executed_op_branch.sum): gpuprof --section SourceCounters (or --set detailed, full) collects it" --page details --section SourceCounters "$D"

# --print-summary per-kernel: per kernel its launches and each row's
# minimum, maximum and average, as ncu printed them for fill_f32's two
"$report" --print-summary per-kernel "$F" >"$tmp/sum" 2>&1
if grep -qxF "  fill_f32(float *, unsigned long, unsigned int) (256, 1, 1)x(256, 1, 1), Device 0, CC 9.0, Invocations 2" "$tmp/sum" &&
   grep -qF "reduce_kernel(float*) (224, 1, 1)x(128, 1, 1), Device 0, CC 9.0, Invocations 1" "$tmp/sum" &&
   [ "$(grep -m1 '^    Section: ' "$tmp/sum")" = "    Section: Compute Workload Analysis" ]; then ok
else ko "--print-summary per-kernel text"; grep -m3 "Invocations\|Section" "$tmp/sum" >&2; fi
if command -v python3 >/dev/null 2>&1; then
    if python3 tests/report/details_pages.py compare --summary "$N.summary.txt" "$tmp/sum" >"$tmp/cmp" 2>&1 &&
       grep -q "^rows 84 same 70 na 14 differ 0 absent 0" "$tmp/cmp"; then ok
    else ko "summary against ncu's: $(tail -3 "$tmp/cmp")"; fi
else
    skip=$((skip + 1))
fi
"$report" --print-summary per-kernel --csv "$F" >"$tmp/sum.csv" 2>&1
if head -1 "$tmp/sum.csv" | grep -qxF '"Process ID","Process Name","Host Name","Kernel Name","Block Size","Grid Size","Device","CC","Invocations","Section Name","Metric Name","Metric Unit","Minimum","Maximum","Average"' &&
   grep -qxF '"759","libs","127.0.0.1","fill_f32(float *, unsigned long, unsigned int)","(256, 1, 1)","(256, 1, 1)","0","9.0","2","GPU Speed Of Light Throughput","Duration","us","4.03","4.06","4.05"' "$tmp/sum.csv" &&
   grep -qxF '"759","libs","127.0.0.1","fill_f32(float *, unsigned long, unsigned int)","(256, 1, 1)","(256, 1, 1)","0","9.0","2","Compute Workload Analysis","Executed Ipc Elapsed","inst/cycle","0.92","0.93","0.93"' "$tmp/sum.csv"; then ok
else ko "--print-summary per-kernel --csv"; head -2 "$tmp/sum.csv" >&2; fi
check 0 "Invocations 1" --print-summary per-kernel "$D"

# the raw page
check 0 "    gpu__time_duration.sum" --page raw "$F"
check 0 '"ID","Process ID"' --page raw --csv "$F"

# listings
check 0 "basic      LaunchStats, Occupancy, SpeedOfLight, WorkloadDistribution" --list-sets
check 0 "Stack Size: launch__stack_size [-] NOT COLLECTED" --list-sections --verbose

# bad options: one message
check 2 "--section 'Bogus': no such section; the sections are SpeedOfLight" --page details --section Bogus "$F"
check 2 "gpuprof's own sets choose what to collect" --set default "$F"
check 2 "--page takes details, raw or source, not 'sauce'" --page sauce "$F"
check 2 "give one or the other" --page details --format csv "$F"
check 2 "not with --baseline or --against" --page details --baseline "$D" "$F"
check 2 "--page source is written as CSV only" --page source "$F"
check 2 "--print-summary per-gpu and per-nvtx are not gpuprof's" --print-summary per-gpu "$F"
check 2 "--print-units takes auto or base, not 'si'" --page details --print-units si "$F"
# hostile inputs: read or refused; the text pages never carry a control
# byte (names escaped as the text report does), the CSV page quotes every
# field and guards a name a spreadsheet would run as a formula
for f in tests/data/report/hostile/*.jsonl tests/data/report/names.jsonl; do
    for args in "--page details" "--print-summary per-kernel" "--page raw"; do
        "$report" $args "$f" >"$tmp/h" 2>&1; rc=$?
        if [ $rc -le 1 ] && ! LC_ALL=C grep -q "$(printf '\033')" "$tmp/h"; then ok
        else ko "$args $f: exit $rc or a raw escape"; fi
    done
done
"$report" --page details --csv tests/data/report/hostile/names_all.jsonl >"$tmp/h.csv" 2>&1
if grep -qF ",\"'=HYPERLINK(" "$tmp/h.csv" && grep -qF ",\"'@SUM(A1)\"," "$tmp/h.csv" &&
   ! grep -qF ',"=HYPERLINK(' "$tmp/h.csv"; then ok
else ko "details csv: formula guard"; grep -m2 HYPERLINK "$tmp/h.csv" >&2; fi
echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
