# SPDX-License-Identifier: MIT
#
# check-docs: the C program of Documentation/getting-started.md, taken out
# of its ```c block as printed, compiled with the project's warnings
# against the built library (the public headers and the installed
# archive, the way the guide's pkg-config line links it) and run on the
# in-process model: the guide cannot drift from the library.

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
check-docs: $(DOCS_GUIDE_BIN)
	E1NPU_DEVICE=sim $(DOCS_GUIDE_BIN) > $(O)/tests/docs/matmul.out
	cat $(O)/tests/docs/matmul.out
	grep -q '^device: sim (the model)$$' $(O)/tests/docs/matmul.out
	grep -q '^matmul 4x8x16: correct, ran on ' $(O)/tests/docs/matmul.out
	@echo "check-docs: Documentation/getting-started.md's program builds and runs"

CHECK_TARGETS += check-docs
