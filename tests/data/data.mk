# SPDX-License-Identifier: MIT
#
# Test data (tests/data/README.md): the models, labels and photo come from
# SHARED_DIR (../shared beside the checkout), never from the tree.
#   TEST_IMAGE        the photo at the small MobileNet's 128x128, made here
#                     from TEST_PHOTO by tests/data/mkimage.py (absent
#                     shared/: not made, and its users skip naming it)
#   check-tree-data   every binary file git tracks is on
#                     tests/data/binary-allow.txt (the project's own, each
#                     with its reason), and the check fails on one that is not.
#   check-noshared    the guests' file lists with SHARED_DIR absent: each
#                     file has a rule, none is read from shared/, the skip
#                     files name the absent model (tests/data/noshared-check.sh)

$(TEST_IMAGE): tests/data/mkimage.py $(wildcard $(TEST_PHOTO))
	@mkdir -p $(@D)
	@if [ -f '$(TEST_PHOTO)' ]; then python3 tests/data/mkimage.py '$(TEST_PHOTO)' $@; \
	else echo "$@: not made: $(TEST_PHOTO) absent (CI lays shared/ beside the checkout)"; fi

.PHONY: check-tree-data
check-tree-data:
	@tests/data/tree-data-check.sh tests/data/binary-allow.txt
	@set -e; d=$$(mktemp -d); trap 'rm -rf "$$d"' EXIT; \
	git init -q "$$d"; mkdir -p "$$d/tests/fuzz/corpus-fuzz-api-ops" "$$d/tests/data"; \
	printf 'seed\0' > "$$d/tests/fuzz/corpus-fuzz-api-ops/s"; \
	printf 'TFL3\0\0\0' > "$$d/tests/data/copied.tflite"; echo text > "$$d/tests/data/README.md"; \
	git -C "$$d" add .; \
	if tests/data/tree-data-check.sh tests/data/binary-allow.txt "$$d" > "$$d/log" 2>&1; then \
		cat "$$d/log"; echo "1 passed, 1 failed (check-tree-data: a copied .tflite was not caught)"; exit 1; fi; \
	if [ "$$(grep -c '^FAIL' "$$d/log")" = 1 ] && grep -q '^FAIL tree-data: tests/data/copied.tflite: ' "$$d/log"; then \
		echo "1 passed, 0 failed (check-tree-data: a copied .tflite fails the check)"; \
	else cat "$$d/log"; echo "0 passed, 1 failed (check-tree-data: the self-test's verdicts)"; exit 1; fi

CHECK_TARGETS += check-tree-data

.PHONY: check-noshared
check-noshared:
	@tests/data/noshared-check.sh

CHECK_TARGETS += check-noshared
