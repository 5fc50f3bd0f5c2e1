#!/bin/bash
# SPDX-License-Identifier: MIT
#
# check-deb.sh DEB_DIR REPRO_DIR DEBVER: the checks of `make check-deb` on
# the packages `make deb` built into DEB_DIR (and again into REPRO_DIR),
# native, or those of a cross build with DEB_ARCH=riscv64 and
# CROSS_COMPILE=riscv64-linux-gnu- in the environment (make
# check-deb-riscv64), without installing them (the host's dpkg database is left
# alone; install and purge are tested in the riscv64 guest):
#  - lintian: no error or warning but those tools/deb/lintian-allow accepts;
#  - contents: each package holds what tools/deb/contents.list says, owned
#    by root:root; every file of the staged make install is in exactly one
#    package (none lost, none twice);
#  - libe1npu0's DEBIAN/symbols lists exactly the library's dynamic symbols
#    (nm -D --defined-only), versions as lib/abi/libe1npu.abi's nodes;
#  - control fields, maintainer scripts (also run, with stand-ins for
#    udevadm and dkms), md5sums; binaries stripped;
#  - Depends from tools/deb/shlibs.map at least what dpkg-shlibdeps says
#    (native packages only: it needs the target's libraries installed);
#  - the .debs are byte for byte the same when built twice;
#  - the DKMS source tree builds e1npu.ko with a plain M= build, and with
#    dkms add + dkms build in private trees (against the riscv64 test
#    kernel of tests/vm, tests/vm/riscv64-kernel.sh; DEB_CHECK_KERNEL=0
#    skips it).
# Prints PASS/FAIL/SKIP lines and "N passed, M failed".
set -uo pipefail
# (no `cmd | grep -q` below: with pipefail, grep -q's early exit can make
# the pipeline fail by SIGPIPE and hide the match)

deb_dir=$(realpath -m "${1:?usage: check-deb.sh DEB_DIR REPRO_DIR DEBVER}")
repro_dir=$(realpath -m "${2:?usage: check-deb.sh DEB_DIR REPRO_DIR DEBVER}")
debver=${3:?usage: check-deb.sh DEB_DIR REPRO_DIR DEBVER}
version=${debver%-*}
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
host_arch=$(dpkg --print-architecture)
arch=${DEB_ARCH:-$host_arch}
multiarch=$(dpkg-architecture -a "$arch" -qDEB_HOST_MULTIARCH 2>/dev/null) ||
	{ echo "check-deb: dpkg-architecture does not know DEB_ARCH=$arch"; exit 1; }
NM=${CROSS_COMPILE:-}nm
export LC_ALL=C
tmp=$(mktemp -d "${TMPDIR:-/tmp}/e1npu-check-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS deb_$1"; }
ko() { fail=$((fail + 1)); echo "FAIL deb_$1"; [ ! -s "$tmp/log" ] || sed 's/^/  /' "$tmp/log"; }
# DEB_CHECK_ONLY="name ...": run only these checks (the self-test below).
check() {
	local name=$1; shift
	[ -z "${DEB_CHECK_ONLY:-}" ] || [[ " $DEB_CHECK_ONLY " == *" $name "* ]] || return 0
	: > "$tmp/log"
	if "$@" > "$tmp/log" 2>&1; then ok "$name"; else ko "$name"; fi
}

ARCH_PKGS="libe1npu0 libe1npu-dev e1npu-tools libe1npu-tflite-delegate"
# the ONNX Runtime EP's package exists where its headers were (ORT_INCDIR)
if [ -f "$deb_dir/e1npu-onnxruntime-ep_${debver}_$arch.deb" ]; then
	ARCH_PKGS="$ARCH_PKGS e1npu-onnxruntime-ep"
else
	echo "check-deb: e1npu-onnxruntime-ep not built (no ONNX Runtime headers: ORT_INCDIR): not checked"
fi
ALL_PKGS="$ARCH_PKGS e1npu-dkms"
debfile() { if [ "$1" = e1npu-dkms ]; then echo "$deb_dir/${1}_${debver}_all.deb"; else echo "$deb_dir/${1}_${debver}_$arch.deb"; fi; }
for p in $ALL_PKGS; do
	if [ ! -f "$(debfile "$p")" ]; then
		echo "check-deb: $(debfile "$p") missing: run make deb first"
		echo "0 passed, 1 failed"
		exit 1
	fi
	mkdir -p "$tmp/x/$p" "$tmp/c/$p"
	dpkg-deb -x "$(debfile "$p")" "$tmp/x/$p"
	dpkg-deb -e "$(debfile "$p")" "$tmp/c/$p"
done
maintainer=$(sed -n 's/^M:[[:space:]]*//p' "$TOP/MAINTAINERS" | sed -n 1p)

# ---- lintian -----------------------------------------------------------------
t_lintian() {
	local out=$tmp/lintian.out rc=0 bad=0 sev pkg tag ctx line
	local debs=() p
	for p in $ALL_PKGS; do debs+=("$(debfile "$p")"); done
	lintian --fail-on none --display-info --pedantic --tag-display-limit 0 \
		"${debs[@]}" > "$out" 2> "$tmp/lintian.err" || rc=$?
	[ "$rc" = 0 ] || { echo "lintian itself failed (exit $rc):"; cat "$tmp/lintian.err" "$out"; return 1; }
	sed '/^#/d; /^[[:space:]]*$/d' "$HERE/lintian-allow" > "$tmp/allow"
	: > "$tmp/used"
	while IFS= read -r line; do
		[[ "$line" =~ ^([EWIPX]):\ ([^:]+):\ ([^ ]+)\ ?(.*)$ ]] || continue
		sev=${BASH_REMATCH[1]} pkg=${BASH_REMATCH[2]} tag=${BASH_REMATCH[3]} ctx=${BASH_REMATCH[4]}
		echo "$line"
		case "$sev" in E | W) ;; *) continue ;; esac
		local n=0 hit=0 apkg atag actx
		while read -r apkg atag actx; do
			n=$((n + 1))
			[ "$apkg" = "*" ] || [ "$apkg" = "$pkg" ] || continue
			[ "$atag" = "$tag" ] || continue
			[ -z "$actx" ] || [ "$actx" = "$ctx" ] || continue
			hit=$n
			break
		done < "$tmp/allow"
		if [ "$hit" = 0 ]; then
			echo "  ^ not accepted by tools/deb/lintian-allow: fix it, or add it there with the reason"
			bad=1
		else
			echo "  ^ accepted: tools/deb/lintian-allow"
			echo "$hit" >> "$tmp/used"
		fi
	done < "$out"
	local i=0 a
	while IFS= read -r a; do
		i=$((i + 1))
		grep -qx "$i" "$tmp/used" || echo "note: tools/deb/lintian-allow: '$a' no longer needed: delete it"
	done < "$tmp/allow"
	return $bad
}
check lintian t_lintian
# what lintian said, also when it passed
[ "$fail" != 0 ] || [ -n "${DEB_CHECK_ONLY:-}" ] || sed 's/^/  /' "$tmp/log"

# ---- contents ----------------------------------------------------------------
# expected PKG: the package's files from contents.list, placeholders expanded.
expected() {
	local p=$1 f
	sed '/^#/d; /^[[:space:]]*$/d' "$HERE/contents.list" | awk -v p="$p" '$1 == p { print $2 }' |
	while IFS= read -r f; do
		case "$f" in
		@MANPAGES@) for m in "$TOP"/tools/*/*.1; do [ -e "$m" ] && echo "usr/share/man/man1/${m##*/}.gz"; done ;;
		@KERNEL_SOURCES@) for k in "$TOP"/kernel/*.[ch] "$TOP"/hw/*.[ch]; do echo "usr/src/e1npu-$version/${k##*/}"; done ;;
		*) echo "$f" | sed -e "s|@MULTIARCH@|$multiarch|g" -e "s|@VERSION@|$version|g" ;;
		esac
	done | sort
}
listed() { dpkg-deb -c "$(debfile "$1")" | awk '$1 !~ /^d/ { print $6 }' | sed 's|^\./||' | sort; }
t_contents() {
	local p=$1
	expected "$p" > "$tmp/exp.$p"
	listed "$p" > "$tmp/got.$p"
	if ! diff -u "$tmp/exp.$p" "$tmp/got.$p" > "$tmp/d"; then
		echo "$p: contents differ from tools/deb/contents.list (-: listed, +: packaged):"
		sed -n '3,$p' "$tmp/d" | grep '^[-+]'
		return 1
	fi
	local owners
	owners=$(dpkg-deb -c "$(debfile "$p")" | awk '$2 != "root/root" { print $2, $6 }')
	[ -z "$owners" ] || { echo "$p: entries not owned by root/root:"; echo "$owners"; return 1; }
}
for p in $ALL_PKGS; do check "contents_$p" t_contents "$p"; done

# Every staged file in exactly one package (man pages as .gz there).
t_split() {
	local p
	for p in $ARCH_PKGS; do listed "$p"; done | grep -v '^usr/share/doc/' |
		sed 's|^\(usr/share/man/.*\)\.gz$|\1|' | sort > "$tmp/packaged"
	local twice
	twice=$(uniq -d "$tmp/packaged")
	[ -z "$twice" ] || { echo "in more than one package:"; echo "$twice"; return 1; }
	[ -s "$deb_dir/stage.list" ] || { echo "$deb_dir/stage.list missing or empty"; return 1; }
	if ! diff -u "$deb_dir/stage.list" "$tmp/packaged" > "$tmp/d"; then
		echo "staged install vs packages (-: staged, in no package; +: packaged, not staged):"
		sed -n '3,$p' "$tmp/d" | grep '^[-+]'
		return 1
	fi
}
check split_stage_exactly_once t_split

# ---- symbols -----------------------------------------------------------------
t_symbols() {
	local c=$tmp/c/libe1npu0 so
	so=$(find "$tmp/x/libe1npu0/usr/lib/$multiarch" -name 'libe1npu.so.0.*' -type f)
	[ -n "$so" ] || { echo "no libe1npu.so.0.* in libe1npu0"; return 1; }
	[ -f "$c/symbols" ] || { echo "libe1npu0 has no DEBIAN/symbols"; return 1; }
	head -1 "$c/symbols" | grep -x >/dev/null 'libe1npu.so.0 libe1npu0 #MINVER#' ||
		{ echo "symbols header: $(head -1 "$c/symbols")"; return 1; }
	grep -qx '\* Build-Depends-Package: libe1npu-dev' "$c/symbols" ||
		{ echo "symbols: no '* Build-Depends-Package: libe1npu-dev'"; return 1; }
	"$NM" -D --defined-only "$so" | awk '{ print $(NF-1), $NF }' | while read -r t n; do
		if [ "$t" = A ]; then echo "$n@$n"; else echo "${n%%@*}@${n##*@}"; fi
	done | sort -u > "$tmp/nm"
	awk '/^ / { print $1 }' "$c/symbols" | sort > "$tmp/sym"
	if ! diff -u "$tmp/nm" "$tmp/sym" > "$tmp/d"; then
		echo "DEBIAN/symbols vs nm -D --defined-only (-: exported only, +: symbols file only):"
		sed -n '3,$p' "$tmp/d" | grep '^[-+]'
		return 1
	fi
	# each version: the node's release <maj>.<min>.0, not newer than the package
	awk '/^ / { print $1, $2 }' "$c/symbols" | while read -r s v; do
		node=${s##*@}
		want=$(echo "$node" | sed -n 's/^LIBE1NPU\(_[A-Z0-9]*\)\{0,1\}_\([0-9]*\)\.\([0-9]*\)$/\2.\3.0/p')
		[ "$v" = "$want" ] || echo "$s: version $v, its node $node says ${want:-?}"
		dpkg --compare-versions "$v" le "$version" || echo "$s: version $v newer than $version"
	done > "$tmp/badver"
	[ ! -s "$tmp/badver" ] || { cat "$tmp/badver"; return 1; }
	# the baseline's symbols are all there
	sed -n "s/.*<elf-symbol name='\([^']*\)' version='\([^']*\)'.*/\1@\2/p" "$TOP/lib/abi/libe1npu.abi" |
		sort -u | comm -23 - "$tmp/sym" > "$tmp/missing"
	[ ! -s "$tmp/missing" ] || { echo "in lib/abi/libe1npu.abi, not in DEBIAN/symbols:"; cat "$tmp/missing"; return 1; }
	echo "$(wc -l < "$tmp/sym") symbols = nm -D exports"
}
check symbols_equal_exports t_symbols

t_shlibs_triggers() {
	local c=$tmp/c/libe1npu0
	grep -qx "libe1npu 0 libe1npu0 (>= $version)" "$c/shlibs" 2>/dev/null ||
		{ echo "DEBIAN/shlibs: $(cat "$c/shlibs" 2>&1)"; return 1; }
	grep -v '^#' "$c/triggers" 2>/dev/null | grep -x >/dev/null 'activate-noawait ldconfig' ||
		{ echo "DEBIAN/triggers lacks 'activate-noawait ldconfig'"; return 1; }
}
check shlibs_triggers t_shlibs_triggers

# ---- control fields, scripts, md5sums -----------------------------------------
t_control() {
	local p=$1 c=$tmp/c/$1/control f bad=0 want_arch=$arch
	[ "$p" = e1npu-dkms ] && want_arch=all
	for f in Package Source Version Architecture Maintainer Installed-Size Section Priority Description; do
		grep -q "^$f: ." "$c" || { echo "$p: no $f field"; bad=1; }
	done
	val() { sed -n "s/^$1: //p" "$c"; }
	[ "$(val Package)" = "$p" ] || { echo "Package: $(val Package)"; bad=1; }
	[ "$(val Version)" = "$debver" ] || { echo "Version: $(val Version), want $debver"; bad=1; }
	[ "$(val Architecture)" = "$want_arch" ] || { echo "Architecture: $(val Architecture), want $want_arch"; bad=1; }
	[ "$(val Maintainer)" = "$maintainer" ] || { echo "Maintainer: $(val Maintainer), MAINTAINERS says $maintainer"; bad=1; }
	[ "$(val Priority)" = optional ] || { echo "Priority: $(val Priority)"; bad=1; }
	# Installed-Size as dpkg-gencontrol counts it
	local size
	size=$(cd "$tmp/x/$p" && find . ! -path . -printf '%y %s\n' |
		awk '$1 == "f" { n += int(($2 + 1023) / 1024) } $1 != "f" { n++ } END { print n }')
	[ "$(val Installed-Size)" = "$size" ] || { echo "Installed-Size: $(val Installed-Size), files: $size"; bad=1; }
	case "$p" in
	libe1npu0 | libe1npu-dev | libe1npu-tflite-delegate) [ "$(val Multi-Arch)" = same ] || { echo "Multi-Arch: $(val Multi-Arch), want same"; bad=1; } ;;
	e1npu-tools | e1npu-dkms) [ "$(val Multi-Arch)" = foreign ] || { echo "Multi-Arch: $(val Multi-Arch), want foreign"; bad=1; } ;;
	esac
	case "$p" in
	libe1npu-dev) val Depends | grep -F >/dev/null "libe1npu0 (= $debver)" || { echo "Depends: $(val Depends): no libe1npu0 (= $debver)"; bad=1; } ;;
	e1npu-dkms) [ "$(val Depends)" = dkms ] || { echo "Depends: $(val Depends), want dkms"; bad=1; } ;;
	esac
	# maintainer scripts: the expected ones, valid sh
	local s want=""
	case "$p" in e1npu-tools) want="postinst postrm" ;; e1npu-dkms) want="postinst prerm" ;; esac
	for s in preinst postinst prerm postrm; do
		if [ -e "$tmp/c/$p/$s" ]; then
			[[ " $want " == *" $s "* ]] || { echo "unexpected DEBIAN/$s"; bad=1; }
			sh -n "$tmp/c/$p/$s" || { echo "DEBIAN/$s: sh -n failed"; bad=1; }
			[ -x "$tmp/c/$p/$s" ] || { echo "DEBIAN/$s not executable"; bad=1; }
			grep -q '@VERSION@' "$tmp/c/$p/$s" && { echo "DEBIAN/$s: @VERSION@ left"; bad=1; }
		else
			[[ " $want " != *" $s "* ]] || { echo "no DEBIAN/$s"; bad=1; }
		fi
	done
	# md5sums: every regular file, and right
	(cd "$tmp/x/$p" && find . -type f -printf '%P\n' | sort) > "$tmp/files"
	awk '{ print $2 }' "$tmp/c/$p/md5sums" | sort > "$tmp/summed"
	cmp -s "$tmp/files" "$tmp/summed" || { echo "md5sums does not list exactly the files:"; diff "$tmp/files" "$tmp/summed"; bad=1; }
	(cd "$tmp/x/$p" && md5sum --quiet -c "$tmp/c/$p/md5sums") || bad=1
	# copyright in DEP-5, a changelog.Debian.gz
	head -1 "$tmp/x/$p/usr/share/doc/$p/copyright" | grep -x >/dev/null 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
		{ echo "copyright is not DEP-5"; bad=1; }
	gzip -t "$tmp/x/$p/usr/share/doc/$p/changelog.Debian.gz" || { echo "no valid changelog.Debian.gz"; bad=1; }
	return $bad
}
for p in $ALL_PKGS; do check "control_$p" t_control "$p"; done

# ---- binaries --------------------------------------------------------------
is_elf() { [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' \n')" = 7f454c46 ]; }
t_stripped() {
	local p f bad=0 n=0
	for p in $ARCH_PKGS; do
		while IFS= read -r -d '' f; do
			case "$f" in
			*.a) if readelf -S "$f" | grep >/dev/null '\.debug_'; then echo "${f#"$tmp"/x/}: debug sections"; bad=1; fi ;;
			*) is_elf "$f" || continue
			   n=$((n + 1))
			   if readelf -S "$f" | grep -E >/dev/null '\.symtab|\.debug_|\.comment'; then echo "${f#"$tmp"/x/}: not stripped"; bad=1; fi ;;
			esac
		done < <(find "$tmp/x/$p" -type f -print0)
	done
	[ "$n" -ge 5 ] || { echo "only $n ELF files in the packages"; bad=1; }
	return $bad
}
check binaries_stripped t_stripped

# Our Depends (shlibs.map) against dpkg-shlibdeps, which can do it natively:
# every package it names is in ours, with a minimum version at least its.
t_shlibdeps() {
	local p f bad=0 ours theirs item name ver
	mkdir -p "$tmp/sd/debian"
	printf 'Source: e1npu\n\nPackage: x\nArchitecture: any\n' > "$tmp/sd/debian/control"
	for p in libe1npu0 e1npu-tools libe1npu-tflite-delegate; do
		mapfile -t elfs < <(find "$tmp/x/$p" -type f \( -path '*/bin/*' -o -name '*.so*' \))
		theirs=$(cd "$tmp/sd" && dpkg-shlibdeps -O "${elfs[@]}" 2>&1 | sed -n 's/^shlibs:Depends=//p')
		[ -n "$theirs" ] || { echo "$p: dpkg-shlibdeps gave nothing"; bad=1; continue; }
		ours=$(sed -n 's/^Depends: //p' "$tmp/c/$p/control")
		echo "$p: ours: $ours"
		echo "$p: dpkg-shlibdeps: $theirs"
		while IFS= read -r item; do
			name=$(echo "$item" | awk '{ print $1 }')
			ver=$(echo "$item" | sed -n 's/.*(>= \(.*\))/\1/p')
			local alt found=0 v
			while IFS= read -r alt; do
				[ "$(echo "$alt" | awk '{ print $1 }')" = "$name" ] || continue
				v=$(echo "$alt" | sed -n 's/.*(>= \(.*\))/\1/p')
				if [ -z "$ver" ] || { [ -n "$v" ] && dpkg --compare-versions "$v" ge "$ver"; }; then found=1; fi
			done < <(echo "$ours" | sed 's/[,|]/\n/g' | sed 's/^ *//; s/ *$//')
			[ "$found" = 1 ] || { echo "$p: dpkg-shlibdeps wants '$item', tools/deb/shlibs.map gives less"; bad=1; }
		done < <(echo "$theirs" | tr ',' '\n' | sed 's/^ *//; s/ *$//')
	done
	return $bad
}
if [ "$arch" = "$host_arch" ]; then
	check depends_cover_shlibdeps t_shlibdeps
elif [ -z "${DEB_CHECK_ONLY:-}" ]; then
	echo "SKIP deb_depends_cover_shlibdeps ($arch packages: dpkg-shlibdeps needs $arch libraries installed)"
fi

# ---- reproducibility -------------------------------------------------------
t_repro() {
	local p a b bad=0
	for p in $ALL_PKGS; do
		a=$(debfile "$p")
		b=$repro_dir/${a##*/}
		[ -f "$b" ] || { echo "$b missing"; bad=1; continue; }
		cmp -s "$a" "$b" || { echo "${a##*/} differs between $deb_dir and $repro_dir"; bad=1; }
	done
	return $bad
}
check reproducible t_repro

# ---- DKMS ------------------------------------------------------------------
t_dkms_conf() {
	local c=$tmp/x/e1npu-dkms/usr/src/e1npu-$version/dkms.conf bad=0 l
	[ -f "$c" ] || { echo "no usr/src/e1npu-$version/dkms.conf"; return 1; }
	for l in 'PACKAGE_NAME="e1npu"' "PACKAGE_VERSION=\"$version\"" 'BUILT_MODULE_NAME\[0\]="e1npu"' \
		'DEST_MODULE_LOCATION\[0\]="/updates/dkms"' 'AUTOINSTALL="yes"' 'MAKE\[0\]="make -C .* M=.*"'; do
		grep -qx "$l" "$c" || { echo "dkms.conf: no line matching $l"; bad=1; }
	done
	bash -n "$c" || bad=1
	# the postinst and prerm name the same module and version
	grep -qx "VERSION=$version" "$tmp/c/e1npu-dkms/postinst" || { echo "postinst: not VERSION=$version"; bad=1; }
	grep -qx "VERSION=$version" "$tmp/c/e1npu-dkms/prerm" || { echo "prerm: not VERSION=$version"; bad=1; }
	return $bad
}
check dkms_conf t_dkms_conf

t_dkms_build() {
	local kc src=$tmp/dkms-build
	kc=$("$TOP/tests/vm/riscv64-kernel.sh") || { echo "the riscv64 test kernel (tests/vm/riscv64-kernel.sh) failed"; return 1; }
	cp -r "$tmp/x/e1npu-dkms/usr/src/e1npu-$version" "$src"
	# not our make's MAKEFLAGS: its O= would be the kernel's output tree
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$kc/obj" M="$src" ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu- -j2 modules ||
		{ echo "M= build of the DKMS tree against $(cat "$kc/kernel.release") failed"; return 1; }
	[ -f "$src/e1npu.ko" ] || { echo "no e1npu.ko built"; return 1; }
	readelf -h "$src/e1npu.ko" | grep >/dev/null 'Machine:.*RISC-V' || { echo "e1npu.ko is not RISC-V"; return 1; }
	echo "e1npu.ko built from usr/src/e1npu-$version against $(cat "$kc/kernel.release")"
	# dkms itself on the packaged dkms.conf, in private trees (nothing of
	# the host's /var/lib/dkms): add, build (a cross build: ARCH and
	# CROSS_COMPILE from the environment, as dkms passes neither)
	local kver dt=$tmp/dkms-tree st=$tmp/x/e1npu-dkms/usr/src
	kver=$(cat "$kc/kernel.release")
	mkdir -p "$dt"
	dkms add -m e1npu -v "$version" --dkmstree "$dt" --sourcetree "$st" ||
		{ echo "dkms add failed"; return 1; }
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu- \
		dkms build -m e1npu -v "$version" -k "$kver" -a riscv --kernelsourcedir "$kc/obj" \
		--dkmstree "$dt" --sourcetree "$st" ||
		{ cat "$dt/e1npu/$version/build/make.log" 2>/dev/null; echo "dkms build failed"; return 1; }
	[ -f "$dt/e1npu/$version/$kver/riscv/module/e1npu.ko" ] ||
		{ echo "dkms build made no $dt/e1npu/$version/$kver/riscv/module/e1npu.ko"; return 1; }
	echo "dkms add + build: e1npu/$version, $kver, riscv: built"
}
if [ "${DEB_CHECK_KERNEL:-1}" = 0 ]; then
	[ -n "${DEB_CHECK_ONLY:-}" ] || echo "SKIP deb_dkms_tree_builds (DEB_CHECK_KERNEL=0)"
else
	check dkms_tree_builds t_dkms_build
fi

# Maintainer scripts, run here with stand-ins for udevadm and dkms that
# only log their arguments (nothing on the host changes): no udevadm, or
# no udevd: nothing, exit 0; udevd running: reload + trigger of the accel
# nodes. prerm: dkms remove only when dkms knows the version.
t_scripts() {
	local fake=$tmp/fakebin c=$tmp/c bad=0 want
	mkdir -p "$fake" "$tmp/nobin"
	# shellcheck disable=SC2016 # $* and $1 are the stand-ins' own
	printf '#!/bin/sh
echo "udevadm $*" >> "%s/calls"
' "$tmp" > "$fake/udevadm"
	# shellcheck disable=SC2016
	printf '#!/bin/sh
echo "dkms $*" >> "%s/calls"
[ "$1" != status ] || cat "%s/dkms-status" 2>/dev/null
' "$tmp" "$tmp" > "$fake/dkms"
	chmod +x "$fake/udevadm" "$fake/dkms"
	ln -sf "$(command -v sh)" "$tmp/nobin/sh"
	: > "$tmp/calls"
	PATH=$tmp/nobin sh "$c/e1npu-tools/postinst" configure "" || { echo "postinst without udevadm failed"; bad=1; }
	PATH=$tmp/nobin sh "$c/e1npu-tools/postrm" purge || { echo "postrm without udevadm failed"; bad=1; }
	[ ! -s "$tmp/calls" ] || { echo "calls without udevadm:"; cat "$tmp/calls"; bad=1; }
	local udevd=$'udevadm control --reload-rules\nudevadm trigger --subsystem-match=accel --action=change\nudevadm control --reload-rules'
	PATH=$fake:$PATH sh "$c/e1npu-tools/postinst" configure "" || { echo "postinst failed"; bad=1; }
	PATH=$fake:$PATH sh "$c/e1npu-tools/postrm" remove || { echo "postrm failed"; bad=1; }
	if [ -S /run/udev/control ]; then want=$udevd; else want=""; fi
	[ "$(cat "$tmp/calls")" = "$want" ] || { echo "udevadm calls (udevd ${want:+not }absent):"; cat "$tmp/calls"; echo "wanted:"; echo "$want"; bad=1; }
	# the other case, in a private mount namespace: a tmpfs /run with (or
	# without) a udevd control socket; where unshare is not allowed
	# (an unprivileged container), only this machine's case is tested
	if unshare -m --propagation private true 2>/dev/null; then
		: > "$tmp/calls"
		local have=1
		[ -S /run/udev/control ] && have=0
		# shellcheck disable=SC2016 # expanded by the inner sh
		unshare -m --propagation private sh -c '
			mount -t tmpfs none /run && mkdir /run/udev &&
			if [ "$1" = 1 ]; then python3 -c "import socket; socket.socket(socket.AF_UNIX).bind(\"/run/udev/control\")"; fi &&
			PATH=$2:$PATH sh "$3/postinst" configure "" && PATH=$2:$PATH sh "$3/postrm" remove' \
			sh "$have" "$fake" "$c/e1npu-tools" || { echo "scripts in a namespace failed"; bad=1; }
		if [ "$have" = 1 ]; then want=$udevd; else want=""; fi
		[ "$(cat "$tmp/calls")" = "$want" ] || { echo "udevadm calls (udevd ${want:+not }absent, namespace):"; cat "$tmp/calls"; echo "wanted:"; echo "$want"; bad=1; }
	else
		echo "note: unshare -m not allowed here: only the udevd-$([ -S /run/udev/control ] && echo present || echo absent) case tested"
	fi
	: > "$tmp/calls"
	PATH=$fake:$PATH sh "$c/e1npu-dkms/prerm" remove || { echo "prerm failed"; bad=1; }
	echo "e1npu/$version, 6.12.0, riscv64: installed" > "$tmp/dkms-status"
	PATH=$fake:$PATH sh "$c/e1npu-dkms/prerm" upgrade || { echo "prerm failed"; bad=1; }
	want="dkms status -m e1npu -v $version"$'\n'"dkms status -m e1npu -v $version"$'\n'"dkms remove -m e1npu -v $version --all"
	[ "$(cat "$tmp/calls")" = "$want" ] || { echo "dkms calls:"; cat "$tmp/calls"; echo "wanted:"; echo "$want"; bad=1; }
	return $bad
}
check maintainer_scripts t_scripts

# The checks themselves: packages spoilt on purpose must fail them, saying
# what is wrong (libe1npu0 without a symbol in DEBIAN/symbols and with an
# executable shared library, e1npu-tools with a file no rule expects).
# repack DEB DIR: DEB's tree (with DEBIAN/) into DIR, for rebuilding.
t_checks_catch() {
	local bad=$tmp/spoilt t=$tmp/repack rc=0 out=$tmp/spoilt.out so
	mkdir -p "$bad"
	cp "$deb_dir"/*.deb "$deb_dir/stage.list" "$bad/"
	rm -rf "$t" && dpkg-deb -R "$(debfile libe1npu0)" "$t"
	sed -i '/^ e1npu_requant_from_scale@/d' "$t/DEBIAN/symbols"
	so=$(find "$t/usr/lib" -name 'libe1npu.so.0.*' -type f)
	chmod 0755 "$so"
	dpkg-deb --root-owner-group -b "$t" "$bad/$(basename "$(debfile libe1npu0)")" > /dev/null
	rm -rf "$t" && dpkg-deb -R "$(debfile e1npu-tools)" "$t"
	echo stray > "$t/usr/bin/e1npu-stray"
	dpkg-deb --root-owner-group -b "$t" "$bad/$(basename "$(debfile e1npu-tools)")" > /dev/null
	DEB_CHECK_ONLY="lintian symbols_equal_exports contents_e1npu-tools split_stage_exactly_once" \
		DEB_CHECK_KERNEL=0 "$0" "$bad" "$bad" "$debver" > "$out" 2>&1 || rc=$?
	[ "$rc" != 0 ] || { echo "check-deb.sh passed spoilt packages:"; cat "$out"; return 1; }
	local want
	for want in 'FAIL deb_lintian' 'not accepted by tools/deb/lintian-allow' \
		'FAIL deb_symbols_equal_exports' '-e1npu_requant_from_scale@LIBE1NPU_0.1' \
		'FAIL deb_contents_e1npu-tools' '+usr/bin/e1npu-stray' \
		'FAIL deb_split_stage_exactly_once' '0 passed, 4 failed'; do
		grep -q -F -- "$want" "$out" || { echo "check-deb.sh on spoilt packages did not say '$want':"; cat "$out"; return 1; }
	done
}
[ -n "${DEB_CHECK_ONLY:-}" ] || check checks_catch_spoilt_packages t_checks_catch

echo "check-deb: $(for p in $ALL_PKGS; do f=$(debfile "$p"); printf '%s %s B; ' "${f##*/}" "$(stat -c %s "$f")"; done)"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
