// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * e1 NPU device model: block-diagonal CONV2D (the lowering's depthwise
 * packing, e1_v0.c exec_conv_diag) with AVX-512 VNNI, for undilated
 * kernels whose column count is a multiple of 16. The portable path in
 * e1_v0.c stays the reference it is tested against.
 *
 * vpdpbusd sums four u8 x s8 products into each int32 lane, so four
 * horizontal taps of a kernel row go in one instruction. Each input row
 * the kernel needs is expanded once into E4[x][column][t] = the input at
 * pixel x + t of the column's channel, biased (a ^ 0x80 = a + 128 as u8),
 * with 0x80 (a zero input) outside the image; the weights are packed
 * W4[kernel row][group of 4 taps][column][t], zero past the kernel. Then
 * an output pixel is, per kernel row in the image, ceil(k / 4) vpdpbusd
 * of 16 columns, and 128 times the sum of those rows' weights is taken
 * off: sum((a + 128) * w) - 128 * sum(w) = sum(a * w), exact in int32.
 */
#include "e1_diag_vnni.h"
#include "e1_vnni.h"

#ifdef E1_MM_X86
#define DV_TARGET E1_VNNI_TARGET

static u32 dv_groups(u32 ksz)
{
	return (ksz + 3) / 4;
}

bool e1_diag4_plan(const struct v0_op *d, struct e1_mm_ws *ws)
{
	u32 ns = ws->diag.ns, g = dv_groups(d->ksz), ky, gi, j, t;
	u64 nx = (u64)(d->out_w - 1) * d->sw + 4 * g;

	ws->diag.v4 = false;
	if (d->dil != 1 || ns % 16 || !e1_mm_have_vnni() ||
	    (u64)d->ksz * nx * ns * 4 + (nx + 3) * ns > sizeof(ws->diag.e))
		return false;
	for (ky = 0; ky < d->ksz; ky++)
		for (gi = 0; gi < g; gi++)
			for (j = 0; j < ns; j++)
				for (t = 0; t < 4; t++) {
					u32 kx = 4 * gi + t;

					ws->diag.w4[((ky * 2 + gi) * ns + j) * 4 + t] =
						kx < d->ksz ?
						(s8)ws->diag.w[(ky * d->ksz + kx) * ns + j] : 0;
				}
	for (j = 0; j < 16; j++)
		ws->diag.src16[j] = (u8)ws->diag.src[j];
	ws->diag.nx = (u32)nx;
	ws->diag.v4 = true;
	return true;
}

/* @len (<= 512) bytes of @p biased into @o, 64 at a time. */
DV_TARGET
static inline void dv_bias_copy(u8 *o, const s8 *p, size_t len)
{
	const __m512i bias = _mm512_set1_epi8((char)0x80);
	size_t j;

	for (j = 0; j < len; j += 64) {
		size_t n = len - j < 64 ? len - j : 64;
		__mmask64 m = n == 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1;

		_mm512_mask_storeu_epi8(o + j, m,
					_mm512_xor_si512(_mm512_maskz_loadu_epi8(m, p + j), bias));
	}
}

/* Pixel @x's 16 channels from @p (its row, c apart) biased, or 0x80 outside the image. */
DV_TARGET
static inline __m128i dv_px16(const struct v0_op *d, const s8 *p, s64 x)
{
	const __m128i bias = _mm_set1_epi8((char)0x80);

	if (x < 0 || x >= d->in_w)
		return bias;
	return _mm_xor_si128(_mm_loadu_si128((const __m128i *)(p + (size_t)x * d->c_in)), bias);
}

/*
 * E4 (@nx positions) of one run of 16 channels (the common depthwise
 * block) straight from the row @p: per position, four pixels' 16 channels
 * interleaved, each pixel loaded once.
 */
DV_TARGET
static void dv_expand16(const struct v0_op *d, const s8 *p, size_t nx, u8 *e4)
{
	__m128i r0, r1, r2, r3;
	size_t xi;

	r0 = dv_px16(d, p, -(s64)d->pw);
	r1 = dv_px16(d, p, 1 - (s64)d->pw);
	r2 = dv_px16(d, p, 2 - (s64)d->pw);
	for (xi = 0; xi < nx; xi++, e4 += 64) {
		__m128i t0, t1, t2, t3;

		r3 = dv_px16(d, p, (s64)xi + 3 - d->pw);
		t0 = _mm_unpacklo_epi8(r0, r1);
		t1 = _mm_unpackhi_epi8(r0, r1);
		t2 = _mm_unpacklo_epi8(r2, r3);
		t3 = _mm_unpackhi_epi8(r2, r3);
		_mm_storeu_si128((__m128i *)e4, _mm_unpacklo_epi16(t0, t2));
		_mm_storeu_si128((__m128i *)(e4 + 16), _mm_unpackhi_epi16(t0, t2));
		_mm_storeu_si128((__m128i *)(e4 + 32), _mm_unpacklo_epi16(t1, t3));
		_mm_storeu_si128((__m128i *)(e4 + 48), _mm_unpackhi_epi16(t1, t3));
		r0 = r1;
		r1 = r2;
		r2 = r3;
	}
}

/*
 * Input row @row expanded into cache slot @slot as E4 (see above): first
 * the biased per-column row e1[x][column] for x from -pw, then its four
 * consecutive pixels interleaved per column, 16 columns at a time. The
 * per-column row is gathered run by run (contiguous channels), or for
 * columns on scattered channels below 16, by one byte shuffle per pixel.
 */
DV_TARGET
void e1_diag4_expand(const struct v0_op *d, const s8 *row, struct e1_mm_ws *ws,
		     u32 nrun, u32 slot)
{
	const u16 *run = ws->diag.run, *src = ws->diag.src;
	size_t ns = ws->diag.ns, nx = ws->diag.nx, c = d->c_in, xi, j, r;
	u8 *e4 = (u8 *)ws->diag.e + slot * nx * ns * 4;
	u8 *e1 = (u8 *)ws->diag.e + d->ksz * nx * ns * 4;
	bool shuf = nrun > 4 && ns == 16;
	__m128i idx = _mm_setzero_si128();
	__mmask16 cm = (__mmask16)(c >= 16 ? 0xffff : (1u << c) - 1);

	if (nrun == 1 && run[1] == 16 && ns == 16) {
		dv_expand16(d, row + run[2], nx, e4);
		return;
	}
	for (j = 0; shuf && j < 16; j++)
		shuf = src[j] < 16;
	if (shuf)
		idx = _mm_loadu_si128((const __m128i *)ws->diag.src16);
	for (xi = 0; xi < nx + 3; xi++) {
		s64 x = (s64)xi - d->pw;
		u8 *o = e1 + xi * ns;
		const s8 *p;

		if (x < 0 || x >= d->in_w) {
			memset(o, 0x80, ns);
			continue;
		}
		p = row + (size_t)x * c;
		if (shuf) {
			__m128i v = _mm_maskz_loadu_epi8(cm, p);

			_mm_storeu_si128((__m128i *)o,
					 _mm_xor_si128(_mm_shuffle_epi8(v, idx),
						       _mm_set1_epi8((char)0x80)));
		} else if (nrun <= 4) {
			for (r = 0; r < nrun; r++)
				dv_bias_copy(o + run[3 * r], p + run[3 * r + 2], run[3 * r + 1]);
			if (d->c_out < ns)
				memset(o + d->c_out, 0x80, ns - d->c_out);
		} else {
			for (j = 0; j < ns; j++)
				o[j] = (u8)p[src[j]] ^ 0x80;
		}
	}
	for (xi = 0; xi < nx; xi++)
		for (j = 0; j < ns; j += 16) {
			const u8 *q = e1 + xi * ns + j;
			__m128i r0 = _mm_loadu_si128((const __m128i *)q);
			__m128i r1 = _mm_loadu_si128((const __m128i *)(q + ns));
			__m128i r2 = _mm_loadu_si128((const __m128i *)(q + 2 * ns));
			__m128i r3 = _mm_loadu_si128((const __m128i *)(q + 3 * ns));
			__m128i t0 = _mm_unpacklo_epi8(r0, r1), t1 = _mm_unpackhi_epi8(r0, r1);
			__m128i t2 = _mm_unpacklo_epi8(r2, r3), t3 = _mm_unpackhi_epi8(r2, r3);
			u8 *o = e4 + (xi * ns + j) * 4;

			_mm_storeu_si128((__m128i *)o, _mm_unpacklo_epi16(t0, t2));
			_mm_storeu_si128((__m128i *)(o + 16), _mm_unpackhi_epi16(t0, t2));
			_mm_storeu_si128((__m128i *)(o + 32), _mm_unpacklo_epi16(t1, t3));
			_mm_storeu_si128((__m128i *)(o + 48), _mm_unpackhi_epi16(t1, t3));
		}
}

/* The weights of kernel row @ky, taps 4 @gi.., columns @jg.. (16). */
DV_TARGET
static inline __m512i dv_w4(const struct e1_mm_ws *ws, u32 ky, u32 gi, u32 jg)
{
	return _mm512_loadu_si512(ws->diag.w4 + ((ky * 2 + gi) * ws->diag.ns + jg) * 4);
}

const void *e1_diag4_slot(const struct e1_mm_ws *ws, u32 slot)
{
	return (const u8 *)ws->diag.e + (size_t)slot * ws->diag.nx * ws->diag.ns * 4;
}

/*
 * One output row from the expanded rows @e (NULL: a kernel row outside
 * the image or with no nonzero weight, left out of the sums and of the
 * bias correction alike).
 */
DV_TARGET
void e1_diag4_row(const struct v0_op *d, const void *const *e, const struct e1_mm_ws *ws,
		  u8 *crow)
{
	const size_t ns = ws->diag.ns;
	const u32 g = dv_groups(d->ksz);
	const __m512i ones = _mm512_set1_epi8(1);
	u32 ox, jg, ky, gi;

	for (jg = 0; jg < ns; jg += 16) {
		u32 nc = d->c_out - jg < 16 ? d->c_out - jg : 16;
		__mmask16 m = (__mmask16)((1u << nc) - 1);
		__m512i corr = _mm512_setzero_si512();

		if (jg >= d->c_out)
			break;
		for (ky = 0; ky < d->ksz; ky++)
			for (gi = 0; e[ky] && gi < g; gi++)
				corr = e1_vnni_dp(corr, ones, dv_w4(ws, ky, gi, jg));
		/* start from -128 * sum(w): the bias the products carry */
		corr = _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_slli_epi32(corr, 7));
		for (ox = 0; ox < d->out_w; ox++) {
			__m512i acc = corr;

			for (ky = 0; ky < d->ksz; ky++) {
				const u8 *x;

				if (!e[ky])
					continue;
				x = (const u8 *)e[ky] + ((size_t)ox * d->sw * ns + jg) * 4;
				for (gi = 0; gi < g; gi++) {
					__m512i a = _mm512_loadu_si512(x + 16 * gi * ns);

					acc = e1_vnni_dp(acc, a, dv_w4(ws, ky, gi, jg));
				}
			}
			if (d->relu)
				acc = _mm512_max_epi32(acc, _mm512_setzero_si512());
			_mm512_mask_storeu_epi32(crow + ((size_t)ox * d->c_out + jg) * 4, m, acc);
		}
	}
}
#endif /* E1_MM_X86 */
