#!/bin/sh
# SPDX-License-Identifier: MIT
#
# noshared-check.sh: the guests' files without shared/ (issue 30). With
# SHARED_DIR a directory that does not exist, in a scratch build tree:
#  1. no file of VM_GUEST_FILES / VM_RISCV_GUEST_FILES (make vm-guest-files)
#     is read from SHARED_DIR: the guest gets only what make makes;
#  2. make -n of all of them succeeds (each has a rule or exists: the
#     vm-riscv64* targets build them before packing);
#  3. classify-host.txt and art-{big,small}-host.txt, made for real, say
#     "SKIP PATH absent", naming the small MobileNet under SHARED_DIR (the
#     guest scripts skip their checks with that reason);
#  4. a skip file is made again when the files under SHARED_DIR change
#     (SHARED_STATE), and not otherwise: no stale skip once shared/ appears.
# Prints each verdict, then "N passed, M failed (check-noshared)".
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP" || exit 2
# a make of its own: not the parent's flags, variables or shared/ paths
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES GNUMAKEFLAGS
unset SHARED_DIR MODELS_DIR ZOO_DIR TEST_IMAGE
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
A=$d/absent
O=$d/o
mk() { make --no-print-directory O="$O" "$@"; }
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "  PASS  noshared: $*"; }
ko() { fail=$((fail + 1)); echo "  FAIL  noshared: $*"; }

files=$(mk -s SHARED_DIR="$A" vm-guest-files 2>"$d/err") || { cat "$d/err"; ko "make vm-guest-files failed"; }
# shellcheck disable=SC2086
n=$(printf '%s\n' $files | grep -c .)
if [ "$n" -ge 10 ]; then ok "$n guest files listed"; else ko "only $n guest files listed: $files"; fi
# shellcheck disable=SC2086
from=$(printf '%s\n' $files | grep -F "$A" || true)
if [ -z "$from" ]; then ok "no guest file is read from SHARED_DIR"; else ko "guest files from the absent SHARED_DIR: $from"; fi

# shellcheck disable=SC2086
if mk -n SHARED_DIR="$A" $files >"$d/dry" 2>&1; then
	ok "make -n of every guest file"
else
	grep -E 'No rule|\*\*\*' "$d/dry" | head -n 5 | sed 's/^/    | /'
	ko "make -n of the guest files failed"
fi

model=$A/models/mobilenet_v1_0.25_128_quant.tflite
for f in tests/lib/classify-host.txt tests/artifact/art-big-host.txt tests/artifact/art-small-host.txt; do
	if mk SHARED_DIR="$A" "$O/$f" >"$d/log" 2>&1 && grep -q "^SKIP $model absent " "$O/$f" &&
		[ "$(wc -l <"$O/$f")" = 1 ]; then
		ok "$f: $(cat "$O/$f")"
	else
		grep -h -E '\*\*\*|SKIP' "$d/log" "$O/$f" 2>/dev/null | head -n 3 | sed 's/^/    | /'
		ko "$f does not say 'SKIP $model absent'"
	fi
done

# remade only when the files under SHARED_DIR change
art=$O/tests/artifact/art-small-host.txt
mk SHARED_DIR="$A" "$art" >"$d/log" 2>&1
if ! grep -q 'SKIP' "$d/log"; then ok "art-small-host.txt not made again, nothing changed"; else ko "art-small-host.txt made again though nothing changed"; fi
mkdir -p "$d/other/models"
: >"$d/other/models/other.tflite"
mk SHARED_DIR="$d/other" "$O/shared-state.txt" >"$d/log" 2>&1
mk SHARED_DIR="$A" "$art" >"$d/log" 2>&1
if grep -q 'SKIP' "$d/log"; then ok "art-small-host.txt made again after SHARED_DIR changed"; else ko "art-small-host.txt kept after SHARED_DIR changed (stale)"; fi

echo "$pass passed, $fail failed (check-noshared)"
[ "$fail" = 0 ]
