// SPDX-License-Identifier: MIT
/* TFLite 2.2's quantized LOG_SOFTMAX (tflite_logsoftmax.h). */
#include <errno.h>

#include "quant.h"
#include "tflite_logsoftmax.h"

/* gemmlowp's fixed-point adds wrap; TFLite's saturating ones clamp */
static int32_t add_w(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a + (uint32_t)b);
}

static int32_t sub_w(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a - (uint32_t)b);
}

static int32_t add_sat(int32_t a, int32_t b)
{
	return e1q_clamp((int64_t)a + b, INT32_MIN, INT32_MAX);
}

static int32_t sub_sat(int32_t a, int32_t b)
{
	return e1q_clamp((int64_t)a - b, INT32_MIN, INT32_MAX);
}

static int32_t half_sum(int32_t a, int32_t b)
{
	int64_t s = (int64_t)a + b;

	return (int32_t)((s + (s >= 0 ? 1 : -1)) / 2);
}

/* x * 2^e of a raw value, saturating (e >= 0) or rounding (e < 0). */
static int32_t pot(int32_t x, int e)
{
	return e1q_saturating_rounding_mul_by_pot(x, e);
}

int32_t tfl_log_x_q12_to_q5(int32_t x_q12)
{
	/* Q0 constants of the approximation (gemmlowp's checked raw values) */
	const int32_t log_2 = 1488522236, sqrt_sqrt_half = 1805811301;
	const int32_t sqrt_half = 1518500250, one_quarter = 536870912;
	const int32_t alpha_n = 117049297, alpha_d = 127690142;
	const int32_t alpha_i = 1057819769, alpha_f = 638450708;
	const int in_bits = 12, acc_bits = 6;	/* output bits 5, one of headroom */
	int32_t quarter = pot(one_quarter, -acc_bits);
	int32_t z_a = x_q12, r_a, r_b, z_a_adj, z_b, z_b_adj, r, z_adj, p, q, sq, num, den;
	int ha = e1q_count_leading_zeros32((uint32_t)z_a), hb;

	r_a = pot(e1q_srdhm(pot(z_a, ha - 1), sqrt_half), 1);
	z_a_adj = add_sat(pot(in_bits - ha, 31 - acc_bits), quarter);
	z_b = e1q_srdhm(z_a, sqrt_half);
	hb = e1q_count_leading_zeros32((uint32_t)z_b) - 1;
	r_b = pot(z_a, hb);
	z_b_adj = sub_sat(pot(in_bits - hb, 31 - acc_bits), quarter);
	r = r_a < r_b ? r_a : r_b;
	z_adj = z_a_adj > z_b_adj ? z_a_adj : z_b_adj;
	p = half_sum(r, sqrt_sqrt_half);
	q = sub_w(r, sqrt_sqrt_half);
	q = add_w(q, q);
	sq = e1q_srdhm(q, q);
	num = add_w(e1q_srdhm(q, r), e1q_srdhm(e1q_srdhm(q, sq), alpha_n));
	den = add_w(e1q_srdhm(p, add_w(add_w(alpha_i, q), e1q_srdhm(alpha_d, sq))),
		    e1q_srdhm(alpha_f, q));
	den = e1q_one_over_one_plus_x_for_x_in_0_1(den);
	/* Q6 sum, rescaled to Q5: one saturating doubling */
	return pot(add_w(e1q_srdhm(z_adj, log_2), e1q_srdhm(pot(num, -acc_bits), den)), 1);
}

int tfl_logsoftmax_prepare(struct tfl_logsoftmax *s, bool is_int8, size_t rows, size_t depth,
			   float in_scale)
{
	double rev;

	if (e1q_softmax_prepare(1.0, (double)in_scale, &s->in_mult, &s->in_shift, &s->diff_min))
		return -EINVAL;
	/* the inverse scaling, 2^(31 - shift) / multiplier: below 1 for 2.2 */
	rev = (double)(1LL << (31 - s->in_shift)) / (double)s->in_mult;
	if (!(rev < 1.0) ||
	    e1q_quantize_multiplier_smaller_than_one(rev, &s->rev_mult, &s->rev_shift))
		return -EINVAL;
	s->is_int8 = is_int8;
	s->rows = rows;
	s->depth = depth;
	return 0;
}

static int32_t val(const struct tfl_logsoftmax *s, uint8_t b)
{
	return s->is_int8 ? (int32_t)(int8_t)b : (int32_t)b;
}

static void row(const struct tfl_logsoftmax *s, const uint8_t *in, uint8_t *out)
{
	int32_t lo = s->is_int8 ? -128 : 0, hi = s->is_int8 ? 127 : 255;
	int32_t mx = lo, sum = 0, log_sum, adj, rmin;

	for (size_t c = 0; c < s->depth; c++)
		if (val(s, in[c]) > mx)
			mx = val(s, in[c]);
	for (size_t c = 0; c < s->depth; c++) {
		int32_t d = val(s, in[c]) - mx;

		if (d >= s->diff_min)
			sum = add_w(sum, pot(e1q_exp_on_negative_values(
					e1q_mul_by_qm(d, s->in_mult, s->in_shift), 5), -12));
	}
	log_sum = tfl_log_x_q12_to_q5(sum);
	rmin = e1q_mul_by_qm(add_w(log_sum, INT32_MIN), s->rev_mult, s->rev_shift);
	adj = s->diff_min - 1 > rmin ? s->diff_min - 1 : rmin;
	for (size_t c = 0; c < s->depth; c++) {
		int32_t d = val(s, in[c]) - mx, o;

		if (d > adj) {
			o = e1q_rdivpot(sub_w(e1q_mul_by_qm(d, s->in_mult, s->in_shift), log_sum),
					31 - 5 - 4) + hi;
			o = e1q_clamp(o, lo, hi);
		} else {
			o = lo;
		}
		out[c] = s->is_int8 ? (uint8_t)(int8_t)o : (uint8_t)o;
	}
}

void tfl_logsoftmax_run(const struct tfl_logsoftmax *s, const uint8_t *in, uint8_t *out)
{
	for (size_t i = 0; i < s->rows; i++)
		row(s, in + i * s->depth, out + i * s->depth);
}
