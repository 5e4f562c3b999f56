#!/bin/sh
# roofline_selfcheck.sh - gpuprof's roofline checked on the device against
# the kernels that define its ceilings: gpupeak measures every roof's ceiling
# (metrics/catalog/roofs.def: FP32, FP64, FP16, tensor, DRAM, L2, L1, shared), then
# each roof's own benchmark runs alone (gpupeak --only NAME, so the profiled
# launches are exactly that peak kernel's; --profile-measured with profiling
# off from the start: gpuprof sees the timed launches, not the calibration)
# under gpuprof, and gpuprof-report
# with the measured peaks must put the kernel within 5% of its measured
# ceiling and never above its architectural one, and name no roofline bug
# (tests/gpu/roofline_selfcheck.py).  Run by run-gpu-tests.sh, or alone:
#     sh tests/gpu/roofline_selfcheck.sh
# Logs and files under $OUT/roofline (GPU_TEST_OUT).  Prints
# "gpu-roofline: N passed, N failed, N skipped".
. tests/gpu/common.sh
LIB=$(cd "$B" && pwd)/libgpuprof.so
PY=${PYTHON:-python3}
PEAK=$B/gpupeak/gpupeak
R=$OUT/roofline
roofs=$($PY tests/gpu/roofline_selfcheck.py roofs)
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "$roofs" | while read -r name bench; do echo "SKIP roofline self-check $name: no GPU on this machine"; done
    skip=$(echo "$roofs" | wc -l)
elif [ ! -x "$PEAK" ] || [ ! -f "$LIB" ]; then
    bad "roofline self-check: $PEAK or $LIB not built (make)"
else
    rm -rf "$R"; mkdir -p "$R"
    benches=$(echo "$roofs" | awk '{print $2}' | paste -sd, -)
    # the ceilings, measured without the profiler
    if ! "$PEAK" --only "$benches" --out "$R/peaks" >"$R/peaks.log" 2>&1; then
        bad "roofline self-check: gpupeak --only $benches failed"; tail -5 "$R/peaks.log"
    else
        echo "$roofs" | while read -r name bench; do
            # the tensor roof's counters are in the extended set
            extra=
            [ "$name" = tensor ] && extra=+sm__ops_path_tensor_src_fp16.sum,sm__ops_path_tensor_src_bf16_dst_fp32.sum
            # only the timed launches are profiled: gpupeak calibrates the
            # launch length by timing launches, which profiling would make
            # look slow (the peak kernels then ran for a few microseconds)
            GPUPROF_OUTPUT="$R/$bench-%p" GPUPROF_SUMMARY=0 GPUPROF_PROFILE_FROM_START=0 \
                timeout 600 env ${extra:+GPUPROF_METRICS=$extra} LD_PRELOAD="$LIB" \
                "$PEAK" --only "$bench" --profile-measured --out "$R/run-$bench" >"$R/$bench.log" 2>&1
            rc=$?
            if [ "$rc" -ne 0 ]; then
                echo "FAIL roofline self-check $name: gpupeak --only $bench under gpuprof: exit $rc"
                tail -5 "$R/$bench.log"
                continue
            fi
            "$B/gpuprof-report" -f json --peaks "$R/peaks/peaks.json" "$R/$bench"-*.jsonl \
                >"$R/$bench.report.json" 2>"$R/$bench.report.err"
            $PY tests/gpu/roofline_selfcheck.py check "$name" "$R/$bench.report.json"
        done >"$R/results.txt"
        cat "$R/results.txt"
        pass=$((pass + $(grep -c '^PASS ' "$R/results.txt")))
        fail=$((fail + $(grep -c '^FAIL ' "$R/results.txt")))
        # the figures side by side, for docs/measurements.md
        "$B/gpuprof-report" --peaks "$R/peaks/peaks.json" "$R"/*-*.jsonl 2>/dev/null |
            grep -E '^#|roofline' >"$R/report-roofline.txt"
    fi
fi
echo "gpu-roofline: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
