#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Install the Debian 12 packages a make target needs, only if some are
# missing. Usage: install-deps.sh build|check|bench|vm|lint|dt|deb|deb-riscv64|torch
# (deb, deb-riscv64: tools/deb/). Set E1NPU_NO_APT=1 to only report what is missing.
set -eu

# libpng-dev, libjpeg62-turbo-dev: e1npu-classify reads PNG and JPEG.
# abigail-tools: the ABI baseline check (abidw, abidiff; tests/abi/).
build="gcc make pkg-config libcmocka-dev libdrm-dev libudev-dev python3 \
       libpng-dev libjpeg62-turbo-dev abigail-tools"
# Fuzzing (tests/fuzz/): clang with libFuzzer.
fuzz="clang libclang-rt-14-dev"
# The Debian board (tests/vm/debian-board.sh): debootstrap of Debian's
# riscv64 port, its second stage under qemu-user-static (binfmt-support),
# the root file system as an ext4 image (e2fsprogs' mke2fs -d), the board
# kernel's packages (make bindeb-pkg: dpkg-dev, fakeroot, and debhelper,
# whose dh_listpackages the kernel's debian/rules calls), a JPEG of the
# test image (cjpeg).
debian="debootstrap debian-archive-keyring qemu-user-static binfmt-support e2fsprogs \
    fakeroot debhelper libjpeg-turbo-progs"
# Kernel build, lint and QEMU system tests (tests/vm/).
# meson, ninja-build, cmake: the riscv64 libdrm and cmocka (tests/vm/cross-deps.sh).
# libglib2.0-dev, libpixman-1-dev, libfdt-dev: the virtual board's QEMU
# (tests/vm/qemu-build.sh, built from Debian's qemu source with the e1 NPU).
# qemu-system-data: OpenSBI for the board (-L /usr/share/qemu).
vm="libglib2.0-dev libpixman-1-dev libfdt-dev xz-utils zstd cpio kmod qemu-system-data \
    gcc-riscv64-linux-gnu libc6-dev-riscv64-cross bc bison flex libelf-dev \
    libssl-dev sparse rsync python3 file patch dpkg-dev meson ninja-build cmake \
    $debian"
bench="libdnnl-dev"
# Debian packages (tools/deb/, make deb / check-deb): dpkg-deb,
# dpkg-architecture, dpkg-buildflags, dpkg-shlibdeps, lintian; dkms: the
# check builds the e1npu-dkms source with dkms itself (private trees).
deb="dpkg-dev binutils lintian dkms"
# make deb-riscv64: the cross toolchain.
deb_riscv64="gcc-riscv64-linux-gnu libc6-dev-riscv64-cross binutils-riscv64-linux-gnu"
# The device tree binding's check (tests/kernel-tree/dt-binding-check.sh):
# the dt-schema tools, dtc, yamllint; python3-ply: checkpatch's SPDX
# check in the kernel series (tests/kernel-tree/kernel-series.sh).
dt="dt-schema device-tree-compiler yamllint python3-ply git"

# check-ort-models: a network trained and exported with PyTorch
# (tests/ort/torch_net.py; the sid root has no torch, Debian 12 has 1.13).
torch="python3-torch"

case "${1:-build}" in
build) pkgs="$build" ;;
bench) pkgs="$build $bench" ;;
vm|lint) pkgs="$build $vm" ;;
dt) pkgs="$dt" ;;
deb) pkgs="$build $deb" ;;
deb-riscv64) pkgs="$build $deb $deb_riscv64" ;;
torch) pkgs="$torch" ;;
check) pkgs="$build $vm $fuzz $dt $deb $torch" ;;
*) echo "install-deps.sh: unknown profile '$1' (build|check|bench|vm|lint|dt|deb|deb-riscv64|torch)" >&2; exit 2 ;;
esac

missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "${E1NPU_NO_APT:-0}" = 1 ] || [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: missing Debian packages:$missing" >&2
	echo "install-deps.sh: run as root: apt-get install$missing" >&2
	exit 1
fi
echo "install-deps.sh: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
