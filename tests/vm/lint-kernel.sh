#!/bin/bash
# SPDX-License-Identifier: MIT
#
# lint-kernel.sh [x86_64] [riscv64] [riscv64-debug] [mainline] [checkpatch]:
# kernel hygiene of the project's modules (default: all; riscv64-debug only
# when a debug kernel is cached).
#   - W=1 build with no warnings and sparse (C=2) clean, against Debian's
#     6.12 amd64 headers and against our riscv64 6.12 kernel (full modpost);
#     against the riscv64 debug kernel too, the only one with KUnit, so the
#     KUnit module (kernel/e1npu_kunit.c) is built and checked there
#   - mainline: the same against today's kernel, Debian's newest mainline
#     source (linux-source-7.3 from trixie-backports, else sid's 7.3/7.2),
#     built for x86_64 by tests/vm/linux-mainline.sh (full modpost), with
#     a sparse that kernel accepts (Debian sid's, built from source: 7.x
#     headers need __typeof_unqual__, which Debian 12's sparse 0.6.4 lacks)
#   - checkpatch.pl --strict, both 6.12's (Debian's linux-source-6.12) and
#     the mainline tree's, on kernel/*.[ch], include/uapi/drm/*.h,
#     include/hw/*.h and hw/*.[ch] (group hw), model/*.[ch] (no kernel
#     module builds the model since the simulator module went; it is
#     checked all the same), the harness's own module and the compat
#     layer's header (kernel/compat/*.h), without exceptions
# Warnings from files outside the project (kernel headers) are counted and
# shown but do not fail. Exits non-zero on any finding in project files.
# E1NPU_LINT_ADVISORY="model hw ..." lists checkpatch groups (kernel uapi
# hw model harness) whose findings are printed in full but do not fail;
# empty by default: everything is strict.
# Logs: $O/vm/lint/.
. "$(dirname "$0")/common.sh"

STEPS=("$@")
if [ "${#STEPS[@]}" = 0 ]; then
	STEPS=(x86_64 riscv64)
	if ls "$E1NPU_CACHE"/riscv64/kernel-debug-*/.e1npu-built >/dev/null 2>&1; then
		STEPS+=(riscv64-debug)
	else
		msg "lint: no riscv64 debug kernel cached: riscv64-debug (the KUnit module) skipped; make vm-riscv64-debug-kernel builds it"
	fi
	STEPS+=(mainline checkpatch)
fi
L="$VM_OUT/lint"
mkdir -p "$L"
FAILED=()
t_all=$(now)

# split_findings LOG SRC DIR: sets OURS (findings in project files, paths
# relative to SRC, and modpost's) and FOREIGN (warnings/errors elsewhere:
# kernel headers). Paths are absolute, or relative to DIR (kbuild >= 6.13
# runs M= builds in the module's directory) or to the kernel tree (6.12).
split_findings() {
	local log=$1 src=$2 dir=$3 line p r
	OURS=""
	FOREIGN=""
	while IFS= read -r line; do
		case "$line" in
		*"WARNING: modpost"*|"ERROR: modpost"*) OURS+="$line"$'\n'; continue ;;
		esac
		p=${line%%:*}
		case "$p" in
		/*) r=$p ;;
		*) r=$(realpath -m "$dir/$p") ;;
		esac
		if [ -e "$r" ] && [ "${r#"$src"/}" != "$r" ]; then
			OURS+="${r#"$src"/}:${line#*:}"$'\n'
		elif [[ "$line" =~ :\ (warning|error): ]]; then
			FOREIGN+="$line"$'\n'
		fi
	done < <(grep -E '^[^ :]+:[0-9]+(:[0-9]+)?: (warning|error|note)|WARNING: modpost|^ERROR: modpost' "$log" || true)
	OURS=${OURS%$'\n'}
	FOREIGN=${FOREIGN%$'\n'}
}

# compile_lint ARCH: W=1 C=2 build of the self-test module and kernel/
compile_lint() {
	local arch=$1 t0 log name dir ours foreign rc
	local src="$L/src-$arch"
	t0=$(now)
	case "$arch" in
	x86_64) . "$VM_DIR/kernel-x86_64.sh"; x86_64_kernel ;;
	riscv64) . "$VM_DIR/kernel-riscv64.sh"; VM_KVARIANT= riscv64_kernel
		 KMAKE_ARGS+=(CHECK="$VM_DIR/sparse-riscv.sh") ;;
	riscv64-debug) . "$VM_DIR/kernel-riscv64.sh"; VM_KVARIANT=debug riscv64_kernel
		 KMAKE_ARGS+=(CHECK="$VM_DIR/sparse-riscv.sh") ;;
	mainline) . "$VM_DIR/linux-mainline.sh"; mainline_build; mainline_sparse
		 KDIR=$MAINLINE_OBJ
		 KMAKE_ARGS=(ARCH="$MAINLINE_ARCH" CHECK="$MAINLINE_SPARSE")
		 msg "lint mainline: Linux $MAINLINE_VER ($MAINLINE_PKG $MAINLINE_DEBVER), sparse $MAINLINE_SPARSE" ;;
	esac
	rm -rf "$src"
	mkdir -p "$src"
	cp -r "$VM_DIR/selftest" "$src/selftest"
	local dirs=("$src/selftest")
	if [ -f "$TOP/kernel/Kbuild" ]; then
		# the driver alone (with hw/'s shared code), staged as for
		# every out-of-tree build: it must build without model/
		"$TOP/kernel/compat/stage.sh" "$src/e1npu" || die "lint $arch: kernel/compat/stage.sh failed"
		dirs+=("$src/e1npu")
	else
		warn "lint $arch: kernel/Kbuild absent: W=1/sparse SKIPPED for kernel/ (only the harness module is checked)"
	fi
	local st=0
	for dir in "${dirs[@]}"; do
		name=$(basename "$dir")
		log="$L/$arch-$name.log"
		# -k: every file is compiled, so a failure lists all its errors
		rc=0
		make -C "$KDIR" M="$dir" "${KMAKE_ARGS[@]}" W=1 C=2 -k -j2 modules >"$log" 2>&1 || rc=$?
		# project findings: anything naming a file of the copy, modpost
		split_findings "$log" "$src" "$dir"
		ours=$OURS
		foreign=$FOREIGN
		if [ "$rc" != 0 ]; then
			warn "lint $arch: W=1 C=2 build of $name FAILED (make exit $rc, log $log)"
			if [ -n "$ours" ]; then
				warn "lint $arch: $name: errors by file:"
				echo "$ours" | sed -n 's/^\([^:]*\):[0-9:]* error: .*/\1/p' |
					sort | uniq -c | sed 's/^/    | /' >&2
			else
				tail -n 30 "$log" | sed 's/^/    | /' >&2
			fi
		fi
		if [ -n "$foreign" ]; then
			msg "lint $arch: $(echo "$foreign" | wc -l) warning(s) in kernel headers (not ours, not failing):"
			echo "$foreign" | sort | uniq -c | sort -rn | head -n 10 | sed 's/^/    | /'
		fi
		if [ -n "$ours" ]; then
			warn "lint $arch: W=1/sparse findings in $name:"
			echo "$ours" | sed 's/^/    | /' >&2
			st=1
		elif [ "$rc" != 0 ]; then
			st=1
		else
			msg "lint $arch: $name: W=1 + sparse C=2 clean"
		fi
	done
	msg "lint $arch: done in $(elapsed "$t0") s"
	return "$st"
}

# checkpatch_lint TREE TAG: checkpatch --strict (TREE's) over the project's
# kernel-side files; logs checkpatch[-TAG]-GROUP.log
checkpatch_lint() {
	local src=$1 tag=$2 cp log st=0 grp files f n c t0
	t0=$(now)
	cp="$src/scripts/checkpatch.pl"
	[ -f "$src/scripts/spelling.txt" ] && [ -f "$src/scripts/const_structs.checkpatch" ] ||
		die "checkpatch data files missing in $src/scripts"
	cd "$TOP"
	for grp in kernel uapi hw model harness; do
		case "$grp" in
		kernel) files=$(ls kernel/*.[ch] kernel/compat/*.h 2>/dev/null || true) ;;
		uapi) files=$(ls include/uapi/drm/*.h 2>/dev/null || true) ;;
		hw) files=$(ls include/hw/*.h hw/*.[ch] 2>/dev/null || true) ;;
		# *_user.h files are userspace-only (never built in the kernel).
		model) files=$(ls model/*.[ch] 2>/dev/null | grep -v "_user\.h$" || true) ;;
		harness) files=$(ls tests/vm/selftest/*.c 2>/dev/null || true) ;;
		esac
		if [ -z "$files" ]; then
			msg "checkpatch: $grp: no files"
			continue
		fi
		log="$L/checkpatch${tag:+-$tag}-$grp.log"
		# shellcheck disable=SC2086
		perl "$cp" --strict --no-tree --file --terse --show-types --no-summary \
			$files >"$log" 2>&1 || true
		n=$(grep -c -E ': (ERROR|WARNING|CHECK):' "$log" || true)
		if [ "$n" = 0 ]; then
			msg "checkpatch${tag:+ $tag}: $grp: clean ($(echo $files | wc -w) files)"
		else
			case " ${E1NPU_LINT_ADVISORY:-} " in
			*" $grp "*) warn "checkpatch: $grp is ADVISORY (E1NPU_LINT_ADVISORY): its findings do not fail" ;;
			*) st=1 ;;
			esac
			warn "checkpatch${tag:+ $tag}: $grp: $n finding(s) in $(echo $files | wc -w) files (log $log); by type:"
			sed -n 's/.*: \(ERROR\|WARNING\|CHECK\):\([A-Z_0-9]*\):.*/\1:\2/p' "$log" |
				sort | uniq -c | sort -rn | sed 's/^/    | /' >&2
			msg "checkpatch${tag:+ $tag}: $grp: by file:"
			for f in $files; do
				c=$(grep -c -E "^$f:[0-9]+: (ERROR|WARNING|CHECK):" "$log" || true)
				[ "$c" = 0 ] || echo "    | $c $f"
			done
			head -n 15 "$log" | sed 's/^/    > /'
		fi
	done
	msg "checkpatch${tag:+ $tag}: done in $(elapsed "$t0") s"
	return "$st"
}

# checkpatch_both: 6.12's checkpatch, then the mainline tree's (newer
# rules); a finding of either fails
checkpatch_both() {
	local st=0
	msg "checkpatch: Linux 6.12's scripts/checkpatch.pl (Debian's linux-source-6.12)"
	checkpatch_lint "$(linux_source_tree)" "" || st=1
	. "$VM_DIR/linux-mainline.sh"
	mainline_tree
	msg "checkpatch: Linux $MAINLINE_VER's scripts/checkpatch.pl ($MAINLINE_PKG $MAINLINE_DEBVER)"
	checkpatch_lint "$MAINLINE_DIR" mainline || st=1
	return "$st"
}

for s in "${STEPS[@]}"; do
	case "$s" in
	x86_64|riscv64|riscv64-debug|mainline) compile_lint "$s" || FAILED+=("$s") ;;
	checkpatch) checkpatch_both || FAILED+=(checkpatch) ;;
	*) die "usage: lint-kernel.sh [x86_64] [riscv64] [riscv64-debug] [mainline] [checkpatch]" ;;
	esac
done
msg "lint-kernel: finished in $(elapsed "$t_all") s (logs $L)"
if [ "${#FAILED[@]}" -gt 0 ]; then
	msg "lint-kernel: FAILED: ${FAILED[*]}"
	exit 1
fi
msg "lint-kernel: PASSED (${STEPS[*]})"
