#!/bin/sh
# test_metrics_doc.sh - the metric definitions are checked at build time and
# the user guide's list is generated from them: docs/metrics-list.md matches a
# fresh generation, and a malformed or unknown-name formula makes the
# generator (and so `make`) fail naming the metric.
suite=report-metrics-doc
pass=0; fail=0
b=${BUILD:-build}
gen=$b/gen/gp-metrics-gen
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CC=${CC:-cc}
t() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2" >&2; fi; }
if [ ! -x "$gen" ]; then
    echo "FAIL: $gen not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
t '"$gen" --doc "$tmp/list.md"' "generator failed on metrics/derived.def"
t 'cmp -s "$tmp/list.md" docs/metrics-list.md' "docs/metrics-list.md is stale: run make docs/metrics-list.md"
t 'grep -q "| \`rf_g\` |" "$tmp/list.md"' "rf_g missing from the list"
n_def=$(grep -c '^GP_DERIVED(' metrics/derived.def)
n_doc=$(grep -c '^| `[a-z0-9_]*` | [^|]* | \(sum\|time\) |' "$tmp/list.md")
t '[ "$n_def" -eq "$n_doc" ]' "list has $n_doc metrics, derived.def $n_def"
# a broken definition file must stop the build
# gen.c is copied next to the test definitions: quoted #include looks there first
srcs="$tmp/gen.c metrics/expr.c metrics/facts.c metrics/record.c metrics/json.c metrics/device.c metrics/occupancy.c metrics/peaks.c metrics/textfile.c util/num.c"
for bad in 'GP_DERIVED("x_bad", "%", "compute", "time", "100 * dram_bytes /", "trailing operator")' \
           'GP_DERIVED("x_bad", "%", "compute", "time", "dram__bytes_raed.sum", "misspelt counter")' \
           'GP_DERIVED("x_bad", "%", "compute", "time", "x_later * 2", "used before defined")' \
           'GP_DERIVED("duration", "s", "compute", "sum", "1", "defined twice")' \
           'GP_DERIVED("x_bad", "%", "nosuch", "time", "1", "bad class")'; do
    { cat metrics/derived.def; echo "$bad"; echo 'GP_DERIVED("x_later", "%", "compute", "time", "1", "later")'; } >"$tmp/derived.def"
    cp metrics/gen.c metrics/facts.def metrics/counters.def "$tmp/"
    if $CC -std=gnu11 -I"$tmp" -I. -Imetrics -Iinclude $srcs -o "$tmp/gen" -lm 2>"$tmp/cc.log"; then
        "$tmp/gen" --header "$tmp/h.h" 2>"$tmp/err"; rc=$?
        t '[ "$rc" -ne 0 ] && grep -q "x_bad\|duration" "$tmp/err"' "accepted: $bad"
    else
        fail=$((fail + 1)); echo "FAIL: cannot build the generator on a test copy" >&2; cat "$tmp/cc.log" >&2
    fi
done
echo "$suite: $pass passed, $fail failed, 0 skipped"
[ "$fail" -eq 0 ]
