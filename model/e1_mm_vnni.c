// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * e1 NPU device model: the blocked AVX-512 VNNI GEMM, the host's fastest
 * path for every C = A * B (MATMUL and the im2col CONV2D), chosen at run
 * time by e1_mm_run; the portable C path in e1_matmul.c stays the
 * reference it is tested against.
 *
 * vpdpbusd multiplies u8 by s8 and adds four products exactly into each
 * int32 lane, so A is biased (a ^ 0x80 = a + 128 as u8) and B is used
 * signed: every sum is sum(a * b) + 128 * sum(b), and 128 times each B
 * column's sum (one vector per panel) is subtracted at the store. Nothing
 * saturates: a biased slice sum is at most MMV_KB * 255 * 128 in magnitude.
 *
 * Loop nest: K slices of MMV_KB; A blocks of MMV_MC rows copied (or
 * gathered, for a convolution) as biased int8 rows; B panels of 16 columns
 * packed [k / 4][column][4] (16 KiB at most) with their column sums, two
 * side by side; an 8 x 32 micro-kernel keeps its sums in sixteen zmm
 * registers and broadcasts four A bytes of each row per step (8 x 16 for
 * a last panel of 16 columns or fewer).
 */
#include "e1_vnni.h"

#ifdef E1_MM_X86
#define MMV_TARGET E1_VNNI_TARGET

static u32 mmv_min(u32 a, u32 b)
{
	return a < b ? a : b;
}

/* Zero @a[kb .. kbp): at most 3 bytes, not worth a call to memset. */
static inline void mmv_zero_pad(s8 *a, u32 kb, u32 kbp)
{
	for (; kb < kbp; kb++)
		a[kb] = 0;
}

/*
 * Bias @kb int8 of an A row from @src into @dst and zero it up to @kbp, a
 * multiple of 4: the padding adds nothing.
 */
MMV_TARGET
static void mmv_bias_row(const s8 *src, u32 kb, u32 kbp, s8 *dst)
{
	__m512i bias = _mm512_set1_epi8((char)0x80);
	u32 k;

	for (k = 0; k < kb; k += 64) {
		u32 n = mmv_min(64, kb - k);
		__mmask64 m = n == 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1;

		_mm512_mask_storeu_epi8(dst + k, m,
					_mm512_xor_si512(_mm512_maskz_loadu_epi8(m, src + k),
							 bias));
	}
	mmv_zero_pad(dst, kb, kbp);
}

/*
 * Pack B[k0 .. k0 + kb)[j0 .. j0 + nb), nb <= 16, as [k / 4][16][4] int8
 * (rows past kb and columns past nb zero), and 128 times each column's sum
 * into @csum.
 */
MMV_TARGET
static void mmv_pack_b(const struct e1_mm_job *job, s8 *dst, s32 *csum, u32 k0, u32 kb,
		       u32 j0, u32 nb)
{
	__m512i cs = _mm512_setzero_si512();
	u32 q, nq = (kb + 3) / 4, t, c;
	s32 tail[16] = { 0 };

	for (q = 0; q < nq; q++, dst += 64) {
		if (nb == 16 && 4 * q + 4 <= kb) {
			const s8 *const *br = job->b_rows + k0 + 4 * q;
			__m128i r0 = _mm_loadu_si128((const __m128i *)(br[0] + j0));
			__m128i r1 = _mm_loadu_si128((const __m128i *)(br[1] + j0));
			__m128i r2 = _mm_loadu_si128((const __m128i *)(br[2] + j0));
			__m128i r3 = _mm_loadu_si128((const __m128i *)(br[3] + j0));
			__m128i t0 = _mm_unpacklo_epi8(r0, r1), t1 = _mm_unpackhi_epi8(r0, r1);
			__m128i t2 = _mm_unpacklo_epi8(r2, r3), t3 = _mm_unpackhi_epi8(r2, r3);

			_mm_storeu_si128((__m128i *)dst, _mm_unpacklo_epi16(t0, t2));
			_mm_storeu_si128((__m128i *)(dst + 16), _mm_unpackhi_epi16(t0, t2));
			_mm_storeu_si128((__m128i *)(dst + 32), _mm_unpacklo_epi16(t1, t3));
			_mm_storeu_si128((__m128i *)(dst + 48), _mm_unpackhi_epi16(t1, t3));
			cs = _mm512_add_epi32(cs, _mm512_cvtepi8_epi32(r0));
			cs = _mm512_add_epi32(cs, _mm512_cvtepi8_epi32(r1));
			cs = _mm512_add_epi32(cs, _mm512_cvtepi8_epi32(r2));
			cs = _mm512_add_epi32(cs, _mm512_cvtepi8_epi32(r3));
			continue;
		}
		memset(dst, 0, 64);
		for (t = 0; t < 4 && 4 * q + t < kb; t++) {
			const s8 *row = job->b_rows[k0 + 4 * q + t] + j0;

			for (c = 0; c < nb; c++) {
				dst[4 * c + t] = row[c];
				tail[c] += row[c];
			}
		}
	}
	cs = _mm512_add_epi32(cs, _mm512_loadu_si512(tail));
	_mm512_storeu_si512(csum, _mm512_slli_epi32(cs, 7));
}

/*
 * Store one 16-column tile row: @acc less @cs (128 * the columns' sums),
 * added to the earlier K slices unless @first, clamped at zero if @relu;
 * only the columns in @m are written.
 */
MMV_TARGET
static inline void mmv_store(u8 *p, __m512i acc, __m512i cs, __mmask16 m, bool first,
			     bool relu)
{
	__m512i v = _mm512_sub_epi32(acc, cs);

	if (!first)
		v = _mm512_add_epi32(v, _mm512_maskz_loadu_epi32(m, p));
	if (relu)
		v = _mm512_max_epi32(v, _mm512_setzero_si512());
	_mm512_mask_storeu_epi32(p, m, v);
}

#define MMV_STEP(r) \
	(c##r = e1_vnni_dp(c##r, _mm512_set1_epi32(mmv_ld32(a + (r) * as + 4 * q)), b))

MMV_TARGET
static inline s32 mmv_ld32(const s8 *p)
{
	s32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * The 8 x 16 tile: A rows @a (stride @as) times the packed panel @bp over
 * @nq steps of four k; stored into @crow[r] + @j0 (NULL: a padding row).
 */
MMV_TARGET noinline
static void mmv_micro(const s8 *a, u32 as, const s8 *bp, u32 nq, u8 *const *crow,
		      const s32 *csum, u32 j0, __mmask16 m, bool first, bool relu)
{
	__m512i cs = _mm512_loadu_si512(csum);
	__m512i c0 = _mm512_setzero_si512(), c1 = c0, c2 = c0, c3 = c0;
	__m512i c4 = c0, c5 = c0, c6 = c0, c7 = c0;
	u32 q;

	for (q = 0; q < nq; q++, bp += 64) {
		__m512i b = _mm512_loadu_si512(bp);

		MMV_STEP(0);
		MMV_STEP(1);
		MMV_STEP(2);
		MMV_STEP(3);
		MMV_STEP(4);
		MMV_STEP(5);
		MMV_STEP(6);
		MMV_STEP(7);
	}
	if (crow[0])
		mmv_store(crow[0] + 4 * j0, c0, cs, m, first, relu);
	if (crow[1])
		mmv_store(crow[1] + 4 * j0, c1, cs, m, first, relu);
	if (crow[2])
		mmv_store(crow[2] + 4 * j0, c2, cs, m, first, relu);
	if (crow[3])
		mmv_store(crow[3] + 4 * j0, c3, cs, m, first, relu);
	if (crow[4])
		mmv_store(crow[4] + 4 * j0, c4, cs, m, first, relu);
	if (crow[5])
		mmv_store(crow[5] + 4 * j0, c5, cs, m, first, relu);
	if (crow[6])
		mmv_store(crow[6] + 4 * j0, c6, cs, m, first, relu);
	if (crow[7])
		mmv_store(crow[7] + 4 * j0, c7, cs, m, first, relu);
}

#define MMV_STEP2(r) do {								\
	__m512i x = _mm512_set1_epi32(mmv_ld32(a + (r) * as + 4 * q));		\
										\
	c##r = e1_vnni_dp(c##r, x, b);						\
	d##r = e1_vnni_dp(d##r, x, e);						\
} while (0)

/* One tile row's 32 sums to @t. */
MMV_TARGET
static inline void mmv_save2(s32 *t, __m512i c, __m512i d)
{
	_mm512_storeu_si512(t, c);
	_mm512_storeu_si512(t + 16, d);
}

/*
 * The 8 x 32 tile: as mmv_micro over two panels side by side, @bp and
 * @ep (16 columns each), sixteen sums in registers so that the vpdpbusd
 * chains overlap; each A broadcast serves both. The sums go to @t (8 rows
 * of 32): with them live after the loop for the stores, GCC copies the
 * accumulators around inside it.
 */
MMV_TARGET noinline
static void mmv_micro32(const s8 *a, u32 as, const s8 *bp, const s8 *ep, u32 nq, s32 *t)
{
	__m512i c0 = _mm512_setzero_si512(), c1 = c0, c2 = c0, c3 = c0;
	__m512i c4 = c0, c5 = c0, c6 = c0, c7 = c0;
	__m512i d0 = c0, d1 = c0, d2 = c0, d3 = c0, d4 = c0, d5 = c0, d6 = c0, d7 = c0;
	u32 q;

	for (q = 0; q < nq; q++, bp += 64, ep += 64) {
		__m512i b = _mm512_loadu_si512(bp), e = _mm512_loadu_si512(ep);

		MMV_STEP2(0);
		MMV_STEP2(1);
		MMV_STEP2(2);
		MMV_STEP2(3);
		MMV_STEP2(4);
		MMV_STEP2(5);
		MMV_STEP2(6);
		MMV_STEP2(7);
	}
	mmv_save2(t, c0, d0);
	mmv_save2(t + 32, c1, d1);
	mmv_save2(t + 64, c2, d2);
	mmv_save2(t + 96, c3, d3);
	mmv_save2(t + 128, c4, d4);
	mmv_save2(t + 160, c5, d5);
	mmv_save2(t + 192, c6, d6);
	mmv_save2(t + 224, c7, d7);
}

/* Store the 8 x 32 tile @t (columns past 16 under @m2) into @crow + @j0. */
MMV_TARGET
static void mmv_store32(const s32 *t, u8 *const *crow, const s32 *csum, u32 j0, __mmask16 m2,
			bool first, bool relu)
{
	__m512i cs = _mm512_loadu_si512(csum), ds = _mm512_loadu_si512(csum + 16);
	u32 r;

	for (r = 0; r < MMV_MR; r++, t += 32) {
		if (!crow[r])
			continue;
		mmv_store(crow[r] + 4 * j0, _mm512_loadu_si512(t), cs, 0xffff, first, relu);
		mmv_store(crow[r] + 4 * (j0 + 16), _mm512_loadu_si512(t + 16), ds, m2, first,
			  relu);
	}
}

/* Rows [ib, ib + mb) of A's K slice into the block, biased (load_a biases as it gathers). */
static void mmv_load_block(const struct e1_mm_job *job, struct e1_mm_ws *ws, u32 ib,
			   u32 mb, u32 k0, u32 kb, u32 kbp)
{
	u32 r, mbp = (mb + MMV_MR - 1) / MMV_MR * MMV_MR;

	if (!job->a_rows && job->load_a_rows) {
		job->load_a_rows(job, ib, mb, k0, kb, 0x80, ws->wv.a, kbp);
		if (job->c_rows)
			job->c_rows(job, ib, mb, ws->wv.crow);
		for (r = 0; r < mb; r++) {
			mmv_zero_pad(ws->wv.a + (size_t)r * kbp, kb, kbp);
			if (!job->c_rows)
				ws->wv.crow[r] = job->c_row(job, ib + r);
		}
		for (; r < mbp; r++) {
			memset(ws->wv.a + (size_t)r * kbp, 0, kbp);
			ws->wv.crow[r] = NULL;
		}
		return;
	}
	for (r = 0; r < mbp; r++) {
		s8 *a = ws->wv.a + (size_t)r * kbp;

		if (r >= mb) {
			memset(a, 0, kbp);
			ws->wv.crow[r] = NULL;
			continue;
		}
		ws->wv.crow[r] = job->c_row(job, ib + r);
		if (job->a_rows) {
			mmv_bias_row(job->a_rows[ib + r] + k0, kb, kbp, a);
		} else {
			job->load_a(job, ib + r, k0, kb, 0x80, a);
			mmv_zero_pad(a, kb, kbp);
		}
	}
}

void e1_mm_run_vnni(const struct e1_mm_job *job, struct e1_mm_ws *ws)
{
	u32 j0, k0, i0, ib;

	for (k0 = 0; k0 < job->k; k0 += MMV_KB) {
		u32 kb = mmv_min(MMV_KB, job->k - k0);
		u32 kbp = (kb + 3) & ~3u, nq = kbp / 4;
		bool first = k0 == 0, relu = k0 + kb == job->k && job->relu;

		for (ib = 0; ib < job->m; ib += MMV_MC) {
			u32 mb = mmv_min(MMV_MC, job->m - ib);

			mmv_load_block(job, ws, ib, mb, k0, kb, kbp);
			for (j0 = 0; j0 < job->n; j0 += 32) {
				u32 nb = mmv_min(32, job->n - j0);
				const s8 *a = ws->wv.a;
				s8 *b2 = ws->wv.b + 16 * MMV_KB;
				__mmask16 m2;

				if (job->stop && job->stop(job))
					return;
				mmv_pack_b(job, ws->wv.b, ws->wv.csum, k0, kb, j0, mmv_min(16, nb));
				if (nb <= 16) {
					__mmask16 m = (__mmask16)((1u << nb) - 1);

					for (i0 = 0; i0 < mb; i0 += MMV_MR)
						mmv_micro(a + (size_t)i0 * kbp, kbp, ws->wv.b, nq,
							  ws->wv.crow + i0, ws->wv.csum, j0, m,
							  first, relu);
					continue;
				}
				/* two panels side by side: the 8 x 32 tile */
				m2 = (__mmask16)((1u << (nb - 16)) - 1);
				mmv_pack_b(job, b2, ws->wv.csum + 16, k0, kb, j0 + 16, nb - 16);
				for (i0 = 0; i0 < mb; i0 += MMV_MR) {
					mmv_micro32(a + (size_t)i0 * kbp, kbp, ws->wv.b, b2, nq,
						    ws->wv.t);
					mmv_store32(ws->wv.t, ws->wv.crow + i0, ws->wv.csum, j0, m2,
						    first, relu);
				}
			}
		}
	}
}
#endif /* E1_MM_X86 */
