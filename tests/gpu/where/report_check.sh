#!/bin/sh
# report_check.sh - gpuprof-report's why-and-where view of a real run with
# the real nvdisasm (the CPU tests use recorded listings and a stand-in):
# the stall kernels under --set source, then the text, ncu-source-csv and
# HTML reports, and nvdisasm's raw-mode listing of one function's code.
# Outputs under $1 (default /tmp/where-report).
B=${BUILD:-build}
D=${1:-/tmp/where-report}
mkdir -p "$D"
REPS=2 $B/gpuprof --set source -o "$D/run" -f $B/tests/gpu/where/pcs_probe \
    $B/tests/gpu/where/stall_kernels.cubin work >/dev/null 2>"$D/run.err"
$B/gpuprof-report --format text "$D/run.jsonl" >"$D/where-text.txt" 2>&1; echo "text exit $?"
$B/gpuprof-report --format ncu-source-csv "$D/run.jsonl" >"$D/where-ncu.csv" 2>&1; echo "ncu-source-csv exit $?"
$B/gpuprof-report --format html -o "$D/where.html" "$D/run.jsonl" 2>"$D/html.err"; echo "html exit $?"
python3 - "$D" <<'PY'
import json, sys, binascii
d = sys.argv[1]
for l in open(d + '/run.jsonl'):
    r = json.loads(l)
    if r.get('type') == 'source_function' and r['mangled'] == 'stall_chase' and r.get('code'):
        open(d + '/chase.bin', 'wb').write(binascii.unhexlify(r['code']))
PY
NVD=$(command -v nvdisasm || echo /usr/local/cuda/bin/nvdisasm)
"$NVD" -b SM90 "$D/chase.bin" >"$D/raw-listing.txt" 2>&1; echo "nvdisasm raw exit $?"
grep -c "/\*[0-9a-f]*\*/" "$D/raw-listing.txt" | sed 's/^/raw listing instructions: /'
grep -A12 "stall_chase" "$D/where-text.txt" | head -30
grep -m3 "LDG" "$D/where-ncu.csv" | cut -c1-200
