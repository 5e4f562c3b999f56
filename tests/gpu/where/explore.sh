#!/bin/sh
# explore.sh - what the GPU machine says about warp-stall sampling, warp
# state counters, SASS and source correlation, and the out-of-bounds read
# case, before the code that uses them is written.  A diagnostic: it
# decides nothing.  Run from the repository root with build/ carried:
#   sh tests/gpu/where/explore.sh        (logs in $OUT/explore.tgz)
W=/tmp/explore
rm -rf "$W"
mkdir -p "$W"
B=build/tests/gpu/where
P=$B/pcs_probe
C=$B/stall_kernels.cubin
log() { echo "== $*"; }

log environment
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
ncu --version | tail -1
NVD=$(command -v nvdisasm || echo /usr/local/cuda/bin/nvdisasm)
echo "nvdisasm: $NVD"; "$NVD" --version | tail -1
NCU_DIR=$(dirname "$(readlink -f "$(command -v ncu)")")
for s in WarpStateStats SourceCounters; do
    f=$(find "$NCU_DIR" /opt/nvidia -name "$s.section" 2>/dev/null | head -1)
    echo "$s section: $f"
    [ -n "$f" ] && cp "$f" "$W/"
done
ncu --list-sets >"$W/ncu-sets.txt" 2>&1

log probe
for m in reasons overhead late getdata rp sass correlate; do
    echo "-- pcs_probe $m"
    timeout 120 "$P" "$C" $m >"$W/probe-$m.log" 2>&1
    echo "exit $?"
    grep -v "^  stall_\|^  [0-9]* smsp\|^  stall_chase +" "$W/probe-$m.log" | head -40
done
grep "^  stall_" "$W/probe-overhead.log" | head -12

log disassembly
"$NVD" --help >"$W/nvdisasm-help.txt" 2>&1
"$NVD" -c -g "$C" >"$W/nvdisasm-g.txt" 2>&1
"$NVD" -c -gi "$C" >"$W/nvdisasm-gi.txt" 2>&1
"$NVD" -c -hex "$C" >"$W/nvdisasm-hex.txt" 2>&1
"$NVD" -c -g -hex -fun stall_chase "$C" >"$W/nvdisasm-fun.txt" 2>&1
objcopy -O binary --only-section=.text.stall_chase "$C" "$W/chase.bin" 2>&1
"$NVD" -b SM90 "$W/chase.bin" >"$W/nvdisasm-raw.txt" 2>&1
"$NVD" -b SM90 -hex "$W/chase.bin" >"$W/nvdisasm-raw-hex.txt" 2>&1
cuobjdump -sass "$C" >"$W/cuobjdump-sass.txt" 2>&1
head -30 "$W/nvdisasm-g.txt"; head -12 "$W/nvdisasm-raw.txt"; head -8 "$W/nvdisasm-raw-hex.txt"

log ncu
t0=$(date +%s%N)
timeout 200 ncu --clock-control none --section WarpStateStats --section SourceCounters \
    -o "$W/ws" -f "$P" "$C" work >"$W/ncu-run.log" 2>&1
echo "ncu exit $? in $(( ($(date +%s%N) - t0) / 1000000 )) ms"; grep -E "==PROF==|passes" "$W/ncu-run.log" | head -12
ncu --import "$W/ws.ncu-rep" --csv --page raw --print-units base >"$W/ncu-raw.csv" 2>&1
ncu --import "$W/ws.ncu-rep" --csv --page source --print-source sass >"$W/ncu-source-sass.csv" 2>&1
ncu --import "$W/ws.ncu-rep" --csv --page source --print-source cuda,sass >"$W/ncu-source-cuda-sass.csv" 2>&1
ncu --import "$W/ws.ncu-rep" --csv --page source --print-source cuda >"$W/ncu-source-cuda.csv" 2>&1
ncu --import "$W/ws.ncu-rep" --page details --section WarpStateStats >"$W/ncu-details.txt" 2>&1
head -3 "$W/ncu-source-sass.csv" | cut -c1-600; head -3 "$W/ncu-source-cuda.csv" | cut -c1-400
ncu --query-metrics --chip gh100 >"$W/ncu-metrics.txt" 2>&1
grep -c . "$W/ncu-metrics.txt"

log out-of-bounds read
O=build/tests/gpu/oob_read
for m in neighbor freed first; do
    for how in native default hwonly fast ncu; do
        echo "-- $m $how"
        case $how in
        native) timeout 60 $O $m ;;
        default) timeout 120 build/gpuprof -o "$W/oob-$m" -f $O $m ;;
        hwonly) timeout 120 build/gpuprof --metrics gpu__time_duration.sum,smsp__inst_executed.sum -o "$W/oob-$m-hw" -f $O $m ;;
        fast) timeout 120 build/gpuprof --set fast -o "$W/oob-$m-fast" -f $O $m ;;
        ncu) timeout 120 ncu --clock-control none --metrics smsp__sass_inst_executed_op_global_ld.sum $O $m ;;
        esac >"$W/oob-$m-$how.log" 2>&1
        echo "exit $?"; grep -E "checksum|last error|oob_read|could not|fault|not execute|ERR|illegal" "$W/oob-$m-$how.log" | cut -c1-220 | head -8
    done
done

[ -n "$OUT" ] && tar czf "$OUT/explore.tgz" -C "$W" --exclude='*.ncu-rep' . && ls -la "$OUT"
exit 0
