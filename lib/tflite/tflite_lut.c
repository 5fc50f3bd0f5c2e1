// SPDX-License-Identifier: MIT
/* 8-bit table operators (tflite_lut.h): LOGISTIC, TANH, the lookup. */
#include <errno.h>
#include <math.h>

#include "tflite_lut.h"

/* The float steps of TFLite 2.2's PopulateLookupTable, one at a time. */
static uint8_t entry(float (*f)(float), int32_t v, bool uint8, struct e1npu_qparams qi,
		     struct e1npu_qparams qo)
{
	/* every operation in single precision, each result rounded to float */
	float inv = 1.0f / qo.scale;
	float x = qi.scale * (float)(v - qi.zero_point);
	float y = f(x);
	float r = roundf(y * inv);
	float s = r + (float)qo.zero_point;
	int32_t lo = uint8 ? 0 : -128, hi = uint8 ? 255 : 127, q;

	/* TFLite casts to int32 first; out of range (or NaN) it clamps here */
	if (!(s > (float)lo))
		q = lo;
	else if (!(s < (float)hi))
		q = hi;
	else
		q = (int32_t)s;
	return (uint8_t)q;	/* int8 stored as its two's complement byte */
}

static float logistic(float x)
{
	return 1.0f / (1.0f + expf(-x));
}

static float tanh_f(float x)
{
	return tanhf(x);
}

static void fill(struct tfl_lut *l, float (*f)(float), bool uint8, size_t count,
		 struct e1npu_qparams qi, struct e1npu_qparams qo)
{
	l->count = count;
	for (int32_t v = uint8 ? 0 : -128; v <= (uint8 ? 255 : 127); v++)
		l->table[(uint8_t)v] = entry(f, v, uint8, qi, qo);
}

int tfl_lut_logistic(struct tfl_lut *l, bool uint8, size_t count,
		     struct e1npu_qparams qi, struct e1npu_qparams qo)
{
	if (qo.scale != 1.0f / 256)
		return -EINVAL;
	fill(l, logistic, uint8, count, qi, qo);
	return 0;
}

void tfl_lut_tanh(struct tfl_lut *l, bool uint8, size_t count,
		  struct e1npu_qparams qi, struct e1npu_qparams qo)
{
	fill(l, tanh_f, uint8, count, qi, qo);
}

void tfl_lut_run(const struct tfl_lut *l, const void *in, void *out)
{
	const uint8_t *src = in;
	uint8_t *dst = out;

	for (size_t i = 0; i < l->count; i++)
		dst[i] = l->table[src[i]];
}
