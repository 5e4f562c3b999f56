# tools/gpupeak: the peak/latency/geometry microbenchmark (issue 4).
# Host code is plain C; kernels are CUDA C++ (gpk_device.cu for sm_90,
# gpk_wgmma.cu for sm_90a, the only target with wgmma).

GPK_DIR   := tools/gpupeak
GPK_OUT   := $(BUILD)/gpupeak
GPK_COBJS := $(BUILD)/$(GPK_DIR)/gpupeak.o $(BUILD)/$(GPK_DIR)/gpk_json.o \
             $(BUILD)/$(GPK_DIR)/gpk_steps.o $(BUILD)/$(GPK_DIR)/gpk_svg.o $(BUILD)/util/textio.o
GPK_CUOBJS := $(GPK_OUT)/gpk_device.o $(GPK_OUT)/gpk_wgmma.o
GPK_NVCCFLAGS := -lineinfo -Xptxas -warn-spills

$(GPK_OUT)/gpupeak: $(GPK_COBJS) $(GPK_CUOBJS)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) -o $@ $^ -lm

$(GPK_OUT)/gpk_device.o: $(GPK_DIR)/gpk_device.cu $(GPK_DIR)/gpk_device.h
	@mkdir -p $(dir $@)
	$(NVCC) $(NVCCFLAGS) $(GPK_NVCCFLAGS) -c $< -o $@

$(GPK_OUT)/gpk_wgmma.o: $(GPK_DIR)/gpk_wgmma.cu $(GPK_DIR)/gpk_device.h
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
$(GPK_OUT)/test_gpupeak_svg: $(BUILD)/tests/gpupeak/test_svg.o $(BUILD)/$(GPK_DIR)/gpk_svg.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ -lm
# The SASS check reads the built binary, so it depends on it.
$(GPK_OUT)/test_gpupeak_sass: $(BUILD)/tests/gpupeak/test_sass.o $(GPK_OUT)/gpupeak
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(BUILD)/tests/gpupeak/test_sass.o -lm

ALL_TARGETS += $(GPK_OUT)/gpupeak
UNIT_TESTS  += $(GPK_TESTS)

# gpupeak linked with the device test double instead of the CUDA objects:
# the host side end to end without a GPU (tests/gpupeak/test_fake_run.sh).
$(GPK_OUT)/gpupeak_fake: $(GPK_COBJS) $(BUILD)/tests/gpupeak/fake_device.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $^ -lm
# the shell tests run programs that `make test` would not build otherwise
$(GPK_TESTS): | $(GPK_OUT)/gpupeak_fake
TEST_SCRIPTS += tests/gpupeak/test_fake_run.sh
