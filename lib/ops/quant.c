// SPDX-License-Identifier: MIT
/*
 * TensorFlow Lite integer-only quantization arithmetic. Every function is a
 * transcription of the TFLite / gemmlowp routine it names, with signed
 * overflow made explicit (two's-complement wrap where TFLite relies on it)
 * so the code is UBSan clean. No libm: frexp and round are done on the bits.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include <e1npu/e1npu_ops.h>

#include "quant.h"

int32_t e1q_srdhm(int32_t a, int32_t b)
{
	int64_t ab;
	int64_t nudge;

	if (a == b && a == INT32_MIN)
		return INT32_MAX;
	ab = (int64_t)a * (int64_t)b;
	nudge = ab >= 0 ? (1LL << 30) : (1 - (1LL << 30));
	/* C division truncates toward zero, as in gemmlowp. */
	return (int32_t)((ab + nudge) / (1LL << 31));
}

int32_t e1q_rdivpot(int32_t x, int exponent)
{
	int32_t mask, remainder, threshold;

	if (exponent <= 0)
		return x;
	if (exponent > 31)
		exponent = 31;
	mask = (int32_t)((1ULL << exponent) - 1);
	remainder = x & mask;
	threshold = (mask >> 1) + (x < 0 ? 1 : 0);
	return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

static int32_t shl_wrap(int32_t x, int s)
{
	return (int32_t)((uint32_t)x << s);
}

int32_t e1q_mul_by_qm(int32_t x, int32_t multiplier, int shift)
{
	return e1q_mul_by_qm_inline(x, multiplier, shift);
}

int32_t e1q_mul_by_qm_smaller_than_one(int32_t x, int32_t multiplier, int shift)
{
	return e1q_rdivpot(e1q_srdhm(x, multiplier), -shift);
}

int32_t e1q_mul_by_qm_greater_than_one(int32_t x, int32_t multiplier, int shift)
{
	return e1q_srdhm(shl_wrap(x, shift), multiplier);
}

double e1q_frexp(double x, int *e)
{
	uint64_t bits;
	int ex;

	*e = 0;
	if (x == 0.0)
		return x;
	memcpy(&bits, &x, sizeof(bits));
	ex = (int)((bits >> 52) & 0x7ff);
	if (ex == 0x7ff)
		return x;	/* inf/nan: as frexp, exponent unspecified */
	if (ex == 0) {
		/* Subnormal: scale by 2^64 first. */
		double y = x * 18446744073709551616.0;
		int e2;
		double m = e1q_frexp(y, &e2);

		*e = e2 - 64;
		return m;
	}
	*e = ex - 1022;
	bits = (bits & ~(0x7ffULL << 52)) | (1022ULL << 52);
	memcpy(&x, &bits, sizeof(bits));
	return x;
}

double e1q_round(double x)
{
	/* Exact for |x| < 2^52; larger doubles are already integers. */
	double a = x < 0 ? -x : x;
	double r;

	if (!(a < 4503599627370496.0))
		return x;
	r = (double)(int64_t)a;		/* trunc; a - r is exact */
	if (a - r >= 0.5)
		r += 1.0;
	return x < 0 ? -r : r;
}

int e1q_quantize_multiplier(double real, int32_t *multiplier, int *shift)
{
	double q;
	int64_t q_fixed;

	if (!(real >= 0.0) || real > 1.7976931348623157e308)
		return -EINVAL;
	if (real == 0.0) {
		*multiplier = 0;
		*shift = 0;
		return 0;
	}
	q = e1q_frexp(real, shift);
	q_fixed = (int64_t)e1q_round(q * (double)(1LL << 31));
	if (q_fixed == (1LL << 31)) {
		q_fixed /= 2;
		++*shift;
	}
	if (*shift < -31) {
		*shift = 0;
		q_fixed = 0;
	}
	/* e1q_mul_by_qm shifts an int32 left by @shift: 31 at most */
	if (*shift > E1Q_SHIFT_MAX)
		return -EINVAL;
	*multiplier = (int32_t)q_fixed;
	return 0;
}

double e1q_conv_scale(bool float_product, float in, float w, float out)
{
	/* the cast rounds to single precision whatever FLT_EVAL_METHOD is */
	if (float_product)
		return (double)(float)(in * w) / (double)out;
	return (double)in * (double)w / (double)out;
}

int e1q_quantize_multiplier_smaller_than_one(double real, int32_t *multiplier,
					     int *shift)
{
	int ret = e1q_quantize_multiplier(real, multiplier, shift);

	if (ret)
		return ret;
	return *shift <= 0 ? 0 : -ERANGE;
}

int e1q_add_rescale(double scale_a, double scale_b, double scale_out,
		    struct e1q_add_rescale *r)
{
	/*
	 * TFLite 2.2 takes the larger of two float scales and doubles it in
	 * float, and multiplies the output scale by 1 << 20 in float: exact
	 * but for overflow to infinity, which the float products keep.
	 */
	float fa = (float)scale_a, fb = (float)scale_b;
	double twice_max = (double)(float)(2.0f * (fa > fb ? fa : fb));
	double out_div = (double)(float)((float)(1 << E1Q_ADD_LEFT_SHIFT) * (float)scale_out);
	int ret;

	ret = e1q_quantize_multiplier_smaller_than_one(scale_a / twice_max, &r->ma, &r->sa);
	if (!ret)
		ret = e1q_quantize_multiplier_smaller_than_one(scale_b / twice_max, &r->mb, &r->sb);
	if (!ret)
		ret = e1q_quantize_multiplier_smaller_than_one(
			twice_max / out_div, &r->mo, &r->so);
	return ret;
}

void e1q_activation_range(enum e1q_act act, double scale, int32_t zero_point,
			  int32_t qmin, int32_t qmax, int32_t *act_min,
			  int32_t *act_max)
{
	int32_t lo = qmin, hi = qmax, v;

	switch (act) {
	case E1Q_ACT_RELU:
		lo = zero_point > qmin ? zero_point : qmin;
		break;
	case E1Q_ACT_RELU6:
		lo = zero_point > qmin ? zero_point : qmin;
		v = e1q_quantize_value(6.0, scale, zero_point, INT32_MIN, INT32_MAX);
		hi = v < qmax ? v : qmax;
		break;
	case E1Q_ACT_RELU_N1_TO_1:
		v = e1q_quantize_value(-1.0, scale, zero_point, INT32_MIN, INT32_MAX);
		lo = v > qmin ? v : qmin;
		v = e1q_quantize_value(1.0, scale, zero_point, INT32_MIN, INT32_MAX);
		hi = v < qmax ? v : qmax;
		break;
	case E1Q_ACT_NONE:
	default:
		break;
	}
	*act_min = lo;
	*act_max = hi;
}

int32_t e1q_quantize_value(double x, double scale, int32_t zp, int32_t qmin,
			   int32_t qmax)
{
	/*
	 * TFLite: zero_point + static_cast<int32>(TfLiteRound(f / scale)),
	 * with f and scale floats: the division is a float division.
	 */
	float q = (float)x / (float)scale;
	double r = e1q_round((double)q);
	int64_t v;

	if (r > 2147483647.0)
		r = 2147483647.0;
	if (r < -2147483648.0)
		r = -2147483648.0;
	v = (int64_t)zp + (int64_t)r;
	return e1q_clamp(v, qmin, qmax);
}

/* ---- gemmlowp fixed point -------------------------------------------- */

int e1q_count_leading_zeros32(uint32_t x)
{
	return x ? __builtin_clz(x) : 32;
}

static int32_t add_wrap(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a + (uint32_t)b);
}

static int32_t sub_wrap(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a - (uint32_t)b);
}

int32_t e1q_saturating_rounding_mul_by_pot(int32_t x, int exponent)
{
	int32_t threshold;

	if (exponent == 0)
		return x;
	if (exponent < 0)
		return e1q_rdivpot(x, -exponent);
	threshold = (int32_t)((1U << (31 - exponent)) - 1);
	if (x > threshold)
		return INT32_MAX;
	if (x < -threshold)
		return INT32_MIN;
	return shl_wrap(x, exponent);
}

/* F0 exp on [-1/4, 0). */
static int32_t exp_on_interval_neg_quarter_0(int32_t a)
{
	const int32_t constant_term = 1895147668;	/* exp(-1/8) */
	const int32_t constant_1_over_3 = 715827883;
	int32_t x = add_wrap(a, 1 << 28);
	int32_t x2 = e1q_srdhm(x, x);
	int32_t x3 = e1q_srdhm(x2, x);
	int32_t x4 = e1q_srdhm(x2, x2);
	int32_t x4_over_4 = e1q_saturating_rounding_mul_by_pot(x4, -2);
	int32_t poly = e1q_saturating_rounding_mul_by_pot(
		add_wrap(e1q_srdhm(add_wrap(x4_over_4, x3), constant_1_over_3), x2),
		-1);

	return add_wrap(constant_term,
			e1q_srdhm(constant_term, add_wrap(x, poly)));
}

int32_t e1q_exp_on_negative_values(int32_t a, int int_bits)
{
	static const struct { int exponent; int32_t mult; } barrel[] = {
		{ -2, 1672461947 }, { -1, 1302514674 }, { 0, 790015084 },
		{ 1, 290630308 }, { 2, 39332535 }, { 3, 720401 }, { 4, 242 },
	};
	int frac_bits = 31 - int_bits;
	int32_t one_quarter = (int32_t)1 << (frac_bits - 2);
	int32_t mask = one_quarter - 1;
	int32_t a_mod = sub_wrap(a & mask, one_quarter);
	int32_t result = exp_on_interval_neg_quarter_0(
		e1q_saturating_rounding_mul_by_pot(a_mod, int_bits));
	int32_t remainder = sub_wrap(a_mod, a);
	size_t i;

	for (i = 0; i < sizeof(barrel) / sizeof(barrel[0]); i++) {
		int e = barrel[i].exponent;

		if (int_bits > e) {
			int sh = frac_bits + e;

			if (remainder & (int32_t)(1U << sh))
				result = e1q_srdhm(result, barrel[i].mult);
		}
	}
	if (int_bits > 5) {
		int32_t clamp = -(1 << (36 - int_bits));

		if (a < clamp)
			result = 0;
	}
	if (a == 0)
		result = INT32_MAX;
	return result;
}

static int32_t rounding_half_sum(int32_t a, int32_t b)
{
	int64_t sum = (int64_t)a + b;
	int64_t sign = sum >= 0 ? 1 : -1;

	return (int32_t)((sum + sign) / 2);
}

int32_t e1q_one_over_one_plus_x_for_x_in_0_1(int32_t a)
{
	int32_t half_den = rounding_half_sum(a, INT32_MAX);
	const int32_t c48_17 = 1515870810;
	const int32_t cn32_17 = -1010580540;
	const int32_t f2_one = 1 << 29;
	int32_t x = add_wrap(c48_17, e1q_srdhm(half_den, cn32_17));
	int i;

	for (i = 0; i < 3; i++) {
		int32_t hdx = e1q_srdhm(half_den, x);
		int32_t one_minus = sub_wrap(f2_one, hdx);

		x = add_wrap(x, e1q_saturating_rounding_mul_by_pot(
				     e1q_srdhm(x, one_minus), 2));
	}
	return e1q_saturating_rounding_mul_by_pot(x, 1);
}

int32_t e1q_get_reciprocal(int32_t x, int x_integer_digits,
			   int *num_bits_over_unit)
{
	int headroom_plus_one = e1q_count_leading_zeros32((uint32_t)x);
	int32_t shifted_sum_minus_one;

	*num_bits_over_unit = x_integer_digits - headroom_plus_one;
	shifted_sum_minus_one = (int32_t)(((uint32_t)x << headroom_plus_one) -
					  (1U << 31));
	return e1q_one_over_one_plus_x_for_x_in_0_1(shifted_sum_minus_one);
}

int e1q_softmax_prepare(double beta, double input_scale, int32_t *mult,
			int *left_shift, int32_t *diff_min)
{
	const int int_bits = 5;
	double real = beta * input_scale * (double)(1 << (31 - int_bits));
	double max_in;

	/*
	 * TFLite's QuantizeMultiplierGreaterThanOne: the scaled beta must
	 * exceed 1 (a left shift >= 0); below that the scheme has no form.
	 */
	if (!(real > 1.0))
		return -EINVAL;
	if (real > (double)((1LL << 31) - 1))
		real = (double)((1LL << 31) - 1);
	if (e1q_quantize_multiplier(real, mult, left_shift))
		return -EINVAL;
	max_in = 1.0 * ((1 << int_bits) - 1) *
		 (double)(1LL << (31 - int_bits)) / (double)(1LL << *left_shift);
	*diff_min = -(int32_t)(int64_t)max_in;	/* floor of a positive value */
	return 0;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* AVX2 / AVX-512 builds of the loop, picked at load time; vectorized at -O2 */
#define E1Q_CLONES __attribute__((target_clones("default", "avx2", "arch=x86-64-v4"), \
				  optimize("tree-vectorize", "vect-cost-model=dynamic")))
#else
#define E1Q_CLONES
#endif

/*
 * e1q_requant without branches so that it vectorizes (per-lane shifts,
 * 32x32->64 multiplies). The division by 2^31 truncating toward zero keeps
 * bits 31..62 of the biased product, which a logical shift of the 64-bit
 * value gives as well as an arithmetic one.
 */
E1Q_CLONES
void e1q_requant_bytes_c(const int32_t *acc, const int32_t *mult, const int *shift,
		       int32_t zp, int32_t lo, int32_t hi, uint32_t n, uint8_t *out)
{
	for (uint32_t i = 0; i < n; i++) {
		int32_t sh = shift[i], m = mult[i];
		int32_t left = sh > 0 ? sh : 0, right = sh > 0 ? 0 : -sh;
		int32_t a = (int32_t)((uint32_t)acc[i] << left);
		int64_t ab = (int64_t)a * m;
		int64_t t = ab + (ab >= 0 ? (1LL << 30) : 1 - (1LL << 30));
		int32_t v = (int32_t)(uint32_t)((uint64_t)(t + (t < 0 ? (1LL << 31) - 1 : 0)) >> 31);
		int32_t mask, rem, thr;

		v = a == INT32_MIN && m == INT32_MIN ? INT32_MAX : v;
		right = right > 31 ? 31 : right;
		mask = (int32_t)((1u << right) - 1);
		rem = v & mask;
		thr = (mask >> 1) + (v < 0);
		v = (v >> right) + (rem > thr) + zp;
		v = v < lo ? lo : v > hi ? hi : v;
		out[i] = (uint8_t)v;
	}
}

void e1q_requant_bytes(const int32_t *acc, const int32_t *mult, const int *shift,
		       int32_t zp, int32_t lo, int32_t hi, uint32_t n, uint8_t *out)
{
#if E1Q_X86
	if (e1q_have_avx512()) {
		e1q_requant_bytes_avx512(acc, mult, shift, zp, lo, hi, n, out);
		return;
	}
	if (e1q_have_avx2()) {
		e1q_requant_bytes_avx2(acc, mult, shift, zp, lo, hi, n, out);
		return;
	}
#endif
	e1q_requant_bytes_c(acc, mult, shift, zp, lo, hi, n, out);
}

/* The fold in chunks through e1q_requant_bytes_c (a stack buffer). */
void e1q_requant_bytes_fold_c(const int32_t *acc, const int32_t *fold, int32_t corr,
			      const int32_t *sx, int32_t zw, const int32_t *mult,
			      const int *shift, int32_t zp, int32_t lo, int32_t hi,
			      uint32_t n, uint8_t *out)
{
	int32_t v[64];

	for (uint32_t i0 = 0; i0 < n; i0 += 64) {
		uint32_t k = n - i0 < 64 ? n - i0 : 64;

		for (uint32_t i = 0; i < k; i++)
			v[i] = (int32_t)((uint32_t)acc[i0 + i] + (uint32_t)fold[i0 + i] -
					 (uint32_t)corr -
					 (sx ? (uint32_t)zw * (uint32_t)sx[i0 + i] : 0));
		e1q_requant_bytes_c(v, mult + i0, shift + i0, zp, lo, hi, k, out + i0);
	}
}

void e1q_requant_bytes_fold(const int32_t *acc, const int32_t *fold, int32_t corr,
			    const int32_t *sx, int32_t zw, const int32_t *mult,
			    const int *shift, int32_t zp, int32_t lo, int32_t hi,
			    uint32_t n, uint8_t *out)
{
#if E1Q_X86
	if (e1q_have_avx512()) {
		e1q_requant_bytes_fold_avx512(acc, fold, corr, sx, zw, mult, shift, zp, lo, hi,
					      n, out);
		return;
	}
	if (e1q_have_avx2()) {
		e1q_requant_bytes_fold_avx2(acc, fold, corr, sx, zw, mult, shift, zp, lo, hi,
					    n, out);
		return;
	}
#endif
	e1q_requant_bytes_fold_c(acc, fold, corr, sx, zw, mult, shift, zp, lo, hi, n, out);
}

void e1q_requant_fold_pixels_c(const int32_t *acc, const int32_t *sx,
			       const struct e1q_fold *f, size_t npx, uint8_t *out)
{
	for (size_t px = 0; px < npx; px++, acc += f->c, out += f->c) {
		int32_t corr = 0;
		const int32_t *s = NULL;

		if (sx && f->sx_px)
			corr = (int32_t)((uint32_t)f->zw * (uint32_t)sx[px]);
		else if (sx)
			s = sx + px * f->c;
		e1q_requant_bytes_fold_c(acc, f->fold, corr, s, f->zw, f->mult, f->shift, f->zp,
					 f->lo, f->hi, f->c, out);
	}
}

void e1q_requant_fold_pixels(const int32_t *acc, const int32_t *sx, const struct e1q_fold *f,
			     size_t npx, uint8_t *out)
{
#if E1Q_X86
	if (e1q_have_avx512()) {
		e1q_requant_fold_pixels_avx512(acc, sx, f, npx, out);
		return;
	}
	if (e1q_have_avx2()) {
		for (size_t px = 0; px < npx; px++, acc += f->c, out += f->c) {
			int32_t corr = sx && f->sx_px ?
				(int32_t)((uint32_t)f->zw * (uint32_t)sx[px]) : 0;

			e1q_requant_bytes_fold_avx2(acc, f->fold, corr,
						    sx && !f->sx_px ? sx + px * f->c : NULL,
						    f->zw, f->mult, f->shift, f->zp, f->lo, f->hi,
						    f->c, out);
		}
		return;
	}
#endif
	e1q_requant_fold_pixels_c(acc, sx, f, npx, out);
}

void e1q_requant_bytes_ruy(const int32_t *acc, const int32_t *mult, const int *shift,
			      int32_t zp, int32_t lo, int32_t hi, uint32_t n, uint8_t *out)
{
	for (uint32_t i = 0; i < n; i++)
		out[i] = (uint8_t)e1q_requant_ruy(acc[i], mult[i], shift[i], zp, lo, hi);
}

void e1q_requant_bytes_ruy_single(const int32_t *acc, const int32_t *mult, const int *shift,
				  int32_t zp, int32_t lo, int32_t hi, uint32_t n, uint8_t *out)
{
	for (uint32_t i = 0; i < n; i++)
		out[i] = (uint8_t)e1q_requant_ruy_single(acc[i], mult[i], shift[i], zp, lo, hi);
}

e1q_requant_fn e1q_requant_for(uint32_t rounding)
{
	return rounding == E1NPU_ROUNDING_RUY_SINGLE ? e1q_requant_ruy_single :
	       rounding == E1NPU_ROUNDING_RUY ? e1q_requant_ruy : e1q_requant;
}

e1q_requant_bytes_fn e1q_requant_bytes_for(uint32_t rounding)
{
	return rounding == E1NPU_ROUNDING_RUY_SINGLE ? e1q_requant_bytes_ruy_single :
	       rounding == E1NPU_ROUNDING_RUY ? e1q_requant_bytes_ruy : e1q_requant_bytes;
}
