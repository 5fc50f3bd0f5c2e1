# SPDX-License-Identifier: MIT
#
# check-docs: the C program of Documentation/getting-started.md, taken out
# of its ```c block as printed, compiled with the project's warnings
# against the built library (the public headers and the installed
# archive, the way the guide's pkg-config line links it) and run on the
# in-process model: the guide cannot drift from the library. Also: every
# E1NPU_* variable the code reads has its row in libe1npu.md's table, and
# the e1npu-tflite commands shown in tflite.md print the lines shown.

DOCS_GUIDE     := Documentation/getting-started.md
DOCS_GUIDE_C   := $(O)/tests/docs/matmul.c
DOCS_GUIDE_BIN := $(O)/tests/docs/matmul

$(DOCS_GUIDE_C): $(DOCS_GUIDE)
	@mkdir -p $(@D)
	awk '/^```c$$/ { on = 1; n++; next } /^```/ { on = 0 } on && n == 1' $< > $@
	@test -s $@ || { echo "check-docs: no C block in $<"; exit 1; }

$(DOCS_GUIDE_BIN): $(DOCS_GUIDE_C) $(LIB_PUB_A)
	$(CC) $(CSTD) $(WARN) -Iinclude $< -o $@ $(LIB_PUB_A) $(LIB_LIBS)

.PHONY: check-docs
check-docs: $(DOCS_GUIDE_BIN) $(TFLITE_TOOL) $(TEST_IMAGE)
	E1NPU_DEVICE=sim $(DOCS_GUIDE_BIN) > $(O)/tests/docs/matmul.out
	cat $(O)/tests/docs/matmul.out
	grep -q '^device: sim (the model)$$' $(O)/tests/docs/matmul.out
	grep -q '^matmul 4x8x16: correct, ran on ' $(O)/tests/docs/matmul.out
	@echo "check-docs: Documentation/getting-started.md's program builds and runs"
	@# tflite.md's e1npu-tflite examples print what they show (tests/docs/tflite-doc-check.py)
	python3 tests/docs/tflite-doc-check.py $(TFLITE_TOOL) Documentation/tflite.md .
	@# every E1NPU_* variable the code reads is in libe1npu.md's Environment table
	@missing=; for v in $$(grep -rhoE 'getenv\("E1NPU_[A-Z0-9_]+"|"E1NPU_[A-Z0-9_]+", [0-9]' \
		lib delegate ort-ep tools | grep -oE 'E1NPU_[A-Z0-9_]+' | sort -u); do \
		grep -q "^| \`$$v\`" Documentation/libe1npu.md || missing="$$missing $$v"; \
	done; [ -z "$$missing" ] || { echo "check-docs: not in libe1npu.md's Environment table:$$missing"; exit 1; }
	@echo "check-docs: every E1NPU_* variable read by lib/, delegate/, ort-ep/, tools/ is in libe1npu.md"

CHECK_TARGETS += check-docs
