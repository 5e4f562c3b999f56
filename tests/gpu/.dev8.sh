export GPU_TEST_OUT=/tmp/gpu; mkdir -p /tmp/gpu
L=$PWD/build/libgpuprof.so
M=smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct,smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_branch_targets_threads_divergent.sum
for p in strided bank_conflict divergence copy; do
  echo "== $p"
  GPUPROF_LAUNCH_COUNT=1 GPUPROF_OUTPUT=/tmp/gpu/pl-$p LD_PRELOAD=$L build/tests/gpu/planted/planted_$p >/dev/null 2>/tmp/gpu/pl-$p.err
  python3 -c "
import json
for l in open('/tmp/gpu/pl-$p.jsonl'):
    r=json.loads(l)
    if r['type']=='launch':
        m=r['metrics']; print('  gpuprof', {k.split('__')[1][:40]:m.get(k) for k in '$M'.split(',')})
"
  ncu --clock-control none -c 1 --metrics $M build/tests/gpu/planted/planted_$p 2>&1 | grep -E "smsp__" | sed 's/^/  ncu /'
done
SKIP_BENCH=1 SKIP_PLANTED=1 sh tests/gpu/device-run.sh 2>&1 | grep -E "FAIL|known:|gpu:"
tar czf $OUT/gpu.tgz -C /tmp/gpu .
