#!/bin/sh
# test_characterize_html.sh - the suite's HTML page in headless Chromium
# (Debian package "chromium"): it renders without console errors, has one
# chart per metric class with one row per kernel, one roofline point per
# kernel of the fixture, and fetches nothing.  Without chromium every check
# is a SKIP.  A deliberately broken page first proves the console-error
# detection works.
suite=characterize-html
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
b=${BUILD:-build}
tool=$b/gpuprof-characterize
rep=tests/data/report
. tests/lib/chromium.sh
skip_without_browser 7
if [ ! -x "$tool" ] || [ ! -f "$b/libgpuprof.so" ]; then
    ko "$tool or $b/libgpuprof.so not built"
    echo "$suite: $pass passed, $fail failed, $skip skipped"; exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
attr() { sed -n "s/.*<body[^>]* $1=\"\([^\"]*\)\".*/\1/p" "$tmp/dom.html" | head -n 1; }

# 1. the detector
detects_errors

# 2. the page of a suite whose two programs "profiled" the report's fixtures
mkdir "$tmp/work"
cp "$rep/h100-planted.jsonl" "$rep/h100-second.jsonl" "$tmp/work/"
cat >"$tmp/s.suite" <<'S'
[planted]
dir = work
cmd = [ -z "$GPUPROF_OUTPUT" ] || cp h100-planted.jsonl "${GPUPROF_OUTPUT%/*}/gpuprof-1.jsonl"
[second]
dir = work
cmd = [ -z "$GPUPROF_OUTPUT" ] || cp h100-second.jsonl "${GPUPROF_OUTPUT%/*}/gpuprof-1.jsonl"
[quiet]
cmd = echo "<b>not html</b> & more"
S
# exit 4: quiet profiles nothing (no_records)
CUDA_VISIBLE_DEVICES=0 "$b/gpuprof-characterize" run --no-gpu-check "$tmp/s.suite" -o "$tmp/out" \
    --peaks "$rep/peaks-h100.json" 2>"$tmp/run.err"
[ $? -eq 4 ] || ko "run failed: $(tail -n 2 "$tmp/run.err")"
page=$tmp/out/summary/summary.html
kernels=$(( $("$b/gpuprof-report" --format csv "$rep/h100-planted.jsonl" | tail -n +2 | wc -l) + \
            $("$b/gpuprof-report" --format csv "$rep/h100-second.jsonl" | tail -n +2 | wc -l) ))
classes=$(grep -c '"id": ' "$tmp/out/summary/kernels.json")
render "$page"
if [ "$(attr data-rendered)" = yes ]; then ok; else ko "page script did not run"; fi
quiet_console
if [ "$(attr data-charts)" = "$classes" ] && [ "$classes" -eq 7 ]; then ok; else
    ko "charts: '$(attr data-charts)', want one per metric class ($classes, 7 expected)"; fi
# a chart has a row per kernel but those the class leaves out for doing none
# of what it measures (summary.txt: "K kernels without ... (left out)")
want_rows=$(python3 - "$tmp/out/summary/kernels.json" "$tmp/out/summary/summary.txt" "$kernels" <<'PY'
import json, re, sys
classes = json.load(open(sys.argv[1]))['classes']
text = open(sys.argv[2]).read()
rows = []
for c in classes:
    m = re.search(r'^  %s: .*; (\d+) kernels without .* \(left out\)$' % re.escape(c['metrics'][0]),
                  text, re.M)
    rows.append(str(int(sys.argv[3]) - (int(m.group(1)) if m else 0)))
print(','.join(rows))
PY
)
if [ "$(attr data-chart-rows)" = "$want_rows" ]; then ok; else
    ko "kernel rows per chart '$(attr data-chart-rows)', want '$want_rows'"; fi
if [ "$kernels" -gt 1 ] && [ "$(attr data-roofline-points)" = "$kernels" ]; then ok; else
    ko "roofline points '$(attr data-roofline-points)', want $kernels (one per kernel)"; fi
self_contained "$page"

echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
