#!/bin/sh
# compare-replay-modes.sh - runs known_work under each replay strategy
# (GPUPROF_REPLAY=profiler|cupti) and with a hardware-only set,
# and prints the figures that tell the strategies apart: SASS counts (exact by
# hand), duration, DRAM and L1 bytes.  A contributor's diagnostic.
B=${BUILD:-build}
G=$B/tests/gpu
LIB=$(cd "$B" && pwd)/libgpuprof.so
OUT=${GPU_TEST_OUT:-$B/gpu-test-out}
mkdir -p "$OUT"
show() {
    python3 - "$1" <<'PY'
import json, sys
keys = ['smsp__sass_thread_inst_executed_op_ffma_pred_on.sum', 'smsp__sass_thread_inst_executed_op_dfma_pred_on.sum',
        'gpu__time_duration.sum', 'dram__bytes_read.sum', 'dram__bytes_write.sum',
        'l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum', 'sm__cycles_elapsed.avg']
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r['type'] != 'launch': continue
    m = r['metrics']
    print('  %-12s passes=%d %s' % (r['kernel'].split('(')[0], r['passes'],
          ' '.join('%s=%s' % (k.split('__')[1][:26], m.get(k)) for k in keys if k in m)))
PY
}
for mode in ${MODES:-profiler cupti}; do
    echo "== GPUPROF_REPLAY=$mode"
    GPUPROF_REPLAY=$mode GPUPROF_OUTPUT=$OUT/mode-$mode timeout 120 env LD_PRELOAD=$LIB $G/known_work 2 >/dev/null 2>"$OUT/mode-$mode.err"
    echo "  rc=$?"; show "$OUT/mode-$mode.jsonl"; grep -E "warning|error" "$OUT/mode-$mode.err" | head -3
done
echo "== hardware-only set (one pass, wraps the program's launch)"
GPUPROF_METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum,sm__cycles_elapsed.avg \
    GPUPROF_OUTPUT=$OUT/mode-hw LD_PRELOAD=$LIB $G/known_work 2 >/dev/null 2>"$OUT/mode-hw.err"
show "$OUT/mode-hw.jsonl"
echo "== SASS-only set"
GPUPROF_METRICS=smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum \
    GPUPROF_OUTPUT=$OUT/mode-sass LD_PRELOAD=$LIB $G/known_work 2 >/dev/null 2>"$OUT/mode-sass.err"
show "$OUT/mode-sass.jsonl"
