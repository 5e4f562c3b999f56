# fuzz/module.mk - fuzz targets for what reads input gpuprof did not write
# itself: the report's JSON-lines reader, the peaks reader, characterize's
# suite parser and result loader, the library's configuration parser, the
# parser of nvdisasm's listings, Nsight Compute's raw CSV (gpuprof-report --against).
#
# `make test` builds each target with a small main (fuzz/replay.c) under
# AddressSanitizer and UndefinedBehaviorSanitizer with $(CC), and runs it on
# fuzz/corpus/NAME (the seeds) and fuzz/crashes/NAME (every input that ever
# crashed or hung, kept as a regression test).  `make fuzz` builds the same
# targets with libFuzzer (clang -fsanitize=fuzzer) and fuzzes each for
# FUZZ_TIME seconds (fuzz/run.sh); clang is a Debian package (apt-get install
# clang): gcc has no libFuzzer.
FUZZ_TARGETS := jsonl peaks suite result config listing ncu
FUZZ_CC      ?= clang
FUZZ_TIME    ?= 60
GP_FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# apart from $(BUILD), which is carried to the GPU machine: fuzzing leaves
# hundreds of megabytes of inputs behind
FUZZ_OUT     := $(BUILD)-fuzz

FUZZ_REPORT_SRCS := $(GP_METRICS_SRCS:%=metrics/%.c) \
                    $(patsubst %,util/%.c,textio num safefile regex_safe strindex gp_uthash strhash kname strutil)
FUZZ_SRCS_jsonl  := fuzz/fuzz_jsonl.c $(FUZZ_REPORT_SRCS)
FUZZ_SRCS_peaks  := fuzz/fuzz_peaks.c $(FUZZ_REPORT_SRCS)
# characterize's modules but the database (study_db.c, which needs the
# SQLite writer of tools/report: no reader of input of its own)
FUZZ_GPC_SRCS    := $(filter-out study_db,$(GPC_SRCS))
FUZZ_SRCS_suite  := fuzz/fuzz_suite.c $(FUZZ_GPC_SRCS:%=tools/characterize/%.c) $(FUZZ_REPORT_SRCS)
FUZZ_SRCS_result := fuzz/fuzz_result.c $(FUZZ_GPC_SRCS:%=tools/characterize/%.c) $(FUZZ_REPORT_SRCS)
FUZZ_SRCS_listing := fuzz/fuzz_listing.c metrics/instructions/sass_listing.c util/strutil.c
FUZZ_SRCS_ncu    := fuzz/fuzz_ncu.c $(FUZZ_REPORT_SRCS)
FUZZ_SRCS_config := fuzz/fuzz_config.c preload/config.c metrics/ncu/sections.c metrics/catalog/expr.c preload/filter.c preload/nvtx_expr.c \
                    $(patsubst %,util/%.c,strutil log regex_safe kname textio)
FUZZ_CPPFLAGS := $(CPPFLAGS) -Itools/characterize -Ifuzz

# replay objects: $(CC) with the sanitizers
FUZZ_ROBJ := $(FUZZ_OUT)/robj
$(FUZZ_ROBJ)/%.o: %.c | $(GP_METRICS_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(FUZZ_CPPFLAGS) $(filter-out $(GP_SAN_FLAGS),$(CFLAGS)) $(GP_FUZZ_SAN) -c $< -o $@
$(FUZZ_ROBJ)/replay-%.o: fuzz/replay.c
	@mkdir -p $(dir $@)
	$(CC) $(FUZZ_CPPFLAGS) $(filter-out $(GP_SAN_FLAGS),$(CFLAGS)) $(GP_FUZZ_SAN) \
	    -DGP_FUZZ_NAME='"$*"' -c $< -o $@

# libFuzzer objects: clang
FUZZ_COBJ := $(FUZZ_OUT)/cobj
$(FUZZ_COBJ)/%.o: %.c | $(GP_METRICS_HDR)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) -O1 -g -std=gnu11 -fPIC \
	    -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -c $< -o $@

define GP_FUZZ_TARGET
$(FUZZ_OUT)/replay-$(1): $(FUZZ_ROBJ)/replay-$(1).o $(FUZZ_ROBJ)/fuzz/fuzz_common.o \
                           $(patsubst %.c,$(FUZZ_ROBJ)/%.o,$(FUZZ_SRCS_$(1)))
	$$(CC) $(GP_FUZZ_SAN) $$^ -o $$@ -lm
$(FUZZ_OUT)/fuzz-$(1): $(FUZZ_COBJ)/fuzz/fuzz_common.o $(patsubst %.c,$(FUZZ_COBJ)/%.o,$(FUZZ_SRCS_$(1)))
	$$(FUZZ_CC) -fsanitize=fuzzer,address,undefined $$^ -o $$@ -lm
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call GP_FUZZ_TARGET,$(t))))

UNIT_TESTS += $(FUZZ_TARGETS:%=$(FUZZ_OUT)/replay-%)

.PHONY: fuzz fuzz-build
fuzz-build:
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { echo "make fuzz needs clang (libFuzzer): apt-get install -y clang" >&2; exit 1; }
	@$(MAKE) --no-print-directory $(FUZZ_TARGETS:%=$(FUZZ_OUT)/fuzz-%)
fuzz: fuzz-build
	@FUZZ_OUT=$(FUZZ_OUT) FUZZ_TIME=$(FUZZ_TIME) sh fuzz/run.sh $(FUZZ_TARGETS)
CLEAN_FILES += $(FUZZ_OUT)
