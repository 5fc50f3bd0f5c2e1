# SPDX-License-Identifier: MIT
#
# The compiled-model artifact across machines and its numbers
# (Documentation/tflite.md, "compile"):
#   bench-artifact        (make bench) MobileNetV2's load-to-first-output
#                         from its .tflite and from its artifact on the host,
#                         and the artifact's size (tests/tools/artifact-bench.sh)
#   bench-artifact-board  the same in the riscv64 guest (boots the board)
# and, in every riscv64 guest run (vm-riscv64), /tests/t-artifact.sh: the
# artifact compiled here, on the host, loaded by the riscv64 e1npu-tflite
# on the board's NPU, byte-identical to the .tflite's run and to the
# host's. The model: MobileNetV2 from MODELS_DIR, else the shipped
# MobileNet v1 0.25 (said so).
ART_DIR     := $(O)/tests/artifact
ART_SRC     := $(firstword $(wildcard $(MODELS_DIR)/mobilenet_v2_1.0_224_quant.tflite) \
		tests/data/mobilenet_v1_0.25_128_quant.tflite)
ART_NAME    := $(basename $(notdir $(ART_SRC)))
ART_MODEL   := $(ART_DIR)/art-model.tflite
ART_FILE    := $(ART_DIR)/art-model.e1c
ART_INPUT   := $(ART_DIR)/art-input.raw
ART_HOST    := $(ART_DIR)/art-host.txt

$(ART_MODEL): $(ART_SRC)
	@mkdir -p $(@D)
	cp $< $@

# the model's input 0 (its size from run's refusal of an empty one, which
# names it), deterministic bytes
$(ART_INPUT): $(ART_MODEL) $(TFLITE_TOOL)
	@mkdir -p $(@D)
	: > $@.empty
	n=$$($(TFLITE_TOOL) run $(ART_MODEL) -i $@.empty --device sim --json 2>/dev/null | \
		python3 -c 'import json, re, sys; \
		print(re.search(r"model input 0 .* is (\d+) bytes$$", json.load(sys.stdin)["error"])[1])') && \
	python3 -c 'import sys; n = int(sys.argv[1]); \
		sys.stdout.buffer.write(bytes((i * 131 + i // 251) % 256 for i in range(n)))' "$$n" > $@
	rm -f $@.empty

$(ART_FILE): $(ART_MODEL) $(TFLITE_TOOL)
	E1NPU_DEVICE=sim $(TFLITE_TOOL) compile $(ART_MODEL) -o $@

# the sha256 of the host's output from the .tflite, and the model's name
$(ART_HOST): $(ART_MODEL) $(ART_INPUT) $(TFLITE_TOOL)
	E1NPU_DEVICE=sim $(TFLITE_TOOL) run $(ART_MODEL) -i $(ART_INPUT) -o $@.out > /dev/null
	echo "$$(sha256sum < $@.out | cut -d' ' -f1) $(ART_NAME)" > $@
	rm -f $@.out

.PHONY: bench-artifact bench-artifact-board
bench-artifact: $(ART_MODEL) $(ART_FILE) $(ART_INPUT) $(TFLITE_TOOL)
	@echo "== bench-artifact: load to first output, .tflite vs compiled artifact (host, in-process device)"
	@tests/tools/artifact-bench.sh $(TFLITE_TOOL) $(ART_MODEL) $(ART_FILE) $(ART_INPUT) 11 sim \
		"$(ART_NAME) (x86_64 host)"

bench-artifact-board: vm-deps
	@echo "== bench-artifact-board: load to first output, .tflite vs compiled artifact (riscv64 guest)"
	@$(MAKE) --no-print-directory board CMD='sh /tests/t-artifact.sh --bench'

BENCH_TARGETS += bench-artifact bench-artifact-board

ifeq ($(CROSS_COMPILE),)
VM_RISCV_GUEST_FILES += $(ART_MODEL) $(ART_FILE) $(ART_INPUT) $(ART_HOST) \
	tests/tools/t-artifact.sh tests/tools/artifact-bench.sh
endif
