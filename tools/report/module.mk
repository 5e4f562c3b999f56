# tools/report/module.mk - the gpuprof-report command.
$(BUILD)/gpuprof-report: $(BUILD)/tools/report/main.o $(GP_METRICS_LIB)
	$(CC) $(CFLAGS) $^ -o $@ -lm
$(BUILD)/tools/report/%.o: CPPFLAGS += -Imetrics
$(BUILD)/tools/report/main.o: $(GP_METRICS_HDR)
ALL_TARGETS += $(BUILD)/gpuprof-report
# the Python loader (python/gpuprof) runs gpuprof-report for the derived metrics
TEST_SCRIPTS += tests/python/test_python.sh
