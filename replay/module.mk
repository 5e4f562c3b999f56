# The snapshot's chunk hash kernel: CUDA C compiled to PTX and embedded in the
# library as a string (replay/chunk_hash_dev.c loads it with cuModuleLoadData).
# The PTX is declared ISA 8.0 (CUDA 12.0) instead of nvcc's own version, so
# that drivers older than the compiler load it: the kernel uses nothing newer
# (ptxas checks that here).  A driver that still refuses it leaves the
# snapshot to full copies.
GP_CHUNK_PTX_HDR := $(BUILD)/gen/gp_chunk_hash_ptx.h

$(GP_CHUNK_PTX_HDR): replay/chunk_hash.cu replay/chunk_hash_mix.h
	@mkdir -p $(dir $@)
	$(NVCC) -ptx -arch=compute_90 -O3 -I. -o $(BUILD)/gen/chunk_hash.nvcc.ptx $<
	sed 's/^\.version .*/.version 8.0/' $(BUILD)/gen/chunk_hash.nvcc.ptx > $(BUILD)/gen/chunk_hash.ptx
	$(CUDA_HOME)/bin/ptxas -arch=sm_90 -o /dev/null $(BUILD)/gen/chunk_hash.ptx
	{ echo '/* generated from replay/chunk_hash.cu by replay/module.mk */'; \
	  echo 'static const char gp_chunk_hash_ptx[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/    "/' -e 's/$$/\\n"/' $(BUILD)/gen/chunk_hash.ptx; \
	  echo '    ;'; } > $@.tmp && mv $@.tmp $@

$(BUILD)/lib/replay/chunk_hash_dev.o $(BUILD)/replay/chunk_hash_dev.o: $(GP_CHUNK_PTX_HDR)

# Unit test of the hash's CPU reference and of the snapshot's plan (no GPU)
$(UT)/test_chunk_hash: tests/unit/test_chunk_hash.c replay/chunk_hash.c replay/snap_plan.c
UNIT_TESTS += $(UT)/test_chunk_hash

# The GPC cache eviction kernel's PTX: its shape, and ptxas's code size where
# ptxas exists (skipped otherwise)
$(UT)/test_cache_evict: tests/unit/test_cache_evict.c replay/cache_evict.c preload/cubin.c
$(UT)/test_cache_evict: CPPFLAGS += -DGP_CUDA_HOME='"$(CUDA_HOME)"'
UNIT_TESTS += $(UT)/test_cache_evict

# The set-up cache's entries: written, read back, and every kind of entry
# that must not be trusted refused (no CUPTI)
$(UT)/test_setup_cache: tests/unit/test_setup_cache.c replay/setup_cache.c util/log.c
TEST_LDLIBS_test_setup_cache := -lpthread
UNIT_TESTS += $(UT)/test_setup_cache
# The splits kept between runs, with CUPTI's host side for GH100 (no GPU)
$(UT)/test_host_split: tests/unit/test_host_split.c replay/host_split.c replay/setup_cache.c \
                       replay/cupti_host.c replay/host_group.c replay/nvpw_sched.c util/log.c \
                       util/strutil.c
TEST_LDLIBS_test_host_split := $(CUPTI_LDLIBS) -ldl -lpthread
# CUPTI loads its host library with RTLD_DEEPBIND, which the sanitizers refuse
$(UT)/test_host_split: CFLAGS := $(LIB_CFLAGS)
UNIT_TESTS += $(UT)/test_host_split
