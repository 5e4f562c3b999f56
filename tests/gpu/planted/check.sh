#!/bin/sh
# check.sh - on a GPU machine: runs each planted-problem program under
# libgpuprof.so, then gpuprof-report, and checks the report names the planted
# problem first (the copy: DRAM-bound and nothing else).  One PASS/FAIL/SKIP
# line per program, then "planted: N passed, N failed, N skipped".
#   sh tests/gpu/planted/check.sh        (after make)
b=${BUILD:-build}
lib=$b/libgpuprof.so
report=$b/gpuprof-report
pass=0; fail=0; skip=0
# program  expected first verdict  (copy: the only verdict)
cases="4x4:low_occupancy(blocks)
bank_conflict:bank_conflicts
strided:uncoalesced(load)
divergence:divergence
one_block:few_blocks
registers:low_occupancy(registers)
copy:dram_bound"
why=""
if ! nvidia-smi -L >/dev/null 2>&1; then why="no GPU"; fi
[ -z "$why" ] && [ ! -f "$lib" ] && why="$lib not built"
[ -z "$why" ] && [ ! -x "$report" ] && why="$report not built"
if [ -n "$GPU_TEST_OUT" ]; then   # keep the outputs where the device run collects them
    tmp=$GPU_TEST_OUT/planted
    mkdir -p "$tmp"
else
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
fi
# field N of a CSV line (quotes honoured)
field() {
    awk -v want="$1" '{ q = 0; f = 1; s = ""
        for (i = 1; i <= length($0); i++) { ch = substr($0, i, 1)
            if (ch == "\"") { q = !q; continue }
            if (ch == "," && !q) { if (f == want) break; f++; s = ""; continue }
            s = s ch }
        print s }'
}
for c in $cases; do
    prog=${c%%:*}; want=${c#*:}; bin=$b/tests/gpu/planted/planted_$prog
    if [ -n "$why" ] || [ ! -x "$bin" ]; then
        echo "SKIP planted_$prog: ${why:-$bin not built}"; skip=$((skip + 1)); continue
    fi
    out=$tmp/$prog
    if ! LD_PRELOAD=$lib GPUPROF_OUTPUT=$out "$bin" >"$out.stdout" 2>"$out.stderr"; then
        echo "FAIL planted_$prog: the program failed under the profiler: $(tail -n 1 "$out.stderr")"
        fail=$((fail + 1)); continue
    fi
    if ! grep -q "^checksum planted_$prog " "$out.stdout"; then
        echo "FAIL planted_$prog: no checksum line"; fail=$((fail + 1)); continue
    fi
    jsonl=$(ls "$out"*.jsonl 2>/dev/null | head -n 1)
    if [ -z "$jsonl" ]; then
        echo "FAIL planted_$prog: no JSON-lines output at $out*.jsonl"; fail=$((fail + 1)); continue
    fi
    csv=$("$report" --format csv "$jsonl" 2>"$out.report.err")
    row=$(printf '%s\n' "$csv" | grep "^[0-9]*,\"\{0,1\}planted_$prog" | head -n 1)
    # the verdict columns found by their header names
    head=$(printf '%s\n' "$csv" | head -n 1 | tr ',' '\n')
    cf=$(printf '%s\n' "$head" | grep -n '^first_verdict$' | cut -d: -f1)
    ca=$(printf '%s\n' "$head" | grep -n '^verdicts$' | cut -d: -f1)
    first=$(printf '%s\n' "$row" | field "${cf:-0}")
    all=$(printf '%s\n' "$row" | field "${ca:-0}")
    if [ "$prog" = copy ]; then
        if [ "$all" = "$want" ]; then echo "PASS planted_$prog: $all"; pass=$((pass + 1))
        else echo "FAIL planted_$prog: verdicts '$all', want only '$want'"; fail=$((fail + 1)); fi
    elif [ "$first" = "$want" ]; then
        echo "PASS planted_$prog: first verdict $first (all: $all)"; pass=$((pass + 1))
    else
        echo "FAIL planted_$prog: first verdict '${first:-none}', want '$want' (all: $all)"
        fail=$((fail + 1))
        "$report" "$jsonl" 2>/dev/null | sed -n '/^#1/,/occupancy:/p' | sed 's/^/    /'
    fi
done
echo "planted: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
