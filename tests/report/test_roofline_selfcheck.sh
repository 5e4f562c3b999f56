#!/bin/sh
# test_roofline_selfcheck.sh - the judge of the GPU roofline self-check
# (tests/gpu/roofline_selfcheck.py) on made-up records, without a GPU: an
# FFMA kernel at 98% of the FP32 ceiling recorded on an H200
# (tools/gpupeak/results/h200-peaks.json) passes; one at 90% fails; one whose
# counters put it above the architectural ceiling fails; the same kernel
# against a peaks file whose FP16 ceiling is twice the architectural one (the old
# architectural counted an HFMA2 as 2) fails with the report's roofline bug.  The longest-rate launch
# is the one judged (gpupeak's first launches are short).
suite=report-roofline-selfcheck
pass=0; fail=0; skip=0
b=${BUILD:-build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t() { if eval "$1"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $2" >&2; fi; }
if [ ! -x "$b/gpuprof-report" ]; then
    echo "FAIL: $b/gpuprof-report not built" >&2; echo "$suite: 0 passed, 1 failed, 0 skipped"; exit 1
fi
# launch N of an FFMA kernel at 1.98 GHz doing FFMAS FFMA thread instructions in 10 ms
launch() {
    printf '{"type":"launch","launch_id":%s,"kernel":"gpk_tput<OpFfma, 8>(int, float, unsigned int*, unsigned long long*)","grid":[1056,1,1],"block":[256,1,1],"metrics":{"gpu__time_duration.sum":1e7,"sm__cycles_elapsed.avg.per_second":1.98e9,"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained":16896,"sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained":8448,"sm__sass_thread_inst_executed_op_hfma_pred_on.sum.peak_sustained":16896,"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum":%s,"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum":0,"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum":0,"smsp__sass_thread_inst_executed_op_dadd_pred_on.sum":0,"smsp__sass_thread_inst_executed_op_dmul_pred_on.sum":0,"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum":0,"smsp__sass_thread_inst_executed_op_hadd_pred_on.sum":0,"smsp__sass_thread_inst_executed_op_hmul_pred_on.sum":0,"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum":%s}}\n' "$1" "$2" "${3:-0}"
}
# 2 x 16896 x 1.98e9 x 10 ms = 6.69e11 flop at the architectural ceiling;
# gpupeak's 65.29 TFLOP/s x 10 ms = 6.529e11 flop: 3.2645e11 FFMA
judge() { # roof peaks records... -> the judge's line in $tmp/line
    roof=$1; pk=$2; shift 2
    "$b/gpuprof-report" -f json --peaks "$pk" "$@" >"$tmp/r.json" 2>/dev/null
    python3 tests/gpu/roofline_selfcheck.py check "$roof" "$tmp/r.json" >"$tmp/line"
}
{ launch 1 1e9; launch 2 3.2e11; } >"$tmp/good.jsonl"        # 98% of measured
launch 1 2.94e11 >"$tmp/slow.jsonl"                           # 90%
launch 1 3.6e11 >"$tmp/above.jsonl"                           # 107.6% of architectural
peaks=tools/gpupeak/results/h200-peaks.json
judge FP32 "$peaks" "$tmp/good.jsonl"
t 'grep -q "^PASS roofline self-check FP32 (fp32_fma" "$tmp/line" && grep -q "98.0% of measured" "$tmp/line"' \
  "98%: $(cat "$tmp/line")"
judge FP32 "$peaks" "$tmp/slow.jsonl"
t 'grep -q "^FAIL .*90\.[0-9]% of the measured ceiling, not within 5%" "$tmp/line"' "90%: $(cat "$tmp/line")"
judge FP32 "$peaks" "$tmp/above.jsonl"
t 'grep -q "^FAIL .*above the architectural ceiling" "$tmp/line"' "above: $(cat "$tmp/line")"
# a measured FP16 ceiling twice the architectural one (the old defect: the
# architectural roof counted an HFMA2 as 2 flops, gpupeak 4): 4 x 3.217e11
# HFMA2 in 10 ms is 98% of gpupeak's 131.3 TFLOP/s
printf '{"fp32_flops_per_s": 65289160000000.0, "fp16_flops_per_s": 262653280000000.0}\n' >"$tmp/old.json"
launch 1 0 3.217e11 >"$tmp/hfma.jsonl"
judge FP16 "$tmp/old.json" "$tmp/hfma.jsonl"
t 'grep -q "^FAIL .*measured ceiling above the architectural one" "$tmp/line" && grep -q "report says: bug: the measured FP16 ceiling" "$tmp/line"' \
  "old FP16 count: $(cat "$tmp/line")"
judge FP16 "$peaks" "$tmp/hfma.jsonl"
t 'grep -q "^PASS roofline self-check FP16" "$tmp/line"' "FP16: $(cat "$tmp/line")"
# the recorded peaks files against H100 records: no roofline bug (a flat
# file says no clock: compared as rates, allowing the boost clock's margin)
for pk in tests/data/report/peaks-h100.json tests/data/report/peaks-gpupeak1.json; do
    "$b/gpuprof-report" -f json --peaks "$pk" tests/data/report/h100-planted.jsonl >"$tmp/p.json" 2>/dev/null
    t 'python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d[\"kernels\"] and not [x for k in d[\"kernels\"] for x in k[\"roofs\"].values() if x[\"bug\"]]" "$tmp/p.json"' \
      "$pk: a roofline bug on H100 records"
done
echo "$suite: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
