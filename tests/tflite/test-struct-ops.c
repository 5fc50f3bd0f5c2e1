// SPDX-License-Identifier: MIT
/*
 * The structural and index operators' kernels (lib/tflite/tflite_split.c,
 * tflite_argmax.c, tflite_gather.c, tflite_space_batch.c,
 * tflite_bilinear.c) on small tensors whose results are worked out by
 * hand in the comments; TFLite 2.2 itself checks them on larger ones in
 * check-tflite-models.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tflite_argmax.h"
#include "tflite_bilinear.h"
#include "tflite_gather.h"
#include "tflite_space_batch.h"
#include "tflite_split.h"

/* [2, 4] = 0..7 cut along axis 1 into 1 + 3 columns, and joined back. */
static void test_split_join(void **state)
{
	const int32_t dims[2] = { 2, 4 }, sizes[2] = { 1, 3 }, bad[2] = { 2, 3 };
	const uint8_t in[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const uint8_t want0[2] = { 0, 4 }, want1[6] = { 1, 2, 3, 5, 6, 7 };
	uint8_t o0[2], o1[6], back[8];
	uint8_t *outs[2] = { o0, o1 };
	const uint8_t *ins[2] = { o0, o1 };
	struct tfl_split s;

	(void)state;
	assert_int_equal(tfl_split_prepare(&s, dims, 2, 1, 2, sizes), 0);
	tfl_split_run(&s, in, outs);
	assert_memory_equal(o0, want0, 2);
	assert_memory_equal(o1, want1, 6);
	tfl_join_run(&s, ins, back);
	assert_memory_equal(back, in, 8);
	/* sizes adding up to 5 of 4, an axis past the rank */
	assert_int_equal(tfl_split_prepare(&s, dims, 2, 1, 2, bad), -EINVAL);
	assert_int_equal(tfl_split_prepare(&s, dims, 2, 2, 2, sizes), -EINVAL);
}

/*
 * [2, 3] rows {5, 9, 9} and {7, 1, 7} along axis 1: max at 1 (the first
 * 9) and 0 (the first 7); min at 0 and 1. int8 rows {-1, 3, -1} and
 * {3, 3, -128} along axis 0: max {1, 0, 0} (column 1 ties: row 0), min
 * {0, 0, 1}.
 */
static void test_argmax(void **state)
{
	const int32_t dims[2] = { 2, 3 };
	const uint8_t u[6] = { 5, 9, 9, 7, 1, 7 };
	const int8_t s[6] = { -1, 3, -1, 3, 3, -128 };
	int64_t o64[3];
	int32_t o32[3];
	struct tfl_argmax a;

	(void)state;
	assert_int_equal(tfl_argmax_prepare(&a, dims, 2, 1, false, false, true), 0);
	tfl_argmax_run(&a, u, o64);
	assert_true(o64[0] == 1 && o64[1] == 0);
	assert_int_equal(tfl_argmax_prepare(&a, dims, 2, 1, true, false, false), 0);
	tfl_argmax_run(&a, u, o32);
	assert_true(o32[0] == 0 && o32[1] == 1);
	assert_int_equal(tfl_argmax_prepare(&a, dims, 2, 0, false, true, false), 0);
	tfl_argmax_run(&a, s, o32);
	assert_true(o32[0] == 1 && o32[1] == 0 && o32[2] == 0);
	assert_int_equal(tfl_argmax_prepare(&a, dims, 2, 0, true, true, true), 0);
	tfl_argmax_run(&a, s, o64);
	assert_true(o64[0] == 0 && o64[1] == 0 && o64[2] == 1);
	assert_int_equal(tfl_argmax_prepare(&a, dims, 2, 2, false, false, false), -EINVAL);
}

/* [3, 2] rows {10, 11}, {20, 21}, {30, 31} gathered by {2, 0, 2} on axis 0. */
static void test_gather(void **state)
{
	const int32_t dims[2] = { 3, 2 };
	const uint8_t p[6] = { 10, 11, 20, 21, 30, 31 };
	const uint8_t want[6] = { 30, 31, 10, 11, 30, 31 };
	const int32_t idx[3] = { 2, 0, 2 }, bad[3] = { 0, 3, -1 };
	const int64_t idx64[2] = { 1, -1 };
	uint8_t out[6], untouched[6];
	struct tfl_gather g;
	int64_t v = 0;
	size_t pos = 0;

	(void)state;
	assert_int_equal(tfl_gather_prepare(&g, dims, 2, 0, 3, false), 0);
	assert_int_equal(tfl_gather_run(&g, p, idx, out, &v, &pos), 0);
	assert_memory_equal(out, want, 6);
	/* index 3 of 3 rows: refused, nothing written */
	memset(out, 0xee, sizeof(out));
	memcpy(untouched, out, sizeof(out));
	assert_int_equal(tfl_gather_run(&g, p, bad, out, &v, &pos), -EINVAL);
	assert_true(v == 3 && pos == 1);
	assert_memory_equal(out, untouched, 6);
	/* int64 indices, -1 at position 1 */
	assert_int_equal(tfl_gather_prepare(&g, dims, 2, 0, 2, true), 0);
	assert_int_equal(tfl_gather_run(&g, p, idx64, out, &v, &pos), -EINVAL);
	assert_true(v == -1 && pos == 1);
	/* axis 1: columns {1, 0, 1} of each row */
	{
		const int32_t cols[3] = { 1, 0, 1 };
		const uint8_t w1[9] = { 11, 10, 11, 21, 20, 21, 31, 30, 31 };
		uint8_t o1[9];

		assert_int_equal(tfl_gather_prepare(&g, dims, 2, 1, 3, false), 0);
		assert_int_equal(tfl_gather_run(&g, p, cols, o1, &v, &pos), 0);
		assert_memory_equal(o1, w1, 9);
	}
}

/*
 * [1, 2, 4, 1] = rows {1, 2, 3, 4} and {5, 6, 7, 8}, block 2x2, one row of
 * padding above and below (zero point 9): [4, 2, 2, 1]. Batch b is block
 * offset (b / 2, b % 2); its row y reads input row 2y + b/2 - 1.
 *   b0 (0,0): row -1 padding, row 1 columns 0, 2:  9 9 5 7
 *   b1 (0,1): padding, row 1 columns 1, 3:         9 9 6 8
 *   b2 (1,0): row 0 columns 0, 2, row 2 padding:   1 3 9 9
 *   b3 (1,1):                                      2 4 9 9
 * Batch to space with the same crops gives the input back.
 */
static void test_space_batch(void **state)
{
	const int32_t in[4] = { 1, 2, 4, 1 }, block[2] = { 2, 2 }, pads[4] = { 1, 1, 0, 0 };
	const uint8_t x[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	const uint8_t want[16] = { 9, 9, 5, 7, 9, 9, 6, 8, 1, 3, 9, 9, 2, 4, 9, 9 };
	const int32_t odd[4] = { 1, 0, 0, 0 };
	int32_t od[4], back_dims[4];
	uint8_t mid[16], back[8];
	struct tfl_space_batch s, b;

	(void)state;
	assert_int_equal(tfl_space_batch_prepare(&s, true, in, block, pads, 9, od), 0);
	assert_true(od[0] == 4 && od[1] == 2 && od[2] == 2 && od[3] == 1);
	tfl_space_batch_run(&s, x, mid);
	assert_memory_equal(mid, want, 16);
	assert_int_equal(tfl_space_batch_prepare(&b, false, od, block, pads, 0, back_dims), 0);
	assert_memory_equal(back_dims, in, sizeof(in));
	tfl_space_batch_run(&b, mid, back);
	assert_memory_equal(back, x, 8);
	/* 2 + 1 rows do not split into blocks of 2 */
	assert_int_equal(tfl_space_batch_prepare(&s, true, in, block, odd, 9, od), -EINVAL);
}

/*
 * [1, 1, 2, 1] = {0, 100} to width 4. Source x: x * 2/4 = 0, .5, 1, 1.5
 * -> 0, 50, 100, 100. align_corners: x / 3 -> 0, 33.3, 66.7, 100 truncated
 * to 0, 33, 66, 100 (int8 {0, -100}: 0, -33, -66, -100, toward zero).
 * half_pixel_centers: (x + .5) / 2 - .5 = -.25, .25, .75, 1.25, clamped
 * neighbours -> 0, 25, 75, 100. TFLite 2.14, align_corners: uint8 adds .5
 * before truncating (0, 33, 67, 100); int8 takes x * 341 / 1024 (1/3 in
 * 10 bits, rounded), -100 * 682 / 1024 = -66.6 rounded half away from
 * zero to -67 (0, -33, -67, -100).
 */
static void test_bilinear(void **state)
{
	const int32_t in[4] = { 1, 1, 2, 1 };
	const uint8_t u[2] = { 0, 100 };
	const int8_t s[2] = { 0, -100 };
	const uint8_t plain[4] = { 0, 50, 100, 100 }, align[4] = { 0, 33, 66, 100 };
	const uint8_t half[4] = { 0, 25, 75, 100 };
	const int8_t salign[4] = { 0, -33, -66, -100 };
	const uint8_t align214[4] = { 0, 33, 67, 100 };
	const int8_t salign214[4] = { 0, -33, -67, -100 };
	struct tfl_bilinear b;
	uint8_t o[4];
	int8_t so[4];

	(void)state;
	assert_int_equal(tfl_bilinear_prepare(&b, false, false, in, 1, 4, false, false), 0);
	tfl_bilinear_run(&b, u, o);
	assert_memory_equal(o, plain, 4);
	assert_int_equal(tfl_bilinear_prepare(&b, false, false, in, 1, 4, true, false), 0);
	tfl_bilinear_run(&b, u, o);
	assert_memory_equal(o, align, 4);
	assert_int_equal(tfl_bilinear_prepare(&b, false, true, in, 1, 4, true, false), 0);
	tfl_bilinear_run(&b, s, so);
	assert_memory_equal(so, salign, 4);
	assert_int_equal(tfl_bilinear_prepare(&b, false, false, in, 1, 4, false, true), 0);
	tfl_bilinear_run(&b, u, o);
	assert_memory_equal(o, half, 4);
	assert_int_equal(tfl_bilinear_prepare(&b, false, false, in, 0, 4, false, false), -EINVAL);
	assert_int_equal(tfl_bilinear_prepare(&b, true, false, in, 1, 4, true, false), 0);
	tfl_bilinear_run(&b, u, o);
	assert_memory_equal(o, align214, 4);
	assert_int_equal(tfl_bilinear_prepare(&b, true, true, in, 1, 4, true, false), 0);
	tfl_bilinear_run(&b, s, so);
	assert_memory_equal(so, salign214, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_join),
		cmocka_unit_test(test_argmax),
		cmocka_unit_test(test_gather),
		cmocka_unit_test(test_space_batch),
		cmocka_unit_test(test_bilinear),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
