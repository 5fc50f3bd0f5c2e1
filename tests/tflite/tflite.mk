# SPDX-License-Identifier: MIT
#
# lib/tflite unit tests that need no model file (check-tflite-unit):
#   test-arena-plan   the tensor arena planner (lib/tflite/arena_plan.c),
#       built against libe1npu's static archives, normal and ASan+UBSan;
#   test-tflite-unary LOGISTIC, TANH, LEAKY_RELU, L2_NORMALIZATION, DEQUANTIZE,
#       QUANTIZE from float32 and ABS on hand-worked values (same builds);
#   test-tflite-reduce-shape REDUCE_MAX/MIN, SUM, DEPTH_TO_SPACE,
#       TRANSPOSE_CONV and LOG_SOFTMAX on hand-worked values (same builds);
#   the repository's model's plan (`e1npu-classify --plan --json`, under
#       ASan+UBSan) checked by tests/models/check-plan.py, an independent
#       Python walk of the model.


TFLITE_UNIT_SRCS := $(sort $(wildcard tests/tflite/test-*.c))
TFLITE_UNIT      := $(patsubst %.c,$(O)/%,$(TFLITE_UNIT_SRCS))
TFLITE_UNIT_SAN  := $(patsubst %.c,$(SAN_O)/%,$(TFLITE_UNIT_SRCS))

$(call objs,$(TFLITE_UNIT_SRCS)) $(call sanobjs,$(TFLITE_UNIT_SRCS)): \
	CPPFLAGS += -Ilib -Ilib/tflite

$(O)/tests/tflite/%: $(O)/tests/tflite/%.o $(LIB_A)
	$(CC) $(CFLAGS) $^ -o $@ -lcmocka $(LIB_LIBS)

$(SAN_O)/tests/tflite/%: $(SAN_O)/tests/tflite/%.o $(LIB_SAN_A)
	$(CC) $(CFLAGS) $(SANFLAGS) $^ -o $@ -lcmocka $(LIB_LIBS)

.PHONY: check-tflite-unit
TFLITE_PLAN_MODEL := $(TEST_MODEL)

check-tflite-unit: $(TFLITE_UNIT) $(TFLITE_UNIT_SAN) $(CLASSIFY_SAN)
	@set -e; for t in $(TFLITE_UNIT); do echo "  TEST    $$t"; $$t; done
	@set -e; for t in $(TFLITE_UNIT_SAN); do echo "  TEST    $$t"; \
		ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $$t; done
	@p=0; f=0; \
	if [ ! -f '$(TFLITE_PLAN_MODEL)' ]; then \
		echo "SKIP: check-tflite-unit: --plan on $(TFLITE_PLAN_MODEL): absent (CI lays shared/ beside the checkout)"; \
	elif E1NPU_DEVICE=sim ASAN_OPTIONS=detect_leaks=1 $(CLASSIFY_SAN) --plan --json \
		-m $(TFLITE_PLAN_MODEL) > $(O)/tests/tflite/plan.json && \
	   python3 tests/models/check-plan.py $(TFLITE_PLAN_MODEL) $(O)/tests/tflite/plan.json; \
	then p=$$((p + 1)); else f=$$((f + 1)); echo "  FAIL  arena plan of $(TFLITE_PLAN_MODEL)"; fi; \
	if ! $(CLASSIFY_SAN) --plan --json -m $(O)/tests/tflite/missing.tflite \
		> $(O)/tests/tflite/plan-err.json 2>/dev/null && \
	   grep -q '"error":".*missing.tflite: No such file' $(O)/tests/tflite/plan-err.json; \
	then p=$$((p + 1)); else f=$$((f + 1)); echo "  FAIL  --plan on a missing model"; fi; \
	echo "$$p passed, $$f failed (check-tflite-unit: --plan on $(notdir $(TFLITE_PLAN_MODEL)), --plan errors)"; \
	[ $$f -eq 0 ]

CHECK_TARGETS += check-tflite-unit

# The loader's limits (lib/tflite/tflite_reader.h): a file one past each
# count, operators sharing one table past the memory budget (parser and
# loader), refused naming the limit in bounded memory
# (tests/tflite/check-limits.sh, files from tests/tflite/mklimits.py);
# the ASan+UBSan build's peak is higher (its shadow memory), its bound too.
.PHONY: check-tflite-limits
check-tflite-limits: $(TFLITE_TOOL) $(TFLITE_TOOL_SAN)
	tests/tflite/check-limits.sh $(TFLITE_TOOL)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/tflite/check-limits.sh $(TFLITE_TOOL_SAN) 131072
CHECK_TARGETS += check-tflite-limits


# Built models (tests/tflite/mkmodels.py, no TensorFlow needed) against real
# TFLite 2.2 (check-tflite-models), byte for byte, by libe1npu's interpreter
# (NPU path and lib/ref's reference path) and by the delegate, normal and
# ASan+UBSan:
#   requant-*        conv / FC multipliers at rounding ties where TFLite
#                    2.2's float product of the scales and the double one part;
#   mean-*           every MEAN form;
#   quantize-*-tie, relu*-tie
#                    quotient ties that part RELU's float quotient from
#                    QUANTIZE's double one;
#   mul-*-tie        MUL's single-precision multiplier at product ties;
#   sub-*, concat-*, pad-*, transpose-*, slice-*, strided-slice-*,
#   resize-*, maximum-*, minimum-*, relu*, hard-swish-*, bcast-* (MUL,
#   SUB, MAXIMUM, MINIMUM broadcasting a per-channel MEAN)
#                    the other operators added with them;
#   logistic-*, tanh-*, leaky-relu-*, l2norm-*, dequantize-*,
#   quantize-f32-*, abs-f32, float-chain-*
#                    the table operators, L2_NORMALIZATION and the float32
#                    boundary; --ramp adds an input of every byte value
#                    (exhaustive for their 256-element 8-bit inputs);
#   refused/*        models libe1npu (and TFLite 2.2) refuse: e1npu-tflite
#                    report (ASan+UBSan) must name the reason
#                    (refused/expect.txt, which also holds the host
#                    placements' reasons of some models above);
#   dynamic-*        a shape computed at run time: the delegate only (the
#                    interpreter has no SHAPE);
#   split-*, split-v-*, unpack-*, pack-*, argmax-*, argmin-*, gather-*,
#   space-batch-*, bilinear-*, bcast-add-*
#                    the structural and index operators, ARG_MAX's int64
#                    outputs, broadcasting ADD;
#   tconv-*, space-depth-*, depth-to-space-*, prelu-*, reduce-*, sum-*,
#   log-softmax-*    TRANSPOSE_CONV, SPACE_TO_DEPTH/DEPTH_TO_SPACE, PRELU,
#                    REDUCE_MAX/REDUCE_MIN, SUM, LOG_SOFTMAX (issue 21
#                    follow-up);
#   refused/*        (check_refused.py) one bad parameter each: refused at
#                    load by e1npu-tflite (ASan+UBSan) naming the value;
#   check_placement.py: `e1npu-tflite report` puts the structural and index
#                    operators on the host with their reasons.
# SKIPPED where TFLite 2.2 cannot be had (tools/devel/fetch-tflite.sh).
TFLITE_MODELS_DIR := $(O)/tests/tflite/models

.PHONY: check-tflite-models
check-tflite-models: $(DELEGATE_TEST) $(DELEGATE_SO) $(DELEGATE_TEST_SAN) $(DELEGATE_SAN_SO) \
		$(TFLITE_TOOL_SAN)
	@mkdir -p $(TFLITE_MODELS_DIR)
	@tfl=$$($(FETCH_TFLITE) 2>$(O)/tests/tflite/fetch.err) || { \
		echo "$@: SKIPPED: no TFLite 2.2 reference: $$(cat $(O)/tests/tflite/fetch.err)"; \
		echo "$@: 0 passed, 0 failed, 1 skipped"; exit 0; }; \
	set -e; cd tests/tflite && python3 mkmodels.py $(abspath $(TFLITE_MODELS_DIR)); cd $(CURDIR); \
	lib="$$tfl/lib/libtensorflowlite_c.so"; m=$(TFLITE_MODELS_DIR); \
	static=$$(ls $$m/*.tflite | grep -v '/dynamic-'); \
	$(DELEGATE_TEST) --tflite "$$lib" --delegate $(DELEGATE_SO) --interp-ref --no-skip-ops \
		--ramp -r 4 $$static; \
	$(DELEGATE_TEST) --tflite "$$lib" --delegate $(DELEGATE_SO) --no-skip-ops \
		-r 4 $$m/dynamic-*.tflite; \
	export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1; \
	$(DELEGATE_TEST_SAN) --tflite "$$lib" --delegate $(DELEGATE_SAN_SO) --interp \
		--no-skip-ops --ramp -r 2 $$static; \
	$(DELEGATE_TEST_SAN) --tflite "$$lib" --delegate $(DELEGATE_SAN_SO) \
		--no-skip-ops -r 2 $$m/dynamic-*.tflite; \
	p=0; f=0; while IFS='|' read -r name why; do \
		E1NPU_DEVICE=sim $(TFLITE_TOOL_SAN) report $$m/refused/$$name.tflite \
			> $$m/refused/report.out 2>&1 || true; \
		if grep -qF "$$why" $$m/refused/report.out; then p=$$((p + 1)); \
		else f=$$((f + 1)); echo "  FAIL  $$name: e1npu-tflite report does not say '$$why':"; \
			cat $$m/refused/report.out; fi; \
	done < $$m/refused/expect.txt; \
	echo "$$p passed, $$f failed (check-tflite-models: e1npu-tflite report's refusals and host reasons)"; \
	[ $$f -eq 0 ]; \
	cd tests/tflite && python3 check_refused.py $(abspath $(TFLITE_TOOL_SAN)) \
		$(abspath $(TFLITE_MODELS_DIR))/refused && \
	python3 check_placement.py $(abspath $(TFLITE_TOOL_SAN)) $(abspath $(TFLITE_MODELS_DIR))

CHECK_TARGETS += check-tflite-models
