#!/bin/bash
# SPDX-License-Identifier: MIT
#
# mkdeb.sh: the Debian binary packages of the stack, built with dpkg-deb
# from staged trees (no debian/ directory, no dpkg-buildpackage: it cannot
# cross-build for riscv64 on Debian 12, which has no riscv64 port).
# Documentation/packaging.md. Called by `make deb` (tools/deb/deb.mk) with:
#   TOP            the source tree (current directory)
#   MAKE           the make to stage with (its MAKEFLAGS carry SYSROOT, ...)
#   CC             the target's compiler (CROSS_COMPILE gcc in a cross build)
#   CROSS_COMPILE  the binutils prefix (strip, nm), may be empty
#   E1NPU_VERSION  upstream version; DEB_REVISION the Debian revision
#   DEB_ARCH       Debian architecture, derived from `$CC -dumpmachine` if empty
#   DEB_DIR        output: DEB_DIR/*.deb, build tree DEB_DIR/obj, staged
#                  install DEB_DIR/stage, package trees DEB_DIR/root/<pkg>
#   SOURCE_DATE_EPOCH  timestamps; default: the git commit time of HEAD
# Steps: build + `make install DESTDIR=stage` with Debian's hardening flags,
# split the staged files into packages (each file into exactly one, a file
# no rule claims is an error), strip, control files, dpkg-deb --build.
set -euo pipefail

die() { echo "mkdeb.sh: $*" >&2; exit 1; }
note() { echo "mkdeb.sh: $*"; }

TOP=$(pwd)
HERE=$TOP/tools/deb
[ -f "$HERE/control" ] || die "run from the top of the tree (no tools/deb/control in $TOP)"
: "${MAKE:=make}" "${CC:=cc}" "${CROSS_COMPILE:=}" "${DEB_ARCH:=}" "${DEB_REVISION:=1}"
[ -n "${E1NPU_VERSION:-}" ] || die "E1NPU_VERSION is not set (make deb sets it from the Makefile)"
[ -n "${DEB_DIR:-}" ] || die "DEB_DIR is not set (make deb sets it: \$(O)/deb)"
VERSION=$E1NPU_VERSION
DEBVER=$VERSION-$DEB_REVISION

for t in dpkg-deb dpkg-architecture dpkg-buildflags readelf gzip; do
	command -v "$t" >/dev/null || die "$t not found (apt-get install dpkg-dev binutils, or tools/devel/install-deps.sh deb)"
done
STRIP=${CROSS_COMPILE}strip
NM=${CROSS_COMPILE}nm
for t in "$STRIP" "$NM"; do
	command -v "$t" >/dev/null || die "$t not found: the target's binutils (CROSS_COMPILE=$CROSS_COMPILE)"
done

# ---- architecture ----------------------------------------------------------
# The compiler says what it builds for; DEB_ARCH, when given, must agree.
TRIPLET=$($CC -dumpmachine 2>/dev/null) || die "'$CC -dumpmachine' failed: is CC=$CC a compiler?"
CC_ARCH=$(dpkg-architecture -t "$TRIPLET" -qDEB_HOST_ARCH 2>/dev/null) ||
	die "no Debian architecture for the GNU triplet '$TRIPLET' of CC=$CC"
if [ -z "$DEB_ARCH" ]; then
	DEB_ARCH=$CC_ARCH
elif [ "$DEB_ARCH" != "$CC_ARCH" ]; then
	die "DEB_ARCH=$DEB_ARCH but CC=$CC builds for $TRIPLET (Debian $CC_ARCH)"
fi
MULTIARCH=$(dpkg-architecture -a "$DEB_ARCH" -qDEB_HOST_MULTIARCH 2>/dev/null) ||
	die "dpkg-architecture does not know DEB_ARCH=$DEB_ARCH"
LIBDIR=/usr/lib/$MULTIARCH

# ---- reproducibility -------------------------------------------------------
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$TOP" log -1 --format=%ct 2>/dev/null) ||
		die "not a git checkout: set SOURCE_DATE_EPOCH (seconds since 1970) for the packages' timestamps"
fi
export SOURCE_DATE_EPOCH
GIT_REV=$(git -C "$TOP" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
FIRST_YEAR=$(git -C "$TOP" log --reverse --format=%ad --date=format:%Y 2>/dev/null | sed -n 1p)
LAST_YEAR=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y)
YEARS=${FIRST_YEAR:-$LAST_YEAR}
[ "$YEARS" = "$LAST_YEAR" ] || YEARS="$YEARS-$LAST_YEAR"
export LC_ALL=C TZ=UTC
umask 022

# The Maintainer: the first M: line of MAINTAINERS.
MAINTAINER=$(sed -n 's/^M:[[:space:]]*//p' "$TOP/MAINTAINERS" | sed -n 1p)
[ -n "$MAINTAINER" ] || die "no 'M:' line in $TOP/MAINTAINERS for the Maintainer field"

OBJ=$DEB_DIR/obj
STAGE=$DEB_DIR/stage
ROOT=$DEB_DIR/root
rm -rf "$STAGE" "$ROOT" "$DEB_DIR/tmp"
rm -f "$DEB_DIR"/*.deb
mkdir -p "$OBJ" "$STAGE" "$ROOT" "$DEB_DIR/tmp"

# ---- build and stage -------------------------------------------------------
# Debian's hardening and path-mapping flags for the target (dpkg-buildflags),
# through OPT, which the Makefile puts in every compile and link line. Own
# build tree (DEB_DIR/obj): objects never mix with a build of other flags.
bf() { CC=$CC DEB_HOST_ARCH=$DEB_ARCH DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get "$1"; }
OPT="$(bf CFLAGS) $(bf CPPFLAGS) $(bf LDFLAGS)"
note "$DEB_ARCH ($TRIPLET, $MULTIARCH), version $DEBVER, SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH"
note "staging: make install DESTDIR=$STAGE (build tree $OBJ, log $DEB_DIR/build.log)"
if ! $MAKE --no-print-directory O="$OBJ" SAN_O="$OBJ/san" OPT="$OPT" install \
	DESTDIR="$STAGE" PREFIX=/usr LIBDIR="$LIBDIR" UDEVRULESDIR=/usr/lib/udev/rules.d \
	DELEGATEDIR="$LIBDIR/e1npu" ORTEPDIR="$LIBDIR/e1npu" > "$DEB_DIR/build.log" 2>&1; then
	tail -n 30 "$DEB_DIR/build.log" >&2
	die "make install into $STAGE failed (log $DEB_DIR/build.log)"
fi

# Man pages of tools whose install target does not install theirs yet.
for m in "$TOP"/tools/*/*.1; do
	[ -e "$m" ] || continue
	if [ ! -e "$STAGE/usr/share/man/man1/${m##*/}" ]; then
		note "${m#"$TOP"/}: not installed by make install, staged by mkdeb.sh"
		install -D -m 0644 "$m" "$STAGE/usr/share/man/man1/${m##*/}"
	fi
done
# The staged files (not directories): the contents check compares the
# packages with this list.
(cd "$STAGE" && find . ! -type d | sed 's|^\./||' | sort) > "$DEB_DIR/stage.list"

# ---- split -----------------------------------------------------------------
# pkg_of PATH: the package a staged file belongs to (first match), or "".
pkg_of() {
	case "$1" in
	"usr/lib/$MULTIARCH/libe1npu.so.0" | "usr/lib/$MULTIARCH/libe1npu.so.0."*) echo libe1npu0 ;;
	"usr/lib/$MULTIARCH/libe1npu.so" | "usr/lib/$MULTIARCH/libe1npu.a" | \
		"usr/lib/$MULTIARCH/pkgconfig/libe1npu.pc" | usr/include/e1npu/*) echo libe1npu-dev ;;
	"usr/lib/$MULTIARCH/e1npu/libe1npu_tflite_delegate.so") echo libe1npu-tflite-delegate ;;
	"usr/lib/$MULTIARCH/e1npu/libe1npu_ort_ep.so") echo e1npu-onnxruntime-ep ;;
	usr/bin/* | usr/share/man/man1/* | usr/lib/udev/rules.d/*) echo e1npu-tools ;;
	*) echo "" ;;
	esac
}
ARCH_PKGS="libe1npu0 libe1npu-dev e1npu-tools libe1npu-tflite-delegate"
# the ONNX Runtime EP is built only where its headers are (ORT_INCDIR:
# Documentation/packaging.md): its package with it
if grep -q -x "usr/lib/$MULTIARCH/e1npu/libe1npu_ort_ep.so" "$DEB_DIR/stage.list"; then
	ARCH_PKGS="$ARCH_PKGS e1npu-onnxruntime-ep"
else
	note "e1npu-onnxruntime-ep: not built (no ONNX Runtime headers: ORT_INCDIR)"
fi
ALL_PKGS="$ARCH_PKGS e1npu-dkms"
for p in $ALL_PKGS; do mkdir -p "$ROOT/$p/DEBIAN"; done

unclaimed=""
while IFS= read -r f; do
	p=$(pkg_of "$f")
	if [ -z "$p" ]; then
		unclaimed="$unclaimed $f"
		continue
	fi
	mkdir -p "$ROOT/$p/$(dirname "$f")"
	mv "$STAGE/$f" "$ROOT/$p/$f"
done < "$DEB_DIR/stage.list"
[ -z "$unclaimed" ] || die "staged files no package claims (add them to pkg_of in tools/deb/mkdeb.sh):$unclaimed"
for p in $ARCH_PKGS; do
	[ -n "$(find "$ROOT/$p" -path "$ROOT/$p/DEBIAN" -prune -o ! -type d -print -quit)" ] ||
		die "package $p got no file from the staged install"
done

# e1npu-dkms: the driver as DKMS source, in the out-of-tree layout of
# kernel/compat/stage.sh (the sources, hw/'s shared code, e1npu_hw.h, the
# UAPI header as drm/e1npu_accel.h, the compat layer for the kernels
# older than the driver's).
DKMS_SRC=$ROOT/e1npu-dkms/usr/src/e1npu-$VERSION
"$TOP/kernel/compat/stage.sh" "$DKMS_SRC"
find "$DKMS_SRC" -type f -exec chmod 0644 {} +
sed -e '/^#/d' -e "s/@VERSION@/$VERSION/g" "$HERE/dkms.conf.in" > "$DKMS_SRC/dkms.conf"

# ---- strip -----------------------------------------------------------------
# As dh_strip: no .comment/.note; shared objects keep only their dynamic
# symbols, executables nothing, the static library its symbols but no
# debug information. The debug symbols are not packaged.
is_elf() { [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; }
for p in $ARCH_PKGS; do
	while IFS= read -r -d '' f; do
		case "$f" in
		*.a) "$STRIP" --strip-debug --enable-deterministic-archives \
			--remove-section=.comment --remove-section=.note "$f" ;;
		*.so | *.so.*) if is_elf "$f"; then "$STRIP" --strip-unneeded \
			--remove-section=.comment --remove-section=.note "$f"; chmod 0644 "$f"; fi ;;
		*) if is_elf "$f"; then "$STRIP" --remove-section=.comment --remove-section=.note "$f"; fi ;;
		esac
	done < <(find "$ROOT/$p" -path "$ROOT/$p/DEBIAN" -prune -o -type f -print0)
done

# ---- man pages: gzip -9n ---------------------------------------------------
find "$ROOT" -path '*/usr/share/man/*' -type f ! -name '*.gz' -exec gzip -9n {} +

# ---- dependencies ----------------------------------------------------------
# map_line KEY: the DEPENDS column of tools/deb/shlibs.map for KEY.
map_line() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ +/, ""); print; found = 1 } END { exit !found }' "$HERE/shlibs.map"; }
# elf_depends PKG: Depends from the NEEDED sonames of PKG's ELF files.
elf_depends() {
	local p=$1 f so dep glibc="" needed="" out=""
	while IFS= read -r -d '' f; do
		is_elf "$f" || continue
		needed="$needed $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
		glibc="$glibc $(readelf -V "$f" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | tr '\n' ' ')"
	done < <(find "$ROOT/$p" -path "$ROOT/$p/DEBIAN" -prune -o -type f -print0)
	glibc=$(echo "$glibc" | tr ' ' '\n' | sed '/^$/d' | sort -uV | tail -1)
	for so in $(echo "$needed" | tr ' ' '\n' | sed '/^$/d' | sort -u); do
		case "$so" in libe1npu.so.0) out="$out, libe1npu0 (>= $VERSION)"; continue ;; esac
		dep=$(map_line "$so") ||
			die "$p: no Debian package known for the NEEDED library $so: add a line to tools/deb/shlibs.map"
		if [[ "$dep" =~ @GLIBC:([0-9.]+)@ ]]; then
			local floor=${BASH_REMATCH[1]} v=$glibc
			[ -n "$v" ] && dpkg --compare-versions "$v" gt "$floor" || v=$floor
			dep=${dep//"${BASH_REMATCH[0]}"/$v}
		fi
		out="$out, $dep"
	done
	echo "${out#, }"
}
# pc_depends PCFILE: libe1npu-dev's Depends for the .pc's Requires(.private).
pc_depends() {
	local name dep out=""
	for name in $(sed -n 's/^Requires\(\.private\)\?:\(.*\)/\2/p' "$1" | tr ',' ' '); do
		dep=$(map_line "pc:$name") ||
			die "libe1npu-dev: no -dev package known for '$name' (Requires of libe1npu.pc): add 'pc:$name' to tools/deb/shlibs.map"
		out="$out, $dep"
	done
	echo "${out#, }"
}
# merge_depends LIST: unique alternatives, in order.
merge_depends() { echo "$1" | tr ',' '\n' | sed 's/^ *//; s/ *$//; /^$/d' | awk '!seen[$0]++' | paste -sd, | sed 's/,/, /g'; }

# ---- symbols and shlibs of libe1npu0 ---------------------------------------
# From the ABI baseline lib/abi/libe1npu.abi (abidw): each exported symbol
# with its version node; a node LIBE1NPU[_X]_<maj>.<min> is the release
# <maj>.<min>.0 that introduced it (lib/libe1npu.sym: nodes are
# append-only, a release's new symbols go in a new node). The library's
# exports must agree with the baseline; an export the baseline does not
# have yet (added since the last `make abi-update`) gets its node's
# release too, with a note.
node_version() {
	[[ "$1" =~ ^LIBE1NPU(_[A-Z0-9]+)?_([0-9]+)\.([0-9]+)$ ]] ||
		die "version node '$1' does not end in _<major>.<minor>: cannot tell its release"
	local v="${BASH_REMATCH[2]}.${BASH_REMATCH[3]}.0"
	dpkg --compare-versions "$v" le "$VERSION" ||
		die "version node $1 is for release $v, newer than E1NPU_VERSION=$VERSION"
	echo "$v"
}
gen_symbols() {
	local so=$1 baseline=$TOP/lib/abi/libe1npu.abi name node t
	[ -f "$baseline" ] || die "no ABI baseline $baseline"
	sed -n "s/.*<elf-symbol name='\([^']*\)' version='\([^']*\)'.*/\1 \2/p" "$baseline" | sort -u > "$DEB_DIR/tmp/abi.base"
	[ -s "$DEB_DIR/tmp/abi.base" ] || die "$baseline lists no versioned <elf-symbol>"
	"$NM" -D --defined-only "$so" | awk '{ print $(NF-1), $NF }' | while read -r t name; do
		if [ "$t" = A ]; then echo "$name $name"; else echo "${name%%@*} ${name##*@}"; fi
	done | sort -u > "$DEB_DIR/tmp/abi.so"
	# baseline symbols the library lacks, or exports in another node: ABI breaks
	local gone
	gone=$(grep -v -F -x -f "$DEB_DIR/tmp/abi.so" "$DEB_DIR/tmp/abi.base" || true)
	[ -z "$gone" ] || die "symbols of the ABI baseline not exported as listed by ${so##*/} (ABI break, see make check-abi):
$gone"
	echo "libe1npu.so.0 libe1npu0 #MINVER#"
	echo "* Build-Depends-Package: libe1npu-dev"
	while read -r name node; do
		if [ "$name" != "$node" ] && ! grep -q -x -F "$name $node" "$DEB_DIR/tmp/abi.base"; then
			note "libe1npu0: $name@$node is not in lib/abi/libe1npu.abi yet (make abi-update)" >&2
		fi
		echo " $name@$node $(node_version "$node")"
	done < "$DEB_DIR/tmp/abi.so"
}

# ---- control files ---------------------------------------------------------
# stanza PKG: its paragraph of tools/deb/control.
stanza() { sed '/^#/d' "$HERE/control" | awk -v p="$1" 'BEGIN { RS = ""; ORS = "\n" } $0 ~ "^Package: " p "\n" { print; n++ } END { exit n != 1 }'; }
field() { echo "$1" | awk -v f="$2" 'index($0, f ": ") == 1 { sub(/^[^:]*: /, ""); print }'; }
# installed_size DIR: KiB as dpkg-gencontrol counts them (files rounded up,
# 1 per directory and symlink), without DEBIAN/.
installed_size() {
	(cd "$1" && find . -path ./DEBIAN -prune -o ! -path . -printf '%y %s\n') |
		awk '$1 == "f" { n += int(($2 + 1023) / 1024) } $1 != "f" { n++ } END { print n }'
}

CHANGELOG_DATE=$(date -u -R -d "@$SOURCE_DATE_EPOCH")
for p in $ALL_PKGS; do
	d=$ROOT/$p
	st=$(stanza "$p") || die "no single 'Package: $p' stanza in tools/deb/control"
	arch=$(field "$st" Architecture)
	[ "$arch" = all ] || arch=$DEB_ARCH
	deps=$(field "$st" Depends)
	case "$p" in
	libe1npu0)
		so=$(find "$d/usr/lib/$MULTIARCH" -name 'libe1npu.so.0.*' -type f)
		[ -n "$so" ] || die "libe1npu0: no libe1npu.so.0.* staged"
		gen_symbols "$so" > "$d/DEBIAN/symbols"
		echo "libe1npu 0 libe1npu0 (>= $VERSION)" > "$d/DEBIAN/shlibs"
		sed '/^#/d' "$HERE/libe1npu0.triggers" > "$d/DEBIAN/triggers"
		deps="$deps, $(elf_depends "$p")" ;;
	libe1npu-dev)
		deps="$deps, libe1npu0 (= $DEBVER), $(pc_depends "$d/usr/lib/$MULTIARCH/pkgconfig/libe1npu.pc")" ;;
	e1npu-dkms) ;;
	*) deps="$deps, $(elf_depends "$p")" ;;
	esac
	deps=$(merge_depends "$deps")
	for s in postinst postrm prerm preinst; do
		[ -f "$HERE/$p.$s" ] || continue
		sed "s/@VERSION@/$VERSION/g" "$HERE/$p.$s" > "$d/DEBIAN/$s"
		chmod 0755 "$d/DEBIAN/$s"
	done
	# docs: copyright, changelog.Debian.gz
	doc=$d/usr/share/doc/$p
	mkdir -p "$doc"
	sed -e '/^#/d' -e "s/@MAINTAINER@/$MAINTAINER/g" -e "s/@YEARS@/$YEARS/g" "$HERE/copyright.in" > "$doc/copyright"
	cat > "$doc/changelog.Debian" <<EOF
e1npu ($DEBVER) unstable; urgency=medium

  * Package of the e1npu tree at git commit $GIT_REV, built by
    tools/deb/mkdeb.sh.

 -- $MAINTAINER  $CHANGELOG_DATE
EOF
	gzip -9n "$doc/changelog.Debian"
	# Normalised modes and times, then the control file and md5sums.
	find "$d" -type d -exec chmod 0755 {} +
	find "$d" -path "$d/DEBIAN" -prune -o -type f ! -perm -u+x -exec chmod 0644 {} +
	{
		echo "Package: $p"
		echo "Source: e1npu"
		echo "Version: $DEBVER"
		echo "Architecture: $arch"
		echo "Maintainer: $MAINTAINER"
		echo "Installed-Size: $(installed_size "$d")"
		[ -z "$deps" ] || echo "Depends: $deps"
		echo "Section: $(field "$st" Section)"
		echo "Priority: optional"
		ma=$(field "$st" Multi-Arch)
		[ -z "$ma" ] || echo "Multi-Arch: $ma"
		echo "$st" | sed -n '/^Description:/,$p'
	} > "$d/DEBIAN/control"
	(cd "$d" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z |
		xargs -0r md5sum) > "$d/DEBIAN/md5sums"
	find "$d" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
	deb=$DEB_DIR/${p}_${DEBVER}_$arch.deb
	dpkg-deb --root-owner-group -Zxz --build "$d" "$deb" >/dev/null ||
		die "dpkg-deb --build $d failed"
	note "$(basename "$deb"): $(stat -c %s "$deb") bytes"
done
