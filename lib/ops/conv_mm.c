// SPDX-License-Identifier: MIT
/*
 * Convolutions as patch-Toeplitz MATMUL_S8s (conv_internal.h, struct
 * cv_mm). A depthwise 3x3 on CONV2D_S8 uses 1 of 16 columns per channel
 * and moves 9 input bytes per output; here one A row is the input patch of
 * a small block of outputs (4x4 outputs: 36 bytes, 2.25 per output) and B
 * holds the kernel shifted once per output of the block, so 9 of each
 * column's 36 products are useful. 1x1 convolutions are the same form with
 * 1x1 blocks: a plain [pixels x c_in] by [c_in x c_out] MATMUL, with K up
 * to 1024 in one descriptor.
 *
 * The block size and the number of groups stacked in one MATMUL are chosen
 * per layer by the cost model (cost.h), against the CONV2D_S8 form.
 * Out-of-image taps are staged as the input zero point, so every output's
 * fold is the full-window one (no border cases on the host).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_internal.h"
#include "cost.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define MM_MAX		1024u	/* E1_V0_MAX_MATMUL_MN and _K */
#define MM_MAX_BH	8u	/* block sizes tried */
#define MM_MAX_BW	16u
#define MM_MAX_GS	64u	/* groups stacked per MATMUL, at most */
#define MM_MAX_ARENA	(64u << 20)	/* staging bytes a form may need */
#define MM_MAX_N	(1u << 20)	/* columns (several descriptors) */

static uint32_t div_up(uint32_t a, uint32_t b)
{
	return a / b + (a % b ? 1 : 0);
}

/* Input patch length of @b outputs along an axis. */
static uint64_t patch_len(uint32_t b, uint32_t stride, uint32_t k, uint32_t dil)
{
	return (uint64_t)(b - 1) * stride + (uint64_t)(k - 1) * dil + 1;
}

/*
 * Append one stack's descriptors (M x N x K, split at the descriptor
 * limits, rows outer as cvmm_run emits them) to @seq; counts them.
 */
static void stack_cost(const struct e1npu_ops *ops, struct ops_cost_seq *seq,
		       uint32_t m, uint32_t n, uint32_t k, uint32_t *ndesc)
{
	for (uint32_t r0 = 0; r0 < m; r0 += MM_MAX) {
		uint32_t mc = m - r0 < MM_MAX ? m - r0 : MM_MAX;

		ops_cost_seq_matmul(ops, seq, mc, MM_MAX, k, n / MM_MAX);
		ops_cost_seq_matmul(ops, seq, mc, n % MM_MAX, k, n % MM_MAX ? 1 : 0);
		*ndesc += n / MM_MAX + (n % MM_MAX ? 1 : 0);
	}
}

struct stack_arg {
	const struct e1npu_ops *ops;
	uint32_t m, n, k, nd;
};

static void stack_step(void *arg, struct ops_cost_seq *seq)
{
	struct stack_arg *a = arg;

	a->nd = 0;
	stack_cost(a->ops, seq, a->m, a->n, a->k, &a->nd);
}

/* Cost of form @f (bh, bw, gs, ph, pw set); fills the rest of @f. */
static bool form_cost(const struct e1npu_conv *cv, struct cv_mm *f)
{
	const uint32_t patch = f->ph * f->pw * cv->cin_g;
	uint32_t full = cv->groups / f->gs, rem = cv->groups % f->gs;
	uint64_t n64 = (uint64_t)f->gs * f->bh * f->bw * cv->cout_g, bytes;
	struct ops_cost_seq seq = { 0 };
	uint32_t k = f->gs * patch, n;

	if (n64 > MM_MAX_N)
		return false;
	n = (uint32_t)n64;

	f->nby = div_up(cv->out_h, f->bh);
	f->nbx = div_up(cv->out_w, f->bw);
	if ((uint64_t)f->nby * f->nbx > UINT32_MAX / 2)
		return false;
	f->m = f->nby * f->nbx;
	f->nstack = full + (rem ? 1 : 0);
	if (f->pk)
		return cvpk_fits(cv, f) && cvpk_cost(cv, f);
	/*
	 * A, B and int32 C of every stack, as staged (rows 16-byte aligned);
	 * each factor is below 2^32, so one stack's bytes fit 64 bits, the
	 * product with the stack count is checked.
	 */
	bytes = (uint64_t)f->m * ops_align_up(k, OPS_ALIGN) +
		(uint64_t)k * ops_align_up(n, OPS_ALIGN) +
		(uint64_t)f->m * ops_align_up((size_t)n * 4, OPS_ALIGN);
	if (__builtin_mul_overflow(bytes, (uint64_t)f->nstack, &bytes) ||
	    bytes > MM_MAX_ARENA)
		return false;
	f->n_desc = 0;
	if (full) {
		struct stack_arg a = { cv->ops, f->m, n, k, 0 };

		ops_cost_seq_repeat(&seq, full, stack_step, &a);
		f->n_desc = full * a.nd;
	}
	if (rem)
		stack_cost(cv->ops, &seq, f->m, rem * f->bh * f->bw * cv->cout_g,
			   rem * patch, &f->n_desc);
	f->cost = seq.total;
	return true;
}

/* Form @bh x @bw, @gs into @f with its cost, if within the search's limits. */
static bool form_of(const struct e1npu_conv *cv, uint32_t bh, uint32_t bw, uint32_t gs,
		    bool pk, struct cv_mm *f)
{
	const struct e1npu_conv_params *p = &cv->p;
	uint64_t ph, pw, patch;

	if (bh < 1 || bh > MM_MAX_BH || bh > cv->out_h || bw < 1 || bw > MM_MAX_BW ||
	    bw > cv->out_w || gs < 1 || gs > cv->groups || gs > MM_MAX_GS)
		return false;
	ph = patch_len(bh, p->stride_h, p->kh, p->dil_h);
	pw = patch_len(bw, p->stride_w, p->kw, p->dil_w);
	if (ph > MM_MAX || pw > MM_MAX)
		return false;
	patch = ph * pw * cv->cin_g;
	if (patch > MM_MAX || gs * patch > MM_MAX)
		return false;
	memset(f, 0, sizeof(*f));
	f->bh = bh;
	f->bw = bw;
	f->gs = gs;
	f->ph = (uint32_t)ph;
	f->pw = (uint32_t)pw;
	f->pk = pk;
	return form_cost(cv, f);
}

bool cvmm_set(struct e1npu_conv *cv, uint32_t bh, uint32_t bw, uint32_t gs, bool pk)
{
	struct cv_mm f;

	if (!form_of(cv, bh, bw, gs, pk, &f))
		return false;
	cv->mm = f;
	return true;
}

bool cvmm_choose(struct e1npu_conv *cv)
{
	const struct e1npu_conv_params *p = &cv->p;
	bool packed = cv->ops->lowering == OPS_LOWERING_PACKED;
	struct cv_mm best = { 0 };
	bool found = false;

	for (uint32_t bh = 1; bh <= MM_MAX_BH && bh <= cv->out_h; bh++)
	for (uint32_t bw = 1; bw <= MM_MAX_BW && bw <= cv->out_w; bw++) {
		uint64_t ph = patch_len(bh, p->stride_h, p->kh, p->dil_h);
		uint64_t pw = patch_len(bw, p->stride_w, p->kw, p->dil_w);
		uint64_t patch;

		/* a stride or dilation near 2^32 makes each far past 2^32: bound first */
		if (ph > MM_MAX || pw > MM_MAX)
			continue;
		patch = ph * pw * cv->cin_g;
		if (patch > MM_MAX)
			continue;
		for (uint32_t gs = 1; gs <= cv->groups && gs <= MM_MAX_GS &&
				      gs * patch <= MM_MAX; gs++)
		for (int pk = 0; pk < 2; pk++) {
			struct cv_mm f = { .bh = bh, .bw = bw, .gs = gs,
					   .ph = (uint32_t)ph, .pw = (uint32_t)pw, .pk = pk };

			if (!form_cost(cv, &f))
				continue;
			/* E1NPU_OPS_LOWERING=packed: the packed variant wherever it fits */
			if (packed && found && best.pk != f.pk) {
				if (f.pk)
					best = f;
				continue;
			}
			if (!found || f.cost < best.cost) {
				best = f;
				found = true;
			}
		}
	}
	if (found)
		cv->mm = best;
	return found;
}

/* The MATMUL form's B of every stack into cv->mm.b (zeroed). */
static void mm_b_fill(const struct e1npu_conv *cv, size_t k, size_t ldb)
{
	const struct e1npu_conv_params *p = &cv->p;
	const struct cv_mm *f = &cv->mm;

	for (uint32_t g = 0; g < cv->groups; g++) {
		uint32_t s = g / f->gs, gi = g % f->gs;
		int8_t *b = f->b + (size_t)s * k * ldb;

		for (uint32_t oy = 0; oy < f->bh; oy++)
		for (uint32_t ox = 0; ox < f->bw; ox++)
		for (uint32_t oj = 0; oj < cv->cout_g; oj++) {
			size_t col = (((size_t)gi * f->bh + oy) * f->bw + ox) * cv->cout_g + oj;
			uint32_t oc = g * cv->cout_g + oj;

			for (uint32_t ky = 0; ky < p->kh; ky++)
			for (uint32_t kx = 0; kx < p->kw; kx++) {
				size_t py = (size_t)gi * f->ph + (size_t)oy * p->stride_h +
					    (size_t)ky * p->dil_h;
				size_t px = (size_t)ox * p->stride_w + (size_t)kx * p->dil_w;

				for (uint32_t ci = 0; ci < cv->cin_g; ci++)
					b[((py * f->pw + px) * cv->cin_g + ci) * ldb + col] =
						cv->w[(((size_t)ky * p->kw + kx) * cv->cin_g + ci) *
						      p->c_out + oc];
			}
		}
	}
}

int cvmm_prepare(struct e1npu_conv *cv)
{
	struct cv_mm *f = &cv->mm;
	size_t k = (size_t)f->gs * f->ph * f->pw * cv->cin_g;
	size_t ldb = ops_align_up((size_t)f->gs * f->bh * f->bw * cv->cout_g, OPS_ALIGN);

	f->b = calloc((size_t)f->nstack * k * ldb, 1);
	if (!f->b)
		return ops_error(cv->ops, -ENOMEM, "%s: out of memory", __func__);
	mm_b_fill(cv, k, ldb);
	if (f->pk) {
		size_t kp = cvpk_k(f);
		int8_t *bp = calloc((size_t)f->nstack * kp * ldb, 1);

		if (!bp)
			return ops_error(cv->ops, -ENOMEM, "%s: out of memory", __func__);
		for (uint32_t s = 0; s < f->nstack; s++)
			cvpk_b_from_mm(cv, f->b + (size_t)s * k * ldb, bp + (size_t)s * kp * ldb,
				       cv->groups - s * f->gs < f->gs ? cv->groups - s * f->gs : f->gs,
				       ldb);
		free(f->b);
		f->b = bp;
	}
	return 0;
}

size_t cvmm_b_bytes(const struct e1npu_conv *cv)
{
	const struct cv_mm *f = &cv->mm;
	size_t k = f->pk ? cvpk_k(f) : (size_t)f->gs * f->ph * f->pw * cv->cin_g;
	size_t ldb = ops_align_up((size_t)f->gs * f->bh * f->bw * cv->cout_g, OPS_ALIGN);

	/* form_cost() bounded each stack's bytes and their product */
	return (size_t)f->nstack * k * ldb;
}

int cvmm_prepare_from(struct e1npu_conv *cv, const void *src, size_t size)
{
	size_t want = cvmm_b_bytes(cv);

	if (size != want)
		return ops_error(cv->ops, -EINVAL,
				 "stored lowering: %zu bytes of MATMUL weights, the form takes %zu",
				 size, want);
	cv->mm.b = malloc(want ? want : 1);
	if (!cv->mm.b)
		return ops_error(cv->ops, -ENOMEM, "%s: out of memory", __func__);
	memcpy(cv->mm.b, src, want);
	return 0;
}

void cvmm_free(struct e1npu_conv *cv)
{
	free(cv->mm.b);
	cv->mm.b = NULL;
}

#if defined(__SSE2__)
/*
 * The 8x8 bytes at @src (rows @ss apart) transposed to @dst (rows @ds
 * apart): three rounds of interleaving, 8-, 16- then 32-bit.
 */
static inline void cv_transpose8x8(const int8_t *src, size_t ss, int8_t *dst, size_t ds)
{
	__m128i r[8], t[4], u[4], v[4];

	for (int k = 0; k < 8; k++)
		r[k] = _mm_loadl_epi64((const __m128i *)(const void *)(src + k * ss));
	for (int k = 0; k < 4; k++)
		t[k] = _mm_unpacklo_epi8(r[2 * k], r[2 * k + 1]);
	u[0] = _mm_unpacklo_epi16(t[0], t[1]);
	u[1] = _mm_unpackhi_epi16(t[0], t[1]);
	u[2] = _mm_unpacklo_epi16(t[2], t[3]);
	u[3] = _mm_unpackhi_epi16(t[2], t[3]);
	v[0] = _mm_unpacklo_epi32(u[0], u[2]);	/* columns 0 and 1 */
	v[1] = _mm_unpackhi_epi32(u[0], u[2]);	/* 2 and 3 */
	v[2] = _mm_unpacklo_epi32(u[1], u[3]);	/* 4 and 5 */
	v[3] = _mm_unpackhi_epi32(u[1], u[3]);	/* 6 and 7 */
	for (int k = 0; k < 4; k++) {
		_mm_storel_epi64((__m128i *)(void *)(dst + 2 * k * ds), v[k]);
		_mm_storel_epi64((__m128i *)(void *)(dst + (2 * k + 1) * ds),
				 _mm_unpackhi_epi64(v[k], v[k]));
	}
}
#endif

/* Channel planes [c][h][w] of the NHWC input, for single-channel groups. */
static int8_t *to_planes(const struct e1npu_conv *cv, const int8_t *x)
{
	const struct e1npu_conv_params *p = &cv->p;
	size_t hw = (size_t)p->in_h * p->in_w;
	int8_t *pl = malloc(hw * p->c_in);

	size_t i = 0;

	if (!pl)
		return NULL;
#if defined(__SSE2__)
	/* 8 pixels x 8 channels at a time: an 8x8 byte transpose in SSE2 */
	if (p->c_in % 8 == 0) {
		for (; i + 8 <= hw; i += 8)
			for (uint32_t c = 0; c < p->c_in; c += 8)
				cv_transpose8x8(x + i * p->c_in + c, p->c_in, pl + c * hw + i, hw);
	}
#endif
	/* 8 pixels at a time: one 8-byte store per plane, not 8 scattered bytes */
	for (; i + 8 <= hw; i += 8)
		for (uint32_t c = 0; c < p->c_in; c++) {
			int8_t b[8];

			for (int k = 0; k < 8; k++)
				b[k] = x[(i + k) * p->c_in + c];
			memcpy(pl + c * hw + i, b, 8);
		}
	for (; i < hw; i++)
		for (uint32_t c = 0; c < p->c_in; c++)
			pl[c * hw + i] = x[i * p->c_in + c];
	return pl;
}

/*
 * One patch row (ky-th row of the patch) of group @g into @dst: pw taps of
 * cin_g bytes starting at input column @ix0 of input row @iy.
 */
static void stage_patch_row(const struct e1npu_conv *cv, const int8_t *x,
			    const int8_t *planes, int8_t *dst, uint32_t g,
			    int64_t iy, int64_t ix0)
{
	const struct e1npu_conv_params *p = &cv->p;
	const uint32_t cg = cv->cin_g, pw = cv->mm.pw;
	const int8_t zx = (int8_t)cv->zx;
	int64_t lo = ix0 < 0 ? -ix0 : 0, hi = (int64_t)p->in_w - ix0;

	if (hi > pw)
		hi = pw;
	if (iy < 0 || iy >= p->in_h || lo >= hi) {
		memset(dst, zx, (size_t)pw * cg);
		return;
	}
	if (lo)
		memset(dst, zx, (size_t)lo * cg);
	if (hi < pw)
		memset(dst + hi * cg, zx, (size_t)(pw - hi) * cg);
	if (planes) {
		/* ix0 + lo >= 0: the first tap inside the image */
		const int8_t *src = planes + ((size_t)g * p->in_h + (size_t)iy) * p->in_w +
				    (size_t)(ix0 + lo);

		int64_t i = 0;

		/* a few bytes per row: 8-byte moves beat a call */
		for (; i + 8 <= hi - lo; i += 8)
			memcpy(dst + lo + i, src + i, 8);
		for (; i < hi - lo; i++)
			dst[lo + i] = src[i];
	} else if (cg == p->c_in) {
		memcpy(dst + lo * cg, x + ((size_t)iy * p->in_w + ix0 + lo) * cg,
		       (size_t)(hi - lo) * cg);
	} else {
		for (int64_t i = lo; i < hi; i++)
			memcpy(dst + i * cg,
			       x + ((size_t)iy * p->in_w + ix0 + i) * p->c_in + (size_t)g * cg,
			       cg);
	}
}

/* dst[q][c] = the int32 at src[c] + q * 4, channels @c0..@c1, pixels @q0.. */
static void transpose_scalar(const uint8_t *const *src, uint32_t c0, uint32_t c1,
			     uint32_t q0, uint32_t np, int32_t *const *dst)
{
	for (uint32_t q = q0; q < np; q++)
		if (dst[q])
			for (uint32_t c = c0; c < c1; c++)
				memcpy(dst[q] + c, src[c] + (size_t)q * 4, 4);
}

#if defined(__SSE2__)
/* Channels c.. of pixels q..: a 4x4 int32 transpose (SSE2: every x86-64). */
static void transpose4(const uint8_t *const *src, uint32_t c, uint32_t q,
		       int32_t *const *dst)
{
	__m128i r0 = _mm_loadu_si128((const __m128i *)(const void *)(src[c] + (size_t)q * 4));
	__m128i r1 = _mm_loadu_si128((const __m128i *)(const void *)(src[c + 1] + (size_t)q * 4));
	__m128i r2 = _mm_loadu_si128((const __m128i *)(const void *)(src[c + 2] + (size_t)q * 4));
	__m128i r3 = _mm_loadu_si128((const __m128i *)(const void *)(src[c + 3] + (size_t)q * 4));
	__m128i t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpackhi_epi32(r0, r1);
	__m128i t2 = _mm_unpacklo_epi32(r2, r3), t3 = _mm_unpackhi_epi32(r2, r3);
	__m128i v[4] = { _mm_unpacklo_epi64(t0, t2), _mm_unpackhi_epi64(t0, t2),
			 _mm_unpacklo_epi64(t1, t3), _mm_unpackhi_epi64(t1, t3) };

	for (int k = 0; k < 4; k++)
		if (dst[q + k])
			_mm_storeu_si128((__m128i *)(void *)(dst[q + k] + c), v[k]);
}
#endif

/* dst[q][c] = src[c][q] for @nch channels of @np pixels. */
static void transpose_block(const uint8_t *const *src, uint32_t nch, uint32_t np,
			    int32_t *const *dst)
{
	uint32_t c = 0;

#if defined(__SSE2__)
	for (; c + 4 <= nch; c += 4) {
		uint32_t q = 0;

		for (; q + 4 <= np; q += 4)
			transpose4(src, c, q, dst);
		transpose_scalar(src, c, c + 4, q, np, dst);
	}
#endif
	transpose_scalar(src, c, nch, 0, np, dst);
}

/*
 * Depthwise: channel ch of block r's pixels is C row r of its stack at
 * its group's columns. Block by block over every stack, so that each
 * block's pixels get all their channels at once (a transpose), rather
 * than one pass over the layer per stack.
 */
static int gather_dw(const struct e1npu_conv *cv, const uint8_t *ar, const size_t *c_off,
		     const size_t *ldc, int32_t *acc)
{
	const struct cv_mm *f = &cv->mm;
	const uint32_t np = f->bh * f->bw, nch = cv->groups, c_out = cv->p.c_out;
	const uint8_t **base = malloc((size_t)nch * 2 * sizeof(*base)), **src;
	int32_t *dst[MM_MAX_BH * MM_MAX_BW];

	if (!base)
		return ops_error(cv->ops, -ENOMEM, "%s: out of memory", __func__);
	src = base + nch;
	for (uint32_t ch = 0; ch < nch; ch++)
		base[ch] = ar + c_off[ch / f->gs] + (size_t)(ch % f->gs) * np * 4;
	for (uint32_t by = 0; by < f->nby; by++)
	for (uint32_t bx = 0; bx < f->nbx; bx++) {
		size_t r = (size_t)by * f->nbx + bx;

		for (uint32_t oy = 0; oy < f->bh; oy++)
		for (uint32_t ox = 0; ox < f->bw; ox++) {
			uint32_t y = by * f->bh + oy, xo = bx * f->bw + ox;

			/* NULL: past the image's edge */
			dst[oy * f->bw + ox] = y < cv->out_h && xo < cv->out_w ?
				acc + ((size_t)y * cv->out_w + xo) * c_out : NULL;
		}
		for (uint32_t ch = 0; ch < nch; ch++)
			src[ch] = base[ch] + r * ldc[ch / f->gs];
		transpose_block(src, nch, np, dst);
	}
	free(base);
	return 0;
}

/* Copy one stack's C rows into the accumulators, [pixel][c_out] (cout_g > 1). */
static void gather_stack(const struct e1npu_conv *cv, const uint8_t *c, size_t ldc,
			 uint32_t g0, uint32_t ng, int32_t *acc)
{
	const struct cv_mm *f = &cv->mm;
	const uint32_t c_out = cv->p.c_out, cg = cv->cout_g;

	for (uint32_t by = 0; by < f->nby; by++)
	for (uint32_t bx = 0; bx < f->nbx; bx++) {
		const uint8_t *row = c + ((size_t)by * f->nbx + bx) * ldc;

		for (uint32_t gi = 0; gi < ng; gi++)
		for (uint32_t oy = 0; oy < f->bh; oy++) {
			uint32_t y = by * f->bh + oy;

			if (y >= cv->out_h)
				break;
			for (uint32_t ox = 0; ox < f->bw; ox++) {
				uint32_t xo = bx * f->bw + ox;
				size_t col = (((size_t)gi * f->bh + oy) * f->bw + ox) * cg;

				int32_t *a = acc + ((size_t)y * cv->out_w + xo) * c_out +
					     (size_t)(g0 + gi) * cg;

				if (xo >= cv->out_w)
					break;
				memcpy(a, row + col * 4, (size_t)cg * 4);
			}
		}
	}
}

int cvmm_run(struct e1npu_conv *cv, const int8_t *x, int32_t *acc,
	     const int32_t *sx, void *out, bool *finished,
	     struct e1npu_ops_report *rep)
{
	const struct e1npu_conv_params *p = &cv->p;
	const struct cv_mm *f = &cv->mm;
	const size_t k = (size_t)f->gs * f->ph * f->pw * cv->cin_g;
	const size_t n = (size_t)f->gs * f->bh * f->bw * cv->cout_g;
	const size_t ldb = ops_align_up(n, OPS_ALIGN);
	const size_t ldc = ops_align_up(n * 4, OPS_ALIGN);
	const size_t kb = f->pk ? cvpk_k(f) : k;
	size_t lda = ops_align_up(k, OPS_ALIGN), a_bytes = (size_t)f->m * lda;
	int8_t *planes = NULL;
	size_t b_off, *a_off, *c_off, *ldcs;
	struct ops_plan pl;
	uint8_t *ar;
	int ret;

	a_off = calloc((size_t)f->nstack * 3, sizeof(size_t));
	if (!a_off)
		return ops_error(cv->ops, -ENOMEM, "%s: out of memory", __func__);
	c_off = a_off + f->nstack;
	ldcs = c_off + f->nstack;
	if (f->pk)
		a_bytes = cvpk_a_bytes(f, NULL);
	if (cv->cin_g == 1 && cv->groups > 1) {
		planes = to_planes(cv, x);
		if (!planes) {
			free(a_off);
			return ops_error(cv->ops, -ENOMEM, "%s: out of memory", __func__);
		}
	}
	ops_plan_init(&pl, cv->ops, rep, p->kind);
	b_off = ops_plan_alloc(&pl, (size_t)f->nstack * kb * ldb);
	for (uint32_t s = 0; s < f->nstack; s++) {
		a_off[s] = ops_plan_alloc(&pl, a_bytes);
		c_off[s] = ops_plan_alloc(&pl, (size_t)f->m * ldc);
	}
	ret = ops_plan_arena(&pl, &ar);
	if (!ret)
		memcpy(ar + b_off, f->b, (size_t)f->nstack * kb * ldb);
	for (uint32_t s = 0; !ret && s < f->nstack; s++) {
		uint32_t g0 = s * f->gs, ng = cv->groups - g0 < f->gs ? cv->groups - g0 : f->gs;
		uint32_t ks = ng * f->ph * f->pw * cv->cin_g, ns = ng * f->bh * f->bw * cv->cout_g;
		struct e1npu_op_desc d;

		ldcs[s] = ldc;
		if (f->pk) {
			/* one CONV2D_S8, its C pixels (blocks) ns int32 apart */
			cvpk_stage(cv, x, planes, (int8_t *)ar + a_off[s], g0, ng);
			cvpk_desc(cv, &d, a_off[s], b_off + s * kb * ldb, c_off[s], ng);
			ldcs[s] = (size_t)ns * 4;
			ret = ops_plan_add(&pl, &d);
			continue;
		}

		/* stage A: row by*nbx+bx, then per group its ph patch rows */
		for (uint32_t by = 0; by < f->nby; by++)
		for (uint32_t bx = 0; bx < f->nbx; bx++) {
			int8_t *row = (int8_t *)ar + a_off[s] + ((size_t)by * f->nbx + bx) * lda;
			int64_t iy0 = (int64_t)by * f->bh * p->stride_h - cv->pt;
			int64_t ix0 = (int64_t)bx * f->bw * p->stride_w - cv->pl;

			for (uint32_t gi = 0; gi < ng; gi++)
				for (uint32_t py = 0; py < f->ph; py++)
					stage_patch_row(cv, x, planes,
							row + ((size_t)gi * f->ph + py) * f->pw *
							cv->cin_g, g0 + gi, iy0 + py, ix0);
		}
		for (uint32_t r0 = 0; !ret && r0 < f->m; r0 += MM_MAX)
		for (uint32_t c0 = 0; !ret && c0 < ns; c0 += MM_MAX) {
			e1npu_op_desc_matmul(&d, ops_t(a_off[s] + r0 * lda, (uint32_t)lda),
					     ops_t(b_off + s * k * ldb + c0, (uint32_t)ldb),
					     ops_t(c_off[s] + r0 * ldc + (size_t)c0 * 4, (uint32_t)ldc),
					     f->m - r0 < MM_MAX ? f->m - r0 : MM_MAX,
					     ns - c0 < MM_MAX ? ns - c0 : MM_MAX, ks, 0);
			ret = ops_plan_add(&pl, &d);
		}
	}
	free(planes);
	if (!ret)
		ret = ops_plan_run(&pl);
	*finished = false;
	if (!ret && out && f->nstack == 1 && f->bh == 1 && f->bw == 1) {
		int64_t t = ops_now_ns();

		/* row by * nbx + bx is pixel (by, bx), its c_out columns in order */
		cv_finish_rows(cv, ar + c_off[0], ldc, sx, out);
		*finished = true;
		if (rep)
			rep->host_ns += (uint64_t)(ops_now_ns() - t);
	} else if (!ret) {
		int64_t t = ops_now_ns();

		if (cv->cout_g == 1)
			ret = gather_dw(cv, ar, c_off, ldcs, acc);
		for (uint32_t s = 0; cv->cout_g > 1 && s < f->nstack; s++) {
			uint32_t g0 = s * f->gs;

			gather_stack(cv, ar + c_off[s], ldc, g0,
				     cv->groups - g0 < f->gs ? cv->groups - g0 : f->gs, acc);
		}
		if (rep)
			rep->host_ns += (uint64_t)(ops_now_ns() - t);
	}
	ops_plan_fini(&pl);
	free(a_off);
	return ret;
}
