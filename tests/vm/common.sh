# SPDX-License-Identifier: MIT
#
# Shared helpers for the tests/vm scripts (sourced, bash).
#
# Environment:
#   E1NPU_CACHE     cache for .debs, unpacked kernels, the riscv64 kernel
#                   build (default /var/cache/e1npu; never inside the tree)
#   E1NPU_OFFLINE=1 never ask apt; use what the cache holds
#   O               build dir of the top-level make (default build)

set -euo pipefail

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$VM_DIR/../.." && pwd)
E1NPU_CACHE=${E1NPU_CACHE:-/var/cache/e1npu}
O=${O:-build}
case "$O" in /*) ;; *) O="$TOP/$O" ;; esac
VM_OUT="$O/vm"
# The top-level make's command-line variables (O=...) must not leak into
# the kernel builds we start.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES GNUMAKEFLAGS

msg()  { printf '[vm %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
warn() { printf '[vm %s] WARNING: %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die()  { printf '[vm %s] ERROR: %s\n' "$(date +%H:%M:%S)" "$*" >&2; exit 1; }

# now: seconds since the epoch with fractions; elapsed START
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# run_logged LOG CMD...: run CMD with its output in LOG; on failure print
# the tail of LOG and return the status.
run_logged() {
	local log=$1 rc=0
	shift
	mkdir -p "$(dirname "$log")"
	"$@" >"$log" 2>&1 || rc=$?
	if [ "$rc" != 0 ]; then
		warn "command failed ($rc): $*"
		warn "last 40 lines of $log:"
		tail -n 40 "$log" | sed 's/^/    | /' >&2
	fi
	return "$rc"
}

cache_init() {
	mkdir -p "$E1NPU_CACHE" "$E1NPU_CACHE/debs" ||
		die "cannot create cache dir $E1NPU_CACHE (set E1NPU_CACHE)"
}

# apt_newest REGEX: newest package name matching the anchored extended
# REGEX known to apt (runs apt-get update once if nothing matches).
APT_UPDATED=0
apt_newest() {
	local re=$1 prefix=$2 names
	names=$(apt-cache pkgnames "$prefix" 2>/dev/null | grep -E "^$re\$" | sort -V || true)
	if [ -z "$names" ] && [ "$APT_UPDATED" = 0 ] && [ "${E1NPU_OFFLINE:-0}" != 1 ]; then
		msg "apt-get update (no package matching $re known yet)" >&2
		apt-get update -q >/dev/null 2>&1 || warn "apt-get update failed"
		APT_UPDATED=1
		names=$(apt-cache pkgnames "$prefix" 2>/dev/null | grep -E "^$re\$" | sort -V || true)
	fi
	printf '%s\n' "$names" | tail -n 1
}

# apt_version PKG: candidate version of PKG
apt_version() {
	apt-cache show --no-all-versions "$1" 2>/dev/null |
		sed -n 's/^Version: //p' | head -n 1
}

# deb_file PKG VERSION: the cached .deb of PKG at VERSION (downloaded if
# missing); prints its path.
deb_file() {
	local pkg=$1 ver=$2 f tmp
	# apt-get download escapes ':' of epochs as %3a
	f="$E1NPU_CACHE/debs/${pkg}_${ver//:/%3a}_"
	for cand in "$f"*.deb; do
		[ -f "$cand" ] && { echo "$cand"; return 0; }
	done
	[ "${E1NPU_OFFLINE:-0}" = 1 ] && die "offline and $pkg $ver is not in $E1NPU_CACHE/debs"
	tmp=$(mktemp -d "$E1NPU_CACHE/debs/.dl.XXXXXX")
	chmod 755 "$tmp"
	chown _apt "$tmp" 2>/dev/null || true
	msg "downloading $pkg=$ver" >&2
	(cd "$tmp" && apt-get download -q "$pkg=$ver" >/dev/null 2>&1) ||
		{ rm -rf "$tmp"; die "apt-get download $pkg=$ver failed"; }
	mv "$tmp"/*.deb "$E1NPU_CACHE/debs/"
	rmdir "$tmp"
	for cand in "$f"*.deb; do
		[ -f "$cand" ] && { echo "$cand"; return 0; }
	done
	die "downloaded $pkg but cannot find it in $E1NPU_CACHE/debs"
}

# with_lock NAME CMD...: run CMD holding an exclusive flock on
# $E1NPU_CACHE/NAME.lock (waits for a concurrent holder).
with_lock() {
	local name=$1
	shift
	local lock="$E1NPU_CACHE/$name.lock"
	(
		if ! flock -n 9; then
			msg "waiting for lock $lock (another build is using it)" >&2
			flock 9
		fi
		"$@"
	) 9>"$lock"
}

# linux_source_version: Debian version of linux-source-6.12 (candidate or
# newest cached when offline).
linux_source_version() {
	local v=""
	[ "${E1NPU_OFFLINE:-0}" = 1 ] || v=$(apt_version linux-source-6.12)
	if [ -z "$v" ] && [ "${E1NPU_OFFLINE:-0}" != 1 ] && [ "$APT_UPDATED" = 0 ]; then
		apt-get update -q >/dev/null 2>&1 || true
		APT_UPDATED=1
		v=$(apt_version linux-source-6.12)
	fi
	if [ -z "$v" ]; then
		v=$(ls "$E1NPU_CACHE/src" 2>/dev/null | sed -n 's/^linux-source-//p' | sort -V | tail -n 1 || true)
	fi
	[ -n "$v" ] || die "cannot find linux-source-6.12 in apt's lists or $E1NPU_CACHE/src: Debian 12 ships it in bookworm-security (a fresh install's sources have 'deb http://deb.debian.org/debian-security bookworm-security main')"
	echo "$v"
}

# linux_source_tree: unpack Debian's linux-source-6.12 into the cache once
# (pristine; builds use O=); prints the source dir.
_unpack_source() {
	local ver=$1 dir=$2 deb t0
	[ -f "$dir/.e1npu-unpacked" ] && return 0
	deb=$(deb_file linux-source-6.12 "$ver")
	t0=$(now)
	msg "unpacking linux-source-6.12 $ver (one time, ~1 min)" >&2
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir.tmp" ./usr/src/linux-source-6.12.tar.xz
	tar -xJf "$dir.tmp/usr/src/linux-source-6.12.tar.xz" -C "$dir.tmp"
	mv "$dir.tmp/linux-source-6.12" "$dir"
	rm -rf "$dir.tmp"
	touch "$dir/.e1npu-unpacked"
	msg "linux-source unpacked in $(elapsed "$t0") s" >&2
}
linux_source_tree() {
	local ver dir
	ver=$(linux_source_version)
	dir="$E1NPU_CACHE/src/linux-source-$ver"
	mkdir -p "$E1NPU_CACHE/src"
	with_lock src _unpack_source "$ver" "$dir" >&2
	echo "$dir"
}

# guest_cc ARCH: sets GUEST_CC, the compiler for static guest programs
guest_cc() {
	case "$1" in
	x86_64) GUEST_CC=${VM_X86_CC:-gcc} ;;
	riscv64) GUEST_CC=${VM_RISCV_CC:-riscv64-linux-gnu-gcc} ;;
	esac
}

# busybox_static ARCH: sets BUSYBOX to a static busybox for the guest.
# x86_64: Debian's busybox-static, unpacked (not installed) into the cache.
# riscv64: bookworm has no riscv64 port, so busybox is cross-built from
# Debian's busybox source package (busybox_riscv64, kernel-riscv64.sh).
_busybox_unpack() {
	local ver=$1 dir=$2 deb
	[ -x "$dir/busybox" ] && return 0
	deb=$(deb_file busybox-static "$ver")
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	dpkg-deb -x "$deb" "$dir.tmp/root"
	mkdir -p "$dir"
	cp "$dir.tmp/root/bin/busybox" "$dir/busybox"
	rm -rf "$dir.tmp"
}
busybox_static() {
	local ver dir
	case "$1" in
	x86_64)
		if [ "${E1NPU_OFFLINE:-0}" = 1 ]; then
			dir=$(ls -d "$E1NPU_CACHE"/busybox/amd64-*/ 2>/dev/null | sort -V | tail -n 1 || true)
			[ -n "$dir" ] || die "offline and no busybox in the cache"
			dir=${dir%/}
		else
			ver=$(apt_version busybox-static)
			[ -n "$ver" ] || die "apt knows no busybox-static"
			dir="$E1NPU_CACHE/busybox/amd64-${ver//:/_}"
			with_lock busybox _busybox_unpack "$ver" "$dir"
		fi
		BUSYBOX="$dir/busybox"
		;;
	riscv64)
		busybox_riscv64
		;;
	esac
	file -L "$BUSYBOX" | grep -q 'statically linked' ||
		die "$BUSYBOX is not a static binary"
}
