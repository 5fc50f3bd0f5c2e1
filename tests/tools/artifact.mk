# SPDX-License-Identifier: MIT
#
# The compiled-model artifact across machines and its numbers
# (Documentation/tflite.md, "Compiled models"):
#   bench-artifact        (make bench) MobileNetV2's load-to-first-output
#                         from its .tflite and from its artifact on the host,
#                         and the artifact's size (tests/tools/artifact-bench.sh)
#   bench-artifact-board  the same in the riscv64 guest alone (boots the
#                         board; make bench runs it within bench-board's boot)
# and, in every riscv64 guest run (vm-riscv64), /tests/t-artifact.sh:
# artifacts compiled here, on the host, loaded by the riscv64 e1npu-tflite,
# byte-identical to the .tflite's run there and to the host's: the small
# MobileNet v1 0.25 of MODELS_DIR ("small") through e1npu.ko on the board's
# NPU, and MobileNetV2 from MODELS_DIR ("big"; else the small one again) on the
# guest's in-process device (its staging needs more than the board's 4 MiB
# tensor arena).
ART_DIR   := $(O)/tests/artifact
ART_BIG   := $(firstword $(wildcard $(MODELS_DIR)/mobilenet_v2_1.0_224_quant.tflite) $(TEST_MODEL))
ART_SMALL := $(TEST_MODEL)
# per model K (big, small): art-K.tflite, .e1c, -input.raw, -host.txt
ART_FILES := $(foreach k,big small,$(addprefix $(ART_DIR)/art-$(k),.tflite .e1c -input.raw -host.txt))
# the models of SHARED_DIR that are absent: their art-K-host.txt alone,
# "SKIP PATH absent ...", goes to the guest (t-artifact.sh skips K, naming it)
ART_SRC_big   := $(ART_BIG)
ART_SRC_small := $(ART_SMALL)
ART_ABSENT    := $(foreach k,big small,$(if $(wildcard $(ART_SRC_$(k))),,$(k)))
ART_GUEST     := $(foreach k,big small,$(if $(filter $(k),$(ART_ABSENT)),$(ART_DIR)/art-$(k)-host.txt,\
	$(addprefix $(ART_DIR)/art-$(k),.tflite .e1c -input.raw -host.txt)))

$(ART_DIR)/art-big.tflite: $(ART_BIG)
	@mkdir -p $(@D)
	cp $< $@
	chmod u+w $@

$(ART_DIR)/art-small.tflite: $(ART_SMALL)
	@mkdir -p $(@D)
	cp $< $@
	chmod u+w $@

# the model's input 0 (its size from run's refusal of a one-byte one, which
# names it; an empty file is refused before the model is read), deterministic bytes
$(ART_DIR)/art-%-input.raw: $(ART_DIR)/art-%.tflite $(TFLITE_TOOL)
	printf x > $@.empty
	n=$$($(TFLITE_TOOL) run $< -i $@.empty --device sim --json 2>/dev/null | \
		python3 -c 'import json, re, sys; \
		print(re.search(r"model input 0 .* is (\d+) bytes$$", json.load(sys.stdin)["error"])[1])') && \
	python3 -c 'import sys; n = int(sys.argv[1]); \
		sys.stdout.buffer.write(bytes((i * 131 + i // 251) % 256 for i in range(n)))' "$$n" > $@
	rm -f $@.empty

$(ART_DIR)/art-%.e1c: $(ART_DIR)/art-%.tflite $(TFLITE_TOOL)
	E1NPU_DEVICE=sim $(TFLITE_TOOL) compile $< -o $@

# the sha256 of the host's output from the .tflite, and the model's name
$(ART_DIR)/art-big-host.txt: NAME = $(basename $(notdir $(ART_BIG)))
$(ART_DIR)/art-small-host.txt: NAME = $(basename $(notdir $(ART_SMALL)))
$(ART_DIR)/art-%-host.txt: $(ART_DIR)/art-%.tflite $(ART_DIR)/art-%-input.raw $(TFLITE_TOOL) $(SHARED_STATE)
	E1NPU_DEVICE=sim $(TFLITE_TOOL) run $< -i $(ART_DIR)/art-$*-input.raw -o $@.out > /dev/null
	echo "$$(sha256sum < $@.out | cut -d' ' -f1) $(NAME)" > $@
	rm -f $@.out

ifneq ($(ART_ABSENT),)
$(foreach k,$(ART_ABSENT),$(ART_DIR)/art-$(k)-host.txt): $(ART_DIR)/art-%-host.txt: $(SHARED_STATE)
	@mkdir -p $(@D)
	@echo "SKIP $(ART_SRC_$*) absent (CI lays shared/ beside the checkout: SHARED_DIR=$(SHARED_DIR))" > $@
	@echo "artifact: $(notdir $@): $$(cat $@)"
endif

.PHONY: bench-artifact bench-artifact-board
bench-artifact: $(if $(wildcard $(TEST_MODEL)),$(ART_FILES)) $(TFLITE_TOOL)
	@$(call shared_skip,$@,$(TEST_MODEL)); \
	echo "== bench-artifact: load to first output, .tflite vs compiled artifact (host, in-process device)"; \
	tests/tools/artifact-bench.sh $(TFLITE_TOOL) $(ART_DIR)/art-big.tflite $(ART_DIR)/art-big.e1c \
		$(ART_DIR)/art-big-input.raw 11 sim "$(basename $(notdir $(ART_BIG))) (x86_64 host)"

bench-artifact-board: vm-deps
	@echo "== bench-artifact-board: load to first output, .tflite vs compiled artifact (riscv64 guest)"
	@$(MAKE) --no-print-directory board CMD='sh /tests/t-artifact.sh --bench'

BENCH_TARGETS += bench-artifact

ifeq ($(CROSS_COMPILE),)
VM_RISCV_GUEST_FILES += $(ART_GUEST) tests/tools/t-artifact.sh tests/tools/artifact-bench.sh
BOARD_BENCH_MORE += sh /tests/t-artifact.sh --bench &&
endif
