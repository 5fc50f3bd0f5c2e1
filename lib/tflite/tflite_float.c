// SPDX-License-Identifier: MIT
/* DEQUANTIZE, QUANTIZE from float32, float ABS (tflite_float.h). */
#include <math.h>
#include <string.h>

#include "tflite_float.h"

void tfl_dequantize_run(const struct tfl_float *f, const void *in, float *out)
{
	double s = (double)f->q.scale;

	for (size_t i = 0; i < f->count; i++) {
		int32_t v = f->uint8 ? ((const uint8_t *)in)[i] : ((const int8_t *)in)[i];
		/* the double product, rounded once to float */
		float r = (float)(s * (double)(v - f->q.zero_point));

		memcpy(&out[i], &r, sizeof(r));
	}
}

void tfl_quantize_float_run(const struct tfl_float *f, const float *in, void *out)
{
	double s = (double)f->q.scale;
	int32_t lo = f->uint8 ? 0 : -128, hi = f->uint8 ? 255 : 127;

	for (size_t i = 0; i < f->count; i++) {
		float x;
		double r;
		int64_t q;

		memcpy(&x, &in[i], sizeof(x));
		r = round((double)x / s);	/* float over double: a double quotient */
		if (isnan(r))
			q = f->q.zero_point;
		else if (r > 2147483647.0 || r < -2147483648.0)
			q = r > 0 ? hi : lo;
		else
			q = (int64_t)r + f->q.zero_point;
		q = q < lo ? lo : q > hi ? hi : q;
		if (f->uint8)
			((uint8_t *)out)[i] = (uint8_t)q;
		else
			((int8_t *)out)[i] = (int8_t)q;
	}
}

void tfl_abs_float_run(size_t count, const float *in, float *out)
{
	for (size_t i = 0; i < count; i++) {
		float x;

		memcpy(&x, &in[i], sizeof(x));
		x = fabsf(x);	/* clears the sign bit, NaN too (std::abs) */
		memcpy(&out[i], &x, sizeof(x));
	}
}
