# SPDX-License-Identifier: MIT
#
# StableHLO importer tests (Documentation/hlo.md): every tests/hlo/*.mlir
# and tests/hlo/bad/*.mlir through e1npu-hlo (tests/hlo/run-tests.sh), with
# the normal build and the ASan+UBSan one; gen.py --check keeps the
# generated files equal to their generator's output.

ifeq ($(LIB_ENABLED),1)

.PHONY: check-hlo
check-hlo: $(HLO_TOOL) $(HLO_TOOL_SAN)
	tests/hlo/run-tests.sh $(HLO_TOOL) tests/hlo
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/hlo/run-tests.sh $(HLO_TOOL_SAN) tests/hlo

CHECK_TARGETS += check-hlo

endif
