#!/bin/sh
# SPDX-License-Identifier: MIT
#
# libe1npu's ABI hygiene (make check-abi; Documentation/libe1npu.md, "ABI"):
#  - the symbol list lib/libe1npu.sym = the headers' e1npu_* functions =
#    libe1npu.so's exports (check-symbols.sh), and that check fails, with
#    the line to add, when a declared function is missing from the list;
#  - after `make install DESTDIR=`: the installed libe1npu.a defines no
#    global but the listed ones; each installed header compiles alone
#    (C, and C++ when a C++ compiler is there); the datapath opcodes of
#    e1npu_op_desc_dp_scalar() are usable from the installed headers; no
#    installed header cites "the document";
#  - abidiff of the installed libe1npu.so against the committed baseline
#    lib/abi/libe1npu.abi: anything but added symbols fails (refresh the
#    baseline deliberately with `make abi-update`).
# Prints one PASS/FAIL line per check and "N passed, M failed".
# Usage: check-abi.sh MAKE O SAN_O CC
set -u
make_cmd=$1 o=$2 san_o=$3 cc=$4
here=$(dirname "$0")
symfile=lib/libe1npu.sym
baseline=lib/abi/libe1npu.abi
prefix=/usr/local
tmp=$(mktemp -d "${TMPDIR:-/tmp}/e1npu-abi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS abi_$1"; }
ko() { fail=$((fail + 1)); echo "FAIL abi_$1"; [ ! -s "$tmp/log" ] || sed 's/^/  /' "$tmp/log"; }
check() { name=$1; shift; : > "$tmp/log"; if "$@" > "$tmp/log" 2>&1; then ok "$name"; else ko "$name"; fi; }

if ! $make_cmd --no-print-directory O="$o" SAN_O="$san_o" install \
	DESTDIR="$tmp/root" PREFIX="$prefix" > "$tmp/install.log" 2>&1; then
	cat "$tmp/install.log"
	echo "check-abi: make install failed"
	echo "0 passed, 1 failed"
	exit 1
fi
root=$tmp/root$prefix
so=$root/lib/libe1npu.so.0

t_symbols() { sh "$here/check-symbols.sh" "$so" "$symfile" include "$cc"; }
t_symbols_installed_headers() { sh "$here/check-symbols.sh" "$so" "$symfile" "$root/include" "$cc"; }
# The check itself: a list without one declared function must fail and
# say which line to add.
t_symbols_catches_missing() {
	grep -v '^[[:space:]]*e1npu_requant_from_scale;' "$symfile" > "$tmp/short.sym"
	if sh "$here/check-symbols.sh" "$so" "$tmp/short.sym" include "$cc" > "$tmp/out"; then
		echo "a list without e1npu_requant_from_scale passed"
		return 1
	fi
	grep -q "e1npu_requant_from_scale is declared in include/e1npu/e1npu_ops.h but not listed in $tmp/short.sym: add the line '	e1npu_requant_from_scale;'" "$tmp/out" ||
		{ cat "$tmp/out"; return 1; }
	printf 'LIBE1NPU_0.1 {\nglobal:\n\te1npu_*;\nlocal:\n\t*;\n};\n' > "$tmp/wild.sym"
	sh "$here/check-symbols.sh" "$so" "$tmp/wild.sym" include "$cc" > "$tmp/out" && return 1
	grep -q "wildcard 'e1npu_\*;'" "$tmp/out" || { cat "$tmp/out"; return 1; }
}
# Static linking must see only the API (nothing like ref_*, e1_model_*).
t_static_archive_globals() {
	nm -g --defined-only "$root/lib/libe1npu.a" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/a-globals"
	sed -n 's/^[[:space:]]*\(e1npu_[A-Za-z0-9_]*\);.*/\1/p' "$symfile" | sort -u > "$tmp/list"
	[ -s "$tmp/a-globals" ] || { echo "no global symbol in the installed libe1npu.a"; return 1; }
	if grep -v '^e1npu_' "$tmp/a-globals" > "$tmp/stray"; then
		echo "installed libe1npu.a defines $(wc -l < "$tmp/stray") globals without the e1npu_ prefix, e.g.:"
		head -5 "$tmp/stray"
		return 1
	fi
	comm -3 "$tmp/list" "$tmp/a-globals" > "$tmp/d"
	[ ! -s "$tmp/d" ] || { echo "installed libe1npu.a globals differ from $symfile (left: list only, right: archive only):"; cat "$tmp/d"; return 1; }
}
t_headers_alone() {
	rc=0
	for h in "$root"/include/e1npu/*.h; do
		b=$(basename "$h")
		printf '#include <e1npu/%s>\n' "$b" > "$tmp/one.c"
		$cc -std=c11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$root/include" "$tmp/one.c" ||
			{ echo "installed e1npu/$b does not compile on its own"; rc=1; }
	done
	return $rc
}
# C++ users get the same declarations (extern "C"), when a C++ compiler
# is installed (Debian's g++ is not a build dependency).
t_headers_alone_cxx() {
	cxx=$(command -v c++ || command -v g++) || { echo "no C++ compiler: skipped"; return 0; }
	rc=0
	for h in "$root"/include/e1npu/*.h; do
		b=$(basename "$h")
		printf '#include <e1npu/%s>\n' "$b" |
			$cxx -std=c++11 -Wall -Wextra -Wpedantic -Werror -fsyntax-only \
				-I"$root/include" -x c++ - ||
			{ echo "installed e1npu/$b does not compile alone as C++"; rc=1; }
	done
	return $rc
}
t_dp_opcodes_installed() {
	cat > "$tmp/dp.c" <<'C'
#include <e1npu/e1npu.h>
int main(void)
{
	struct e1npu_op_desc d;
	struct e1npu_tensor t = { 0 };

	e1npu_op_desc_dp_scalar(&d, t, t, E1NPU_DP_OP_EXP2_NEG_Q0_8, 1, 0);
	return d.k == 15 && d.opcode == E1NPU_OP_DP_SCALAR ? 0 : 1;
}
C
	$cc -std=c11 -Wall -Werror -I"$root/include" "$tmp/dp.c" -o "$tmp/dp" \
		-L"$root/lib" -Wl,-rpath,"$root/lib" -le1npu && "$tmp/dp"
}
t_no_document_citation() {
	! grep -n -i -E 'the document([^a-z]|$)' "$root"/include/e1npu/*.h
}
t_abidiff_baseline() {
	[ -f "$baseline" ] || { echo "no $baseline: run make abi-update"; return 1; }
	abidiff --no-added-syms "$baseline" "$so" > "$tmp/abidiff"
	st=$?
	if [ $st != 0 ]; then
		cat "$tmp/abidiff"
		echo "abidiff exit status $st (4: ABI change, 8/12: incompatible) against $baseline."
		echo "An intended change: make abi-update and commit $baseline with it."
		return 1
	fi
	abidiff "$baseline" "$so" > "$tmp/abidiff" 2>&1
	if grep -q 'Added function' "$tmp/abidiff"; then
		echo "note: functions added since $baseline (compatible); record them with make abi-update:"
		grep "^  \[A\]" "$tmp/abidiff"
	fi
	return 0
}
# The baseline check can fail: the baseline against a library without
# e1npu_fc_run is a removed function.
t_abidiff_catches_removal() {
	grep -v '^[[:space:]]*e1npu_fc_run;' "$symfile" > "$tmp/less.sym"
	$cc -shared -Wl,-soname,libe1npu.so.0 -Wl,--version-script="$tmp/less.sym" \
		-o "$tmp/less.so" -Wl,--whole-archive "$o/lib/libe1npu-internal.a" \
		-Wl,--no-whole-archive -ldrm -ludev -lm || return 1
	abidiff --no-added-syms "$baseline" "$tmp/less.so" > "$tmp/out"
	st=$?
	[ $st != 0 ] && grep -q "e1npu_fc_run" "$tmp/out" || { echo "status $st"; cat "$tmp/out"; return 1; }
}

for t in symbols symbols_installed_headers symbols_catches_missing static_archive_globals \
	headers_alone headers_alone_cxx dp_opcodes_installed no_document_citation abidiff_baseline \
	abidiff_catches_removal; do
	check "$t" "t_$t"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
