// SPDX-License-Identifier: MIT
/*
 * The input window sums of a convolution (conv_internal.h, cv_host_sums):
 * per output pixel and group, the sum of the valid taps' int8 inputs, for
 * the weight zero point's correction (conv.c, conv_finish.c). uint32
 * arithmetic: the sums wrap like the int32 accumulators, so any order of
 * addition gives the same bits.
 */
#include <stdint.h>

#include "conv_internal.h"

#define CV_INLINE static inline __attribute__((always_inline))

/*
 * d[j] = init + the sum over the @nt taps @tp (offset @c) of tp[k][c + j],
 * for @w channels (a constant once inlined): summed over every tap in
 * registers in int16 (at most 256 taps of int8: -32768..32512 whatever
 * the order), then widened (the small init cannot overflow int32).
 */
CV_INLINE void cv_sum_taps_w(int32_t *restrict d, const int8_t *const *tp, uint32_t nt,
			     uint32_t c, int32_t init, const uint32_t w)
{
	int16_t t[32] = { 0 };

	for (uint32_t k = 0; k < nt; k++) {
		const int8_t *restrict x = tp[k] + c;

		for (uint32_t j = 0; j < w; j++)
			t[j] = (int16_t)(t[j] + x[j]);
	}
	for (uint32_t j = 0; j < w; j++)
		d[j] = init + t[j];
}

/*
 * s[c] = init + the sum over the taps of tp[k][c], for @n channels: 32 at
 * a time, then 16 and 8 (depthwise layers of 8 and 16 channels are
 * common in small networks), then one by one.
 */
CV_INLINE void cv_sum_taps(int32_t *restrict s, const int8_t *const *tp, uint32_t nt,
			   uint32_t n, int32_t init)
{
	uint32_t c = 0;

	for (; c + 32 <= n; c += 32)
		cv_sum_taps_w(s + c, tp, nt, c, init, 32);
	if (c + 16 <= n) {
		cv_sum_taps_w(s + c, tp, nt, c, init, 16);
		c += 16;
	}
	if (c + 8 <= n) {
		cv_sum_taps_w(s + c, tp, nt, c, init, 8);
		c += 8;
	}
	for (; c < n; c++) {
		int32_t t = init;

		for (uint32_t k = 0; k < nt; k++)
			t += tp[k][c];
		s[c] = t;
	}
}

/* The sum of @n int8 values in uint32, wrapping like the accumulators. */
CV_INLINE uint32_t cv_sum_s8(const int8_t *restrict x, size_t n)
{
	uint32_t v = 0;

	for (size_t i = 0; i < n; i++)
		v += (uint32_t)(int32_t)x[i];
	return v;
}

/* Window sums of one pixel whose valid taps are @tp (@nt of them). */
CV_INLINE void cv_sums_px(const struct e1npu_conv *cv, int32_t *s, const int8_t *const *tp,
			  uint32_t nt, uint32_t pad_add)
{
	const uint32_t groups = cv->groups, cg = cv->cin_g;

	if (cg == 1) {
		cv_sum_taps(s, tp, nt, groups, (int32_t)pad_add);
		return;
	}
	for (uint32_t g = 0; g < groups; g++) {
		uint32_t v = pad_add;

		for (uint32_t k = 0; k < nt; k++)
			v += cv_sum_s8(tp[k] + (size_t)g * cg, cg);
		s[g] = (int32_t)v;
	}
}

/*
 * One clone for the whole layer, the sums inlined into it (no dispatch
 * per pixel); the image rows a output row reads are found once per row.
 */
CV_VEC
void cv_host_sums(const struct e1npu_conv *cv, const int8_t *x, int32_t *sx,
		  int32_t pad)
{
	const struct e1npu_conv_params *p = &cv->p;
	const uint32_t taps = p->kh * p->kw, groups = cv->groups, cg = cv->cin_g;
	const size_t rowb = (size_t)p->in_w * p->c_in;
	const int8_t *tp[256], *rows[256];

	for (uint32_t oy = 0; oy < cv->out_h; oy++) {
		uint32_t nr = 0;

		for (uint32_t ky = 0; ky < p->kh; ky++) {
			int64_t iy = (int64_t)oy * p->stride_h - cv->pt + (int64_t)ky * p->dil_h;

			if (iy >= 0 && iy < p->in_h)
				rows[nr++] = x + (size_t)iy * rowb;
		}
		for (uint32_t ox = 0; ox < cv->out_w; ox++) {
			int64_t ix0 = (int64_t)ox * p->stride_w - cv->pl;
			uint32_t nt = 0;

			if (groups == 1 && p->dil_w == 1) {
				/* every channel, undilated: a kernel row's valid taps are one run */
				int64_t klo = ix0 < 0 ? -ix0 : 0, khi = (int64_t)p->in_w - ix0;
				uint32_t v;

				if (khi > p->kw)
					khi = p->kw;
				if (khi < klo)
					khi = klo;
				nt = nr * (uint32_t)(khi - klo);
				v = (taps - nt) * cg * (uint32_t)pad;
				for (uint32_t r = 0; r < nr; r++)
					v += cv_sum_s8(rows[r] + (size_t)(ix0 + klo) * p->c_in,
						       (size_t)(khi - klo) * p->c_in);
				sx[(size_t)oy * cv->out_w + ox] = (int32_t)v;
				continue;
			}

			for (uint32_t kx = 0; kx < p->kw; kx++) {
				int64_t ix = ix0 + (int64_t)kx * p->dil_w;

				if (ix < 0 || ix >= p->in_w)
					continue;
				for (uint32_t r = 0; r < nr; r++)
					tp[nt++] = rows[r] + (size_t)ix * p->c_in;
			}
			/* uint32: wraps like the int32 accumulators do */
			cv_sums_px(cv, sx + ((size_t)oy * cv->out_w + ox) * groups, tp, nt,
				   (taps - nt) * cg * (uint32_t)pad);
		}
	}
}
