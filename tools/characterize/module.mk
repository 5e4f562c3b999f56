# tools/characterize/module.mk - gpuprof-characterize: a suite's workload study
# (docs/characterize.md), built on the report library (libgpmetrics.a) and
# the SQLite writer of gpuprof-report (libgpdb.a, tools/report/module.mk,
# named by its path: that fragment is read after this one).
GPC_SRCS := suite result compare validity run libcheck progress classes summary summary_html study_db \
            slurm slurm_cmd slurm_watch
GPC_OBJS := $(GPC_SRCS:%=$(BUILD)/tools/characterize/%.o)
GPC_LIB  := $(BUILD)/tools/characterize/libgpc.a

$(BUILD)/tools/characterize/%.o: CPPFLAGS += -Itools/characterize -Itools/report
$(GPC_OBJS) $(BUILD)/tools/characterize/main.o: $(GP_METRICS_HDR)
$(GPC_LIB): $(GPC_OBJS)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
$(BUILD)/gpuprof-characterize: $(BUILD)/tools/characterize/main.o $(GPC_LIB) $(BUILD)/tools/report/libgpdb.a \
                                $(GP_METRICS_LIB)
	$(CC) $(CFLAGS) $^ -o $@ -lm $(GP_DB_LIBS)
ALL_TARGETS += $(BUILD)/gpuprof-characterize

# Tests (no GPU): the unit test links the same objects; the scripts drive the
# command on fixture suites and check the page in headless Chromium.
$(BUILD)/tests/characterize/%.o: CPPFLAGS += -Itools/characterize -Itools/report -Itests/unit
$(BUILD)/tests/characterize/%.o: $(GP_METRICS_HDR)
$(BUILD)/tests/characterize/test_characterize: $(BUILD)/tests/characterize/test_characterize.o \
                                               $(GPC_LIB) $(BUILD)/tools/report/libgpdb.a $(GP_METRICS_LIB)
	$(CC) $(CFLAGS) $^ -o $@ -lm $(GP_DB_LIBS)
UNIT_TESTS += $(BUILD)/tests/characterize/test_characterize
# the scripts need the command (`make test` builds only UNIT_TESTS): order-only
$(BUILD)/tests/characterize/test_characterize: | $(BUILD)/gpuprof-characterize
TEST_SCRIPTS += tests/characterize/test_characterize_cli.sh tests/characterize/test_characterize_hostile.sh \
                tests/characterize/test_characterize_slurm.sh \
                tests/characterize/test_characterize_html.sh
