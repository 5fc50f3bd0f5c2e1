# SPDX-License-Identifier: MIT
# Command-line tests of npu-smoke on the in-process model.
ifeq ($(LIB_ENABLED),1)
.PHONY: check-tools
check-tools: $(NPU_SMOKE)
	tests/tools/npu-smoke-test.sh $(NPU_SMOKE)
CHECK_TARGETS += check-tools
endif
