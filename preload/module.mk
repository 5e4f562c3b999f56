# libgpuprof.so and the unit tests of the profiler core (no GPU needed).

CUPTI_CPPFLAGS := -Iinclude/private -I$(CUDA_HOME)/include
CUDA_LIBDIR    := $(CUDA_HOME)/lib64
CUPTI_LDLIBS   := -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -lcupti

# Two libraries.  libgpuprof.so, the one users preload, is preload/entry.c
# alone and needs nothing but the C library: a program that never starts
# CUDA maps nothing else because of gpuprof.  The driver's call at cuInit
# loads libgpuprof-core.so from the same directory: everything else, with
# CUPTI and the C++ runtime.
LIB_SRCS := $(filter-out preload/entry.c,$(wildcard preload/*.c)) $(wildcard replay/*.c) \
            util/log.c util/strutil.c util/gp_uthash.c util/strhash.c util/safefile.c util/regex_safe.c \
            util/strindex.c util/kname.c
# The report code (metrics/) prints the exit summary: compiled again here,
# with hidden symbols and without the sanitizers (see SANITIZE in Makefile).
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/lib/%.o) \
            $(patsubst %,$(BUILD)/lib/metrics/%.o,$(GP_METRICS_SRCS)) \
            $(BUILD)/lib/util/textio.o $(BUILD)/lib/util/num.o
LIB_CFLAGS := $(filter-out $(GP_SAN_FLAGS),$(CFLAGS))

# order-only on check-deps: under make -j, uthash.h may have to be fetched first
$(BUILD)/lib/%.o: %.c | $(GP_METRICS_HDR) check-deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CUPTI_CPPFLAGS) $(LIB_CFLAGS) -fvisibility=hidden -c $< -o $@

$(BUILD)/libgpuprof-core.so: $(LIB_OBJS)
	$(CC) -shared -o $@ $(LIB_OBJS) $(CUPTI_LDLIBS) -ldl -lpthread -lstdc++ -lm \
	    -Wl,--no-undefined -Wl,-z,defs

# --as-needed: the C library only (dlopen and friends live there since glibc 2.34)
$(BUILD)/libgpuprof.so: $(BUILD)/lib/preload/entry.o | $(BUILD)/libgpuprof-core.so
	$(CC) -shared -o $@ $< -Wl,--as-needed -ldl -Wl,--no-undefined -Wl,-z,defs

ALL_TARGETS += $(BUILD)/libgpuprof.so $(BUILD)/libgpuprof-core.so

# Unit tests: each links only the modules it exercises.
UT := $(BUILD)/tests
$(UT)/%: tests/unit/%.c | check-deps
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CUPTI_CPPFLAGS) $(CFLAGS) -o $@ $(filter %.c,$^) $(TEST_LDLIBS_$*) -lm

# replay mode none's policy, with the collection side stood in for
$(UT)/test_variants: tests/unit/test_variants.c preload/variants.c preload/serialize.c util/log.c util/strutil.c \
                     $(GP_METRICS_LIB)
TEST_LDLIBS_test_variants := $(GP_METRICS_LIB) -lpthread
# when stall sampling runs, with CUPTI's PC sampling stood in for
$(UT)/test_sampling: tests/unit/test_sampling.c preload/sampling.c preload/globals.c util/log.c util/strutil.c \
                     util/textio.c util/gp_uthash.c util/strhash.c
TEST_LDLIBS_test_sampling := -lpthread
# the launch path's moments and the list of subsystems, with stand-ins for
# the subsystems and the collection side
$(UT)/test_launch_hooks: tests/unit/test_launch_hooks.c preload/launch.c preload/profile.c \
                         preload/graphs.c preload/launch_hooks.c preload/globals.c util/log.c \
                         util/gp_uthash.c util/strhash.c
TEST_LDLIBS_test_launch_hooks := -lpthread
$(UT)/test_alloc_track: tests/unit/test_alloc_track.c replay/alloc_track.c util/gp_uthash.c util/strhash.c
TEST_LDLIBS_test_alloc_track := -lpthread
$(UT)/test_config: tests/unit/test_config.c preload/config.c metrics/ncu/sections.c metrics/catalog/expr.c preload/filter.c preload/nvtx_expr.c \
                   util/strutil.c util/log.c util/kname.c util/regex_safe.c util/textio.c
TEST_LDLIBS_test_config := -lpthread
$(UT)/test_ranges: tests/unit/test_ranges.c preload/ranges.c preload/nvtx_expr.c preload/config.c \
                   metrics/ncu/sections.c metrics/catalog/expr.c \
                   preload/filter.c \
                   util/strutil.c util/log.c util/kname.c util/regex_safe.c util/textio.c
TEST_LDLIBS_test_ranges := -lpthread
$(UT)/test_output: tests/unit/test_output.c preload/output.c preload/summary.c preload/names.c preload/filter.c preload/config.c preload/nvtx_expr.c util/log.c util/strutil.c util/gp_uthash.c util/strhash.c util/textio.c util/kname.c util/regex_safe.c metrics/ncu/sections.c metrics/catalog/expr.c
TEST_LDLIBS_test_output := -lstdc++ -lpthread
$(UT)/test_cupti_host: tests/unit/test_cupti_host.c replay/cupti_host.c replay/host_group.c replay/nvpw_sched.c util/log.c \
                      util/strutil.c replay/sass_derive.c metrics/catalog/counters.def
TEST_LDLIBS_test_cupti_host := $(CUPTI_LDLIBS) -ldl
# CUPTI loads its host library with RTLD_DEEPBIND, which the sanitizers refuse
$(UT)/test_cupti_host: CFLAGS := $(LIB_CFLAGS)
# the metrics of Nsight Compute's sets and sections on CUPTI's host API
$(UT)/test_sections_host: tests/unit/test_sections_host.c replay/cupti_host.c replay/host_group.c \
                          replay/nvpw_sched.c replay/sass_derive.c util/log.c util/strutil.c \
                          util/regex_safe.c metrics/ncu/sections.c metrics/catalog/expr.c \
                          metrics/ncu/sections.def
TEST_LDLIBS_test_sections_host := $(CUPTI_LDLIBS) -ldl -lpthread
$(UT)/test_sections_host: CFLAGS := $(LIB_CFLAGS)
$(UT)/test_cubin: tests/unit/test_cubin.c preload/cubin.c $(UT)/globals.cubin
$(UT)/globals.cubin: tests/unit/globals.cu
	@mkdir -p $(dir $@)
	$(NVCC) -cubin -arch=sm_90 -o $@ $<
# source lines: cubins with and without line information, a fat binary of two
# SM versions; CUPTI's correlation needs no GPU
$(UT)/lines.cubin: tests/unit/lines.cu
	@mkdir -p $(dir $@)
	$(NVCC) -cubin -arch=sm_90 -lineinfo -o $@ $<
$(UT)/plain.cubin: tests/unit/plain.cu
	@mkdir -p $(dir $@)
	$(NVCC) -cubin -arch=sm_90 -o $@ $<
$(UT)/lines.fatbin: tests/unit/lines.cu
	@mkdir -p $(dir $@)
	$(NVCC) -fatbin -lineinfo -gencode arch=compute_80,code=sm_80 \
	    -gencode arch=compute_90,code=sm_90 -o $@ $<
$(UT)/test_lineinfo: tests/unit/test_lineinfo.c preload/lineinfo.c preload/cubin.c \
                     replay/pc_sampling.c util/gp_uthash.c util/strhash.c \
                     | $(UT)/lines.cubin $(UT)/plain.cubin $(UT)/lines.fatbin
TEST_LDLIBS_test_lineinfo := $(CUPTI_LDLIBS)
$(UT)/test_lineinfo: CFLAGS := $(LIB_CFLAGS)
$(UT)/test_lineinfo: CPPFLAGS += -DGP_BUILD_DIR='"$(BUILD)"'
$(UT)/test_source_table: tests/unit/test_source_table.c preload/source_table.c \
                         replay/sass_derive.c util/gp_uthash.c util/strhash.c util/strutil.c
$(UT)/test_library: tests/unit/test_library.c $(BUILD)/libgpuprof.so $(BUILD)/libgpuprof-core.so
TEST_LDLIBS_test_library := -ldl
$(UT)/test_library: CPPFLAGS += -DGP_BUILD_DIR='"$(BUILD)"'

UNIT_TESTS += $(UT)/test_alloc_track $(UT)/test_config $(UT)/test_ranges $(UT)/test_output \
              $(UT)/test_cupti_host $(UT)/test_sections_host \
              $(UT)/test_cubin $(UT)/test_library $(UT)/test_lineinfo $(UT)/test_source_table \
              $(UT)/test_variants $(UT)/test_sampling $(UT)/test_launch_hooks
TEST_SCRIPTS += tests/unit/test_preload.sh tests/unit/test_layers.sh tests/unit/test_lineinfo.sh
$(UT)/test_sass_derive: tests/unit/test_sass_derive.c replay/sass_derive.c preload/cubin.c $(UT)/fp_ops.cubin
$(UT)/fp_ops.cubin: tests/unit/fp_ops.cu
	@mkdir -p $(dir $@)
	$(NVCC) -cubin -O3 -arch=sm_90 -o $@ $<
UNIT_TESTS += $(UT)/test_sass_derive
