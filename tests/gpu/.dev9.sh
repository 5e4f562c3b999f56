L=$PWD/build/libgpuprof.so; P="build/tests/gpu/driver_api build/tests/gpu/drv_kernels.cubin"
for v in "X=1" "GPUPROF_METRICS=gpu__time_duration.sum" "GPUPROF_METRICS=smsp__sass_inst_executed.sum" "GPUPROF_CROSSCHECK=0" "GPUPROF_ENABLE=0"; do
  env $v GPUPROF_OUTPUT=/tmp/d LD_PRELOAD=$L $P >/dev/null 2>/tmp/e; echo "$v -> rc=$?"; grep -iE "segm|error" /tmp/e | head -2
done
env GPUPROF_OUTPUT=/tmp/d CUDA_VISIBLE_DEVICES=0 LD_PRELOAD=$L $P > /dev/null 2>&1; echo "default again rc=$?"
