# GPU test programs: built by `make` and `make test` (no GPU needed to build),
# run by `make gpu-test` on a machine with a GPU.
GT := $(BUILD)/tests/gpu

$(GT)/replay_cases_static: tests/gpu/replay_cases.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -cudart static -o $@ $< -lpthread -lcuda
$(GT)/replay_cases_shared: tests/gpu/replay_cases.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -cudart shared -o $@ $< -lpthread -lcuda
$(GT)/known_work: tests/gpu/known_work.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -o $@ $<
# kernels loaded by the driver-API programs (drv_kernels, range_kernels)
$(GT)/%.cubin: tests/gpu/%.cu
	@mkdir -p $(dir $@)
	$(NVCC) -cubin -arch=sm_90 -o $@ $<
$(GT)/driver_api: tests/gpu/driver_api.c tests/gpu/drv_util.h $(GT)/drv_kernels.cubin
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -I$(CUDA_HOME)/include $(CFLAGS) -o $@ $< \
	    -L$(CUDA_HOME)/lib64/stubs -lcuda
$(GT)/no_cuda: tests/gpu/no_cuda.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(GP_SAN_FLAGS),$(CFLAGS)) -o $@ $<

GPU_TESTS += $(GT)/replay_cases_static $(GT)/replay_cases_shared $(GT)/known_work \
             $(GT)/driver_api $(GT)/no_cuda
$(GT)/many_launches: tests/gpu/many_launches.cu
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -o $@ $<
GPU_TESTS += $(GT)/many_launches
# replay mode none: a kernel of fixed work and one of drifting work, launched many times
$(GT)/repeat_work: tests/gpu/repeat_work.cu tests/gpu/rt_check.h tests/gpu/gp_check.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -o $@ $<
GPU_TESTS += $(GT)/repeat_work
# capture ranges: a C program (driver API, NVTX, cuProfilerStart/Stop) and its kernels
$(GT)/ranges: tests/gpu/ranges.c tests/gpu/drv_util.h $(GT)/range_kernels.cubin
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -I$(CUDA_HOME)/include $(CFLAGS) -o $@ $< \
	    -L$(CUDA_HOME)/lib64/stubs -lcuda -lpthread -ldl
GPU_TESTS += $(GT)/ranges

# three levels deep, below the top Makefile's */*/module.mk
include tests/gpu/xcheck/module.mk
include tests/gpu/where/module.mk
include tests/gpu/details/module.mk
# the snapshot's chunk hash kernel and incremental store, driven directly
$(GT)/chunk_hash_check: tests/gpu/chunk_hash_check.c replay/chunk_hash.c replay/chunk_hash_dev.c \
                        replay/snap_plan.c replay/snapshot.c replay/driver.c util/log.c \
                        $(GP_CHUNK_PTX_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/unit -I$(CUDA_HOME)/include $(filter-out $(GP_SAN_FLAGS),$(CFLAGS)) \
	    -o $@ $(filter %.c,$^) -L$(CUDA_HOME)/lib64/stubs -lcuda -ldl -lpthread
GPU_TESTS += $(GT)/chunk_hash_check
# two devices from one thread and from two, peer copies and peer access
# (tests/gpu/multi_gpu.sh)
$(GT)/multi_device: tests/gpu/multi_device.cu tests/gpu/rt_check.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -cudart static -o $@ $< -lpthread
GPU_TESTS += $(GT)/multi_device
# replay-cost benchmark: a large working set, a small write (tests/gpu/bench/replay_cost.sh)
$(GT)/bench/big_writes: tests/gpu/bench/big_writes.cu tests/gpu/rt_check.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -o $@ $<
GPU_TESTS += $(GT)/bench/big_writes
# what one counter pass costs with each of CUPTI's target APIs (tests/gpu/bench/replay_cost.sh)
$(GT)/bench/pass_cost: tests/gpu/bench/pass_cost.cu replay/cupti_host.c replay/nvpw_sched.c util/strutil.c util/log.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CUPTI_CPPFLAGS) $(filter-out $(GP_SAN_FLAGS),$(CFLAGS)) -c -o $@-host.o replay/cupti_host.c
	$(CC) $(CPPFLAGS) $(CUPTI_CPPFLAGS) $(filter-out $(GP_SAN_FLAGS),$(CFLAGS)) -c -o $@-nvpw.o replay/nvpw_sched.c
	$(CC) $(CPPFLAGS) $(filter-out $(GP_SAN_FLAGS),$(CFLAGS)) -c -o $@-str.o util/strutil.c
	$(CC) $(CPPFLAGS) $(filter-out $(GP_SAN_FLAGS),$(CFLAGS)) -c -o $@-log.o util/log.c
	$(NVCC) $(NVCCFLAGS) -I. -Iinclude -o $@ $< $@-host.o $@-nvpw.o $@-str.o $@-log.o -L$(CUDA_LIBDIR) \
	    -Xlinker -rpath=$(CUDA_LIBDIR) -lcupti -lnvperf_host -lcuda -ldl
GPU_TESTS += $(GT)/bench/pass_cost
# many distinct kernels and many launches: the library's memory and records under load
$(GT)/bench/many_kernels: tests/gpu/bench/many_kernels.c tests/gpu/drv_util.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -I$(CUDA_HOME)/include $(filter-out $(GP_SAN_FLAGS),$(CFLAGS)) -o $@ $< \
	    -L$(CUDA_HOME)/lib64/stubs -lcuda
GPU_TESTS += $(GT)/bench/many_kernels
# check_estimates.py --ncu on made-up files (no GPU needed)
TEST_SCRIPTS += tests/gpu/test_check_estimates.sh tests/gpu/test_sass_own_compare.sh
