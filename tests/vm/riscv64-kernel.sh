#!/bin/bash
# SPDX-License-Identifier: MIT
#
# riscv64-kernel.sh [debug] [--background]: build (once, cached) a trimmed
# riscv64 6.12 kernel from Debian's linux-source-6.12 for the QEMU virt
# tests: tinyconfig + tests/vm/riscv64/e1npu.config (the platform) +
# kernel/e1npu.config (what the driver needs) (+ e1npu-debug.config
# for the debug variant: lockdep, KASAN, kmemleak, UBSAN, KUnit...),
# modules installed, full Module.symvers for out-of-tree modpost. Cached in
#   $E1NPU_CACHE/riscv64/kernel[-debug]-<source version>-<hash>/
# hash = sha256 of the config fragments + the cross compiler's version.
# The build holds an flock on the cache so concurrent runs wait for it.
# --background: start the build detached (log in the cache) and return.
# Prints the cache dir on stdout when done.
. "$(dirname "$0")/common.sh"

VARIANT=""
if [ "${1:-}" = debug ]; then
	VARIANT=debug
	shift
fi
FRAGS=("$VM_DIR/riscv64/e1npu.config" "$TOP/kernel/e1npu.config")
[ -z "$VARIANT" ] || FRAGS+=("$VM_DIR/riscv64/e1npu-$VARIANT.config")
CROSS=riscv64-linux-gnu-
KARGS=(ARCH=riscv CROSS_COMPILE=$CROSS)
NAME="riscv64${VARIANT:+ $VARIANT} kernel"

cache_init
SRCVER=$(linux_source_version)
HASH=$( (cat "${FRAGS[@]}"; ${CROSS}gcc -dumpfullversion) | sha256sum | cut -c1-12)
KC="$E1NPU_CACHE/riscv64/kernel${VARIANT:+-$VARIANT}-$SRCVER-$HASH"
mkdir -p "$E1NPU_CACHE/riscv64"

if [ "${1:-}" = --background ]; then
	if [ -f "$KC/.e1npu-built" ]; then
		msg "$NAME already cached: $KC"
		exit 0
	fi
	mkdir -p "$KC"
	msg "$NAME: building in the background (log $KC.bg.log)"
	setsid nohup "$VM_DIR/riscv64-kernel.sh" $VARIANT >"$KC.bg.log" 2>&1 </dev/null &
	exit 0
fi

# seed_obj DIR: start DIR from a copy of the newest earlier build of this
# variant and source version (another fragment hash), so that a config
# change rebuilds only what its options touch (Kbuild's fixdep tracks each
# object's CONFIG_ symbols) instead of the whole kernel (~75 min here)
seed_obj() {
	local prev
	# || true: on an empty cache ls finds nothing, and under pipefail the
	# failed pipeline would end the script here (set -e) without a word
	prev=$(ls -td "$E1NPU_CACHE/riscv64/kernel${VARIANT:+-$VARIANT}-$SRCVER"-*/.e1npu-built 2>/dev/null |
		head -n 1 || true)
	[ -n "$prev" ] || return 0
	prev=${prev%/.e1npu-built}
	[ "$prev" != "$KC" ] && [ -d "$prev/obj" ] || return 0
	msg "$NAME: starting from $prev/obj (incremental)" >&2
	mkdir -p "${1%/*}"
	cp -a "$prev/obj" "$1"
}

build() {
	local src obj t0 missing opt want have kver
	[ -f "$KC/.e1npu-built" ] && return 0
	src=$(linux_source_tree)
	obj="$KC/obj"
	t0=$(now)
	msg "$NAME: building $SRCVER config $HASH in $obj (-j2: from scratch ~75 min on 2 loaded cores, a config change on a seeded tree less; log $KC/build.log)" >&2
	rm -rf "$obj" "$KC/modroot" "$KC/Image"
	seed_obj "$obj"
	mkdir -p "$obj"
	{
		make -C "$src" O="$obj" "${KARGS[@]}" tinyconfig &&
		(cd "$obj" && KCONFIG_CONFIG=.config \
			"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" .config "${FRAGS[@]}") &&
		make -C "$src" O="$obj" "${KARGS[@]}" olddefconfig
	} >"$KC/config.log" 2>&1 || { tail -n 30 "$KC/config.log" >&2; die "$NAME: configuration failed"; }

	missing=""
	while IFS='=' read -r opt want; do
		have=$(grep -E "^$opt=" "$obj/.config" | cut -d= -f2- || true)
		case "$want" in
		y|m) [ "$have" = y ] || [ "$have" = m ] || missing="$missing $opt=$want(got ${have:-unset})" ;;
		*) [ "$have" = "$want" ] || missing="$missing $opt=$want(got ${have:-unset})" ;;
		esac
	done < <(cat "${FRAGS[@]}" | grep -E '^CONFIG_[A-Za-z0-9_]+=')
	[ -z "$missing" ] || die "$NAME: options dropped by Kconfig:$missing (fix ${FRAGS[*]})"
	msg "$NAME: config verified ($(cat "${FRAGS[@]}" | grep -c -E '^CONFIG_[A-Za-z0-9_]+=') required options present)" >&2

	run_logged "$KC/build.log" make -C "$src" O="$obj" "${KARGS[@]}" -j2 Image modules ||
		die "$NAME: build failed (log $KC/build.log)"
	run_logged "$KC/modules_install.log" make -C "$src" O="$obj" "${KARGS[@]}" \
		INSTALL_MOD_PATH="$KC/modroot" INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod modules_install ||
		die "$NAME: modules_install failed"
	kver=$(cat "$obj/include/config/kernel.release")
	cp "$obj/arch/riscv/boot/Image" "$KC/Image"
	echo "$kver" >"$KC/kernel.release"
	touch "$KC/.e1npu-built"
	echo "$(elapsed "$t0")" >"$KC/build-seconds"
	msg "$NAME: $kver built in $(elapsed "$t0") s" >&2
}

with_lock "riscv64-kernel${VARIANT:+-$VARIANT}" build
[ -f "$KC/.e1npu-built" ] || die "$NAME: not built"
echo "$KC"
