#!/bin/sh
# SPDX-License-Identifier: MIT
#
# stage.sh DIR: e1npu laid out for an out-of-tree build,
# make -C <kernel build dir> M=DIR modules (the guests, kernel lint, DKMS,
# make kernel-modules). DIR gets the files kernel/Kbuild builds (from
# kernel/ or hw/), kernel/*.h, hw/*.h, include/hw/e1npu_hw.h, the UAPI
# header as DIR/drm/e1npu_accel.h, kernel/Kbuild as Kbuild.e1npu and the
# compat layer (this directory's Kbuild, Kbuild.compat, e1npu_compat.h).
# Files whose content did not change keep their time stamps, so a rebuild
# in DIR compiles only what changed.
set -eu

[ $# = 1 ] || { echo "usage: $0 DIR | --sources" >&2; exit 1; }
TOP=$(cd "$(dirname "$0")/../.." && pwd)
DIR=$1

# put SRC DST: copy when the content differs
put() {
	cmp -s "$1" "$2" 2>/dev/null || cp "$1" "$2"
}

# the objects kernel/Kbuild lists in its *-y variables, as the paths of
# their .c files in kernel/ or hw/ (also what kernel-tree-drop.sh drops)
sources() {
	for f in $(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$TOP/kernel/Kbuild" |
		sed -n 's/^[a-z0-9_]*-y[ \t]*[:+]\?=//p' | tr ' \t' '\n\n' |
		sed -n 's/\.o$/.c/p' | sort -u); do
		if [ -f "$TOP/kernel/$f" ]; then
			echo "$TOP/kernel/$f"
		elif [ -f "$TOP/hw/$f" ]; then
			echo "$TOP/hw/$f"
		else
			echo "stage.sh: kernel/Kbuild names $f, which neither kernel/ nor hw/ holds" >&2
			return 1
		fi
	done
}

# --sources: only the list
if [ "$DIR" = --sources ]; then
	sources
	exit
fi
mkdir -p "$DIR/drm"
srcs=$(sources)
for f in $srcs; do
	put "$f" "$DIR/$(basename "$f")"
done
for f in "$TOP"/kernel/*.h "$TOP"/hw/*.h "$TOP/include/hw/e1npu_hw.h" \
	 "$TOP"/kernel/compat/*.h "$TOP/kernel/compat/Kbuild.compat"; do
	put "$f" "$DIR/$(basename "$f")"
done
put "$TOP/kernel/Kbuild" "$DIR/Kbuild.e1npu"
put "$TOP/kernel/compat/Kbuild" "$DIR/Kbuild"
put "$TOP/include/uapi/drm/e1npu_accel.h" "$DIR/drm/e1npu_accel.h"
