#!/bin/bash
# SPDX-License-Identifier: MIT
#
# kernel-series.sh: the e1 NPU as a numbered patch series against the
# newest mainline kernel source Debian ships (linux-source-X.Y of
# trixie-backports), then proof that it applies and is clean:
#
#   1. the pristine tree (tests/vm/linux-mainline.sh's mainline_tree)
#      becomes a git repository with one commit, cached in
#      $E1NPU_CACHE/kernel-series/base-$VER (built once, under a lock)
#   2. a hard-linked copy of it ($KSERIES_O/make) gets one commit per part
#      of tools/devel/kernel-tree-drop.sh --part, in the order upstream
#      wants them, each with the message of tests/kernel-tree/series/N-PART
#      and a Signed-off-by of the repository's git user:
#        1 drm: send the wedged uevent on the accel node of a compute accelerator
#        2 dt-bindings: vendor-prefixes: add Eliza
#        3 dt-bindings: npu: add Eliza e1 NPU
#        4 accel/e1npu: add the UAPI header, the driver core and buffer objects
#        5 accel/e1npu: add job submission and scheduling
#        6 accel/e1npu: add perfmon, the sysfs perf group and debugfs
#        7 accel/e1npu: add KUnit tests of the submission rules
#        8 accel/e1npu: add documentation
#        9 MAINTAINERS: add e1npu
#      The driver is split in steps, patches 4-7 (PARTS driver-*): the
#      last step is kernel-tree-drop.sh --part driver, whatever
#      kernel/Kbuild lists at run time; an earlier step N is that same
#      drop, then tests/kernel-tree/series/N-driver-STEP.diff applied in
#      reverse (patch -R: it is the diff from the step's versions of the
#      few files that grow, kernel/Kbuild, kernel/Kconfig and
#      kernel/e1npu_drv.c, to today's), then the .c files the step's Kbuild
#      does not name removed, and the headers none of the rest #includes. The driver's sources in kernel/ stay the one
#      truth: they hold no trace of the split, and after the last step the
#      tree is the whole driver.
#      Refreshing a step's diff: when the driver changes so that a diff no
#      longer applies in reverse, this script stops, naming the step and
#      the file. Then: drop the driver into a scratch kernel tree
#      (kernel-tree-drop.sh --part driver), copy the step's files there
#      (patch -R -p1 <N-driver-STEP.diff on a tree of the commit that last
#      passed, or by hand from $KSERIES_O/make's commit of the step), bring
#      them in line with today's driver (a step's version must build alone:
#      no call into a .c file the step does not have, no unused static
#      function) and write the diff again, from the step's version (a/) to
#      today's (b/), paths drivers/accel/e1npu/FILE:
#        for f in Kbuild Kconfig e1npu_drv.c; do
#            diff -u --label a/drivers/accel/e1npu/$f --label b/drivers/accel/e1npu/$f \
#                STEP/$f kernel/$f   # (Kconfig, Kbuild, e1npu_drv.c from kernel/)
#        done >tests/kernel-tree/series/N-driver-STEP.diff
#      (its first lines, before the first "---", are a comment patch skips);
#      a new .c file goes into the step whose Kbuild lists it. Step 4b
#      builds every step.
#   2b. the series is for this kernel alone: its driver files hold no
#      scaffolding for older kernels or other layouts (no Kbuild probes or
#      layout detection, no version checks, no userspace #else branches,
#      no #include of a .c file, no word of Debian's 6.12): that lives in
#      kernel/compat/, outside the series
#   3. git format-patch --cover-letter into $O/kernel-series/ (the
#      letter's subject and text: tests/kernel-tree/series/0-cover-letter);
#      the cover letter and the first driver patch's (4) message must
#      name the open userspace (libe1npu, lib/'s SPDX licence, where it lives), the
#      hardware status (pre-silicon, the QEMU virtual board's device
#      model) and the sysfs ABI file
#   4. a second hard-linked copy of the base ($KSERIES_O/apply) takes the
#      series with git am, one patch at a time; the applied tree must
#      equal the made one
#   4b. at every step of the driver (patches 4-7), the driver built from
#      the applied tree as in 7 (make M=drivers/accel/e1npu, no warning):
#      each step builds on its own
#   5. scripts/checkpatch.pl --strict on every patch: clean, apart from
#      the exceptions listed in ALLOWED below
#   6. scripts/kernel-doc -none on the UAPI header (what the docs include);
#      the sysfs ABI file in the series, its entries complete, and the
#      tree's tools/docs/get_abi.py validate
#   7. the driver built from the applied tree against the configured
#      mainline object tree (MAINLINE_OBJ of linux-mainline.sh's
#      mainline_build, or KSERIES_KOBJ): make M=drivers/accel/e1npu, no
#      warning allowed; skipped (and said so) with KSERIES_BUILD=0
#
# Prints "N passed, M failed" (.ci/summarize.awk). Scratch: KSERIES_O
# (default $O-kernel-series: never under $O, whose *.d files the top-level
# Makefile includes).
. "$(dirname "$0")/../vm/common.sh"

KS_DIR="$TOP/tests/kernel-tree"
KSERIES_O=${KSERIES_O:-$O-kernel-series}
case "$KSERIES_O" in /*) ;; *) KSERIES_O="$TOP/$KSERIES_O" ;; esac
OUT="$O/kernel-series"
LOG="$KSERIES_O/log"
PARTS=(drm-wedged vendor-prefix binding driver-core driver-jobs driver-extras driver-kunit docs maintainers)
t_all=$(now)
npass=0
nfail=0
pass() { npass=$((npass + 1)); msg "kernel-series: $*"; }
fail() { nfail=$((nfail + 1)); warn "kernel-series: $*"; }

# ---- 1. the pristine mainline tree -----------------------------------------
# tests/vm/linux-mainline.sh: the pristine tree (MAINLINE_DIR,
# MAINLINE_VER) and, for the build of step 7, its configured x86_64 object
# tree (MAINLINE_OBJ; built once, ~2 min, cached; KSERIES_BUILD=0 skips it)
. "$TOP/tests/vm/linux-mainline.sh"
mainline_tree
if [ "${KSERIES_BUILD:-1}" != 0 ] && [ -z "${KSERIES_KOBJ:-}" ]; then
	mainline_build || warn "kernel-series: no mainline object tree (the build is skipped)"
fi
[ -f "${MAINLINE_DIR:-}/Makefile" ] || die "no mainline tree (MAINLINE_DIR '${MAINLINE_DIR:-}')"
KVER=$(make -s -C "$MAINLINE_DIR" kernelversion 2>/dev/null || echo "$MAINLINE_VER")
msg "kernel-series: against Linux $KVER ($MAINLINE_DIR)"

# the base repository: the pristine tree and one commit
BASE="$E1NPU_CACHE/kernel-series/base-$(basename "$MAINLINE_DIR")-$MAINLINE_VER"
# the repository's git user, or (a machine without one, as a fresh CI
# machine may be) the MAINTAINERS entry's list
GIT_NAME=$(git -C "$TOP" config user.name || true)
GIT_EMAIL=$(git -C "$TOP" config user.email || true)
if [ -z "$GIT_NAME" ] || [ -z "$GIT_EMAIL" ]; then
	GIT_NAME="Eliza e1 NPU maintainers"
	GIT_EMAIL="e1npu-devel@lists.eliza.dev"
fi
GIT_ID=(-c user.name="$GIT_NAME" -c user.email="$GIT_EMAIL")
_base_repo() {
	local t0
	[ -f "$BASE/.git/e1npu-base-done" ] && return 0
	t0=$(now)
	msg "kernel-series: base repository of $MAINLINE_VER (one time)" >&2
	rm -rf "$BASE" "$BASE.tmp"
	mkdir -p "$(dirname "$BASE")"
	cp -a "$MAINLINE_DIR" "$BASE.tmp"
	rm -f "$BASE.tmp/.e1npu-unpacked"
	(
		cd "$BASE.tmp"
		git init -q
		# hard-linked copies change every inode's ctime
		git config core.trustctime false
		git config gc.auto 0
		git add -f .
		git "${GIT_ID[@]}" commit -q -m "Linux $KVER ($(basename "$MAINLINE_DIR"))"
	) >&2
	mv "$BASE.tmp" "$BASE"
	touch "$BASE/.git/e1npu-base-done"
	msg "kernel-series: base repository in $(elapsed "$t0") s" >&2
}
with_lock kernel-series-base _base_repo
BASE_REV=$(git -C "$BASE" rev-parse HEAD)

# copy_base DIR: a hard-linked copy of the base (git replaces files, never
# writes through them; so does kernel-tree-drop.sh)
copy_base() {
	rm -rf "$1"
	cp -al "$BASE" "$1" 2>"$LOG/cp.log" || { rm -rf "$1"; cp -a "$BASE" "$1"; }
	git -C "$1" config core.trustctime false
}

# ---- 2. the commits ------------------------------------------------------------
mkdir -p "$KSERIES_O" "$LOG"
t0=$(now)
with_lock kernel-series-base copy_base "$KSERIES_O/make"
M="$KSERIES_O/make"
signoff="Signed-off-by: $GIT_NAME <$GIT_EMAIL>"
# driver_step TREE N PART: the driver as step N (PART driver-STEP) has it:
# the whole drop, series/N-PART.diff (if any) in reverse, the .c files its
# Kbuild does not name removed, and the headers no file left #includes
driver_step() {
	local t=$1 n=$2 p=$3 d="$KS_DIR/series/$2-$3.diff" dest="$1/drivers/accel/e1npu" f b bad
	run_logged "$LOG/drop-$p.log" "$TOP/tools/devel/kernel-tree-drop.sh" --part driver "$t" ||
		die "kernel-tree-drop.sh --part driver failed (step $n, $p)"
	[ -f "$d" ] || return 0
	# GNU patch writes new files (never through a hard link); -r -: no .rej
	if ! patch -f -R -p1 -d "$t" --no-backup-if-mismatch -r - <"$d" >"$LOG/step-$p.log" 2>&1; then
		bad=$(awk '/^patching file /{ f = $3 } /FAILED|malformed|ignored|can.t find file/{ print f }' "$LOG/step-$p.log" |
			sed 's|^drivers/accel/e1npu/||' | sort -u | tr '\n' ' ' | sed 's/ $//')
		sed 's/^/    | /' "$LOG/step-$p.log" >&2
		die "step $n ($p): tests/kernel-tree/series/$(basename "$d") no longer applies in reverse to today's driver (file: ${bad:-see above}): refresh it as the comment at the top of $0 says"
	fi
	for f in "$dest"/*.c; do
		b=$(basename "$f" .c)
		grep -qE "(^|[[:space:]=])$b\.o([[:space:]\\]|$)" "$dest/Kbuild" || rm -f "$f"
	done
	# and the headers none of the step's files #include (to a fixed point)
	local keep="" next
	while :; do
		# shellcheck disable=SC2086
		next=$(cd "$dest" && sed -n 's/^#include "\([^"/]*\.h\)".*/\1/p' ./*.c $keep |
			sort -u | while read -r f; do [ -f "$dest/$f" ] && echo "$f"; done | tr '\n' ' ')
		[ "$next" = "$keep" ] && break
		keep=$next
	done
	for f in "$dest"/*.h; do
		case " $keep " in *" $(basename "$f") "*) ;; *) rm -f "$f" ;; esac
	done
}
i=0
for p in "${PARTS[@]}"; do
	i=$((i + 1))
	msgf=$(ls "$KS_DIR/series/$i-$p" 2>/dev/null) || die "no commit message $KS_DIR/series/$i-$p"
	case "$p" in
	driver-*) driver_step "$M" "$i" "$p" ;;
	*) run_logged "$LOG/drop-$p.log" "$TOP/tools/devel/kernel-tree-drop.sh" --part "$p" "$M" ||
		die "kernel-tree-drop.sh --part $p failed" ;;
	esac
	# -f: Debian's linux-source .gitignore ignores every top-level path
	git -C "$M" add -A -f . >/dev/null
	git -C "$M" diff --cached --quiet && die "part $p changed nothing in the tree"
	{ cat "$msgf"; echo; echo "$signoff"; } >"$LOG/msg-$p"
	git -C "$M" "${GIT_ID[@]}" commit -q -F "$LOG/msg-$p"
	msg "kernel-series: commit $i ($p) at $(elapsed "$t0") s"
done
msg "kernel-series: ${#PARTS[@]} commits in $(elapsed "$t0") s"

# ---- 2b. no scaffolding in the series' driver -----------------------------------
# every file the series adds under drivers/accel/e1npu/ and its UAPI header:
# PATTERN|WHAT pairs (grep -E), each a finding with its file and line
SCAFFOLD=('^ifn?eq .*(wildcard|shell)|Kbuild layout detection or a probe'
	'\$\(srctree\)|Kbuild reading the kernel tree (a probe)'
	'LINUX_VERSION_CODE|KERNEL_VERSION\(|a kernel version check'
	'E1NPU_SCHED_|E1NPU_COMPAT|a compat macro'
	'#if(def|ndef)? .*__KERNEL__|a userspace branch'
	'^#include ".*\.c"|an #include of a .c file'
	'6\.12|Debian|Linux 6\.|a word about an older kernel or a distribution')
# (a PATTERN may hold "|": the WHAT is after the last one); the files as
# every commit of the series has them (the driver's steps too)
scaffold=""
while IFS= read -r c; do
	while IFS= read -r f; do
		for sp in "${SCAFFOLD[@]}"; do
			hits=$(git -C "$M" show "$c:$f" | grep -n -E -- "${sp%|*}" | head -n 3 |
				sed "s|^|$f:|") || true
			[ -z "$hits" ] || scaffold="$scaffold${sp##*|} ($(git -C "$M" log -1 --format=%s "$c")): $(echo "$hits" | tr '\n' ' ')"$'\n'
		done
	done < <(git -C "$M" diff-tree --no-commit-id --name-only --diff-filter=AM -r "$c" -- drivers/accel/e1npu \
		include/uapi/drm/e1npu_accel.h Documentation/accel/e1npu)
done < <(git -C "$M" rev-list --reverse "$BASE_REV..HEAD")
if [ -n "$scaffold" ]; then
	fail "the series' driver holds scaffolding for older kernels or other layouts:"
	printf '%s' "$scaffold" | sed 's/^/    | /' >&2
else
	pass "the series' driver, at every step, is for Linux $KVER alone (no probes, layout detection, version checks, userspace branches, #include of .c, 6.12 or Debian)"
fi

# ---- 3. format-patch --------------------------------------------------------------
# with a cover letter: subject and text from series/0-cover-letter (its
# first paragraph is the subject), through the branch description
[ -s "$KS_DIR/series/0-cover-letter" ] || die "no cover letter $KS_DIR/series/0-cover-letter"
git -C "$M" config "branch.$(git -C "$M" symbolic-ref --short HEAD).description" \
	"$(cat "$KS_DIR/series/0-cover-letter")"
rm -rf "$OUT"
mkdir -p "$OUT"
git -C "$M" format-patch -q --cover-letter --cover-from-description=subject \
	-o "$OUT" "$BASE_REV..HEAD"
COVER="$OUT/0000-cover-letter.patch"
PATCHES=()
for f in "$OUT"/*.patch; do
	[ "$f" = "$COVER" ] || PATCHES+=("$f")
done
[ "${#PATCHES[@]}" = "${#PARTS[@]}" ] || die "format-patch wrote ${#PATCHES[@]} patches, not ${#PARTS[@]}"
msg "kernel-series: $(cd "$OUT" && ls *.patch | tr '\n' ' ')in $OUT"

# ---- 3b. the cover letter and the driver's commit message --------------------------
# Both must name the open userspace (libe1npu, its licence: the one SPDX
# identifier of lib/ and include/e1npu/, and where it lives), the hardware
# status (pre-silicon, validated on the QEMU virtual board with a device
# model) and the new sysfs ABI file. want_text NAME FILE: each phrase below
# (case-insensitive, a line break counting as a space) in FILE.
LIB_LICENCE=$(grep -rh 'SPDX-License-Identifier:' "$TOP/lib" "$TOP/include/e1npu" --include='*.[ch]' |
	sed 's/.*SPDX-License-Identifier: *//; s/ *\*\/.*//; s/[[:space:]]*$//' | sort -u)
[ -n "$LIB_LICENCE" ] && [ "$(echo "$LIB_LICENCE" | wc -l)" = 1 ] ||
	die "lib/ has not one SPDX licence: $(echo "$LIB_LICENCE" | tr '\n' ' ')"
WANT_PHRASES=("libe1npu" "$LIB_LICENCE licen" "open-source" "e1 NPU Linux stack repository (lib/)"
	"pre-silicon" "QEMU" "virtual board" "device model" "Documentation/ABI/testing/sysfs-driver-e1npu")
want_text() {
	local name=$1 f=$2 text p missing=""
	text=$(tr '\n' ' ' <"$f" | tr -s ' ')
	for p in "${WANT_PHRASES[@]}"; do
		grep -qiF -- "$p" <<<"$text" || missing="$missing \"$p\""
	done
	if [ -n "$missing" ]; then
		fail "$name does not name:$missing"
	else
		pass "$name names libe1npu ($LIB_LICENCE, lib/), pre-silicon on the QEMU virtual board, sysfs-driver-e1npu"
	fi
}
if [ ! -f "$COVER" ]; then
	fail "format-patch wrote no cover letter"
elif grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE \*\*\*' "$COVER"; then
	fail "the cover letter has format-patch's placeholders"
elif ! grep -qx "Subject: \[PATCH 0/${#PARTS[@]}\] $(head -1 "$KS_DIR/series/0-cover-letter" | sed 's/[][\.*^$/]/\\&/g')" "$COVER"; then
	fail "the cover letter's subject is not series/0-cover-letter's first line: $(grep -m1 '^Subject:' "$COVER")"
else
	want_text "cover letter" "$COVER"
fi
# the first driver patch's message (it introduces the driver): up to its "---"
for i in "${!PARTS[@]}"; do [ "${PARTS[$i]}" = driver-core ] && drvpatch=${PATCHES[$i]}; done
sed -n '/^Subject:/,/^---$/p' "$drvpatch" >"$LOG/driver-message"
want_text "driver commit message ($(basename "$drvpatch"))" "$LOG/driver-message"

# ---- 4. git am on a clean checkout of the base --------------------------------
# one patch at a time: 4b builds the driver at each of its steps
KOBJ=${KSERIES_KOBJ:-${MAINLINE_OBJ:-}}
[ -n "$KOBJ" ] && [ -f "$KOBJ/.config" ] || KOBJ=""
# build_driver LOG: make M=drivers/accel/e1npu in the applied tree against
# KOBJ. The object directory's source is pristine: the UAPI header comes
# from the applied tree. CONFIG_DRM_ACCEL_E1NPU=m: the object tree's
# .config predates the driver's Kconfig entry.
build_driver() {
	# shellcheck disable=SC2086
	run_logged "$1" make -C "$KOBJ" ${KSERIES_MAKE_ARGS:-} \
		M="$A/drivers/accel/e1npu" KCFLAGS="-I$A/include/uapi -I$A/include/uapi/drm" \
		CONFIG_DRM_ACCEL_E1NPU=m -j"$(nproc)" modules
}
t0=$(now)
with_lock kernel-series-base copy_base "$KSERIES_O/apply"
A="$KSERIES_O/apply"
am_ok=1
tb=0
for i in "${!PATCHES[@]}"; do
	n=$((i + 1))
	p=${PARTS[$i]}
	if ! run_logged "$LOG/am-$n.log" git -C "$A" "${GIT_ID[@]}" am -q --whitespace=error-all "${PATCHES[$i]}"; then
		fail "git am failed at patch $n ($p; log $LOG/am-$n.log)"
		git -C "$A" am --abort >/dev/null 2>&1 || true
		am_ok=0
		break
	fi
	# ---- 4b. the driver at this step builds on its own
	case "$p" in driver-*) ;; *) continue ;; esac
	[ -n "$KOBJ" ] || continue
	t1=$(now)
	if build_driver "$LOG/build-$n-$p.log"; then
		if grep -q -i -E 'warning:|error:' "$LOG/build-$n-$p.log"; then
			fail "patch $n ($p): make M=drivers/accel/e1npu warns: $(grep -m 3 -i -E 'warning:|error:' "$LOG/build-$n-$p.log")"
		else
			pass "patch $n ($p): make M=drivers/accel/e1npu builds clean, $(git -C "$A" ls-files "drivers/accel/e1npu/*.c" | wc -l) .c files ($(elapsed "$t1") s)"
		fi
	else
		fail "patch $n ($p): make M=drivers/accel/e1npu failed (log $LOG/build-$n-$p.log)"
	fi
	tb=$(awk -v a="$tb" -v b="$(elapsed "$t1")" 'BEGIN { print a + b }')
done
if [ "$am_ok" = 1 ]; then
	if [ "$(git -C "$A" rev-parse 'HEAD^{tree}')" = "$(git -C "$M" rev-parse 'HEAD^{tree}')" ]; then
		pass "git am: ${#PATCHES[@]} patches apply to a clean $KVER one by one, same tree ($(elapsed "$t0") s, of which $tb s building the driver's steps)"
	else
		fail "git am: the applied tree differs from the one the series was made from"
	fi
fi
[ -n "$KOBJ" ] || msg "kernel-series: no build of the driver's steps: no configured $KVER object directory"

# the hooks in drivers/accel/ are whole lines (the M= build of step 7
# does not read them; kernel-tree.sh builds a drop in-tree on 6.12)
if grep -qxF 'source "drivers/accel/e1npu/Kconfig"' "$A/drivers/accel/Kconfig" &&
	grep -qx 'obj-$(CONFIG_DRM_ACCEL_E1NPU)[[:space:]]*+= e1npu/' "$A/drivers/accel/Makefile"; then
	pass "drivers/accel/Kconfig and Makefile hook e1npu in"
else
	fail "drivers/accel/Kconfig or Makefile lacks e1npu's line: $(grep -h e1npu "$A/drivers/accel/Kconfig" "$A/drivers/accel/Makefile" | tr '\n' ' ')"
fi

# ---- 5. checkpatch --strict ------------------------------------------------------
# ALLOWED: checkpatch messages that are expected, one per line,
# "PATCH-NUMBER TYPE" (NUMBER * = every patch):
#  - FILE_PATH_CHANGES in patches 3-8: they add files before patch 9 adds
#    the MAINTAINERS entry that covers them.
ALLOWED="3 FILE_PATH_CHANGES
4 FILE_PATH_CHANGES
5 FILE_PATH_CHANGES
6 FILE_PATH_CHANGES
7 FILE_PATH_CHANGES
8 FILE_PATH_CHANGES"
t0=$(now)
for f in "${PATCHES[@]}"; do
	n=$(basename "$f" | sed 's/^0*\([0-9]*\)-.*/\1/')
	name=$(basename "$f" .patch)
	# Debian's python3 (python3-ply for the SPDX check), not a PATH's pyenv
	(cd "$A" && PATH=/usr/bin:/bin:$PATH ./scripts/checkpatch.pl --strict --show-types --no-summary --color=never "$f") \
		>"$LOG/checkpatch-$name.log" 2>&1 || true
	# every message: "TYPE:NAME: text" after WARNING/ERROR/CHECK
	msgs=$(sed -n 's/^\(WARNING\|ERROR\|CHECK\):\([A-Z_]*\):.*/\2/p' "$LOG/checkpatch-$name.log")
	bad=""
	for t in $msgs; do
		printf '%s\n' "$ALLOWED" | grep -qx -e "$n $t" -e "\* $t" || bad="$bad $t"
	done
	if [ -n "$bad" ]; then
		fail "checkpatch --strict $name:$bad"
		sed 's/^/    | /' "$LOG/checkpatch-$name.log" >&2
	else
		pass "checkpatch --strict $name clean$([ -n "$msgs" ] && echo " (expected: $(echo "$msgs" | sort | uniq -c | awk '{ printf "%s%s x%d", s, $2, $1; s = ", " }'))")"
	fi
done
msg "kernel-series: checkpatch in $(elapsed "$t0") s"

# ---- 6. kernel-doc of the UAPI header ---------------------------------------------
if (cd "$A" && ./scripts/kernel-doc -none -Wall include/uapi/drm/e1npu_accel.h) \
	>"$LOG/kernel-doc.log" 2>&1 && [ ! -s "$LOG/kernel-doc.log" ]; then
	pass "kernel-doc -Wall include/uapi/drm/e1npu_accel.h clean"
else
	fail "kernel-doc warns on the UAPI header:"
	sed 's/^/    | /' "$LOG/kernel-doc.log" >&2
fi

# ---- 6b. the sysfs ABI description -------------------------------------------------
# in the series (the docs patch), each entry dated, with the release it
# would first be in and the list that reviews it; the tree's own parser
if [ ! -f "$A/Documentation/ABI/testing/sysfs-driver-e1npu" ]; then
	fail "the series has no Documentation/ABI/testing/sysfs-driver-e1npu (sysfs perf/ is new ABI)"
elif ! awk -v kv="$(echo "$KVER" | awk -F. '{ printf "%d.%d", $1, $2 + 1 }')" '
	/^What:/ { if (!inwhat) { if (w && !(d && k && c)) bad = 1; w = 1; d = k = c = 0 } inwhat = 1; next }
	{ inwhat = 0 }
	/^Date:/ { d = 1 }
	/^KernelVersion:/ { k = ($2 == kv) }
	/^Contact:/ { c = ($2 ~ /@/) }
	END { exit bad || (w && !(d && k && c)) }' "$A/Documentation/ABI/testing/sysfs-driver-e1npu"; then
	fail "sysfs-driver-e1npu: an entry lacks Date, KernelVersion (the release after $KVER) or a Contact address"
elif (cd "$A" && PATH=/usr/bin:/bin:$PATH python3 tools/docs/get_abi.py -D Documentation/ABI validate) \
	>"$LOG/get_abi.log" 2>&1 && ! grep -q e1npu "$LOG/get_abi.log"; then
	pass "sysfs-driver-e1npu in the series, dated, KernelVersion and Contact set, get_abi.py validate clean"
else
	fail "get_abi.py validate on the series' Documentation/ABI:"
	grep e1npu "$LOG/get_abi.log" | sed 's/^/    | /' >&2
fi

# ---- 7. the driver built in the applied tree ------------------------------------
if [ -n "$KOBJ" ]; then
	t0=$(now)
	if build_driver "$LOG/build.log"; then
		if grep -q -i -E 'warning:|error:' "$LOG/build.log"; then
			fail "make M=drivers/accel/e1npu warns: $(grep -m 3 -i -E 'warning:|error:' "$LOG/build.log")"
		else
			pass "make M=drivers/accel/e1npu against $KOBJ in $(elapsed "$t0") s ($(cd "$A/drivers/accel/e1npu" && ls *.ko | tr '\n' ' '))"
		fi
		# the encoder is the KUnit suite's alone
		if nm "$A/drivers/accel/e1npu/e1npu.ko" 2>/dev/null | grep -q ' e1npu_cmd_encode$'; then
			fail "e1npu.ko contains e1npu_cmd_encode (only the KUnit module should)"
		else
			pass "e1npu.ko has no e1npu_cmd_encode (the KUnit module's alone)"
		fi
	else
		fail "make M=drivers/accel/e1npu failed (log $LOG/build.log)"
	fi
else
	msg "kernel-series: build skipped: no configured $KVER object directory (MAINLINE_OBJ or KSERIES_KOBJ)"
fi

echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ] || die "kernel-series FAILED (logs $LOG, patches $OUT)"
msg "kernel-series: PASS in $(elapsed "$t_all") s"
