# SPDX-License-Identifier: MIT
#
# riscv64 side of run-vm.sh / lint-kernel.sh (sourced after common.sh).
# riscv64_kernel sets KVER KDIR KIMAGE MODROOT KMAKE_ARGS from the cached
# build of riscv64-kernel.sh (built now, or waited for if a background
# build holds the lock); VM_KVARIANT=debug selects the debug kernel
# (tests/vm/riscv64/e1npu-debug.config). busybox_riscv64 sets BUSYBOX.

riscv64_kernel() {
	local kc
	# shellcheck disable=SC2086
	kc=$("$VM_DIR/riscv64-kernel.sh" ${VM_KVARIANT:-}) || die "riscv64 kernel build failed"
	KVER=$(cat "$kc/kernel.release")
	KDIR="$kc/obj"
	KIMAGE="$kc/Image"
	MODROOT="$kc/modroot"
	KMAKE_ARGS=(ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu-)
	msg "riscv64 kernel: $KVER ($kc)"
}

# Debian 12 has no riscv64 port, so busybox is cross-built (static) from
# Debian's busybox source package, fetched with apt-get source through a
# private deb-src list (the host's apt configuration is not touched).
_apt_src() {
	local aptd="$E1NPU_CACHE/apt-src"
	apt-get -q -o Dir::Etc::SourceList="$aptd/sources.list" \
		-o Dir::Etc::SourceParts="$aptd/parts" \
		-o Dir::State::Lists="$aptd/lists" \
		-o Dir::Cache="$aptd/cache" "$@"
}

_busybox_riscv64_build() {
	local srcver=$1 dir=$2 aptd="$E1NPU_CACHE/apt-src" t0 b p
	[ -x "$dir/busybox" ] && return 0
	t0=$(now)
	mkdir -p "$aptd/parts" "$aptd/lists/partial" "$aptd/cache/archives/partial"
	# deb-src twins of the host's deb lines for this release
	apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 'Created-By: Packages' |
		sort -u | while read -r uri rel; do
			echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $rel main"
		done >"$aptd/sources.list"
	[ -s "$aptd/sources.list" ] || die "no apt sources to derive a deb-src line from"
	_apt_src update >"$aptd/update.log" 2>&1 || { cat "$aptd/update.log" >&2; die "apt-get update (deb-src) failed"; }
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	chown _apt "$dir.tmp" 2>/dev/null || true
	(cd "$dir.tmp" && _apt_src source --download-only "busybox=$srcver" >fetch.log 2>&1) ||
		{ cat "$dir.tmp/fetch.log" >&2; die "apt-get source busybox=$srcver failed"; }
	b="$dir.tmp/src"
	mkdir -p "$b"
	tar -xf "$dir.tmp"/busybox_*.orig.tar.* -C "$b" --strip-components=1
	tar -xf "$dir.tmp"/busybox_*.debian.tar.* -C "$b"
	if [ -f "$b/debian/patches/series" ]; then
		grep -v -E '^\s*(#|$)' "$b/debian/patches/series" | while read -r p _; do
			patch -d "$b" -p1 -s --forward <"$b/debian/patches/$p" ||
				die "busybox: Debian patch $p does not apply"
		done
	fi
	msg "riscv64: cross-building static busybox $srcver (one time; log $dir.tmp/build.log)"
	{
		make -C "$b" ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu- defconfig &&
		sed -i -e 's/^# CONFIG_STATIC is not set/CONFIG_STATIC=y/' \
		       -e 's/^CONFIG_TC=y/# CONFIG_TC is not set/' "$b/.config" &&
		{ yes '' || true; } | make -C "$b" ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu- oldconfig &&
		make -C "$b" ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu- -j2 busybox
	} >"$dir.tmp/build.log" 2>&1 || { tail -n 30 "$dir.tmp/build.log" >&2; die "busybox riscv64 build failed"; }
	mkdir -p "$dir"
	cp "$b/busybox" "$dir/busybox"
	rm -rf "$dir.tmp"
	msg "riscv64: busybox built in $(elapsed "$t0") s"
}

busybox_riscv64() {
	local srcver dir
	if [ "${E1NPU_OFFLINE:-0}" = 1 ]; then
		dir=$(ls -d "$E1NPU_CACHE"/busybox/riscv64-*/ 2>/dev/null | sort -V | tail -n 1)
		[ -n "$dir" ] || die "offline and no riscv64 busybox in the cache"
		dir=${dir%/}
	else
		srcver=$(apt-cache show --no-all-versions busybox-static |
			sed -n 's/^Source: busybox (\(.*\))$/\1/p' | head -n 1)
		[ -n "$srcver" ] || srcver=$(apt_version busybox-static)
		dir="$E1NPU_CACHE/busybox/riscv64-${srcver//:/_}"
		mkdir -p "$E1NPU_CACHE/busybox"
		with_lock busybox-riscv64 _busybox_riscv64_build "$srcver" "$dir"
	fi
	BUSYBOX="$dir/busybox"
}
