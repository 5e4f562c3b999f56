#!/bin/sh
# test_html_chromium.sh - the HTML report in headless Chromium (Debian package
# "chromium"): it renders without console errors and each roofline has one
# point per kernel of the fixture.  Without chromium every check is a SKIP.
# A deliberately broken page first proves the console-error detection works.
suite=report-html
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
report=${BUILD:-build}/gpuprof-report
fix=tests/data/report
. tests/lib/chromium.sh
skip_without_browser 4
if [ ! -x "$report" ]; then
    ko "$report not built"
    echo "$suite: $pass passed, $fail failed, $skip skipped"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. the detector: a page with a script error must be caught
detects_errors

# 2. the report page
"$report" --format html --peaks "$fix/peaks-h100.json" -o "$tmp/report.html" \
    "$fix/h100-planted.jsonl" "$fix/h100-second.jsonl" || ko "gpuprof-report --format html failed"
kernels=$("$report" --format csv "$fix/h100-planted.jsonl" "$fix/h100-second.jsonl" | tail -n +2 | wc -l)
render "$tmp/report.html"
if grep -q 'data-rendered="yes"' "$tmp/dom.html"; then ok; else ko "page script did not run"; fi
quiet_console
points=$(sed -n 's/.*data-roofline-points="\([0-9,]*\)".*/\1/p' "$tmp/dom.html" | head -n 1)
want="$kernels,$kernels,$kernels"
if [ "$kernels" -gt 0 ] && [ "$points" = "$want" ]; then ok; else
    ko "roofline points per level '$points', want '$want' ($kernels kernels)"; fi
self_contained "$tmp/report.html"

echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
