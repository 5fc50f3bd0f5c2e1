#!/bin/sh
# SPDX-License-Identifier: MIT
#
# /tests/t-kunit.sh: the driver's KUnit suite (kernel/e1npu_kunit.c, module
# e1npu_kunit_test.ko, built when the kernel has KUnit: the riscv64 debug
# kernel). Loading the module runs the suite; its KTAP results
# (/sys/kernel/debug/kunit/<suite>/results) become one E1VM result per
# case, "kunit-<suite>-<case>", plus "kunit-<suite>" for the suite.
. /tests/lib.sh

KO=$E1VM_MODDIR/e1npu_kunit_test.ko
if [ ! -d /sys/kernel/debug/kunit ]; then
	if [ -f "$KO" ]; then
		t_fail kunit "e1npu_kunit_test.ko built but the kernel has no KUnit debugfs"
	else
		t_skip kunit "this kernel has no KUnit"
	fi
	exit 0
fi
if [ ! -f "$KO" ]; then
	t_fail kunit "the kernel has KUnit but e1npu_kunit_test.ko was not built"
	exit 0
fi
# the suite's module imports e1npu.ko's KUnit-only exports
loaded=0
if ! grep -q '^e1npu ' /proc/modules; then
	t_insmod e1npu || exit 0
	loaded=1
fi
t_insmod e1npu_kunit_test || exit 0

n=0
for r in /sys/kernel/debug/kunit/e1npu*/results; do
	[ -f "$r" ] || continue
	suite=$(basename "$(dirname "$r")")
	sed "s/^/E1VM-LOG: kunit: /" "$r"
	# case lines are indented ("    ok 3 name"); the suite line is not
	grep -E '^[[:space:]]+(not )?ok [0-9]+ ' "$r" | while read -r a b c d; do
		if [ "$a" = ok ]; then
			t_pass "kunit-$suite-$c"
		else
			t_fail "kunit-$suite-$d" "KUnit case failed"
		fi
	done
	if grep -q -E '^ok [0-9]+ ' "$r"; then
		t_pass "kunit-$suite"
	else
		t_fail "kunit-$suite" "the suite did not pass"
	fi
	n=$((n + 1))
done
[ "$n" -gt 0 ] || t_fail kunit "no e1npu suite in /sys/kernel/debug/kunit"
t_rmmod e1npu_kunit_test
[ "$loaded" = 0 ] || t_rmmod e1npu
exit 0
