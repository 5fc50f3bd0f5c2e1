// SPDX-License-Identifier: MIT
/* TFLite 2.2's quantized L2_NORMALIZATION (tflite_l2norm.h). */
#include "quant.h"
#include "tflite_l2norm.h"

/* A Q3.28 product: gemmlowp's FixedPoint<int32, 3> x FixedPoint<int32, 3>
 * is Q6.25 (the doubling high multiply), brought back to Q3.28 by a
 * saturating left shift of 3. */
static int32_t q3_mul(int32_t a, int32_t b)
{
	return e1q_srdhm(a, b);	/* Q6.25 */
}

void tfl_inv_sqrt_multiplier(int32_t x, int32_t *mult, int *shift)
{
	const int32_t half_three = (1 << 28) + (1 << 27);	/* 1.5 in Q3.28 */
	const int32_t half_sqrt2 = 1518500250;			/* sqrt(2) / 2 in Q0.31 */
	int32_t in, half_in, r = 1 << 28;			/* r = 1.0 */
	int s = 11, pairs;

	/* 0 is invalid (a zero vector) and 1 would overflow below: TFLite's answer */
	if (x <= 1) {
		*mult = INT32_MAX;
		*shift = 0;
		return;
	}
	while (x >= (1 << 29)) {
		x /= 4;
		s++;
	}
	pairs = (e1q_count_leading_zeros32((uint32_t)x) - 1) / 2 - 1;
	s -= pairs;
	x <<= 2 * pairs;			/* now in [2^27, 2^29) */
	in = x >> 1;				/* Q3.28 */
	half_in = e1q_rdivpot(in, 1);
	for (int i = 0; i < 5; i++) {
		/* r' = 1.5 r - (x / 2) r^3, each product rescaled to Q3.28 */
		int32_t r3 = e1q_saturating_rounding_mul_by_pot(q3_mul(q3_mul(r, r), r), 6);
		int32_t d = (int32_t)((uint32_t)q3_mul(half_three, r) -
				      (uint32_t)q3_mul(half_in, r3));

		r = e1q_saturating_rounding_mul_by_pot(d, 3);
	}
	r = e1q_srdhm(r, half_sqrt2);		/* Q3.28 x Q0.31 -> Q3.28 */
	if (s < 0) {
		r = (int32_t)((uint32_t)r << -s);
		s = 0;
	}
	*mult = r;
	*shift = -s;
}

void tfl_l2norm_run(const struct tfl_l2norm *n, const void *in, void *out)
{
	const uint8_t *u = in;
	const int8_t *s8 = in;

	for (size_t o = 0; o < n->outer; o++) {
		size_t base = o * n->depth;
		int32_t acc = 0, mult;
		int shift;

		/* at most 255^2 per element: load refuses a depth that could overflow */
		for (size_t c = 0; c < n->depth; c++) {
			int32_t d = (n->uint8 ? u[base + c] : s8[base + c]) - n->in_zp;

			acc += d * d;
		}
		tfl_inv_sqrt_multiplier(acc, &mult, &shift);
		for (size_t c = 0; c < n->depth; c++) {
			int32_t d = (n->uint8 ? u[base + c] : s8[base + c]) - n->in_zp;

			if (n->uint8) {
				int32_t v = 128 + e1q_mul_by_qm_smaller_than_one(128 * d, mult, shift);

				((uint8_t *)out)[base + c] = (uint8_t)e1q_clamp(v, 0, 255);
			} else {
				int32_t v = e1q_mul_by_qm(d, mult, shift + 7);

				((int8_t *)out)[base + c] = (int8_t)e1q_clamp(v, -128, 127);
			}
		}
	}
}
