export GPU_TEST_OUT=/tmp/gpu; mkdir -p /tmp/gpu
timeout 200 sh tests/gpu/compare-replay-modes.sh 2>&1
for c in graph threads inplace; do
  exp=$(build/tests/gpu/replay_cases_static $c); got=$(GPUPROF_OUTPUT=/tmp/gpu/x-$c timeout 60 env LD_PRELOAD=$PWD/build/libgpuprof.so build/tests/gpu/replay_cases_static $c 2>/tmp/gpu/x-$c.err)
  echo "$c: rc=$? plain=$exp prof=$got"; tail -3 /tmp/gpu/x-$c.err
done
tar czf $OUT/gpu.tgz -C /tmp/gpu .
