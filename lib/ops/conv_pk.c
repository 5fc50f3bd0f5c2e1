// SPDX-License-Identifier: MIT
/*
 * The pixel-packed variant of the patch-Toeplitz form (conv_internal.h,
 * struct cv_mm, pk). The MATMUL form moves each block's patch: a 4x4
 * block of a depthwise 3x3 takes 36 staged bytes for 16 outputs. Packed
 * 2x2 pixels per channel, a 3x3 window at stride 2 covers exactly that
 * 6x6 patch, so one CONV2D_S8 output pixel is one block: the hardware
 * expands the patches on chip and the DMA moves the raw input once
 * (about one byte per output). B is the MATMUL form's, rows reordered to
 * the window's [kh][kw][channel] order; the C layout (one pixel per
 * block, its bh * bw outputs in order) is the MATMUL form's C row.
 *
 * A block two outputs high (or wide) packs one pixel on that axis, and a
 * window of 3 at stride 2 covers 3 of its 4 patch rows: there the window
 * is 5x5 (the contract's next kernel; its last row or column, past the
 * patch, has zero weights). A 2x2 block of 4 stacked channels is K = 100,
 * N = 16: 7/16 cycle per output against 9/16 for the block-diagonal
 * CONV2D form, with the raw input moved once as well, the stride-1 phase
 * split of each channel into its four 2x2 positions.
 */
#include <string.h>

#include "conv_internal.h"
#include "cost.h"

#define PK_MAX_ARENA	(64u << 20)	/* as the MATMUL form's */

static size_t pk_cin(const struct cv_mm *f, uint32_t ng)
{
	return (size_t)f->pq * f->pp * ng;
}

/* The window: 3 covers 2 * pq + 2 patch rows from pq = 2 on, else 5. */
static uint32_t pk_ksize(uint32_t pq, uint32_t pp)
{
	return pq < 2 || pp < 2 ? 5 : 3;
}

/* Packed input rows (columns) for @nb blocks: the windows at stride 2. */
static uint64_t pk_in_len(const struct cv_mm *f, uint32_t nb)
{
	return 2 * (uint64_t)nb + f->pk_k - 2;
}

bool cvpk_fits(const struct e1npu_conv *cv, struct cv_mm *f)
{
	const struct e1npu_conv_params *p = &cv->p;

	if (!cv->ksize || cv->cin_g != 1 || cv->cout_g != 1 || p->kh != 3 || p->kw != 3 ||
	    p->stride_h != 1 || p->stride_w != 1 || p->dil_h > 1 || p->dil_w > 1)
		return false;
	if (f->bh < 2 || f->bw < 2 || f->bh % 2 || f->bw % 2)
		return false;
	f->pq = f->bh / 2;
	f->pp = f->bw / 2;
	f->pk_k = pk_ksize(f->pq, f->pp);
	/* packed input 2 * blocks + k - 2 per axis, the output one pixel per block */
	if (pk_in_len(f, f->nby) > CV_HW_MAX || pk_in_len(f, f->nbx) > CV_HW_MAX)
		return false;
	if (pk_cin(f, f->gs) > CV_C_MAX || (uint64_t)f->bh * f->bw * f->gs > CV_C_MAX)
		return false;
	f->pk = true;
	return true;
}

size_t cvpk_k(const struct cv_mm *f)
{
	return (size_t)f->pk_k * f->pk_k * pk_cin(f, f->gs);
}

size_t cvpk_a_bytes(const struct cv_mm *f, size_t *lda)
{
	size_t l = ops_align_up((size_t)pk_in_len(f, f->nbx) * pk_cin(f, f->gs), OPS_ALIGN);

	if (lda)
		*lda = l;
	return (size_t)pk_in_len(f, f->nby) * l;
}

/* One stack of @ng groups as the device model prices its CONV2D_S8. */
static void stack_cost(const struct e1npu_conv *cv, const struct cv_mm *f,
		       struct ops_cost_seq *seq, uint32_t ng)
{
	ops_cost_seq_conv(cv->ops, seq, (uint32_t)pk_in_len(f, f->nby),
			  (uint32_t)pk_in_len(f, f->nbx), (uint32_t)pk_cin(f, ng),
			  f->bh * f->bw * ng, f->pk_k, f->nby, f->nbx);
}

struct pk_arg {
	const struct e1npu_conv *cv;
	const struct cv_mm *f;
};

static void pk_step(void *arg, struct ops_cost_seq *seq)
{
	const struct pk_arg *a = arg;

	stack_cost(a->cv, a->f, seq, a->f->gs);
}

bool cvpk_cost(const struct e1npu_conv *cv, struct cv_mm *f)
{
	uint32_t full = cv->groups / f->gs, rem = cv->groups % f->gs;
	size_t n = (size_t)f->gs * f->bh * f->bw;
	struct ops_cost_seq seq = { 0 };
	struct pk_arg a = { cv, f };
	uint64_t bytes;

	/* A, B and int32 C of a stack; every factor is small (fits checked) */
	bytes = cvpk_a_bytes(f, NULL) + cvpk_k(f) * ops_align_up(n, OPS_ALIGN) +
		(uint64_t)f->m * ops_align_up(n * 4, OPS_ALIGN);
	if (__builtin_mul_overflow(bytes, (uint64_t)f->nstack, &bytes) ||
	    bytes > PK_MAX_ARENA)
		return false;
	ops_cost_seq_repeat(&seq, full, pk_step, &a);
	if (rem)
		stack_cost(cv, f, &seq, rem);
	f->n_desc = f->nstack;
	f->cost = seq.total;
	return true;
}

void cvpk_b_from_mm(const struct e1npu_conv *cv, const int8_t *bmm, int8_t *dst,
		    uint32_t ng, size_t ldb)
{
	const struct cv_mm *f = &cv->mm;
	const size_t cin = pk_cin(f, ng);
	const uint32_t k = f->pk_k;

	for (uint32_t kh = 0; kh < k; kh++)
	for (uint32_t kw = 0; kw < k; kw++)
	for (uint32_t gi = 0; gi < ng; gi++)
	for (uint32_t dy = 0; dy < f->pq; dy++)
	for (uint32_t dx = 0; dx < f->pp; dx++) {
		uint32_t py = kh * f->pq + dy, px = kw * f->pp + dx;
		size_t row = (kh * k + kw) * cin + ((size_t)gi * f->pq + dy) * f->pp + dx;

		/* past the patch (blocks above 4x4, a 5x5 window): no output reads it, rows stay 0 */
		if (py < f->ph && px < f->pw)
			memcpy(dst + row * ldb,
			       bmm + (((size_t)gi * f->ph + py) * f->pw + px) * ldb, ldb);
	}
}

/*
 * One packed row: for each of @pin_w packed pixels j, the @pp input pixels
 * from j * pp - @pl of @src (@in_w long) to @d + j * @cin, out-of-image
 * ones at the zero point @zx (as the MATMUL form). The pixels whose whole
 * run lies inside the row are copied without a test per byte.
 */
static void pk_stage_row(int8_t *d, size_t cin, const int8_t *src, uint32_t in_w, uint32_t pp,
			 uint32_t pl, size_t pin_w, int8_t zx)
{
	/* inside: j * pp >= pl and j * pp + pp - pl <= in_w */
	size_t ja = (pl + pp - 1) / pp, jb = in_w + pl >= pp ? (in_w + pl - pp) / pp + 1 : 0;

	if (jb > pin_w)
		jb = pin_w;
	if (ja > jb)
		ja = jb;
	for (size_t j = 0; j < pin_w; j++) {
		if (j == ja && pp == 1) {
			for (; j < jb; j++)
				d[j * cin] = src[j - pl];
		} else if (j == ja && pp == 2) {
			for (; j < jb; j++)
				memcpy(d + j * cin, src + j * 2 - pl, 2);
		} else if (j == ja) {
			for (; j < jb; j++)
				memcpy(d + j * cin, src + j * pp - pl, pp);
		}
		if (j >= pin_w)
			break;
		for (uint32_t dx = 0; dx < pp; dx++) {
			int64_t ix = (int64_t)j * pp + dx - pl;

			d[j * cin + dx] = ix >= 0 && ix < in_w ? src[ix] : zx;
		}
	}
}

void cvpk_stage(const struct e1npu_conv *cv, const int8_t *x, const int8_t *planes,
		int8_t *dst, uint32_t g0, uint32_t ng)
{
	const struct e1npu_conv_params *p = &cv->p;
	const struct cv_mm *f = &cv->mm;
	const size_t cin = pk_cin(f, ng), pin_w = (size_t)pk_in_len(f, f->nbx);
	const size_t hw = (size_t)p->in_h * p->in_w;
	const int8_t zx = (int8_t)cv->zx;
	size_t lda;
	uint32_t pin_h = (uint32_t)pk_in_len(f, f->nby);

	cvpk_a_bytes(f, &lda);
	for (uint32_t gi = 0; gi < ng; gi++) {
		const int8_t *pl = planes ? planes + (size_t)(g0 + gi) * hw : x;

		for (uint32_t i = 0; i < pin_h; i++)
		for (uint32_t dy = 0; dy < f->pq; dy++) {
			int64_t iy = (int64_t)i * f->pq + dy - cv->pt;
			int8_t *d = dst + i * lda + ((size_t)gi * f->pq + dy) * f->pp;
			bool row_in = iy >= 0 && iy < p->in_h;
			const int8_t *src = row_in ? pl + (size_t)iy * p->in_w : NULL;

			if (row_in)
				pk_stage_row(d, cin, src, p->in_w, f->pp, cv->pl, pin_w, zx);
			else
				for (size_t j = 0; j < pin_w; j++)
					memset(d + j * cin, zx, f->pp);
		}
	}
}

void cvpk_desc(const struct e1npu_conv *cv, struct e1npu_op_desc *d, size_t a_off,
	       size_t b_off, size_t c_off, uint32_t ng)
{
	const struct cv_mm *f = &cv->mm;
	const uint32_t ns = f->bh * f->bw * ng;
	size_t lda, ldb = ops_align_up((size_t)f->gs * f->bh * f->bw, OPS_ALIGN);

	cvpk_a_bytes(f, &lda);
	e1npu_op_desc_conv2d(d, ops_t(a_off, (uint32_t)lda), ops_t(b_off, (uint32_t)ldb),
			     ops_t(c_off, f->nbx * ns * 4), (uint32_t)pk_in_len(f, f->nby),
			     (uint32_t)pk_in_len(f, f->nbx), (uint32_t)pk_cin(f, ng), ns, f->pk_k,
			     f->nby, f->nbx, 2, 2, 0, 0, 1, 0);
}
