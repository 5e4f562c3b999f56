#!/bin/sh
# test_where_html.sh - the HTML report's source view in headless Chromium
# (Debian package "chromium"): the page of where-stall.jsonl renders
# without console errors, has one source view per kernel with
# instruction-level data and its lines with data, and fetches nothing; the
# page of the hostile fixture runs no script but the page's own.  Without
# chromium every check is a SKIP.
suite=where-html
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
report=${BUILD:-build}/gpuprof-report
fix=tests/data/where
. tests/lib/chromium.sh
skip_without_browser 9
if [ ! -x "$report" ]; then
    ko "$report not built"
    echo "$suite: $pass passed, $fail failed, $skip skipped"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dis=""
command -v python3 >/dev/null 2>&1 && dis="--nvdisasm tests/report/fake-nvdisasm"

detects_errors

# shellcheck disable=SC2086
"$report" $dis --format html -o "$tmp/where.html" "$fix/where-stall.jsonl" || ko "gpuprof-report --format html failed"
# the kernels with instruction-level data, and their lines with data, from the JSON report
want=$("$report" --format json "$fix/where-stall.jsonl" | grep -c '"where":{')
lines=$(grep -c 'class="srcline data"' "$tmp/where.html")
render "$tmp/where.html"
if grep -q 'data-rendered="yes"' "$tmp/dom.html"; then ok; else ko "page script did not run"; fi
quiet_console
got=$(sed -n 's/.*data-where-sections="\([0-9]*\)".*/\1/p' "$tmp/dom.html" | head -n 1)
if [ "$want" -eq 5 ] && [ "$got" = "$want" ]; then ok; else ko "source views '$got', want $want"; fi
got=$(sed -n 's/.*data-where-lines="\([0-9]*\)".*/\1/p' "$tmp/dom.html" | head -n 1)
if [ "$lines" -gt 0 ] && [ "$got" = "$lines" ]; then ok; else ko "lines with data '$got', want $lines"; fi
self_contained "$tmp/where.html"

# the hostile names: escaped, so the DOM holds the page's own script only
"$report" --format html -o "$tmp/hostile.html" "$fix/where-hostile.jsonl" 2>/dev/null ||
    ko "gpuprof-report --format html failed on the hostile fixture"
render "$tmp/hostile.html"
if grep -q 'data-rendered="yes"' "$tmp/dom.html"; then ok; else ko "hostile page: script did not run"; fi
quiet_console
if [ "$(grep -o '<script' "$tmp/dom.html" | wc -l)" -eq 1 ]; then ok; else
    ko "hostile page: $(grep -o '<script' "$tmp/dom.html" | wc -l) scripts in the DOM"; fi

echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
