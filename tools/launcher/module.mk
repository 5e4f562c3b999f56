# tools/launcher/module.mk - build/gpuprof, the launcher: Nsight Compute's
# options to GPUPROF_* variables, then the program with libgpuprof.so
# preloaded.  It checks the configuration with the library's own parser
# (preload/config.c) and asks CUPTI's host API for --query-metrics.
GPL_SRCS := tools/launcher/main.c tools/launcher/query.c tools/launcher/sets.c preload/config.c \
            metrics/ncu/sections.c metrics/catalog/expr.c preload/filter.c \
            preload/nvtx_expr.c util/strutil.c util/log.c util/kname.c util/regex_safe.c \
            util/textio.c
GPL_OBJS := $(GPL_SRCS:%.c=$(BUILD)/launcher/%.o)
# Without the sanitizers (make test SANITIZE=1): the launcher links CUPTI,
# which is not built with them, and hands LD_PRELOAD to the program it runs;
# the parser it shares with the library is sanitized in the unit tests.
GPL_CFLAGS := $(filter-out $(GP_SAN_FLAGS),$(CFLAGS))

$(BUILD)/launcher/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CUPTI_CPPFLAGS) $(GPL_CFLAGS) -c $< -o $@

$(BUILD)/gpuprof: $(GPL_OBJS) | $(BUILD)/libgpuprof.so
	$(CC) $(GPL_CFLAGS) $(GPL_OBJS) -o $@ $(CUPTI_LDLIBS) -ldl -lpthread -lstdc++ -lm

ALL_TARGETS += $(BUILD)/gpuprof
TEST_SCRIPTS += tests/launcher/test_launcher.sh
# the script runs the launcher (`make test` builds only UNIT_TESTS): order-only
$(UT)/test_config: | $(BUILD)/gpuprof
# the shell tests of the launcher, the Python loader and characterize run it
test: $(BUILD)/gpuprof $(BUILD)/gpuprof-report
