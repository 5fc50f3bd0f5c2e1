// SPDX-License-Identifier: (GPL-2.0-only OR MIT)
/*
 * e1 NPU device model: cache-blocked INT8 GEMM in portable C.
 *
 * Loop nest: B panels of E1_MM_NB columns x E1_MM_KB rows are packed once,
 * transposed and widened to int16 (column-major, so every output is a dot
 * product of two contiguous int16 vectors); for each group of E1_MM_MR rows
 * of A the slice is widened to int16, then an MR x NR micro-kernel computes
 * sixteen dot products at once. Each dot product is a reduction the compiler
 * vectorizes as multiply-add of int16 pairs into int32 lanes (pmaddwd,
 * vpdpwssd). The K padding is zero on both sides, so it adds nothing.
 */
#include "e1_matmul.h"

#ifdef E1_MM_X86
#include <immintrin.h>
#endif

/* Padded slice length: a multiple of the widest vector (32 int16 lanes). */
#define KPAD	32

static u32 min_u32(u32 a, u32 b)
{
	return a < b ? a : b;
}

static s32 load_s32(const u8 *p)
{
	s32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void store_s32(u8 *p, s32 v)
{
	memcpy(p, &v, sizeof(v));
}

/*
 * The micro-kernel: out[r][c] = dot(a row r, b column c) over kbp int16,
 * kbp a multiple of KPAD. Products of int8 values fit int16 * int16 and the
 * sum of E1_MM_KB of them fits int32.
 */
E1_MM_CLONES
static void mm_micro(const s16 *a, const s16 *b, u32 kbp, s32 *out)
{
	const s16 *a0 = a, *a1 = a + kbp, *a2 = a + 2 * kbp, *a3 = a + 3 * kbp;
	const s16 *b0 = b, *b1 = b + kbp, *b2 = b + 2 * kbp, *b3 = b + 3 * kbp;
	s32 c00 = 0, c01 = 0, c02 = 0, c03 = 0;
	s32 c10 = 0, c11 = 0, c12 = 0, c13 = 0;
	s32 c20 = 0, c21 = 0, c22 = 0, c23 = 0;
	s32 c30 = 0, c31 = 0, c32 = 0, c33 = 0;
	u32 k;

	for (k = 0; k < kbp; k++) {
		s32 x0 = a0[k], x1 = a1[k], x2 = a2[k], x3 = a3[k];
		s32 y0 = b0[k], y1 = b1[k], y2 = b2[k], y3 = b3[k];

		c00 += x0 * y0;
		c01 += x0 * y1;
		c02 += x0 * y2;
		c03 += x0 * y3;
		c10 += x1 * y0;
		c11 += x1 * y1;
		c12 += x1 * y2;
		c13 += x1 * y3;
		c20 += x2 * y0;
		c21 += x2 * y1;
		c22 += x2 * y2;
		c23 += x2 * y3;
		c30 += x3 * y0;
		c31 += x3 * y1;
		c32 += x3 * y2;
		c33 += x3 * y3;
	}
	out[0] = c00;
	out[1] = c01;
	out[2] = c02;
	out[3] = c03;
	out[4] = c10;
	out[5] = c11;
	out[6] = c12;
	out[7] = c13;
	out[8] = c20;
	out[9] = c21;
	out[10] = c22;
	out[11] = c23;
	out[12] = c30;
	out[13] = c31;
	out[14] = c32;
	out[15] = c33;
}

/* Pack B[k0 .. k0 + kb)[j0 .. j0 + nb) transposed, int16, zero padded. */
static void mm_pack_b(const struct e1_mm_job *job, s16 *dst, u32 k0, u32 kb,
		      u32 kbp, u32 j0, u32 nb, u32 nbp)
{
	u32 kk, jj;

	for (kk = 0; kk < kb; kk++) {
		const s8 *row = job->b_rows[k0 + kk] + j0;

		for (jj = 0; jj < nb; jj++)
			dst[jj * kbp + kk] = row[jj];
	}
	for (jj = 0; jj < nb; jj++)
		memset(dst + jj * kbp + kb, 0, (kbp - kb) * sizeof(s16));
	for (; jj < nbp; jj++)
		memset(dst + jj * kbp, 0, kbp * sizeof(s16));
}

/* @crows: the C rows of the block (@mb of them), @i0 the tile's first. */
static void mm_store(const struct e1_mm_job *job, u8 *const *crows, const s32 *sum,
		     u32 i0, u32 mb, u32 j0, bool first, bool last)
{
	u32 r, c;

	for (r = 0; r < E1_MM_MR && i0 + r < mb; r++) {
		u8 *crow = crows[i0 + r];

		for (c = 0; c < E1_MM_NR && j0 + c < job->n; c++) {
			u8 *p = crow + 4 * (j0 + c);
			s32 v = sum[r * E1_MM_NR + c];

			if (!first)
				v += load_s32(p);
			if (last && job->relu && v < 0)
				v = 0;
			store_s32(p, v);
		}
	}
}

static void mm_run16(const struct e1_mm_job *job, struct e1_mm_ws *ws)
{
	s32 sum[E1_MM_MR * E1_MM_NR];
	u32 j0, k0, i0, ib, jj, r;

	for (k0 = 0; k0 < job->k; k0 += E1_MM_KB) {
		u32 kb = min_u32(E1_MM_KB, job->k - k0);
		u32 kbp = (kb + KPAD - 1) / KPAD * KPAD;
		bool first = k0 == 0, last = k0 + kb == job->k;

		for (ib = 0; ib < job->m; ib += E1_MM_MC) {
			u32 mb = min_u32(E1_MM_MC, job->m - ib);
			u32 mbp = (mb + E1_MM_MR - 1) / E1_MM_MR * E1_MM_MR;

			/* A block: MC rows of the slice, widened once. */
			for (r = 0; r < mb; r++)
				ws->w16.crow[r] = job->c_row(job, ib + r);
			for (r = 0; r < mbp; r++) {
				s16 *a = ws->w16.a + r * kbp;

				if (r < mb && job->a_rows) {
					const s8 *src = job->a_rows[ib + r] + k0;
					u32 kk;

					for (kk = 0; kk < kb; kk++)
						a[kk] = src[kk];
					memset(a + kb, 0, (kbp - kb) * sizeof(s16));
				} else if (r < mb) {
					u32 kk;

					job->load_a(job, ib + r, k0, kb, 0, ws->w16.a8);
					for (kk = 0; kk < kb; kk++)
						a[kk] = ws->w16.a8[kk];
					memset(a + kb, 0, (kbp - kb) * sizeof(s16));
				} else {
					memset(a, 0, kbp * sizeof(s16));
				}
			}
			for (j0 = 0; j0 < job->n; j0 += E1_MM_NB) {
				u32 nb = min_u32(E1_MM_NB, job->n - j0);
				u32 nbp = (nb + E1_MM_NR - 1) / E1_MM_NR * E1_MM_NR;

				if (job->stop && job->stop(job))
					return;
				mm_pack_b(job, ws->w16.b, k0, kb, kbp, j0, nb, nbp);
				for (i0 = 0; i0 < mb; i0 += E1_MM_MR) {
					for (jj = 0; jj < nb; jj += E1_MM_NR) {
						mm_micro(ws->w16.a + i0 * kbp, ws->w16.b + jj * kbp,
							 kbp, sum);
						mm_store(job, ws->w16.crow, sum, i0, mb, j0 + jj,
							 first, last);
					}
				}
			}
		}
	}
}

#ifdef E1_MM_X86
/*
 * The int8 path, for CPUs with AVX-512 VNNI (vpdpbusd: u8 x s8 products,
 * four of them summed exactly into each int32 lane). A is used in place
 * (signed), the B panel is packed transposed with +128 (b ^ 0x80 = b + 128
 * as u8), so every dot product is sum(a * b) + 128 * sum(a); the row sums of
 * A are subtracted when storing. All int32, no saturation anywhere: the
 * biased sum is at most 1024 * 128 * 255 in magnitude.
 */
#define E1_MM8_TARGET \
	__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni,prefer-vector-width=512")))

E1_MM8_TARGET
static void mm_micro8(const s8 *a0, const s8 *a1, const s8 *a2, const s8 *a3,
		      const u8 *b, u32 bs, u32 kb, s32 *out)
{
	const u8 *b0 = b, *b1 = b + bs, *b2 = b + 2 * bs, *b3 = b + 3 * bs;
	s32 c00 = 0, c01 = 0, c02 = 0, c03 = 0;
	s32 c10 = 0, c11 = 0, c12 = 0, c13 = 0;
	s32 c20 = 0, c21 = 0, c22 = 0, c23 = 0;
	s32 c30 = 0, c31 = 0, c32 = 0, c33 = 0;
	u32 k;

	for (k = 0; k < kb; k++) {
		s32 x0 = a0[k], x1 = a1[k], x2 = a2[k], x3 = a3[k];
		s32 y0 = b0[k], y1 = b1[k], y2 = b2[k], y3 = b3[k];

		c00 += x0 * y0;
		c01 += x0 * y1;
		c02 += x0 * y2;
		c03 += x0 * y3;
		c10 += x1 * y0;
		c11 += x1 * y1;
		c12 += x1 * y2;
		c13 += x1 * y3;
		c20 += x2 * y0;
		c21 += x2 * y1;
		c22 += x2 * y2;
		c23 += x2 * y3;
		c30 += x3 * y0;
		c31 += x3 * y1;
		c32 += x3 * y2;
		c33 += x3 * y3;
	}
	out[0] = c00;
	out[1] = c01;
	out[2] = c02;
	out[3] = c03;
	out[4] = c10;
	out[5] = c11;
	out[6] = c12;
	out[7] = c13;
	out[8] = c20;
	out[9] = c21;
	out[10] = c22;
	out[11] = c23;
	out[12] = c30;
	out[13] = c31;
	out[14] = c32;
	out[15] = c33;
}

E1_MM8_TARGET
static s32 mm_rowsum8(const s8 *a, u32 kb)
{
	s32 s = 0;
	u32 k;

	for (k = 0; k < kb; k++)
		s += a[k];
	return s;
}

/* Pack B[k0 .. k0 + kb)[j0 .. j0 + nb) transposed, +128, stride kbp. */
static void mm_pack_b8(const struct e1_mm_job *job, u8 *dst, u32 k0, u32 kb,
		       u32 kbp, u32 j0, u32 nb, u32 nbp)
{
	u32 kk, jj;

	for (kk = 0; kk < kb; kk++) {
		const s8 *row = job->b_rows[k0 + kk] + j0;

		for (jj = 0; jj < nb; jj++)
			dst[jj * kbp + kk] = (u8)row[jj] ^ 0x80;
	}
	for (jj = nb; jj < nbp; jj++)
		memset(dst + jj * kbp, 0, kb);
}

/*
 * Store @nr sums of one C row: undo the +128 bias of B (@rs = 128 * sum of
 * the A row), accumulate onto earlier K slices, clamp on the last one.
 */
static void mm_store8(u8 *p, const s32 *sum, u32 nr, s32 rs, bool first,
		      bool relu)
{
	u32 c;

	for (c = 0; c < nr; c++, p += 4) {
		s32 v = sum[c] - rs;

		if (!first)
			v += load_s32(p);
		if (relu && v < 0)
			v = 0;
		store_s32(p, v);
	}
}

static void mm_run8(const struct e1_mm_job *job, struct e1_mm_ws *ws)
{
	s32 sum[E1_MM_MR * E1_MM_NR];
	u8 *crow[E1_MM_MR];
	const s8 *arow[E1_MM_MR];
	u32 j0, k0, i0, jj, r;

	for (k0 = 0; k0 < job->k; k0 += E1_MM8_KB) {
		u32 kb = min_u32(E1_MM8_KB, job->k - k0);
		u32 kbp = (kb + 63) & ~63u;
		bool first = k0 == 0, last = k0 + kb == job->k;

		for (i0 = 0; i0 < job->m; i0++)
			ws->w8.rsum[i0] = 128 * mm_rowsum8(job->a_rows[i0] + k0, kb);
		for (j0 = 0; j0 < job->n; j0 += E1_MM8_NB) {
			u32 nb = min_u32(E1_MM8_NB, job->n - j0);
			u32 nbp = (nb + E1_MM_NR - 1) / E1_MM_NR * E1_MM_NR;

			mm_pack_b8(job, ws->w8.b, k0, kb, kbp, j0, nb, nbp);
			for (i0 = 0; i0 < job->m; i0 += E1_MM_MR) {
				u32 mr = min_u32(E1_MM_MR, job->m - i0);

				if (!(i0 % 64) && job->stop && job->stop(job))
					return;

				/* Missing rows of an edge tile repeat the last one. */
				for (r = 0; r < E1_MM_MR; r++) {
					u32 i = i0 + min_u32(r, mr - 1);

					arow[r] = job->a_rows[i] + k0;
					crow[r] = r < mr ? job->c_row(job, i) : NULL;
				}
				for (jj = 0; jj < nb; jj += E1_MM_NR) {
					u32 nr = min_u32(E1_MM_NR, nb - jj);

					mm_micro8(arow[0], arow[1], arow[2], arow[3],
						  ws->w8.b + jj * kbp, kbp, kb, sum);
					for (r = 0; r < mr; r++)
						mm_store8(crow[r] + 4 * (j0 + jj),
							  sum + r * E1_MM_NR, nr,
							  ws->w8.rsum[i0 + r], first,
							  last && job->relu);
				}
			}
		}
	}
}

/*
 * The AVX2 path (any x86-64 with AVX2, chosen at run time; the portable
 * mm_run16 above stays the reference). Blocking like mm_run16 (K slices
 * of E1_MM_KB, A blocks widened once, in 4-row tiles), but B panels of 16 columns
 * are packed k-pair-interleaved, [k / 2][16 columns][2] int16 (vectorized:
 * two int8 rows unpacked byte-wise, then sign-extended), and a 4 x 16
 * micro-kernel keeps its 64 sums in 8 ymm registers: per k pair it
 * broadcasts (A[i][k], A[i][k + 1]) of each row and vpmaddwd's it with the
 * panel, adding into int32 lanes. vpmaddwd is exact here (|int8 * int8|
 * <= 16384, two of them fit int32; only -32768 * -32768 * 2 overflows,
 * which int8 inputs never reach), and int32 sums are the same whatever
 * their order, so C is the same bit for bit as the portable path. No
 * saturating instruction (vpmaddubsw) is used.
 */
#define E1_MM_AVX2	__attribute__((target("avx2")))
#define A2_MR	E1_MM_A2_MR	/* micro-kernel rows (more spill in GCC) */
#define A2_NR	E1_MM_A2_NR	/* micro-kernel columns (two ymm of int32) */
#define A2_MC	E1_MM_MC	/* A block rows */

E1_MM_AVX2
static inline __m256i a2_bcast(const s16 *p)
{
	s32 v;

	memcpy(&v, p, sizeof(v));
	return _mm256_set1_epi32(v);
}

/*
 * Tile sums @t (A2_MR rows of A2_NR) into C[i0 + r][j0 .. j0 + nr): added to
 * the earlier K slices unless @first, clamped at zero if @relu.
 */
E1_MM_AVX2
static void a2_store(const s32 *t, u8 *const *crow, u32 j0, u32 mr, u32 nr, bool first,
		     bool relu)
{
	u32 r, c;

	for (r = 0; r < mr; r++, t += A2_NR) {
		u8 *p = crow[r] + 4 * j0;

		if (nr == A2_NR) {
			__m256i v0 = _mm256_loadu_si256((const __m256i *)t);
			__m256i v1 = _mm256_loadu_si256((const __m256i *)(t + 8));

			if (!first) {
				const __m256i *q = (const __m256i *)p;

				v0 = _mm256_add_epi32(v0, _mm256_loadu_si256(q));
				v1 = _mm256_add_epi32(v1, _mm256_loadu_si256(q + 1));
			}
			if (relu) {
				v0 = _mm256_max_epi32(v0, _mm256_setzero_si256());
				v1 = _mm256_max_epi32(v1, _mm256_setzero_si256());
			}
			_mm256_storeu_si256((__m256i *)p, v0);
			_mm256_storeu_si256((__m256i *)(p + 32), v1);
			continue;
		}
		for (c = 0; c < nr; c++, p += 4) {
			s32 v = t[c];

			if (!first)
				v += load_s32(p);
			if (relu && v < 0)
				v = 0;
			store_s32(p, v);
		}
	}
}

/*
 * One row of the micro-kernel: @c0/@c1 += the row's k pair (@ak) times
 * the panel's two halves @b0/@b1.
 */
E1_MM_AVX2
static inline void a2_row(const s16 *ak, __m256i b0, __m256i b1,
			  __m256i *c0, __m256i *c1)
{
	__m256i x = a2_bcast(ak);

	*c0 = _mm256_add_epi32(*c0, _mm256_madd_epi16(x, b0));
	*c1 = _mm256_add_epi32(*c1, _mm256_madd_epi16(x, b1));
}

/*
 * @t = the A2_MR x A2_NR tile sums of the interleaved A tile @a ([pair][4
 * rows][2] int16) times the packed panel @b, over @np k pairs. The sums go
 * through memory (a2_store): with them live after the loop GCC spills the
 * accumulators inside it.
 */
E1_MM_AVX2 noinline
static void mm_micro_avx2(const s16 *a, const s16 *b, u32 np, s32 *t)
{
	__m256i c00 = _mm256_setzero_si256(), c01 = c00, c10 = c00, c11 = c00;
	__m256i c20 = c00, c21 = c00, c30 = c00, c31 = c00;
	u32 p;

	for (p = 0; p < np; p++) {
		const s16 *ak = a + 8 * p;
		__m256i b0 = _mm256_loadu_si256((const __m256i *)(b + 32 * p));
		__m256i b1 = _mm256_loadu_si256((const __m256i *)(b + 32 * p + 16));

		a2_row(ak, b0, b1, &c00, &c01);
		a2_row(ak + 2, b0, b1, &c10, &c11);
		a2_row(ak + 4, b0, b1, &c20, &c21);
		a2_row(ak + 6, b0, b1, &c30, &c31);
	}
	_mm256_storeu_si256((__m256i *)t, c00);
	_mm256_storeu_si256((__m256i *)(t + 8), c01);
	_mm256_storeu_si256((__m256i *)(t + 16), c10);
	_mm256_storeu_si256((__m256i *)(t + 24), c11);
	_mm256_storeu_si256((__m256i *)(t + 32), c20);
	_mm256_storeu_si256((__m256i *)(t + 40), c21);
	_mm256_storeu_si256((__m256i *)(t + 48), c30);
	_mm256_storeu_si256((__m256i *)(t + 56), c31);
}

/*
 * Pack B[k0 .. k0 + kb)[j0 .. j0 + nb), nb <= 16, as [pair][column][2]
 * int16; the odd last row and the missing columns are zero.
 */
E1_MM_AVX2
static void mm_pack_b_avx2(const struct e1_mm_job *job, s16 *dst, u32 k0, u32 kb,
			   u32 j0, u32 nb)
{
	u32 p, np = (kb + 1) / 2, jj;

	for (p = 0; p < np; p++) {
		const s8 *r0 = job->b_rows[k0 + 2 * p] + j0;
		const s8 *r1 = 2 * p + 1 < kb ? job->b_rows[k0 + 2 * p + 1] + j0 : NULL;
		s16 *d = dst + 32 * p;

		if (nb == A2_NR && r1) {
			__m128i x0 = _mm_loadu_si128((const __m128i *)r0);
			__m128i x1 = _mm_loadu_si128((const __m128i *)r1);

			_mm256_storeu_si256((__m256i *)d,
					    _mm256_cvtepi8_epi16(_mm_unpacklo_epi8(x0, x1)));
			_mm256_storeu_si256((__m256i *)(d + 16),
					    _mm256_cvtepi8_epi16(_mm_unpackhi_epi8(x0, x1)));
		} else {
			for (jj = 0; jj < A2_NR; jj++) {
				d[2 * jj] = jj < nb ? r0[jj] : 0;
				d[2 * jj + 1] = jj < nb && r1 ? r1[jj] : 0;
			}
		}
	}
}

/* A row slice widened to int16. */
E1_MM_AVX2
static void a2_widen(const s8 *src, u32 kb, s16 *a)
{
	u32 kk = 0;

	for (; kk + 16 <= kb; kk += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(src + kk));

		_mm256_storeu_si256((__m256i *)(a + kk), _mm256_cvtepi8_epi16(v));
	}
	for (; kk < kb; kk++)
		a[kk] = src[kk];
}

/*
 * Four int16 rows @r (@kbp long, a multiple of 16) interleaved by k pair
 * into @dst: [pair][row][2], a 4 x 8 transpose of int32 pairs per step.
 */
E1_MM_AVX2
static void a2_interleave(const s16 *r, u32 kbp, s16 *dst)
{
	u32 k;

	for (k = 0; k < kbp; k += 16, dst += 64) {
		__m256i r0 = _mm256_loadu_si256((const __m256i *)(r + k));
		__m256i r1 = _mm256_loadu_si256((const __m256i *)(r + kbp + k));
		__m256i r2 = _mm256_loadu_si256((const __m256i *)(r + 2 * kbp + k));
		__m256i r3 = _mm256_loadu_si256((const __m256i *)(r + 3 * kbp + k));
		__m256i t0 = _mm256_unpacklo_epi32(r0, r1), t1 = _mm256_unpackhi_epi32(r0, r1);
		__m256i t2 = _mm256_unpacklo_epi32(r2, r3), t3 = _mm256_unpackhi_epi32(r2, r3);
		__m256i u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
		__m256i u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);

		_mm256_storeu_si256((__m256i *)dst, _mm256_permute2x128_si256(u0, u1, 0x20));
		_mm256_storeu_si256((__m256i *)(dst + 16), _mm256_permute2x128_si256(u2, u3, 0x20));
		_mm256_storeu_si256((__m256i *)(dst + 32), _mm256_permute2x128_si256(u0, u1, 0x31));
		_mm256_storeu_si256((__m256i *)(dst + 48), _mm256_permute2x128_si256(u2, u3, 0x31));
	}
}

/*
 * Loop nest: K slices of E1_MM_KB; A blocks of A2_MC rows widened to int16
 * and interleaved in 4-row tiles (through the B panel's space as scratch);
 * B panels of 16 columns (L1) packed once per block; every tile of the
 * block against the panel.
 */
E1_MM_AVX2
static void mm_run_avx2(const struct e1_mm_job *job, struct e1_mm_ws *ws)
{
	s32 *t = ws->w16.t;	/* on the stack, newer GCCs pass the frame limit */
	u32 j0, k0, i0, ib, r;

	for (k0 = 0; k0 < job->k; k0 += E1_MM_KB) {
		u32 kb = min_u32(E1_MM_KB, job->k - k0);
		u32 kbp = (kb + KPAD - 1) / KPAD * KPAD, np = (kb + 1) / 2;
		bool first = k0 == 0, last = k0 + kb == job->k;

		for (ib = 0; ib < job->m; ib += A2_MC) {
			u32 mb = min_u32(A2_MC, job->m - ib);

			for (r = 0; r < mb; r++)
				ws->w16.crow[r] = job->c_row(job, ib + r);
			for (i0 = 0; i0 < mb; i0 += A2_MR) {
				for (r = 0; r < A2_MR; r++) {
					s16 *a = ws->w16.b + r * kbp;

					if (i0 + r < mb && job->a_rows) {
						a2_widen(job->a_rows[ib + i0 + r] + k0, kb, a);
					} else if (i0 + r < mb) {
						job->load_a(job, ib + i0 + r, k0, kb, 0,
							    ws->w16.a8);
						a2_widen(ws->w16.a8, kb, a);
					} else {
						memset(a, 0, kb * sizeof(s16));
					}
					memset(a + kb, 0, (kbp - kb) * sizeof(s16));
				}
				a2_interleave(ws->w16.b, kbp, ws->w16.a + i0 * kbp);
			}
			for (j0 = 0; j0 < job->n; j0 += A2_NR) {
				u32 nb = min_u32(A2_NR, job->n - j0);

				if (job->stop && job->stop(job))
					return;
				mm_pack_b_avx2(job, ws->w16.b, k0, kb, j0, nb);
				for (i0 = 0; i0 < mb; i0 += A2_MR) {
					mm_micro_avx2(ws->w16.a + i0 * kbp, ws->w16.b, np, t);
					a2_store(t, ws->w16.crow + i0, j0, min_u32(A2_MR, mb - i0),
						 nb, first, last && job->relu);
				}
			}
		}
	}
}

static bool mm_have_avx2(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx2");
}

bool e1_mm_have_vnni(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vl");
}
#endif /* E1_MM_X86 */

void e1_mm_run(const struct e1_mm_job *job, struct e1_mm_ws *ws)
{
#ifdef E1_MM_X86
	if (!job->portable && !job->int16_only && e1_mm_have_vnni()) {
		if (job->a_rows && job->m < MMV_MR)
			mm_run8(job, ws);
		else
			e1_mm_run_vnni(job, ws);
		return;
	}
	if (!job->portable && mm_have_avx2()) {
		mm_run_avx2(job, ws);
		return;
	}
#endif
	mm_run16(job, ws);
}
