L=$PWD/build/libgpuprof.so; K=build/tests/gpu/known_work
show() { python3 -c "
import json,sys
for l in open('$1'):
    r=json.loads(l)
    if r['type']!='launch' or 'stream_copy' not in r['kernel']: continue
    m=r['metrics']; print('   ', r['passes'], r['snapshot'], m.get('smsp__inst_executed.sum'), m.get('gpu__time_duration.sum'), m.get('smsp__sass_inst_executed.sum'), m.get('smsp__sass_thread_inst_executed_op_ffma_pred_on.sum'))
"; }
echo "hw only"; GPUPROF_METRICS=smsp__inst_executed.sum,gpu__time_duration.sum GPUPROF_OUTPUT=/tmp/a LD_PRELOAD=$L $K 1 >/dev/null 2>&1; show /tmp/a.jsonl
echo "hw only, no flush"; GPUPROF_CACHE_CONTROL=none GPUPROF_METRICS=smsp__inst_executed.sum,gpu__time_duration.sum GPUPROF_OUTPUT=/tmp/b LD_PRELOAD=$L $K 1 >/dev/null 2>&1; show /tmp/b.jsonl
echo "sass+hw"; GPUPROF_METRICS=smsp__inst_executed.sum,gpu__time_duration.sum,smsp__sass_inst_executed.sum GPUPROF_OUTPUT=/tmp/c LD_PRELOAD=$L $K 1 >/dev/null 2>&1; show /tmp/c.jsonl
echo "cupti kernel replay"; GPUPROF_REPLAY=cupti GPUPROF_METRICS=smsp__inst_executed.sum,gpu__time_duration.sum GPUPROF_OUTPUT=/tmp/d LD_PRELOAD=$L $K 1 >/dev/null 2>&1; show /tmp/d.jsonl
echo "ncu"; ncu --clock-control none --metrics smsp__inst_executed.sum,gpu__time_duration.sum,launch__grid_size,launch__registers_per_thread -k stream_copy $K 1 2>&1 | grep -E "smsp|gpu__|launch__"
echo "ncu no cache control"; ncu --clock-control none --cache-control none --metrics smsp__inst_executed.sum,gpu__time_duration.sum -k stream_copy $K 1 2>&1 | grep -E "smsp|gpu__"
