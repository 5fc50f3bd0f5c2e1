# SPDX-License-Identifier: MIT
#
# libe1npu ABI checks (tests/abi/check-abi.sh, Documentation/libe1npu.md
# "ABI"): symbol list vs headers vs exports, the installed static archive's
# globals, each installed header alone, abidiff against the committed
# baseline lib/abi/libe1npu.abi.
#   make check-abi    run them (part of make check)
#   make abi-update   rewrite the baseline from $(LIB_SO): only for an
#                     intended ABI change, committed with it

ABI_BASELINE := lib/abi/libe1npu.abi
# Public types only (include/e1npu), no paths or line numbers: the file
# changes only when the ABI does.
ABIDW_FLAGS  := --no-corpus-path --no-comp-dir-path --no-show-locs \
	--headers-dir include/e1npu --drop-private-types

.PHONY: check-abi abi-update
check-abi: $(LIB_SO) $(LIB_PUB_A)
	@tests/abi/check-abi.sh "$(MAKE)" "$(O)" "$(SAN_O)" "$(CC)"

abi-update: $(LIB_SO)
	@mkdir -p $(dir $(ABI_BASELINE))
	abidw $(ABIDW_FLAGS) --out-file $(ABI_BASELINE) $(LIB_SO)

CHECK_TARGETS += check-abi

