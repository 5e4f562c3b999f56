# tools/report/module.mk - the gpuprof-report command, and the SQLite writer
# it shares with gpuprof-characterize (libgpdb.a: sqlite_db.c, the one file
# that talks to SQLite, loaded at run time; report_db*.c, the schema and the
# rows).
GP_DB_SRCS := sqlite_db report_db report_db_queue report_db_schema report_db_records report_db_model
GP_DB_OBJS := $(GP_DB_SRCS:%=$(BUILD)/tools/report/%.o)
GP_DB_LIB  := $(BUILD)/tools/report/libgpdb.a
GP_DB_LIBS := -ldl -lpthread
$(GP_DB_LIB): $(GP_DB_OBJS)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^
GP_REPORT_TOOL_OBJS := $(patsubst %,$(BUILD)/tools/report/%.o,main disasm srctext against_cmd pages)
$(BUILD)/gpuprof-report: $(GP_REPORT_TOOL_OBJS) $(GP_DB_LIB) $(GP_METRICS_LIB)
	$(CC) $(CFLAGS) $^ -o $@ -lm $(GP_DB_LIBS)
$(GP_REPORT_TOOL_OBJS) $(GP_DB_OBJS): $(GP_METRICS_HDR)
ALL_TARGETS += $(BUILD)/gpuprof-report
# the Python loader (python/gpuprof) runs gpuprof-report for the derived metrics
TEST_SCRIPTS += tests/python/test_python.sh tests/python/test_python_where.sh
# the database: the command (bad paths, kills, SQLite absent), the loader and the
# documented queries (test_sqlite.sh runs characterize for a study.db)
TEST_SCRIPTS += tests/report/test_report_db.sh tests/python/test_sqlite.sh
