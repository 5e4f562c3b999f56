# The cross-check corpus against Nsight Compute: programs built here (no GPU
# needed to build), run on a machine with a GPU and ncu by
# tests/gpu/xcheck/run.sh (`make gpu-test` calls it when ncu is present).
XC := $(BUILD)/tests/gpu/xcheck

$(XC)/patterns: tests/gpu/xcheck/patterns.cu tests/gpu/xcheck/patterns.cuh
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -o $@ $<
$(XC)/sassdump: tests/gpu/xcheck/sassdump.cu tests/gpu/xcheck/patterns.cuh tests/gpu/cupti_check.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -std=c++17 -o $@ $< -lcupti -lcuda

GPU_TESTS += $(XC)/patterns $(XC)/sassdump
$(XC)/libs: tests/gpu/xcheck/libs.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -std=c++17 --extended-lambda -o $@ $< -lcublas -lcufft

GPU_TESTS += $(XC)/libs
TEST_SCRIPTS += tests/gpu/xcheck/test_compare.sh tests/gpu/xcheck/test_verdict.sh
$(XC)/dram_rule: tests/gpu/xcheck/dram_rule.cu tests/gpu/rt_check.h tests/gpu/gp_check.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -o $@ $<

GPU_TESTS += $(XC)/dram_rule
