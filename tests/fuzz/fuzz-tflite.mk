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

# fuzz-tflite-art: libFuzzer harness of the compiled-model artifact loader
# (tests/fuzz/fuzz-tflite-art.c), built like fuzz-tflite-load with the
# library's internal artifact header, run for FUZZ_TIME seconds as part of
# check-fuzz; seeds in tests/fuzz/corpus-fuzz-tflite-art/ (artifacts of
# the fuzz-tflite-load seeds, tests/fuzz/mkseeds-tflite-art.sh).
TFLITE_ART_FUZZ_BIN := $(O)/tests/fuzz/fuzz-tflite-art

# (fuzz.mk's FUZZ_API_SRCS is not defined yet where this file is read:
# the same list, from lib.mk's, which is)
TFLITE_ART_FUZZ_SRCS := $(LIB_SRCS) $(LIB_MODEL_SRCS)
$(TFLITE_ART_FUZZ_BIN): tests/fuzz/fuzz-tflite-art.c $(TFLITE_ART_FUZZ_SRCS) \
		$(wildcard tests/fuzz/*.h include/e1npu/*.h lib/*.h lib/*/*.h model/*.h) | fuzz-cc
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(LIB_CPPFLAGS) -Ilib/tflite \
		-DE1NPU_WITH_UDEV=$(E1NPU_WITH_UDEV) -D_POSIX_C_SOURCE=200809L $(FUZZ_FLAGS) \
		$< $(TFLITE_ART_FUZZ_SRCS) -o $@ $(LIB_LIBS)

.PHONY: check-fuzz-tflite-art fuzz-tflite-art-long
check-fuzz-tflite-art: $(TFLITE_ART_FUZZ_BIN)
	$(call fuzz_run,fuzz-tflite-art,$(FUZZ_TIME),$(FUZZ_SEED))
	@echo "1 passed, 0 failed (check-fuzz-tflite-art: the artifact loader ran clean)"

fuzz-tflite-art-long: $(TFLITE_ART_FUZZ_BIN)
	$(call fuzz_run,fuzz-tflite-art,$(FUZZ_LONG_TIME),0)

check-fuzz: check-fuzz-tflite-art
fuzz-build: $(TFLITE_ART_FUZZ_BIN)
