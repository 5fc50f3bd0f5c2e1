# SPDX-License-Identifier: MIT
# Command-line tests of npu-smoke on the in-process model, the error paths
# of e1npu-classify (tests/tools/classify-test.sh), every tool's input files
# that are not readable non-empty regular files (tests/tools/input-files-test.sh),
# --help against each
# tool's man page (tests/tools/man-help-test.sh), and the unit
# test of its lowered smoke cases (tests/tools/test-smoke-check.c: the
# comparison helper, and every case failing on a corrupted reference),
# normal and ASan+UBSan.
SMOKE_UNIT_SRCS := tests/tools/test-smoke-check.c tools/npu-smoke/smoke-check.c \
	$(sort $(wildcard tools/npu-smoke/smoke-lowered*.c))
SMOKE_UNIT      := $(O)/tests/tools/test-smoke-check
SMOKE_UNIT_SAN  := $(SAN_O)/tests/tools/test-smoke-check

$(call objs,$(SMOKE_UNIT_SRCS)) $(call sanobjs,$(SMOKE_UNIT_SRCS)): CPPFLAGS += -Itools/npu-smoke

$(SMOKE_UNIT): $(call objs,$(SMOKE_UNIT_SRCS)) $(LIB_A)
	$(CC) $(CFLAGS) $^ -o $@ -lcmocka $(LIB_LIBS)

$(SMOKE_UNIT_SAN): $(call sanobjs,$(SMOKE_UNIT_SRCS)) $(LIB_SAN_A)
	$(CC) $(CFLAGS) $(SANFLAGS) $^ -o $@ -lcmocka $(LIB_LIBS)

# e1npu-classify's image files and resize (tests/tools/test-classify-image.c)
# against the fixtures of tests/tools/classify-image-ref.py; the classify
# variables come from tests/models/models.mk, included before this file.
CLS_IMG_UNIT_SRCS := tests/tools/test-classify-image.c $(CLASSIFY_IMG_SRCS) lib/readfile.c
CLS_IMG_UNIT      := $(O)/tests/tools/test-classify-image
CLS_IMG_UNIT_SAN  := $(SAN_O)/tests/tools/test-classify-image
CLS_IMG_FIXTURES  := $(O)/tests/tools/classify-fixtures

$(call objs,tests/tools/test-classify-image.c) \
$(call sanobjs,tests/tools/test-classify-image.c): CPPFLAGS += $(CLASSIFY_CPPFLAGS)

$(CLS_IMG_UNIT): $(call objs,$(CLS_IMG_UNIT_SRCS))
	$(CC) $(CFLAGS) $^ -o $@ -lcmocka $(CLASSIFY_LIBS) -lm

$(CLS_IMG_UNIT_SAN): $(call sanobjs,$(CLS_IMG_UNIT_SRCS))
	$(CC) $(CFLAGS) $(SANFLAGS) $^ -o $@ -lcmocka $(CLASSIFY_LIBS) -lm

$(CLS_IMG_FIXTURES)/index.txt: tests/tools/classify-image-ref.py
	rm -rf $(@D)
	python3 $< $(@D)

CLASSIFY_BIN := $(O)/tools/e1npu-classify/e1npu-classify

.PHONY: check-tools
check-tools: $(NPU_SMOKE) $(SMOKE_UNIT) $(SMOKE_UNIT_SAN) $(CLASSIFY_BIN) $(CLASSIFY_SAN) $(HLO_TOOL) $(TFLITE_TOOL) \
		$(HLO_TOOL_SAN) $(TFLITE_TOOL_SAN) \
		$(CLS_IMG_UNIT) $(CLS_IMG_UNIT_SAN) $(CLS_IMG_FIXTURES)/index.txt $(TEST_IMAGE)
	tests/tools/npu-smoke-test.sh $(NPU_SMOKE)
	tests/tools/man-help-test.sh $(NPU_SMOKE) $(CLASSIFY_BIN) $(HLO_TOOL) $(TFLITE_TOOL)
	tests/tools/classify-test.sh $(CLASSIFY_BIN) $(MODELS_DIR)
	tests/tools/input-files-test.sh $(HLO_TOOL) $(TFLITE_TOOL) $(CLASSIFY_BIN)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/tools/input-files-test.sh $(HLO_TOOL_SAN) $(TFLITE_TOOL_SAN) $(CLASSIFY_SAN)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/tools/classify-test.sh $(CLASSIFY_SAN) $(MODELS_DIR)
	CLASSIFY_FIXTURES=$(CLS_IMG_FIXTURES) $(CLS_IMG_UNIT)
	CLASSIFY_FIXTURES=$(CLS_IMG_FIXTURES) ASAN_OPTIONS=detect_leaks=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $(CLS_IMG_UNIT_SAN)
	$(SMOKE_UNIT)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $(SMOKE_UNIT_SAN)
ALL_TARGETS   += $(CLS_IMG_UNIT)
CHECK_TARGETS += check-tools

# e1npu-tflite (tools/e1npu-tflite/): its command line on the small
# MobileNet (tests/tools/tflite-tool-test.sh, normal and ASan+UBSan, against
# e1npu-classify), run/report/diff/compile on every zoo model (ZOO_DIR) and the
# MobileNets of MODELS_DIR (tests/zoo/zoo-tool-test.py), the per-layer SVG
# chart of `make bench` (tests/bench/layer-chart-check.py: XML, one bar per
# operator, heights read against the axis) and diff's comparison on synthetic tensors
# (tests/tools/test-tflite-compare.c). `make check-tflite-tool`. The parts
# on models from SHARED_DIR are SKIPPED, naming the absent path, without it.
TFLITE_CMP_UNIT_SRCS := tests/tools/test-tflite-compare.c tools/e1npu-tflite/compare.c
TFLITE_CMP_UNIT      := $(O)/tests/tools/test-tflite-compare
TFLITE_CMP_UNIT_SAN  := $(SAN_O)/tests/tools/test-tflite-compare
# the library's compiled-model artifact and its SHA-256
# (tests/tools/test-tflite-artifact.c, on the small MobileNet: the first
# model it is given)
TFLITE_ART_UNIT_SRCS := tests/tools/test-tflite-artifact.c
TFLITE_ART_UNIT      := $(O)/tests/tools/test-tflite-artifact
TFLITE_ART_UNIT_SAN  := $(SAN_O)/tests/tools/test-tflite-artifact

$(call objs,tests/tools/test-tflite-compare.c) \
$(call sanobjs,tests/tools/test-tflite-compare.c): \
	CPPFLAGS += -Itools/e1npu-tflite
$(call objs,tests/tools/test-tflite-artifact.c) \
$(call sanobjs,tests/tools/test-tflite-artifact.c): \
	CPPFLAGS += -Ilib/tflite $(LIB_CPPFLAGS)

$(TFLITE_CMP_UNIT): $(call objs,$(TFLITE_CMP_UNIT_SRCS))
	$(CC) $(CFLAGS) $^ -o $@ -lcmocka

$(TFLITE_CMP_UNIT_SAN): $(call sanobjs,$(TFLITE_CMP_UNIT_SRCS))
	$(CC) $(CFLAGS) $(SANFLAGS) $^ -o $@ -lcmocka

$(TFLITE_ART_UNIT): $(call objs,$(TFLITE_ART_UNIT_SRCS)) $(LIB_A)
	$(CC) $(CFLAGS) $^ -o $@ -lcmocka $(LIB_LIBS)

$(TFLITE_ART_UNIT_SAN): $(call sanobjs,$(TFLITE_ART_UNIT_SRCS)) $(LIB_SAN_A)
	$(CC) $(CFLAGS) $(SANFLAGS) $^ -o $@ -lcmocka $(LIB_LIBS)

# the four subcommands on every model of the zoo (tests/zoo/zoo-tool-test.py)
TFLITE_TOOL_ZOO = $(sort $(wildcard $(ZOO_DIR)/*.tflite)) $(TEST_MODEL)

.PHONY: check-tflite-tool
check-tflite-tool: $(TFLITE_TOOL) $(TFLITE_TOOL_SAN) $(CLASSIFY_BIN) $(NPU_SMOKE) $(TFLITE_CMP_UNIT) \
		$(TFLITE_CMP_UNIT_SAN) $(TFLITE_ART_UNIT) $(TFLITE_ART_UNIT_SAN) $(TEST_IMAGE)
	tests/tools/tflite-tool-test.sh $(TFLITE_TOOL) $(CLASSIFY_BIN)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/tools/tflite-tool-test.sh $(TFLITE_TOOL_SAN) $(CLASSIFY_BIN)
	@mkdir -p $(O)/tests/zoo/tool $(SAN_O)/tests/zoo/tool
	@$(call shared_skip,check-tflite-tool (zoo),$(ZOO_DIR) $(TEST_MODEL)); \
	set -x; python3 tests/zoo/zoo-tool-test.py $(TFLITE_TOOL) $(ZOO_EXPECT) $(O)/tests/zoo/tool \
		$(sort $(TFLITE_TOOL_ZOO) $(wildcard $(MODELS_DIR)/mobilenet*.tflite)) && \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		python3 tests/zoo/zoo-tool-test.py $(TFLITE_TOOL_SAN) $(ZOO_EXPECT) \
		$(SAN_O)/tests/zoo/tool $(TFLITE_TOOL_ZOO)
	@$(call shared_skip,check-tflite-tool (layer chart),$(TEST_MODEL)); \
	for m in $(TEST_MODEL) $(wildcard $(MODELS_DIR)/mobilenet_v2_1.0_224_quant.tflite); do \
		svg=$(O)/tests/zoo/tool/$$(basename $$m .tflite).svg; \
		tests/bench/layer-chart.sh $(TFLITE_TOOL) $(NPU_SMOKE) $$m $$svg >/dev/null && \
		python3 tests/bench/layer-chart-check.py $${svg%.svg}.json $$svg \
			$$(E1NPU_DEVICE=sim $(NPU_SMOKE) info --json | python3 -c 'import json, sys; a = json.load(sys.stdin)["array"]; print(a[0] * a[1])') \
		|| exit 1; done
	$(TFLITE_CMP_UNIT)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $(TFLITE_CMP_UNIT_SAN)
	@$(call shared_skip,check-tflite-tool (artifact),$(TEST_MODEL) $(ZOO_DIR)); \
	set -x; $(TFLITE_ART_UNIT) $(TEST_MODEL) $(filter-out $(TEST_MODEL),$(sort \
		$(wildcard $(ZOO_DIR)/*.tflite) $(wildcard $(MODELS_DIR)/*.tflite))) && \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		$(TFLITE_ART_UNIT_SAN) $(TEST_MODEL) $(sort $(wildcard $(ZOO_DIR)/*.tflite))
ALL_TARGETS   += $(TFLITE_CMP_UNIT) $(TFLITE_ART_UNIT)
CHECK_TARGETS += check-tflite-tool

# The timeline trace (lib/trace.c): tests/tools/trace-test.sh on --trace
# in every tool, E1NPU_TRACE in e1npu-classify and npu-smoke, and
# tests/tools/trace-ops.c (both engines); tests/tools/trace-delegate-test.sh
# on E1NPU_TRACE in real TFLite 2.2 with the delegate (SKIPPED without
# it). `make check-trace`.
TRACE_OPS     := $(O)/tests/tools/trace-ops
TRACE_OPS_SAN := $(SAN_O)/tests/tools/trace-ops

$(call objs,tests/tools/trace-ops.c) $(call sanobjs,tests/tools/trace-ops.c): \
	CPPFLAGS += $(LIB_CPPFLAGS)

$(TRACE_OPS): $(call objs,tests/tools/trace-ops.c) $(LIB_A)
	$(CC) $(CFLAGS) $^ -o $@ $(LIB_LIBS)

$(TRACE_OPS_SAN): $(call sanobjs,tests/tools/trace-ops.c) $(LIB_SAN_A)
	$(CC) $(CFLAGS) $(SANFLAGS) $^ -o $@ $(LIB_LIBS)

.PHONY: check-trace
check-trace: $(TFLITE_TOOL) $(TFLITE_TOOL_SAN) $(CLASSIFY_BIN) $(CLASSIFY_SAN) $(NPU_SMOKE) \
		$(TRACE_OPS) $(TRACE_OPS_SAN) $(HLO_TOOL) $(HLO_TOOL_SAN) $(DELEGATE_TEST) $(DELEGATE_SO) \
		$(DELEGATE_TEST_SAN) $(DELEGATE_SAN_SO)
	tests/tools/trace-test.sh $(TFLITE_TOOL) $(CLASSIFY_BIN) $(NPU_SMOKE) $(TRACE_OPS) $(HLO_TOOL)
	tests/tools/trace-delegate-test.sh $(DELEGATE_TEST) $(DELEGATE_SO) $(FETCH_TFLITE)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/tools/trace-test.sh $(TFLITE_TOOL_SAN) $(CLASSIFY_SAN) $(NPU_SMOKE) $(TRACE_OPS_SAN) \
		$(HLO_TOOL_SAN)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/tools/trace-delegate-test.sh $(DELEGATE_TEST_SAN) $(DELEGATE_SAN_SO) $(FETCH_TFLITE)
ALL_TARGETS   += $(TRACE_OPS)
CHECK_TARGETS += check-trace
