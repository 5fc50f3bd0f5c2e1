// SPDX-License-Identifier: MIT
/*
 * The CONV2D_S8 form's output tiles (conv_internal.h): the fewest the
 * 256-pixel limit allows, each tile's input window, the form's modelled
 * cycles block by block and tile by tile, the search over tile counts and
 * the check of a stored tiling.
 */
#include <errno.h>

#include "conv_internal.h"
#include "cost.h"

/* Largest output tile along one axis whose input span fits 256 rows. */
static uint32_t tile_len(uint32_t out, uint32_t stride, uint32_t k, uint32_t dil)
{
	uint32_t span = (k - 1) * dil + 1, t;

	if (span > CV_HW_MAX)
		return 0;
	t = (CV_HW_MAX - span) / stride + 1;
	if (t > CV_HW_MAX)
		t = CV_HW_MAX;
	/* balance the tiles */
	if (out > t) {
		uint32_t n = (out + t - 1) / t;

		t = (out + n - 1) / n;
	}
	return t < out ? t : out;
}

void cv_tile_geo(const struct e1npu_conv *cv, uint32_t oy0, uint32_t ox0,
		 uint32_t th, uint32_t tw, struct cv_tile *tl)
{
	const struct e1npu_conv_params *p = &cv->p;
	int64_t ys = (int64_t)oy0 * p->stride_h - cv->pt;
	int64_t xs = (int64_t)ox0 * p->stride_w - cv->pl;
	uint32_t h = cv->out_h - oy0 < th ? cv->out_h - oy0 : th;
	uint32_t w = cv->out_w - ox0 < tw ? cv->out_w - ox0 : tw;
	int64_t ye = ((int64_t)oy0 + h - 1) * p->stride_h - cv->pt +
		     (int64_t)(p->kh - 1) * p->dil_h;
	int64_t xe = ((int64_t)ox0 + w - 1) * p->stride_w - cv->pl +
		     (int64_t)(p->kw - 1) * p->dil_w;
	uint32_t r1 = ye >= p->in_h ? p->in_h - 1 : (uint32_t)ye;
	uint32_t c1 = xe >= p->in_w ? p->in_w - 1 : (uint32_t)xe;

	tl->h = h;
	tl->w = w;
	tl->r0 = ys < 0 ? 0 : (uint32_t)ys;
	tl->c0 = xs < 0 ? 0 : (uint32_t)xs;
	tl->ih = r1 - tl->r0 + 1;
	tl->iw = c1 - tl->c0 + 1;
	tl->ptop = ys < 0 ? (uint32_t)-ys : 0;
	tl->pleft = xs < 0 ? (uint32_t)-xs : 0;
}

/* The fewest output tiles per axis (the largest the 256 limit allows). */
void cv_min_tiles(const struct e1npu_conv *cv, uint32_t *nh, uint32_t *nw)
{
	const struct e1npu_conv_params *p = &cv->p;
	uint32_t th = tile_len(cv->out_h, p->stride_h, cv->ksize, p->kh > 1 ? p->dil_h : 1);
	uint32_t tw = tile_len(cv->out_w, p->stride_w, cv->ksize, p->kw > 1 ? p->dil_w : 1);

	*nh = (cv->out_h + th - 1) / th;
	*nw = (cv->out_w + tw - 1) / tw;
}

/* The output tile: the output split evenly into tiles_h x tiles_w. */
void cv_tiles(const struct e1npu_conv *cv, uint32_t *th, uint32_t *tw)
{
	uint32_t nh, nw;

	cv_min_tiles(cv, &nh, &nw);
	if (cv->tiles_h)
		nh = cv->tiles_h;
	if (cv->tiles_w)
		nw = cv->tiles_w;
	*th = (cv->out_h + nh - 1) / nh;
	*tw = (cv->out_w + nw - 1) / nw;
}

struct cv_cost_arg {
	const struct e1npu_conv *cv;
	const struct cv_block *b;
	uint32_t th, tw;
};

/* One block's descriptors, tile by tile, as e1npu_conv_run emits them. */
static void cv_block_cost(void *arg, struct ops_cost_seq *seq)
{
	const struct cv_cost_arg *a = arg;
	const struct e1npu_conv *cv = a->cv;

	for (uint32_t oy0 = 0; oy0 < cv->out_h; oy0 += a->th)
	for (uint32_t ox0 = 0; ox0 < cv->out_w; ox0 += a->tw) {
		struct cv_tile tl;

		cv_tile_geo(cv, oy0, ox0, a->th, a->tw, &tl);
		ops_cost_seq_conv(cv->ops, seq, tl.ih, tl.iw, a->b->cin_b,
				  a->b->cols, cv->ksize, tl.h, tl.w);
	}
}

/*
 * Modelled cycles of the CONV2D_S8 form: one descriptor per block and
 * tile; a run of blocks of the same shape is counted, not walked.
 */
uint64_t cv_conv2d_cost(const struct e1npu_conv *cv)
{
	struct ops_cost_seq seq = { 0 };
	struct cv_cost_arg a = { .cv = cv };
	uint32_t b = 0;

	cv_tiles(cv, &a.th, &a.tw);
	while (b < cv->nblk) {
		uint32_t n = 1;

		while (b + n < cv->nblk && cv->blk[b + n].cin_b == cv->blk[b].cin_b &&
		       cv->blk[b + n].cols == cv->blk[b].cols)
			n++;
		a.b = &cv->blk[b];
		ops_cost_seq_repeat(&seq, n, cv_block_cost, &a);
		b += n;
	}
	return seq.total;
}

/*
 * The CONV2D_S8 form's tiling: from the fewest tiles up to CV_SPLIT_H
 * more rows and CV_SPLIT_W more columns of tiles, the cheapest by the
 * cost model (the first lowering keeps the fewest); at most 255 per axis
 * (a stored lowering keeps each in a byte).
 */
#define CV_SPLIT_H	8u
#define CV_SPLIT_W	4u

void cv_choose_tiles(struct e1npu_conv *cv)
{
	uint32_t nh0, nw0, best_h = 0, best_w = 0, last_th = 0;
	uint64_t best;

	cv->tiles_h = cv->tiles_w = 0;
	best = cv->conv2d_cost = cv_conv2d_cost(cv);
	if (cv->ops->lowering == OPS_LOWERING_FIRST)
		return;
	cv_min_tiles(cv, &nh0, &nw0);
	for (uint32_t nh = nh0; nh <= cv->out_h && nh <= 255 && nh < nh0 + CV_SPLIT_H; nh++) {
		uint32_t th = (cv->out_h + nh - 1) / nh, last_tw = 0;

		if (th == last_th)	/* the same tiles as a smaller count */
			continue;
		last_th = th;
		for (uint32_t nw = nw0; nw <= cv->out_w && nw <= 255 && nw < nw0 + CV_SPLIT_W; nw++) {
			uint32_t tw = (cv->out_w + nw - 1) / nw;
			uint64_t c;

			if (tw == last_tw || (nh == nh0 && nw == nw0))
				continue;
			last_tw = tw;
			cv->tiles_h = nh;
			cv->tiles_w = nw;
			c = cv_conv2d_cost(cv);
			if (c < best) {
				best = c;
				best_h = nh;
				best_w = nw;
			}
		}
	}
	cv->tiles_h = best_h;
	cv->tiles_w = best_w;
	cv->conv2d_cost = best;
}

/*
 * Output channels per block after @halvings halvings of the group's
 * outputs (each rounded up to whole array columns, from above 16), or 0
 * when it cannot be halved that often; 0 halvings: 0 (up to 512).
 */
uint32_t cv_oc_split_of(const struct e1npu_conv *cv, uint32_t halvings)
{
	uint32_t s = cv->cout_g;

	if (!halvings)
		return 0;
	while (halvings--) {
		if (s <= CV_COLS)
			return 0;
		s = (s / 2 + CV_COLS - 1) / CV_COLS * CV_COLS;
	}
	return s;
}

/*
 * A stored CONV2D_S8 tiling: @nh x @nw tiles (0: the fewest), each count
 * between the fewest and the search's most, as cv_choose_tiles() could
 * have picked.
 */
int cv_take_tiles(struct e1npu_conv *cv, uint32_t nh, uint32_t nw)
{
	uint32_t nh0, nw0;

	cv_min_tiles(cv, &nh0, &nw0);
	if ((nh && (nh < nh0 || nh > cv->out_h || nh >= nh0 + CV_SPLIT_H)) ||
	    (nw && (nw < nw0 || nw > cv->out_w || nw >= nw0 + CV_SPLIT_W)))
		return ops_error(cv->ops, -EINVAL,
				 "stored lowering: CONV2D_S8 form in %ux%u output tiles, this %ux%u output takes %u..%u x %u..%u",
				 nh, nw, cv->out_h, cv->out_w, nh0,
				 cv->out_h < nh0 + CV_SPLIT_H - 1 ? cv->out_h : nh0 + CV_SPLIT_H - 1, nw0,
				 cv->out_w < nw0 + CV_SPLIT_W - 1 ? cv->out_w : nw0 + CV_SPLIT_W - 1);
	cv->tiles_h = nh;
	cv->tiles_w = nw;
	cv->conv2d_cost = cv_conv2d_cost(cv);
	return 0;
}
