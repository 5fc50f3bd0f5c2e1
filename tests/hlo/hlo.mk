# SPDX-License-Identifier: MIT
#
# StableHLO importer tests (Documentation/hlo.md): the API unit tests
# (test-hlo-api.c, cmocka), every tests/hlo/*.mlir
# and tests/hlo/bad/*.mlir through e1npu-hlo (tests/hlo/run-tests.sh), with
# the normal build and the ASan+UBSan one; gen.py --check keeps the
# generated files equal to their generator's output.


# the API unit tests (cmocka), normal and ASan+UBSan
HLO_API_TEST     := $(O)/tests/hlo/test-hlo-api
HLO_API_TEST_SAN := $(SAN_O)/tests/hlo/test-hlo-api

$(HLO_API_TEST): $(call objs,tests/hlo/test-hlo-api.c) $(LIB_A)
	$(CC) $(CFLAGS) $^ -o $@ -lcmocka $(LIB_LIBS)

$(HLO_API_TEST_SAN): $(call sanobjs,tests/hlo/test-hlo-api.c) $(LIB_SAN_A)
	$(CC) $(CFLAGS) $(SANFLAGS) $^ -o $@ -lcmocka $(LIB_LIBS)

.PHONY: check-hlo
check-hlo: $(HLO_TOOL) $(HLO_TOOL_SAN) $(HLO_API_TEST) $(HLO_API_TEST_SAN)
	sh tests/hlo/check-includes.sh lib/hlo
	@if sh tests/hlo/check-includes.sh tests/hlo/inc-cycle >/dev/null; then \
		echo "  FAIL  check-includes.sh missed tests/hlo/inc-cycle's cycle"; exit 1; \
	else echo "  PASS  check-includes.sh finds tests/hlo/inc-cycle's cycle"; fi
	$(HLO_API_TEST)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		$(HLO_API_TEST_SAN)
	tests/hlo/run-tests.sh $(HLO_TOOL) tests/hlo
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		tests/hlo/run-tests.sh $(HLO_TOOL_SAN) tests/hlo

CHECK_TARGETS += check-hlo

