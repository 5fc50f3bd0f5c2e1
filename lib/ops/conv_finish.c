// SPDX-License-Identifier: MIT
/*
 * The host's side of a convolution's outputs, for both forms (conv.c,
 * conv_mm.c): the fold of the weight and input zero points and the bias
 * into the hardware's int32 sums, and the requantization to the output
 * type, per output pixel. Interior pixels (every tap in the image) take
 * the precomputed full-window fold; border pixels subtract what their
 * out-of-image taps added.
 */
#include <stdint.h>
#include <string.h>

#include "conv_internal.h"
#include "qcommon.h"

/* acc[i] = acc[i] - zw * sx[group of i] + fold[i] (int32 wrap-around). */
CV_VEC
static void cv_fold_px(const struct e1npu_conv *cv, int32_t *acc, const int32_t *sx)
{
	const int32_t *fold = cv->fold;
	uint32_t c_out = cv->p.c_out;
	int32_t zw = cv->zw;

	if (!zw) {	/* sx is not computed then */
		for (uint32_t i = 0; i < c_out; i++)
			acc[i] = (int32_t)((uint32_t)acc[i] + (uint32_t)fold[i]);
	} else if (cv->cout_g == 1) {
		for (uint32_t i = 0; i < c_out; i++)
			acc[i] = (int32_t)((uint32_t)acc[i] - (uint32_t)zw * (uint32_t)sx[i] +
					   (uint32_t)fold[i]);
	} else {
		for (uint32_t g = 0, oc = 0; g < cv->groups; g++, oc += cv->cout_g) {
			uint32_t corr = (uint32_t)zw * (uint32_t)sx[g];

			for (uint32_t j = 0; j < cv->cout_g; j++)
				acc[oc + j] = (int32_t)((uint32_t)acc[oc + j] - corr +
							(uint32_t)fold[oc + j]);
		}
	}
}

/*
 * cv_fold_px and the gemmlowp requantization in one pass over the pixel's
 * accumulators (no sx term when the weight zero point is 0).
 */
static void cv_fold_requant(const struct e1npu_conv *cv, const int32_t *acc,
			    const int32_t *sx, uint8_t *out)
{
	const struct e1npu_conv_params *p = &cv->p;
	const int32_t zp = p->output.zero_point, zw = cv->zw;
	const uint32_t cg = cv->cout_g;

	if (cg == 1) {
		e1q_requant_bytes_fold(acc, cv->fold, 0, zw ? sx : NULL, zw, cv->mult, cv->shift,
				       zp, cv->lo, cv->hi, p->c_out, out);
		return;
	}
	for (uint32_t g = 0, oc = 0; g < cv->groups; g++, oc += cg)
		e1q_requant_bytes_fold(acc + oc, cv->fold + oc,
				       zw ? (int32_t)((uint32_t)zw * (uint32_t)sx[g]) : 0, NULL, 0,
				       cv->mult + oc, cv->shift + oc, zp, cv->lo, cv->hi, cg,
				       out + oc);
}

/*
 * One pixel whose window lies inside the image: every tap valid, so the
 * fold is the precomputed full-window one (the common case, kept free of
 * per-element branches and divisions). @acc is the pixel's accumulators,
 * folded in place.
 */
static void cv_finish_inner(const struct e1npu_conv *cv, int32_t *acc,
			    const int32_t *sx, void *out, size_t o)
{
	const struct e1npu_conv_params *p = &cv->p;

	if (p->rounding == E1NPU_ROUNDING_GEMMLOWP) {
		cv_fold_requant(cv, acc, sx, (uint8_t *)out + o);
		return;
	}
	cv_fold_px(cv, acc, sx);
	e1q_requant_bytes_for(p->rounding)(acc, cv->mult, cv->shift, p->output.zero_point, cv->lo, cv->hi,
			  p->c_out, (uint8_t *)out + o);
}

/*
 * acc[oc] += fold[oc] - pad + zx * (the sum of the out-of-image taps' weight
 * sums), over all channels at once: tapsum is [tap][c_out], so each tap
 * is one contiguous (vectorized) pass. uint32: the accumulators wrap, and
 * zx * a sum is the sum of zx * each term modulo 2^32.
 */
CV_VEC
static void cv_border_fold(int32_t *restrict acc, const int32_t *restrict fold,
			   const int32_t *restrict tapsum, const uint8_t *inv, uint32_t ninv,
			   uint32_t c_out, uint32_t zx, uint32_t pad)
{
	for (uint32_t oc = 0; oc < c_out; oc++)
		acc[oc] = (int32_t)((uint32_t)acc[oc] + (uint32_t)fold[oc] - pad);
	for (uint32_t k = 0; k < ninv; k++) {
		const int32_t *restrict ts = tapsum + (size_t)inv[k] * c_out;

		for (uint32_t oc = 0; oc < c_out; oc++)
			acc[oc] = (int32_t)((uint32_t)acc[oc] + zx * (uint32_t)ts[oc]);
	}
}

/*
 * One pixel whose window has the @ninv out-of-image taps @inv (indices
 * 0..255: 256 taps at most): the full-window fold with their
 * terms swapped out (TFLite skips them), folded in place, then requantized
 * as one row. uint32: the int32 accumulators wrap, never overflow.
 */
static void cv_finish_border(const struct e1npu_conv *cv, int32_t *acc, const int32_t *sx,
			     const uint8_t *inv, uint32_t ninv, uint8_t *out)
{
	const struct e1npu_conv_params *p = &cv->p;
	/* nvalid zx zw of the fold, for the valid taps only */
	const uint32_t pad = (uint32_t)e1q_wrap32((int64_t)ninv * cv->cin_g * cv->zx * cv->zw);

	cv_border_fold(acc, cv->fold, cv->tapsum, inv, ninv, p->c_out, (uint32_t)cv->zx, pad);
	if (cv->zw)
		for (uint32_t g = 0, oc = 0; g < cv->groups; g++) {
			uint32_t corr = (uint32_t)cv->zw * (uint32_t)sx[g];

			for (uint32_t j = 0; j < cv->cout_g; j++, oc++)
				acc[oc] = (int32_t)((uint32_t)acc[oc] - corr);
		}
	e1q_requant_bytes_for(p->rounding)(acc, cv->mult, cv->shift, p->output.zero_point,
					   cv->lo, cv->hi, p->c_out, out);
}

/* Whether output row @oy's / column @ox's windows lie inside the image. */
static bool cv_inside_y(const struct e1npu_conv *cv, uint32_t oy)
{
	int64_t iy0 = (int64_t)oy * cv->p.stride_h - cv->pt;

	return iy0 >= 0 && iy0 + (int64_t)(cv->p.kh - 1) * cv->p.dil_h < cv->p.in_h;
}

static bool cv_inside_x(const struct e1npu_conv *cv, uint32_t ox)
{
	int64_t ix0 = (int64_t)ox * cv->p.stride_w - cv->pl;

	return ix0 >= 0 && ix0 + (int64_t)(cv->p.kw - 1) * cv->p.dil_w < cv->p.in_w;
}

/*
 * The fold and requantization as one e1q_requant_fold_pixels call over a
 * run of interior pixels, when the layer's sums have that layout (one per
 * channel, or one per pixel) and the rounding is gemmlowp's.
 */
static bool cv_fold_args(const struct e1npu_conv *cv, struct e1q_fold *f)
{
	const struct e1npu_conv_params *p = &cv->p;

	if (p->rounding != E1NPU_ROUNDING_GEMMLOWP || (cv->cout_g != 1 && cv->groups != 1))
		return false;
	*f = (struct e1q_fold){
		.fold = cv->fold, .mult = cv->mult, .shift = cv->shift, .zw = cv->zw,
		.zp = p->output.zero_point, .lo = cv->lo, .hi = cv->hi, .c = p->c_out,
		.sx_px = cv->cout_g != 1,
	};
	return true;
}

/* Fold + requantization of output pixel (@oy, @ox) from its accumulators @a. */
static void cv_finish_px(const struct e1npu_conv *cv, int32_t *a, uint32_t oy, uint32_t ox,
			 const int32_t *sx, void *out)
{
	const struct e1npu_conv_params *p = &cv->p;
	int64_t iy0 = (int64_t)oy * p->stride_h - cv->pt;
	int64_t ix0 = (int64_t)ox * p->stride_w - cv->pl;
	size_t px = (size_t)oy * cv->out_w + ox;
	uint32_t ninv = 0;
	uint8_t inv[256];

	if (iy0 >= 0 && iy0 + (int64_t)(p->kh - 1) * p->dil_h < p->in_h &&
	    ix0 >= 0 && ix0 + (int64_t)(p->kw - 1) * p->dil_w < p->in_w) {
		/* the window inside the image (the common case): no tap to list */
		cv_finish_inner(cv, a, sx + px * cv->groups, out, px * p->c_out);
		return;
	}
	for (uint32_t ky = 0; ky < p->kh; ky++)
		for (uint32_t kx = 0; kx < p->kw; kx++) {
			int64_t iy = iy0 + (int64_t)ky * p->dil_h;
			int64_t ix = ix0 + (int64_t)kx * p->dil_w;

			if (!(iy >= 0 && ix >= 0 && iy < p->in_h && ix < p->in_w))
				inv[ninv++] = (uint8_t)(ky * p->kw + kx);
		}
	cv_finish_border(cv, a, sx + px * cv->groups, inv, ninv, (uint8_t *)out + px * p->c_out);
}

void cv_finish_rows(const struct e1npu_conv *cv, uint8_t *c, size_t ldc,
		    const int32_t *sx, void *out)
{
	size_t npx = (size_t)cv->out_h * cv->out_w;
	struct e1q_fold f;

	if (ldc == (size_t)cv->p.c_out * 4 && cv_fold_args(cv, &f)) {
		e1q_requant_fold_pixels((const int32_t *)(void *)c, cv->zw ? sx : NULL, &f, npx,
					out);
		return;
	}

	/* the MATMUL form staged padding at the zero point: every window is full */
	for (size_t i = 0; i < npx; i++)
		cv_finish_inner(cv, (int32_t *)(void *)(c + i * ldc), sx + i * cv->groups, out,
				i * cv->p.c_out);
}

/* Host-side fold + requantization of the layer's accumulators. */
void cv_finish(const struct e1npu_conv *cv, int32_t *acc,
		      const int32_t *sx, void *out)
{
	uint64_t row = (uint64_t)cv->out_w * cv->p.c_out * 4;

	if (row <= UINT32_MAX) {
		cv_finish_patch(cv, (uint8_t *)acc, (uint32_t)row, 0, 0, cv->out_h, cv->out_w, sx,
				out);
		return;
	}
	for (uint32_t oy = 0; oy < cv->out_h; oy++)
		for (uint32_t ox = 0; ox < cv->out_w; ox++)
			cv_finish_px(cv, acc + ((size_t)oy * cv->out_w + ox) * cv->p.c_out, oy, ox,
				     sx, out);
}

/* cv_finish of the @th x @tw pixels from (@oy0, @ox0) of one patch. */
void cv_finish_patch(const struct e1npu_conv *cv, uint8_t *src, uint32_t stride,
			    uint32_t oy0, uint32_t ox0, uint32_t th, uint32_t tw,
			    const int32_t *sx, void *out)
{
	const size_t c = cv->p.c_out;
	struct e1q_fold f;
	bool batch = cv_fold_args(cv, &f);

	for (uint32_t yy = 0; yy < th; yy++) {
		const bool in_y = batch && cv_inside_y(cv, oy0 + yy);

		for (uint32_t xx = 0; xx < tw;) {
			int32_t *a = (int32_t *)(void *)(src + (size_t)yy * stride + xx * c * 4);
			size_t px = (size_t)(oy0 + yy) * cv->out_w + ox0 + xx;
			uint32_t n = 0;

			/* a run of interior pixels: one call */
			while (in_y && xx + n < tw && cv_inside_x(cv, ox0 + xx + n))
				n++;
			if (n) {
				e1q_requant_fold_pixels(a, cv->zw ? sx + px * cv->groups : NULL,
							&f, n, (uint8_t *)out + px * c);
				xx += n;
				continue;
			}
			cv_finish_px(cv, a, oy0 + yy, ox0 + xx, sx, out);
			xx++;
		}
	}
}
