#!/bin/bash
# SPDX-License-Identifier: MIT
#
# kernel-tree-drop.sh [--compat] [--part P[,P...]] KTREE: drop the e1 NPU
# driver (e1npu.ko, and its KUnit suite), its binding, documentation and
# MAINTAINERS entry into the kernel source tree KTREE, the way they would
# be merged upstream. Parts (default: all, in this order, which is also
# the order of `make kernel-series`, tests/kernel-tree/kernel-series.sh):
#
#   drm-wedged     the DRM core's drm_dev_wedged_event() sends on an accel
#                  device's node (kernel/upstream/drm-wedged-event-accel.diff,
#                  against the series' kernel; e1npu calls it)
#   vendor-prefix  "^eliza,.*" in Documentation/devicetree/bindings/
#                  vendor-prefixes.yaml (sorted in)
#   binding        Documentation/devicetree/bindings/npu/eliza,e1-npu.yaml
#   driver         the files kernel/Kbuild builds (from kernel/ or hw/,
#                  the code shared with libe1npu), kernel/*.h, hw/*.h,
#                  Kconfig, Kbuild (and any .c those #include),
#                  include/hw/e1npu_hw.h -> drivers/accel/e1npu/, the
#                  userspace half of the headers shared with libe1npu
#                  (#ifdef __KERNEL__ ... #else ... #endif) left out;
#                  include/uapi/drm/e1npu_accel.h -> include/uapi/drm/;
#                  'source "drivers/accel/e1npu/Kconfig"' in
#                  drivers/accel/Kconfig, 'obj-$(CONFIG_DRM_ACCEL_E1NPU)
#                  += e1npu/' in drivers/accel/Makefile (each sorted in
#                  by directory name, as upstream keeps them)
#   docs           Documentation/accel/e1npu/*.rst, listed in
#                  Documentation/accel/index.rst; the sysfs ABI,
#                  Documentation/ABI/testing/sysfs-driver-e1npu
#   maintainers    the entry of the repository's MAINTAINERS, sorted into
#                  the tree's MAINTAINERS
#
# --compat: for a kernel older than the series' (Debian's 6.12): the
# compat layer of kernel/compat/ goes in beside the driver (e1npu_compat.h,
# Kbuild.compat, included from the driver's Kbuild) and drm-wedged is left
# out of the default parts (the compat layer supplies the event there).
#
# The driver's .c files are the ones kernel/Kbuild names (e1npu-y,
# e1npu_kunit_test-y), from kernel/ or hw/, read at run time; none may
# #include another .c file. Only the driver goes
# in: no device model, no simulator (a file of kernel/ named e1npu_sim*
# is refused). Idempotent (an earlier drop is replaced). Enable it with
# CONFIG_DRM_ACCEL_E1NPU in .config.
#
# Files are never written in place: edited/replaced files are written
# beside and renamed, so KTREE may be a hard-linked copy (cp -al) of a
# tree that must stay untouched.
set -euo pipefail

die() { echo "kernel-tree-drop: $*" >&2; exit 1; }

USAGE="usage: $0 [--compat] [--part P[,P...]] <kernel source tree>"
PARTS=drm-wedged,vendor-prefix,binding,driver,docs,maintainers
COMPAT=0
while [ $# -gt 1 ]; do
	case "$1" in
	--compat) COMPAT=1; shift ;;
	--part) [ $# -ge 2 ] || die "$USAGE"; PARTS=$2; PARTS_SET=1; shift 2 ;;
	*) break ;;
	esac
done
[ $# = 1 ] || die "$USAGE"
[ "$COMPAT" = 0 ] || [ -n "${PARTS_SET:-}" ] || PARTS=${PARTS#drm-wedged,}
KTREE=$(cd "$1" && pwd) || die "no such directory: $1"
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BINDINGS="$KTREE/Documentation/devicetree/bindings"

# put SRC DST: copy SRC to DST as a new file (never through an old inode)
put() {
	rm -f "$2"
	cp "$1" "$2"
}
# replace FILE: FILE.e1npu-tmp (written by the caller) becomes FILE
replace() {
	mv "$1.e1npu-tmp" "$1"
}

part_drm_wedged() {
	local d="$TOP/kernel/upstream/drm-wedged-event-accel.diff"
	# already applied: the reverse applies
	patch -s -f -d "$KTREE" -p1 -R --dry-run <"$d" >/dev/null 2>&1 && return 0
	# GNU patch writes a new file (never through a hard link)
	patch -s -f -d "$KTREE" -p1 --no-backup-if-mismatch <"$d" ||
		die "$d does not apply to $KTREE (the series' kernel only; --compat for an older one)"
}

# kernel_only SRC DST: SRC without the userspace half of the headers it
# shares with libe1npu: "#ifdef __KERNEL__" keeps its first branch, the
# "#else" branch and the directives go (no other conditional may be
# inside one)
kernel_only() {
	rm -f "$2"
	awk -v f="$1" '
		/^#ifdef __KERNEL__$/ { if (st) bad = 1; st = 1; next }
		st && /^#if/ { bad = 1 }
		st == 1 && /^#else/ { st = 2; next }
		st && /^#endif/ { st = 0; next }
		st == 2 { next }
		{ print }
		END { if (bad || st) { print f ": unsupported __KERNEL__ conditional" > "/dev/stderr"; exit 1 } }
	' "$1" >"$2" || die "cannot take the kernel half of $1"
}

part_vendor_prefix() {
	local f="$BINDINGS/vendor-prefixes.yaml"
	[ -f "$f" ] || die "$KTREE has no $f"
	grep -q '^  "\^eliza,\.\*":' "$f" && return 0
	# before the first prefix that sorts after ours
	LC_ALL=C awk '
		!done && /^  "\^[^"]*":$/ {
			p = $0; sub(/^  "\^/, "", p); sub(/,\.\*":$/, "", p)
			if (p > "eliza") {
				print "  \"^eliza,.*\":"
				print "    description: Eliza, designer of the e1 neural processing unit (eliza.dev)"
				done = 1
			}
		}
		{ print }
	' "$f" >"$f.e1npu-tmp"
	grep -q '^  "\^eliza,\.\*":' "$f.e1npu-tmp" || die "no place for eliza in $f"
	replace "$f"
}

part_binding() {
	mkdir -p "$BINDINGS/npu"
	put "$TOP/Documentation/devicetree/bindings/npu/eliza,e1-npu.yaml" \
		"$BINDINGS/npu/eliza,e1-npu.yaml"
}

part_driver() {
	local accel="$KTREE/drivers/accel" dest="$KTREE/drivers/accel/e1npu" f src srcs
	[ -f "$accel/Kconfig" ] && [ -f "$accel/Makefile" ] ||
		die "$KTREE has no drivers/accel/{Kconfig,Makefile} (not a Linux >= 6.2 tree?)"
	[ -d "$KTREE/include/uapi/drm" ] || die "$KTREE has no include/uapi/drm"
	for f in "$TOP"/kernel/*; do
		case "$(basename "$f")" in
		e1npu_sim*|Kbuild.sim) die "kernel/ holds a simulator file ($(basename "$f")): the drop is the board's driver only" ;;
		esac
	done
	rm -rf "$dest"
	mkdir -p "$dest"
	# the files kernel/Kbuild builds, from kernel/ or hw/ (the list the
	# out-of-tree staging uses too)
	srcs=$("$TOP/kernel/compat/stage.sh" --sources) || die "kernel/compat/stage.sh --sources failed"
	for src in $srcs; do
		kernel_only "$src" "$dest/$(basename "$src")"
	done
	! grep -n '^#include ".*\.c"' "$dest"/*.c ||
		die "a driver source #includes a .c file (above): Kbuild lists every object"
	for f in "$TOP"/kernel/*.h "$TOP"/hw/*.h "$TOP"/include/hw/e1npu_hw.h; do
		kernel_only "$f" "$dest/$(basename "$f")"
	done
	put "$TOP/kernel/Kconfig" "$dest/Kconfig"
	put "$TOP/kernel/Kbuild" "$dest/Kbuild"
	put "$TOP/include/uapi/drm/e1npu_accel.h" "$KTREE/include/uapi/drm/e1npu_accel.h"
	if [ "$COMPAT" = 1 ]; then
		put "$TOP/kernel/compat/e1npu_compat.h" "$dest/e1npu_compat.h"
		put "$TOP/kernel/compat/Kbuild.compat" "$dest/Kbuild.compat"
		{ printf '# the compat layer for this older kernel (kernel-tree-drop.sh --compat)\ninclude $(src)/Kbuild.compat\n\n'
		  cat "$TOP/kernel/Kbuild"; } >"$dest/Kbuild.e1npu-tmp"
		replace "$dest/Kbuild"
	fi

	# Kconfig and Makefile: sorted in by directory name among the other
	# drivers' lines (inside if DRM_ACCEL); after the last one when ours
	# sorts last (a missing newline at the end of the file supplied)
	if ! grep -q '^source "drivers/accel/e1npu/Kconfig"' "$accel/Kconfig"; then
		sorted_insert "$accel/Kconfig" '^source "drivers/accel/[^/]*/Kconfig"$' \
			's/^source "drivers\/accel\/\([^/]*\)\/Kconfig"$/\1/' \
			'source "drivers/accel/e1npu/Kconfig"'
	fi
	if ! grep -q 'e1npu/' "$accel/Makefile"; then
		sorted_insert "$accel/Makefile" '^obj-\$(CONFIG_[A-Z0-9_]*)[[:space:]]*+= [a-z0-9_-]*/$' \
			's/.*+= \([a-z0-9_-]*\)\/$/\1/' \
			"$(printf 'obj-$(CONFIG_DRM_ACCEL_E1NPU)\t\t+= e1npu/')"
	fi
}

# sorted_insert FILE LINE-REGEX NAME-SED NEWLINE: NEWLINE goes before the
# first line matching LINE-REGEX whose name (NAME-SED of it) sorts after
# "e1npu", else after the last matching line, else at the end
sorted_insert() {
	local f=$1 re=$2 name=$3 line=$4 at=0 last=0 n l
	while IFS=: read -r n l; do
		last=$n
		if [ "$at" = 0 ] && [[ "$(sed "$name" <<<"$l")" > e1npu ]]; then
			at=$n
		fi
	done < <(grep -n "$re" "$f" || true)
	{
		if [ "$at" != 0 ]; then
			head -n $((at - 1)) "$f"
			printf '%s\n' "$line"
			tail -n +"$at" "$f"
		elif [ "$last" != 0 ]; then
			head -n "$last" "$f"
			# the last line may lack its newline
			[ -z "$(head -n "$last" "$f" | tail -c 1)" ] || echo
			printf '%s\n' "$line"
			tail -n +$((last + 1)) "$f"
		else
			cat "$f"
			[ -z "$(tail -c 1 "$f")" ] || echo
			printf '%s\n' "$line"
		fi
	} >"$f.e1npu-tmp"
	replace "$f"
}

part_docs() {
	local d="$KTREE/Documentation/accel" f
	[ -f "$d/index.rst" ] || die "$KTREE has no Documentation/accel/index.rst"
	rm -rf "$d/e1npu"
	mkdir -p "$d/e1npu"
	for f in "$TOP"/Documentation/accel/e1npu/*.rst; do
		put "$f" "$d/e1npu/$(basename "$f")"
	done
	# the sysfs perf/ group is new ABI: its description goes in with it
	rm -f "$KTREE/Documentation/ABI/testing/sysfs-driver-e1npu"
	put "$TOP/Documentation/ABI/testing/sysfs-driver-e1npu" \
		"$KTREE/Documentation/ABI/testing/sysfs-driver-e1npu"
	grep -q '^   e1npu/index$' "$d/index.rst" && return 0
	# into the toctree: before the first driver entry that sorts after it
	LC_ALL=C awk '
		/^\.\. toctree::/ { intoc = 1 }
		intoc && !done && /^   [a-z0-9_-]+\/index$/ {
			e = $0; sub(/^   /, "", e)
			if (e > "e1npu/index") { print "   e1npu/index"; done = 1 }
		}
		intoc && !done && /^$/ && seen { print "   e1npu/index"; done = 1 }
		intoc && /^   [a-z]/ { seen = 1 }
		{ print }
		END { if (!done) print "   e1npu/index" }
	' "$d/index.rst" >"$d/index.rst.e1npu-tmp"
	replace "$d/index.rst"
}

part_maintainers() {
	local m="$KTREE/MAINTAINERS" title
	[ -f "$m" ] || die "$KTREE has no MAINTAINERS"
	title=$(head -n 1 "$TOP/MAINTAINERS")
	grep -qxF "$title" "$m" && return 0
	# after the entry whose title is the greatest one sorting before ours
	# (the file is not sorted throughout: an ordered insertion point
	# would land inside an unsorted run)
	LC_ALL=C awk -v title="$title" -v entry="$TOP/MAINTAINERS" '
		function is_title(i) {
			return i > 1 && line[i - 1] == "" && line[i] ~ /^[0-9A-Z]/ &&
			       line[i] !~ /^[A-Z]:\t/ && line[i + 1] ~ /^[A-Z]:\t/
		}
		{ line[NR] = $0 }
		END {
			for (i = 1; i <= NR; i++)
				if (is_title(i) && line[i] < title && (best == "" || line[i] > line[best]))
					best = i
			for (i = 1; i <= NR; i++) {
				print line[i]
				if (best != "" && i > best && !done && line[i] == "") {
					while ((getline l < entry) > 0) print l
					print ""
					done = 1
				}
			}
			if (!done) {
				print ""
				while ((getline l < entry) > 0) print l
			}
		}
	' "$m" >"$m.e1npu-tmp"
	replace "$m"
}

for p in ${PARTS//,/ }; do
	case "$p" in
	drm-wedged|vendor-prefix|binding|driver|docs|maintainers) "part_${p//-/_}" ;;
	*) die "unknown part '$p' (drm-wedged, vendor-prefix, binding, driver, docs, maintainers)" ;;
	esac
done

echo "kernel-tree-drop: e1npu ($PARTS) dropped into $KTREE (enable CONFIG_DRM_ACCEL_E1NPU)"
