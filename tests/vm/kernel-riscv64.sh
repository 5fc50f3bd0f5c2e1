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
# Debian's busybox source package (apt-src.sh: private deb-src list).
. "$VM_DIR/apt-src.sh"

_busybox_riscv64_build() {
	local srcver=$1 dir=$2 t0 b
	[ -x "$dir/busybox" ] && return 0
	t0=$(now)
	apt_src_fetch busybox "$srcver" "$dir.tmp"
	b="$dir.tmp/src"
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
		dir=$(ls -d "$E1NPU_CACHE"/busybox/riscv64-*/ 2>/dev/null | sort -V | tail -n 1 || true)
		[ -n "$dir" ] || die "offline and no riscv64 busybox in the cache"
		dir=${dir%/}
	else
		srcver=$(src_version busybox-static)
		dir="$E1NPU_CACHE/busybox/riscv64-${srcver//:/_}"
		mkdir -p "$E1NPU_CACHE/busybox"
		with_lock busybox-riscv64 _busybox_riscv64_build "$srcver" "$dir"
	fi
	BUSYBOX="$dir/busybox"
}

# riscv64_board_dtb OUT MODE QEMU-ARGS...: the device tree of QEMU's virt
# machine (dumped with the same memory and CPUs) plus riscv64-dtb.sh MODE:
# board.md's NPU node and its reserved-memory tensor arena, enabled, as a
# board has them (board), or the two-node variant (split); compiled with
# the kernel tree's dtc. The virtual board's QEMU has the e1 NPU at those
# addresses (model/qemu/), so the driver binds to the node as on a board.
riscv64_board_dtb() {
	local out=$1 mode=$2 dtc="$KDIR/scripts/dtc/dtc"
	shift 2
	[ -x "$dtc" ] || die "riscv64: no dtc in $KDIR/scripts/dtc"
	run_logged "$out.log" "$@" -nographic -machine dumpdtb="$out.virt" ||
		die "riscv64: cannot dump QEMU's virt device tree"
	{
		"$dtc" -q -I dtb -O dts "$out.virt" |
			sed 's/^\(\t*\)plic@c000000 {/\1plic: plic@c000000 {/'
		"$VM_DIR/riscv64-dtb.sh" "$mode" "${VM_MEM:-512M}"
	} >"$out.dts"
	grep -q 'plic: plic@' "$out.dts" || die "riscv64: no plic node in QEMU's device tree"
	run_logged "$out.log" "$dtc" -q -I dts -O dtb -o "$out" "$out.dts" ||
		die "riscv64: the board's device tree does not compile ($out.dts)"
}

# qemu_riscv64: sets QEMU_RISCV64 to the virtual board's QEMU (Debian's
# qemu source with the e1 NPU, tests/vm/qemu-build.sh; cached)
qemu_riscv64() {
	QEMU_RISCV64=$("$VM_DIR/qemu-build.sh") || die "the virtual board's QEMU did not build"
}
