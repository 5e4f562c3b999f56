#!/bin/sh
# test_brief.sh - the default text report is short and says only what was
# measured; --details is the full table.  On every fixture (tests/data/report,
# its hostile/ inputs, tests/data/where):
#   the short report: at most 25 lines per kernel; no line that is a metric
#   with n/a alone (the full table's rows) and at most 3 lines with an n/a
#   per kernel (no walls of n/a); at most one "not collected" line, whose
#   counts add up to the metrics the full report says were not collected;
#   the same kernels and first verdicts as the full report;
#   --details: every derived metric of derived.def once per kernel, each n/a
#   with its reason.
# And the full-set fixture (every counter collected) has no such line.
suite=report-brief
pass=0; fail=0; skip=0
report=${BUILD:-build}/gpuprof-report
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
if [ ! -x "$report" ]; then
    echo "FAIL: $report not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n_derived=$(grep -c '^GP_DERIVED(' metrics/catalog/derived.def)
classes='compute|roofline|occupancy|shared|global|warp'

for f in tests/data/report/*.jsonl tests/data/report/hostile/*.jsonl tests/data/where/*.jsonl; do
    name=$(basename "$f")
    "$report" "$f" >"$tmp/brief" 2>/dev/null; rc1=$?
    "$report" --details "$f" >"$tmp/details" 2>/dev/null; rc2=$?
    if [ "$rc1" -ne "$rc2" ]; then ko "$name: exit $rc1 short, $rc2 with --details"; continue; fi
    [ "$rc1" -eq 0 ] || continue # inputs refused as a whole: no report to read
    kernels=$(grep -c '^#[0-9][0-9]* ' "$tmp/brief")
    # lines per kernel: from its "#N" line to the blank line after it
    most=$(awk '/^#[0-9]+ /{k=1; n=0} k && /^$/{k=0} k{n++; if (n > m) m = n} END{print m + 0}' "$tmp/brief")
    if [ "$most" -le 25 ]; then ok; else ko "$name: a kernel takes $most lines (at most 25)"; fi
    # no metric n/a alone on its line, no wall of n/a
    if grep -Eq "^ +($classes) +[A-Za-z0-9_.]+ +n/a" "$tmp/brief" || grep -Eq '^ +[a-z_ ]+: n/a *$' "$tmp/brief"; then
        ko "$name: a line that is a metric with n/a: $(grep -E "^ +($classes) +[A-Za-z0-9_.]+ +n/a|: n/a *\$" "$tmp/brief" | head -1)"
    else ok; fi
    walls=$(awk '/^#[0-9]+ /{k=1; n=0} k && /^$/{k=0} k && /n\/a/{n++; if (n > m) m = n} END{print m + 0}' "$tmp/brief")
    if [ "$walls" -le 3 ]; then ok; else ko "$name: $walls lines with n/a in one kernel (at most 3)"; fi
    # what was not collected: one line, its counts those of the full report
    lines=$(grep -c '^not collected: ' "$tmp/brief")
    said=$(grep '^not collected: ' "$tmp/brief" | grep -o '[0-9][0-9]* \(metrics\? \)\?of ' | awk '{s += $1} END{print s + 0}')
    want=$(awk '/^   n\/a because:/{b=1; next} b && /^     [a-z0-9_]+ +[^ ]+ not collected$/{seen[$1]=1} /^#|^$/{b=0}
                END{n=0; for (k in seen) n++; print n}' "$tmp/details")
    if [ "$lines" -le 1 ] && [ "$said" -eq "$want" ] && { [ "$want" -eq 0 ] || [ "$lines" -eq 1 ]; }; then ok
    else ko "$name: $lines 'not collected' lines saying $said metrics; the full report has $want"; fi
    # the same kernels, in the same order, with the same first verdicts
    if [ "$(grep '^#[0-9]' "$tmp/brief")" = "$(grep '^#[0-9]' "$tmp/details")" ] &&
       [ "$(grep '^   1\. ' "$tmp/brief")" = "$(grep '^   1\. ' "$tmp/details")" ]; then ok
    else ko "$name: the short and the full reports name other kernels or verdicts"; fi
    # the full report: every metric once per kernel (the estimates' section apart)
    rows=$(awk '/^estimated over repeated launches/{exit} /^   metrics:$/{m=1; next} /^   [^ ]/{m=0} m' "$tmp/details" |
           grep -Ec "^     ($classes) +[A-Za-z0-9_]+ ")
    nas=$(awk '/^estimated over repeated launches/{exit} /^   metrics:$/{m=1; next} /^   [^ ]/{m=0} m' "$tmp/details" |
          grep -c '(see below)$')
    because=$(awk '/^estimated over repeated launches/{exit} /^   n\/a because:$/{b=1; next} /^   [^ ]|^$|^#/{b=0} b' "$tmp/details" | grep -c .)
    if [ "$rows" -eq $((kernels * n_derived)) ] && [ "$nas" -eq "$because" ] && ! grep -q '^   metrics:$' "$tmp/brief"; then ok
    else ko "$name: --details has $rows metric rows for $kernels kernels x $n_derived metrics, $nas n/a and $because reasons"; fi
done

# a run that collected every counter: no line of what was not collected
"$report" tests/data/report/h100-full.jsonl >"$tmp/full" 2>&1
if ! grep -q 'not collected' "$tmp/full" && grep -q '^   speed of light (% of peak): compute (SM) 78.4%, memory 44.6%' "$tmp/full"; then ok
else ko "h100-full: a 'not collected' line, or no Speed Of Light: $(grep -m1 'not collected\|speed of light' "$tmp/full")"; fi
# the recorded run of the default set names the sets that would collect the rest
"$report" tests/data/report/h100-planted.jsonl >"$tmp/planted" 2>&1
if grep -q '^not collected: .* of --set full (memory chart).* of --section WarpStateStats\|^not collected: .* of --section WarpStateStats.* of --set full (memory chart)' "$tmp/planted" &&
   grep -q 'gpuprof-report --details lists them$' "$tmp/planted"; then ok
else ko "h100-planted: $(grep 'not collected' "$tmp/planted")"; fi
# a failed pass is said with its kernel, once, with its reason
if grep -q '^   n/a (instrumented pass failed: CUPTI_ERROR_NOT_SUPPORTED): .*rf_g' "$tmp/planted"; then ok
else ko "h100-planted: reduce_partial's failed pass is not said"; fi
# --details only where it means something
"$report" --details -f csv tests/data/report/h100-planted.jsonl >"$tmp/out" 2>&1; rc=$?
if [ "$rc" -eq 2 ] && grep -q -- '--details is for --format text or html' "$tmp/out"; then ok
else ko "--details -f csv: exit $rc, $(head -1 "$tmp/out")"; fi

"$report" --details --baseline tests/data/report/h100-planted.jsonl tests/data/report/h100-planted-new.jsonl >"$tmp/out" 2>&1; rc=$?
if [ "$rc" -eq 2 ] && grep -q -- '--details is for a report' "$tmp/out"; then ok
else ko "--details --baseline: exit $rc, $(head -1 "$tmp/out")"; fi

echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
