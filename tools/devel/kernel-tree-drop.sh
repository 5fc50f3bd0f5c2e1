#!/bin/bash
# SPDX-License-Identifier: MIT
#
# kernel-tree-drop.sh KTREE: drop the e1 NPU driver (e1npu.ko, and its
# KUnit suite) into the kernel source tree KTREE as drivers/accel/e1npu/,
# the way it would be merged upstream:
#
#   kernel/*.c *.h Kconfig Kbuild            -> drivers/accel/e1npu/
#   include/hw/e1npu_hw.h                    -> drivers/accel/e1npu/
#   include/uapi/drm/e1npu_accel.h           -> include/uapi/drm/
#
# and hooks it in: 'source "drivers/accel/e1npu/Kconfig"' in
# drivers/accel/Kconfig, 'obj-$(CONFIG_DRM_ACCEL_E1NPU) += e1npu/' in
# drivers/accel/Makefile. Sources are copied unchanged; kernel/Kbuild finds
# the headers in either layout. Only the driver goes in: no device model,
# no simulator (a file of kernel/ named e1npu_sim* is refused). Idempotent
# (an earlier drop is replaced). Enable it with CONFIG_DRM_ACCEL_E1NPU in
# .config.
#
# Files are never written in place: edited/replaced files are written
# beside and renamed, so KTREE may be a hard-linked copy (cp -al) of a
# tree that must stay untouched.
set -euo pipefail

die() { echo "kernel-tree-drop: $*" >&2; exit 1; }

[ $# = 1 ] || die "usage: $0 <kernel source tree>"
KTREE=$(cd "$1" && pwd) || die "no such directory: $1"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
ACCEL="$KTREE/drivers/accel"
DEST="$ACCEL/e1npu"

[ -f "$ACCEL/Kconfig" ] && [ -f "$ACCEL/Makefile" ] ||
	die "$KTREE has no drivers/accel/{Kconfig,Makefile} (not a Linux >= 6.2 tree?)"
[ -d "$KTREE/include/uapi/drm" ] || die "$KTREE has no include/uapi/drm"

# put SRC DST: copy SRC to DST as a new file (never through an old inode)
put() {
	rm -f "$2"
	cp "$1" "$2"
}

for f in "$TOP"/kernel/*; do
	case "$(basename "$f")" in
	e1npu_sim*|Kbuild.sim) die "kernel/ holds a simulator file ($(basename "$f")): the drop is the board's driver only" ;;
	esac
done

rm -rf "$DEST"
mkdir -p "$DEST"
for f in "$TOP"/kernel/*.c "$TOP"/kernel/*.h "$TOP"/kernel/Kconfig \
	 "$TOP"/kernel/Kbuild "$TOP"/include/hw/e1npu_hw.h; do
	# an in-place 'make kernel-modules' leaves generated *.mod.c behind
	case "$f" in *.mod.c) continue ;; esac
	put "$f" "$DEST/$(basename "$f")"
done
put "$TOP/include/uapi/drm/e1npu_accel.h" "$KTREE/include/uapi/drm/e1npu_accel.h"

# Kconfig: after the last 'source "drivers/accel/..."' (inside if DRM_ACCEL)
if ! grep -q '^source "drivers/accel/e1npu/Kconfig"' "$ACCEL/Kconfig"; then
	awk -v last="$(grep -n '^source "drivers/accel/' "$ACCEL/Kconfig" | tail -n 1 | cut -d: -f1)" '
		{ print }
		NR == last { print "source \"drivers/accel/e1npu/Kconfig\"" }
		END { if (last == "") print "source \"drivers/accel/e1npu/Kconfig\"" }
	' "$ACCEL/Kconfig" >"$ACCEL/Kconfig.e1npu-tmp"
	mv "$ACCEL/Kconfig.e1npu-tmp" "$ACCEL/Kconfig"
fi
if ! grep -q 'e1npu/' "$ACCEL/Makefile"; then
	{ cat "$ACCEL/Makefile"; printf 'obj-$(CONFIG_DRM_ACCEL_E1NPU)\t\t+= e1npu/\n'; } \
		>"$ACCEL/Makefile.e1npu-tmp"
	mv "$ACCEL/Makefile.e1npu-tmp" "$ACCEL/Makefile"
fi

echo "kernel-tree-drop: e1npu dropped into $DEST (enable CONFIG_DRM_ACCEL_E1NPU)"
