// SPDX-License-Identifier: MIT
/*
 * TFLite quantization arithmetic against values worked out by hand. Each
 * expected value is derived in the comment next to it from the definitions
 * in tensorflow/lite/kernels/internal/common.h and gemmlowp/fixedpoint.h,
 * never from the code under test.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <e1npu/e1npu_ops.h>

#include "quant.h"

static void test_srdhm(void **state)
{
	(void)state;
	/* 2^30 * 2^30 = 2^60; (2^60 + 2^30) / 2^31 = 2^29 + 0.5 -> trunc 2^29 */
	assert_int_equal(e1q_srdhm(1 << 30, 1 << 30), 536870912);
	/* the one overflow case saturates */
	assert_int_equal(e1q_srdhm(INT32_MIN, INT32_MIN), INT32_MAX);
	/* 3 * 0.5 = 1.5: (3*2^30 + 2^30) / 2^31 = 2 exactly -> 2 */
	assert_int_equal(e1q_srdhm(3, 1 << 30), 2);
	/*
	 * -3 * 0.5 = -1.5: (-3*2^30 + 1 - 2^30) / 2^31 = -2 + 2^-31, truncated
	 * toward zero -> -1. Negative ties go toward zero (round half up).
	 */
	assert_int_equal(e1q_srdhm(-3, 1 << 30), -1);
	/* -0.5 -> (-2^31 + 1) / 2^31 -> 0 */
	assert_int_equal(e1q_srdhm(-1, 1 << 30), 0);
	/* just below -0.5: -2^30-1 over 2^31 ... (-2^31) / 2^31 = -1 */
	assert_int_equal(e1q_srdhm(-(1 << 30) - 1, 1), -1);
	/* INT32_MIN * 2^30 / 2^31 = -2^30 exactly */
	assert_int_equal(e1q_srdhm(INT32_MIN, 1 << 30), -(1 << 30));
	/* INT32_MAX * INT32_MAX / 2^31 = 2^31 - 2 + 2^-31 -> 2147483646 */
	assert_int_equal(e1q_srdhm(INT32_MAX, INT32_MAX), 2147483646);
}

static void test_rdivpot(void **state)
{
	(void)state;
	assert_int_equal(e1q_rdivpot(5, 1), 3);		/* 2.5 -> 3 (away) */
	assert_int_equal(e1q_rdivpot(-5, 1), -3);	/* -2.5 -> -3 (away) */
	assert_int_equal(e1q_rdivpot(-3, 1), -2);	/* -1.5 -> -2 */
	assert_int_equal(e1q_rdivpot(-4, 2), -1);	/* exact */
	assert_int_equal(e1q_rdivpot(-6, 2), -2);	/* -1.5 -> -2 */
	assert_int_equal(e1q_rdivpot(6, 2), 2);		/* 1.5 -> 2 */
	assert_int_equal(e1q_rdivpot(-5, 2), -1);	/* -1.25 -> -1 */
	assert_int_equal(e1q_rdivpot(7, 3), 1);		/* 0.875 -> 1 */
	assert_int_equal(e1q_rdivpot(4, 3), 1);		/* 0.5 -> 1 */
	assert_int_equal(e1q_rdivpot(-4, 3), -1);	/* -0.5 -> -1 */
	assert_int_equal(e1q_rdivpot(3, 3), 0);		/* 0.375 -> 0 */
	assert_int_equal(e1q_rdivpot(123, 0), 123);
	assert_int_equal(e1q_rdivpot(INT32_MIN, 31), -1);	/* -1 exactly */
	assert_int_equal(e1q_rdivpot(INT32_MAX, 31), 1);	/* 0.99.. -> 1 */
}

static void test_mbqm(void **state)
{
	(void)state;
	/* 100 * 0.5 * 2^-1 = 25: srdhm -> 50, rdivpot(50, 1) -> 25 */
	assert_int_equal(e1q_mul_by_qm(100, 1 << 30, -1), 25);
	/* 7 * 0.25 = 1.75: srdhm(7, 0.5) = 3.5 -> 4, 4 / 2 = 2 */
	assert_int_equal(e1q_mul_by_qm(7, 1 << 30, -1), 2);
	/*
	 * Double rounding: 5 * 0.25 = 1.25 should give 1, but TFLite gives 2:
	 * srdhm(5, 0.5) = 2.5 -> 3, then rdivpot(3, 1) = 1.5 -> 2.
	 */
	assert_int_equal(e1q_mul_by_qm(5, 1 << 30, -1), 2);
	/* -5 * 0.25: srdhm = -2.5 -> -2 (tie toward zero), rdivpot(-2,1) = -1 */
	assert_int_equal(e1q_mul_by_qm(-5, 1 << 30, -1), -1);
	/* -7 * 0.25 = -1.75: srdhm = -3.5 -> -3, rdivpot(-3, 1) = -1.5 -> -2 */
	assert_int_equal(e1q_mul_by_qm(-7, 1 << 30, -1), -2);
	/* left shift: 3 << 2 = 12, * 0.5 = 6 */
	assert_int_equal(e1q_mul_by_qm(3, 1 << 30, 2), 6);
	/* 0.75 * 1000 * 2^-3 = 93.75: srdhm(1000, 0.75) = 750, 750/8 = 93.75 -> 94 */
	assert_int_equal(e1q_mul_by_qm(1000, 1610612736, -3), 94);
	/* -1000: srdhm = -750 exactly, -93.75 -> -94 */
	assert_int_equal(e1q_mul_by_qm(-1000, 1610612736, -3), -94);
	/* multiplier 0 gives 0 */
	assert_int_equal(e1q_mul_by_qm(12345, 0, 0), 0);
	/* smaller-than-one and greater-than-one variants */
	assert_int_equal(e1q_mul_by_qm_smaller_than_one(100, 1 << 30, -1), 25);
	assert_int_equal(e1q_mul_by_qm_greater_than_one(3, 1 << 30, 2), 6);
}

static void test_quantize_multiplier(void **state)
{
	int32_t m;
	int s;

	(void)state;
	/* 0.5 = 0.5 * 2^0 -> 0.5 * 2^31 = 2^30, shift 0 */
	assert_int_equal(e1q_quantize_multiplier(0.5, &m, &s), 0);
	assert_int_equal(m, 1 << 30);
	assert_int_equal(s, 0);
	/* 1.0 = 0.5 * 2^1 */
	e1q_quantize_multiplier(1.0, &m, &s);
	assert_int_equal(m, 1 << 30);
	assert_int_equal(s, 1);
	/* 0.75 -> 0.75 * 2^31 = 1610612736 */
	e1q_quantize_multiplier(0.75, &m, &s);
	assert_int_equal(m, 1610612736);
	assert_int_equal(s, 0);
	/* 0.1 = 0.8 * 2^-3; 0.8 * 2^31 = 1717986918.4 -> 1717986918 */
	e1q_quantize_multiplier(0.1, &m, &s);
	assert_int_equal(m, 1717986918);
	assert_int_equal(s, -3);
	/* 3.0 = 0.75 * 2^2 */
	e1q_quantize_multiplier(3.0, &m, &s);
	assert_int_equal(m, 1610612736);
	assert_int_equal(s, 2);
	/* 1 - 2^-40: q * 2^31 rounds to 2^31 -> halved to 2^30, shift 0 + 1 */
	e1q_quantize_multiplier(1.0 - 1.0 / 1099511627776.0, &m, &s);
	assert_int_equal(m, 1 << 30);
	assert_int_equal(s, 1);
	/* 0 -> (0, 0); 2^-40 -> shift -39 < -31 -> (0, 0) */
	e1q_quantize_multiplier(0.0, &m, &s);
	assert_int_equal(m, 0);
	assert_int_equal(s, 0);
	e1q_quantize_multiplier(1.0 / 1099511627776.0, &m, &s);
	assert_int_equal(m, 0);
	assert_int_equal(s, 0);
	/* 0.3 = 0.6 * 2^-1; 0.6 * 2^31 = 1288490188.8 -> 1288490189 */
	e1q_quantize_multiplier(0.3, &m, &s);
	assert_int_equal(m, 1288490189);
	assert_int_equal(s, -1);
	assert_int_equal(e1q_quantize_multiplier(-1.0, &m, &s), -EINVAL);
	assert_int_equal(e1q_quantize_multiplier_smaller_than_one(2.0, &m, &s),
			 -ERANGE);
}

static void test_round_frexp(void **state)
{
	int e;

	(void)state;
	assert_true(e1q_round(2.5) == 3.0);
	assert_true(e1q_round(-2.5) == -3.0);
	assert_true(e1q_round(0.49999999999999994) == 0.0);
	assert_true(e1q_round(-0.5) == -1.0);
	assert_true(e1q_round(1.4999) == 1.0);
	assert_true(e1q_frexp(8.0, &e) == 0.5 && e == 4);
	assert_true(e1q_frexp(-3.0, &e) == -0.75 && e == 2);
	assert_true(e1q_frexp(4.9406564584124654e-324, &e) == 0.5 && e == -1073);
}

static void test_activation_range(void **state)
{
	int32_t lo, hi;

	(void)state;
	/* int8, scale 0.05, zp -10: relu -> [-10, 127]; relu6 -> 6/0.05 = 120 -> 110 */
	e1q_activation_range(E1Q_ACT_RELU, 0.05, -10, -128, 127, &lo, &hi);
	assert_int_equal(lo, -10);
	assert_int_equal(hi, 127);
	e1q_activation_range(E1Q_ACT_RELU6, 0.05, -10, -128, 127, &lo, &hi);
	assert_int_equal(lo, -10);
	assert_int_equal(hi, 110);
	/* uint8, scale 0.0235294, zp 0: relu6 -> round(255.0) = 255 */
	e1q_activation_range(E1Q_ACT_RELU6, 6.0 / 255.0, 0, 0, 255, &lo, &hi);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 255);
	e1q_activation_range(E1Q_ACT_NONE, 0.1, 3, -128, 127, &lo, &hi);
	assert_int_equal(lo, -128);
	assert_int_equal(hi, 127);
	/* relu_n1_to_1, scale 0.01 zp 0: [-100, 100] */
	e1q_activation_range(E1Q_ACT_RELU_N1_TO_1, 0.01, 0, -128, 127, &lo, &hi);
	assert_int_equal(lo, -100);
	assert_int_equal(hi, 100);
}

static void test_requant(void **state)
{
	(void)state;
	/* acc 1000 * 0.75/8 = 93.75 -> 94, + zp 5 = 99 */
	assert_int_equal(e1q_requant(1000, 1610612736, -3, 5, -128, 127), 99);
	/* saturation at both ends */
	assert_int_equal(e1q_requant(100000, 1610612736, -3, 5, -128, 127), 127);
	assert_int_equal(e1q_requant(-100000, 1610612736, -3, 5, -128, 127), -128);
}

/*
 * e1q_requant_bytes (the vectorized per-output loop) == e1q_requant, the
 * scalar form test_mbqm and test_requant pin by hand: hand-worked values
 * first, then edge and random operands in runs of odd lengths (the vector
 * tails).
 */
/*
 * E1NPU_ROUNDING_RUY (TFLite 2.14's ruy GEMMs): the same high multiply,
 * ties of the final right shift toward +infinity. -7 * 0.5 -> -3 (as
 * above), shift -1: -1.5 -> -1 (gemmlowp: -2); -2 * 0.5 = -1, shift -1:
 * -0.5 -> 0 (gemmlowp: -1); positive ties agree (+1.5 -> 2); no tie,
 * no difference; a left shift has no final shift; the byte form agrees.
 */
static void test_requant_ruy(void **state)
{
	static const int32_t acc[4] = { -7, -2, 7, -6 }, mult[4] = { 1 << 30, 1 << 30, 1 << 30, 1 << 30 };
	static const int shift[4] = { -1, -1, -1, -2 };
	uint8_t out[4];

	(void)state;
	assert_int_equal(e1q_mul_by_qm_ruy(-7, 1 << 30, -1), -1);
	assert_int_equal(e1q_mul_by_qm(-7, 1 << 30, -1), -2);
	assert_int_equal(e1q_mul_by_qm_ruy(-2, 1 << 30, -1), 0);
	assert_int_equal(e1q_mul_by_qm(-2, 1 << 30, -1), -1);
	assert_int_equal(e1q_mul_by_qm_ruy(7, 1 << 30, -1), 2);
	assert_int_equal(e1q_mul_by_qm(7, 1 << 30, -1), 2);
	assert_int_equal(e1q_mul_by_qm_ruy(-6, 1 << 30, -2), e1q_mul_by_qm(-6, 1 << 30, -2));
	assert_int_equal(e1q_mul_by_qm_ruy(-3, 1 << 30, 2), e1q_mul_by_qm(-3, 1 << 30, 2));
	assert_int_equal(e1q_mul_by_qm_ruy(INT32_MIN, INT32_MIN, 0), INT32_MAX);
	assert_int_equal(e1q_requant_ruy(-7, 1 << 30, -1, 10, 0, 255), 9);
	e1q_requant_bytes_ruy(acc, mult, shift, 10, 0, 255, 4, out);
	for (int i = 0; i < 4; i++)
		assert_int_equal(out[i], e1q_requant_ruy(acc[i], mult[i], shift[i], 10, 0, 255));
}

/*
 * E1NPU_ROUNDING_RUY_SINGLE (ruy's portable kernel: TFLite 2.14 built for
 * riscv64): x * m / 2^(31 - shift) rounded once, ties toward +infinity.
 * 1 * 0.75 * 2^-1 = 0.375 -> 0, where the two roundings give 1 (0.75 -> 1,
 * then 0.5 -> 1); -2 * 0.5 * 2^-1 = -0.5 -> 0; a left shift: 3 * 0.5 * 4 = 6;
 * INT32_MIN * INT32_MIN saturates; and random operands against the exact
 * quotient in long double (64-bit mantissa: x * m is exact).
 */
static void test_requant_ruy_single(void **state)
{
	static const int32_t acc[4] = { 1, -2, 3, -9 }, mult[4] = { 3 << 29, 1 << 30, 1 << 30, 1 << 30 };
	static const int shift[4] = { -1, -1, 2, -3 };
	uint64_t seed = 12345;
	uint8_t out[4];

	(void)state;
	assert_int_equal(e1q_mul_by_qm_ruy_single(1, 3 << 29, -1), 0);
	assert_int_equal(e1q_mul_by_qm_ruy(1, 3 << 29, -1), 1);
	assert_int_equal(e1q_mul_by_qm_ruy_single(-2, 1 << 30, -1), 0);
	assert_int_equal(e1q_mul_by_qm_ruy_single(3, 1 << 30, 2), 6);
	assert_int_equal(e1q_mul_by_qm_ruy_single(INT32_MIN, INT32_MIN, 0), INT32_MAX);
	assert_int_equal(e1q_requant_ruy_single(1, 3 << 29, -1, 10, 0, 255), 10);
	e1q_requant_bytes_ruy_single(acc, mult, shift, 10, 0, 255, 4, out);
	for (int i = 0; i < 4; i++)
		assert_int_equal(out[i], e1q_requant_ruy_single(acc[i], mult[i], shift[i], 10, 0, 255));
	/* the dispatch the conv/fc kernels use picks each rounding */
	assert_int_equal(e1q_requant_for(E1NPU_ROUNDING_RUY_SINGLE)(1, 3 << 29, -1, 10, 0, 255), 10);
	assert_int_equal(e1q_requant_for(E1NPU_ROUNDING_RUY)(1, 3 << 29, -1, 10, 0, 255), 11);
	assert_int_equal(e1q_requant_for(E1NPU_ROUNDING_GEMMLOWP)(-2, 1 << 30, -1, 10, 0, 255), 9);
	for (int i = 0; i < 100000; i++) {
		int32_t x, m;
		int sh;
		long double q;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		x = (int32_t)(seed >> 32);
		m = (int32_t)((1u << 30) + (uint32_t)(seed & 0x3fffffff));
		sh = (int)((seed >> 20) % 40) - 31;	/* -31 .. 8: saturation too */
		q = floorl((long double)x * m / ldexpl(1.0L, 31 - sh) + 0.5L);
		if (q > INT32_MAX)
			q = INT32_MAX;
		if (q < INT32_MIN)
			q = INT32_MIN;
		assert_int_equal(e1q_mul_by_qm_ruy_single(x, m, sh), (int32_t)q);
	}
}

static void test_requant_bytes(void **state)
{
	/*
	 * 1000 * 0.5 (2^30 / 2^31) = 500, shift -1: 250, + 10 = 260 -> 255;
	 * -7 * 0.5: srdhm (-7*2^30 + 1 - 2^30) / 2^31 = -3.99.. truncated to
	 * -3, shift -1: -1.5 rounds away from zero to -2, + 10 = 8;
	 * 3 << 2 = 12, * 0.5 = 6, + 0 -> 6 with zp 0 via int8 (-128..127):
	 * stored as the byte 6.
	 */
	static const int32_t acc[3] = { 1000, -7, 3 }, mult[3] = { 1 << 30, 1 << 30, 1 << 30 };
	static const int shift[3] = { -1, -1, 2 };
	/* operands in the defined range of e1q_requant: realistic multipliers
	 * (QuantizeMultiplier gives 0 or [2^30, 2^31)), results + zp in int32 */
	static const int32_t edge[] = { 0, 1, -1, 2, -2, 3, -3, 127, -128, 255, 1 << 20,
					-(1 << 20), (1 << 29) - 1, -(1 << 29) };
	static const int32_t medge[] = { 0, 1 << 30, INT32_MAX, (1 << 30) + 1 };
	uint8_t out[64];
	uint32_t seed = 12345;

	(void)state;
	e1q_requant_bytes(acc, mult, shift, 10, 0, 255, 2, out);
	assert_int_equal(out[0], 255);
	assert_int_equal(out[1], 8);
	e1q_requant_bytes(acc + 2, mult + 2, shift + 2, 0, -128, 127, 1, out);
	assert_int_equal(out[0], 6);
	for (int round = 0; round < 4000; round++) {
		int32_t a[64], m[64];
		int sh[64];
		uint32_t n = 1 + (uint32_t)round % 63;
		int32_t zp = (int32_t)(round % 256) - 128, lo = round % 2 ? -128 : 0;
		int32_t hi = round % 2 ? 127 : 255;

		for (uint32_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			a[i] = seed % 3 ? (int32_t)(seed ^ (seed << 7)) >> (3 + seed % 24) :
				edge[seed % (sizeof(edge) / sizeof(edge[0]))];
			seed = seed * 1103515245u + 12345u;
			m[i] = seed % 5 ? (int32_t)(0x40000000u | (seed >> 2)) :
				medge[seed % (sizeof(medge) / sizeof(medge[0]))];
			seed = seed * 1103515245u + 12345u;
			sh[i] = (int)(seed % 33) - 31;	/* -31 .. 1 */
			/* the int32 extremes, where the result stays small */
			if (!(seed % 7)) {
				a[i] = seed % 2 ? INT32_MIN : INT32_MAX;
				sh[i] = -1 - (int)(seed % 31);
			}
		}
		e1q_requant_bytes(a, m, sh, zp, lo, hi, n, out);
		for (uint32_t i = 0; i < n; i++)
			if (out[i] != (uint8_t)e1q_requant(a[i], m[i], sh[i], zp, lo, hi))
				fail_msg("requant_bytes(%d, %d, %d) = %u, e1q_requant %d", a[i],
					 m[i], sh[i], out[i], e1q_requant(a[i], m[i], sh[i], zp, lo, hi));
	}
}

/* Every byte form of the gemmlowp requantization: the dispatched one, the
 * portable C loop and (on x86 with AVX2, AVX-512) the intrinsics. */
#define NFORMS 4
static void requant_forms(const int32_t *a, const int32_t *m, const int *sh, int32_t zp,
			  int32_t lo, int32_t hi, uint32_t n, uint8_t out[NFORMS][72])
{
	memset(out, 0xa5, NFORMS * 72);
	e1q_requant_bytes(a, m, sh, zp, lo, hi, n, out[0]);
	e1q_requant_bytes_c(a, m, sh, zp, lo, hi, n, out[1]);
	e1q_requant_bytes_c(a, m, sh, zp, lo, hi, n, out[2]);
	e1q_requant_bytes_c(a, m, sh, zp, lo, hi, n, out[3]);
#if E1Q_X86
	if (e1q_have_avx2())
		e1q_requant_bytes_avx2(a, m, sh, zp, lo, hi, n, out[2]);
	if (e1q_have_avx512())
		e1q_requant_bytes_avx512(a, m, sh, zp, lo, hi, n, out[3]);
#endif
}

/* One random operand triple whose result + zp stays in int32 (where
 * e1q_requant is defined): any accumulator, multiplier (INT32_MIN too) and
 * shift from -40 (clamped to 31 right) to 31 left. */
static void requant_operand(uint64_t *seed, int32_t zp, int32_t *a, int32_t *m, int *sh)
{
	static const int32_t edge[] = { 0, 1, -1, INT32_MIN, INT32_MAX, INT32_MIN + 1,
					1 << 30, -(1 << 30), 255, -128 };
	int64_t r;

	do {
		*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
		*a = *seed % 4 ? (int32_t)(*seed >> 32) >> (*seed >> 8) % 32 :
			edge[(*seed >> 40) % (sizeof(edge) / sizeof(edge[0]))];
		*seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
		*m = *seed % 4 ? (int32_t)(*seed >> 32) :
			edge[(*seed >> 40) % (sizeof(edge) / sizeof(edge[0]))];
		*sh = (int)((*seed >> 16) % 72) - 40;
		r = (int64_t)e1q_mul_by_qm(*a, *m, *sh) + zp;
	} while (r < INT32_MIN || r > INT32_MAX);
}

/* The forms agree with e1q_requant on random and edge operands, every
 * length 0..72 (all tails of the 8-lane loop) and offset. */
static void test_requant_bytes_forms(void **state)
{
	uint64_t seed = 42;
	uint8_t out[NFORMS][72];

	(void)state;
	for (int round = 0; round < 20000; round++) {
		int32_t a[72], m[72];
		int sh[72];
		uint32_t n = (uint32_t)round % 73;
		int32_t zp = (int32_t)((round * 7) % 256) - 128, lo = round % 2 ? -128 : 0;
		int32_t hi = round % 2 ? 127 : 255;

		if (round % 3 == 0) {	/* narrower clamps: activations */
			lo += 20;
			hi -= 30;
		}
		for (uint32_t i = 0; i < n; i++)
			requant_operand(&seed, zp, &a[i], &m[i], &sh[i]);
		requant_forms(a, m, sh, zp, lo, hi, n, out);
		for (uint32_t i = 0; i < n; i++) {
			uint8_t want = (uint8_t)e1q_requant(a[i], m[i], sh[i], zp, lo, hi);

			for (int f = 0; f < NFORMS; f++)
				if (out[f][i] != want)
					fail_msg("form %d: requant(%d, %d, %d, zp %d) = %u, e1q_requant %u",
						 f, a[i], m[i], sh[i], zp, out[f][i], want);
		}
		for (int f = 0; f < NFORMS; f++)	/* nothing past n */
			for (uint32_t i = n; i < 72; i++)
				assert_int_equal(out[f][i], 0xa5);
	}
	/* INT32_MIN * INT32_MIN saturates to INT32_MAX, left shift included */
	{
		const int32_t a[3] = { INT32_MIN, 1 << 30, INT32_MIN }, m[3] = { INT32_MIN, INT32_MIN, INT32_MIN };
		const int sh[3] = { 0, 1, -31 };

		requant_forms(a, m, sh, -5, -128, 127, 3, out);
		for (int f = 0; f < NFORMS; f++) {
			assert_int_equal(out[f][0], 127);
			assert_int_equal(out[f][1], 127);
			assert_int_equal(out[f][2], (uint8_t)e1q_requant(a[2], m[2], sh[2], -5, -128, 127));
		}
	}
}

/*
 * e1q_requant_bytes_fold (dispatched, C, AVX2) == e1q_requant of the
 * folded accumulator: operands drawn for the folded value, then acc made
 * to reach it through random fold, corr, zw and sx (wrapping), with and
 * without sx, every length 0..72.
 */
/*
 * e1q_requant_fold_pixels (dispatched, C, AVX-512) == e1q_requant_bytes_fold_c
 * pixel by pixel: channel counts that tile a vector (1, 2, 4, 8, 16) and
 * that do not (3, 5, 24, 37), sums per channel, per pixel and none, pixel
 * counts that end inside a vector.
 */
static void test_requant_fold_pixels(void **state)
{
	static const uint32_t cs[] = { 1, 2, 3, 4, 5, 8, 16, 24, 37 };
	enum { MAXPX = 23, MAXC = 37 };
	uint64_t seed = 11;

	(void)state;
	for (int round = 0; round < 600; round++) {
		int32_t acc[MAXPX * MAXC], sx[MAXPX * MAXC], fold[MAXC], mult[MAXC];
		int shift[MAXC];
		uint8_t want[MAXPX * MAXC], got[3][MAXPX * MAXC];
		uint32_t c = cs[round % 9];
		size_t npx = 1 + (size_t)(round / 9) % MAXPX;
		int form = round / 3 % 3;	/* sums: 0 none, 1 per channel, 2 per pixel */
		struct e1q_fold f = {
			.fold = fold, .mult = mult, .shift = shift,
			.zw = (int32_t)(round % 255) - 127, .zp = (round * 7) % 256 - 128,
			.lo = round % 2 ? -128 : 0, .hi = round % 2 ? 127 : 255, .c = c,
			.sx_px = form == 2,
		};
		const int32_t *s = form ? sx : NULL;

		for (uint32_t j = 0; j < c; j++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			fold[j] = (int32_t)(seed >> 40) - (1 << 23);
			mult[j] = (int32_t)(seed >> 33) | (1 << 30);
			shift[j] = (int)(seed % 20) - 15;
		}
		for (size_t i = 0; i < npx * c; i++) {
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			acc[i] = (int32_t)(seed >> 44) - (1 << 19);
			sx[i] = (int32_t)(seed >> 20 & 0xfff) - 2048;
		}
		for (size_t px = 0; px < npx; px++) {
			int32_t corr = form == 2 ? (int32_t)((uint32_t)f.zw * (uint32_t)sx[px]) : 0;

			e1q_requant_bytes_fold_c(acc + px * c, fold, corr,
						 form == 1 ? sx + px * c : NULL, f.zw, mult, shift,
						 f.zp, f.lo, f.hi, c, want + px * c);
		}
		memset(got, 0xa5, sizeof(got));
		e1q_requant_fold_pixels(acc, s, &f, npx, got[0]);
		e1q_requant_fold_pixels_c(acc, s, &f, npx, got[1]);
		e1q_requant_fold_pixels_c(acc, s, &f, npx, got[2]);
#if E1Q_X86
		if (e1q_have_avx512())
			e1q_requant_fold_pixels_avx512(acc, s, &f, npx, got[2]);
#endif
		for (int g = 0; g < 3; g++) {
			if (memcmp(got[g], want, npx * c))
				fail_msg("form %d: c %u, %zu pixels, sums %d differ", g, c, npx, form);
			for (size_t i = npx * c; i < sizeof(want); i++)
				assert_int_equal(got[g][i], 0xa5);
		}
	}
}

static void test_requant_bytes_fold(void **state)
{
	uint64_t seed = 7;

	(void)state;
	for (int round = 0; round < 20000; round++) {
		int32_t a[72], m[72], acc[72], fold[72], sx[72];
		int sh[72];
		uint8_t out[NFORMS][72];
		uint32_t n = (uint32_t)round % 73;
		int32_t zp = (int32_t)((round * 13) % 256) - 128, lo = round % 2 ? -128 : 0;
		int32_t hi = round % 2 ? 127 : 255, corr, zw;
		const int32_t *s = round % 4 ? sx : NULL;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		corr = (int32_t)(seed >> 32);
		zw = (int32_t)(seed % 511) - 255;
		for (uint32_t i = 0; i < n; i++) {
			requant_operand(&seed, zp, &a[i], &m[i], &sh[i]);
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			fold[i] = (int32_t)(seed >> 32);
			sx[i] = (int32_t)(seed & 0xffffff) - (1 << 23);
			acc[i] = (int32_t)((uint32_t)a[i] - (uint32_t)fold[i] + (uint32_t)corr +
					   (s ? (uint32_t)zw * (uint32_t)sx[i] : 0));
		}
		memset(out, 0xa5, sizeof(out));
		e1q_requant_bytes_fold(acc, fold, corr, s, zw, m, sh, zp, lo, hi, n, out[0]);
		e1q_requant_bytes_fold_c(acc, fold, corr, s, zw, m, sh, zp, lo, hi, n, out[1]);
		e1q_requant_bytes_fold_c(acc, fold, corr, s, zw, m, sh, zp, lo, hi, n, out[2]);
		e1q_requant_bytes_fold_c(acc, fold, corr, s, zw, m, sh, zp, lo, hi, n, out[3]);
#if E1Q_X86
		if (e1q_have_avx2())
			e1q_requant_bytes_fold_avx2(acc, fold, corr, s, zw, m, sh, zp, lo, hi, n,
						    out[2]);
		if (e1q_have_avx512())
			e1q_requant_bytes_fold_avx512(acc, fold, corr, s, zw, m, sh, zp, lo, hi,
						      n, out[3]);
#endif
		for (int f = 0; f < NFORMS; f++) {
			for (uint32_t i = 0; i < n; i++)
				if (out[f][i] != (uint8_t)e1q_requant(a[i], m[i], sh[i], zp, lo, hi))
					fail_msg("form %d: fold requant of %d (%d, %d) = %u, e1q_requant %d",
						 f, a[i], m[i], sh[i], out[f][i],
						 e1q_requant(a[i], m[i], sh[i], zp, lo, hi));
			for (uint32_t i = n; i < 72; i++)
				assert_int_equal(out[f][i], 0xa5);
		}
	}
}

static void test_fixedpoint(void **state)
{
	int nbits;
	int32_t r;

	(void)state;
	/* exp(0) is One() = INT32_MAX */
	assert_int_equal(e1q_exp_on_negative_values(0, 5), INT32_MAX);
	/*
	 * exp(-1) in Q5.26 input: -2^26. The barrel shifter multiplies
	 * exp(-1/4)^2 by exp(-1/2): gemmlowp's constant for exp(-1) is
	 * 790015084; the composed result is within 2^-21 of it (the
	 * 4th-order Taylor term, (1/8)^5/120, is 2.2e-7).
	 */
	r = e1q_exp_on_negative_values(-(1 << 26), 5);
	assert_true(r > 790015084 - 1024 && r < 790015084 + 1024);
	/* exp(-1/4) in the same format: input -2^24 = exactly -1/4 */
	r = e1q_exp_on_negative_values(-(1 << 24), 5);
	assert_true(r > 1672461947 - 1024 && r < 1672461947 + 1024);
	/* 1/(1+0) = 1 -> saturated 1.0 in Q0.31, within rounding */
	r = e1q_one_over_one_plus_x_for_x_in_0_1(0);
	assert_true(r > INT32_MAX - 8);
	/* 1/(1+0.5) = 2/3 = 1431655765 in Q0.31 */
	r = e1q_one_over_one_plus_x_for_x_in_0_1(1 << 30);
	assert_true(r > 1431655765 - 8 && r < 1431655765 + 8);
	/* reciprocal of 1.0 in Q12.19 (2^19): headroom 12, bits over unit 0 */
	r = e1q_get_reciprocal(1 << 19, 12, &nbits);
	assert_int_equal(nbits, 0);
	assert_true(r > INT32_MAX - 8);
	/* of 3.0: 3 * 2^19, clz = 11, bits over unit 1; 1/(1 + 0.5) = 2/3 */
	r = e1q_get_reciprocal(3 << 19, 12, &nbits);
	assert_int_equal(nbits, 1);
	assert_true(r > 1431655765 - 8 && r < 1431655765 + 8);
	assert_int_equal(e1q_saturating_rounding_mul_by_pot(1 << 29, 2), INT32_MAX);
	assert_int_equal(e1q_saturating_rounding_mul_by_pot(-(1 << 29), 2), INT32_MIN);
	assert_int_equal(e1q_saturating_rounding_mul_by_pot(3, 2), 12);
	assert_int_equal(e1q_saturating_rounding_mul_by_pot(5, -1), 3);
}

static void test_softmax_prepare(void **state)
{
	int32_t mult, diff_min;
	int shift;

	(void)state;
	/*
	 * beta 1, input scale 1/16: real = 2^-4 * 2^26 = 2^22 = 0.5 * 2^23
	 * -> multiplier 2^30, left shift 23. diff_min = -floor(31 * 2^26 /
	 * 2^23) = -248.
	 */
	e1q_softmax_prepare(1.0, 1.0 / 16, &mult, &shift, &diff_min);
	assert_int_equal(mult, 1 << 30);
	assert_int_equal(shift, 23);
	assert_int_equal(diff_min, -248);
}

/*
 * TFLite 2.2's conv / fully connected scale: the float product for uint8
 * layers and fully connected ones (GetQuantizedConvolutionMultipler), the
 * double one for per-channel int8 convolutions.
 */
static void test_conv_scale(void **state)
{
	/*
	 * in = 0x1.47be7p-6, w = 0x1.d151c2p-8: the exact product
	 * 0x1.29dcc9...p-13 (48 bits) rounds up to the float 0x1.29dccap-13,
	 * and out = 0x1.29dccap-12 is twice that float. Float path: exactly
	 * 0.5 -> (2^30, 0). Double path: 0.5 * (1 + 2.7e-8) -> 0.5 * 2^31 +
	 * 0.5 * 2^31 * 2.7e-8 = 2^30 + 29 (0.000142031891524 / 0.000284063775325
	 * = 0.5000000135..., times 2^31 = 1073741853.0).
	 */
	const float in = 0x1.47be7p-6f, w = 0x1.d151c2p-8f, out = 0x1.29dccap-12f;
	int32_t m;
	int s, differ = 0;

	(void)state;
	assert_true(e1q_conv_scale(true, in, w, out) == 0.5);
	assert_int_equal(e1q_quantize_multiplier(e1q_conv_scale(true, in, w, out), &m, &s), 0);
	assert_int_equal(m, 1 << 30);
	assert_int_equal(s, 0);
	assert_int_equal(e1q_quantize_multiplier(e1q_conv_scale(false, in, w, out), &m, &s), 0);
	assert_int_equal(m, 1073741853);
	assert_int_equal(s, 0);

	/* which layers take which product */
	assert_true(e1q_conv_float_product(false, true, 1));	/* uint8 conv */
	assert_true(e1q_conv_float_product(true, true, 1));	/* uint8 FC */
	assert_true(e1q_conv_float_product(true, false, 1));	/* int8 FC */
	assert_false(e1q_conv_float_product(false, false, 1));	/* int8 conv */
	assert_false(e1q_conv_float_product(false, false, 8));	/* per channel */
	assert_false(e1q_conv_float_product(true, false, 8));

	/*
	 * A sweep: the float product computed here another way, rounding the
	 * exact double product (24 x 24 bits fit in 53) to float; where its
	 * multiplier differs from the double one's, e1q_conv_scale must give
	 * each. Many scale triples differ.
	 */
	for (int i = 0; i < 2000; i++) {
		float a = 0.001f + (float)i * 0.00037f, b = 0.002f + (float)(i % 97) * 0.0011f;
		float c = 0.013f + (float)(i % 31) * 0.0029f;
		double pf = (double)(float)((double)a * (double)b) / (double)c;
		double pd = (double)a * (double)b / (double)c;
		int32_t mf, md, got;
		int sf, sd, sg;

		assert_int_equal(e1q_quantize_multiplier(pf, &mf, &sf), 0);
		assert_int_equal(e1q_quantize_multiplier(pd, &md, &sd), 0);
		if (mf == md && sf == sd)
			continue;
		differ++;
		e1q_quantize_multiplier(e1q_conv_scale(true, a, b, c), &got, &sg);
		assert_int_equal(got, mf);
		assert_int_equal(sg, sf);
		e1q_quantize_multiplier(e1q_conv_scale(false, a, b, c), &got, &sg);
		assert_int_equal(got, md);
		assert_int_equal(sg, sd);
	}
	assert_true(differ > 100);
}

/*
 * ADD's rescale: TFLite 2.2 doubles the larger float scale in float and
 * multiplies the output scale by 2^20 in float. 1.5 and 1.0 in, 3.0 out:
 * twice_max = 3; 1.5/3 = 0.5 -> (2^30, 0); 1/3 -> 0.6666.. * 2^-1 ->
 * round(0.6666.. * 2^31) = 1431655765, shift -1; 3 / (2^20 * 3) = 2^-20 =
 * 0.5 * 2^-19 -> (2^30, -19).
 */
static void test_add_rescale(void **state)
{
	struct e1q_add_rescale r;

	(void)state;
	assert_int_equal(e1q_add_rescale(1.5, 1.0, 3.0, &r), 0);
	assert_int_equal(r.ma, 1 << 30);
	assert_int_equal(r.sa, 0);
	assert_int_equal(r.mb, 1431655765);
	assert_int_equal(r.sb, -1);
	assert_int_equal(r.mo, 1 << 30);
	assert_int_equal(r.so, -19);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_srdhm),
		cmocka_unit_test(test_rdivpot),
		cmocka_unit_test(test_mbqm),
		cmocka_unit_test(test_quantize_multiplier),
		cmocka_unit_test(test_round_frexp),
		cmocka_unit_test(test_activation_range),
		cmocka_unit_test(test_requant),
		cmocka_unit_test(test_requant_bytes),
		cmocka_unit_test(test_requant_bytes_forms),
		cmocka_unit_test(test_requant_bytes_fold),
		cmocka_unit_test(test_requant_fold_pixels),
		cmocka_unit_test(test_requant_ruy),
		cmocka_unit_test(test_requant_ruy_single),
		cmocka_unit_test(test_fixedpoint),
		cmocka_unit_test(test_softmax_prepare),
		cmocka_unit_test(test_conv_scale),
		cmocka_unit_test(test_add_rescale),
	};

	return cmocka_run_group_tests_name("ops-quant", tests, NULL, NULL);
}
