// SPDX-License-Identifier: MIT
/* TFLite 2.2's and 2.14's uint8 LEAKY_RELU (tflite_leaky.h) as a 256-entry table. */
#include <errno.h>
#include <math.h>

#include "quant.h"
#include "tflite_leaky.h"

int32_t tfl_leaky_q_alpha(float alpha, struct e1npu_qparams qi)
{
	/* int + float is a float sum; roundf, then clamped in float */
	float a = roundf((float)qi.zero_point + alpha / qi.scale);

	return a < 0.0f ? 0 : a > 255.0f ? 255 : (int32_t)a;
}

int tfl_leaky_prepare(struct tfl_lut *l, size_t count, float alpha,
		      struct e1npu_qparams qi, struct e1npu_qparams qo)
{
	/* input scale squared over the output scale, both in float */
	float real = qi.scale * qi.scale / qo.scale;
	int32_t qa, mult;
	int shift;

	if (!isfinite(alpha))
		return -EDOM;
	if (!(real < 1.0f) || !(real > 0.0f) ||
	    e1q_quantize_multiplier_smaller_than_one((double)real, &mult, &shift))
		return -ERANGE;
	qa = tfl_leaky_q_alpha(alpha, qi) - qi.zero_point;
	l->count = count;
	for (int32_t v = 0; v < 256; v++) {
		int32_t x = v - qi.zero_point, q;

		if (x >= 0) {
			l->table[v] = (uint8_t)v;	/* copied, whatever the scales */
			continue;
		}
		q = qo.zero_point + e1q_mul_by_qm_smaller_than_one(x * qa, mult, shift);
		l->table[v] = (uint8_t)e1q_clamp(q, 0, 255);
	}
	return 0;
}

int tfl_leaky_prepare_2_14(struct tfl_lut *l, size_t count, float alpha,
			   struct e1npu_qparams qi, struct e1npu_qparams qo)
{
	/* float products and quotients, widened (activations.cc LeakyReluPrepare) */
	float ra = qi.scale * alpha / qo.scale, ri = qi.scale / qo.scale;
	int32_t ma, mi;
	int sa, si;

	if (!isfinite(alpha))
		return -EDOM;
	/* a negative alpha gives a negative multiplier, which we do not form */
	if (!(alpha >= 0.0f) || e1q_quantize_multiplier((double)ra, &ma, &sa) ||
	    e1q_quantize_multiplier((double)ri, &mi, &si))
		return -ERANGE;
	l->count = count;
	for (int32_t v = 0; v < 256; v++) {
		int32_t x = v - qi.zero_point;
		int32_t q = qo.zero_point + (x >= 0 ? e1q_mul_by_qm(x, mi, si) :
					     e1q_mul_by_qm(x, ma, sa));

		l->table[v] = (uint8_t)e1q_clamp(q, 0, 255);
	}
	return 0;
}
