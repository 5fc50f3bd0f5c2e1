# SPDX-License-Identifier: MIT
#
# Debian binary packages of the stack (tools/deb/mkdeb.sh,
# Documentation/packaging.md): libe1npu0, libe1npu-dev, e1npu-tools,
# libe1npu-tflite-delegate, e1npu-dkms, into $(DEB_DIR) (default $(O)/deb).
#   make deb                      the build machine's architecture (amd64)
#   make deb CROSS_COMPILE=riscv64-linux-gnu- SYSROOT=DIR [DEB_ARCH=riscv64]
#                                 a cross build (DEB_ARCH from $(CC) -dumpmachine)
#   make deb-riscv64 SYSROOT=DIR  the same for riscv64, into $(O)/deb-riscv64
#   make check-deb                the native packages: lintian, contents,
#                                 symbols, control fields, reproducibility
#   make check-deb-riscv64 SYSROOT=DIR   the same checks on the riscv64
#                                 packages (not in make check: the board
#                                 test builds and installs them)
# Each build has its own build tree ($(DEB_DIR)/obj): the packages are
# compiled with dpkg-buildflags' hardening flags, not the tree's -O2 -g.

DEB_ARCH     ?=
DEB_REVISION ?= 1
DEB_DIR      ?= $(O)/deb
DEB_RISCV64_CROSS ?= riscv64-linux-gnu-

.PHONY: deb deb-riscv64 check-deb check-deb-riscv64
deb:
	+@$(DEPS) deb
	+@MAKE="$(MAKE)" CC="$(CC)" CROSS_COMPILE="$(CROSS_COMPILE)" \
		E1NPU_VERSION="$(E1NPU_VERSION)" DEB_REVISION="$(DEB_REVISION)" \
		DEB_ARCH="$(DEB_ARCH)" DEB_DIR="$(DEB_DIR)" tools/deb/mkdeb.sh

deb-riscv64:
	+@$(DEPS) deb-riscv64
	@[ -n "$(SYSROOT)" ] || { echo "deb-riscv64: set SYSROOT=<riscv64 sysroot> (e.g. \$$(bash tests/vm/cross-deps.sh riscv64))" >&2; exit 1; }
	+@$(MAKE) --no-print-directory deb CROSS_COMPILE=$(DEB_RISCV64_CROSS) \
		DEB_ARCH=riscv64 DEB_DIR=$(O)/deb-riscv64

# The native packages, built twice (the second time in $(O)/deb-repro, to
# compare the .debs byte for byte), then checked by check-deb.sh.
# With the sid root's ONNX Runtime headers (tests/vm/sid-root.sh, as
# check-ort builds it) e1npu-onnxruntime-ep is built and checked too.
check-deb:
	+@$(DEPS) deb
	+@inc=$$($(SID_ROOT_SH) --print 2>/dev/null)/usr/include/onnxruntime; \
	[ -f "$$inc/onnxruntime_ep_c_api.h" ] || { echo "check-deb: no sid root with ONNX Runtime's headers: e1npu-onnxruntime-ep not built"; inc=; }; \
	$(MAKE) --no-print-directory deb DEB_DIR=$(O)/deb ORT_INCDIR=$$inc && \
	$(MAKE) --no-print-directory deb DEB_DIR=$(O)/deb-repro ORT_INCDIR=$$inc >/dev/null
	@tools/deb/check-deb.sh $(O)/deb $(O)/deb-repro $(E1NPU_VERSION)-$(DEB_REVISION)

CHECK_TARGETS += check-deb

check-deb-riscv64:
	+@$(MAKE) --no-print-directory deb-riscv64
	+@$(MAKE) --no-print-directory deb-riscv64 O=$(O)/repro >/dev/null
	@DEB_ARCH=riscv64 CROSS_COMPILE=$(DEB_RISCV64_CROSS) tools/deb/check-deb.sh \
		$(O)/deb-riscv64 $(O)/repro/deb-riscv64 $(E1NPU_VERSION)-$(DEB_REVISION)
