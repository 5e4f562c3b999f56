export GPU_TEST_OUT=/tmp/gpu; mkdir -p /tmp/gpu
echo "##### EARLY=1"; GPUPROF_EARLY=1 RANGES=auto MODES="worker cupti" timeout 200 sh tests/gpu/compare-replay-modes.sh 2>&1
echo "##### EARLY=0"; GPUPROF_EARLY=0 RANGES=auto MODES="worker" timeout 100 sh tests/gpu/compare-replay-modes.sh 2>&1 | head -12
tar czf $OUT/gpu.tgz -C /tmp/gpu .
