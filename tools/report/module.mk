# tools/report/module.mk - the gpuprof-report command.
GP_REPORT_TOOL_OBJS := $(patsubst %,$(BUILD)/tools/report/%.o,main disasm srctext against_cmd pages)
$(BUILD)/gpuprof-report: $(GP_REPORT_TOOL_OBJS) $(GP_METRICS_LIB)
	$(CC) $(CFLAGS) $^ -o $@ -lm
$(BUILD)/tools/report/%.o: CPPFLAGS +=
$(GP_REPORT_TOOL_OBJS): $(GP_METRICS_HDR)
ALL_TARGETS += $(BUILD)/gpuprof-report
# the Python loader (python/gpuprof) runs gpuprof-report for the derived metrics
TEST_SCRIPTS += tests/python/test_python.sh tests/python/test_python_where.sh
