#!/bin/bash
# SPDX-License-Identifier: MIT
#
# lint-kernel.sh [x86_64] [riscv64] [riscv64-debug] [checkpatch]: kernel
# hygiene of the project's modules (default: all; riscv64-debug only when a
# debug kernel is cached).
#   - W=1 build with no warnings and sparse (C=2) clean, against Debian's
#     6.12 amd64 headers and against our riscv64 6.12 kernel (full modpost);
#     against the riscv64 debug kernel too, the only one with KUnit, so the
#     KUnit module (kernel/e1npu_kunit.c) is built and checked there
#   - checkpatch.pl --strict (from Debian's linux-source-6.12) on
#     kernel/*.[ch], include/uapi/drm/*.h, include/hw/*.h, model/*.[ch]
#     (no kernel module builds the model since the simulator module went;
#     it is checked all the same) and the harness's own module
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
	STEPS+=(checkpatch)
fi
L="$VM_OUT/lint"
mkdir -p "$L"
FAILED=()
t_all=$(now)

# compile_lint ARCH: W=1 C=2 build of the self-test module and kernel/
compile_lint() {
	local arch=$1 t0 log name dir ours foreign
	local src="$L/src-$arch"
	t0=$(now)
	case "$arch" in
	x86_64) . "$VM_DIR/kernel-x86_64.sh"; x86_64_kernel ;;
	riscv64) . "$VM_DIR/kernel-riscv64.sh"; VM_KVARIANT= riscv64_kernel
		 KMAKE_ARGS+=(CHECK="$VM_DIR/sparse-riscv.sh") ;;
	riscv64-debug) . "$VM_DIR/kernel-riscv64.sh"; VM_KVARIANT=debug riscv64_kernel
		 KMAKE_ARGS+=(CHECK="$VM_DIR/sparse-riscv.sh") ;;
	esac
	rm -rf "$src"
	mkdir -p "$src"
	cp -r "$VM_DIR/selftest" "$src/selftest"
	local dirs=("$src/selftest")
	if [ -f "$TOP/kernel/Kbuild" ]; then
		# the driver alone: it must build without model/ beside it
		for d in kernel include; do
			[ -d "$TOP/$d" ] && cp -r "$TOP/$d" "$src/$d"
		done
		dirs+=("$src/kernel")
	else
		warn "lint $arch: kernel/Kbuild absent: W=1/sparse SKIPPED for kernel/ (only the harness module is checked)"
	fi
	local st=0
	for dir in "${dirs[@]}"; do
		name=$(basename "$dir")
		log="$L/$arch-$name.log"
		if ! run_logged "$log" make -C "$KDIR" M="$dir" "${KMAKE_ARGS[@]}" W=1 C=2 -j2 modules; then
			warn "lint $arch: W=1 C=2 build of $name FAILED (log $log)"
			st=1
			continue
		fi
		# project findings: anything naming a file of the copy, modpost
		ours=$(grep -E "^$src/[^:]+:[0-9]+(:[0-9]+)?: (warning|error|note)|WARNING: modpost|^ERROR: modpost" "$log" |
			sed "s#$src/##" || true)
		foreign=$(grep -E ': (warning|error):' "$log" | grep -v -E "^$src/" || true)
		if [ -n "$foreign" ]; then
			msg "lint $arch: $(echo "$foreign" | wc -l) warning(s) in kernel headers (not ours, not failing):"
			echo "$foreign" | sort | uniq -c | sort -rn | head -n 10 | sed 's/^/    | /'
		fi
		if [ -n "$ours" ]; then
			warn "lint $arch: W=1/sparse findings in $name:"
			echo "$ours" | sed 's/^/    | /' >&2
			st=1
		else
			msg "lint $arch: $name: W=1 + sparse C=2 clean"
		fi
	done
	msg "lint $arch: done in $(elapsed "$t0") s"
	return "$st"
}

# checkpatch_lint: checkpatch --strict over the project's kernel-side files
checkpatch_lint() {
	local src cp log st=0 grp files f n
	src=$(linux_source_tree)
	cp="$src/scripts/checkpatch.pl"
	[ -f "$src/scripts/spelling.txt" ] && [ -f "$src/scripts/const_structs.checkpatch" ] ||
		die "checkpatch data files missing in $src/scripts"
	cd "$TOP"
	for grp in kernel uapi hw model harness; do
		case "$grp" in
		kernel) files=$(ls kernel/*.[ch] 2>/dev/null || true) ;;
		uapi) files=$(ls include/uapi/drm/*.h 2>/dev/null || true) ;;
		hw) files=$(ls include/hw/*.h 2>/dev/null || true) ;;
		# *_user.h files are userspace-only (never built in the kernel).
		model) files=$(ls model/*.[ch] 2>/dev/null | grep -v "_user\.h$" || true) ;;
		harness) files=$(ls tests/vm/selftest/*.c 2>/dev/null || true) ;;
		esac
		if [ -z "$files" ]; then
			msg "checkpatch: $grp: no files"
			continue
		fi
		log="$L/checkpatch-$grp.log"
		# shellcheck disable=SC2086
		perl "$cp" --strict --no-tree --file --terse --show-types --no-summary \
			$files >"$log" 2>&1 || true
		n=$(grep -c -E ': (ERROR|WARNING|CHECK):' "$log" || true)
		if [ "$n" = 0 ]; then
			msg "checkpatch: $grp: clean ($(echo $files | wc -w) files)"
		else
			case " ${E1NPU_LINT_ADVISORY:-} " in
			*" $grp "*) warn "checkpatch: $grp is ADVISORY (E1NPU_LINT_ADVISORY): its findings do not fail" ;;
			*) st=1 ;;
			esac
			warn "checkpatch: $grp: $n finding(s) in $(echo $files | wc -w) files (log $log); by type:"
			sed -n 's/.*: \(ERROR\|WARNING\|CHECK\):\([A-Z_0-9]*\):.*/\1:\2/p' "$log" |
				sort | uniq -c | sort -rn | sed 's/^/    | /' >&2
			msg "checkpatch: $grp: by file:"
			for f in $files; do
				c=$(grep -c -E "^$f:[0-9]+: (ERROR|WARNING|CHECK):" "$log" || true)
				[ "$c" = 0 ] || echo "    | $c $f"
			done
			head -n 15 "$log" | sed 's/^/    > /'
		fi
	done
	return "$st"
}

for s in "${STEPS[@]}"; do
	case "$s" in
	x86_64|riscv64|riscv64-debug) compile_lint "$s" || FAILED+=("$s") ;;
	checkpatch) checkpatch_lint || FAILED+=(checkpatch) ;;
	*) die "usage: lint-kernel.sh [x86_64] [riscv64] [riscv64-debug] [checkpatch]" ;;
	esac
done
msg "lint-kernel: finished in $(elapsed "$t_all") s (logs $L)"
if [ "${#FAILED[@]}" -gt 0 ]; then
	msg "lint-kernel: FAILED: ${FAILED[*]}"
	exit 1
fi
msg "lint-kernel: PASSED (${STEPS[*]})"
