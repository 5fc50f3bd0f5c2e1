// SPDX-License-Identifier: MIT
/*
 * The issue 21 follow-up operators on values worked out by hand
 * (lib/tflite/tflite_reduce.c, tflite_depth_space.c, tflite_tconv.c,
 * tflite_logsoftmax.c): sums that wrap, SUM's twice-rounded rescale, the
 * block order of DEPTH_TO_SPACE, TRANSPOSE_CONV's padding and scatter,
 * LOG_SOFTMAX against ln(). check-tflite-models compares them with TFLite
 * 2.2 itself; these pin the arithmetic down without it.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tflite_depth_space.h"
#include "tflite_logsoftmax.h"
#include "tflite_reduce.h"
#include "tflite_tconv.h"

static void test_reduce_max_min(void **state)
{
	struct tfl_reduce r;
	const int32_t d23[2] = { 2, 3 }, d22[2] = { 2, 2 };
	const int32_t ax1 = 1, ax0 = 0, ax_both[3] = { 0, -1, 1 };
	const uint8_t u[6] = { 1, 9, 4, 200, 7, 255 };
	const int8_t s[4] = { -5, -128, 3, -1 };
	int32_t od[8], bad;
	uint32_t on;
	uint8_t out[3];

	(void)state;
	assert_int_equal(tfl_reduce_prepare(&r, TFL_REDUCE_MAX, false, d23, 2, &ax1, 1, false,
					    od, &on, &bad), 0);
	assert_int_equal(on, 1);
	assert_int_equal(od[0], 2);
	tfl_reduce_run(&r, u, out);
	assert_int_equal(out[0], 9);
	assert_int_equal(out[1], 255);
	assert_int_equal(tfl_reduce_prepare(&r, TFL_REDUCE_MIN, false, d23, 2, &ax0, 1, true,
					    od, &on, &bad), 0);
	assert_int_equal(on, 2);
	assert_int_equal(od[0], 1);
	assert_int_equal(od[1], 3);
	tfl_reduce_run(&r, u, out);
	assert_int_equal(out[0], 1);
	assert_int_equal(out[1], 7);
	assert_int_equal(out[2], 4);
	/* int8, every axis (one named twice): the largest stored value */
	assert_int_equal(tfl_reduce_prepare(&r, TFL_REDUCE_MAX, true, d22, 2, ax_both, 3, false,
					    od, &on, &bad), 0);
	assert_int_equal(on, 0);
	tfl_reduce_run(&r, (const uint8_t *)s, out);
	assert_int_equal((int8_t)out[0], 3);
	/* an axis out of range is named */
	bad = 0;
	assert_int_equal(tfl_reduce_prepare(&r, TFL_REDUCE_MAX, false, d23, 2, &(int32_t){ -3 }, 1,
					    false, od, &on, &bad), -EINVAL);
	assert_int_equal(bad, -3);
}

static void test_sum(void **state)
{
	struct tfl_reduce r;
	const int32_t d4 = 4, d3 = 3, d2 = 2, ax = 0;
	const uint8_t a[4] = { 100, 100, 100, 10 }, b[3] = { 10, 20, 30 }, c[2] = { 255, 255 };
	int32_t od[8], bad;
	uint32_t on;
	uint8_t out[1];

	(void)state;
	/* same quantization: the 8-bit sum, 310 mod 256 */
	assert_int_equal(tfl_reduce_prepare(&r, TFL_REDUCE_SUM_WRAP, false, &d4, 1, &ax, 1, false,
					    od, &on, &bad), 0);
	tfl_reduce_run(&r, a, out);
	assert_int_equal(out[0], 54);
	/*
	 * s_in 0.5, zp 10, s_out 1: the real sum is (0 + 10 + 20) 0.5 = 15,
	 * but 2.2 adds 0.5 before rounding: 60 x 0.5 - 14.5 = 15.5 -> 16
	 */
	r.kind = TFL_REDUCE_SUM_RESCALE;
	assert_int_equal(tfl_reduce_prepare(&r, TFL_REDUCE_SUM_RESCALE, false, &d3, 1, &ax, 1,
					    false, od, &on, &bad), 0);
	assert_int_equal(tfl_reduce_rescale(&r, 0.5f, 10, 1.0f, 0), 0);
	tfl_reduce_run(&r, b, out);
	assert_int_equal(out[0], 16);
	tfl_reduce_free(&r);
	/* no clamp: 510 x 2 + 0.5 -> 1021, truncated to its low byte 253 */
	assert_int_equal(tfl_reduce_prepare(&r, TFL_REDUCE_SUM_RESCALE, false, &d2, 1, &ax, 1,
					    false, od, &on, &bad), 0);
	assert_int_equal(tfl_reduce_rescale(&r, 1.0f, 0, 0.5f, 0), 0);
	tfl_reduce_run(&r, c, out);
	assert_int_equal(out[0], 253);
	tfl_reduce_free(&r);
	/* TFLite 2.14: no 0.5 (60 x 0.5 - 15 = 15), and clamped (1020 -> 255) */
	assert_int_equal(tfl_reduce_prepare(&r, TFL_REDUCE_SUM_2_14, false, &d3, 1, &ax, 1,
					    false, od, &on, &bad), 0);
	assert_int_equal(tfl_reduce_rescale(&r, 0.5f, 10, 1.0f, 0), 0);
	tfl_reduce_run(&r, b, out);
	assert_int_equal(out[0], 15);
	tfl_reduce_free(&r);
	assert_int_equal(tfl_reduce_prepare(&r, TFL_REDUCE_SUM_2_14, false, &d2, 1, &ax, 1,
					    false, od, &on, &bad), 0);
	assert_int_equal(tfl_reduce_rescale(&r, 1.0f, 0, 0.5f, 0), 0);
	tfl_reduce_run(&r, c, out);
	assert_int_equal(out[0], 255);
	tfl_reduce_free(&r);
}

static void test_depth_to_space(void **state)
{
	struct tfl_depth_space s;
	const int32_t in[4] = { 1, 1, 2, 8 }, bad_in[4] = { 1, 3, 4, 2 };
	const uint8_t want[16] = { 0, 1, 2, 3, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15 };
	uint8_t x[16], y[16], back[16];
	int32_t od[4], od2[4];

	(void)state;
	for (int i = 0; i < 16; i++)
		x[i] = (uint8_t)i;
	/* block offset (dy, dx) holds channels (2 dy + dx) x 2 .. + 1 */
	assert_int_equal(tfl_depth_space_prepare(&s, true, in, 2, 1, od), 0);
	assert_int_equal(od[1], 2);
	assert_int_equal(od[2], 4);
	assert_int_equal(od[3], 2);
	tfl_depth_space_run(&s, x, y);
	assert_memory_equal(y, want, 16);
	/* SPACE_TO_DEPTH is its inverse */
	assert_int_equal(tfl_depth_space_prepare(&s, false, od, 2, 1, od2), 0);
	assert_memory_equal(od2, in, sizeof(in));
	tfl_depth_space_run(&s, y, back);
	assert_memory_equal(back, x, 16);
	/* height 3 is not a multiple of block 2; block 0 never fits */
	assert_int_equal(tfl_depth_space_prepare(&s, false, bad_in, 2, 1, od), -EINVAL);
	assert_int_equal(tfl_depth_space_prepare(&s, true, in, 0, 1, od), -EINVAL);
}

static void test_tconv(void **state)
{
	struct tfl_tconv s;
	const uint8_t w[4] = { 129, 130, 127, 128 }, in[1] = { 130 };
	uint8_t out[4];

	(void)state;
	/* the padding of a convolution from the output size */
	assert_int_equal(tfl_tconv_padding(true, 8, 3, 2), 0);		/* total 1 */
	assert_int_equal(tfl_tconv_padding(true, 10, 4, 2), 1);	/* total 2 */
	assert_int_equal(tfl_tconv_padding(true, 7, 3, 1), 1);
	assert_int_equal(tfl_tconv_padding(false, 9, 3, 2), 0);
	assert_int_equal(tfl_tconv_padding(true, 9, 4, 3), 0);		/* 2 x 3 + 4 - 9 */
	assert_int_equal(tfl_tconv_padding(true, 10, 5, 3), 2);	/* 3 x 3 + 5 - 10 */
	/* one pixel (x - zp = 2) scattered by a 2x2 filter (1, 2, -1, 0), times 0.5 */
	memset(&s, 0, sizeof(s));
	s.in[0] = s.in[1] = s.in[2] = s.in[3] = 1;
	s.out[0] = 1;
	s.out[1] = s.out[2] = 2;
	s.out[3] = 1;
	s.fh = s.fw = 2;
	s.stride_h = s.stride_w = 2;
	s.zp_in = 128;
	s.zp_w = 128;
	s.zp_out = 100;
	assert_int_equal(tfl_tconv_alloc(&s, w), 0);
	s.mult[0] = 1 << 30;		/* 0.5 */
	s.shift[0] = 0;
	tfl_tconv_run(&s, in, out);
	assert_int_equal(out[0], 101);
	assert_int_equal(out[1], 102);
	assert_int_equal(out[2], 99);
	assert_int_equal(out[3], 100);
	tfl_tconv_free(&s);
}

static void test_log_softmax(void **state)
{
	const double xs[] = { 1.5, 2.0, M_E, 10.0, 1000.0, 4095.0 };
	struct tfl_logsoftmax s;
	const uint8_t in[4] = { 128, 138, 118, 0 };
	uint8_t out[4];

	(void)state;
	/* ln of a Q12 value in Q5 within 4 of its last places (2^-24) */
	assert_int_equal(tfl_log_x_q12_to_q5(1 << 19), 0);
	for (size_t i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
		int32_t raw = (int32_t)llround(xs[i] * (1 << 19));

		assert_true(fabs(tfl_log_x_q12_to_q5(raw) / 67108864.0 - log(raw / 524288.0)) <
			    4.0 / 67108864.0);
	}
	/*
	 * Inputs 0, 1, -1, -12.8 (scale 0.1, zp 128): ln(1 + e + 1/e + e^-12.8)
	 * = 1.407604; outputs 255 + round((x - 1.407604) x 16)
	 */
	assert_int_equal(tfl_logsoftmax_prepare(&s, false, 1, 4, 0.1f), 0);
	tfl_logsoftmax_run(&s, in, out);
	assert_int_equal(out[0], 232);	/* -22.52 */
	assert_int_equal(out[1], 248);	/* -6.52 */
	assert_int_equal(out[2], 216);	/* -38.52 */
	assert_int_equal(out[3], 28);	/* -227.32 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reduce_max_min),
		cmocka_unit_test(test_sum),
		cmocka_unit_test(test_depth_to_space),
		cmocka_unit_test(test_tconv),
		cmocka_unit_test(test_log_softmax),
	};

	return cmocka_run_group_tests_name("tflite-reduce-shape", tests, NULL, NULL);
}
