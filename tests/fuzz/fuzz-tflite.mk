# SPDX-License-Identifier: MIT
#
# fuzz-tflite-load: libFuzzer harness of the TFLite interpreter
# (tests/fuzz/fuzz-tflite-load.c, Documentation/fuzzing.md), built like the
# public-API harnesses (the whole library with the fuzzer's sanitizers) and
# run for FUZZ_TIME seconds (seed FUZZ_SEED) as part of check-fuzz, seeds in
# tests/fuzz/corpus-fuzz-tflite-load/ (small models written by
# tests/fuzz/mkseeds-tflite-load.py, and regress-* inputs of fixed bugs).

# built by fuzz.mk (its rule of the whole-library harnesses)
TFLITE_FUZZ_BIN := $(O)/tests/fuzz/fuzz-tflite-load

.PHONY: check-fuzz-tflite fuzz-tflite-long
check-fuzz-tflite: $(TFLITE_FUZZ_BIN)
	$(call fuzz_run,fuzz-tflite-load,$(FUZZ_TIME),$(FUZZ_SEED))
	@echo "1 passed, 0 failed (check-fuzz-tflite: the TFLite loader and interpreter ran clean)"

fuzz-tflite-long: $(TFLITE_FUZZ_BIN)
	$(call fuzz_run,fuzz-tflite-load,$(FUZZ_LONG_TIME),0)

check-fuzz: check-fuzz-tflite
fuzz-build: $(TFLITE_FUZZ_BIN)
