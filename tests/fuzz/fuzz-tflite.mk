# SPDX-License-Identifier: MIT
#
# fuzz-tflite-load: libFuzzer harness of the TFLite interpreter
# (tests/fuzz/fuzz-tflite-load.c, Documentation/fuzzing.md), built like the
# public-API harnesses (the whole library with the fuzzer's sanitizers) and
# run for FUZZ_TIME seconds (seed FUZZ_SEED) as part of check-fuzz, seeds in
# tests/fuzz/corpus-fuzz-tflite-load/ (small models written by
# tests/fuzz/mkseeds-tflite-load.py, and regress-* inputs of fixed bugs).

TFLITE_FUZZ_BIN := $(O)/tests/fuzz/fuzz-tflite-load

$(TFLITE_FUZZ_BIN): tests/fuzz/fuzz-tflite-load.c $(LIB_SRCS) $(LIB_MODEL_SRCS) \
		$(wildcard include/e1npu/*.h lib/*.h lib/*/*.h) | fuzz-cc
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(LIB_CPPFLAGS) -DE1NPU_WITH_UDEV=$(E1NPU_WITH_UDEV) \
		-D_POSIX_C_SOURCE=200809L $(FUZZ_FLAGS) $< $(LIB_SRCS) $(LIB_MODEL_SRCS) \
		-o $@ $(LIB_LIBS)

.PHONY: check-fuzz-tflite fuzz-tflite-long
check-fuzz-tflite: $(TFLITE_FUZZ_BIN)
	$(call fuzz_run,fuzz-tflite-load,$(FUZZ_TIME),$(FUZZ_SEED))
	@echo "1 passed, 0 failed (check-fuzz-tflite: the TFLite loader and interpreter ran clean)"

fuzz-tflite-long: $(TFLITE_FUZZ_BIN)
	$(call fuzz_run,fuzz-tflite-load,$(FUZZ_LONG_TIME),0)

check-fuzz: check-fuzz-tflite
fuzz-build: $(TFLITE_FUZZ_BIN)
