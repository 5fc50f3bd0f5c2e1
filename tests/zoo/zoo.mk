# SPDX-License-Identifier: MIT
#
# The model zoo (ZOO_DIR, $(SHARED_DIR)/zoo beside the checkout; its
# provenance table tests/data/zoo/README.md, its expectations
# tests/data/zoo/expect.txt): real quantized models from public
# repositories against real TFLite 2.2. SKIPPED, naming the path, without
# ZOO_DIR.
#   check-zoo   every ZOO_DIR/*.tflite: TFLite 2.2 + the e1npu
#       delegate vs TFLite 2.2 alone (byte-identical outputs; the default
#       run's nodes/partitions as expect.txt says; a second run with one
#       operator kept on TFLite), and libe1npu's own interpreter vs TFLite
#       2.2 (byte-identical, or refused with the reason expect.txt names),
#       on grace_hopper_128.bmp (image models) and ZOO_RANDOM seeded random
#       tensors; expect.txt's known differences are XFAILs, and any change
#       (a regression or an improvement) fails with "update expect.txt".
#       The delegate's partition cache (option cache_dir) on every model
#       (test-delegate --cache). Then the same under ASan+UBSan (one
#       random tensor), the expectation
#       machinery on deliberately wrong lines (it must fail), and the zoo's
#       bookkeeping (README row and expect.txt line per model, <= 8 MiB).
#   zoo-table   the markdown table of Documentation/tflite.md from a run.
# TFLite from tools/devel/fetch-tflite.sh (x86_64 only: elsewhere SKIPPED
# with its reason).

ZOO_META    := tests/data/zoo
ZOO_MODELS   = $(sort $(wildcard $(ZOO_DIR)/*.tflite))
ZOO_EXPECT  := $(ZOO_META)/expect.txt
ZOO_RANDOM  ?= 3
ZOO_ARGS     = --interp --expect $(ZOO_EXPECT) -i $(TEST_IMAGE)

.PHONY: check-zoo zoo-table
check-zoo: $(DELEGATE_TEST) $(DELEGATE_SO) $(DELEGATE_TEST_SAN) $(DELEGATE_SAN_SO) $(TEST_IMAGE)
	@mkdir -p $(O)/tests/zoo
	@$(call shared_skip,$@,$(ZOO_DIR) $(TEST_IMAGE)); \
	python3 tests/zoo/zoo_table.py --check $(ZOO_DIR) $(ZOO_META) || exit 1; \
	tfl=$$($(FETCH_TFLITE) 2>$(O)/tests/zoo/fetch.err) || { \
		echo "$@: SKIPPED: no TFLite 2.2 reference: $$(cat $(O)/tests/zoo/fetch.err)"; \
		echo "$@: 0 passed, 0 failed, 1 skipped"; exit 0; }; \
	echo "$@: $(words $(ZOO_MODELS)) models, TFLite 2.2 from $$tfl"; \
	$(DELEGATE_TEST) --tflite "$$tfl/lib/libtensorflowlite_c.so" --delegate $(DELEGATE_SO) \
		$(ZOO_ARGS) --cache -r $(ZOO_RANDOM) $(ZOO_MODELS) > $(O)/tests/zoo/zoo.log 2>&1; rc=$$?; \
	grep -v '^e1npu-delegate: device' $(O)/tests/zoo/zoo.log | grep -v '^ZOO|'; \
	[ $$rc -eq 0 ] || { echo "$@: FAILED (full log: $(O)/tests/zoo/zoo.log)"; exit 1; }; \
	echo "$@: under ASan+UBSan, one random tensor"; \
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(DELEGATE_TEST_SAN) --tflite "$$tfl/lib/libtensorflowlite_c.so" \
		--delegate $(DELEGATE_SAN_SO) $(ZOO_ARGS) -r 1 $(ZOO_MODELS) \
		> $(O)/tests/zoo/zoo-san.log 2>&1 || { \
		cat $(O)/tests/zoo/zoo-san.log; echo "$@: FAILED under ASan+UBSan"; exit 1; }; \
	tail -n 1 $(O)/tests/zoo/zoo-san.log; \
	echo "$@: wrong expectations must fail"; \
	sh tests/zoo/expect-selftest.sh $(DELEGATE_TEST) "$$tfl/lib/libtensorflowlite_c.so" \
		$(DELEGATE_SO) $(ZOO_DIR) $(O)/tests/zoo

# The table of Documentation/tflite.md, "The model zoo", from check-zoo's log.
zoo-table: check-zoo
	@$(call shared_skip,$@,$(ZOO_DIR)); \
	python3 tests/zoo/zoo_table.py $(ZOO_DIR) $(ZOO_META) $(O)/tests/zoo/zoo.log

CHECK_TARGETS += check-zoo
