# tools/launcher/module.mk - build/gpuprof, the launcher: Nsight Compute's
# options to GPUPROF_* variables, then the program with libgpuprof.so
# preloaded.  It checks the configuration with the library's own parser
# (preload/config.c) and asks CUPTI's host API for --query-metrics.
GPL_SRCS := tools/launcher/main.c tools/launcher/query.c preload/config.c preload/filter.c \
            preload/ranges.c util/strutil.c util/log.c util/kname.c util/regex_safe.c
GPL_OBJS := $(GPL_SRCS:%.c=$(BUILD)/launcher/%.o)

$(BUILD)/launcher/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CUPTI_CPPFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/gpuprof: $(GPL_OBJS) | $(BUILD)/libgpuprof.so
	$(CC) $(CFLAGS) $(GPL_OBJS) -o $@ $(CUPTI_LDLIBS) -ldl -lpthread -lstdc++

ALL_TARGETS += $(BUILD)/gpuprof
TEST_SCRIPTS += tests/launcher/test_launcher.sh
# the script runs the launcher (`make test` builds only UNIT_TESTS): order-only
$(UT)/test_config: | $(BUILD)/gpuprof
