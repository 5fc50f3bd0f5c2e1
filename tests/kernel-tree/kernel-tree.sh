#!/bin/bash
# SPDX-License-Identifier: MIT
#
# kernel-tree.sh: prove the in-tree drop of the driver. The cached riscv64
# 6.12 kernel (tests/vm/riscv64-kernel.sh: pristine source in the cache,
# built with O=<cache>/obj) is copied into $KTREE_O/riscv64/ (default
# build-kernel-tree/; never under the make's $O, whose *.d files the
# top-level Makefile includes)
# (source: hard links, cp -al; build output: real copy), the driver is
# dropped into the copy with tools/devel/kernel-tree-drop.sh, enabled as
# CONFIG_DRM_ACCEL_E1NPU=m through Kconfig (olddefconfig must keep it and
# change nothing else), and `make modules` is run in the
# copy. Checks: the dropped directory is the driver alone (no device
# model, no simulator source, no simulator Kconfig symbol); e1npu.ko built,
# in modules.order, modinfo intree=Y, vermagic = the tree's (as
# gpu-sched.ko), depends lists drm and gpu-sched, an OF alias for
# eliza,e1-npu and no platform-id alias; the cache is left untouched.
#
# The copied build output is relocated (its .cmd files name the cache's
# source path; they are rewritten to the copy's), so only the new
# directory is compiled: ~1 min instead of a kernel build.
. "$(dirname "$0")/../vm/common.sh"

ARCH_ARGS=(ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu-)
KTREE_O=${KTREE_O:-$TOP/build-kernel-tree}
case "$KTREE_O" in /*) ;; *) KTREE_O="$TOP/$KTREE_O" ;; esac
W="$KTREE_O/riscv64"
LOG="$W/log"
t_all=$(now)

KC=$("$VM_DIR/riscv64-kernel.sh" | tail -n 1)
[ -f "$KC/.e1npu-built" ] || die "riscv64 kernel not cached ($KC)"
SRC=$(readlink -f "$KC/obj/source")
[ -f "$SRC/Makefile" ] || die "cached kernel source $SRC missing"
KREL=$(cat "$KC/kernel.release")

# 1. scratch copy (under the cache lock: the cache is not rebuilt meanwhile)
copy_tree() {
	rm -rf "$W"
	mkdir -p "$W" "$LOG"
	if ! cp -al "$SRC" "$W/linux" 2>"$LOG/cp.log"; then
		warn "cp -al failed (other filesystem?), copying the source (slower)"
		rm -rf "$W/linux"
		cp -a "$SRC" "$W/linux"
	fi
	cp -a "$KC/obj" "$W/obj"
}
t0=$(now)
with_lock riscv64-kernel copy_tree
# relocate the build output to the copy's source path
grep -rlZF --include='*.cmd' "$SRC/" "$W/obj" |
	OLD="$SRC/" NEW="$W/linux/" xargs -0 -r perl -pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/g'
msg "kernel-tree: scratch copy of $(basename "$KC") in $W ($(elapsed "$t0") s)"

# 2. the drop, as a board engineer would do it
# (--compat: this 6.12 tree is older than the driver's kernel)
run_logged "$LOG/drop.log" "$TOP/tools/devel/kernel-tree-drop.sh" --compat "$W/linux" ||
	die "kernel-tree-drop.sh failed"
DROP="$W/linux/drivers/accel/e1npu"
# the board's driver and nothing else
extra=$(cd "$DROP" && find . -mindepth 1 \( -type d -o -name '*sim*' -o -name 'e1_*' \) | head -n 5)
[ -z "$extra" ] || die "the drop holds more than the driver (model or simulator): $extra"
! grep -n -E 'E1NPU_SIM|e1npu_sim|e1npu-sim|platform_data|regmap' "$DROP"/* ||
	die "the dropped driver still names the simulator or regmap (above)"
msg "kernel-tree: drop is the driver alone ($(cd "$DROP" && ls | wc -l) files, no model, no simulator)"

# 3. enable through Kconfig; olddefconfig must keep it and change nothing else
K=(make -C "$W/linux" O="$W/obj" "${ARCH_ARGS[@]}")
cp "$W/obj/.config" "$LOG/config.orig"
"$W/linux/scripts/config" --file "$W/obj/.config" --module DRM_ACCEL_E1NPU
run_logged "$LOG/olddefconfig.log" "${K[@]}" olddefconfig || die "olddefconfig failed"
grep -qx "CONFIG_DRM_ACCEL_E1NPU=m" "$W/obj/.config" ||
	die "CONFIG_DRM_ACCEL_E1NPU=m dropped by olddefconfig (got: $(grep "CONFIG_DRM_ACCEL_E1NPU[= ]" "$W/obj/.config" || echo unset))"
cfgdiff=$(diff <(grep '^CONFIG_' "$LOG/config.orig") <(grep '^CONFIG_' "$W/obj/.config") |
	grep '^[<>]' | grep -v -E '^> CONFIG_DRM_ACCEL_E1NPU=m$' || true)
[ -z "$cfgdiff" ] || die "olddefconfig changed other options: $cfgdiff"
grep -q 'DRM_ACCEL_E1NPU_SIM' "$W/obj/.config" "$DROP/Kconfig" &&
	die "a simulator Kconfig symbol survived the drop"
msg "kernel-tree: CONFIG_DRM_ACCEL_E1NPU=m kept by olddefconfig"

# 4. in-tree build
t0=$(now)
run_logged "$LOG/build.log" "${K[@]}" -j"$(nproc)" modules || die "in-tree make modules failed (log $LOG/build.log)"
ncc=$(grep -c -E '^  CC \[M\]|^  CC ' "$LOG/build.log" || true)
msg "kernel-tree: make modules in $(elapsed "$t0") s ($ncc objects compiled)"
outside=$(grep -E '^  CC' "$LOG/build.log" | grep -v -E ' drivers/accel/e1npu/|\.mod\.o$' | head -n 5 || true)
[ -z "$outside" ] || warn "compiled outside drivers/accel/e1npu (relocation incomplete?):
$outside"

# 5. the modules
D="$W/obj/drivers/accel/e1npu"
ref="$W/obj/drivers/gpu/drm/scheduler/gpu-sched.ko"
want_vm=$(modinfo -F vermagic "$ref")
case "$want_vm" in "$KREL "*) ;; *) die "gpu-sched.ko vermagic '$want_vm' is not $KREL" ;; esac
fail=0
[ ! -e "$D/e1npu_sim.ko" ] || { warn "e1npu_sim.ko built: the simulator is back"; fail=1; }
for m in e1npu; do
	ko="$D/$m.ko"
	[ -f "$ko" ] || { warn "$m.ko not built"; fail=1; continue; }
	grep -qx "drivers/accel/e1npu/$m.o" "$W/obj/modules.order" ||
		{ warn "$m not in modules.order"; fail=1; }
	vm=$(modinfo -F vermagic "$ko")
	[ "$vm" = "$want_vm" ] || { warn "$m.ko vermagic '$vm' != '$want_vm'"; fail=1; }
	[ "$(modinfo -F intree "$ko")" = Y ] || { warn "$m.ko not marked intree"; fail=1; }
	deps=$(modinfo -F depends "$ko")
	msg "kernel-tree: $m.ko vermagic '$vm' intree=Y depends=$deps"
done
deps=",$(modinfo -F depends "$D/e1npu.ko" 2>/dev/null),"
for need in drm gpu-sched; do
	case "$deps" in *",$need,"*) ;; *) warn "e1npu.ko depends lacks $need ($deps)"; fail=1 ;; esac
done
# bound from the device tree only: an OF alias, no platform-id alias
aliases=$(modinfo -F alias "$D/e1npu.ko" 2>/dev/null || true)
grep -q '^of:N\*T\*Celiza,e1-npu' <<<"$aliases" ||
	{ warn "e1npu.ko has no OF alias for eliza,e1-npu ($aliases)"; fail=1; }
! grep -q '^platform:' <<<"$aliases" ||
	{ warn "e1npu.ko still has a platform-id alias: $(grep '^platform:' <<<"$aliases")"; fail=1; }

# every file the new objects were built from is in the scratch tree (not
# the repository, not the cache): the dropped layout is self-contained
stray=$(sed -n 's/^ *\(\/[^ ]*\).*/\1/p; s/^\(source\|deps\)_[^ ]* := \(\/[^ ]*\).*/\2/p' "$D"/.*.o.cmd |
	grep -v "^$W/" | sort -u | head -n 5 || true)
[ -z "$stray" ] || { warn "objects of drivers/accel/e1npu depend on files outside the tree:
$stray"; fail=1; }

# 6. the cache is untouched
if grep -q e1npu "$SRC/drivers/accel/Kconfig" "$SRC/drivers/accel/Makefile" ||
	[ -e "$SRC/drivers/accel/e1npu" ] || [ -e "$SRC/include/uapi/drm/e1npu_accel.h" ] ||
	grep -q E1NPU "$KC/obj/.config"; then
	warn "the cached kernel tree was modified: $SRC / $KC"
	fail=1
fi

[ "$fail" = 0 ] || die "kernel-tree-riscv64 FAILED (logs $LOG)"
msg "kernel-tree: PASS in $(elapsed "$t_all") s"
