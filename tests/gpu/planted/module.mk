# tests/gpu/planted/module.mk - kernels with exactly one planted problem each
# (and a clean streaming copy); tests/gpu/planted/check.sh runs them under
# libgpuprof.so on a GPU machine and checks the report names the problem first.
GP_PLANTED_MK := 1
GP_PLANTED := 4x4 bank_conflict strided divergence one_block registers copy
GP_PLANTED_BINS := $(GP_PLANTED:%=$(BUILD)/tests/gpu/planted/planted_%)
$(BUILD)/tests/gpu/planted/planted_%: tests/gpu/planted/planted_%.cu tests/gpu/planted/planted.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $< -o $@
GPU_TESTS += $(GP_PLANTED_BINS)
