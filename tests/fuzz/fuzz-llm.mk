# SPDX-License-Identifier: MIT
#
# fuzz-llm-load: libFuzzer harness of the language-model loaders
# (tests/fuzz/fuzz-llm-load.c): checkpoint + tokenizer through
# e1npu_llm_load_memory, then encode/decode/prefill/sample of what loads;
# built like the other whole-library harnesses, run for FUZZ_TIME seconds
# as part of check-fuzz; seeds in tests/fuzz/corpus-fuzz-llm-load/ (tiny
# random checkpoints written by tests/fuzz/mkseeds-llm-load.py).

LLM_FUZZ_BIN  := $(O)/tests/fuzz/fuzz-llm-load
LLM_FUZZ_SRCS := $(LIB_SRCS) $(LIB_MODEL_SRCS)
$(LLM_FUZZ_BIN): tests/fuzz/fuzz-llm-load.c $(LLM_FUZZ_SRCS) \
		$(wildcard tests/fuzz/*.h include/e1npu/*.h lib/*.h lib/*/*.h model/*.h) | fuzz-cc
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(LIB_CPPFLAGS) \
		-DE1NPU_WITH_UDEV=$(E1NPU_WITH_UDEV) -D_POSIX_C_SOURCE=200809L $(FUZZ_FLAGS) \
		$< $(LLM_FUZZ_SRCS) -o $@ $(LIB_LIBS)

.PHONY: check-fuzz-llm fuzz-llm-long
check-fuzz-llm: $(LLM_FUZZ_BIN)
	$(call fuzz_run,fuzz-llm-load,$(FUZZ_TIME),$(FUZZ_SEED))
	@echo "1 passed, 0 failed (check-fuzz-llm: the checkpoint and tokenizer loaders ran clean)"

fuzz-llm-long: $(LLM_FUZZ_BIN)
	$(call fuzz_run,fuzz-llm-load,$(FUZZ_LONG_TIME),0)

check-fuzz: check-fuzz-llm
fuzz-build: $(LLM_FUZZ_BIN)
