// SPDX-License-Identifier: MIT
/*
 * npu-smoke smoke's lowered part: the comparison helper finds every wrong
 * element and names it; every lowered case passes on the in-process model
 * and in a CPU-only context, and fails when its reference is corrupted
 * (first or last byte), so no case can pass without comparing its output.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <e1npu/e1npu.h>

#include "smoke-lowered.h"

static void test_compare_equal(void **state)
{
	int8_t a[5] = { -128, -1, 0, 1, 127 }, b[5];
	int32_t x[3] = { INT32_MIN, 0, INT32_MAX }, y[3];
	char msg[96] = "untouched";

	(void)state;
	memcpy(b, a, sizeof(a));
	memcpy(y, x, sizeof(x));
	assert_true(smoke_compare(a, b, 5, SMOKE_S8, msg, sizeof(msg)));
	assert_true(smoke_compare(a, b, 5, SMOKE_U8, msg, sizeof(msg)));
	assert_true(smoke_compare(x, y, 3, SMOKE_S32, msg, sizeof(msg)));
	assert_true(smoke_compare(a, a + 1, 0, SMOKE_S8, msg, sizeof(msg)));
	assert_string_equal(msg, "untouched");
}

static void test_compare_finds_each_position(void **state)
{
	uint8_t a[37], b[37];
	char msg[96], want[96];

	(void)state;
	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = (uint8_t)(i * 7);
	for (size_t i = 0; i < sizeof(a); i++) {
		memcpy(b, a, sizeof(a));
		b[i] ^= 0x80;
		assert_false(smoke_compare(a, b, sizeof(a), SMOKE_U8, msg, sizeof(msg)));
		snprintf(want, sizeof(want), "element %zu of 37: got %u, expected %u (1 differ)",
			 i, a[i], b[i]);
		assert_string_equal(msg, want);
	}
}

static void test_compare_values(void **state)
{
	int8_t a[4] = { 1, 2, 3, 4 }, b[4] = { 1, -2, 3, -4 };
	int32_t x[2] = { 5, 0x01000000 }, y[2] = { 5, -0x7f000000 };
	char msg[96];

	(void)state;
	/* the first difference and how many differ */
	assert_false(smoke_compare(a, b, 4, SMOKE_S8, msg, sizeof(msg)));
	assert_string_equal(msg, "element 1 of 4: got 2, expected -2 (2 differ)");
	/* int32 that differs only in its top byte, printed as signed */
	assert_false(smoke_compare(x, y, 2, SMOKE_S32, msg, sizeof(msg)));
	assert_string_equal(msg, "element 1 of 2: got 16777216, expected -2130706432 (1 differ)");
	/* no message buffer: the verdict alone */
	assert_false(smoke_compare(x, y, 2, SMOKE_S32, NULL, 0));
}

static void flip_first(void *ref, size_t bytes)
{
	if (bytes)
		((uint8_t *)ref)[0] ^= 1;
}

static void flip_last(void *ref, size_t bytes)
{
	if (bytes)
		((uint8_t *)ref)[bytes - 1] ^= 0x40;
}

static void run_all(struct e1npu_ops *ops, bool cpu_only)
{
	struct lowered_result r, again;

	assert_true(lowered_count() >= 40);
	for (size_t i = 0; i < lowered_count(); i++) {
		const char *name = lowered_case(i)->name;

		lowered_run(ops, i, &r, NULL);
		if (!r.pass)
			fail_msg("%s: %s", name, r.note);
		assert_int_equal(r.error, 0);
		assert_string_equal(r.note, "");
		assert_true(r.rep.kind != 0);
		assert_true(r.rep.why[0] != 0);
		if (cpu_only)
			assert_int_equal(r.rep.engine, E1NPU_ENGINE_CPU);
		/* deterministic inputs: the same output again */
		lowered_run(ops, i, &again, NULL);
		assert_true(again.pass);
		assert_true(again.checksum == r.checksum);

		lowered_run(ops, i, &r, flip_first);
		if (r.pass)
			fail_msg("%s passed with a corrupted reference (first byte)", name);
		assert_non_null(strstr(r.note, "differs from the CPU reference"));
		lowered_run(ops, i, &r, flip_last);
		if (r.pass)
			fail_msg("%s passed with a corrupted reference (last byte)", name);
	}
}

static void test_cases_on_model(void **state)
{
	struct e1npu_device *dev;
	struct e1npu_ops *ops;

	(void)state;
	assert_int_equal(e1npu_device_open("sim", &dev), 0);
	assert_int_equal(e1npu_ops_new(dev, &ops), 0);
	run_all(ops, false);
	e1npu_ops_free(ops);
	e1npu_device_close(dev);
}

static void test_cases_cpu_only(void **state)
{
	struct e1npu_ops *ops;

	(void)state;
	assert_int_equal(e1npu_ops_new(NULL, &ops), 0);
	run_all(ops, true);
	e1npu_ops_free(ops);
}

static void test_reason_names(void **state)
{
	(void)state;
	assert_string_equal(smoke_reason_name(E1NPU_OPS_WHY_BIG_GEMM), "big_gemm");
	assert_string_equal(smoke_reason_name(E1NPU_OPS_WHY_UNSUPPORTED), "unsupported");
	assert_string_equal(smoke_reason_name(0), "unknown");
	assert_string_equal(smoke_reason_name(1000), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_equal),
		cmocka_unit_test(test_compare_finds_each_position),
		cmocka_unit_test(test_compare_values),
		cmocka_unit_test(test_reason_names),
		cmocka_unit_test(test_cases_on_model),
		cmocka_unit_test(test_cases_cpu_only),
	};

	return cmocka_run_group_tests_name("npu-smoke-lowered", tests, NULL, NULL);
}
