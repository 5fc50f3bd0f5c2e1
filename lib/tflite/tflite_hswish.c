// SPDX-License-Identifier: MIT
/* TFLite 2.2's quantized HARD_SWISH (tflite_hswish.h), in 16-bit fixed point. */
#include <errno.h>

#include "quant.h"
#include "tflite_hswish.h"

/* DownScaleInt32ToInt16Multiplier: round to the high 16 bits, saturating. */
static int16_t down16(int32_t m)
{
	if (m >= INT32_MAX - (1 << 15))
		return INT16_MAX;
	return (int16_t)((m + (1 << 15)) >> 16);
}

/* gemmlowp's SaturatingRoundingDoublingHighMul on int16. */
static int16_t srdhm16(int16_t a, int16_t b)
{
	int32_t ab = (int32_t)a * b;
	int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));

	if (a == INT16_MIN && b == INT16_MIN)
		return INT16_MAX;
	return (int16_t)((ab + nudge) / (1 << 15));
}

/* TFLite's SaturatingDoublingHighMul: the same, without the rounding nudge. */
static int16_t sdhm16(int16_t a, int16_t b)
{
	if (a == INT16_MIN && b == INT16_MIN)
		return INT16_MAX;
	return (int16_t)(((int32_t)a * b) / (1 << 15));
}

static int16_t sat_shl16(int16_t v, int n)
{
	int32_t r = (int32_t)v * (1 << n);

	return (int16_t)(r > INT16_MAX ? INT16_MAX : r < INT16_MIN ? INT16_MIN : r);
}

/* gemmlowp's RoundingDivideByPOT on int16: ties away from zero. */
static int16_t rdivpot16(int16_t x, int e)
{
	int32_t mask = (1 << e) - 1, rem = x & mask, thr = (mask >> 1) + (x < 0);

	return (int16_t)((x >> e) + (rem > thr));
}

int tfl_hswish_prepare(struct tfl_hswish *h, bool uint8, size_t count,
		       struct e1npu_qparams qi, struct e1npu_qparams qo)
{
	/* HardSwishPrepare: float scales, each multiplier a float quotient */
	const float hires = (1.0f / 128.0f) * qi.scale;
	const float reluish = 3.0f / 32768.0f;
	float out_m = hires / qo.scale, relu_m = hires / reluish;
	int32_t m32;

	if (!(qo.scale > 0) || !(qi.scale > 0))
		return -EINVAL;
	if (e1q_quantize_multiplier((double)out_m, &m32, &h->out_exp) || h->out_exp > 0)
		return -EINVAL;
	h->out_mult = down16(m32);
	if (e1q_quantize_multiplier((double)relu_m, &m32, &h->relu_exp))
		return -EINVAL;
	h->relu_mult = down16(m32);
	h->uint8 = uint8;
	h->count = count;
	h->in_zp = qi.zero_point;
	h->out_zp = qo.zero_point;
	return 0;
}

static int32_t one(const struct tfl_hswish *h, int32_t x)
{
	/* |x - zp| <= 255: x 128 fits int16 */
	int16_t hires = (int16_t)((x - h->in_zp) * 128);
	int16_t pre_out = srdhm16(hires, h->out_mult);
	int16_t relu = hires;
	int16_t v;

	if (h->relu_exp > 0)
		relu = sat_shl16(relu, h->relu_exp - 1);
	relu = srdhm16(relu, h->relu_mult);
	if (h->relu_exp > 0)
		relu = sat_shl16(relu, 1);
	if (h->relu_exp < 0)
		relu = rdivpot16(relu, -h->relu_exp);
	/* [-1, 1] -> [0, 1] */
	relu = (int16_t)((relu + (1 << 15)) >> 1);
	v = rdivpot16(sdhm16(relu, pre_out), -h->out_exp);
	/* TFLite adds the zero point in int16 (GCC wraps, as its build did) */
	v = (int16_t)(v + h->out_zp);
	return v;
}

void tfl_hswish_run(const struct tfl_hswish *h, const void *in, void *out)
{
	int32_t lo = h->uint8 ? 0 : -128, hi = h->uint8 ? 255 : 127;

	for (size_t i = 0; i < h->count; i++) {
		int32_t x = h->uint8 ? ((const uint8_t *)in)[i] : ((const int8_t *)in)[i];
		int32_t v = one(h, x);

		v = v < lo ? lo : v > hi ? hi : v;
		if (h->uint8)
			((uint8_t *)out)[i] = (uint8_t)v;
		else
			((int8_t *)out)[i] = (int8_t)v;
	}
}
