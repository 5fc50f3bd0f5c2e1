#!/bin/bash
# SPDX-License-Identifier: MIT
#
# linux-mainline.sh [tree|build]: the newest mainline kernel Debian ships
# as source, for checking the driver against today's kernel (issue 20 §2).
# Run, or sourced after common.sh (then call the functions).
#
#   mainline_tree    Debian's linux-source-7.3 from trixie-backports (or,
#                    when absent, sid's linux-source-7.3, then sid's 7.2;
#                    E1NPU_MAINLINE="7.3 7.2" is the order tried), fetched
#                    through a private apt configuration
#                    ($E1NPU_CACHE/mainline/apt: the host's apt sources are
#                    never touched) and unpacked once into
#                    $E1NPU_CACHE/mainline/linux-<Debian version>/. The tree
#                    stays pristine: builds use O=. Sets MAINLINE_DIR,
#                    MAINLINE_VER (kernel version, 7.3.4), MAINLINE_DEBVER
#                    (Debian version) and MAINLINE_PKG.
#   mainline_build   mainline_tree, then a host-arch (x86_64) build of it in
#                    $E1NPU_CACHE/mainline/obj-<Debian version>-<hash>/:
#                    tinyconfig + tests/vm/mainline/x86_64.config (DRM,
#                    DRM_ACCEL, gpu-sched, OF, PM, debugfs), vmlinux and
#                    modules (~2 min on 2 cores), so an out-of-tree M= build
#                    gets full modpost symbol resolution. hash = sha256 of
#                    the fragment + the compiler's version. Sets MAINLINE_OBJ
#                    (KDIR for M= builds) and MAINLINE_ARCH.
#   mainline_sparse  a sparse the tree accepts (scripts/checker-valid.sh:
#                    7.x's headers need __typeof_unqual__, which Debian 12's
#                    sparse 0.6.4 lacks): the host's if it passes, else
#                    Debian sid's sparse source package (0.6.5~rc1) built
#                    once into $E1NPU_CACHE/mainline/sparse-<version>/ (a
#                    few seconds; not installed). Sets MAINLINE_SPARSE.
# Run: prints the source tree's path (one line on stdout; messages go to
# stderr); "build" also builds the object tree and sparse.
# E1NPU_OFFLINE=1: no apt; the newest cached tree (and build) is used.

if ! declare -F msg >/dev/null; then
	. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
fi

ML_ROOT="$E1NPU_CACHE/mainline"
ML_APT="$ML_ROOT/apt"
ML_FRAG="$VM_DIR/mainline/x86_64.config"
ML_KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
ML_MIRROR=${E1NPU_DEBIAN_MIRROR:-http://deb.debian.org/debian}

_ml_msg() { msg "$@" >&2; }

# apt-get / apt-cache on the private lists only
_ml_apt() {
	apt-get -q -o Dir::Etc::SourceList="$ML_APT/sources.list" \
		-o Dir::Etc::SourceParts="$ML_APT/parts" \
		-o Dir::State::Lists="$ML_APT/lists" \
		-o Dir::Cache="$ML_APT/cache" -o Acquire::Languages=none "$@"
}
_ml_apt_cache() {
	apt-cache -o Dir::Etc::SourceList="$ML_APT/sources.list" \
		-o Dir::Etc::SourceParts="$ML_APT/parts" \
		-o Dir::State::Lists="$ML_APT/lists" \
		-o Dir::Cache="$ML_APT/cache" "$@"
}

# _ml_apt_update LINE...: the private sources.list is exactly LINEs
# (signed by Debian's archive keyring); apt-get update on it
_ml_apt_update_locked() {
	mkdir -p "$ML_APT/parts" "$ML_APT/lists/partial" "$ML_APT/cache/archives/partial"
	printf '%s\n' "$@" >"$ML_APT/sources.list"
	_ml_apt update >"$ML_APT/update.log" 2>&1 ||
		{ cat "$ML_APT/update.log" >&2; die "mainline: apt-get update (private lists $ML_APT) failed"; }
}
ML_APT_STATE=""
_ml_apt_update() {
	local want="$*"
	[ "$ML_APT_STATE" = "$want" ] && return 0
	with_lock mainline-apt _ml_apt_update_locked "$@"
	ML_APT_STATE=$want
}
_ml_line() { # TYPE SUITE
	echo "$1 [signed-by=$ML_KEYRING] $ML_MIRROR $2 main"
}

# _ml_pick: sets MAINLINE_PKG MAINLINE_DEBVER MAINLINE_SUITE
_ml_pick() {
	local series suite pkg v
	for series in ${E1NPU_MAINLINE:-7.3 7.2}; do
		pkg="linux-source-$series"
		for suite in trixie-backports sid; do
			if [ "$suite" = sid ]; then
				_ml_apt_update "$(_ml_line deb trixie-backports)" "$(_ml_line deb sid)"
			else
				_ml_apt_update "$(_ml_line deb trixie-backports)"
			fi
			v=$(_ml_apt_cache madison "$pkg" 2>/dev/null |
				awk -F' *[|] *' -v s="$suite" '$3 ~ (" " s "/") { print $2 }' |
				sort -V | tail -n 1)
			if [ -n "$v" ]; then
				MAINLINE_PKG=$pkg
				MAINLINE_DEBVER=$v
				MAINLINE_SUITE=$suite
				return 0
			fi
			_ml_msg "mainline: no $pkg in Debian $suite"
		done
	done
	die "mainline: none of linux-source-{${E1NPU_MAINLINE:-7.3 7.2}} in trixie-backports or sid"
}

# _ml_deb PKG VER: the cached .deb (downloaded through the private lists)
_ml_deb() {
	local pkg=$1 ver=$2 f cand tmp
	f="$E1NPU_CACHE/debs/${pkg}_${ver//:/%3a}_"
	for cand in "$f"*.deb; do
		[ -f "$cand" ] && { echo "$cand"; return 0; }
	done
	mkdir -p "$E1NPU_CACHE/debs"
	tmp=$(mktemp -d "$E1NPU_CACHE/debs/.dl.XXXXXX")
	chmod 755 "$tmp"
	chown _apt "$tmp" 2>/dev/null || true
	_ml_msg "mainline: downloading $pkg=$ver"
	(cd "$tmp" && _ml_apt download "$pkg=$ver" >download.log 2>&1) ||
		{ cat "$tmp/download.log" >&2; rm -rf "$tmp"; die "mainline: apt-get download $pkg=$ver failed"; }
	mv "$tmp"/*.deb "$E1NPU_CACHE/debs/"
	rm -rf "$tmp"
	for cand in "$f"*.deb; do
		[ -f "$cand" ] && { echo "$cand"; return 0; }
	done
	die "mainline: downloaded $pkg but cannot find it in $E1NPU_CACHE/debs"
}

_ml_unpack() {
	local pkg=$1 ver=$2 dir=$3 deb series t0
	[ -f "$dir/.e1npu-unpacked" ] && return 0
	t0=$(now)
	deb=$(_ml_deb "$pkg" "$ver")
	series=${pkg#linux-source-}
	_ml_msg "mainline: unpacking $pkg $ver into $dir (one time)"
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir.tmp" "./usr/src/linux-source-$series.tar.xz"
	tar -xJf "$dir.tmp/usr/src/linux-source-$series.tar.xz" -C "$dir.tmp"
	mv "$dir.tmp/linux-source-$series" "$dir"
	rm -rf "$dir.tmp"
	echo "$pkg $ver" >"$dir/.e1npu-source"
	echo "$(elapsed "$t0")" >"$dir/.e1npu-unpack-seconds"
	# last: the build checks that nothing in the tree is newer than this
	touch "$dir/.e1npu-unpacked"
	_ml_msg "mainline: $pkg $ver fetched+unpacked in $(elapsed "$t0") s"
}

_ml_kernelversion() {
	awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 } END { print v "." p "." s }' "$1/Makefile"
}

mainline_tree() {
	local dir
	cache_init
	mkdir -p "$ML_ROOT"
	if [ "${E1NPU_OFFLINE:-0}" = 1 ]; then
		dir=$(ls -d "$ML_ROOT"/linux-*/.e1npu-unpacked 2>/dev/null | sort -V | tail -n 1 || true)
		[ -n "$dir" ] || die "mainline: offline and no unpacked tree in $ML_ROOT"
		dir=$(dirname "$dir")
		read -r MAINLINE_PKG MAINLINE_DEBVER <"$dir/.e1npu-source"
		MAINLINE_SUITE=cache
	else
		_ml_pick
		dir="$ML_ROOT/linux-${MAINLINE_DEBVER//:/_}"
		with_lock mainline _ml_unpack "$MAINLINE_PKG" "$MAINLINE_DEBVER" "$dir"
	fi
	[ -f "$dir/.e1npu-unpacked" ] && [ -f "$dir/Makefile" ] ||
		die "mainline: $dir is incomplete; remove it and retry"
	MAINLINE_DIR=$dir
	MAINLINE_VER=$(_ml_kernelversion "$dir")
	_ml_msg "mainline: Linux $MAINLINE_VER ($MAINLINE_PKG $MAINLINE_DEBVER from Debian $MAINLINE_SUITE) in $MAINLINE_DIR"
}

_ml_build() {
	local src=$1 obj=$2 arch=$3 t0 missing opt want have stray
	[ -f "$obj/.e1npu-built" ] && return 0
	t0=$(now)
	_ml_msg "mainline: building Linux $MAINLINE_VER ($arch, tinyconfig + $(basename "$ML_FRAG"), vmlinux + modules, -j$(nproc), ~2 min on 2 cores; log $obj/build.log)"
	rm -rf "$obj"
	mkdir -p "$obj"
	{
		make -C "$src" O="$obj" ARCH="$arch" tinyconfig &&
		(cd "$obj" && KCONFIG_CONFIG=.config \
			"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" .config "$ML_FRAG") &&
		make -C "$src" O="$obj" ARCH="$arch" olddefconfig
	} >"$obj/config.log" 2>&1 || { tail -n 30 "$obj/config.log" >&2; die "mainline: configuration failed"; }
	missing=""
	while IFS='=' read -r opt want; do
		have=$(grep -E "^$opt=" "$obj/.config" | cut -d= -f2- || true)
		[ "$have" = "$want" ] || missing="$missing $opt=$want(got ${have:-unset})"
	done < <(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$ML_FRAG")
	[ -z "$missing" ] || die "mainline: options dropped by Kconfig:$missing (fix $ML_FRAG)"
	run_logged "$obj/build.log" make -C "$src" O="$obj" ARCH="$arch" -j"$(nproc)" vmlinux modules ||
		die "mainline: kernel build failed (log $obj/build.log)"
	[ -s "$obj/Module.symvers" ] || die "mainline: no Module.symvers in $obj"
	# O= builds never write to the source tree; prove it (the tree is
	# shared with whoever builds a patch series against it)
	stray=$(find "$src" -newer "$src/.e1npu-unpacked" ! -path "$src" -print -quit)
	[ -z "$stray" ] || die "mainline: the build modified the pristine tree $src ($stray)"
	echo "$(elapsed "$t0")" >"$obj/build-seconds"
	touch "$obj/.e1npu-built"
	_ml_msg "mainline: Linux $MAINLINE_VER built in $(elapsed "$t0") s ($obj)"
}

mainline_build() {
	local hash obj
	case "$(uname -m)" in
	x86_64) MAINLINE_ARCH=x86_64 ;;
	*) die "mainline: only an x86_64 host is supported (got $(uname -m))" ;;
	esac
	mainline_tree
	hash=$( (cat "$ML_FRAG"; gcc -dumpfullversion; ld --version | head -n 1) | sha256sum | cut -c1-12)
	obj="$ML_ROOT/obj-${MAINLINE_DEBVER//:/_}-$hash"
	if [ "${E1NPU_OFFLINE:-0}" = 1 ] && [ ! -f "$obj/.e1npu-built" ]; then
		_ml_msg "mainline: offline: building $obj from the cached tree"
	fi
	with_lock mainline-build _ml_build "$MAINLINE_DIR" "$obj" "$MAINLINE_ARCH"
	[ -f "$obj/.e1npu-built" ] || die "mainline: $obj not built"
	MAINLINE_OBJ=$obj
	_ml_msg "mainline: object tree $MAINLINE_OBJ (build $(cat "$obj/build-seconds") s)"
}

# _ml_sparse_ok SPARSE: the tree's own test of its checker
_ml_sparse_ok() {
	[ "$(sh "$MAINLINE_DIR/scripts/checker-valid.sh" "$1" --arch="${MAINLINE_ARCH:-x86_64}" \
		-mlittle-endian -m64 2>/dev/null)" = 1 ]
}

_ml_sparse_build() {
	local ver=$1 dir=$2 t0 p
	[ -x "$dir/sparse" ] && return 0
	t0=$(now)
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/src"
	chown _apt "$dir.tmp" 2>/dev/null || true
	(cd "$dir.tmp" && _ml_apt source --download-only "sparse=$ver" >fetch.log 2>&1) ||
		{ cat "$dir.tmp/fetch.log" >&2; die "mainline: apt-get source sparse=$ver failed"; }
	for p in "$dir.tmp"/sparse_*.orig.tar.*; do
		case "$p" in *.asc) ;; *) tar -xf "$p" -C "$dir.tmp/src" --strip-components=1 ;; esac
	done
	# Debian's patches only pin cgcc's compiler and the link flags: not
	# needed for the sparse binary, not applied.
	make -C "$dir.tmp/src" -j"$(nproc)" sparse >"$dir.tmp/build.log" 2>&1 ||
		{ tail -n 20 "$dir.tmp/build.log" >&2; die "mainline: sparse $ver build failed"; }
	mkdir -p "$dir"
	cp "$dir.tmp/src/sparse" "$dir/sparse"
	rm -rf "$dir.tmp"
	_ml_msg "mainline: sparse $ver (Debian sid's source) built in $(elapsed "$t0") s"
}

mainline_sparse() {
	local ver dir
	[ -n "${MAINLINE_DIR:-}" ] || mainline_tree
	if command -v sparse >/dev/null && _ml_sparse_ok sparse; then
		MAINLINE_SPARSE=$(command -v sparse)
		_ml_msg "mainline: the host's sparse passes Linux $MAINLINE_VER's checker-valid.sh"
		return 0
	fi
	_ml_msg "mainline: the host's sparse ($(sparse --version 2>/dev/null || echo none)) fails Linux $MAINLINE_VER's scripts/checker-valid.sh (no __typeof_unqual__): using Debian sid's sparse"
	# a cached build the tree accepts (apt is not asked again)
	for dir in $(ls -d "$ML_ROOT"/sparse-*/ 2>/dev/null | sort -rV); do
		dir=${dir%/}
		if [ -x "$dir/sparse" ] && _ml_sparse_ok "$dir/sparse"; then
			MAINLINE_SPARSE="$dir/sparse"
			_ml_msg "mainline: sparse $MAINLINE_SPARSE (cached)"
			return 0
		fi
	done
	[ "${E1NPU_OFFLINE:-0}" != 1 ] || die "mainline: offline and no usable sparse in $ML_ROOT"
	_ml_apt_update "$(_ml_line deb trixie-backports)" "$(_ml_line deb-src sid)"
	ver=$(_ml_apt_cache showsrc sparse 2>/dev/null | sed -n 's/^Version: //p' | sort -V | tail -n 1)
	[ -n "$ver" ] || die "mainline: no sparse source package in Debian sid"
	dir="$ML_ROOT/sparse-${ver//:/_}"
	with_lock mainline-sparse _ml_sparse_build "$ver" "$dir"
	_ml_sparse_ok "$dir/sparse" ||
		die "mainline: $dir/sparse fails Linux $MAINLINE_VER's scripts/checker-valid.sh"
	MAINLINE_SPARSE="$dir/sparse"
	_ml_msg "mainline: sparse $MAINLINE_SPARSE"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	case "${1:-tree}" in
	tree) mainline_tree ;;
	build) mainline_build; mainline_sparse ;;
	*) die "usage: linux-mainline.sh [tree|build]" ;;
	esac
	echo "$MAINLINE_DIR"
fi
