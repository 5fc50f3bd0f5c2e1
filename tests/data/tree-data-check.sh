#!/bin/sh
# SPDX-License-Identifier: MIT
#
# tree-data-check.sh ALLOW-LIST [GIT-DIR]: every binary file git tracks
# (a non-empty file with a NUL byte or invalid text, as grep -I sees it)
# must match an entry of ALLOW-LIST (tests/data/binary-allow.txt: the
# project's own binary files, each with its reason). Models, weights and
# images copied from public repositories belong in shared/ beside the
# checkout, never in the tree. Prints each file and its verdict, then
# "N passed, M failed".
set -eu
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 ALLOW-LIST [GIT-DIR]" >&2; exit 2; }
allow=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
[ -f "$allow" ] || { echo "tree-data-check: $1: no such allow-list" >&2; exit 2; }
[ $# -eq 2 ] && cd "$2"
git rev-parse --show-toplevel >/dev/null 2>&1 || {
	echo "tree-data-check: $(pwd): not a git checkout" >&2; exit 2; }
cd "$(git rev-parse --show-toplevel)"

pass=0
fail=0
list=$(mktemp)
trap 'rm -f "$list"' EXIT
# tracked files present in the work tree (a deleted one is no content)
git ls-files -z | xargs -0 -r sh -c 'for f; do [ -s "$f" ] && printf "%s\n" "$f"; done' sh |
	while IFS= read -r f; do grep -Iq '' "$f" || printf '%s\n' "$f"; done > "$list"

# every entry needs its reason
bad=$(grep -v '^[[:space:]]*#' "$allow" | awk 'NF == 1 { print "  " $0 }')
[ -z "$bad" ] || { echo "tree-data-check: $1: entries without a reason:"; echo "$bad"; exit 1; }

allowed() {
	grep -v '^[[:space:]]*#' "$allow" | {
		while read -r pat _; do
			[ -n "$pat" ] || continue
			# shellcheck disable=SC2254
			case $1 in $pat) exit 0 ;; esac
		done
		exit 1
	}
}

while IFS= read -r f; do
	if allowed "$f"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL tree-data: $f: a binary file not in $1 (data from public repositories lives in shared/, SHARED_DIR; the project's own binary files need an entry with its reason)"
	fi
done < "$list"
echo "$pass passed, $fail failed (check-tree-data: binary files of the tree on the allow-list)"
[ "$fail" -eq 0 ]
