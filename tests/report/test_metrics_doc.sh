#!/bin/sh
# test_metrics_doc.sh - the metric definitions are checked at build time and
# the user guide's list is generated from them: docs/metrics-list.md matches a
# fresh generation, and a malformed or unknown-name formula makes the
# generator (and so `make`) fail naming the metric.
suite=report-metrics-doc
. tests/lib/doc_gen.sh
t '"$gen" --doc "$tmp/list.md"' "generator failed on metrics/catalog/derived.def"
t 'cmp -s "$tmp/list.md" docs/metrics-list.md' "docs/metrics-list.md is stale: run make docs/metrics-list.md"
t 'grep -q "| \`rf_g\` |" "$tmp/list.md"' "rf_g missing from the list"
n_def=$(grep -c '^GP_DERIVED(' metrics/catalog/derived.def)
n_doc=$(grep -c '^| `[a-z0-9_]*` | [^|]* | \(sum\|time\) |' "$tmp/list.md")
t '[ "$n_def" -eq "$n_doc" ]' "list has $n_doc metrics, derived.def $n_def"
# a broken definition file must stop the build
for bad in 'GP_DERIVED("x_bad", "%", "compute", "time", "100 * dram_bytes /", "trailing operator")' \
           'GP_DERIVED("x_bad", "%", "compute", "time", "dram__bytes_raed.sum", "misspelt counter")' \
           'GP_DERIVED("x_bad", "%", "compute", "time", "x_later * 2", "used before defined")' \
           'GP_DERIVED("duration", "s", "compute", "sum", "1", "defined twice")' \
           'GP_DERIVED("x_bad", "%", "nosuch", "time", "1", "bad class")'; do
    { cat metrics/catalog/derived.def; echo "$bad"; echo 'GP_DERIVED("x_later", "%", "compute", "time", "1", "later")'; } >"$tmp/derived.def"
    test_gen derived.def || continue
    "$tmp/gen" --header "$tmp/h.h" 2>"$tmp/err"; rc=$?
    t '[ "$rc" -ne 0 ] && grep -q "x_bad\|duration" "$tmp/err"' "accepted: $bad"
done
echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
