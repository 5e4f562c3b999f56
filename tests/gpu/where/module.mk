# "Why and where": kernels with known stalls (a cubin with line information,
# loaded through the driver API), the PC sampling probe, and the program that
# reads before its buffer.  Built here (no GPU needed), run on the GPU machine.
WH := $(BUILD)/tests/gpu/where

$(WH)/stall_kernels.cubin: tests/gpu/where/stall_kernels.cu
	@mkdir -p $(dir $@)
	$(NVCC) -cubin -arch=sm_90 -lineinfo -o $@ $<
# a diagnostic of CUPTI's PC Sampling API outside the profiler (pcs_probe.c;
# its modes beside the range profiler and the SASS Metrics API: pcs_probe_rp.c)
$(WH)/pcs_probe: tests/gpu/where/pcs_probe.c tests/gpu/where/pcs_probe_rp.c \
                 replay/cupti_host.c replay/nvpw_sched.c replay/sass_metrics.c replay/sass_derive.c \
                 util/strutil.c util/log.c \
                 tests/gpu/where/pcs_probe.h tests/gpu/cupti_check.h tests/gpu/drv_util.h $(WH)/stall_kernels.cubin
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CUPTI_CPPFLAGS) $(filter-out $(GP_SAN_FLAGS),$(CFLAGS)) -o $@ \
	    $(filter %.c,$^) -L$(CUDA_HOME)/lib64/stubs $(CUPTI_LDLIBS) -lcuda -lm -ldl
$(BUILD)/tests/gpu/oob_read: tests/gpu/oob_read.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -o $@ $< -lcuda

GPU_TESTS += $(WH)/stall_kernels.cubin $(WH)/pcs_probe $(BUILD)/tests/gpu/oob_read
# compare_where.py judged on made-up files (no GPU needed)
TEST_SCRIPTS += tests/gpu/where/test_compare_where.sh
