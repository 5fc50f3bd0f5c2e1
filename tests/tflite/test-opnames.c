// SPDX-License-Identifier: MIT
/*
 * The reader's builtin operator names (lib/tflite/tflite_opnames.c)
 * against schema.fbs's BuiltinOperator values, picked by hand across the
 * enum (schema v3a: up to STABLEHLO_CASE = 209), and the table's shape:
 * every code named, each name once, UNKNOWN outside.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tflite_reader.h"

static void test_known_codes(void **state)
{
	static const struct { int32_t code; const char *name; } want[] = {
		{ 0, "ADD" }, { 5, "DEPTH_TO_SPACE" }, { 20, "RELU_N1_TO_1" },
		{ 21, "RELU6" }, { 28, "TANH" }, { 32, "CUSTOM" }, { 39, "TRANSPOSE" },
		{ 41, "SUB" }, { 45, "STRIDED_SLICE" }, { 51, "DELEGATE" },
		{ 55, "MAXIMUM" }, { 57, "MINIMUM" }, { 60, "PADV2" }, { 65, "SLICE" },
		{ 77, "SHAPE" }, { 83, "PACK" }, { 97, "RESIZE_NEAREST_NEIGHBOR" },
		{ 98, "LEAKY_RELU" }, { 114, "QUANTIZE" }, { 117, "HARD_SWISH" },
		{ 126, "BATCH_MATMUL" }, { 127, "PLACEHOLDER_FOR_GREATER_OP_CODES" },
		{ 128, "CUMSUM" }, { 150, "GELU" }, { 161, "RIGHT_SHIFT" },
		{ 162, "STABLEHLO_LOGISTIC" }, { 203, "DILATE" }, { 205, "REDUCE_WINDOW" },
		{ 209, "STABLEHLO_CASE" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(tfl_builtin_name(want[i].code), want[i].name);
}

static void test_table(void **state)
{
	int32_t n = tfl_builtin_count();

	(void)state;
	assert_int_equal(n, 210);
	for (int32_t c = 0; c < n; c++) {
		const char *s = tfl_builtin_name(c);

		assert_non_null(s);
		assert_true(strlen(s) > 1);
		assert_string_not_equal(s, "UNKNOWN");
		assert_int_equal(strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"), strlen(s));
		for (int32_t d = 0; d < c; d++)
			assert_string_not_equal(s, tfl_builtin_name(d));
	}
	assert_string_equal(tfl_builtin_name(-1), "UNKNOWN");
	assert_string_equal(tfl_builtin_name(n), "UNKNOWN");
	assert_string_equal(tfl_builtin_name(INT32_MAX), "UNKNOWN");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_codes),
		cmocka_unit_test(test_table),
	};

	return cmocka_run_group_tests_name("tflite-opnames", tests, NULL, NULL);
}
