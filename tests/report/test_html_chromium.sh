#!/bin/sh
# test_html_chromium.sh - the HTML report in headless Chromium (Debian package
# "chromium"): it renders without console errors and each roofline has one
# point per kernel of the fixture; a full-set run's page has a memory chart
# and Speed Of Light bars per kernel, every link labelled; a default-set
# run's chart marks what was not collected; a --set source run's page has no
# empty roofline, chart or panel; the details page's tables list every
# metric.  The charts' SVG is checked by tests/report/html_check.py
# (well-formed, no NaN, links labelled).  Without chromium every check is a
# SKIP.  A deliberately broken page first proves the console-error detection
# works.
suite=report-html
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
report=${BUILD:-build}/gpuprof-report
fix=tests/data/report
. tests/lib/chromium.sh
skip_without_browser 24
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
py=$(command -v python3 || true)
chk=tests/report/html_check.py
# attr NAME: the body's data-NAME after the page's script ran
attr() { sed -n "s/.*data-$1=\"\([^\"]*\)\".*/\1/p" "$tmp/dom.html" | head -n 1; }
# check PAGE: html_check.py's counts into $tmp/counts (a SKIP without python3)
check() {
    if [ -z "$py" ]; then skip=$((skip + 1)); echo "SKIP html_check.py: python3 is not installed" >&2; return 1; fi
    if "$py" $chk "$1" >"$tmp/counts" 2>"$tmp/chk.err"; then ok; else ko "$1: $(cat "$tmp/chk.err")"; return 1; fi
}
# count KEY: one number of $tmp/counts
count() { "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); k=sys.argv[2].split("."); print(d[k[0]].get(k[1], 0) if len(k) > 1 else d[k[0]])' "$tmp/counts" "$1"; }
n_derived=$(grep -c '^GP_DERIVED(' metrics/catalog/derived.def)

# 3. the default-set run above: its memory charts mark what was not collected
if check "$tmp/report.html"; then
    # L1 to L2 sectors are counters of --set full: not collected, never 0
    if [ "$(count links.not-collected)" -gt 0 ] && grep -q 'data-link="l1-l2" data-state="not-collected"' "$tmp/report.html" &&
       grep -q 'data-link="kernel-l1" data-state="measured"' "$tmp/report.html"; then ok
    else ko "default-set page: links not collected or measured not marked ($(cat "$tmp/counts"))"; fi
fi
if [ "$(attr mem-charts)" = "$kernels" ] && [ "$(attr mem-links-bare)" = 0 ]; then ok
else ko "default-set page: $(attr mem-charts) memory charts, $(attr mem-links-bare) links without a label"; fi

# 4. a full-set run (a made-up H100 fixture): every link measured and labelled
"$report" --format html --peaks "$fix/peaks-h100.json" -o "$tmp/full.html" "$fix/h100-full.jsonl" ||
    ko "gpuprof-report --format html failed on h100-full.jsonl"
render "$tmp/full.html"
quiet_console
if [ "$(attr mem-charts)" = 4 ] && [ "$(attr sol-charts)" = 4 ] && [ "$(attr mem-links)" = 24 ] &&
   [ "$(attr mem-links-bare)" = 0 ]; then ok
else ko "full-set page: $(attr mem-charts) memory charts, $(attr sol-charts) Speed Of Light panels, $(attr mem-links) links, $(attr mem-links-bare) unlabelled"; fi
if check "$tmp/full.html"; then
    if [ "$(count links.measured)" = 24 ] && [ "$(count rooflines)" = 3 ] && [ "$(count sol_charts)" = 4 ]; then ok
    else ko "full-set page: $(cat "$tmp/counts")"; fi
    # the host-memory kernel reads 64 MiB through L2 from system memory
    if grep -q 'l2-sysmem.*read 67.1 MB' "$tmp/counts" && grep -q 'Compute (SM) Throughput' "$tmp/full.html" &&
       grep -q 'data-metric="sol_memory"' "$tmp/full.html"; then ok
    else ko "full-set page: no system-memory read or no Speed Of Light throughputs"; fi
fi
self_contained "$tmp/full.html"

# 5. a --set source run: no empty roofline, memory chart, panel or bar chart
w=tests/data/where/recorded-h200-stall.jsonl
"$report" --format html -o "$tmp/source.html" "$w" 2>/dev/null || ko "gpuprof-report --format html failed on $w"
render "$tmp/source.html"
if grep -q 'data-rendered="yes"' "$tmp/dom.html"; then ok; else ko "source page: script did not run"; fi
quiet_console
if [ -z "$(attr roofline-points)" ] && [ "$(attr mem-charts)" = 0 ] && [ "$(attr sol-charts)" = 0 ] &&
   [ "$(attr kernels)" = 5 ]; then ok
else ko "source page: rooflines '$(attr roofline-points)', $(attr mem-charts) memory charts, $(attr sol-charts) panels, $(attr kernels) kernels"; fi
if check "$tmp/source.html"; then
    if [ "$(count rooflines)" = 0 ] && [ "$(count bar_charts)" -ge 1 ]; then ok
    else ko "source page: $(cat "$tmp/counts")"; fi
fi
if grep -q '<p class="note">No roofline: ' "$tmp/source.html" &&
   grep -q '<p class="note missing">Not collected in this run: [0-9]* metrics of the default set' "$tmp/source.html"; then ok
else ko "source page: no word on the missing roofline or on what was not collected"; fi

# 6. the details page: every metric in each kernel's table; the default one folds
"$report" --format html --details -o "$tmp/details.html" "$fix/h100-planted.jsonl" ||
    ko "gpuprof-report --format html --details failed"
rows=$(grep -c '^<tr\( class="na"\)\?><td>[a-z]*</td><td title=' "$tmp/details.html")
if [ "$rows" -eq $((n_derived * 10)) ] && ! grep -q '<details class="metrics">' "$tmp/details.html"; then ok
else ko "details page: $rows metric rows, want $((n_derived * 10)) ($n_derived metrics x 10 kernels)"; fi
rows=$(grep -c '^<tr\( class="na"\)\?><td>[a-z]*</td><td title=' "$tmp/report.html")
if [ "$rows" -lt $((n_derived * 11)) ] && [ "$(grep -c '<details class="metrics">' "$tmp/report.html")" = "$kernels" ] &&
   grep -q 'more metrics not collected in this run' "$tmp/report.html"; then ok
else ko "default page: its tables are not the measured metrics folded ($rows rows)"; fi

# 7. hostile reasons on the charts: escaped, and the SVG still well-formed
"$report" --format html -o "$tmp/hostile.html" "$fix/hostile/missing_hostile.jsonl" 2>/dev/null ||
    ko "gpuprof-report --format html failed on missing_hostile.jsonl"
check "$tmp/hostile.html"
if grep -q '<script' "$tmp/hostile.html" && [ "$(grep -o '<script' "$tmp/hostile.html" | wc -l)" -eq 1 ]; then ok
else ko "hostile page: a reason wrote a script element"; fi

echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
