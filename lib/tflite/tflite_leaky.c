// SPDX-License-Identifier: MIT
/* TFLite 2.2's uint8 LEAKY_RELU (tflite_leaky.h) as a 256-entry table. */
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
