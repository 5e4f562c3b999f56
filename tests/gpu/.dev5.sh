echo "== cold (profiler before module load), user range"; timeout 60 build/diag/sass_probe no 0 cold
echo "== cold, kernel replay"; timeout 60 build/diag/sass_probe no 2 cold
echo "== cold, eager loading, user range"; CUDA_MODULE_LOADING=EAGER timeout 60 build/diag/sass_probe no 0 cold
echo "== warm, eager loading, user range"; CUDA_MODULE_LOADING=EAGER timeout 60 build/diag/sass_probe no 0 warm
echo "== ncu on the probe's kernel"; timeout 120 ncu --clock-control none --metrics smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_inst_executed.sum -c 1 build/diag/sass_probe no 0 warm 2>&1 | grep -E "smsp__|==PROF==|fma_sp" | head
