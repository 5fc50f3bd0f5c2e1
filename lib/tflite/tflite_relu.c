// SPDX-License-Identifier: MIT
/* TFLite 2.2's quantized RELU family (tflite_relu.h). */
#include <errno.h>

#include "quant.h"
#include "tflite_reader.h"
#include "tflite_relu.h"

/* zero_point + (int32)roundf(x / scale), the division in float */
static int32_t q_of(float x, struct e1npu_qparams qo)
{
	/* saturated: a tiny scale must not overflow the cast (or the sum) */
	int64_t q = (int64_t)qo.zero_point + e1q_sat_i32(e1q_round((double)(x / qo.scale)));

	return (int32_t)(q < INT32_MIN ? INT32_MIN : q > INT32_MAX ? INT32_MAX : q);
}

int tfl_relu_prepare(struct tfl_relu *r, int32_t code, bool uint8, size_t count,
		     struct e1npu_qparams qi, struct e1npu_qparams qo)
{
	int32_t qmin = uint8 ? 0 : -128, qmax = uint8 ? 255 : 127;
	float lo = code == TFL_OP_RELU_N1_TO_1 ? -1.0f : 0.0f;
	float hi = code == TFL_OP_RELU6 ? 6.0f : 1.0f;

	if (!(qo.scale > 0) || !(qi.scale > 0))
		return -EINVAL;
	r->uint8 = uint8;
	r->count = count;
	r->in_zp = qi.zero_point;
	r->out_zp = qo.zero_point;
	/* 2.2's double real_multiplier = in_scale / out_scale: a float quotient */
	if (e1q_quantize_multiplier((double)(qi.scale / qo.scale), &r->mult, &r->shift))
		return -EINVAL;
	r->lo = q_of(lo, qo) > qmin ? q_of(lo, qo) : qmin;
	r->hi = qmax;
	if (code != TFL_OP_RELU && q_of(hi, qo) < qmax)
		r->hi = q_of(hi, qo);
	return 0;
}

void tfl_relu_run(const struct tfl_relu *r, const void *in, void *out)
{
	for (size_t i = 0; i < r->count; i++) {
		int32_t x = r->uint8 ? ((const uint8_t *)in)[i] : ((const int8_t *)in)[i];
		int32_t v = r->out_zp + e1q_mul_by_qm(x - r->in_zp, r->mult, r->shift);

		v = v < r->lo ? r->lo : v > r->hi ? r->hi : v;
		if (r->uint8)
			((uint8_t *)out)[i] = (uint8_t)v;
		else
			((int8_t *)out)[i] = (int8_t)v;
	}
}
