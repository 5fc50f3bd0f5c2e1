// SPDX-License-Identifier: MIT
/*
 * e1npu-tflite diff's comparison (tools/e1npu-tflite/compare.c) on
 * synthetic tensors: equal tensors, uint8 and int8 differences of known
 * size in each histogram bucket, the first difference's index, and the
 * extremes (0 against 255, -128 against 127).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"

static void test_equal(void **state)
{
	uint8_t a[100];
	struct cmp_result r;

	(void)state;
	for (int i = 0; i < 100; i++)
		a[i] = (uint8_t)(i * 7);
	cmp_tensors(a, a, sizeof(a), 0, &r);
	assert_int_equal(r.count, 100);
	assert_int_equal(r.differ, 0);
	assert_int_equal(r.max_abs, 0);
	assert_int_equal(r.first, 100);
	assert_int_equal(r.hist[0], 100);
	for (int b = 1; b < CMP_BUCKETS; b++)
		assert_int_equal(r.hist[b], 0);
}

static void test_buckets_uint8(void **state)
{
	/* differences 0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 255 */
	static const uint8_t d[] = { 0, 1, 2, 3, 4, 5, 8, 9, 16, 17, 255 };
	static const size_t want[CMP_BUCKETS] = { 1, 1, 1, 2, 2, 2, 2 };
	uint8_t a[11], b[11];
	struct cmp_result r;

	(void)state;
	for (int i = 0; i < 11; i++) {
		a[i] = (uint8_t)(i & 1 ? 255 - d[i] : 0);
		b[i] = (uint8_t)(i & 1 ? 255 : d[i]);	/* both signs of a - b */
	}
	cmp_tensors(a, b, 11, 0, &r);
	assert_int_equal(r.differ, 10);
	assert_int_equal(r.max_abs, 255);
	assert_int_equal(r.first, 1);
	for (int k = 0; k < CMP_BUCKETS; k++)
		assert_int_equal(r.hist[k], want[k]);
	assert_string_equal(cmp_bucket_name(3), "3-4");
	assert_string_equal(cmp_bucket_name(6), "17+");
}

static void test_int8_signed(void **state)
{
	int8_t a[4] = { -128, 5, -1, 0 }, b[4] = { 127, 5, 1, 0 };
	struct cmp_result r;

	(void)state;
	cmp_tensors(a, b, 4, 1, &r);
	assert_int_equal(r.differ, 2);
	assert_int_equal(r.max_abs, 255);	/* signed: not 1 as bytes 0x80/0x7f */
	assert_int_equal(r.first, 0);
	assert_int_equal(r.hist[0], 2);
	assert_int_equal(r.hist[2], 1);
	assert_int_equal(r.hist[6], 1);
	/* as uint8 the same bytes are 128 against 127: one step */
	cmp_tensors(a, b, 1, 0, &r);
	assert_int_equal(r.max_abs, 1);
}

static void test_one_perturbed_in_many(void **state)
{
	static uint8_t a[65536], b[65536];
	struct cmp_result r;

	(void)state;
	memset(a, 0x55, sizeof(a));
	memcpy(b, a, sizeof(b));
	b[40000] ^= 1;
	cmp_tensors(a, b, sizeof(a), 0, &r);
	assert_int_equal(r.differ, 1);
	assert_int_equal(r.first, 40000);
	assert_int_equal(r.hist[0], 65535);
	assert_int_equal(r.hist[1], 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_equal),
		cmocka_unit_test(test_buckets_uint8),
		cmocka_unit_test(test_int8_signed),
		cmocka_unit_test(test_one_perturbed_in_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
