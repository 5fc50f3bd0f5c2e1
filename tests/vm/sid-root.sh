#!/bin/bash
# SPDX-License-Identifier: MIT
#
# sid-root.sh: a Debian sid (unstable) amd64 root file system with the
# frameworks people deploy with today, for the tests that compare e1 with
# them: ONNX Runtime 1.23 (the plugin EP API, C headers and Python),
# ONNX with its backend node tests, TFLite 2.14 (C API, external delegate).
# Debian 12 has none of these and sid's libraries need sid's C library, so
# they run here, in a chroot, never on the host. The host's apt
# configuration and dpkg database are never touched.
#
#   sid-root.sh [--print]   build once (cached, locked), print the root's path
#   sid-root.sh --run CMD…  run CMD in the root (/proc, /sys, /dev, /tmp
#                           bound; the repository bound at /src; cwd /src)
#   sid-root.sh --versions  the framework packages' versions in the root
#
# Cached in $E1NPU_CACHE/sid/root-<key>: key = this script's hash (its
# package list). sid moves daily; the root is what sid had on the day it
# was built, its versions in root/E1NPU-VERSIONS (printed by --versions
# and by the tests that use it). E1NPU_SID_REFRESH=1 builds it anew.
# ~1 min and ~1 GB on this machine.
. "$(dirname "$0")/common.sh"

SID_SUITE=sid
# The frameworks, and what builds the project inside the root (its make
# and compiler, libdrm, libudev, cmocka: the EP and the TFLite programs
# link sid's libraries, so they are built against sid's headers here).
SID_PKGS=(ca-certificates gcc g++ make pkg-config python3 python3-numpy
	libonnxruntime-dev python3-onnxruntime python3-onnx libonnx-testdata
	libtensorflow-lite-dev
	libdrm-dev libudev-dev libcmocka-dev libpng-dev libjpeg-dev)
# the framework packages whose versions the tests print
SID_VERSIONED=(libonnxruntime-dev python3-onnxruntime python3-onnx libonnx-testdata
	libtensorflow-lite-dev)

sid_mirror() {
	local m
	m=$(apt-get indextargets --format '$(REPO_URI)' 'Created-By: Packages' 2>/dev/null |
		grep -v -E 'security|updates' | sort -u | head -n 1)
	echo "${E1NPU_DEBIAN_MIRROR:-${m:-http://deb.debian.org/debian/}}"
}

sid_key() {
	sha256sum "${BASH_SOURCE[0]}" | cut -c1-16
}

SID_DIR="$E1NPU_CACHE/sid"
SID_ROOT="$SID_DIR/root-$(sid_key)"

_sid_build() {
	local r=$1 w="$1.tmp" mirror t0
	if [ -f "$r/E1NPU-VERSIONS" ] && [ "${E1NPU_SID_REFRESH:-0}" != 1 ]; then
		return 0
	fi
	[ "${E1NPU_OFFLINE:-0}" = 1 ] && die "sid root: offline and $r is not built"
	command -v debootstrap >/dev/null || die "sid root: debootstrap is not installed (tools/devel/install-deps.sh check)"
	t0=$(now)
	mirror=$(sid_mirror)
	rm -rf "$w"
	mkdir -p "$w"
	msg "sid root: debootstrap $SID_SUITE amd64 minbase from $mirror (log $w.log)" >&2
	run_logged "$w.log" debootstrap --variant=minbase --arch=amd64 \
		--keyring=/usr/share/keyrings/debian-archive-keyring.gpg \
		"$SID_SUITE" "$w" "$mirror" ||
		die "sid root: debootstrap failed (log $w.log)"
	# sid's Release file is only valid a week; this machine's clock may be
	# ahead of it
	echo 'Acquire::Check-Valid-Until "false";' >"$w/etc/apt/apt.conf.d/99e1npu"
	cp /etc/resolv.conf "$w/etc/resolv.conf" 2>/dev/null || true
	msg "sid root: installing ${SID_PKGS[*]}" >&2
	_sid_mounts "$w"
	if ! run_logged "$w.install.log" chroot "$w" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive sh -c \
		"apt-get update -q && apt-get install -y -q --no-install-recommends ${SID_PKGS[*]} && apt-get clean"; then
		_sid_umounts "$w"
		die "sid root: apt-get install failed (log $w.install.log)"
	fi
	_sid_umounts "$w"
	chroot "$w" dpkg-query -W -f='${Package}=${Version}\n' "${SID_VERSIONED[@]}" \
		>"$w/E1NPU-VERSIONS" || die "sid root: a framework package is missing"
	rm -rf "$r"
	mv "$w" "$r"
	msg "sid root: built in $(elapsed "$t0") s: $(tr '\n' ' ' <"$r/E1NPU-VERSIONS")" >&2
}

# _sid_mounts ROOT: the kernel file systems and a private /tmp
_sid_mounts() {
	local r=$1 d
	for d in proc sys dev dev/pts tmp src; do mkdir -p "$r/$d"; done
	mount -t proc proc "$r/proc"
	mount --rbind /sys "$r/sys" && mount --make-rslave "$r/sys"
	mount --bind /dev "$r/dev"
	mount -t devpts -o newinstance,ptmxmode=0666 devpts "$r/dev/pts" 2>/dev/null || true
	mount -t tmpfs tmpfs "$r/tmp"
}

_sid_umounts() {
	local r=$1 d
	for d in src tmp dev/pts dev sys proc; do
		mountpoint -q "$r/$d" && umount -l "$r/$d"
	done
	return 0
}

sid_root() {
	mkdir -p "$SID_DIR"
	with_lock sid _sid_build "$SID_ROOT"
	echo "$SID_ROOT"
}

# sid_run CMD...: CMD inside the root with the repository at /src. Each
# run has its own mount namespace (unshare -m), so concurrent runs and an
# interrupted one leave no mounts behind on the host.
sid_run() {
	local r
	r=$(sid_root)
	unshare -m --propagation private /bin/bash -c '
		set -e
		r=$1 top=$2
		shift 2
		for d in proc sys dev tmp src; do mkdir -p "$r/$d"; done
		mount -t proc proc "$r/proc"
		mount --rbind /sys "$r/sys"
		mount --rbind /dev "$r/dev"
		mount -t tmpfs tmpfs "$r/tmp"
		mount --bind "$top" "$r/src"
		# shared/ beside the checkout, where tests read data from
		if [ -d "$top/../shared" ]; then
			mkdir -p "$r/shared"
			mount --bind "$top/../shared" "$r/shared"
		fi
		exec chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/tmp LANG=C.UTF-8 SHARED_DIR=/shared \
			${E1NPU_SID_ENV:-} /bin/sh -c "cd /src && exec \"\$@\"" sh "$@"
	' sh "$r" "$TOP" "$@"
}

case "${1:---print}" in
--print) sid_root ;;
--versions) cat "$(sid_root)/E1NPU-VERSIONS" ;;
--run) shift; [ $# -gt 0 ] || die "sid-root.sh --run: no command"; sid_run "$@" ;;
-h|--help) sed -n '3,22p' "$0" | sed 's/^# \{0,1\}//' ;;
*) die "sid-root.sh: unknown argument '$1' (--print, --versions, --run CMD..., --help)" ;;
esac
