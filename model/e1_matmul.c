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
					job->load_a(job, ib + r, k0, kb, a);
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

static bool mm_have_vnni(void)
{
	__builtin_cpu_init();
	return __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bw") &&
	       __builtin_cpu_supports("avx512vl");
}
#endif /* E1_MM_X86 */

void e1_mm_run(const struct e1_mm_job *job, struct e1_mm_ws *ws)
{
#ifdef E1_MM_X86
	if (job->a_rows && job->m <= E1_MM8_MMAX && !job->int16_only && mm_have_vnni()) {
		mm_run8(job, ws);
		return;
	}
#endif
	mm_run16(job, ws);
}
