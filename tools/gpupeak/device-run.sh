#!/bin/bash
# device-run.sh - one call on the GPU machine: the SASS check, the quick run,
# then the full run; what comes back goes under $OUT (at most 8 files: run.log,
# quick-peaks.json, peaks.json, peaks.txt, curves.csv, plots.tar with the SVGs
# and cross-sm.csv), then both peaks files against the recorded H200 run
# (tools/gpupeak/results/), and the compact table last.  Never changes clocks.
#   usage (from the repository root, on the GPU machine): bash tools/gpupeak/device-run.sh
set -u
OUT=${OUT:-/tmp/gpupeak-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/run.log") 2>&1
BIN=build/gpupeak/gpupeak
echo "== device"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu --format=csv
nvidia-smi --query-compute-apps=pid,name,used_memory --format=csv
if ! "$BIN" --help >/dev/null 2>&1; then
    echo "== carried binary does not start here; building"
    make "$BIN" build/gpupeak/test_gpupeak_sass >/dev/null || exit 1
fi
echo "== SASS check"
export PATH=$PATH:/usr/local/cuda/bin
GPK_SASS_VERBOSE=1 ./build/gpupeak/test_gpupeak_sass 2>&1 | sed 's/^sass //'
# opcode histograms of the kernels whose instruction mix is ptxas's choice
cuobjdump -sass "$BIN" > /tmp/gpk.sass 2>/dev/null
for k in gpk_latI7LatIadd gpk_tputI6OpIadd gpk_latI6LatCvt gpk_mem_readP gpk_mem_l2P \
         gpk_mem_copy_cs gpk_copyvILi8ELb1E gpk_copychunkILi8ELb1ELi4E gpk_copybulk gpk_copyncILi8ELb0E gpk_copyncILi8ELb1E gpk_tlb_chase gpk_cchase gpk_wgmma_kernelILi15E gpk_tputI9OpMmaBf16; do
    h=$(awk -v k="$k" '/Function :/{on=index($0,k)>0} on' /tmp/gpk.sass |
        grep -oE '/\*[0-9a-f]{4,}\*/ +(@!?U?P[0-9T]+ +)?[A-Z][A-Z0-9_.]+' |
        awk '{print $NF}' | sort | uniq -c | sort -rn | head -7 | awk '{printf "%s %s, ", $1, $2}')
    echo "opcodes $k: $h"
done
# the constant chase's loads, as ptxas wrote them (want LDC Rx, c[0x3][Rx])
awk '/Function :/{on=index($0,"gpk_cchase")>0} on' /tmp/gpk.sass | grep -m3 -oE '(LDC|ULDC)[^;]*' |
    sed 's/^/sass gpk_cchase: /'
echo "== command line (no device: CUDA_VISIBLE_DEVICES empty)"
sh tests/gpupeak/test_cli.sh
echo "== quick"
t0=$(date +%s.%N)
timeout 60 "$BIN" --quick --out /tmp/gpk-quick >/tmp/gpk-quick.txt
rc=$?
echo "quick rc=$rc wall=$(awk "BEGIN{print $(date +%s.%N) - $t0}") s"
cp /tmp/gpk-quick/peaks.json "$OUT/quick-peaks.json" 2>/dev/null
cat /tmp/gpk-quick.txt
echo "== full"
t0=$(date +%s.%N)
rm -rf /tmp/gpk-full
timeout 180 "$BIN" --out /tmp/gpk-full >/tmp/gpk-full.txt
rc=$?
cp /tmp/gpk-full/peaks.json /tmp/gpk-full/peaks.txt /tmp/gpk-full/curves.csv "$OUT/" 2>/dev/null
(cd /tmp/gpk-full && tar cf "$OUT/plots.tar" *.svg cross-sm.csv 2>/dev/null)
echo "full rc=$rc wall=$(awk "BEGIN{print $(date +%s.%N) - $t0}") s"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader
echo "== against the recorded H200 run (same keys; figures that moved; another GPU moves them all)"
if command -v python3 >/dev/null 2>&1; then
    python3 tools/gpupeak/compare-peaks.py tools/gpupeak/results/h200-quick-peaks.json \
        "$OUT/quick-peaks.json"
    python3 tools/gpupeak/compare-peaks.py tools/gpupeak/results/h200-peaks.json "$OUT/peaks.json"
else
    echo "python3 not found: no comparison"
fi
echo "== table (full run)"
cat /tmp/gpk-full.txt
