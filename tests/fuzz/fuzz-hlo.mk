# SPDX-License-Identifier: MIT
#
# fuzz-hlo-parse: libFuzzer harness of the StableHLO importer
# (tests/fuzz/fuzz-hlo-parse.c, Documentation/fuzzing.md), built like the
# public-API harnesses (the whole library with the fuzzer's sanitizers) and
# run for FUZZ_TIME seconds (seed FUZZ_SEED) as part of check-fuzz, seeds in
# tests/fuzz/corpus-fuzz-hlo-parse/ (copies of tests/hlo files).

# built by fuzz.mk (its rule of the whole-library harnesses)
HLO_FUZZ_BIN := $(O)/tests/fuzz/fuzz-hlo-parse

.PHONY: check-fuzz-hlo fuzz-hlo-long
check-fuzz-hlo: $(HLO_FUZZ_BIN)
	$(call fuzz_run,fuzz-hlo-parse,$(FUZZ_TIME),$(FUZZ_SEED))
	@echo "1 passed, 0 failed (check-fuzz-hlo: the StableHLO parser ran clean)"

fuzz-hlo-long: $(HLO_FUZZ_BIN)
	$(call fuzz_run,fuzz-hlo-parse,$(FUZZ_LONG_TIME),0)

check-fuzz: check-fuzz-hlo
fuzz-build: $(HLO_FUZZ_BIN)
