// SPDX-License-Identifier: MIT
/*
 * TFLite 2.2's quantized MEAN forms (tflite_mean.h). The float steps are
 * done in float, as TFLite does them: C11 mode keeps GCC from contracting
 * them into FMAs.
 */
#include <errno.h>

#include "quant.h"
#include "tflite_mean.h"

int tfl_mean_prepare(struct tfl_mean *m, bool tfl214, bool uint8, bool keep_dims,
		     uint32_t h, uint32_t w, uint32_t c,
		     struct e1npu_qparams qi, struct e1npu_qparams qo)
{
	float n = (float)(h * w);

	m->uint8 = uint8;
	m->h = h;
	m->w = w;
	m->c = c;
	m->in_zp = qi.zero_point;
	m->out_zp = qo.zero_point;
	m->lo = uint8 ? 0 : -128;
	m->hi = uint8 ? 255 : 127;
	/* 2.14's optimized int8 Mean is the uint8 one (below) on int8 */
	if (keep_dims && !uint8 && !tfl214) {
		m->form = TFL_MEAN_INT8_4D;
		return e1q_quantize_multiplier((double)qi.scale / (double)qo.scale,
					       &m->mult, &m->shift);
	}
	if (keep_dims) {
		/*
		 * the output zero point less in_zp * in / out, truncated (2.2's
		 * legacy uint8 Mean); 2.14's optimized Means round it half away
		 * from zero (+-0.5 in float, then truncated)
		 */
		float zs = (float)qi.zero_point * qi.scale / qo.scale;

		if (tfl214)
			zs = zs > 0 ? zs + 0.5f : zs - 0.5f;
		m->form = TFL_MEAN_UINT8_4D;
		if (!(zs > -2147483648.0f && zs < 2147483648.0f))
			return -EINVAL;
		m->bias = qo.zero_point - (int32_t)zs;
		return e1q_quantize_multiplier((double)(qi.scale / (n * qo.scale)),
					       &m->mult, &m->shift);
	}
	if (tfl214) {
		/*
		 * reduce.cc PrepareMeanOrSum: in / out as a multiplier; then
		 * QuantizedMeanOrSum folds 1/n into it: shifted left by
		 * floor(log2 n) (at most 32 and 31 + shift), divided by n
		 * (truncating), the shift lowered by as much.
		 */
		int64_t cnt = (int64_t)h * w;
		int ret = e1q_quantize_multiplier((double)qi.scale / (double)qo.scale,
						  &m->mult, &m->shift);
		int s = 0;

		if (ret)
			return ret;
		while (s < 62 && ((int64_t)1 << (s + 1)) <= cnt)
			s++;
		s = s < 32 ? s : 32;
		s = s < 31 + m->shift ? s : 31 + m->shift;
		s = s > 0 ? s : 0;
		m->form = TFL_MEAN_INT_2_14;
		m->mult = (int32_t)(((int64_t)m->mult << s) / cnt);
		m->shift -= s;
		return 0;
	}
	if (qi.zero_point == qo.zero_point && qi.scale == qo.scale) {
		m->form = TFL_MEAN_SAME_QUANT;
		return 0;
	}
	m->form = TFL_MEAN_FLOAT;
	m->scale = qi.scale / qo.scale;
	m->fbias = (float)-qi.zero_point * m->scale + 0.5f;
	return 0;
}

static int32_t ld(const struct tfl_mean *m, const void *p, size_t i)
{
	return m->uint8 ? ((const uint8_t *)p)[i] : ((const int8_t *)p)[i];
}

static void st(const struct tfl_mean *m, void *p, size_t i, int32_t v)
{
	if (m->uint8)
		((uint8_t *)p)[i] = (uint8_t)v;
	else
		((int8_t *)p)[i] = (int8_t)v;
}

static int32_t mean_of(const struct tfl_mean *m, int32_t sum, int32_t zsum)
{
	int32_t n = (int32_t)(m->h * m->w), acc;
	float r;

	switch (m->form) {
	case TFL_MEAN_INT8_4D:
		/* the zero point taken off each value, then round(acc / n) */
		acc = e1q_mul_by_qm(zsum, m->mult, m->shift);
		acc = acc > 0 ? (acc + n / 2) / n : (acc - n / 2) / n;
		return e1q_clamp(acc + m->out_zp, m->lo, m->hi);
	case TFL_MEAN_UINT8_4D:
		acc = e1q_mul_by_qm(sum, m->mult, m->shift) + m->bias;
		return e1q_clamp(acc, m->lo, m->hi);
	case TFL_MEAN_SAME_QUANT:
		return sum / n;		/* C and C++ both truncate */
	case TFL_MEAN_INT_2_14:
		/* sum - zp * n in int64, kept as int32 (TFLite's U) */
		acc = e1q_wrap32((int64_t)sum - (int64_t)m->in_zp * n);
		return e1q_clamp(e1q_mul_by_qm(acc, m->mult, m->shift) + m->out_zp, m->lo, m->hi);
	case TFL_MEAN_FLOAT:
	default:
		r = (float)sum / (float)n * m->scale + m->fbias;
		r = (float)e1q_round((double)r) + (float)m->out_zp;
		r = r < (float)m->hi ? r : (float)m->hi;
		r = r > (float)m->lo ? r : (float)m->lo;
		return (int32_t)r;
	}
}

void tfl_mean_run(const struct tfl_mean *m, const void *in, void *out)
{
	for (uint32_t c = 0; c < m->c; c++) {
		int32_t sum = 0, zsum = 0;

		for (uint32_t p = 0; p < m->h * m->w; p++) {
			int32_t v = ld(m, in, (size_t)p * m->c + c);

			sum += v;
			zsum += v - m->in_zp;
		}
		st(m, out, c, mean_of(m, sum, zsum));
	}
}
