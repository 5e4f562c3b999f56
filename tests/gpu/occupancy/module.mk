# tests/gpu/occupancy/module.mk - the occupancy sweep (run on a GPU machine:
# build/tests/gpu/occupancy_sweep > tests/data/occupancy-h100.csv).
GP_OCC_SWEEP := $(BUILD)/tests/gpu/occupancy_sweep
$(GP_OCC_SWEEP): tests/gpu/occupancy/occupancy_sweep.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $< -o $@ -L$(CUDA_HOME)/lib64/stubs -lcuda
ALL_TARGETS += $(GP_OCC_SWEEP)
