export GPU_TEST_OUT=/tmp/gpu; mkdir -p /tmp/gpu
build/diag/sass_list > /tmp/gpu/sass_list.txt 2>&1; head -3 /tmp/gpu/sass_list.txt; grep -c . /tmp/gpu/sass_list.txt
MODES="worker callback" timeout 300 sh tests/gpu/compare-replay-modes.sh 2>&1
tar czf $OUT/gpu.tgz -C /tmp/gpu .
