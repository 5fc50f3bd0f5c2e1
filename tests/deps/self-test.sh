#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check-commands.py's own test: it must fail, naming the script and the
# command, on a shell script, a make recipe and a Python script that call
# a tool no dependency list installs (valgrind), on a command it does not
# know, and on an install-deps.sh without debhelper (the kernel's
# bindeb-pkg needs dh_listpackages without any script naming it); and pass
# on scripts whose only mentions of the tool are not calls (a comment, a
# quoted string, a here-document, a variable's value).
# Usage: self-test.sh
set -u
here=$(cd "$(dirname "$0")" && pwd)
chk="python3 $here/check-commands.py"
deps=$here/../../tools/devel/install-deps.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS deps_selftest_$1"; }
ko() { fail=$((fail + 1)); echo "FAIL deps_selftest_$1"; sed 's/^/  output: /' "$tmp/out" >&2; }

# fails NAME WANT FILE...: the check fails and its output has WANT
fails() {
	n=$1 want=$2
	shift 2
	if $chk "$@" >"$tmp/out" 2>&1; then ko "$n"; return; fi
	if grep -qF -- "$want" "$tmp/out"; then ok "$n"; else ko "$n"; fi
}
passes() {
	n=$1
	shift
	if $chk "$@" >"$tmp/out" 2>&1 && grep -q '^[0-9]* passed, 0 failed$' "$tmp/out"; then ok "$n"; else ko "$n"; fi
}

cd "$tmp" || exit 1
printf '#!/bin/sh\nset -e\nx=$(mktemp)\nvalgrind --error-exitcode=1 ./prog "$x"\n' >calls.sh
fails shell_unlisted "calls.sh:4: 'valgrind' (Debian package valgrind) is installed by no list" calls.sh
printf '#!/bin/sh\nif true; then\n\tfoo | frobnicate-xyz -v\nfi\n' >unknown.sh
fails shell_unknown "unknown.sh:3: 'frobnicate-xyz': unknown command" unknown.sh
printf '.PHONY: t\nt:\n\t@$(MAKE) x && valgrind $(O)/prog\n' >frag.mk
fails make_unlisted "frag.mk:3: 'valgrind'" frag.mk
printf 'import subprocess\nsubprocess.run(["valgrind", "prog"], check=True)\n' >t.py
fails python_unlisted "t.py:2: 'valgrind'" t.py
sed 's/ debhelper / /' "$deps" >deps-no-dh.sh
grep -v '^#' deps-no-dh.sh | grep -q debhelper && { echo "self-test: debhelper still in the copy" >&2; exit 1; }
printf '#!/bin/sh\ntrue\n' >clean.sh
fails indirect_debhelper "dh_listpackages) needs package debhelper" --deps deps-no-dh.sh clean.sh
cat >mentions.sh <<'SH'
#!/bin/bash
# valgrind would be nice here
msg="run valgrind yourself"
echo 'valgrind ./prog' | sed "s/valgrind/$(basename "$0")/"
cat <<EOF
valgrind --help
EOF
tools=(valgrind strace)
case "$1" in
valgrind) echo no ;;
esac
[[ "$msg" =~ (valgrind|gdb) ]] && echo yes
SH
passes not_calls mentions.sh
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
