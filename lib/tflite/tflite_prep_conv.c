// SPDX-License-Identifier: MIT
/*
 * Preparation of the operators with a filter window: CONV_2D,
 * DEPTHWISE_CONV_2D, FULLY_CONNECTED, MAX/AVERAGE_POOL_2D and
 * TRANSPOSE_CONV. Validates their tensors and options, checks that every
 * output channel's requantization is representable, converts the weights
 * once (conv OHWI -> HWIO) and, on the NPU path, creates the e1npu_conv /
 * e1npu_fc objects, so a refusal comes at load and not mid-invoke.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qcommon.h"
#include "quant.h"
#include "ref.h"
#include "tflite_internal.h"

static uint32_t map_pad(int32_t p)
{
	return p == TFL_PAD_VALID ? E1NPU_PAD_VALID : E1NPU_PAD_SAME;
}

/* Weight scales and zero point of a conv/fc filter. */
static int filter_quant(struct e1npu_tflite *t, uint32_t li, struct layer *l,
			int32_t fi, uint32_t cout, uint32_t qdim)
{
	const struct tfl_tensor *f = T(t, fi);
	uint32_t n = f->num_scales;

	if (n != 1 && n != cout)
		return LFAIL(t, li, l, -EINVAL, "filter %d (%s): %u scales for %u output channels",
			     fi, f->name, n, cout);
	if (n > 1 && (uint32_t)f->quantized_dimension != qdim)
		return LFAIL(t, li, l, -EINVAL, "filter %d (%s): quantized_dimension %d, expected %u",
			     fi, f->name, f->quantized_dimension, qdim);
	if (n > 1 && f->type != TFL_TYPE_INT8)
		return LFAIL(t, li, l, -ENOTSUP, "filter %d (%s): per-channel %s weights",
			     fi, f->name, tfl_type_name(f->type));
	l->wscales = malloc(n * sizeof(float));
	if (!l->wscales)
		return -ENOMEM;
	for (uint32_t c = 0; c < n; c++) {
		l->wscales[c] = tfl_scale(f, c);
		if (!(l->wscales[c] > 0) || !isfinite(l->wscales[c]))
			return LFAIL(t, li, l, -EINVAL, "filter %d (%s): bad scale %g",
				     fi, f->name, (double)l->wscales[c]);
	}
	if (f->type == TFL_TYPE_UINT8) {
		int64_t zp = f->num_zero_points ? tfl_zero_point(f, 0) : 0;

		if (zp < 0 || zp > 255)
			return LFAIL(t, li, l, -EINVAL, "filter zero point %lld", (long long)zp);
		l->cp.weight_zero_point = l->fp.weight_zero_point = (int32_t)zp;
	} else {
		for (uint32_t c = 0; c < f->num_zero_points; c++)
			if (tfl_zero_point(f, c))
				return LFAIL(t, li, l, -ENOTSUP,
					     "filter %d (%s): int8 weights with nonzero zero point",
					     fi, f->name);
	}
	return 0;
}

/*
 * Every output channel's requantization multiplier (in * w / out, as
 * TFLite computes it) representable, on both paths: the reference kernels
 * compute them at run time, the lowering layer when its objects are made.
 */
static int check_requant(struct e1npu_tflite *t, uint32_t li, struct layer *l,
			 const struct e1npu_qparams *in, uint32_t n,
			 const struct e1npu_qparams *out)
{
	const struct tfl_tensor *f = T(t, l->op->inputs[1]);
	bool fp = e1q_conv_float_product(l->op->builtin == TFL_OP_FULLY_CONNECTED,
					 T(t, l->in)->type == TFL_TYPE_UINT8, f->num_scales);

	for (uint32_t c = 0; c < n; c++) {
		const float *ws = &l->wscales[f->num_scales == 1 ? 0 : c];
		double real = e1q_conv_scale(fp, in->scale, *ws, out->scale);
		int32_t mult;
		int shift;

		/* the lowering's own derivation (qc_multipliers), channel by channel */
		if (e1q_quantize_multiplier(real, &mult, &shift))
			return LFAIL(t, li, l, -EINVAL,
				     "channel %u: input scale %g x weight scale %g / output scale %g = %g is not a representable requantization multiplier",
				     c, (double)in->scale, (double)*ws, (double)out->scale, real);
	}
	return 0;
}

static int load_bias(struct e1npu_tflite *t, uint32_t li, struct layer *l,
		     uint32_t n)
{
	const struct tfl_tensor *b;
	int32_t bi = l->op->num_inputs > 2 ? l->op->inputs[2] : -1;

	l->bias = calloc(n ? n : 1, sizeof(int32_t));
	if (!l->bias)
		return -ENOMEM;
	if (bi < 0)
		return 0;
	b = T(t, bi);
	if (b->type != TFL_TYPE_INT32 || !b->data || tfl_tensor_count(b) != n)
		return LFAIL(t, li, l, -EINVAL, "bias %d (%s) must be %u constant int32 values",
			     bi, b->name, n);
	memcpy(l->bias, b->data, n * sizeof(int32_t));	/* little-endian host */
	return 0;
}

int tf_prep_conv(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_operator *op = l->op;
	const struct tfl_tensor *in, *f, *out;
	bool dw = op->builtin == TFL_OP_DEPTHWISE_CONV_2D;
	uint32_t oh, ow, pad, kh, kw, cin, cout;
	int32_t fi;
	int ret;

	if (op->num_inputs < 2 || op->num_outputs < 1)
		return LFAIL(t, li, l, -EINVAL, "needs input, filter and output");
	fi = op->inputs[1];
	if ((ret = tf_want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = tf_want(t, li, l, fi, "filter", 4, true)) ||
	    (ret = tf_want(t, li, l, l->out, "output", 4, false)))
		return ret;
	in = T(t, l->in);
	f = T(t, fi);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, fi, in->type)) ||
	    (ret = tf_want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (in->dims[0] != 1 || out->dims[0] != 1)
		return LFAIL(t, li, l, -ENOTSUP, "batch %d (only 1 handled)", in->dims[0]);
	if (op->opt.type != (dw ? TFL_OPT_DEPTHWISE_CONV2D : TFL_OPT_CONV2D))
		return LFAIL(t, li, l, -EINVAL, "builtin options type %u", op->opt.type);
	cin = (uint32_t)in->dims[3];
	kh = (uint32_t)f->dims[1];
	kw = (uint32_t)f->dims[2];
	cout = (uint32_t)f->dims[dw ? 3 : 0];
	if (!cin || !cout || !kh || !kw)
		return LFAIL(t, li, l, -EINVAL, "empty filter or input");
	if (dw ? (f->dims[0] != 1 || cout % cin) : (uint32_t)f->dims[3] != cin)
		return LFAIL(t, li, l, -EINVAL, "filter [%d,%d,%d,%d] does not match %u input channels",
			     f->dims[0], f->dims[1], f->dims[2], f->dims[3], cin);
	if ((uint32_t)out->dims[3] != cout)
		return LFAIL(t, li, l, -EINVAL, "output has %d channels, filter %u",
			     out->dims[3], cout);
	if (op->opt.stride_h < 1 || op->opt.stride_w < 1 || op->opt.dilation_h < 1 ||
	    op->opt.dilation_w < 1 || op->opt.stride_h > 64 || op->opt.stride_w > 64 ||
	    op->opt.dilation_h > 64 || op->opt.dilation_w > 64 ||
	    (op->opt.padding != TFL_PAD_SAME && op->opt.padding != TFL_PAD_VALID))
		return LFAIL(t, li, l, -EINVAL, "bad stride/dilation/padding options");
	memset(&l->cp, 0, sizeof(l->cp));
	l->cp.kind = dw ? E1NPU_OPS_DEPTHWISE_CONV2D : E1NPU_OPS_CONV2D;
	l->cp.dtype = dtype_of(in->type);
	l->cp.in_h = (uint32_t)in->dims[1];
	l->cp.in_w = (uint32_t)in->dims[2];
	l->cp.c_in = cin;
	l->cp.c_out = cout;
	l->cp.kh = kh;
	l->cp.kw = kw;
	l->cp.stride_h = (uint32_t)op->opt.stride_h;
	l->cp.stride_w = (uint32_t)op->opt.stride_w;
	l->cp.dil_h = (uint32_t)op->opt.dilation_h;
	l->cp.dil_w = (uint32_t)op->opt.dilation_w;
	l->cp.padding = map_pad(op->opt.padding);
	l->cp.groups = 1;
	/* TFLite derives the multiplier from the shapes (old files may
	 * carry a stale option). */
	l->cp.depth_multiplier = dw ? cout / cin : 1;
	/*
	 * TFLite 2.14.1 (x86, measured): an int8 CONV_2D, whatever its
	 * kernel, and a uint8 1x1 stride-1 one (no im2col) requantize as ruy
	 * does; other uint8 ones as gemmlowp does, as does
	 * DEPTHWISE_CONV_2D (kernels of its own). Built for riscv64
	 * (measured), every CONV_2D is a GEMM of ruy's portable kernel.
	 */
	l->cp.rounding = tf_ref(t) == E1NPU_TFLITE_REF_2_14 && !dw &&
			 (l->cp.dtype == E1NPU_DTYPE_INT8 ||
			  (kh == 1 && kw == 1 && l->cp.stride_h == 1 && l->cp.stride_w == 1)) ?
			 E1NPU_ROUNDING_RUY : E1NPU_ROUNDING_GEMMLOWP;
	if (tf_ref(t) == E1NPU_TFLITE_REF_2_14 && !dw && t->m.ruy_single)
		l->cp.rounding = E1NPU_ROUNDING_RUY_SINGLE;
	if ((ret = tf_qparams(t, li, l, l->in, &l->cp.input)) ||
	    (ret = tf_qparams(t, li, l, l->out, &l->cp.output)) ||
	    (ret = tf_map_act(t, li, l, op->opt.act, &l->cp.act)) ||
	    (ret = filter_quant(t, li, l, fi, cout, dw ? 3 : 0)) ||
	    (ret = check_requant(t, li, l, &l->cp.input, cout, &l->cp.output)) ||
	    (ret = load_bias(t, li, l, cout)))
		return ret;
	l->cp.weight_scales = l->wscales;
	l->cp.num_weight_scales = f->num_scales;
	ref_conv_geometry(l->cp.padding, l->cp.in_h, kh, l->cp.stride_h, l->cp.dil_h, &oh, &pad);
	ref_conv_geometry(l->cp.padding, l->cp.in_w, kw, l->cp.stride_w, l->cp.dil_w, &ow, &pad);
	if ((uint32_t)out->dims[1] != oh || (uint32_t)out->dims[2] != ow)
		return LFAIL(t, li, l, -EINVAL, "output %dx%d, the options give %ux%u",
			     out->dims[1], out->dims[2], oh, ow);
	l->w = malloc(f->data_size);
	if (!l->w)
		return -ENOMEM;
	if (dw) {
		memcpy(l->w, f->data, f->data_size);	/* [1][kh][kw][cout] */
	} else {
		/* OHWI -> HWIO */
		const uint8_t *src = f->data;
		uint8_t *dst = l->w;

		for (uint32_t o = 0; o < cout; o++)
			for (uint32_t y = 0; y < kh; y++)
				for (uint32_t x = 0; x < kw; x++)
					for (uint32_t c = 0; c < cin; c++)
						dst[((size_t)(y * kw + x) * cin + c) * cout + o] =
							src[(((size_t)o * kh + y) * kw + x) * cin + c];
	}
	if (t->path == E1NPU_TFLITE_PATH_NPU) {
		ret = ops_conv_new_chosen(t->ops, &l->cp, l->w, l->bias,
					  t->choices ? &t->choices[l - t->layers] : NULL,
					  &l->conv);
		if (ret && t->choices)	/* a stored form refused: say which */
			return LFAIL(t, li, l, ret, "%s", e1npu_ops_last_error(t->ops));
		if (ret)
			return LFAIL(t, li, l, ret, "e1npu_conv_new: %s", e1npu_strerror(ret));
	}
	tf_set_shape(l, in, out);
	return 0;
}

int tf_prep_fc(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_operator *op = l->op;
	const struct tfl_tensor *in, *f, *out;
	uint32_t k, n;
	size_t cnt;
	int32_t fi;
	int ret;

	if (op->num_inputs < 2)
		return LFAIL(t, li, l, -EINVAL, "needs input and weights");
	fi = op->inputs[1];
	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, fi, "weights", 2, true)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	f = T(t, fi);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, fi, in->type)) ||
	    (ret = tf_want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	n = (uint32_t)f->dims[0];
	k = (uint32_t)f->dims[1];
	cnt = tfl_tensor_count(in);
	if (!k || !n || cnt % k || tfl_tensor_count(out) != cnt / k * n)
		return LFAIL(t, li, l, -EINVAL, "shapes do not match weights [%u,%u]", n, k);
	memset(&l->fp, 0, sizeof(l->fp));
	l->fp.dtype = dtype_of(in->type);
	l->fp.k = k;
	l->fp.n = n;
	/* TFLite 2.14 runs an int8 FULLY_CONNECTED as a ruy GEMM too; built
	 * for riscv64, every one on ruy's portable kernel */
	l->fp.rounding = tf_ref(t) == E1NPU_TFLITE_REF_2_14 && l->fp.dtype == E1NPU_DTYPE_INT8 ?
			 E1NPU_ROUNDING_RUY : E1NPU_ROUNDING_GEMMLOWP;
	if (tf_ref(t) == E1NPU_TFLITE_REF_2_14 && t->m.ruy_single)
		l->fp.rounding = E1NPU_ROUNDING_RUY_SINGLE;
	l->fc_rows = (uint32_t)(cnt / k);
	if ((ret = tf_qparams(t, li, l, l->in, &l->fp.input)) ||
	    (ret = tf_qparams(t, li, l, l->out, &l->fp.output)) ||
	    (ret = tf_map_act(t, li, l, op->opt.act, &l->fp.act)) ||
	    (ret = filter_quant(t, li, l, fi, n, 0)) ||
	    (ret = check_requant(t, li, l, &l->fp.input, n, &l->fp.output)) ||
	    (ret = load_bias(t, li, l, n)))
		return ret;
	l->fp.weight_scales = l->wscales;
	l->fp.num_weight_scales = f->num_scales;
	l->w = malloc(f->data_size);
	if (!l->w)
		return -ENOMEM;
	memcpy(l->w, f->data, f->data_size);
	if (t->path == E1NPU_TFLITE_PATH_NPU) {
		ret = e1npu_fc_new(t->ops, &l->fp, l->w, l->bias, &l->fc);
		if (ret)
			return LFAIL(t, li, l, ret, "e1npu_fc_new: %s", e1npu_strerror(ret));
	}
	tf_set_shape(l, in, out);
	return 0;
}

int tf_prep_pool(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_operator *op = l->op;
	const struct tfl_tensor *in, *out;
	struct e1npu_qparams qo;
	uint32_t oh, ow;
	int ret;

	if ((ret = tf_want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", 4, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (in->dims[0] != 1)
		return LFAIL(t, li, l, -ENOTSUP, "batch %d (only 1 handled)", in->dims[0]);
	if (op->opt.type != TFL_OPT_POOL2D || op->opt.stride_h < 1 || op->opt.stride_w < 1 ||
	    op->opt.filter_h < 1 || op->opt.filter_w < 1 ||
	    (op->opt.padding != TFL_PAD_SAME && op->opt.padding != TFL_PAD_VALID))
		return LFAIL(t, li, l, -EINVAL, "bad Pool2DOptions");
	memset(&l->pp, 0, sizeof(l->pp));
	l->pp.dtype = dtype_of(in->type);
	l->pp.in_h = (uint32_t)in->dims[1];
	l->pp.in_w = (uint32_t)in->dims[2];
	l->pp.channels = (uint32_t)in->dims[3];
	l->pp.filter_h = (uint32_t)op->opt.filter_h;
	l->pp.filter_w = (uint32_t)op->opt.filter_w;
	l->pp.stride_h = (uint32_t)op->opt.stride_h;
	l->pp.stride_w = (uint32_t)op->opt.stride_w;
	l->pp.padding = map_pad(op->opt.padding);
	if ((ret = tf_qparams(t, li, l, l->in, &l->pp.q)) ||
	    (ret = tf_qparams(t, li, l, l->out, &qo)) ||
	    (ret = tf_map_act(t, li, l, op->opt.act, &l->pp.act)))
		return ret;
	if (qo.scale != l->pp.q.scale || qo.zero_point != l->pp.q.zero_point)
		return LFAIL(t, li, l, -ENOTSUP, "input and output quantization differ");
	ret = e1npu_ops_pool_output_size(&l->pp, &oh, &ow);
	if (ret)
		return LFAIL(t, li, l, ret,
			     "pool geometry rejected: input %ux%ux%u, filter %ux%u, stride %ux%u",
			     l->pp.in_h, l->pp.in_w, l->pp.channels, l->pp.filter_h,
			     l->pp.filter_w, l->pp.stride_h, l->pp.stride_w);
	if ((uint32_t)out->dims[1] != oh || (uint32_t)out->dims[2] != ow ||
	    out->dims[3] != in->dims[3] || out->dims[0] != 1)
		return LFAIL(t, li, l, -EINVAL, "output shape does not match the options");
	tf_set_shape(l, in, out);
	return 0;
}

/*
 * TRANSPOSE_CONV's filter quantization as TFLite 2.2 takes it: uint8 one
 * scale and zero point, int8 one scale per output channel (or one) with
 * zero points 0; each channel's multiplier as 2.2 forms it (uint8: the
 * single-precision product of the scales, int8: the double one).
 */
static int tconv_quant(struct e1npu_tflite *t, uint32_t li, struct layer *l, int32_t fi,
		       const struct e1npu_qparams *qi, const struct e1npu_qparams *qo)
{
	const struct tfl_tensor *f = T(t, fi);
	struct tfl_tconv *s = &l->tconv;
	uint32_t n = f->num_scales, oc = (uint32_t)s->out[3];
	bool is_u8 = f->type == TFL_TYPE_UINT8;

	if (!n || (n != 1 && (is_u8 || n != oc)))
		return LFAIL(t, li, l, -ENOTSUP, "filter %d (%s): %u scales for %u output channels (%s)",
			     fi, f->name, n, oc, is_u8 ? "uint8: one" : "int8: one or one a channel");
	if (n > 1 && f->quantized_dimension != 0)
		return LFAIL(t, li, l, -EINVAL, "filter %d (%s): quantized_dimension %d, expected 0",
			     fi, f->name, f->quantized_dimension);
	for (uint32_t k = 0; k < f->num_zero_points; k++) {
		int64_t zp = tfl_zero_point(f, k);

		if (is_u8 ? (zp < 0 || zp > 255) : zp != 0)
			return LFAIL(t, li, l, -ENOTSUP, "filter %d (%s): zero point %lld (%s)",
				     fi, f->name, (long long)zp,
				     is_u8 ? "uint8: 0..255" : "int8: TFLite 2.2 takes 0");
		if (is_u8)
			s->zp_w = (int32_t)zp;
	}
	for (uint32_t c = 0; c < oc; c++) {
		float ws = tfl_scale(f, n == 1 ? 0 : c);
		double real = e1q_conv_scale(is_u8, qi->scale, ws, qo->scale);

		if (!(ws > 0) || !isfinite(ws) ||
		    e1q_quantize_multiplier(real, &s->mult[c], &s->shift[c]))
			return LFAIL(t, li, l, -EINVAL,
				     "channel %u: input scale %g x weight scale %g / output scale %g is not a representable requantization multiplier",
				     c, (double)qi->scale, (double)ws, (double)qo->scale);
	}
	return 0;
}

/*
 * TRANSPOSE_CONV (batch 1) as an e1 convolution of the stuffed input
 * (tflite_tconv_lower.h): the same int32 sums and the convolution's
 * requantization, which 2.2 forms as for TRANSPOSE_CONV. 0 when l->conv is
 * made; otherwise the layer stays on the host (-ENOMEM is the caller's).
 */
static int tconv_on_e1(struct e1npu_tflite *t, struct layer *l, const struct tfl_tensor *w,
		       const struct e1npu_qparams *qi, const struct e1npu_qparams *qo)
{
	const struct tfl_tconv *s = &l->tconv;
	uint32_t oc = (uint32_t)s->out[3], n = w->num_scales;
	int ret = tfl_tconv_lower_prepare(&l->tconv_lw, s);

	if (ret)
		return ret;
	l->wscales = malloc(n * sizeof(float));
	l->bias = calloc(oc, sizeof(int32_t));	/* 2.2 takes no bias */
	if (!l->wscales || !l->bias)
		return -ENOMEM;
	for (uint32_t c = 0; c < n; c++)
		l->wscales[c] = tfl_scale(w, c);
	memset(&l->cp, 0, sizeof(l->cp));
	l->cp.kind = E1NPU_OPS_CONV2D;
	l->cp.dtype = dtype_of(w->type);
	l->cp.in_h = (uint32_t)l->tconv_lw.sh;
	l->cp.in_w = (uint32_t)l->tconv_lw.sw;
	l->cp.c_in = (uint32_t)s->in[3];
	l->cp.c_out = oc;
	l->cp.kh = (uint32_t)s->fh;
	l->cp.kw = (uint32_t)s->fw;
	l->cp.stride_h = l->cp.stride_w = l->cp.dil_h = l->cp.dil_w = 1;
	l->cp.padding = E1NPU_PAD_VALID;
	l->cp.groups = 1;
	l->cp.depth_multiplier = 1;
	l->cp.input = *qi;
	l->cp.output = *qo;
	l->cp.weight_zero_point = s->zp_w;
	l->cp.weight_scales = l->wscales;
	l->cp.num_weight_scales = n;
	l->cp.act = E1NPU_ACT_NONE;
	ret = e1npu_conv_new(t->ops, &l->cp, l->tconv_lw.hwio, l->bias, &l->conv);
	if (ret) {		/* no lowering for it: the host scatter runs it */
		l->conv = NULL;
		tfl_tconv_lower_free(&l->tconv_lw);
		return ret == -ENOMEM ? ret : 0;
	}
	return 0;
}

/* TRANSPOSE_CONV: constant int32 output_shape [4], constant filter, input (no bias in 2.2). */
int tf_prep_tconv(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *w, *out;
	const struct tfl_options *o = &l->op->opt;
	struct tfl_tconv *s = &l->tconv;
	struct e1npu_qparams qi, qo;
	int32_t os[4];
	int ret;

	if (l->op->num_inputs == 4)
		return LFAIL(t, li, l, -ENOTSUP, "a bias input: TFLite 2.2's TRANSPOSE_CONV takes none");
	if (l->op->num_inputs != 3 || l->op->inputs[1] < 0 || l->op->inputs[2] < 0)
		return LFAIL(t, li, l, -EINVAL, "needs output_shape, weights and input");
	l->in = l->op->inputs[2];
	if ((ret = tf_const_ints(t, li, l, l->op->inputs[0], "output_shape", 4, os)) ||
	    (ret = tf_want(t, li, l, l->op->inputs[1], "weights", 4, true)) ||
	    (ret = tf_want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", 4, false)))
		return ret;
	in = T(t, l->in);
	w = T(t, l->op->inputs[1]);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, l->out, in->type)) ||
	    (ret = tf_want_act_type(t, li, l, l->op->inputs[1], in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s (uint8, int8 handled)",
					 tfl_type_name(in->type));
	if (o->type != TFL_OPT_TRANSPOSE_CONV || o->stride_w < 1 || o->stride_h < 1 ||
	    (o->padding != TFL_PAD_SAME && o->padding != TFL_PAD_VALID))
		return LFAIL(t, li, l, -EINVAL, "stride %dx%d, padding %d (strides >= 1, SAME or VALID)",
			     o->stride_h, o->stride_w, o->padding);
	if (memcmp(os, out->dims, sizeof(os)))
		return LFAIL(t, li, l, -EINVAL, "output_shape %d,%d,%d,%d is not the output's %d,%d,%d,%d",
			     os[0], os[1], os[2], os[3], out->dims[0], out->dims[1], out->dims[2],
			     out->dims[3]);
	if (w->dims[0] != out->dims[3] || w->dims[3] != in->dims[3] || in->dims[0] != out->dims[0])
		return LFAIL(t, li, l, -EINVAL,
			     "weights %dx%dx%dx%d do not map input %dx%dx%dx%d to output %dx%dx%dx%d",
			     w->dims[0], w->dims[1], w->dims[2], w->dims[3], in->dims[0], in->dims[1],
			     in->dims[2], in->dims[3], out->dims[0], out->dims[1], out->dims[2],
			     out->dims[3]);
	if ((ret = tf_qparams(t, li, l, l->in, &qi)) || (ret = tf_qparams(t, li, l, l->out, &qo)))
		return ret;
	memcpy(s->in, in->dims, sizeof(s->in));
	memcpy(s->out, out->dims, sizeof(s->out));
	s->fh = w->dims[1];
	s->fw = w->dims[2];
	s->stride_h = o->stride_h;
	s->stride_w = o->stride_w;
	s->pad_h = tfl_tconv_padding(o->padding == TFL_PAD_SAME, out->dims[1], s->fh, s->stride_h);
	s->pad_w = tfl_tconv_padding(o->padding == TFL_PAD_SAME, out->dims[2], s->fw, s->stride_w);
	s->zp_in = qi.zero_point;
	s->zp_out = qo.zero_point;
	s->is_int8 = in->type == TFL_TYPE_INT8;
	if ((ret = tfl_tconv_alloc(s, w->data)))
		return ret == -ENOMEM ? ret :
		       LFAIL(t, li, l, -ENOTSUP, "output of %dx%dx%dx%d too large", out->dims[0],
			     out->dims[1], out->dims[2], out->dims[3]);
	if ((ret = tconv_quant(t, li, l, l->op->inputs[1], &qi, &qo)))
		return ret;
	l->host_why = in->dims[0] != 1 ?
		"transposed convolution of batch > 1 (e1's lowering takes 1): TFLite 2.2's scatter-accumulate on the host" :
		"transposed convolution e1's convolution does not take: TFLite 2.2's scatter-accumulate on the host";
	if (t->path == E1NPU_TFLITE_PATH_NPU && in->dims[0] == 1 &&
	    (ret = tconv_on_e1(t, l, w, &qi, &qo)) == -ENOMEM)
		return ret;
	tf_set_shape(l, in, out);
	return 0;
}
