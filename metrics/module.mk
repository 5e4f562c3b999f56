# metrics/module.mk - derived metrics, occupancy, roofline, verdicts and the
# report (library part: build/libgpmetrics.a, linked into gpuprof-report and,
# for gp_report_summarize_jsonl, into libgpuprof.so).

# The model: definitions, evaluator, aggregation, verdicts, roofline, the
# loaded report and the baseline match.
GP_METRICS_SRCS := records/json records/textfile records/device records/record records/guard \
                   catalog/expr catalog/facts catalog/derived catalog/occupancy catalog/peaks \
                   catalog/roofs catalog/roofline catalog/format \
                   instructions/source instructions/source_read instructions/source_json instructions/source_instr \
                   instructions/source_group instructions/source_text instructions/where \
                   instructions/sass_listing \
                   verdicts/verdict_list verdicts/verdict_stall verdicts/verdict_where verdicts/verdict \
                   model/estimate model/estimate_load model/aggregate model/devices model/load \
                   model/baseline \
                   ncu/ncu_names ncu/ncu_raw ncu/against ncu/sections ncu/sections_eval
# The report writers (metrics/report/): they read the model; no file of the
# model includes one of theirs.
GP_REPORT_SRCS  := cells report_text report_csv report_html report_json report_ncu report_baseline \
                   where_text where_json where_csv where_ncu where_html \
                   report_api svg_roofline against_out \
                   report_missing text_head report_brief svg_memory svg_sol \
                   details_common details_text details_csv details_summary
GP_METRICS_SRCS += $(GP_REPORT_SRCS:%=report/%)
# the util/ modules the tools share ride along in the same archive
GP_UTIL_OBJS    := $(patsubst %,$(BUILD)/util/%.o,textio num safefile regex_safe strindex gp_uthash strhash kname strutil)
GP_METRICS_OBJS := $(GP_METRICS_SRCS:%=$(BUILD)/metrics/%.o) $(GP_UTIL_OBJS)
GP_METRICS_LIB  := $(BUILD)/libgpmetrics.a
GP_METRICS_GEN  := $(BUILD)/gen/gp-metrics-gen
GP_METRICS_HDR  := $(BUILD)/gen/gp_derived_checked.h

# The checker/generator: a host tool built from the same parser and fact table
# the report uses, run on derived.def before anything includes it.
GP_METRICS_GEN_SRCS := metrics/catalog/gen.c metrics/catalog/expr.c metrics/catalog/facts.c metrics/records/record.c metrics/records/guard.c util/num.c \
                       metrics/records/json.c metrics/records/device.c metrics/catalog/occupancy.c metrics/catalog/peaks.c \
                       metrics/records/textfile.c util/textio.c util/strhash.c
$(GP_METRICS_GEN): $(GP_METRICS_GEN_SRCS) metrics/catalog/derived.def metrics/catalog/facts.def metrics/catalog/counters.def \
                   metrics/records/guards.def metrics/catalog/gpupeak.def \
                   $(wildcard metrics/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(filter-out -MMD -MP,$(CFLAGS)) $(GP_METRICS_GEN_SRCS) -o $@ -lm

$(GP_METRICS_HDR): $(GP_METRICS_GEN)
	$(GP_METRICS_GEN) --header $@

# The user guide's metric list, generated from the same definitions.
docs/metrics-list.md: $(GP_METRICS_GEN)
	$(GP_METRICS_GEN) --doc $@

$(GP_METRICS_OBJS): $(GP_METRICS_HDR)

$(GP_METRICS_LIB): $(GP_METRICS_OBJS)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

ALL_TARGETS += $(GP_METRICS_LIB) docs/metrics-list.md

# Unit tests (no GPU).
GP_METRICS_TESTS := test_json test_expr test_derived test_occupancy test_report test_report_io test_roofs \
                    test_ncu_names test_sections \
                    test_textfile test_where test_against test_estimate
$(BUILD)/tests/report/%.o: CPPFLAGS += -Itests/unit
$(BUILD)/tests/report/%.o: $(GP_METRICS_HDR)
$(BUILD)/tests/report/test_%: $(BUILD)/tests/report/test_%.o $(GP_METRICS_LIB)
	$(CC) $(CFLAGS) $^ -o $@ -lm
UNIT_TESTS += $(GP_METRICS_TESTS:%=$(BUILD)/tests/report/%)
# the shell tests need the command and the generated list (`make test` builds
# only UNIT_TESTS): order-only, so they are not linked in
$(BUILD)/tests/report/test_report: | $(BUILD)/gpuprof-report docs/metrics-list.md
TEST_SCRIPTS += tests/report/test_metrics_doc.sh tests/report/test_report_cli.sh \
                tests/report/test_details_oracle.sh \
                tests/report/test_html_chromium.sh tests/report/test_report_hostile.sh \
                tests/report/test_report_scale.sh tests/report/test_where_cli.sh \
                tests/report/test_where_html.sh tests/report/test_no_access.sh \
                tests/report/test_roofline_selfcheck.sh tests/report/test_against_cli.sh \
                tests/report/test_brief.sh tests/report/test_details_cli.sh

# The record format, one table (record_fields.def): the generator checks it and
# rewrites the field tables of docs/output-format.md; test_record_fields writes
# records with preload/output.c and reads them back; the script checks the
# page and the fixture generator against the table.
$(GP_METRICS_GEN): metrics/records/record_fields.def
docs/output-format.md: $(GP_METRICS_GEN)
	$(GP_METRICS_GEN) --record-doc $@
ALL_TARGETS += docs/output-format.md
$(BUILD)/tests/report/test_record_fields: $(BUILD)/tests/report/test_record_fields.o \
                                          $(BUILD)/preload/output.o $(GP_METRICS_LIB)
	$(CC) $(CFLAGS) $^ -o $@ -lm
UNIT_TESTS += $(BUILD)/tests/report/test_record_fields
$(BUILD)/tests/report/test_record_fields: | docs/output-format.md
TEST_SCRIPTS += tests/report/test_record_doc.sh

# tests/gpu/*/module.mk are three levels deep, below the top Makefile's
# */*/module.mk: include ours from here (once).
ifndef GP_PLANTED_MK
include $(wildcard tests/gpu/planted/module.mk tests/gpu/occupancy/module.mk)
endif
