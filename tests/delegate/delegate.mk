# SPDX-License-Identifier: MIT
#
# Real TFLite 2.2 as the reference (tests/delegate/test-delegate.c,
# Documentation/tflite.md):
#   check-delegate       TFLite 2.2 alone vs TFLite 2.2 + the e1npu delegate
#                        (byte-identical outputs, summary line, several
#                        partitions with skip_ops, malformed options, the
#                        compiled-partition cache: option cache_dir);
#   check-models-tflite  libe1npu's own interpreter vs TFLite 2.2; run as
#                        part of check-models;
#   check-delegate-newer the delegate (and the interpreter with
#                        E1NPU_TFLITE_REF=2.14) inside TFLite 2.14.1 in the
#                        Debian sid root (tests/delegate/newer-sid.sh),
#                        SKIPPED naming why without SHARED_DIR or the root.
# check-delegate also checks delegate/tflite_abi.h's layout (abi-layout.c).
# On every model in MODELS_DIR ($(SHARED_DIR)/models: SKIPPED, naming it,
# where the small MobileNet is absent), on its photograph (full size and
# TEST_IMAGE, 128x128) and seeded random tensors. TFLite comes from
# tools/devel/fetch-tflite.sh (x86_64 only: elsewhere SKIPPED with its
# reason). check-delegate also runs the small MobileNet under ASan+UBSan.


DELEGATE_TEST     := $(O)/tests/delegate/test-delegate
DELEGATE_TEST_SRCS := tests/delegate/test-delegate.c tools/e1npu-classify/bmp.c
FETCH_TFLITE      := tools/devel/fetch-tflite.sh
DELEGATE_RANDOM   ?= 3

DELEGATE_TEST_SAN := $(SAN_O)/tests/delegate/test-delegate

$(call objs,tests/delegate/test-delegate.c) $(call sanobjs,tests/delegate/test-delegate.c): \
	CPPFLAGS += -Itools/e1npu-classify

$(DELEGATE_TEST): $(call objs,$(DELEGATE_TEST_SRCS)) $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $^ $(LIB_LIBS) -ldl

# ASan+UBSan: the test and the delegate instrumented, TFLite not (it is
# dlopen'ed into the instrumented process; ASan's allocator serves it too).
$(DELEGATE_TEST_SAN): $(call sanobjs,$(DELEGATE_TEST_SRCS)) $(LIB_SAN_A)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SANFLAGS) -o $@ $^ $(LIB_LIBS) -ldl

# $(call delegate_run,ARGS): test-delegate on every model and image there is.
define delegate_run
	@tfl=$$($(FETCH_TFLITE) 2>$(O)/tests/delegate/fetch.err) || { \
		echo "$@: SKIPPED: no TFLite 2.2 reference: $$(cat $(O)/tests/delegate/fetch.err)"; \
		echo "$@: 0 passed, 0 failed, 1 skipped"; exit 0; }; \
	$(call shared_skip,$@,$(TEST_MODEL) $(TEST_IMAGE)); \
	models=$$(ls '$(MODELS_DIR)'/*.tflite); imgs="-i $(TEST_IMAGE)"; \
	[ -f '$(TEST_PHOTO)' ] && imgs="$$imgs -i $(TEST_PHOTO)"; \
	echo "$@: TFLite 2.2 from $$tfl"; \
	$(2) \
	$(DELEGATE_TEST) --tflite "$$tfl/lib/libtensorflowlite_c.so" $(1) $$imgs \
		-r $(DELEGATE_RANDOM) $$models && [ -z "$$fail" ]
endef

# The small MobileNet with SOFTMAX turned into CAST (uint8 to uint8: TFLite
# 2.2 copies it): one node the delegate must leave to TFLite. (LOGISTIC,
# the operator it was before, is delegated since libe1npu runs it.)
DELEGATE_PARTIAL := $(O)/tests/delegate/mobilenet_v1_0.25_128_cast.tflite
$(DELEGATE_PARTIAL): $(wildcard $(TEST_MODEL)) tests/delegate/swap_opcode.py
	@mkdir -p $(@D)
	@if [ -f '$(TEST_MODEL)' ]; then python3 tests/delegate/swap_opcode.py '$(TEST_MODEL)' $@ 25 53; \
	else echo "$@: not made: $(TEST_MODEL) absent (CI lays shared/ beside the checkout)"; fi

# delegate/tflite_abi.h against TFLite 2.2's own common.h (only there
# once fetched, so built in the recipe).
DELEGATE_ABI_CHECK = $(CC) $(CSTD) $(WARN) -isystem "$$tfl/include" -Idelegate \
	tests/delegate/abi-check.c -o $(O)/tests/delegate/abi-check && \
	$(O)/tests/delegate/abi-check || fail=1;

# delegate/tflite_abi.h against TFLite 2.2's layout as numbers, with the
# later releases' changes in its comment (no TFLite needed: always run).
DELEGATE_ABI_LAYOUT := $(O)/tests/delegate/abi-layout
$(DELEGATE_ABI_LAYOUT): tests/delegate/abi-layout.c delegate/tflite_abi.h
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) -Idelegate $< -o $@

.PHONY: check-delegate check-models-tflite check-delegate-newer
check-delegate: $(DELEGATE_TEST) $(DELEGATE_SO) $(DELEGATE_PARTIAL) \
		$(DELEGATE_TEST_SAN) $(DELEGATE_SAN_SO) $(DELEGATE_ABI_LAYOUT) $(TEST_IMAGE)
	@mkdir -p $(O)/tests/delegate
	@$(DELEGATE_ABI_LAYOUT) > $(O)/tests/delegate/abi-layout.log || { \
		cat $(O)/tests/delegate/abi-layout.log; exit 1; }; \
	tail -n 1 $(O)/tests/delegate/abi-layout.log
	$(call delegate_run,--delegate $(DELEGATE_SO) --cache -p $(DELEGATE_PARTIAL),$(DELEGATE_ABI_CHECK))
	@tfl=$$($(FETCH_TFLITE) 2>/dev/null) || exit 0; [ -f '$(TEST_MODEL)' ] || exit 0; \
	echo "check-delegate: 4 MiB of device memory: the 14 partitions share one lowering context"; \
	E1NPU_SIM_ARENA_MB=4 $(DELEGATE_TEST) --tflite "$$tfl/lib/libtensorflowlite_c.so" \
		--delegate $(DELEGATE_SO) -r 1 $(TEST_MODEL)
	@tfl=$$($(FETCH_TFLITE) 2>/dev/null) || exit 0; [ -f '$(TEST_MODEL)' ] || exit 0; \
	echo "check-delegate: under ASan+UBSan, the small MobileNet"; \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(DELEGATE_TEST_SAN) --tflite "$$tfl/lib/libtensorflowlite_c.so" \
		--delegate $(DELEGATE_SAN_SO) --interp --cache -p $(DELEGATE_PARTIAL) \
		-i $(TEST_IMAGE) -r 2 $(TEST_MODEL)

check-models-tflite: $(DELEGATE_TEST) $(TEST_IMAGE)
	@mkdir -p $(O)/tests/delegate
	$(call delegate_run,--interp)

# The delegate inside TFLite 2.14.1 (Documentation/tflite.md, "TFLite 2.2
# and 2.14"): Debian sid's libtensorflow-lite-dev, in the cached sid root
# of tests/vm/sid-root.sh (sid's libraries need sid's C library), where
# the test program and the delegate are built again ($(SID_O)) and run
# by tests/delegate/newer-sid.sh on the shipped model, SHARED_DIR's
# MobileNets and zoo (tests/delegate/expect-2.14.txt) and mkmodels.py's
# models. SKIPPED, naming why, without SHARED_DIR or when the root cannot
# be built. TFLITE_NEWER=/path/to/libtensorflowlite_c.so instead: the
# delegate on the shipped models and the zoo against that library, here.
TFLITE_NEWER ?=
SID_O ?= $(O)-sid
CLEAN_DIRS += $(SID_O)
check-delegate-newer: $(DELEGATE_TEST) $(DELEGATE_SO) $(TEST_IMAGE)
	@if [ -n '$(TFLITE_NEWER)' ]; then \
	[ -f '$(TFLITE_NEWER)' ] || { echo "$@: TFLITE_NEWER=$(TFLITE_NEWER): no such file"; exit 1; }; \
	$(call shared_skip,$@,$(TEST_MODEL) $(TEST_IMAGE) $(ZOO_DIR)); \
	$(DELEGATE_TEST) --tflite '$(TFLITE_NEWER)' --delegate $(DELEGATE_SO) \
		-i $(TEST_IMAGE) -r $(DELEGATE_RANDOM) $(TEST_MODEL) && \
	$(DELEGATE_TEST) --tflite '$(TFLITE_NEWER)' --delegate $(DELEGATE_SO) \
		--expect $(ZOO_EXPECT) -i $(TEST_IMAGE) -r 1 $(ZOO_MODELS); \
	exit $$?; fi; \
	if [ ! -d '$(SHARED_DIR)/models' ] || [ ! -d '$(SHARED_DIR)/zoo' ]; then \
		echo "$@: SKIPPED: SHARED_DIR=$(SHARED_DIR) has no models/ and zoo/ (the MobileNets and the model zoo)"; \
		echo "$@: 0 passed, 0 failed, 1 skipped"; exit 0; fi; \
	if [ "$$(realpath '$(SHARED_DIR)')" != "$$(realpath '$(CURDIR)/../shared')" ]; then \
		echo "$@: SKIPPED: SHARED_DIR=$(SHARED_DIR) is not ../shared, the directory tests/vm/sid-root.sh binds"; \
		echo "$@: 0 passed, 0 failed, 1 skipped"; exit 0; fi; \
	mkdir -p $(SID_O); \
	if ! bash tests/vm/sid-root.sh --print > $(SID_O)/root.log 2>&1; then \
		echo "$@: SKIPPED: the Debian sid root (TFLite 2.14) cannot be built: $$(tail -n 1 $(SID_O)/root.log)"; \
		echo "$@: 0 passed, 0 failed, 1 skipped"; exit 0; fi; \
	bash tests/vm/sid-root.sh --run sh tests/delegate/newer-sid.sh $(SID_O)

check-models: check-models-tflite
CHECK_TARGETS += check-delegate check-delegate-newer
