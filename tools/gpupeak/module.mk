# tools/gpupeak: the peak/latency/geometry microbenchmark (docs/gpupeak.md).
# Host code is plain C, split by job: the command (gpupeak.c), the tables
# (gpk_bench.c, from metrics/catalog/gpupeak.def), measure (gpk_measure.c), fit
# (gpk_fit.c, gpk_steps.c), write (gpk_write_*.c, gpk_json.c, gpk_svg.c).
# Kernels are CUDA C++, one file per family (gpk_dev_*.cu, compiled as one
# module by gpk_dev_module.cu) for sm_90, and gpk_wgmma.cu for sm_90a, the
# only target with wgmma.

GPK_DIR   := tools/gpupeak
GPK_OUT   := $(BUILD)/gpupeak
GPK_COBJS := $(patsubst %,$(BUILD)/$(GPK_DIR)/%.o,gpupeak gpk_bench gpk_results gpk_measure \
             gpk_fit gpk_steps gpk_write_json gpk_write_text gpk_json gpk_svg) \
             $(BUILD)/util/textio.o
GPK_CUOBJS := $(GPK_OUT)/gpk_dev_module.o $(GPK_OUT)/gpk_wgmma.o
GPK_NVCCFLAGS := -lineinfo -Xptxas -warn-spills -I.
GPK_CUDEPS := $(GPK_DIR)/gpk_dev.cuh $(GPK_DIR)/gpk_device.h metrics/catalog/gpupeak.def

$(GPK_OUT)/gpupeak: $(GPK_COBJS) $(GPK_CUOBJS)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -o $@ $^ -lm

$(GPK_OUT)/gpk_dev_module.o: $(GPK_DIR)/gpk_dev_module.cu $(wildcard $(GPK_DIR)/gpk_dev*.cu) \
                             $(GPK_CUDEPS)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(GPK_NVCCFLAGS) -c $< -o $@

$(GPK_OUT)/gpk_wgmma.o: $(GPK_DIR)/gpk_wgmma.cu $(GPK_CUDEPS)
	@mkdir -p $(dir $@)
	$(NVCC) -O2 -gencode=arch=compute_90a,code=sm_90a $(GPK_NVCCFLAGS) -c $< -o $@

# Unit tests (no GPU).
GPK_TESTS := $(GPK_OUT)/test_gpupeak_steps $(GPK_OUT)/test_gpupeak_json \
             $(GPK_OUT)/test_gpupeak_svg $(GPK_OUT)/test_gpupeak_sass

$(BUILD)/tests/gpupeak/%.o: CPPFLAGS += -I$(GPK_DIR) -Itests/unit \
    -DGPK_DATA_DIR='"tests/data/gpupeak"' -DGPK_BINARY='"$(GPK_OUT)/gpupeak"' \
    -DGPK_CUOBJDUMP='"$(CUDA_HOME)/bin/cuobjdump"'

$(GPK_OUT)/test_gpupeak_steps: $(BUILD)/tests/gpupeak/test_steps.o $(BUILD)/$(GPK_DIR)/gpk_steps.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ -lm
$(GPK_OUT)/test_gpupeak_json: $(BUILD)/tests/gpupeak/test_json.o $(BUILD)/$(GPK_DIR)/gpk_json.o $(BUILD)/util/textio.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ -lm
$(GPK_OUT)/test_gpupeak_svg: $(BUILD)/tests/gpupeak/test_svg.o $(BUILD)/$(GPK_DIR)/gpk_svg.o \
                            $(BUILD)/util/textio.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ -lm
# The SASS check reads the built binary, so it depends on it.
$(GPK_OUT)/test_gpupeak_sass: $(BUILD)/tests/gpupeak/test_sass.o $(GPK_OUT)/gpupeak
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(BUILD)/tests/gpupeak/test_sass.o -lm

# gpupeak linked with the device test double instead of the CUDA objects:
# the host side end to end without a GPU (tests/gpupeak/test_fake_run.sh).
$(GPK_OUT)/gpupeak_fake: $(GPK_COBJS) $(BUILD)/tests/gpupeak/fake_device.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ -lm
# the shell tests run programs that `make test` would not build otherwise
$(GPK_TESTS): | $(GPK_OUT)/gpupeak_fake $(GPK_OUT)/gpupeak

ALL_TARGETS  += $(GPK_OUT)/gpupeak
UNIT_TESTS   += $(GPK_TESTS)
TEST_SCRIPTS += tests/gpupeak/test_fake_run.sh tests/gpupeak/test_cli.sh
