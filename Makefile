# gpuprof top-level Makefile.
#
# Each part of the tree keeps its own rules in a fragment (module.mk) that this
# file includes; a fragment appends to these variables:
#   ALL_TARGETS   what `make` builds
#   UNIT_TESTS    test binaries `make test` runs (no GPU needed; each prints
#                 "<suite>: N passed, N failed, N skipped")
#   GPU_TESTS     GPU programs `make test` only builds; `make gpu-test` runs them
#   TEST_SCRIPTS  shell tests run by `make test` (same output convention)
#   CLEAN_FILES   extra files for `make clean`

CUDA_HOME ?= /usr/local/cuda
NVCC      ?= $(CUDA_HOME)/bin/nvcc
CC        ?= cc

# make test SANITIZE=1: everything that runs on the CPU side (tools, report
# library, unit tests, test programs) built with AddressSanitizer and
# UndefinedBehaviorSanitizer into build-san/, any report fatal.  The
# profiler's own libraries are left out (their objects drop the flags): they
# live in other people's processes, which do not carry the sanitizer runtime.
ifeq ($(SANITIZE),1)
BUILD       ?= build-san
GP_SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CFLAGS      ?= -O1 -g
CFLAGS      += $(GP_SAN_FLAGS)
export ASAN_OPTIONS ?= detect_leaks=1
export UBSAN_OPTIONS ?= print_stacktrace=1:halt_on_error=1
endif
BUILD     ?= build

CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers -fPIC -MMD -MP
# $(BUILD)/include: uthash.h when tests/check-deps.sh had to fetch it
CPPFLAGS += -I. -Iinclude -I$(BUILD)/gen -I$(BUILD)/include
NVCCFLAGS ?= -O2 -gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_90,code=compute_90

ALL_TARGETS  :=
UNIT_TESTS   :=
GPU_TESTS    :=
TEST_SCRIPTS :=
CLEAN_FILES  :=

.PHONY: all test gpu-test demo clean format check-deps
# keep intermediate objects (no 'rm' after the test total, faster rebuilds)
.SECONDARY:
all: check-deps real-all

# Every fragment in the tree.
include $(sort $(filter-out fuzz/module.mk,$(wildcard */module.mk */*/module.mk)))
# the fuzz targets are made of the others' sources: read last
include fuzz/module.mk

ifeq ($(SANITIZE),1)
# Not in the sanitizer run: gpupeak's tests (tools/gpupeak is kept apart;
# its CUDA binary cannot link sanitized objects with nvcc) and the GPU
# programs, which run only on a GPU machine, except the one the preload test
# runs (built without the flags, as what gpuprof is preloaded into)
UNIT_TESTS := $(filter-out $(GPK_TESTS),$(UNIT_TESTS))
TEST_SCRIPTS := $(filter-out tests/gpupeak/%,$(TEST_SCRIPTS))
GPU_TESTS  := $(filter %/no_cuda,$(GPU_TESTS))
endif

real-all: $(ALL_TARGETS) $(GPU_TESTS)
.PHONY: real-all

check-deps:
	@BUILD=$(BUILD) sh tests/check-deps.sh

# Every object waits for the generated metric header (order-only: a header
# change is caught by the .d files), so `make -j` works from a fresh clone.
$(BUILD)/%.o: %.c | $(GP_METRICS_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

test: check-deps $(UNIT_TESTS) $(GPU_TESTS)
	@BUILD=$(BUILD) sh tests/run-tests.sh $(UNIT_TESTS) $(TEST_SCRIPTS)

# GPU tests: run on a machine with a GPU (see docs/architecture.md).
gpu-test: all
	@sh tests/gpu/run-gpu-tests.sh

# The main job: build, then profile the given program (or the demo).
# make demo [APP="./prog args"]
demo: all
	@sh tests/demo.sh $(APP)

format:
	clang-format -i $$(git ls-files '*.c' '*.h' '*.cu')

clean:
	rm -rf $(BUILD) $(CLEAN_FILES)

-include $(shell find $(BUILD) $(BUILD)-fuzz -name '*.d' 2>/dev/null)
