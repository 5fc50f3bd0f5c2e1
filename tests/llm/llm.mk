# SPDX-License-Identifier: MIT
#
# Language models (include/e1npu/e1npu_llm.h, lib/llm/, tools/e1npu-llm/):
#   make check-llm     unit suites (also under ASan+UBSan): loader and
#                      tokenizer on synthetic files, the float32 path
#                      against llama2.c's sample and float64, int8 on e1
#                      vs float32 (accuracy, perplexity), the CLI tests.
#                      The stories260K suites skip, naming the file, when
#                      $(SHARED_DIR)/llm is absent.

LLM_TEST_SRCS := $(wildcard tests/llm/test-*.c)
LLM_TESTS     := $(patsubst tests/llm/%.c,%,$(LLM_TEST_SRCS))
LLM_BINS      := $(addprefix $(O)/tests/llm/,$(LLM_TESTS))
LLM_SANBINS   := $(addprefix $(SAN_O)/tests/llm/,$(LLM_TESTS))

$(call objs,$(LLM_TEST_SRCS)) $(call sanobjs,$(LLM_TEST_SRCS)): CPPFLAGS += -Itests/llm

$(O)/tests/llm/%: $(O)/tests/llm/%.o $(LIB_A)
	$(CC) $(CFLAGS) $^ -o $@ -lcmocka $(LIB_LIBS)

$(SAN_O)/tests/llm/%: $(SAN_O)/tests/llm/%.o $(LIB_SAN_A)
	$(CC) $(CFLAGS) $(SANFLAGS) $^ -o $@ -lcmocka $(LIB_LIBS)

.PHONY: check-llm check-llm-normal check-llm-san check-llm-tool
check-llm: check-llm-normal check-llm-san check-llm-tool

check-llm-normal: $(LLM_BINS)
	@set -e; for t in $(LLM_BINS); do echo "  TEST    $$t"; E1NPU_DEVICE=sim $$t; done

check-llm-san: $(LLM_SANBINS)
	@set -e; for t in $(LLM_SANBINS); do echo "  TEST    $$t"; \
		E1NPU_DEVICE=sim E1NPU_LLM_TEST_QUICK=1 ASAN_OPTIONS=detect_leaks=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 $$t; done

check-llm-tool: $(LLM_TOOL) $(LLM_TOOL_SAN)
	@tests/llm/llm-tool-test.sh $(LLM_TOOL) $(LLM_TOOL_SAN)

CHECK_TARGETS += check-llm

# bench-llm (make bench): modelled prefill/decode tok/s vs the weight-
# streaming floor, jobs per token, host ms/token int8 vs float32, for
# stories260K (when $(SHARED_DIR)/llm has it) and a stories15M-shaped
# checkpoint of random weights written at bench time (never committed).
LLM_BENCH := $(O)/tests/llm/bench-llm
LLM_SYNTH := $(O)/tests/llm/synth-stories15M.bin
$(call objs,tests/llm/bench-llm.c): CPPFLAGS += -Itests/llm
$(LLM_BENCH): $(O)/tests/llm/bench-llm.o $(LIB_A)
	$(CC) $(CFLAGS) $^ -o $@ $(LIB_LIBS)

$(LLM_SYNTH): tests/llm/mk-synth-ckpt.py
	@mkdir -p $(@D)
	tests/llm/mk-synth-ckpt.py $@.tmp && mv $@.tmp $@

.PHONY: bench-llm
bench-llm: $(LLM_BENCH) $(LLM_SYNTH)
	@if [ -r '$(SHARED_DIR)/llm/stories260K.bin' ]; then \
		$(LLM_BENCH) stories260K='$(SHARED_DIR)/llm/stories260K.bin'; \
	else echo "bench-llm: stories260K SKIPPED: $(SHARED_DIR)/llm/stories260K.bin not found"; fi
	BENCH_LLM_NO_AUTO=1 $(LLM_BENCH) synth-15M=$(LLM_SYNTH)

BENCH_TARGETS += bench-llm
