/* SPDX-License-Identifier: MIT */
/*
 * TensorFlow Lite integer-only quantization arithmetic, bit-exact with
 * tensorflow/lite/kernels/internal/common.h and gemmlowp's fixedpoint.h.
 * Documentation/quantization.md explains every function with worked values.
 */
#ifndef __E1NPU_OPS_QUANT_H__
#define __E1NPU_OPS_QUANT_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* gemmlowp SaturatingRoundingDoublingHighMul: round(a*b / 2^31), saturating. */
int32_t e1q_srdhm(int32_t a, int32_t b);

/* gemmlowp RoundingDivideByPOT: x / 2^exponent, round half away from zero. */
int32_t e1q_rdivpot(int32_t x, int exponent);

/*
 * TFLite MultiplyByQuantizedMultiplier(x, multiplier, shift): x * M * 2^shift
 * with M = multiplier / 2^31; shift > 0 is a left shift before the high mul.
 */
int32_t e1q_mul_by_qm(int32_t x, int32_t multiplier, int shift);

/* TFLite MultiplyByQuantizedMultiplierSmallerThanOneExp (shift <= 0). */
int32_t e1q_mul_by_qm_smaller_than_one(int32_t x, int32_t multiplier, int shift);

/* TFLite MultiplyByQuantizedMultiplierGreaterThanOne (shift >= 0). */
int32_t e1q_mul_by_qm_greater_than_one(int32_t x, int32_t multiplier, int shift);

/* Largest left shift of the fixed-point scheme (an int32 shifted left). */
#define E1Q_SHIFT_MAX	31

/*
 * TFLite QuantizeMultiplier: frexp-based, TfLiteRound (half away from zero).
 * Returns 0, or -EINVAL for a negative, NaN or infinite scale or one of
 * 2^31 or more (its shift would pass E1Q_SHIFT_MAX). Scales below 2^-32
 * give multiplier 0, as in TFLite.
 */
int e1q_quantize_multiplier(double real, int32_t *multiplier, int *shift);

/*
 * The real requantization scale of a convolution or fully connected output
 * channel as TFLite 2.2 forms it from float scales: its uint8 layers and
 * its (per-tensor) FULLY_CONNECTED take GetQuantizedConvolutionMultipler's
 * single-precision product, (double)(float)(in * w) / out; per-channel int8
 * convolutions take PopulateConvolutionQuantizationParams' double product,
 * (double)in * (double)w / (double)out. The two differ in the last bits,
 * enough to move a multiplier by one (Documentation/quantization.md).
 */
double e1q_conv_scale(bool float_product, float in, float w, float out);

/* Which of the two products TFLite 2.2 uses for such a layer. */
static inline bool e1q_conv_float_product(bool fc, bool uint8, uint32_t nscales)
{
	return uint8 || (fc && nscales == 1);
}

/* TFLite QuantizeMultiplierSmallerThanOneExp (0 < real < 1). */
int e1q_quantize_multiplier_smaller_than_one(double real, int32_t *multiplier,
					     int *shift);

/*
 * TFLite ADD's rescaling (PrepareGeneralSubOp / quantized Add): inputs
 * shifted left by E1Q_ADD_LEFT_SHIFT, each multiplied by its scale over
 * twice the larger input scale, the sum by that over the output scale.
 */
#define E1Q_ADD_LEFT_SHIFT	20
struct e1q_add_rescale {
	int32_t ma, mb, mo;	/* multipliers of a, b and the output */
	int sa, sb, so;		/* their shifts (all <= 0) */
};

/* Returns 0, or -ERANGE/-EINVAL when a multiplier is not representable. */
int e1q_add_rescale(double scale_a, double scale_b, double scale_out,
		    struct e1q_add_rescale *r);

/* TfLiteRound: round half away from zero. */
double e1q_round(double x);

/* A rounded value as int32, saturated (NaN: 0): a cast out of range is UB. */
static inline int32_t e1q_sat_i32(double v)
{
	if (v != v)
		return 0;
	return v <= -2147483648.0 ? INT32_MIN : v >= 2147483647.0 ? INT32_MAX : (int32_t)v;
}

/* std::frexp for finite doubles: x = m * 2^e with 0.5 <= |m| < 1. */
double e1q_frexp(double x, int *e);

/* TFLite CalculateActivationRangeQuantized for NONE / RELU / RELU6 / RELU_N1_TO_1. */
enum e1q_act {
	E1Q_ACT_NONE = 0,
	E1Q_ACT_RELU = 1,
	E1Q_ACT_RELU6 = 2,
	E1Q_ACT_RELU_N1_TO_1 = 3,
};
void e1q_activation_range(enum e1q_act act, double scale, int32_t zero_point,
			  int32_t qmin, int32_t qmax, int32_t *act_min,
			  int32_t *act_max);

/* TFLite quantization of one real value: zp + round(x / scale), clamped. */
int32_t e1q_quantize_value(double x, double scale, int32_t zp, int32_t qmin,
			   int32_t qmax);

/*
 * e1q_mul_by_qm inlined for the per-element loops (requantization of every
 * conv/fc output): the same arithmetic as e1q_srdhm + e1q_rdivpot, which
 * e1q_mul_by_qm itself calls through this, so the tests cover it.
 */
static inline int32_t e1q_mul_by_qm_inline(int32_t x, int32_t multiplier, int shift)
{
	int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
	int32_t a = (int32_t)((uint32_t)x << left), mask, rem, thr, v;
	int64_t ab;

	if (a == INT32_MIN && multiplier == INT32_MIN) {
		v = INT32_MAX;
	} else {
		ab = (int64_t)a * multiplier;
		/* C division truncates toward zero, as in gemmlowp */
		v = (int32_t)((ab + (ab >= 0 ? (1LL << 30) : 1 - (1LL << 30))) / (1LL << 31));
	}
	if (right <= 0)
		return v;
	if (right > 31)
		right = 31;
	mask = (int32_t)((1ULL << right) - 1);
	rem = v & mask;
	thr = (mask >> 1) + (v < 0 ? 1 : 0);
	return (v >> right) + (rem > thr ? 1 : 0);
}

/*
 * MultiplyByQuantizedMultiplier as TFLite 2.14's ruy GEMM kernels apply it
 * (E1NPU_ROUNDING_RUY): the same rounding doubling high multiply, then a
 * right shift that rounds ties toward +infinity ((v + 2^(s-1)) >> s),
 * not away from zero: only a negative tie comes out differently.
 */
static inline int32_t e1q_mul_by_qm_ruy(int32_t x, int32_t multiplier, int shift)
{
	int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
	int32_t a = (int32_t)((uint32_t)x << left);
	int64_t ab, v;

	if (a == INT32_MIN && multiplier == INT32_MIN)
		v = INT32_MAX;
	else {
		ab = (int64_t)a * multiplier;
		v = (ab + (ab >= 0 ? (1LL << 30) : 1 - (1LL << 30))) / (1LL << 31);
	}
	if (right <= 0)
		return (int32_t)v;
	if (right > 31)
		right = 31;
	v += (int64_t)1 << (right - 1);
	/* floor division by 2^right (v may be negative) */
	return (int32_t)(v >= 0 ? v / ((int64_t)1 << right) :
			 -((-v + ((int64_t)1 << right) - 1) / ((int64_t)1 << right)));
}

/*
 * MultiplyByQuantizedMultiplier as ruy's portable C++ kernel applies it
 * (E1NPU_ROUNDING_RUY_SINGLE; TFLite 2.14 built for riscv64): the 64-bit
 * product rounded once, ties toward +infinity, saturated to int32.
 */
static inline int32_t e1q_mul_by_qm_ruy_single(int32_t x, int32_t multiplier, int shift)
{
	int total = 31 - (shift > 30 ? 30 : shift < -31 ? -31 : shift);
	int64_t v = ((int64_t)x * multiplier + ((int64_t)1 << (total - 1))) >> total;

	return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
}

/* e1q_requant with E1NPU_ROUNDING_RUY_SINGLE. */
static inline int32_t e1q_requant_ruy_single(int32_t acc, int32_t mult, int shift,
					     int32_t zp, int32_t lo, int32_t hi)
{
	int64_t v = (int64_t)e1q_mul_by_qm_ruy_single(acc, mult, shift) + zp;

	return v < lo ? lo : v > hi ? hi : (int32_t)v;
}

/* e1q_requant with E1NPU_ROUNDING_RUY. */
static inline int32_t e1q_requant_ruy(int32_t acc, int32_t mult, int shift,
					 int32_t zp, int32_t lo, int32_t hi)
{
	int64_t v = (int64_t)e1q_mul_by_qm_ruy(acc, mult, shift) + zp;

	return v < lo ? lo : v > hi ? hi : (int32_t)v;
}

/* Requantize one accumulator: MBQM, + zp, clamp to [lo, hi]. */
static inline int32_t e1q_requant(int32_t acc, int32_t mult, int shift,
				  int32_t zp, int32_t lo, int32_t hi)
{
	int32_t v = e1q_mul_by_qm_inline(acc, mult, shift) + zp;

	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * e1q_requant of @n accumulators with per-element multiplier and shift,
 * each result's low byte stored in @out (uint8 and int8 alike): the
 * vectorized form for the per-output loops, equal to e1q_requant.
 */
void e1q_requant_bytes(const int32_t *acc, const int32_t *mult, const int *shift,
		       int32_t zp, int32_t lo, int32_t hi, uint32_t n, uint8_t *out);
/* e1q_requant_bytes in portable C (the form on hosts without AVX2). */
void e1q_requant_bytes_c(const int32_t *acc, const int32_t *mult, const int *shift,
			 int32_t zp, int32_t lo, int32_t hi, uint32_t n, uint8_t *out);
#if defined(__x86_64__) && defined(__GNUC__)
#define E1Q_X86 1
/* e1q_requant_bytes in AVX2 intrinsics (requant_avx2.c): only where
 * e1q_have_avx2() */
void e1q_requant_bytes_avx2(const int32_t *acc, const int32_t *mult, const int *shift,
			    int32_t zp, int32_t lo, int32_t hi, uint32_t n, uint8_t *out);
bool e1q_have_avx2(void);
void e1q_requant_bytes_fold_avx2(const int32_t *acc, const int32_t *fold, int32_t corr,
				 const int32_t *sx, int32_t zw, const int32_t *mult,
				 const int *shift, int32_t zp, int32_t lo, int32_t hi,
				 uint32_t n, uint8_t *out);
/* The same two in AVX-512 (requant_avx512.c): only where e1q_have_avx512(). */
void e1q_requant_bytes_avx512(const int32_t *acc, const int32_t *mult, const int *shift,
			      int32_t zp, int32_t lo, int32_t hi, uint32_t n, uint8_t *out);
void e1q_requant_bytes_fold_avx512(const int32_t *acc, const int32_t *fold, int32_t corr,
				   const int32_t *sx, int32_t zw, const int32_t *mult,
				   const int *shift, int32_t zp, int32_t lo, int32_t hi,
				   uint32_t n, uint8_t *out);
bool e1q_have_avx512(void);
struct e1q_fold;
void e1q_requant_fold_pixels_avx512(const int32_t *acc, const int32_t *sx,
				    const struct e1q_fold *f, size_t npx, uint8_t *out);
#else
#define E1Q_X86 0
#endif
/*
 * e1q_requant_bytes of acc[i] + fold[i] - corr - zw * sx[i] (int32
 * wrap-around; without the last term when @sx is NULL): a convolution's
 * fold and requantization in one pass over the accumulators.
 */
void e1q_requant_bytes_fold(const int32_t *acc, const int32_t *fold, int32_t corr,
			    const int32_t *sx, int32_t zw, const int32_t *mult,
			    const int *shift, int32_t zp, int32_t lo, int32_t hi,
			    uint32_t n, uint8_t *out);
/**
 * struct e1q_fold - a convolution's per-channel fold and requantization.
 * @fold: added to each channel's accumulator.
 * @mult: @shift: the channel's multiplier.
 * @zw: the weight zero point, times the window sums subtracted.
 * @zp: @lo: @hi: the output zero point and clamp.
 * @c: channels per pixel.
 * @sx_px: one window sum per pixel (all its channels), else one per channel.
 */
struct e1q_fold {
	const int32_t *fold, *mult;
	const int *shift;
	int32_t zw, zp, lo, hi;
	uint32_t c;
	bool sx_px;
};

/*
 * e1q_requant_bytes_fold of @npx consecutive pixels (@acc, @out by @f->c
 * per pixel; @sx by 1 or @f->c per pixel, NULL without the zw term): a
 * convolution's run of interior pixels in one call.
 */
void e1q_requant_fold_pixels(const int32_t *acc, const int32_t *sx, const struct e1q_fold *f,
			     size_t npx, uint8_t *out);
/* The same in portable C. */
void e1q_requant_fold_pixels_c(const int32_t *acc, const int32_t *sx,
			       const struct e1q_fold *f, size_t npx, uint8_t *out);
/* The same in portable C. */
void e1q_requant_bytes_fold_c(const int32_t *acc, const int32_t *fold, int32_t corr,
			      const int32_t *sx, int32_t zw, const int32_t *mult,
			      const int *shift, int32_t zp, int32_t lo, int32_t hi,
			      uint32_t n, uint8_t *out);
/* The same with E1NPU_ROUNDING_RUY. */
void e1q_requant_bytes_ruy(const int32_t *acc, const int32_t *mult, const int *shift,
			      int32_t zp, int32_t lo, int32_t hi, uint32_t n, uint8_t *out);
/* The same with E1NPU_ROUNDING_RUY_SINGLE. */
void e1q_requant_bytes_ruy_single(const int32_t *acc, const int32_t *mult, const int *shift,
				  int32_t zp, int32_t lo, int32_t hi, uint32_t n, uint8_t *out);

/* The requantization of enum e1npu_rounding @rounding (checked by the
 * callers' parameter validation), one accumulator or a row of them. */
typedef int32_t (*e1q_requant_fn)(int32_t acc, int32_t mult, int shift,
				  int32_t zp, int32_t lo, int32_t hi);
typedef void (*e1q_requant_bytes_fn)(const int32_t *acc, const int32_t *mult, const int *shift,
				     int32_t zp, int32_t lo, int32_t hi, uint32_t n, uint8_t *out);
e1q_requant_fn e1q_requant_for(uint32_t rounding);
e1q_requant_bytes_fn e1q_requant_bytes_for(uint32_t rounding);

/*
 * int32 accumulation as TFLite's kernels effectively do it: two's-complement
 * wrap-around (an extreme bias must not be undefined behaviour, and the
 * NPU path and the reference must wrap alike).
 */
static inline int32_t e1q_wrap32(int64_t v)
{
	return (int32_t)(uint32_t)(uint64_t)v;
}

static inline int32_t e1q_wrap_add(int32_t a, int32_t b)
{
	return (int32_t)((uint32_t)a + (uint32_t)b);
}

static inline int32_t e1q_clamp(int64_t v, int32_t lo, int32_t hi)
{
	return v < lo ? lo : v > hi ? hi : (int32_t)v;
}

/*
 * gemmlowp fixed-point helpers used by TFLite's quantized softmax, logistic
 * and tanh: values are Q(31-IntBits) in int32.
 */
int32_t e1q_exp_on_negative_values(int32_t a, int int_bits);
int32_t e1q_one_over_one_plus_x_for_x_in_0_1(int32_t a);
int32_t e1q_get_reciprocal(int32_t x, int x_integer_digits,
			   int *num_bits_over_unit);
int32_t e1q_saturating_rounding_mul_by_pot(int32_t x, int exponent);
int e1q_count_leading_zeros32(uint32_t x);

/*
 * TFLite PreprocessSoftmaxScaling: input_beta_multiplier/left_shift and the
 * diff_min of the quantized softmax (kScaledDiffIntegerBits = 5).
 * Returns 0, or -EINVAL when beta * input_scale * 2^26 is not above 1 (or is
 * NaN): TFLite's QuantizeMultiplierGreaterThanOne has no form for it.
 */
int e1q_softmax_prepare(double beta, double input_scale, int32_t *mult,
			int *left_shift, int32_t *diff_min);

#endif /* __E1NPU_OPS_QUANT_H__ */
