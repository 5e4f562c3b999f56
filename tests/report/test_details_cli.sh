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
    cp tests/data/details/make-details.py "$tmp/fx/tests/data/details/"
    if (cd "$tmp/fx" && python3 tests/data/details/make-details.py) &&
       cmp -s "$tmp/fx/$F" "$F"; then ok
    else ko "$F is not what make-details.py writes"; fi
else
    skip=$((skip + 1)); echo "SKIP fixture generator: python3 is not installed" >&2
fi

# the text page: the SOL section of split_k_kernel is the page Nsight Compute
# printed for an H100 kernel with these values (hopper_w8a16_split_k_mosaic)
"$report" --page details "$F" >"$tmp/page.txt" 2>"$tmp/err"; rc=$?
cat >"$tmp/sol.want" <<'EOF'
[4242] app@h100-node
  split_k_kernel(float const*, float*) (896, 1, 1)x(128, 1, 1), Context 1, Stream 14, Device 0, CC 9.0
    Section: GPU Speed Of Light Throughput
    ----------------------- ----------- ------------
    Metric Name             Metric Unit Metric Value
    ----------------------- ----------- ------------
    DRAM Frequency                  Ghz         3.19
    SM Frequency                    Ghz         1.78
    Elapsed Cycles                cycle        35069
    Memory Throughput                 %        65.48
    DRAM Throughput                   %        65.48
    Duration                         us        19.58
    L1/TEX Cache Throughput           %        31.32
    L2 Cache Throughput               %        68.34
    SM Active Cycles              cycle     28175.42
    Compute (SM) Throughput           %        54.04
    ----------------------- ----------- ------------

EOF
head -18 "$tmp/page.txt" >"$tmp/sol.got"
if [ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && cmp -s "$tmp/sol.want" "$tmp/sol.got"; then ok
else ko "details text: the SOL section differs from ncu's"; diff "$tmp/sol.want" "$tmp/sol.got" | head -10 >&2; fi
# ... and its Occupancy section, computed from the launch (63 registers, 30 KB
# of shared memory): ncu printed these lines for it
for line in "    Block Limit SM                        block           32" \
            "    Block Limit Registers                 block            8" \
            "    Block Limit Shared Mem                block            7" \
            "    Block Limit Warps                     block           16" \
            "    Theoretical Active Warps per SM        warp           28" \
            "    Theoretical Occupancy                     %        43.75" \
            "    Achieved Occupancy                        %        37.66" \
            "    Achieved Active Warps Per SM           warp        24.10" \
            "    Dynamic Shared Memory Per Block      Kbyte/block        30.74" \
            "    Driver Shared Memory Per Block       Kbyte/block         1.02" \
            "    Threads                                   thread       114688" \
            "    Waves Per SM                                             0.97" \
            "    Memory Throughput                           Tbyte/s         3.14"; do
    if grep -qxF -- "$line" "$tmp/page.txt"; then ok; else ko "details text: no line '$line'"; fi
done
# sections in the details page's order; rows that cannot be had: n/a, and
# each reason once at the end
if [ "$(grep '^    Section: ' "$tmp/page.txt" | head -8 | tr '\n' '|')" = \
     "    Section: GPU Speed Of Light Throughput|    Section: Compute Workload Analysis|    Section: Memory Workload Analysis|    Section: Scheduler Statistics|    Section: Warp State Statistics|    Section: Source Counters|    Section: Instruction Statistics|    Section: Launch Statistics|" ]; then ok
else ko "details text: section order"; grep '^    Section: ' "$tmp/page.txt" | head -9 >&2; fi
if grep -qxF "    Stack Size                                                n/a" "$tmp/page.txt" &&
   [ "$(grep -c 'Launch Statistics / Stack Size (launch__stack_size): gpuprof cannot collect it: the context' "$tmp/page.txt")" -eq 1 ]; then ok
else ko "details text: Stack Size not n/a with its reason once"; fi
# a null value: n/a with the record's reason
if grep -qF "L2 Hit Rate (lts__t_sector_hit_rate.pct): n/a: lts__t_sector_hit_rate.pct: no L2 requests (0 sectors)" "$tmp/page.txt"; then ok
else ko "details text: the record's reason of a null value"; fi
# the hostile process name is escaped, no control byte reaches the page
if grep -qF '[4243] app\x1b[31mred@h100-node' "$tmp/page.txt" && ! LC_ALL=C grep -q "$(printf '\033')" "$tmp/page.txt"; then ok
else ko "details text: hostile process name not escaped"; fi

# the CSV page: ncu's header, 20 quoted fields a row, one row per launch,
# section and row of the page
"$report" --page details --csv "$F" >"$tmp/page.csv" 2>"$tmp/err"; rc=$?
if [ $rc -eq 0 ] && head -1 "$tmp/page.csv" | grep -qxF '"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value","Rule Name","Rule Type","Rule Description","Estimated Speedup Type","Estimated Speedup"'; then ok
else ko "details csv: header"; head -1 "$tmp/page.csv" >&2; fi
rows=$(grep -c '^GP_NCU_ROW("[A-Za-z_]*", HEAD' metrics/ncu/sections.def)
# the full set's rows (every HEAD row but those of sections outside it)
full_rows=$("$report" --page details --csv --set full "$F" | tail -n +2 | wc -l)
if [ "$(tail -n +2 "$tmp/page.csv" | wc -l)" -eq "$full_rows" ] && [ "$full_rows" -gt 150 ] &&
   [ "$((full_rows % 3))" -eq 0 ] && [ "$full_rows" -le $((3 * rows)) ]; then ok
else ko "details csv: $(tail -n +2 "$tmp/page.csv" | wc -l) rows, full set $full_rows, $rows rows in the table"; fi
if grep -qxF '"0","4242","app","h100-node","split_k_kernel(float const*, float*)","1","14","(128, 1, 1)","(896, 1, 1)","0","9.0","GPU Speed Of Light Throughput","Duration","us","19.58","","","","",""' "$tmp/page.csv"; then ok
else ko "details csv: the Duration row"; grep Duration "$tmp/page.csv" | head -2 >&2; fi
if grep -qF '"1","4242","app","h100-node","split_k_kernel(float const*, float*)","1","14","(128, 1, 1)","(896, 1, 1)","0","9.0","Launch Statistics","Stack Size","","n/a","","","gpuprof cannot collect it: the context' "$tmp/page.csv"; then ok
else ko "details csv: the reason of Stack Size in Rule Description"; fi
if command -v python3 >/dev/null 2>&1; then
    python3 - "$tmp/page.csv" >"$tmp/py" 2>&1 <<'EOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline='')))
head, body = rows[0], rows[1:]
bad = [r for r in body if len(r) != 20]
# a value is a number or n/a; n/a has its reason, a number none
odd = [r for r in body if (r[14] == 'n/a') != (r[17] != '') or
       (r[14] != 'n/a' and not r[14].replace('.', '', 1).isdigit())]
ids = sorted(set(r[0] for r in body))
print(len(body), len(bad), len(odd), ids)
sys.exit(1 if bad or odd or ids != ['0', '1', '2'] else 0)
EOF
    if [ $? -eq 0 ]; then ok; else ko "details csv: fields: $(cat "$tmp/py")"; fi
    # every field quoted, as ncu writes them
    if ! grep -v '^".*"$' "$tmp/page.csv" | grep -q .; then ok; else ko "details csv: an unquoted field"; fi
else
    skip=$((skip + 1)); echo "SKIP csv fields: python3 is not installed" >&2
fi
# base units: no scaling
check 0 '"Duration","ns","19580"' --page details --csv --print-units base "$F"
check 0 '"DRAM Frequency","hz","3190000000"' --page details --csv --print-units base "$F"
check 0 '"Dynamic Shared Memory Per Block","byte/block","30736"' --page details --csv --print-units base "$F"

# choosing sections: by name, regex:, set; the records' own otherwise
"$report" --page details --section SpeedOfLight "$F" >"$tmp/sol" 2>&1
if [ "$(grep -c '^    Section: ' "$tmp/sol")" -eq 3 ] && [ "$(grep -c 'Section: GPU Speed Of Light Throughput' "$tmp/sol")" -eq 3 ]; then ok
else ko "--section SpeedOfLight: $(grep -c '^    Section: ' "$tmp/sol") sections"; fi
# the sections of a CSV page: its Section Name column (the kernel names hold commas)
sections_of() { grep -o '","9\.0","[^"]*"' "$1" | sort -u | sed 's/.*,"//; s/"$//' | tr '\n' '|'; }
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
   grep -qF '"SM Frequency","hz","n/a","","","not collected by this run: gpuprof --section SpeedOfLight (or --set basic, detailed, full, roofline) collects it"' "$tmp/dflt" &&
   grep -qF '"Duration","us","360",' "$tmp/dflt"; then ok
else ko "records without sections"; grep -m3 "SM Frequency\|Duration" "$tmp/dflt" >&2; fi
# a formula whose counter the run lacks names it
check 0 "Branch Instructions Ratio (derived__smsp__inst_executed_op_branch_pct): not collected by this run (it needs smsp__inst_executed_op_branch.sum): gpuprof --section SourceCounters (or --set detailed, full) collects it" --page details --section SourceCounters "$D"

# --print-summary per-kernel: launches per kernel and min, max, average
"$report" --print-summary per-kernel "$F" >"$tmp/sum" 2>&1
if grep -qF "  split_k_kernel(float const*, float*) (896, 1, 1)x(128, 1, 1), Device 0, CC 9.0, Invocations 2" "$tmp/sum" &&
   grep -qxF "    Duration                         us     9.79    19.58    14.69" "$tmp/sum" &&
   grep -qF "reduce_kernel(float*) (224, 1, 1)x(128, 1, 1), Device 0, CC 9.0, Invocations 1" "$tmp/sum"; then ok
else ko "--print-summary per-kernel text"; grep -m3 "Invocations\|Duration" "$tmp/sum" >&2; fi
"$report" --print-summary per-kernel --csv "$F" >"$tmp/sum.csv" 2>&1
if head -1 "$tmp/sum.csv" | grep -qF '"CC","Invocations","Section Name","Metric Name","Metric Unit","Minimum","Maximum","Average"' &&
   grep -qF '"Duration","us","9.79","19.58","14.69"' "$tmp/sum.csv" &&
   [ "$(cut -d, -f1 "$tmp/sum.csv" | tail -n +2 | sort -u | tr '\n' ' ')" = '"0" "1" ' ]; then ok
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
