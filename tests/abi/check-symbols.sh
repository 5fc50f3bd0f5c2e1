#!/bin/sh
# SPDX-License-Identifier: MIT
#
# libe1npu's symbol list against its headers and its shared library (as
# libdrm's symbol check does): every e1npu_* function declared in a header
# of HEADERDIR/e1npu/ is listed by name in SYMFILE, every listed name is
# declared and exported by SO (nm -D --defined-only), SO exports nothing
# else, and SYMFILE has no wildcard. Each problem is one line saying what
# to change. Exit 0 when consistent, 1 otherwise.
# Usage: check-symbols.sh SO SYMFILE HEADERDIR CC
set -u
so=$1 symfile=$2 hdrdir=$3 cc=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/e1npu-syms.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
bad=0
problem() { echo "check-symbols: $*"; bad=1; }

# Names in the version script: "<tab>name;" lines.
sed -n 's/^[[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\);.*/\1/p' "$symfile" | sort > "$tmp/list"
grep -n '^[[:space:]]*[A-Za-z0-9_]*\*[A-Za-z0-9_*]*;' "$symfile" | grep -v '^[0-9]*:[[:space:]]*\*;' |
while IFS=: read -r n text; do
	echo "check-symbols: $symfile:$n: wildcard '$(echo "$text" | tr -d '[:space:]')': list each symbol by name"
done > "$tmp/wild"
[ -s "$tmp/wild" ] && { cat "$tmp/wild"; bad=1; }

# Functions the headers declare: the compiler's own list (-aux-info), so
# no hand-written C parsing; only e1npu_* names belong to this library.
for h in "$hdrdir"/e1npu/*.h; do
	echo "#include <e1npu/$(basename "$h")>"
done > "$tmp/all.c"
if ! $cc -std=c11 -I"$hdrdir" -aux-info "$tmp/aux" -fsyntax-only "$tmp/all.c" 2>"$tmp/cc.err"; then
	cat "$tmp/cc.err"
	problem "the headers of $hdrdir/e1npu do not compile together (or $cc has no -aux-info: use gcc)"
	exit 1
fi
grep "^/\* $hdrdir/e1npu/[^:]*:[0-9]*:N[CF] \*/ extern " "$tmp/aux" |
	sed -n 's|^/\* \([^:]*\):[0-9]*:.*[ *]\(e1npu_[A-Za-z0-9_]*\) (.*|\2 \1|p' |
	sort -u > "$tmp/decl"
cut -d' ' -f1 "$tmp/decl" > "$tmp/declnames"
[ -s "$tmp/declnames" ] || problem "no e1npu_* function found in $hdrdir/e1npu/*.h"

# What the library exports (version nodes, type A, are not functions).
nm -D --defined-only "$so" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' | sort -u > "$tmp/exported"

while read -r name file; do
	grep -qx "$name" "$tmp/list" ||
		problem "$name is declared in $file but not listed in $symfile: add the line '	$name;' before 'local:' in its last node"
done < "$tmp/decl"
for name in $(comm -23 "$tmp/list" "$tmp/declnames"); do
	problem "$name is listed in $symfile but declared in no header of $hdrdir/e1npu: declare it there or remove its line"
done
for name in $(comm -23 "$tmp/list" "$tmp/exported"); do
	problem "$name is listed in $symfile but $so does not export it: define it with E1NPU_API (lib/internal.h)"
done
for name in $(comm -13 "$tmp/list" "$tmp/exported"); do
	problem "$so exports $name, which $symfile does not list: list it, or make it static / drop E1NPU_API"
done
[ $bad = 0 ] && echo "check-symbols: $(wc -l < "$tmp/list") symbols: listed = declared = exported"
exit $bad
