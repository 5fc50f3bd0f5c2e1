# SPDX-License-Identifier: MIT
#
# The library inside the riscv64 QEMU guests, against e1npu.ko bound to
# the QEMU board's NPU.

# ---- the riscv64 guest: Documentation/board.md on the board's arch --------
# tests/lib/board-host.sh runs board.md's build-machine commands (the cross
# build through tests/vm/cross-deps.sh's libdrm/cmocka, make install
# DESTDIR=, the example through the cross pkg-config) in $(O)/vm/board and
# packs the guest's root file system; the guest runs the very binaries a
# board would get (dynamic, with the toolchain's C library), which
# exercises libe1npu.so itself. t-board.sh runs board.md's board commands
# and the checks; guest-lib-tests.sh the cmocka suites (tests/kernel/
# run-guest.sh calls it with each device configuration it sets up);
# guest-smoke.sh the static npu-smoke against the host's smoke-host.json;
# t-hlo.sh the StableHLO runner's NPU modules (tests/hlo/, renamed
# hlo-*.mlir in the guest's flat /tests/) with the installed e1npu-hlo.
# classify-host.txt: the sha256 of e1npu-classify's output tensor on the
# host (in-process model; must equal the CPU reference path's), for the
# guest to compare against. llm-host.txt: e1npu-llm's generated token ids
# on the host (in-process model, greedy, "Once upon a time", 32 steps), one
# line per path ("int8 IDS", "float IDS"), or "SKIP REASON" without
# $(SHARED_DIR)/llm; guest-llm.sh compares the guest's with them.
# stories260K.bin and tok512.bin go to the guest's /tests/ when present.
# Without shared/ (SHARED_DIR absent) every file of the lists below still
# exists: classify-host.txt and llm-host.txt then say "SKIP PATH absent",
# board-host.sh leaves board.md's lines that copy from shared/ out and
# lists, in the guest's /tests/board-shared-absent.txt, what they would
# have copied; the guest skips each check on those, naming the path.
ifeq ($(CROSS_COMPILE),)
BOARD_W          := $(O)/vm/board
GUEST_RV_TAR     := $(BOARD_W)/guest-riscv64.tar
GUEST_RV_SMOKE   := $(BOARD_W)/build-riscv64/tools/npu-smoke/npu-smoke-static
GUEST_RV_BLOCKS  := $(BOARD_W)/board-blocks.sh
CLASSIFY_HOST    := $(O)/tests/lib/classify-host.txt
# models.mk's $(CLASSIFY), which is included after this file
CLASSIFY_BIN     := $(O)/tools/e1npu-classify/e1npu-classify
# the small MobileNet of SHARED_DIR and the 128x128 photo the build makes of its photograph
BOARD_DATA       := $(TEST_MODEL) $(TEST_IMAGE)

.PHONY: guest-riscv64-force
$(GUEST_RV_TAR): guest-riscv64-force
	@mkdir -p $(@D)
	E1NPU_CACHE=$(or $(E1NPU_CACHE),/var/cache/e1npu) tests/lib/board-host.sh $(BOARD_W) $@

$(GUEST_RV_SMOKE): $(GUEST_RV_TAR)
	@test -f $@

$(GUEST_RV_BLOCKS): Documentation/board.md
	@mkdir -p $(@D)
	awk '/^```sh board$$/ { on = 1; next } /^```/ { on = 0 } on' $< > $@

# without the model, labels or photo: "SKIP PATH absent ...", which
# guest-classify.sh reports as its checks' reason
CLASSIFY_ABSENT := $(filter-out $(wildcard $(TEST_MODEL) $(TEST_LABELS) $(TEST_PHOTO)),$(TEST_MODEL) $(TEST_LABELS) $(TEST_PHOTO))
ifneq ($(CLASSIFY_ABSENT),)
$(CLASSIFY_HOST): $(SHARED_STATE)
	@mkdir -p $(@D)
	@echo "SKIP $(firstword $(CLASSIFY_ABSENT)) absent (CI lays shared/ beside the checkout: SHARED_DIR=$(SHARED_DIR))" > $@
	@echo "classify-host: $$(cat $@)"
else
$(CLASSIFY_HOST): $(CLASSIFY_BIN) $(BOARD_DATA) $(SHARED_STATE)
	@mkdir -p $(@D)
	E1NPU_DEVICE=sim $(CLASSIFY_BIN) -m $(word 1,$(BOARD_DATA)) -i $(word 2,$(BOARD_DATA)) \
		-l $(TEST_LABELS) -n 1 --raw-output $@.npu > $@.log
	$(CLASSIFY_BIN) --cpu -m $(word 1,$(BOARD_DATA)) -i $(word 2,$(BOARD_DATA)) \
		-n 1 --raw-output $@.cpu >> $@.log
	@cmp $@.npu $@.cpu || { echo "classify-host: NPU path != CPU reference path"; exit 1; }
	@echo "$$(sha256sum < $@.npu | cut -d' ' -f1) $$(tail -n 1 $@.log)" > $@
	@echo "classify-host: $$(cat $@)"
	@rm -f $@.npu $@.cpu $@.log
endif

LLM_HOST         := $(O)/tests/lib/llm-host.txt
LLM_DATA         := $(SHARED_DIR)/llm/stories260K.bin $(SHARED_DIR)/llm/tok512.bin
LLM_DATA_HERE    := $(wildcard $(LLM_DATA))

# llm_ids PATH-OPTION: the generated ids of the host's in-process run
llm_ids = E1NPU_DEVICE=sim $(LLM_TOOL) $(1) -m $(word 1,$(LLM_DATA)) -z $(word 2,$(LLM_DATA)) \
	-p "Once upon a time" -n 32 --json | sed -n 's/.*"generated_ids": \[\([^]]*\)\].*/\1/p' | tr -d ' '

$(LLM_HOST): $(LLM_TOOL) $(LLM_DATA_HERE) $(SHARED_STATE)
	@mkdir -p $(@D)
	@rm -f $@
	@for f in $(LLM_DATA); do [ -r "$$f" ] || { \
		echo "SKIP $$f absent (CI lays shared/ beside the checkout: SHARED_DIR=$(SHARED_DIR))" > $@.tmp; \
		mv $@.tmp $@; echo "llm-host: $$(cat $@)"; exit 0; }; done; \
	i=$$($(call llm_ids,)) && f=$$($(call llm_ids,--float)) && [ -n "$$i" ] && [ -n "$$f" ] || \
		{ echo "llm-host: e1npu-llm failed on the host"; exit 1; }; \
	printf 'int8 %s\nfloat %s\n' "$$i" "$$f" > $@.tmp && mv $@.tmp $@; \
	echo "llm-host: $$(tr '\n' ' ' < $@)"

GUEST_RV_HLO_TESTS := gen-dot gen-conv gen-quant gen-quant-tolerance gen-jax-dot gen-e1-records
GUEST_RV_HLO_MLIR  := $(addprefix $(BOARD_W)/hlo/hlo-,$(addsuffix .mlir,$(GUEST_RV_HLO_TESTS)))
$(BOARD_W)/hlo/hlo-%.mlir: tests/hlo/%.mlir
	@mkdir -p $(@D)
	cp $< $@

ifneq ($(SMOKE_HOST_JSON),)
VM_RISCV_GUEST_FILES += $(GUEST_RV_TAR) $(GUEST_RV_SMOKE) $(GUEST_RV_BLOCKS) \
	$(CLASSIFY_HOST) $(SMOKE_HOST_JSON) tests/lib/guest-smoke.sh \
	tests/lib/guest-lib-tests.sh tests/lib/t-board.sh tests/lib/guest-classify.sh \
	$(LLM_HOST) $(LLM_DATA_HERE) tests/lib/guest-llm.sh \
	tests/hlo/t-hlo.sh $(GUEST_RV_HLO_MLIR)
endif
endif
