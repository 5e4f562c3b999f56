#!/bin/sh
# test_sass_own_compare.sh - sass_own_compare.py (the SASS pass's own values
# against CUPTI's instrumented ones, launch by launch) on made-up records:
# equal pairs pass, a different value and a value on one side only fail, a
# pair with neither is skipped; and sass_own_check.sh skips without a GPU.
# Runs in make test; SKIP when python3 is absent.
pass=0; fail=0; skip=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL $*"; }
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP sass_own_compare.py: python3 is not installed"
    echo "sass-own-compare: 0 passed, 0 failed, 1 skipped"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
E=smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct
OE=gpuprof__sass_own__average_data_bytes_per_sector_mem_global_op_ld.pct
F=smsp__sass_thread_inst_executed_op_ffma_pred_on.sum
OF=gpuprof__sass_own__thread_inst_executed_op_ffma_pred_on.sum
S=smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct
OS=gpuprof__sass_own__average_data_bytes_per_wavefront_mem_shared.pct
cat >"$tmp/same.jsonl" <<JSON
{"type":"device","device":0}
{"type":"launch","launch_id":1,"kernel":"a","metrics":{"$E":12.5,"$OE":12.500000001,"$F":640,"$OF":640,"$S":null,"$OS":null},"missing":{"$S":"no shared","$OS":"no shared"}}
{"type":"summary"}
JSON
python3 tests/gpu/sass_own_compare.py "$tmp/same.jsonl" >"$tmp/same.out" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q "^same .* launch 1 a $E: cupti 12.5 own 12.500000001" "$tmp/same.out" &&
   grep -q "^skip .*$S: neither has a value (no shared)" "$tmp/same.out" &&
   grep -q "^metric $F: 1 of 1 launches equal" "$tmp/same.out" &&
   grep -q "^sass-own: 2 passed, 0 failed, 1 skipped" "$tmp/same.out"; then ok
else ko "equal pairs: rc $rc; $(cat "$tmp/same.out")"; fi
cat >"$tmp/diff.jsonl" <<JSON
{"type":"launch","launch_id":7,"kernel":"gemm","metrics":{"$S":28.17,"$OS":81.99,"$F":640,"$OF":null},"missing":{"$OF":"no machine code"}}
JSON
python3 tests/gpu/sass_own_compare.py "$tmp/same.jsonl" "$tmp/diff.jsonl" >"$tmp/diff.out" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "^DIFF .* launch 7 gemm $S: cupti 28.17 own 81.99" "$tmp/diff.out" &&
   grep -q "^DIFF .* launch 7 gemm $F: cupti 640 own None (own: no machine code)" "$tmp/diff.out" &&
   grep -q "^metric $S: 0 of 1 launches equal" "$tmp/diff.out" &&
   grep -q "^sass-own: 2 passed, 2 failed, 1 skipped" "$tmp/diff.out"; then ok
else ko "differing pairs: rc $rc; $(cat "$tmp/diff.out")"; fi
# without a GPU the check itself is a skip, never a pass
mkdir -p "$tmp/bin"
printf '#!/bin/sh\nexit 9\n' >"$tmp/bin/nvidia-smi"
chmod +x "$tmp/bin/nvidia-smi"
PATH=$tmp/bin:$PATH OWN_OUT=$tmp/o sh tests/gpu/sass_own_check.sh >"$tmp/check.out" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q "^SKIP " "$tmp/check.out" && grep -q "0 passed, 0 failed, 1 skipped" "$tmp/check.out"; then ok
else ko "without a GPU: rc $rc; $(cat "$tmp/check.out")"; fi
echo "sass-own-compare: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
