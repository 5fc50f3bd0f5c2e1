// SPDX-License-Identifier: MIT
/*
 * The table operators, L2_NORMALIZATION and the float32 boundary
 * (lib/tflite/tflite_lut.c, tflite_leaky.c, tflite_l2norm.c,
 * tflite_float.c) on values worked out by hand: sigmoid(1) = 0.7310586,
 * tanh(1) = 0.7615942, 1 / sqrt(x), a 3-4-5 triangle, ties rounded away
 * from zero. check-tflite-models compares every input byte with TFLite
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

#include "tflite_float.h"
#include "tflite_l2norm.h"
#include "tflite_leaky.h"
#include "tflite_lut.h"

static struct e1npu_qparams q(float scale, int32_t zp)
{
	struct e1npu_qparams r = { .scale = scale, .zero_point = zp };

	return r;
}

static void test_logistic(void **state)
{
	struct tfl_lut l;

	(void)state;
	/* input scale 0.1, zp 128: byte 138 is 1.0; output 1/256, zp 0 */
	assert_int_equal(tfl_lut_logistic(&l, true, 1, q(0.1f, 128), q(1.0f / 256, 0)), 0);
	assert_int_equal(l.table[128], 128);	/* 0.5 x 256 */
	assert_int_equal(l.table[138], 187);	/* 0.7310586 x 256 = 187.15 */
	assert_int_equal(l.table[118], 69);	/* 0.2689414 x 256 = 68.85 */
	assert_int_equal(l.table[255], 255);	/* 0.999997 x 256 rounds to 256: clamped */
	assert_int_equal(l.table[0], 0);
	/* int8, zp -128 out: the same values 128 lower, indexed by the byte */
	assert_int_equal(tfl_lut_logistic(&l, false, 1, q(0.1f, 0), q(1.0f / 256, -128)), 0);
	assert_int_equal((int8_t)l.table[10], 187 - 128);
	assert_int_equal((int8_t)l.table[(uint8_t)-10], 69 - 128);
	/* TFLite 2.2's one condition */
	assert_int_equal(tfl_lut_logistic(&l, true, 1, q(0.1f, 128), q(1.0f / 128, 0)), -EINVAL);
}

static void test_tanh(void **state)
{
	struct tfl_lut l;

	(void)state;
	tfl_lut_tanh(&l, true, 1, q(0.1f, 128), q(1.0f / 128, 128));
	assert_int_equal(l.table[128], 128);
	assert_int_equal(l.table[138], 128 + 97);	/* 0.7615942 x 128 = 97.48 */
	assert_int_equal(l.table[118], 128 - 97);
	assert_int_equal(l.table[255], 255);		/* tanh(12.7) x 128 = 128: clamped */
	/* any output quantization: scale 0.5, zp 10 -> tanh(1) / 0.5 = 1.52 -> 2 */
	tfl_lut_tanh(&l, true, 1, q(0.1f, 128), q(0.5f, 10));
	assert_int_equal(l.table[138], 12);
}

static void test_leaky(void **state)
{
	struct tfl_lut l;
	uint8_t in[4] = { 98, 100, 200, 0 }, out[4];

	(void)state;
	/* round(128 + 0.2 / 0.02) */
	assert_int_equal(tfl_leaky_q_alpha(0.2f, q(0.02f, 128)), 138);
	assert_int_equal(tfl_leaky_q_alpha(-1.0f, q(0.001f, 5)), 0);	/* clamped */
	/* s_in 0.5, s_out 1: multiplier 0.25; q_alpha 101, (q_alpha - zp) 1 */
	assert_int_equal(tfl_leaky_prepare(&l, 4, 0.5f, q(0.5f, 100), q(1.0f, 50)), 0);
	tfl_lut_run(&l, in, out);
	assert_int_equal(out[0], 49);	/* 50 + (-2 x 0.25 = -0.5, away from zero) */
	assert_int_equal(out[1], 100);	/* at the zero point: copied */
	assert_int_equal(out[2], 200);	/* above: copied, not rescaled (2.2) */
	assert_int_equal(out[3], 25);	/* 50 - 100 x 0.25 */
	/* s_in^2 / s_out = 2.5: TFLite 2.2 aborts; refused */
	assert_int_equal(tfl_leaky_prepare(&l, 4, 0.5f, q(0.5f, 100), q(0.1f, 50)), -ERANGE);
	assert_int_equal(tfl_leaky_prepare(&l, 4, NAN, q(0.5f, 100), q(1.0f, 50)), -EDOM);
	/* TFLite 2.14: x x 0.5 at or above the zero point, x x 0.5 x 0.5 below */
	assert_int_equal(tfl_leaky_prepare_2_14(&l, 4, 0.5f, q(0.5f, 100), q(1.0f, 50)), 0);
	tfl_lut_run(&l, in, out);
	assert_int_equal(out[0], 49);	/* 50 + (-2 x 0.25 = -0.5, away from zero) */
	assert_int_equal(out[1], 50);	/* at the zero point: the output's */
	assert_int_equal(out[2], 100);	/* 50 + 100 x 0.5: rescaled */
	assert_int_equal(out[3], 25);	/* 50 - 100 x 0.25 */
	/* multipliers above 1 are taken (5 and 2.5): 50 + 100 x 5, clamped */
	assert_int_equal(tfl_leaky_prepare_2_14(&l, 4, 0.5f, q(0.5f, 100), q(0.1f, 50)), 0);
	tfl_lut_run(&l, in, out);
	assert_int_equal(out[2], 255);
	assert_int_equal(out[0], 45);	/* 50 - 2 x 2.5 */
	assert_int_equal(tfl_leaky_prepare_2_14(&l, 4, -0.5f, q(0.5f, 100), q(1.0f, 50)),
			 -ERANGE);
	assert_int_equal(tfl_leaky_prepare_2_14(&l, 4, NAN, q(0.5f, 100), q(1.0f, 50)), -EDOM);
}

static void test_inv_sqrt(void **state)
{
	static const int32_t xs[] = { 2, 3, 4, 25, 100, 65025, 1 << 20, 12345678,
				      (1 << 29) + 7, INT32_MAX };
	int32_t m;
	int s;

	(void)state;
	for (size_t i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
		double got, want = 1.0 / sqrt((double)xs[i]);

		tfl_inv_sqrt_multiplier(xs[i], &m, &s);
		assert_true(s <= 0);
		got = ldexp((double)m, s - 31);
		print_message("1/sqrt(%d): %.9g, %.9g\n", xs[i], got, want);
		/* five Newton steps from 1 reach 1.9999975 of 2 at worst (x = 2^k) */
		assert_true(fabs(got - want) <= 2e-6 * want);
	}
	/* 0 and 1: TFLite's INT32_MAX, 0 */
	tfl_inv_sqrt_multiplier(0, &m, &s);
	assert_int_equal(m, INT32_MAX);
	assert_int_equal(s, 0);
	tfl_inv_sqrt_multiplier(1, &m, &s);
	assert_int_equal(m, INT32_MAX);
}

static void test_l2norm(void **state)
{
	/* two rows: (3, 4) off the zero point, then the zero vector */
	uint8_t u[4] = { 131, 132, 128, 128 }, uo[4];
	int8_t s8[4] = { 3, -4, 0, 0 }, so[4];
	struct tfl_l2norm n = { .uint8 = true, .outer = 2, .depth = 2, .in_zp = 128 };

	(void)state;
	tfl_l2norm_run(&n, u, uo);
	assert_int_equal(uo[0], 128 + 77);	/* 0.6 x 128 = 76.8 */
	assert_int_equal(uo[1], 128 + 102);	/* 0.8 x 128 = 102.4 */
	assert_int_equal(uo[2], 128);
	assert_int_equal(uo[3], 128);
	n.uint8 = false;
	n.in_zp = 0;
	tfl_l2norm_run(&n, s8, so);
	assert_int_equal(so[0], 77);
	assert_int_equal(so[1], -102);
	assert_int_equal(so[2], 0);
}

static void test_dequantize(void **state)
{
	uint8_t u[3] = { 130, 0, 255 };
	int8_t s8[2] = { -128, 127 };
	float out[3];
	struct tfl_float f = { .uint8 = true, .count = 3, .q = q(0.5f, 128) };

	(void)state;
	tfl_dequantize_run(&f, u, out);
	assert_true(out[0] == 1.0f && out[1] == -64.0f && out[2] == 63.5f);
	f.uint8 = false;
	f.count = 2;
	f.q = q(0.25f, -1);
	tfl_dequantize_run(&f, s8, out);
	assert_true(out[0] == -31.75f && out[1] == 32.0f);
}

static void test_quantize_float(void **state)
{
	float in[7] = { 0.1875f, -0.1875f, 1e30f, -INFINITY, NAN, 100.0f, 0.3f };
	uint8_t u[7];
	int8_t s8[7];
	struct tfl_float f = { .uint8 = true, .count = 7, .q = q(0.125f, 100) };

	(void)state;
	tfl_quantize_float_run(&f, in, u);
	assert_int_equal(u[0], 102);	/* 1.5: a tie, away from zero */
	assert_int_equal(u[1], 98);
	assert_int_equal(u[2], 255);	/* saturated */
	assert_int_equal(u[3], 0);
	assert_int_equal(u[4], 100);	/* NaN: the zero point */
	assert_int_equal(u[5], 255);	/* 800 + 100 clamped */
	assert_int_equal(u[6], 102);	/* 2.4 */
	f.uint8 = false;
	f.q = q(0.125f, -10);
	tfl_quantize_float_run(&f, in, s8);
	assert_int_equal(s8[0], -8);
	assert_int_equal(s8[1], -12);
	assert_int_equal(s8[3], -128);
}

static void test_abs(void **state)
{
	float in[3] = { -0.0f, -3.5f, 2.0f }, out[3];

	(void)state;
	tfl_abs_float_run(3, in, out);
	assert_true(out[0] == 0.0f && !signbit(out[0]));
	assert_true(out[1] == 3.5f && out[2] == 2.0f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_logistic),
		cmocka_unit_test(test_tanh),
		cmocka_unit_test(test_leaky),
		cmocka_unit_test(test_inv_sqrt),
		cmocka_unit_test(test_l2norm),
		cmocka_unit_test(test_dequantize),
		cmocka_unit_test(test_quantize_float),
		cmocka_unit_test(test_abs),
	};

	return cmocka_run_group_tests_name("tflite-unary", tests, NULL, NULL);
}
