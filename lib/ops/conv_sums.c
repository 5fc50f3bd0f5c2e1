// SPDX-License-Identifier: MIT
/*
 * The input window sums of a convolution (conv_internal.h, cv_host_sums):
 * per output pixel and group, the sum of the valid taps' int8 inputs, for
 * the weight zero point's correction (conv.c, conv_finish.c). uint32
 * arithmetic: the sums wrap like the int32 accumulators, so any order of
 * addition gives the same bits.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "conv_internal.h"
#include "quant.h"

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

#define CV_DW_KH_MAX	8	/* kernel rows the separable path caches */

/*
 * Input row @xr's horizontal sums of @kw taps at every window position
 * (over the row padded with @pad: @pl pixels on the left, as
 * many as needed on the right) into @h, through the padded copy @prow:
 * flat int16 adds over pixels and channels together, whatever @c.
 */
CV_INLINE void cv_dw_hsums(const int8_t *restrict xr, size_t in_w, size_t c, size_t pl,
			       size_t npos, size_t kw, int16_t pad, int16_t *restrict prow,
			       int16_t *restrict h)
{
	const size_t plen = (npos + kw - 1) * c, hlen = npos * c;
	size_t left = pl * c < plen ? pl * c : plen, mid = in_w * c;

	if (mid > plen - left)
		mid = plen - left;
	for (size_t i = 0; i < left; i++)
		prow[i] = pad;
	for (size_t i = 0; i < mid; i++)
		prow[left + i] = xr[i];
	for (size_t i = left + mid; i < plen; i++)
		prow[i] = pad;
	for (size_t i = 0; i < hlen; i++)
		h[i] = prow[i];
	for (size_t kx = 1; kx < kw; kx++)
		for (size_t i = 0; i < hlen; i++)
			h[i] = (int16_t)(h[i] + prow[i + kx * c]);
}

/*
 * The kernel rows of output row @oy in a cache of kh slots whose rows are
 * @tag (-1: empty): for each kernel row in the image, in order, the slot
 * holding it into @slot and whether that slot must be computed now into
 * @fill (a slot no kernel row of @oy uses is taken; @tag is updated);
 * @n gets their count. Returns the number of kernel rows outside.
 */
static size_t cv_row_slots(const struct e1npu_conv *cv, uint32_t oy, int64_t *tag,
			   size_t *slot, int64_t *row, bool *fill, size_t *n)
{
	const size_t kh = cv->p.kh;
	bool keep[CV_DW_KH_MAX] = { false };
	int64_t need[CV_DW_KH_MAX];
	size_t nout = 0;

	for (size_t ky = 0; ky < kh; ky++) {
		int64_t iy = (int64_t)oy * cv->p.stride_h - cv->pt + (int64_t)ky;

		need[ky] = iy >= 0 && iy < cv->p.in_h ? iy : -1;
		nout += need[ky] < 0;
		for (size_t s = 0; s < kh; s++)
			if (need[ky] >= 0 && tag[s] == need[ky])
				keep[s] = true;
	}
	*n = 0;
	for (size_t ky = 0; ky < kh; ky++) {
		size_t s;

		if (need[ky] < 0)
			continue;
		for (s = 0; s < kh && tag[s] != need[ky]; s++)
			;
		fill[*n] = s == kh;
		if (s == kh) {
			for (s = 0; keep[s]; s++)
				;
			tag[s] = need[ky];
			keep[s] = true;
		}
		slot[*n] = s;
		row[(*n)++] = need[ky];
	}
	return nout;
}

/*
 * Depthwise window sums (one input channel per group, undilated), made
 * separable: each input row's horizontal sums (cv_dw_hsums) at every
 * position across (stride 1), kept in a cache of kernel-height slots so
 * that with stride 1 down each row is summed once; then per output row
 * the sum of its kernel rows' sums at the output positions (one flat pass
 * with stride 1 across), and kw * @pad for each kernel row outside the
 * image. At most 256 taps of |value| <= 128: int16 is exact, the same
 * bits as the per-tap path. False (and nothing written) without memory
 * for the row cache.
 */
CV_VEC
static bool cv_host_sums_dw(const struct e1npu_conv *cv, const int8_t *x, int32_t *sx,
			    int32_t pad)
{
	const struct e1npu_conv_params *p = &cv->p;
	const size_t c = p->c_in, kh = p->kh, kw = p->kw, ow = cv->out_w, sw = p->stride_w;
	const size_t npos = (ow - 1) * sw + 1, hlen = npos * c, plen = (npos + kw - 1) * c;
	int16_t *prow = malloc((plen + kh * hlen) * sizeof(*prow)), *h = prow + plen;
	int64_t tag[CV_DW_KH_MAX];

	if (!prow)
		return false;
	for (size_t s = 0; s < kh; s++)
		tag[s] = -1;
	for (uint32_t oy = 0; oy < cv->out_h; oy++) {
		const int16_t *hr[CV_DW_KH_MAX];
		size_t slot[CV_DW_KH_MAX], n, nout;
		int64_t row[CV_DW_KH_MAX];
		bool fill[CV_DW_KH_MAX];
		int32_t *o = sx + (size_t)oy * ow * c;
		int32_t base;

		nout = cv_row_slots(cv, oy, tag, slot, row, fill, &n);
		for (size_t r = 0; r < n; r++) {
			if (fill[r])
				cv_dw_hsums(x + (size_t)row[r] * p->in_w * c, p->in_w, c, cv->pl,
					    npos, kw, (int16_t)pad, prow, h + slot[r] * hlen);
			hr[r] = h + slot[r] * hlen;
		}
		base = (int32_t)(nout * kw) * pad;
		if (sw == 1) {
			/* output pixels are consecutive positions: one flat pass per row */
			for (size_t i = 0; i < hlen; i++)
				o[i] = base;
			for (size_t r = 0; r < n; r++) {
				const int16_t *restrict hv = hr[r];

				for (size_t i = 0; i < hlen; i++)
					o[i] += hv[i];
			}
			continue;
		}
		for (size_t ox = 0; ox < ow; ox++) {
			int32_t *restrict d = o + ox * c;
			const size_t i0 = ox * sw * c;

			for (size_t j = 0; j < c; j++)
				d[j] = base;
			for (size_t r = 0; r < n; r++)
				for (size_t j = 0; j < c; j++)
					d[j] += hr[r][i0 + j];
		}
	}
	free(prow);
	return true;
}

/*
 * Window sums of a one-group convolution (every input channel in every
 * window), undilated, made separable as cv_host_sums_dw is: each pixel's
 * channel sum once (a plane), then per input row the horizontal sums of
 * the plane at every position across, cached by row, then per output row
 * the sum of its kernel rows' sums, each out-of-image tap counting c_in *
 * @pad. uint32, wrapping like the accumulators (the same bits as the
 * per-tap path). False (nothing written) without memory.
 */
CV_VEC
static bool cv_host_sums_g1(const struct e1npu_conv *cv, const int8_t *x, int32_t *sx,
			    int32_t pad)
{
	const struct e1npu_conv_params *p = &cv->p;
	const size_t c = p->c_in, kh = p->kh, kw = p->kw, ow = cv->out_w, sw = p->stride_w;
	const size_t npos = (ow - 1) * sw + 1, plen = npos + kw - 1, hw = (size_t)p->in_w;
	const uint32_t padv = (uint32_t)c * (uint32_t)pad;
	uint32_t *plane = malloc(((size_t)p->in_h * hw + plen + kh * npos + hw * c) *
				 sizeof(*plane));
	uint32_t *prow, *h, *fs;
	int64_t tag[CV_DW_KH_MAX];

	if (!plane)
		return false;
	prow = plane + (size_t)p->in_h * hw;
	h = prow + plen;
	fs = h + kh * npos;
	if (c >= 16) {
		for (size_t i = 0; i < (size_t)p->in_h * hw; i++) {
			uint32_t v = 0;

			for (size_t j = 0; j < c; j++)
				v += (uint32_t)(int32_t)x[i * c + j];
			plane[i] = v;
		}
	} else {
		/*
		 * Few channels: the sums of c consecutive bytes along the
		 * whole row (flat vector adds), then every c-th of them.
		 */
		const size_t rb = hw * c, nf = rb - c + 1;

		for (uint32_t y = 0; y < p->in_h; y++) {
			const int8_t *xr = x + (size_t)y * rb;

			for (size_t i = 0; i < nf; i++)
				fs[i] = (uint32_t)(int32_t)xr[i];
			for (size_t j = 1; j < c; j++)
				for (size_t i = 0; i < nf; i++)
					fs[i] += (uint32_t)(int32_t)xr[i + j];
			for (size_t q = 0; q < hw; q++)
				plane[(size_t)y * hw + q] = fs[q * c];
		}
	}
	for (size_t s = 0; s < kh; s++)
		tag[s] = -1;
	for (uint32_t oy = 0; oy < cv->out_h; oy++) {
		const uint32_t *hr[CV_DW_KH_MAX];
		size_t slot[CV_DW_KH_MAX], n, nout;
		int64_t row[CV_DW_KH_MAX];
		bool fill[CV_DW_KH_MAX];
		uint32_t base;

		nout = cv_row_slots(cv, oy, tag, slot, row, fill, &n);
		for (size_t r = 0; r < n; r++) {
			uint32_t *hs = h + slot[r] * npos;

			hr[r] = hs;
			if (!fill[r])
				continue;
			/* the plane's row padded: position q is pixel q - pl */
			for (size_t q = 0; q < plen; q++) {
				int64_t ix = (int64_t)q - cv->pl;

				prow[q] = ix >= 0 && ix < p->in_w ? plane[row[r] * hw + ix] : padv;
			}
			for (size_t i = 0; i < npos; i++)
				hs[i] = prow[i];
			for (size_t kx = 1; kx < kw; kx++)
				for (size_t i = 0; i < npos; i++)
					hs[i] += prow[i + kx];
		}
		base = (uint32_t)(nout * kw) * padv;
		for (size_t ox = 0; ox < ow; ox++) {
			uint32_t v = base;

			for (size_t r = 0; r < n; r++)
				v += hr[r][ox * sw];
			sx[(size_t)oy * ow + ox] = (int32_t)v;
		}
	}
	free(plane);
	return true;
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>

#define CV_AVX512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq")))

/*
 * sx[i] = the sum of the @c int8 at x + i * c, for @n pixels, when @c is
 * 8, 16, 32 or a multiple of 64 (false otherwise, nothing written):
 * vpsadbw of the biased bytes (x ^ 0x80 = x + 128) sums each 8-byte group,
 * the groups of a pixel are added in the register, and 128 * c is taken
 * off. Up to 64 bytes per pixel, several pixels share a vector; a tail
 * load is masked by whole pixels and only its pixels are stored.
 */
CV_AVX512
static bool cv_sums_rows_avx512(const int8_t *x, size_t c, size_t n, int32_t *sx)
{
	const __m512i bias = _mm512_set1_epi8((char)0x80), zero = _mm512_setzero_si512();

	if (c && c % 64 == 0) {
		for (size_t i = 0; i < n; i++) {
			__m512i acc = zero;

			for (size_t k = 0; k < c; k += 64)
				acc = _mm512_add_epi64(acc, _mm512_sad_epu8(_mm512_xor_si512(
					_mm512_loadu_si512(x + i * c + k), bias), zero));
			sx[i] = (int32_t)(_mm512_reduce_add_epi64(acc) - 128 * (int64_t)c);
		}
		return true;
	}
	if (c != 8 && c != 16 && c != 32)
		return false;
	const size_t ppv = 64 / c;	/* pixels per vector */
	const __m256i off = _mm256_set1_epi32(128 * (int32_t)c);
	/* qwords holding a pixel's sum after the in-register adds */
	const __mmask8 pick = c == 8 ? 0xff : c == 16 ? 0x55 : 0x11;

	for (size_t i = 0; i < n; i += ppv) {
		size_t np = n - i < ppv ? n - i : ppv;
		__mmask64 m = np * c == 64 ? ~(__mmask64)0 : ((__mmask64)1 << (np * c)) - 1;
		__m512i g = _mm512_sad_epu8(_mm512_xor_si512(_mm512_maskz_loadu_epi8(m, x + i * c),
							     bias), zero);

		if (c >= 16)	/* neighbouring qwords */
			g = _mm512_add_epi64(g, _mm512_shuffle_epi32(g, (_MM_PERM_ENUM)0x4e));
		if (c == 32)	/* neighbouring 128-bit lanes */
			g = _mm512_add_epi64(g, _mm512_shuffle_i64x2(g, g, 0xb1));
		_mm256_mask_storeu_epi32(sx + i, (__mmask8)((1u << np) - 1),
					 _mm256_sub_epi32(_mm512_cvtepi64_epi32(
						 _mm512_maskz_compress_epi64(pick, g)), off));
	}
	return true;
}
#endif

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

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
	/* 1x1, stride 1, no padding: output pixel i sums input pixel i's channels */
	if (groups == 1 && p->kh == 1 && p->kw == 1 && p->stride_h == 1 && p->stride_w == 1 &&
	    !cv->pt && !cv->pl && cv->out_h == p->in_h && cv->out_w == p->in_w &&
	    e1q_have_avx512() &&
	    cv_sums_rows_avx512(x, p->c_in, (size_t)cv->out_h * cv->out_w, sx))
		return;
#endif
	if (groups == 1 && p->dil_h == 1 && p->dil_w == 1 && taps > 1 &&
	    p->kh <= CV_DW_KH_MAX && cv_host_sums_g1(cv, x, sx, pad))
		return;
	/* strided across, the per-output pass runs over the channels: worth it from 16 */
	if (cg == 1 && groups == p->c_in && p->dil_h == 1 && p->dil_w == 1 &&
	    (p->stride_w == 1 || p->c_in >= 16) && taps <= 256 &&
	    p->kh <= CV_DW_KH_MAX && p->kh > 1 && cv_host_sums_dw(cv, x, sx, pad))
		return;

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
