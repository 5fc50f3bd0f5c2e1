// SPDX-License-Identifier: MIT
/*
 * TFLite CONV_2D, grouped conv and DEPTHWISE_CONV_2D lowered onto the
 * wrapper, in one of two forms chosen per layer by modelled cycles
 * (cost.h; the choice and both costs go into the report):
 * - CONV2D_S8 (here): the groups are packed into block-diagonal hardware
 *   convolutions of up to 16 output columns (the systolic array width);
 *   kernels are embedded in the next hardware size (1, 3, 5). Each call
 *   stages the input of every (block, spatial tile) patch (int8, rows
 *   16-byte aligned, halo rows included) and emits one CONV2D_S8 per patch
 *   with the tile's own top/left padding (the hardware reads zeros
 *   outside the image);
 * - patch-Toeplitz MATMUL_S8s (conv_mm.c): depthwise blocks of outputs and
 *   1x1 convolutions as matrix products, out-of-image taps staged as the
 *   input zero point.
 * uint8 weights move to int8; per-tap weight sums, the folded bias and the
 * multipliers are computed once. When the weight zero point is non-zero
 * (uint8 models) the input window sums the correction needs are computed
 * on the host from the staged int8 input (no array columns spent on them).
 * The host then folds, per output pixel:
 *   acc = hw - zw' * sx - zx' * sum(valid taps of w') + nvalid zx' zw' + bias
 * (TFLite pads with the zero point, i.e. skips the out-of-image taps).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conv_choice.h"
#include "conv_internal.h"
#include "cost.h"
#include "e1npu_hw.h"
#include "qcommon.h"
#include "reserved.h"
#include "select.h"

#define CV_PAD_MAX	15u	/* 4-bit pad fields */

static uint32_t hw_ksize(uint32_t kh, uint32_t kw)
{
	uint32_t k = kh > kw ? kh : kw;

	return k <= 1 ? 1 : k <= 3 ? 3 : k <= 5 ? 5 : 0;
}

static int build_blocks(struct e1npu_conv *cv)
{
	uint32_t G = cv->groups, cin_g = cv->cin_g, cout_g = cv->cout_g;
	bool first = cv->ops->lowering == OPS_LOWERING_FIRST, sums = cv->zw != 0 && first;
	uint32_t gb = CV_COLS / (cout_g + (sums ? 1 : 0));
	/* the first lowering kept room for a sum column in every chunk */
	uint32_t oc_max = first ? CV_C_MAX - 1 : CV_C_MAX;
	uint32_t cap = 0, n = 0;
	struct cv_block *b = NULL;

	if (cv->oc_split && cv->oc_split < oc_max)
		oc_max = cv->oc_split;
	/* the search builds blocks again for each split it tries */
	for (uint32_t i = 0; i < cv->nblk; i++)
		free(cv->blk[i].w);
	free(cv->blk);
	cv->blk = NULL;
	cv->nblk = 0;

	if (gb < 1)
		gb = 1;
	while (gb > 1 && gb * cin_g > CV_C_MAX)
		gb--;
	for (uint32_t g0 = 0; g0 < G; g0 += gb) {
		uint32_t ngb = G - g0 < gb ? G - g0 : gb;

		for (uint32_t ci = 0; ci < cin_g; ci += CV_C_MAX)
		for (uint32_t oc = 0; oc < cout_g; oc += oc_max) {
			struct cv_block *x;

			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				x = realloc(b, cap * sizeof(*b));
				if (!x) {
					free(b);
					return ops_error((cv ? cv->ops : NULL), -ENOMEM, "%s: out of memory", __func__);
				}
				b = x;
			}
			x = &b[n++];
			memset(x, 0, sizeof(*x));
			x->g0 = g0;
			x->gb = ngb;
			x->ci_lo = ci;
			x->ci_n = cin_g - ci < CV_C_MAX ? cin_g - ci : CV_C_MAX;
			x->oc_lo = oc;
			x->oc_n = cout_g - oc < oc_max ? cout_g - oc : oc_max;
			/* the sum columns ride with the first output chunk */
			x->sums = sums && oc == 0;
			x->cin_b = ngb * x->ci_n;
			x->cols = ngb * x->oc_n + (x->sums ? ngb : 0);
		}
	}
	cv->blk = b;
	cv->nblk = n;
	return 0;
}

static int fill_block_weights(struct e1npu_conv *cv, struct cv_block *b)
{
	const struct e1npu_conv_params *p = &cv->p;
	uint32_t K = cv->ksize, rows = K * K * b->cin_b;

	b->w = calloc((size_t)rows * b->cols, 1);
	if (!b->w)
		return ops_error((cv ? cv->ops : NULL), -ENOMEM, "%s: out of memory", __func__);
	for (uint32_t ky = 0; ky < p->kh; ky++)
	for (uint32_t kx = 0; kx < p->kw; kx++)
	for (uint32_t gi = 0; gi < b->gb; gi++)
	for (uint32_t cc = 0; cc < b->ci_n; cc++) {
		uint32_t g = b->g0 + gi, ci = b->ci_lo + cc;
		size_t row = ((size_t)(ky * K + kx) * b->cin_b + gi * b->ci_n + cc) * b->cols;

		for (uint32_t oj = 0; oj < b->oc_n; oj++) {
			uint32_t oc = g * cv->cout_g + b->oc_lo + oj;

			b->w[row + gi * b->oc_n + oj] =
				cv->w[(((size_t)ky * p->kw + kx) * cv->cin_g + ci) * p->c_out + oc];
		}
		if (b->sums)
			b->w[row + b->gb * b->oc_n + gi] = 1;
	}
	return 0;
}

static int cv_choose_form(struct e1npu_conv *cv, const struct ops_conv_choice *choice);

E1NPU_API int e1npu_conv_new(struct e1npu_ops *ops,
			     const struct e1npu_conv_params *p,
			     const void *weights, const int32_t *bias,
			     struct e1npu_conv **convp)
{
	struct e1npu_conv *cv;
	uint32_t groups, taps;
	size_t bytes;
	int32_t sh;
	int ret;

	if (p && (ret = OPS_RESERVED(ops, "e1npu_conv_params", p->reserved)))
		return ret;
	/* kh * kw in 64 bits: a product that wraps must not pass the 256 limit */
	if (OPS_BAD(ops, !ops) || OPS_BAD(ops, !p) || OPS_BAD(ops, !weights) ||
	    OPS_BAD(ops, !convp) || OPS_BAD(ops, !qc_dtype_ok(p->dtype)) ||
	    OPS_BAD(ops, !qc_reserved_zero(p->reserved, sizeof(p->reserved) / sizeof(p->reserved[0]))) ||
	    OPS_BAD(ops, !qc_zp_ok(p->dtype, p->input.zero_point)) ||
	    OPS_BAD(ops, !qc_zp_ok(p->dtype, p->output.zero_point)) ||
	    OPS_BAD(ops, !qc_zp_ok(p->dtype, p->weight_zero_point)) || OPS_BAD(ops, !p->in_h) ||
	    OPS_BAD(ops, !p->in_w) || OPS_BAD(ops, !p->c_in) || OPS_BAD(ops, !p->c_out) ||
	    OPS_BAD(ops, !p->kh) || OPS_BAD(ops, !p->kw) || OPS_BAD(ops, !p->stride_h) ||
	    OPS_BAD(ops, !p->stride_w) || OPS_BAD(ops, !p->dil_h) || OPS_BAD(ops, !p->dil_w) ||
	    OPS_BAD(ops, (p->padding != E1NPU_PAD_SAME && p->padding != E1NPU_PAD_VALID)) ||
	    OPS_BAD(ops, !p->weight_scales) || OPS_BAD(ops, !(p->input.scale > 0)) ||
	    OPS_BAD(ops, !(p->output.scale > 0)) ||
	    OPS_BAD(ops, (p->num_weight_scales != 1 && p->num_weight_scales != p->c_out)) ||
	    OPS_BAD(ops, p->act > E1NPU_ACT_RELU_N1_TO_1) ||
	    OPS_BAD(ops, p->rounding > E1NPU_ROUNDING_RUY_SINGLE) ||
	    OPS_BAD(ops, (uint64_t)p->kh * p->kw > 256) ||
	    OPS_BAD(ops, !ops_size_mul3(&bytes, p->in_h, p->in_w, p->c_in)))
		return -EINVAL;
	/* TFLite's geometry is int: a wider dilated kernel has no defined output */
	if ((uint64_t)(p->kh - 1) * p->dil_h + 1 > INT32_MAX ||
	    (uint64_t)(p->kw - 1) * p->dil_w + 1 > INT32_MAX)
		return ops_error(ops, -EINVAL,
				 "e1npu_conv_new: dilated kernel %llux%llu (kh %u dil_h %u, kw %u dil_w %u) past INT32_MAX",
				 (unsigned long long)(p->kh - 1) * p->dil_h + 1,
				 (unsigned long long)(p->kw - 1) * p->dil_w + 1,
				 p->kh, p->dil_h, p->kw, p->dil_w);
	switch (p->kind) {
	case E1NPU_OPS_CONV2D:
		groups = 1;
		break;
	case E1NPU_OPS_GROUPED_CONV2D:
		groups = p->groups;
		if (OPS_BAD(ops, !groups) || OPS_BAD(ops, p->c_in % groups) ||
		    OPS_BAD(ops, p->c_out % groups))
			return -EINVAL;
		break;
	case E1NPU_OPS_DEPTHWISE_CONV2D:
		groups = p->c_in;
		/* in 64 bits: a wrapped c_in * dm gives c_out < c_in (cout_g 0) */
		if (OPS_BAD(ops, !p->depth_multiplier) ||
		    OPS_BAD(ops, (uint64_t)p->c_out != (uint64_t)p->c_in * p->depth_multiplier))
			return -EINVAL;
		break;
	default:
		return ops_error(ops, -EINVAL,
				 "e1npu_conv_new: invalid argument: p->kind = %u (not a convolution)",
				 p->kind);
	}
	*convp = NULL;
	cv = calloc(1, sizeof(*cv));
	if (!cv)
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	cv->ops = ops;
	cv->p = *p;
	cv->p.weight_scales = NULL;
	cv->groups = groups;
	cv->cin_g = p->c_in / groups;
	cv->cout_g = p->c_out / groups;
	ops_axis_geometry(p->padding, p->in_h, p->kh, p->stride_h, p->dil_h, &cv->out_h, &cv->pt);
	ops_axis_geometry(p->padding, p->in_w, p->kw, p->stride_w, p->dil_w, &cv->out_w, &cv->pl);
	/* weights, output and the int32 accumulators must be addressable */
	if (!cv->out_h || !cv->out_w ||
	    !ops_size_mul3(&bytes, (size_t)p->kh * p->kw, cv->cin_g, p->c_out) ||
	    !ops_size_mul3(&bytes, (size_t)cv->out_h * cv->out_w, p->c_out, sizeof(int32_t)) ||
	    !ops_size_mul3(&bytes, (size_t)cv->out_h * cv->out_w, groups, sizeof(int32_t))) {
		ops_error(ops, -EINVAL,
			  "e1npu_conv_new: output %ux%ux%u: empty, or its buffers too large to address",
			  cv->out_h, cv->out_w, p->c_out);
		free(cv);
		return -EINVAL;
	}
	sh = qc_shift(p->dtype);
	cv->zx = p->input.zero_point - sh;
	cv->zw = p->weight_zero_point - sh;
	taps = p->kh * p->kw;
	cv->w = malloc((size_t)taps * cv->cin_g * p->c_out);
	cv->tapsum = calloc((size_t)p->c_out * taps, sizeof(int32_t));
	cv->fold = calloc(p->c_out, sizeof(int32_t));
	cv->total = calloc(p->c_out, sizeof(int32_t));
	cv->mult = calloc(p->c_out, sizeof(int32_t));
	cv->shift = calloc(p->c_out, sizeof(int));
	if (!cv->w || !cv->tapsum || !cv->fold || !cv->total || !cv->mult || !cv->shift) {
		e1npu_conv_free(cv);
		return ops_error(ops, -ENOMEM, "%s: out of memory", __func__);
	}
	/* int8 weights in [kh][kw][cin_g][c_out] (depthwise: cin_g == 1) */
	qc_to_s8(p->dtype, weights, cv->w, (size_t)taps * cv->cin_g * p->c_out);
	/*
	 * Sums of up to 256 * cin_g int8 weights: in uint32, wrapping like the
	 * int32 accumulators they fold into (cin_g >= 2^16 passes INT32_MAX).
	 */
	for (uint32_t t = 0; t < taps; t++)
		for (uint32_t ci = 0; ci < cv->cin_g; ci++)
			for (uint32_t oc = 0; oc < p->c_out; oc++)
				cv->tapsum[(size_t)t * p->c_out + oc] = e1q_wrap_add(
					cv->tapsum[(size_t)t * p->c_out + oc],
					cv->w[((size_t)t * cv->cin_g + ci) * p->c_out + oc]);
	for (uint32_t oc = 0; oc < p->c_out; oc++) {
		for (uint32_t t = 0; t < taps; t++)
			cv->total[oc] = e1q_wrap_add(cv->total[oc],
						     cv->tapsum[(size_t)t * p->c_out + oc]);
		cv->fold[oc] = e1q_wrap32((int64_t)(bias ? bias[oc] : 0) -
					  (int64_t)cv->zx * cv->total[oc] +
					  (int64_t)taps * cv->cin_g * cv->zx * cv->zw);
	}
	ret = qc_multipliers(false, p->dtype, p->input, p->weight_scales,
			     p->num_weight_scales, p->output, p->c_out, cv->mult, cv->shift);
	if (ret) {
		e1npu_conv_free(cv);
		return ret;
	}
	qc_range(p->dtype, p->act, p->output.scale, p->output.zero_point, &cv->lo, &cv->hi);

	/* Can the systolic engine run it? */
	cv->ksize = hw_ksize(p->kh, p->kw);
	if (!cv->ksize)
		cv->cpu_why = "kernel larger than 5x5";
	else if (p->stride_h > 2 || p->stride_w > 2)
		cv->cpu_why = "stride larger than 2";
	else if (p->dil_h != p->dil_w && p->kh > 1 && p->kw > 1)
		cv->cpu_why = "different vertical and horizontal dilation";
	else if ((p->kh > 1 ? p->dil_h : p->dil_w) > E1_V0_MAX_CONV_DILATION)
		cv->cpu_why = "dilation larger than 15";
	else if (cv->pt > CV_PAD_MAX || cv->pl > CV_PAD_MAX)
		cv->cpu_why = "padding larger than 15";
	if (cv->cpu_why)
		cv->ksize = 0;
	else
		ret = build_blocks(cv);
	if (!ret)
		ret = cv_choose_form(cv, ops->conv_choice);
	if (ret) {
		e1npu_conv_free(cv);
		return ret;
	}
	ops_get(ops);		/* the context lives as long as the conv */
	cv->ops_held = true;
	*convp = cv;
	return 0;
}

/* e1npu_conv_new() with @choice for the form (its messages keep its name). */
int ops_conv_new_chosen(struct e1npu_ops *ops, const struct e1npu_conv_params *p,
			const void *weights, const int32_t *bias,
			const struct ops_conv_choice *choice, struct e1npu_conv **convp)
{
	int ret;

	if (ops)
		ops->conv_choice = choice;
	ret = e1npu_conv_new(ops, p, weights, bias, convp);
	if (ops)
		ops->conv_choice = NULL;
	return ret;
}

E1NPU_API void e1npu_conv_free(struct e1npu_conv *cv)
{
	if (!cv)
		return;
	for (uint32_t i = 0; i < cv->nblk; i++)
		free(cv->blk[i].w);
	free(cv->blk);
	cvmm_free(cv);
	free(cv->w);
	free(cv->tapsum);
	free(cv->fold);
	free(cv->total);
	free(cv->mult);
	free(cv->shift);
	if (cv->ops_held)
		ops_put(cv->ops);
	free(cv);
}

E1NPU_API int e1npu_conv_get_output_size(const struct e1npu_conv *cv,
					 uint32_t *out_h, uint32_t *out_w)
{
	if (OPS_BAD((cv ? cv->ops : NULL), !cv) || OPS_BAD((cv ? cv->ops : NULL), !out_h) ||
	    OPS_BAD((cv ? cv->ops : NULL), !out_w))
		return -EINVAL;
	*out_h = cv->out_h;
	*out_w = cv->out_w;
	return 0;
}

/*
 * The CONV2D_S8 form's blocks and tiles: each output-channel split
 * cv_oc_split_of() gives with its best tiling, the cheapest; more blocks
 * re-read the input but overlap their loads and stores. Single-channel
 * groups (depthwise) pack groups instead and keep theirs.
 */
static int cv_choose_conv2d(struct e1npu_conv *cv)
{
	uint32_t best_halv = 0, best_h, best_w;
	uint64_t best;
	int ret;

	cv_choose_tiles(cv);
	best = cv->conv2d_cost;
	best_h = cv->tiles_h;
	best_w = cv->tiles_w;
	if (cv->ops->lowering == OPS_LOWERING_FIRST)
		return 0;
	for (uint32_t h = 1; cv_oc_split_of(cv, h); h++) {
		cv->oc_split = cv_oc_split_of(cv, h);
		ret = build_blocks(cv);
		if (ret)
			return ret;
		cv_choose_tiles(cv);
		if (cv->conv2d_cost < best) {
			best = cv->conv2d_cost;
			best_halv = h;
			best_h = cv->tiles_h;
			best_w = cv->tiles_w;
		}
	}
	cv->oc_halvings = best_halv;
	cv->oc_split = cv_oc_split_of(cv, best_halv);
	ret = build_blocks(cv);
	cv->tiles_h = best_h;
	cv->tiles_w = best_w;
	cv->conv2d_cost = best;
	return ret;
}

/* Bytes of block @b's weights: [K*K*cin_b][cols]. */
static size_t block_bytes(const struct e1npu_conv *cv, const struct cv_block *b)
{
	return (size_t)cv->ksize * cv->ksize * b->cin_b * b->cols;
}

/* Every block's weights copied from @src, their bytes end to end. */
static int blocks_from(struct e1npu_conv *cv, const uint8_t *src, size_t size)
{
	size_t want = 0;

	for (uint32_t i = 0; i < cv->nblk; i++)
		want += block_bytes(cv, &cv->blk[i]);	/* each below 2^32 (u32 fields) */
	if (size != want)
		return ops_error(cv->ops, -EINVAL,
				 "stored lowering: %zu bytes of CONV2D_S8 weights, its %u blocks take %zu",
				 size, cv->nblk, want);
	for (uint32_t i = 0; i < cv->nblk; i++) {
		size_t n = block_bytes(cv, &cv->blk[i]);

		cv->blk[i].w = malloc(n ? n : 1);
		if (!cv->blk[i].w)
			return ops_error(cv->ops, -ENOMEM, "%s: out of memory", __func__);
		memcpy(cv->blk[i].w, src, n);
		src += n;
	}
	return 0;
}

size_t ops_conv_packed(const struct e1npu_conv *cv, void *dst)
{
	uint8_t *d = dst;
	size_t n = 0;

	if (cv->use_mm) {
		n = cvmm_b_bytes(cv);
		if (d)
			memcpy(d, cv->mm.b, n);
		return n;
	}
	for (uint32_t i = 0; cv->ksize && i < cv->nblk; i++) {
		size_t b = block_bytes(cv, &cv->blk[i]);

		if (d)
			memcpy(d + n, cv->blk[i].w, b);
		n += b;
	}
	return n;
}

/* A stored choice (ops_conv_new_chosen), checked as the search would. */
static int cv_take_choice(struct e1npu_conv *cv, const struct ops_conv_choice *c)
{
	int ret = 0;

	switch (c->form) {
	case OPS_CONV_FORM_MATMUL:
	case OPS_CONV_FORM_PACKED:
		if (!cvmm_set(cv, c->bh, c->bw, c->gs, c->form == OPS_CONV_FORM_PACKED))
			return ops_error(cv->ops, -EINVAL,
					 "stored lowering: %s form of %ux%u-output blocks, %u groups stacked, does not fit this convolution",
					 c->form == OPS_CONV_FORM_PACKED ? "packed CONV2D" : "MATMUL",
					 c->bh, c->bw, c->gs);
		cv->use_mm = true;
		return c->packed ? cvmm_prepare_from(cv, c->packed, c->packed_size) :
				   cvmm_prepare(cv);
	case OPS_CONV_FORM_CONV2D:
		if (!cv->ksize)
			return ops_error(cv->ops, -EINVAL,
					 "stored lowering: CONV2D_S8 form, but the hardware cannot run this convolution (%s)",
					 cv->cpu_why ? cv->cpu_why : "no hardware kernel");
		if (c->gs && !cv_oc_split_of(cv, c->gs))
			return ops_error(cv->ops, -EINVAL,
					 "stored lowering: CONV2D_S8 form with its %u output channels halved %u times, below one array width",
					 cv->cout_g, c->gs);
		cv->oc_halvings = c->gs;
		cv->oc_split = cv_oc_split_of(cv, c->gs);
		ret = build_blocks(cv);
		if (ret)
			return ret;
		ret = cv_take_tiles(cv, c->bh, c->bw);
		if (ret)
			return ret;
		if (c->packed)
			return blocks_from(cv, c->packed, c->packed_size);
		for (uint32_t i = 0; !ret && i < cv->nblk; i++)
			ret = fill_block_weights(cv, &cv->blk[i]);
		return ret;
	case OPS_CONV_FORM_CPU:
		if (cv->ksize)
			return ops_error(cv->ops, -EINVAL,
					 "stored lowering: host CPU, but the hardware can run this convolution");
		return 0;
	default:
		return ops_error(cv->ops, -EINVAL, "stored lowering: unknown form %u", c->form);
	}
}

void ops_conv_get_choice(const struct e1npu_conv *cv, struct ops_conv_choice *c)
{
	c->form = cv->use_mm ? (cv->mm.pk ? OPS_CONV_FORM_PACKED : OPS_CONV_FORM_MATMUL) :
		  cv->ksize ? OPS_CONV_FORM_CONV2D : OPS_CONV_FORM_CPU;
	c->bh = cv->use_mm ? cv->mm.bh : cv->ksize ? cv->tiles_h : 0;
	c->bw = cv->use_mm ? cv->mm.bw : cv->ksize ? cv->tiles_w : 0;
	c->gs = cv->use_mm ? cv->mm.gs : cv->ksize ? cv->oc_halvings : 0;
	c->packed = NULL;
	c->packed_size = 0;
}

/*
 * The cheaper of the CONV2D_S8 and MATMUL forms by modelled cycles (the
 * MATMUL form also runs what CONV2D_S8 cannot: big kernels, strides,
 * pads); then the chosen form's weights.
 */
static int cv_choose_form(struct e1npu_conv *cv, const struct ops_conv_choice *choice)
{
	int ret = 0;

	/*
	 * The CONV2D_S8 form's own search runs even for a stored choice: its
	 * cost is what a MATMUL form is reported against (ops_report why).
	 */
	if (cv->ksize) {
		ret = cv_choose_conv2d(cv);
		if (ret)
			return ret;
	}
	/* another lowering mode (E1NPU_OPS_LOWERING) makes its own choice */
	if (choice && cv->ops->lowering == OPS_LOWERING_AUTO)
		return cv_take_choice(cv, choice);
	if ((cv->ops->lowering == OPS_LOWERING_AUTO ||
	     cv->ops->lowering == OPS_LOWERING_MATMUL ||
	     cv->ops->lowering == OPS_LOWERING_PACKED) && cvmm_choose(cv) &&
	    (!cv->ksize || cv->mm.cost < cv->conv2d_cost ||
	     cv->ops->lowering == OPS_LOWERING_MATMUL ||
	     (cv->ops->lowering == OPS_LOWERING_PACKED && cv->mm.pk))) {
		cv->use_mm = true;
		return cvmm_prepare(cv);
	}
	for (uint32_t i = 0; !ret && i < cv->nblk; i++)
		ret = fill_block_weights(cv, &cv->blk[i]);
	return ret;
}

struct cv_patch {
	uint32_t blk;
	uint32_t oy0, ox0, th, tw;
	size_t oc_off;		/* int32 output region */
	uint32_t oc_stride;
};

/*
 * Stage @iw pixels of one input row for block @bk: its groups' channels of
 * each pixel, packed. When the block takes whole groups they are one run
 * of bytes per pixel, and when it takes every channel, one run per row.
 */
static void cv_stage_row(const struct e1npu_conv *cv, const struct cv_block *bk,
			 int8_t *dst, const int8_t *row, uint32_t iw)
{
	size_t run = (size_t)bk->gb * bk->ci_n, c_in = cv->p.c_in;

	if (bk->ci_n == cv->cin_g && run == c_in) {
		memcpy(dst, row, iw * c_in);
	} else if (bk->ci_n == cv->cin_g) {
		const int8_t *src = row + (size_t)bk->g0 * cv->cin_g;

		/* fixed-size copies for the usual runs (one vector move each) */
		if (run == 16)
			for (uint32_t c = 0; c < iw; c++)
				memcpy(dst + (size_t)c * 16, src + c * c_in, 16);
		else if (run == 8)
			for (uint32_t c = 0; c < iw; c++)
				memcpy(dst + (size_t)c * 8, src + c * c_in, 8);
		else
			for (uint32_t c = 0; c < iw; c++)
				for (size_t k = 0; k < run; k++)
					dst[c * run + k] = src[c * c_in + k];
	} else {
		for (uint32_t c = 0; c < iw; c++)
			for (uint32_t gi = 0; gi < bk->gb; gi++)
				memcpy(dst + ((size_t)c * bk->gb + gi) * bk->ci_n,
				       row + c * c_in + (size_t)(bk->g0 + gi) * cv->cin_g +
				       bk->ci_lo, bk->ci_n);
	}
}

static int32_t cv_ld32(const uint8_t *p)
{
	int32_t v;

	memcpy(&v, p, 4);
	return v;
}

/*
 * Every block takes all of a group's input channels: the CONV2D_S8 form's
 * blocks and tiles then partition the outputs, each written once.
 */
static bool cv_one_ci_block(const struct e1npu_conv *cv)
{
	return cv->cin_g <= CV_C_MAX;
}

/*
 * Add the @th x @tw output pixels of block @bk (@src: rows of @stride
 * bytes, each pixel's int32 columns) into the accumulators @acc (c_out per
 * pixel) and, from its sum columns, the window sums @sx (groups per
 * pixel), from pixel (@oy0, @ox0).
 */
CV_VEC
static void cv_gather_patch(const struct e1npu_conv *cv, const struct cv_block *bk,
			    const uint8_t *src, uint32_t stride, uint32_t oy0,
			    uint32_t ox0, uint32_t th, uint32_t tw, int32_t *acc,
			    int32_t *sx)
{
	/* locals: the stores below cannot change them (vectorizable loops) */
	const uint32_t gb = bk->gb, oc_n = bk->oc_n, n = gb * oc_n, cols = bk->cols;
	const uint32_t c_out = cv->p.c_out, cout_g = cv->cout_g;
	const uint32_t g0 = bk->g0, oc_lo = bk->oc_lo, out_w = cv->out_w;
	const bool whole = oc_n == cout_g, sums = bk->sums;
	const uint32_t groups = cv->groups;
	/* one block of input channels: no other block adds to these outputs */
	const bool once = cv_one_ci_block(cv);

	for (uint32_t yy = 0; yy < th; yy++)
	for (uint32_t xx = 0; xx < tw; xx++) {
		size_t px = (size_t)(oy0 + yy) * out_w + ox0 + xx;
		const uint8_t *restrict s = src + (size_t)yy * stride + (size_t)xx * cols * 4;
		int32_t *restrict a = acc + px * c_out;

		if (whole && once) {
			/* the only block with these outputs: store, nothing to add to */
			memcpy(a + (size_t)g0 * cout_g, s, (size_t)n * 4);
		} else if (whole) {
			/* whole groups: the block's outputs are contiguous channels */
			a += (size_t)g0 * cout_g;
			/* size_t: an index that cannot wrap keeps the loads affine */
			for (size_t k = 0; k < n; k++)
				a[k] = e1q_wrap_add(a[k], cv_ld32(s + 4 * k));
		} else {
			for (uint32_t gi = 0; gi < gb; gi++)
				for (uint32_t oj = 0; oj < oc_n; oj++) {
					size_t i = (size_t)(g0 + gi) * cout_g + oc_lo + oj;
					int32_t v = cv_ld32(s + 4 * (gi * oc_n + oj));

					a[i] = once ? v : e1q_wrap_add(a[i], v);
				}
		}
		if (sums)
			for (size_t gi = 0; gi < gb; gi++)
				sx[px * groups + g0 + gi] = once ? cv_ld32(s + 4 * (n + gi)) :
					e1q_wrap_add(sx[px * groups + g0 + gi], cv_ld32(s + 4 * (n + gi)));
	}
}

/*
 * The CONV2D_S8 form with a single block (one group's or all channels,
 * no sum columns): each patch pixel's columns are its accumulators in
 * order, so they are finished where the hardware stored them.
 */
static bool cv_finish_in_place(const struct e1npu_conv *cv)
{
	return !cv->use_mm && cv->nblk == 1 && !cv->blk[0].sums &&
	       cv->blk[0].cols == cv->p.c_out;
}

/* CPU path: direct convolution in the int8 domain, same fold. */
static void cv_cpu(struct e1npu_conv *cv, const int8_t *x, int32_t *acc,
		   int32_t *sx)
{
	const struct e1npu_conv_params *p = &cv->p;

	for (uint32_t oy = 0; oy < cv->out_h; oy++)
	for (uint32_t ox = 0; ox < cv->out_w; ox++) {
		size_t px = (size_t)oy * cv->out_w + ox;

		for (uint32_t oc = 0; oc < p->c_out; oc++)
			acc[px * p->c_out + oc] = 0;
		for (uint32_t ky = 0; ky < p->kh; ky++)
		for (uint32_t kx = 0; kx < p->kw; kx++) {
			int64_t iy = (int64_t)oy * p->stride_h - cv->pt + (int64_t)ky * p->dil_h;
			int64_t ix = (int64_t)ox * p->stride_w - cv->pl + (int64_t)kx * p->dil_w;
			const int8_t *xp, *wp;

			if (iy < 0 || ix < 0 || iy >= p->in_h || ix >= p->in_w)
				continue;
			xp = x + ((size_t)iy * p->in_w + ix) * p->c_in;
			wp = cv->w + ((size_t)ky * p->kw + kx) * cv->cin_g * p->c_out;
			for (uint32_t oc = 0; oc < p->c_out; oc++) {
				uint32_t g = oc / cv->cout_g;
				/* uint32: wraps like the hardware's int32 accumulators */
				uint32_t s = 0;

				for (uint32_t ci = 0; ci < cv->cin_g; ci++)
					s += (uint32_t)(xp[(size_t)g * cv->cin_g + ci] *
							wp[(size_t)ci * p->c_out + oc]);
				acc[px * p->c_out + oc] = e1q_wrap_add(acc[px * p->c_out + oc],
								       (int32_t)s);
			}
		}
	}
	if (cv->zw)	/* valid taps only, as cv_finish expects */
		cv_host_sums(cv, x, sx, 0);
}

/*
 * Zero what the run accumulates into: only the CONV2D_S8 form with more
 * than one block of input channels adds into acc and into sx (sum
 * columns); with one, the gather stores each of them once. cv_cpu zeroes
 * acc itself, the MATMUL form's gather stores every accumulator, and
 * cv_host_sums stores every window sum; sx is not read when zw is 0.
 */
static void cv_clear_acc(const struct e1npu_conv *cv, uint32_t engine, int32_t *acc,
			 int32_t *sx, size_t npx)
{
	if (engine == E1NPU_ENGINE_CPU || cv->use_mm || cv_one_ci_block(cv))
		return;
	memset(acc, 0, npx * cv->p.c_out * sizeof(int32_t));
	if (cv->nblk && cv->blk[0].sums)
		memset(sx, 0, npx * cv->groups * sizeof(int32_t));
}

E1NPU_API int e1npu_conv_run(struct e1npu_conv *cv, const void *in, void *out,
			     struct e1npu_ops_report *rep)
{
	struct e1npu_ops_report local;
	const struct e1npu_conv_params *p;
	struct cv_patch *pt = NULL;
	struct ops_choice ch;
	struct ops_plan pl;
	size_t npx, npatch = 0;
	int32_t *acc = NULL, *sx = NULL;
	bool finished = false;	/* finished from the arena (cv_finish_in_place) */
	int8_t *x = NULL;
	uint8_t *ar;
	int64_t t;
	int ret = 0;

	if (OPS_BAD((cv ? cv->ops : NULL), !cv) || OPS_BAD((cv ? cv->ops : NULL), !in) ||
	    OPS_BAD((cv ? cv->ops : NULL), !out))
		return -EINVAL;
	p = &cv->p;
	if (!rep)
		rep = &local;
	memset(rep, 0, sizeof(*rep));
	rep->kind = p->kind;
	npx = (size_t)cv->out_h * cv->out_w;
	rep->macs = (uint64_t)npx * p->c_out * p->kh * p->kw * cv->cin_g;
	t = ops_now_ns();
	{
		/* x, acc, sx in the context's scratch (sizes checked at new) */
		size_t xb = ops_align_up((size_t)p->in_h * p->in_w * p->c_in, 64);
		size_t ab = ops_align_up(npx * p->c_out * sizeof(int32_t), 64), all;
		uint8_t *sc = NULL;

		if (!__builtin_add_overflow(xb, ab, &all) &&
		    !__builtin_add_overflow(all, npx * cv->groups * sizeof(int32_t), &all))
			sc = ops_scratch(cv->ops, all);
		if (!sc) {
			ret = ops_error(cv->ops, -ENOMEM, "%s: out of memory", __func__);
			goto out;
		}
		x = (int8_t *)sc;
		acc = (int32_t *)(sc + xb);
		sx = (int32_t *)(sc + xb + ab);
	}
	qc_to_s8(p->dtype, in, x, (size_t)p->in_h * p->in_w * p->c_in);

	ch = sel_conv(cv->ops);
	if (cv->ksize == 0 && !cv->use_mm && ch.engine != E1NPU_ENGINE_CPU) {
		ch.engine = E1NPU_ENGINE_CPU;
		ch.reason = E1NPU_OPS_WHY_UNSUPPORTED;
	}
	cv_clear_acc(cv, ch.engine, acc, sx, npx);
	rep->lower_ns += (uint64_t)(ops_now_ns() - t);
	if (ch.engine == E1NPU_ENGINE_CPU) {
		ops_report_set(rep, ch.engine, ch.reason, "%s%s%s",
			       sel_reason_text(ch.reason), cv->cpu_why ? ": " : "",
			       cv->cpu_why ? cv->cpu_why : "");
		t = ops_now_ns();
		cv_cpu(cv, x, acc, sx);
		rep->host_ns += (uint64_t)(ops_now_ns() - t);
	} else if (cv->use_mm) {
		const struct cv_mm *f = &cv->mm;
		char alt[48] = "cannot: ";

		if (cv->ksize)
			snprintf(alt, sizeof(alt), "%llu", (unsigned long long)cv->conv2d_cost);
		else
			snprintf(alt + 8, sizeof(alt) - 8, "%s", cv->cpu_why);
		ops_report_set(rep, ch.engine, ch.reason,
			       "%s: %u %s (%ux%u outputs x %u group%s per row, K %u), %llu modelled cycles (CONV2D form %s)",
			       sel_reason_text(ch.reason), f->n_desc,
			       f->pk ? "pixel-packed patch-Toeplitz CONV2Ds" : "patch-Toeplitz MATMULs",
			       f->bh, f->bw, f->gs, f->gs > 1 ? "s" : "",
			       f->pk ? (unsigned int)cvpk_k(f) : f->gs * f->ph * f->pw * cv->cin_g,
			       (unsigned long long)f->cost, alt);
		/* the window sums first: cvmm_run may finish the layer */
		if (cv->zw) {
			t = ops_now_ns();
			cv_host_sums(cv, x, sx, cv->zx);
			rep->host_ns += (uint64_t)(ops_now_ns() - t);
		}
		ret = cvmm_run(cv, x, acc, sx, out, &finished, rep);
		if (!ret)
			ops_rep_fallback(rep);
	} else {
		uint32_t K = cv->ksize, dil = p->kh > 1 ? p->dil_h : p->dil_w, th, tw;
		size_t cap;

		cv_tiles(cv, &th, &tw);

		if (dil < 1)
			dil = 1;
		ops_plan_init(&pl, cv->ops, rep, p->kind);
		cap = (size_t)cv->nblk * ((cv->out_h + th - 1) / th) * ((cv->out_w + tw - 1) / tw);
		pt = calloc(cap, sizeof(*pt));
		if (!pt) {
			ret = ops_error(cv->ops, -ENOMEM, "%s: out of memory", __func__);
			goto out;
		}
		ops_report_set(rep, ch.engine, ch.reason,
			       "%s: %u hardware conv blocks (%u groups packed block-diagonally into %u columns), %ux%u output tiles, %llu modelled cycles",
			       sel_reason_text(ch.reason), cv->nblk, cv->groups,
			       cv->blk[0].cols, th, tw, (unsigned long long)cv->conv2d_cost);
		/* layout: per patch an input region and an output region */
		struct { size_t in_off; uint32_t r0, c0, ih, iw, ptop, pleft, istride; } *geo =
			calloc(cap, sizeof(*geo));
		if (!geo) {
			ret = ops_error(cv->ops, -ENOMEM, "%s: out of memory", __func__);
			goto out_plan;
		}
		for (uint32_t b = 0; b < cv->nblk; b++)
		for (uint32_t oy0 = 0; oy0 < cv->out_h; oy0 += th)
		for (uint32_t ox0 = 0; ox0 < cv->out_w; ox0 += tw) {
			struct cv_patch *q = &pt[npatch];
			struct cv_tile tl;
			uint32_t h, w;

			cv_tile_geo(cv, oy0, ox0, th, tw, &tl);
			h = tl.h;
			w = tl.w;
			q->blk = b;
			q->oy0 = oy0;
			q->ox0 = ox0;
			q->th = h;
			q->tw = w;
			geo[npatch].r0 = tl.r0;
			geo[npatch].c0 = tl.c0;
			geo[npatch].ih = tl.ih;
			geo[npatch].iw = tl.iw;
			geo[npatch].ptop = tl.ptop;
			geo[npatch].pleft = tl.pleft;
			geo[npatch].istride = (uint32_t)ops_align_up((size_t)geo[npatch].iw *
								     cv->blk[b].cin_b, OPS_ALIGN);
			geo[npatch].in_off = ops_plan_alloc(&pl, (size_t)geo[npatch].ih *
							    geo[npatch].istride);
			q->oc_stride = (uint32_t)ops_align_up((size_t)w * cv->blk[b].cols * 4,
							      OPS_ALIGN);
			q->oc_off = ops_plan_alloc(&pl, (size_t)h * q->oc_stride);
			npatch++;
		}
		size_t *w_off = calloc(cv->nblk, sizeof(size_t));

		if (!w_off) {
			free(geo);
			ret = ops_error(cv->ops, -ENOMEM, "%s: out of memory", __func__);
			goto out_plan;
		}
		for (uint32_t b = 0; b < cv->nblk; b++)
			w_off[b] = ops_plan_alloc(&pl, (size_t)K * K * cv->blk[b].cin_b *
						  ops_align_up(cv->blk[b].cols, OPS_ALIGN));
		ret = ops_plan_arena(&pl, &ar);
		for (uint32_t b = 0; !ret && b < cv->nblk; b++) {
			struct cv_block *bk = &cv->blk[b];
			size_t ws = ops_align_up(bk->cols, OPS_ALIGN);

			if (ws == bk->cols)	/* rows already aligned: one copy */
				memcpy(ar + w_off[b], bk->w, (size_t)K * K * bk->cin_b * ws);
			else
				for (size_t r = 0; r < (size_t)K * K * bk->cin_b; r++)
					memcpy(ar + w_off[b] + r * ws, bk->w + r * bk->cols,
					       bk->cols);
		}
		for (size_t i = 0; !ret && i < npatch; i++) {
			struct cv_block *bk = &cv->blk[pt[i].blk];
			struct e1npu_op_desc d;

			/* stage the patch: the block's channels of each pixel */
			for (uint32_t r = 0; r < geo[i].ih; r++) {
				int8_t *dst = (int8_t *)ar + geo[i].in_off + (size_t)r * geo[i].istride;
				const int8_t *row = x + ((size_t)(geo[i].r0 + r) * p->in_w +
							 geo[i].c0) * p->c_in;

				cv_stage_row(cv, bk, dst, row, geo[i].iw);
			}
			e1npu_op_desc_conv2d(&d, ops_t(geo[i].in_off, geo[i].istride),
					     ops_t(w_off[pt[i].blk], (uint32_t)ops_align_up(bk->cols, OPS_ALIGN)),
					     ops_t(pt[i].oc_off, pt[i].oc_stride),
					     geo[i].ih, geo[i].iw, bk->cin_b, bk->cols, K,
					     pt[i].th, pt[i].tw, p->stride_h, p->stride_w,
					     geo[i].ptop, geo[i].pleft, dil, 0);
			ret = ops_plan_add(&pl, &d);
		}
		free(w_off);
		free(geo);
		if (!ret)
			ret = ops_plan_run(&pl);
		if (!ret && cv_finish_in_place(cv)) {
			t = ops_now_ns();
			if (cv->zw)
				cv_host_sums(cv, x, sx, 0);
			for (size_t i = 0; i < npatch; i++)
				cv_finish_patch(cv, ar + pt[i].oc_off, pt[i].oc_stride, pt[i].oy0,
						pt[i].ox0, pt[i].th, pt[i].tw, sx, out);
			finished = true;
			rep->host_ns += (uint64_t)(ops_now_ns() - t);
		} else if (!ret) {
			/* gather the block outputs into acc / sx */
			t = ops_now_ns();
			for (size_t i = 0; i < npatch; i++) {
				struct cv_block *bk = &cv->blk[pt[i].blk];

				cv_gather_patch(cv, bk, ar + pt[i].oc_off, pt[i].oc_stride,
						pt[i].oy0, pt[i].ox0, pt[i].th, pt[i].tw, acc, sx);
			}
			/* hardware zeros outside the image: pad 0 */
			if (cv->zw && !cv->blk[0].sums)
				cv_host_sums(cv, x, sx, 0);
			rep->host_ns += (uint64_t)(ops_now_ns() - t);
		}
out_plan:
		ops_plan_fini(&pl);
		if (!ret)
			ops_rep_fallback(rep);
	}
	if (!ret && !finished) {
		t = ops_now_ns();
		if (ch.engine != E1NPU_ENGINE_CPU && cv->use_mm) {
			/* padding was staged at the zero point: every window is full */
			cv_finish_rows(cv, (uint8_t *)acc, (size_t)p->c_out * sizeof(*acc), sx, out);
		} else {
			cv_finish(cv, acc, sx, out);
		}
		rep->host_ns += (uint64_t)(ops_now_ns() - t);
	}
out:
	free(pt);
	return ret;
}
