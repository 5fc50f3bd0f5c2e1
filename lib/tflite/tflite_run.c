// SPDX-License-Identifier: MIT
/*
 * TFLite interpreter on the lowering layer (include/e1npu/e1npu_tflite.h,
 * Documentation/tflite.md). At load: parse (tflite_reader.c), validate
 * every operator's tensors, convert weights once (conv OHWI -> HWIO) and
 * create the e1npu_conv / e1npu_fc objects. At invoke: one call per layer
 * into e1npu_ops (NPU path) or lib/ref (reference path); RESHAPE, QUANTIZE
 * and MEAN run here on the CPU with TFLite's integer arithmetic.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <e1npu/e1npu_tflite.h>

#include "internal.h"
#include "qcommon.h"
#include "quant.h"
#include "arena_plan.h"
#include "ref.h"
#include "tflite_argmax.h"
#include "tflite_bilinear.h"
#include "tflite_concat.h"
#include "tflite_depth_space.h"
#include "tflite_float.h"
#include "tflite_gather.h"
#include "tflite_hswish.h"
#include "tflite_l2norm.h"
#include "tflite_leaky.h"
#include "tflite_lut.h"
#include "tflite_logsoftmax.h"
#include "tflite_layout.h"
#include "tflite_mean.h"
#include "tflite_mul.h"
#include "tflite_pad.h"
#include "tflite_prelu.h"
#include "tflite_reduce.h"
#include "tflite_part.h"
#include "tflite_relu.h"
#include "tflite_resize.h"
#include "tflite_space_batch.h"
#include "tflite_split.h"
#include "tflite_sub.h"
#include "tflite_tconv.h"
#include "tflite_tconv_lower.h"
#include "tflite_why.h"
#include "tflite_reader.h"
#include "tflite_report.h"
#include "tflite_artifact.h"
#include "conv_choice.h"
#include "trace.h"

/* Arena offsets: cache lines (also the 4 bytes the seed's plan asks). */
#define E1NPU_TFLITE_ARENA_ALIGN 64
/*
 * Largest arena (as one tensor, act_bytes(), and a model file): a 700-byte
 * model of three 768 MiB tensors must not make load allocate 2.4 GiB.
 */
#define E1NPU_TFLITE_ARENA_MAX ((size_t)1 << 30)

struct layer {
	const struct tfl_operator *op;
	int32_t in, in2, out;		/* tensor indices */
	/* conv / depthwise / fc */
	struct e1npu_conv_params cp;
	struct e1npu_fc_params fp;
	uint32_t fc_rows;
	void *w;			/* HWIO / depthwise / [n][k] weights */
	int32_t *bias;
	float *wscales;
	struct e1npu_conv *conv;
	struct e1npu_fc *fc;
	/* pools */
	struct e1npu_pool_params pp;
	/* add */
	struct e1npu_qparams qa, qb, qo;
	uint32_t act, dtype;
	size_t count;
	/* softmax */
	uint32_t rows, depth;
	float in_scale, beta;
	/* quantize / mean */
	int32_t mult, in_zp, out_zp, lo, hi;
	int shift;
	uint32_t in_type, out_type;
	struct tfl_mean mean;
	struct tfl_relu relu;
	struct tfl_mul mul;
	struct tfl_pad pad;
	struct tfl_sub sub;
	struct tfl_concat concat;
	struct tfl_layout layout;
	struct tfl_resize resize;
	struct tfl_hswish hswish;
	struct tfl_bcast bcast;		/* MUL, SUB, MAXIMUM, MINIMUM, ADD */
	/* structural / index ops (issue 21) */
	struct tfl_split split;		/* SPLIT, SPLIT_V, UNPACK, PACK */
	struct tfl_argmax argmax;
	struct tfl_gather gather;
	const void *gather_idx;		/* constant indices, or NULL: in2 */
	struct tfl_space_batch space_batch;
	struct tfl_depth_space depth_space;	/* DEPTH_TO_SPACE, SPACE_TO_DEPTH */
	struct tfl_tconv tconv;		/* TRANSPOSE_CONV */
	struct tfl_tconv_lower tconv_lw;	/* ... as an e1 convolution (conv != NULL) */
	struct tfl_reduce reduce;	/* REDUCE_MAX, REDUCE_MIN, SUM */
	struct tfl_prelu prelu;
	struct tfl_logsoftmax logsoftmax;
	const void *alpha;		/* PRELU's constant alpha, or NULL: in2 */
	struct tfl_bilinear bilinear;
	bool add_bcast;			/* ADD of different shapes: on the host */
	struct tfl_lut lut;		/* LOGISTIC, TANH, LEAKY_RELU */
	struct tfl_l2norm l2norm;
	struct tfl_float flt;		/* DEQUANTIZE, QUANTIZE from float32 */
	const char *host_why;		/* host-only layers that say why at load */
	struct e1npu_tflite_layer rep;
};

struct e1npu_tflite {
	uint8_t *file;
	size_t size;
	struct tfl_model m;
	uint32_t path;
	struct e1npu_ops *ops;
	void **buf;			/* per tensor: its place in the arena */
	uint8_t *arena;			/* every activation (arena_plan.c) */
	struct arena_item *plan;	/* per tensor; size 0: not in the arena */
	uint8_t *role;			/* per tensor: E1NPU_TFLITE_ROLE_* */
	struct e1npu_tflite_arena arena_info;
	struct layer *layers;
	uint32_t nlayers;
	bool part;			/* e1npu_tflite_part_*: model and buffers borrowed */
	/* during load from an artifact: per layer, its stored lowering */
	const struct ops_conv_choice *choices;
	char err[256];
};

__attribute__((format(printf, 3, 4)))
static int tf_fail(struct e1npu_tflite *t, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->err, sizeof(t->err), fmt, ap);
	va_end(ap);
	return ret;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint32_t dtype_of(uint32_t type)
{
	return type == TFL_TYPE_UINT8 ? E1NPU_DTYPE_UINT8 :
	       type == TFL_TYPE_INT8 ? E1NPU_DTYPE_INT8 : 0;
}

/*
 * The enum e1npu_dtype of a model input or output, 0 if not one the API
 * takes (int32/int64: outputs only, e.g. ARG_MAX's indices).
 */
static uint32_t io_dtype(uint32_t type)
{
	return type == TFL_TYPE_FLOAT32 ? E1NPU_DTYPE_FLOAT32 :
	       type == TFL_TYPE_INT32 ? E1NPU_DTYPE_INT32 :
	       type == TFL_TYPE_INT64 ? E1NPU_DTYPE_INT64 : dtype_of(type);
}

static void type_range(uint32_t type, int32_t *lo, int32_t *hi)
{
	if (type == TFL_TYPE_UINT8) {
		*lo = 0;
		*hi = 255;
	} else {
		*lo = -128;
		*hi = 127;
	}
}

/* Layer-scoped error: "operator 3 (CONV_2D): ...". */
#define LFAIL(t, i, l, ret, fmt, ...) \
	tf_fail(t, ret, "operator %u (%s): " fmt, i, \
		tfl_builtin_name((l)->op->builtin), ##__VA_ARGS__)

static const struct tfl_tensor *T(const struct e1npu_tflite *t, int32_t i)
{
	return &t->m.tensors[i];
}

/* Per-tensor quantization of an activation tensor, validated. */
static int qparams(struct e1npu_tflite *t, uint32_t li, struct layer *l,
		   int32_t ti, struct e1npu_qparams *q)
{
	const struct tfl_tensor *x = T(t, ti);
	int32_t lo, hi;
	int64_t zp;

	if (!x->num_scales)
		return LFAIL(t, li, l, -EINVAL, "tensor %d (%s) has no quantization",
			     ti, x->name);
	q->scale = tfl_scale(x, 0);
	zp = x->num_zero_points ? tfl_zero_point(x, 0) : 0;
	type_range(x->type, &lo, &hi);
	if (!(q->scale > 0) || !isfinite(q->scale) || zp < lo || zp > hi)
		return LFAIL(t, li, l, -EINVAL,
			     "tensor %d (%s): bad quantization scale %g zero point %lld",
			     ti, x->name, (double)q->scale, (long long)zp);
	q->zero_point = (int32_t)zp;
	return 0;
}

static int map_act(struct e1npu_tflite *t, uint32_t li, struct layer *l,
		   int32_t act, uint32_t *out)
{
	switch (act) {
	case TFL_ACT_NONE: *out = E1NPU_ACT_NONE; return 0;
	case TFL_ACT_RELU: *out = E1NPU_ACT_RELU; return 0;
	case TFL_ACT_RELU6: *out = E1NPU_ACT_RELU6; return 0;
	case TFL_ACT_RELU_N1_TO_1: *out = E1NPU_ACT_RELU_N1_TO_1; return 0;
	default:
		return LFAIL(t, li, l, -ENOTSUP,
			     "fused activation %d not supported", act);
	}
}

/* Tensor @ti must exist, be uint8/int8 (or @type when nonzero) and 4-D/any. */
static int want(struct e1npu_tflite *t, uint32_t li, struct layer *l,
		int32_t ti, const char *role, int ndims, bool constant)
{
	const struct tfl_tensor *x;

	if (ti < 0)
		return LFAIL(t, li, l, -EINVAL, "%s tensor missing", role);
	x = T(t, ti);
	if (ndims >= 0 && x->ndims != (uint32_t)ndims)
		return LFAIL(t, li, l, -EINVAL, "%s tensor %d (%s) has %u dimensions, expected %d",
			     role, ti, x->name, x->ndims, ndims);
	if (constant && !x->data)
		return LFAIL(t, li, l, -ENOTSUP, "%s tensor %d (%s) is not constant",
			     role, ti, x->name);
	if (!constant && x->data)
		return LFAIL(t, li, l, -ENOTSUP, "%s tensor %d (%s) is constant",
			     role, ti, x->name);
	return 0;
}

static int want_act_type(struct e1npu_tflite *t, uint32_t li, struct layer *l,
			 int32_t ti, uint32_t type)
{
	if (T(t, ti)->type != type)
		return LFAIL(t, li, l, -ENOTSUP, "tensor %d (%s) is %s, expected %s",
			     ti, T(t, ti)->name, tfl_type_name(T(t, ti)->type),
			     tfl_type_name(type));
	return 0;
}

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

static void set_shape(struct layer *l, const struct tfl_tensor *in,
		      const struct tfl_tensor *out)
{
	char a[30] = "", b[30] = "";
	const struct tfl_tensor *ts[2] = { in, out };
	char *s[2] = { a, b };

	for (int k = 0; k < 2; k++) {
		size_t o = 0;
		uint32_t first = ts[k]->ndims == 4 ? 1 : 0;

		for (uint32_t d = first; d < ts[k]->ndims && o < 26; d++)
			o += (size_t)snprintf(s[k] + o, 30 - o, "%s%d",
					      d > first ? "x" : "", ts[k]->dims[d]);
	}
	snprintf(l->rep.shape, sizeof(l->rep.shape), "%s->%s", a, b);
}

static int prep_conv(struct e1npu_tflite *t, uint32_t li, struct layer *l)
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
	if ((ret = want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = want(t, li, l, fi, "filter", 4, true)) ||
	    (ret = want(t, li, l, l->out, "output", 4, false)))
		return ret;
	in = T(t, l->in);
	f = T(t, fi);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, fi, in->type)) ||
	    (ret = want_act_type(t, li, l, l->out, in->type)))
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
	if ((ret = qparams(t, li, l, l->in, &l->cp.input)) ||
	    (ret = qparams(t, li, l, l->out, &l->cp.output)) ||
	    (ret = map_act(t, li, l, op->opt.act, &l->cp.act)) ||
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
	set_shape(l, in, out);
	return 0;
}

static int prep_fc(struct e1npu_tflite *t, uint32_t li, struct layer *l)
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
	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, fi, "weights", 2, true)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	f = T(t, fi);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, fi, in->type)) ||
	    (ret = want_act_type(t, li, l, l->out, in->type)))
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
	l->fc_rows = (uint32_t)(cnt / k);
	if ((ret = qparams(t, li, l, l->in, &l->fp.input)) ||
	    (ret = qparams(t, li, l, l->out, &l->fp.output)) ||
	    (ret = map_act(t, li, l, op->opt.act, &l->fp.act)) ||
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
	set_shape(l, in, out);
	return 0;
}

static int prep_pool(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_operator *op = l->op;
	const struct tfl_tensor *in, *out;
	struct e1npu_qparams qo;
	uint32_t oh, ow;
	int ret;

	if ((ret = want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = want(t, li, l, l->out, "output", 4, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, l->out, in->type)))
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
	if ((ret = qparams(t, li, l, l->in, &l->pp.q)) ||
	    (ret = qparams(t, li, l, l->out, &qo)) ||
	    (ret = map_act(t, li, l, op->opt.act, &l->pp.act)))
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
	set_shape(l, in, out);
	return 0;
}

/*
 * What every two-input elementwise operator checks first: two inputs, and
 * both inputs and the output activations of one 8-bit type. Sets l->in2
 * and the three tensors.
 */
static int prep_binary(struct e1npu_tflite *t, uint32_t li, struct layer *l,
		       const struct tfl_tensor **a, const struct tfl_tensor **b,
		       const struct tfl_tensor **out)
{
	int ret;

	if (l->op->num_inputs != 2)
		return LFAIL(t, li, l, -EINVAL, "needs 2 inputs");
	l->in2 = l->op->inputs[1];
	if ((ret = want(t, li, l, l->in, "input 0", -1, false)) ||
	    (ret = want(t, li, l, l->in2, "input 1", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	*a = T(t, l->in);
	*b = T(t, l->in2);
	*out = T(t, l->out);
	if (!dtype_of((*a)->type) || (ret = want_act_type(t, li, l, l->in2, (*a)->type)) ||
	    (ret = want_act_type(t, li, l, l->out, (*a)->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name((*a)->type));
	return 0;
}

static int prep_add(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *a, *b, *out;
	int ret;

	if ((ret = prep_binary(t, li, l, &a, &b, &out)))
		return ret;
	l->add_bcast = a->ndims != b->ndims || a->ndims != out->ndims ||
		       memcmp(a->dims, b->dims, a->ndims * sizeof(int32_t)) ||
		       memcmp(a->dims, out->dims, a->ndims * sizeof(int32_t));
	if (l->add_bcast && tfl_bcast_prepare(&l->bcast, a->dims, a->ndims, b->dims, b->ndims,
					      out->dims, out->ndims))
		return LFAIL(t, li, l, -ENOTSUP, "shapes do not broadcast to the output (rank 4 at most)");
	l->dtype = dtype_of(a->type);
	l->count = tfl_tensor_count(a);
	if ((ret = qparams(t, li, l, l->in, &l->qa)) ||
	    (ret = qparams(t, li, l, l->in2, &l->qb)) ||
	    (ret = qparams(t, li, l, l->out, &l->qo)) ||
	    (ret = map_act(t, li, l, l->op->opt.act, &l->act)))
		return ret;
	{
		/* what e1npu_ops_add would refuse at run time, refused at load */
		struct e1q_add_rescale rs;

		if (e1q_add_rescale(l->qa.scale, l->qb.scale, l->qo.scale, &rs))
			return LFAIL(t, li, l, -EINVAL,
				     "scales a %g, b %g, out %g: a rescale multiplier is out of range",
				     (double)l->qa.scale, (double)l->qb.scale,
				     (double)l->qo.scale);
	}
	if (l->add_bcast)
		tfl_add_prepare(&l->sub, a->type == TFL_TYPE_UINT8, l->act, l->qa, l->qb, l->qo);
	set_shape(l, a, out);
	return 0;
}

static int prep_softmax(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	struct e1npu_qparams qi, qo;
	int ret;

	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (!in->ndims || !in->dims[in->ndims - 1] ||
	    tfl_tensor_count(in) != tfl_tensor_count(out))
		return LFAIL(t, li, l, -EINVAL, "bad shapes");
	if ((ret = qparams(t, li, l, l->in, &qi)) ||
	    (ret = qparams(t, li, l, l->out, &qo)))
		return ret;
	if (qo.scale != 1.0f / 256 ||
	    qo.zero_point != (in->type == TFL_TYPE_UINT8 ? 0 : -128))
		return LFAIL(t, li, l, -ENOTSUP,
			     "output quantization (%g, %d) is not TFLite's fixed 1/256",
			     (double)qo.scale, qo.zero_point);
	l->dtype = dtype_of(in->type);
	l->depth = (uint32_t)in->dims[in->ndims - 1];
	l->rows = (uint32_t)(tfl_tensor_count(in) / l->depth);
	l->in_scale = qi.scale;
	l->beta = l->op->opt.type == TFL_OPT_SOFTMAX ? l->op->opt.beta : 1.0f;
	set_shape(l, in, out);
	return 0;
}

static int prep_reshape(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	int ret;

	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (in->type != out->type || !tfl_type_size(in->type) ||
	    tfl_tensor_count(in) != tfl_tensor_count(out))
		return LFAIL(t, li, l, -EINVAL, "input and output differ in type or size");
	set_shape(l, in, out);
	return 0;
}

static int prep_float(struct e1npu_tflite *t, uint32_t li, struct layer *l);

/* QUANTIZE between uint8/int8: TFLite's Requantize (from float32: prep_float). */
static int prep_quantize(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	struct e1npu_qparams qi, qo;
	int ret;

	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (in->type == TFL_TYPE_FLOAT32)
		return prep_float(t, li, l);
	if (!dtype_of(in->type) || !dtype_of(out->type))
		return LFAIL(t, li, l, -ENOTSUP, "%s -> %s (only uint8/int8 requantization)",
			     tfl_type_name(in->type), tfl_type_name(out->type));
	if (tfl_tensor_count(in) != tfl_tensor_count(out))
		return LFAIL(t, li, l, -EINVAL, "input and output sizes differ");
	if ((ret = qparams(t, li, l, l->in, &qi)) ||
	    (ret = qparams(t, li, l, l->out, &qo)))
		return ret;
	if (e1q_quantize_multiplier((double)qi.scale / (double)qo.scale, &l->mult, &l->shift))
		return LFAIL(t, li, l, -EINVAL, "bad scales");
	l->in_zp = qi.zero_point;
	l->out_zp = qo.zero_point;
	l->in_type = in->type;
	l->out_type = out->type;
	type_range(out->type, &l->lo, &l->hi);
	l->count = tfl_tensor_count(in);
	set_shape(l, in, out);
	return 0;
}

/* MEAN over H and W of a 4-D tensor: reference_integer_ops::Mean. */
static int prep_mean(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out, *ax;
	struct e1npu_qparams qi, qo;
	bool h = false, w = false;
	int ret;

	if (l->op->num_inputs != 2)
		return LFAIL(t, li, l, -EINVAL, "needs input and axis");
	if ((ret = want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = want(t, li, l, l->op->inputs[1], "axis", 1, true)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	ax = T(t, l->op->inputs[1]);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (ax->type != TFL_TYPE_INT32)
		return LFAIL(t, li, l, -EINVAL, "axis is not int32");
	for (size_t i = 0; i < tfl_tensor_count(ax); i++) {
		int32_t a;

		memcpy(&a, ax->data + 4 * i, 4);
		h |= a == 1 || a == -3;
		w |= a == 2 || a == -2;
		if (a != 1 && a != 2 && a != -3 && a != -2)
			h = w = false, i = SIZE_MAX - 1;
	}
	if (!h || !w || tfl_tensor_count(ax) != 2)
		return LFAIL(t, li, l, -ENOTSUP, "only MEAN over axes {1, 2} is supported");
	if (in->dims[0] != 1 || tfl_tensor_count(out) != (size_t)in->dims[3] ||
	    !in->dims[1] || !in->dims[2])
		return LFAIL(t, li, l, -EINVAL, "output size does not match");
	/* run_mean sums H x W values of at most 255 (- zero point) in int32 */
	if ((uint64_t)in->dims[1] * (uint64_t)in->dims[2] > INT32_MAX / 256)
		return LFAIL(t, li, l, -ENOTSUP,
			     "MEAN over %d x %d positions: its int32 sum could overflow",
			     in->dims[1], in->dims[2]);
	if ((ret = qparams(t, li, l, l->in, &qi)) ||
	    (ret = qparams(t, li, l, l->out, &qo)))
		return ret;
	/* no options: TFLite's default, keep_dims false */
	if (tfl_mean_prepare(&l->mean, in->type == TFL_TYPE_UINT8,
			     l->op->opt.type == TFL_OPT_REDUCER && l->op->opt.keep_dims,
			     (uint32_t)in->dims[1], (uint32_t)in->dims[2],
			     (uint32_t)in->dims[3], qi, qo))
		return LFAIL(t, li, l, -EINVAL, "bad scales");
	l->in_type = in->type;
	set_shape(l, in, out);
	return 0;
}

/* CONCATENATION along one axis of same-rank uint8/int8 tensors. */
static int prep_concat(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_operator *op = l->op;
	const struct tfl_tensor *out = T(t, l->out);
	struct e1npu_qparams qi[TFL_CONCAT_MAX], qo;
	size_t inner[TFL_CONCAT_MAX], outer = 1;
	int32_t axis = op->opt.type == TFL_OPT_CONCATENATION ? op->opt.axis : 0;
	int64_t along = 0;
	int ret;

	if (op->num_inputs > TFL_CONCAT_MAX)
		return LFAIL(t, li, l, -ENOTSUP, "%u inputs (at most %d)", op->num_inputs,
			     TFL_CONCAT_MAX);
	if (op->opt.type == TFL_OPT_CONCATENATION && op->opt.act != TFL_ACT_NONE)
		return LFAIL(t, li, l, -ENOTSUP, "fused activation %d on quantized data",
			     op->opt.act);
	if ((ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	if (!dtype_of(out->type))
		return LFAIL(t, li, l, -ENOTSUP, "output type %s", tfl_type_name(out->type));
	if (axis < 0)
		axis += (int32_t)out->ndims;
	if (axis < 0 || axis >= (int32_t)out->ndims)
		return LFAIL(t, li, l, -EINVAL, "axis %d of a rank %u output", op->opt.axis,
			     out->ndims);
	for (int32_t d = 0; d < axis; d++)
		outer *= (size_t)out->dims[d];
	for (uint32_t k = 0; k < op->num_inputs; k++) {
		const struct tfl_tensor *x;

		if ((ret = want(t, li, l, op->inputs[k], "input", (int)out->ndims, false)) ||
		    (ret = want_act_type(t, li, l, op->inputs[k], out->type)) ||
		    (ret = qparams(t, li, l, op->inputs[k], &qi[k])))
			return ret;
		x = T(t, op->inputs[k]);
		inner[k] = 1;
		for (uint32_t d = 0; d < out->ndims; d++) {
			if ((int32_t)d != axis && x->dims[d] != out->dims[d])
				return LFAIL(t, li, l, -EINVAL, "input %u dimension %u is %d, output %d",
					     k, d, x->dims[d], out->dims[d]);
			if ((int32_t)d >= axis)
				inner[k] *= (size_t)x->dims[d];
		}
		along += x->dims[axis];
	}
	if (along != out->dims[axis])
		return LFAIL(t, li, l, -EINVAL, "inputs add up to %lld along axis %d, output %d",
			     (long long)along, axis, out->dims[axis]);
	if ((ret = qparams(t, li, l, l->out, &qo)))
		return ret;
	ret = tfl_concat_prepare(&l->concat, out->type == TFL_TYPE_UINT8, op->num_inputs,
				 outer, inner, qi, qo);
	if (ret)
		return LFAIL(t, li, l, ret, "int8 inputs must be quantized as the output (TFLite's rule)");
	l->in2 = op->num_inputs > 1 ? op->inputs[1] : -1;
	set_shape(l, T(t, l->in), out);
	return 0;
}

/* A constant int32 vector of @n elements (TRANSPOSE's perm, SLICE's begin/size). */
static int const_ints(struct e1npu_tflite *t, uint32_t li, struct layer *l, int32_t ti,
		      const char *role, uint32_t n, int32_t *v)
{
	const struct tfl_tensor *x;
	int ret = want(t, li, l, ti, role, 1, true);

	if (ret)
		return ret;
	x = T(t, ti);
	if (x->type != TFL_TYPE_INT32 || x->dims[0] != (int32_t)n)
		return LFAIL(t, li, l, -ENOTSUP, "%s must be int32 [%u]", role, n);
	memcpy(v, x->data, 4 * n);
	return 0;
}

/* TRANSPOSE, SLICE: the stored values moved, rank <= 4 (tflite_layout.c). */
static int prep_layout(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	bool tr = l->op->builtin == TFL_OP_TRANSPOSE;
	int32_t a[4], b[4], od[4];
	int ret;

	if (l->op->num_inputs != (tr ? 2u : 3u))
		return LFAIL(t, li, l, -EINVAL, "needs %s", tr ? "input and perm" :
			     "input, begin and size");
	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (in->ndims > 4 || !in->ndims)
		return LFAIL(t, li, l, -ENOTSUP, "rank %u (1 to 4 handled)", in->ndims);
	if ((ret = const_ints(t, li, l, l->op->inputs[1], tr ? "perm" : "begin", in->ndims, a)) ||
	    (!tr && (ret = const_ints(t, li, l, l->op->inputs[2], "size", in->ndims, b))))
		return ret;
	if (tr ? tfl_transpose_prepare(&l->layout, in->dims, in->ndims, a, od) :
		 tfl_slice_prepare(&l->layout, in->dims, in->ndims, a, b, od))
		return LFAIL(t, li, l, -EINVAL, "bad %s", tr ? "permutation" : "begin or size");
	if (out->ndims != in->ndims || memcmp(od, out->dims, 4 * in->ndims))
		return LFAIL(t, li, l, -EINVAL, "output shape does not match");
	set_shape(l, in, out);
	return 0;
}

/* STRIDED_SLICE: constant int32 begin, end, strides; rank 1 to 4. */
static int prep_strided_slice(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	const struct tfl_options *o = &l->op->opt;
	bool typed = o->type == TFL_OPT_STRIDED_SLICE;
	int32_t b[4], e[4], s[4], od[4];
	uint32_t on;
	int ret;

	if (l->op->num_inputs != 4)
		return LFAIL(t, li, l, -EINVAL, "needs input, begin, end and strides");
	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (in->ndims > 4 || !in->ndims)
		return LFAIL(t, li, l, -ENOTSUP, "rank %u (1 to 4 handled)", in->ndims);
	if (typed && (o->ellipsis_mask || o->new_axis_mask))
		return LFAIL(t, li, l, -ENOTSUP, "ellipsis and new-axis masks not supported");
	if ((ret = const_ints(t, li, l, l->op->inputs[1], "begin", in->ndims, b)) ||
	    (ret = const_ints(t, li, l, l->op->inputs[2], "end", in->ndims, e)) ||
	    (ret = const_ints(t, li, l, l->op->inputs[3], "strides", in->ndims, s)))
		return ret;
	if (tfl_strided_slice_prepare(&l->layout, in->dims, in->ndims, b, e, s,
				      typed ? o->begin_mask : 0, typed ? o->end_mask : 0,
				      typed ? o->shrink_axis_mask : 0, od, &on))
		return LFAIL(t, li, l, -EINVAL, "a zero stride or an empty slice");
	if (out->ndims != on || memcmp(od, out->dims, 4 * on))
		return LFAIL(t, li, l, -EINVAL, "output shape does not match");
	set_shape(l, in, out);
	return 0;
}

/* RESIZE_NEAREST_NEIGHBOR of [1, H, W, C] to a constant int32 size. */
static int prep_resize(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	int32_t size[2];
	int ret;

	if (l->op->num_inputs != 2)
		return LFAIL(t, li, l, -EINVAL, "needs input and size");
	if ((ret = want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = want(t, li, l, l->out, "output", 4, false)) ||
	    (ret = const_ints(t, li, l, l->op->inputs[1], "size", 2, size)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	/* options unread: TFLite 2.2's kernel ignores align_corners and
	 * half_pixel_centers (checked: resize-*-align, resize-u8-half) */
	if (in->dims[0] != 1 || out->dims[0] != 1 || out->dims[1] != size[0] ||
	    out->dims[2] != size[1] || out->dims[3] != in->dims[3])
		return LFAIL(t, li, l, -EINVAL, "output shape does not match the size");
	ret = tfl_resize_prepare(&l->resize, (uint32_t)in->dims[1], (uint32_t)in->dims[2],
				 (uint32_t)size[0], (uint32_t)size[1], (uint32_t)in->dims[3]);
	if (ret)
		return ret == -ENOMEM ? ret : LFAIL(t, li, l, ret, "sizes %dx%d (1 to %d)",
						    size[0], size[1], TFL_RESIZE_MAX);
	set_shape(l, in, out);
	return 0;
}

/* An axis @a of a rank @rank tensor, negative from the end: into @axis. */
static int norm_axis(struct e1npu_tflite *t, uint32_t li, struct layer *l, int64_t a,
		     uint32_t rank, uint32_t *axis)
{
	int64_t r = a < 0 ? a + (int64_t)rank : a;

	if (r < 0 || r >= (int64_t)rank)
		return LFAIL(t, li, l, -EINVAL, "axis %lld of a rank %u tensor", (long long)a,
			     rank);
	*axis = (uint32_t)r;
	return 0;
}

/* A constant int32/int64 tensor of one element (SPLIT's, ARG_MAX's axis). */
static int const_axis(struct e1npu_tflite *t, uint32_t li, struct layer *l, int32_t ti,
		      uint32_t rank, uint32_t *axis)
{
	const struct tfl_tensor *x;
	int ret = want(t, li, l, ti, "axis", -1, true);
	int64_t a;

	if (ret)
		return ret;
	x = T(t, ti);
	if (tfl_tensor_count(x) != 1 || (x->type != TFL_TYPE_INT32 && x->type != TFL_TYPE_INT64))
		return LFAIL(t, li, l, -ENOTSUP, "axis tensor %d (%s) must be one int32 or int64",
			     ti, x->name);
	if (x->type == TFL_TYPE_INT32) {
		int32_t v;

		memcpy(&v, x->data, 4);
		a = v;
	} else {
		memcpy(&a, x->data, 8);
	}
	return norm_axis(t, li, l, a, rank, axis);
}

/*
 * Tensor @ti (@role) of @ref's type and of @ref's shape with dimension
 * @axis @len, or removed when @drop (UNPACK's outputs, PACK's inputs).
 */
static int want_part(struct e1npu_tflite *t, uint32_t li, struct layer *l, int32_t ti,
		     const char *role, const struct tfl_tensor *ref, uint32_t axis,
		     int32_t len, bool drop)
{
	const struct tfl_tensor *x;
	int32_t d[TFL_MAX_DIMS];
	uint32_t n = 0;
	int ret;

	if ((ret = want(t, li, l, ti, role, -1, false)) ||
	    (ret = want_act_type(t, li, l, ti, ref->type)))
		return ret;
	for (uint32_t i = 0; i < ref->ndims; i++)
		if (i != axis)
			d[n++] = ref->dims[i];
		else if (!drop)
			d[n++] = len;
	x = T(t, ti);
	if (x->ndims != n || memcmp(x->dims, d, 4 * n))
		return LFAIL(t, li, l, -EINVAL, "%s tensor %d (%s) shape does not match", role,
			     ti, x->name);
	return 0;
}

/* SPLIT_V's size_splits: constant int32/int64 [n], at most one -1 (the rest). */
static int split_sizes(struct e1npu_tflite *t, uint32_t li, struct layer *l, int32_t ti,
		       uint32_t n, int32_t along, int32_t *sizes)
{
	const struct tfl_tensor *x;
	int64_t sum = 0;
	int ret = want(t, li, l, ti, "size_splits", 1, true);
	int rest = -1;

	if (ret)
		return ret;
	x = T(t, ti);
	if ((x->type != TFL_TYPE_INT32 && x->type != TFL_TYPE_INT64) || x->dims[0] != (int32_t)n)
		return LFAIL(t, li, l, -ENOTSUP, "size_splits must be int32 or int64 [%u]", n);
	for (uint32_t k = 0; k < n; k++) {
		int64_t v;

		if (x->type == TFL_TYPE_INT32) {
			int32_t v32;

			memcpy(&v32, x->data + 4 * k, 4);
			v = v32;
		} else {
			memcpy(&v, x->data + 8 * k, 8);
		}
		if (v == -1 && rest < 0) {
			rest = (int)k;
			v = 0;
		} else if (v < 0 || v > along) {
			return LFAIL(t, li, l, -EINVAL, "size_splits[%u] = %lld (dimension %d)", k,
				     (long long)v, along);
		}
		sizes[k] = (int32_t)v;
		sum += v;
	}
	if (rest >= 0 && sum <= along)
		sizes[rest] = (int32_t)(along - sum);
	else if (sum != along)
		return LFAIL(t, li, l, -EINVAL, "size_splits add up to %lld, dimension %d",
			     (long long)sum, along);
	return 0;
}

/* SPLIT (axis, input), SPLIT_V (input, size_splits, axis), UNPACK (input). */
static int prep_split(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_operator *op = l->op;
	int32_t code = op->builtin, sizes[TFL_SPLIT_MAX];
	uint32_t n = op->num_outputs, axis = 0, need = code == TFL_OP_SPLIT ? 2 :
						    code == TFL_OP_SPLIT_V ? 3 : 1;
	const struct tfl_tensor *in;
	int ret;

	if (op->num_inputs != need)
		return LFAIL(t, li, l, -EINVAL, "%u inputs, expected %u", op->num_inputs, need);
	if (n > TFL_SPLIT_MAX)
		return LFAIL(t, li, l, -ENOTSUP, "%u outputs (at most %d)", n, TFL_SPLIT_MAX);
	if (op->opt.type && op->opt.num != (int32_t)n)
		return LFAIL(t, li, l, -EINVAL, "%s %d, but %u outputs",
			     code == TFL_OP_UNPACK ? "num" : "num_splits", op->opt.num, n);
	if (code == TFL_OP_SPLIT)
		l->in = op->inputs[1];
	if ((ret = want(t, li, l, l->in, "input", -1, false)))
		return ret;
	in = T(t, l->in);
	if (!dtype_of(in->type) || !in->ndims)
		return LFAIL(t, li, l, -ENOTSUP, "input type %s of rank %u", tfl_type_name(in->type),
			     in->ndims);
	if (code == TFL_OP_UNPACK)
		ret = norm_axis(t, li, l, op->opt.type == TFL_OPT_UNPACK ? op->opt.axis : 0,
				in->ndims, &axis);
	else
		ret = const_axis(t, li, l, op->inputs[code == TFL_OP_SPLIT ? 0 : 2], in->ndims,
				 &axis);
	if (ret)
		return ret;
	if (code == TFL_OP_SPLIT_V) {
		if ((ret = split_sizes(t, li, l, op->inputs[1], n, in->dims[axis], sizes)))
			return ret;
	} else {
		if (code == TFL_OP_UNPACK ? in->dims[axis] != (int32_t)n : in->dims[axis] % (int32_t)n)
			return LFAIL(t, li, l, -EINVAL, "dimension %d along axis %u into %u outputs",
				     in->dims[axis], axis, n);
		for (uint32_t k = 0; k < n; k++)
			sizes[k] = in->dims[axis] / (int32_t)n;
	}
	for (uint32_t k = 0; k < n; k++)
		if ((ret = want_part(t, li, l, op->outputs[k], "output", in, axis, sizes[k],
				     code == TFL_OP_UNPACK)))
			return ret;
	if (tfl_split_prepare(&l->split, in->dims, in->ndims, axis, n, sizes))
		return LFAIL(t, li, l, -EINVAL, "sizes do not add up");
	set_shape(l, in, T(t, l->out));
	return 0;
}

/* PACK: n inputs of one shape stacked along a new axis of the output. */
static int prep_pack(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_operator *op = l->op;
	const struct tfl_tensor *out;
	int32_t sizes[TFL_SPLIT_MAX];
	uint32_t n = op->num_inputs, axis = 0;
	int ret;

	if (n > TFL_SPLIT_MAX)
		return LFAIL(t, li, l, -ENOTSUP, "%u inputs (at most %d)", n, TFL_SPLIT_MAX);
	if (op->opt.type && op->opt.num != (int32_t)n)
		return LFAIL(t, li, l, -EINVAL, "values_count %d, but %u inputs", op->opt.num, n);
	if ((ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	out = T(t, l->out);
	if (!dtype_of(out->type) || out->ndims < 1)
		return LFAIL(t, li, l, -ENOTSUP, "output type %s of rank %u",
			     tfl_type_name(out->type), out->ndims);
	if ((ret = norm_axis(t, li, l, op->opt.type == TFL_OPT_PACK ? op->opt.axis : 0,
			     out->ndims, &axis)))
		return ret;
	if (out->dims[axis] != (int32_t)n)
		return LFAIL(t, li, l, -EINVAL, "output dimension %d along axis %u, %u inputs",
			     out->dims[axis], axis, n);
	for (uint32_t k = 0; k < n; k++) {
		if ((ret = want_part(t, li, l, op->inputs[k], "input", out, axis, 1, true)))
			return ret;
		sizes[k] = 1;
	}
	if (tfl_split_prepare(&l->split, out->dims, out->ndims, axis, n, sizes))
		return LFAIL(t, li, l, -EINVAL, "sizes do not add up");
	set_shape(l, T(t, l->in), out);
	return 0;
}

/* ARG_MAX / ARG_MIN: uint8/int8 input, constant axis, int32/int64 output. */
static int prep_argmax(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	uint32_t axis = 0;
	int ret;

	if (l->op->num_inputs != 2)
		return LFAIL(t, li, l, -EINVAL, "needs input and axis");
	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || !in->ndims)
		return LFAIL(t, li, l, -ENOTSUP, "input type %s of rank %u", tfl_type_name(in->type),
			     in->ndims);
	if (out->type != TFL_TYPE_INT32 && out->type != TFL_TYPE_INT64)
		return LFAIL(t, li, l, -ENOTSUP, "output type %s (int32 or int64)",
			     tfl_type_name(out->type));
	if ((ret = const_axis(t, li, l, l->op->inputs[1], in->ndims, &axis)))
		return ret;
	if (out->ndims != in->ndims - 1 || memcmp(out->dims, in->dims, 4 * axis) ||
	    memcmp(out->dims + axis, in->dims + axis + 1, 4 * (in->ndims - 1 - axis)))
		return LFAIL(t, li, l, -EINVAL, "output shape is not the input's without axis %u",
			     axis);
	if (tfl_argmax_prepare(&l->argmax, in->dims, in->ndims, axis,
			       l->op->builtin == TFL_OP_ARG_MIN, in->type == TFL_TYPE_INT8,
			       out->type == TFL_TYPE_INT64))
		return LFAIL(t, li, l, -EINVAL, "empty axis %u", axis);
	set_shape(l, in, out);
	return 0;
}

/* GATHER: uint8/int8 params, int32/int64 indices (checked at run), options' axis. */
static int prep_gather(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *idx, *out;
	int32_t d[TFL_MAX_DIMS];
	uint32_t axis = 0, n = 0;
	int ret;

	if (l->op->num_inputs != 2 || l->op->inputs[1] < 0)
		return LFAIL(t, li, l, -EINVAL, "needs params and indices");
	l->in2 = l->op->inputs[1];
	if ((ret = want(t, li, l, l->in, "params", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)) ||
	    (ret = want(t, li, l, l->in2, "indices", -1, !!T(t, l->in2)->data)))
		return ret;
	in = T(t, l->in);
	idx = T(t, l->in2);
	out = T(t, l->out);
	if (!dtype_of(in->type) || !in->ndims || (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "params type %s of rank %u",
					 tfl_type_name(in->type), in->ndims);
	if (idx->type != TFL_TYPE_INT32 && idx->type != TFL_TYPE_INT64)
		return LFAIL(t, li, l, -ENOTSUP, "indices type %s (int32 or int64)",
			     tfl_type_name(idx->type));
	if ((ret = norm_axis(t, li, l, l->op->opt.type == TFL_OPT_GATHER ? l->op->opt.axis : 0,
			     in->ndims, &axis)))
		return ret;
	if (in->ndims - 1 + idx->ndims > TFL_MAX_DIMS)
		return LFAIL(t, li, l, -ENOTSUP, "output rank over %d", TFL_MAX_DIMS);
	for (uint32_t i = 0; i < axis; i++)
		d[n++] = in->dims[i];
	for (uint32_t i = 0; i < idx->ndims; i++)
		d[n++] = idx->dims[i];
	for (uint32_t i = axis + 1; i < in->ndims; i++)
		d[n++] = in->dims[i];
	if (out->ndims != n || memcmp(out->dims, d, 4 * n))
		return LFAIL(t, li, l, -EINVAL, "output shape does not match");
	tfl_gather_prepare(&l->gather, in->dims, in->ndims, axis, tfl_tensor_count(idx),
			   idx->type == TFL_TYPE_INT64);
	if (idx->data) {	/* constant indices: a bad one refused at load */
		int64_t bad;
		size_t pos;

		if (tfl_gather_check(&l->gather, idx->data, &bad, &pos))
			return LFAIL(t, li, l, -EINVAL, "index %lld (position %zu) out of [0, %d)",
				     (long long)bad, pos, in->dims[axis]);
		l->in2 = -1;
		l->gather_idx = idx->data;
	}
	set_shape(l, in, out);
	return 0;
}

/* SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND: 4-D, constant block [2], paddings/crops [2, 2]. */
static int prep_space_batch(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out, *bk, *pc;
	bool tb = l->op->builtin == TFL_OP_SPACE_TO_BATCH_ND;
	const char *what = tb ? "paddings" : "crops";
	struct e1npu_qparams qo;
	int32_t block[2], p[4], od[4];
	int ret;

	if (l->op->num_inputs != 3)
		return LFAIL(t, li, l, -EINVAL, "needs input, block_shape and %s", what);
	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)) ||
	    (ret = want(t, li, l, l->op->inputs[1], "block_shape", 1, true)) ||
	    (ret = want(t, li, l, l->op->inputs[2], what, 2, true)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	bk = T(t, l->op->inputs[1]);
	pc = T(t, l->op->inputs[2]);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (in->ndims != 4 || out->ndims != 4)
		return LFAIL(t, li, l, -ENOTSUP, "rank %u (4-D handled)", in->ndims);
	if (bk->type != TFL_TYPE_INT32 || bk->dims[0] != 2 || pc->type != TFL_TYPE_INT32 ||
	    pc->dims[0] != 2 || pc->dims[1] != 2)
		return LFAIL(t, li, l, -ENOTSUP, "block_shape must be int32 [2], %s int32 [2, 2]",
			     what);
	memcpy(block, bk->data, 8);
	memcpy(p, pc->data, 16);
	if ((ret = qparams(t, li, l, l->out, &qo)))
		return ret;
	if (tfl_space_batch_prepare(&l->space_batch, tb, in->dims, block, p, qo.zero_point, od))
		return LFAIL(t, li, l, -EINVAL, "block %dx%d with %s %d,%d,%d,%d does not fit %dx%dx%d",
			     block[0], block[1], what, p[0], p[1], p[2], p[3], in->dims[0],
			     in->dims[1], in->dims[2]);
	if (memcmp(od, out->dims, sizeof(od)))
		return LFAIL(t, li, l, -EINVAL, "output shape does not match");
	set_shape(l, in, out);
	return 0;
}

/* DEPTH_TO_SPACE / SPACE_TO_DEPTH: 4-D uint8/int8, the options' block_size. */
static int prep_depth_space(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	bool ts = l->op->builtin == TFL_OP_DEPTH_TO_SPACE;
	uint32_t want_opt = ts ? TFL_OPT_DEPTH_TO_SPACE : TFL_OPT_SPACE_TO_DEPTH;
	int32_t block, od[4];
	int ret;

	if (l->op->num_inputs != 1)
		return LFAIL(t, li, l, -EINVAL, "%u inputs (1 taken)", l->op->num_inputs);
	if ((ret = want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = want(t, li, l, l->out, "output", 4, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s (uint8, int8 handled)",
					 tfl_type_name(in->type));
	block = l->op->opt.type == want_opt ? l->op->opt.block_size : 0;
	if (tfl_depth_space_prepare(&l->depth_space, ts, in->dims, block, 1, od))
		return LFAIL(t, li, l, -EINVAL, "block_size %d does not fit input %dx%dx%dx%d",
			     block, in->dims[0], in->dims[1], in->dims[2], in->dims[3]);
	if (memcmp(od, out->dims, sizeof(od)))
		return LFAIL(t, li, l, -EINVAL, "output shape %dx%dx%dx%d, expected %dx%dx%dx%d",
			     out->dims[0], out->dims[1], out->dims[2], out->dims[3], od[0], od[1],
			     od[2], od[3]);
	set_shape(l, in, out);
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
static int prep_tconv(struct e1npu_tflite *t, uint32_t li, struct layer *l)
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
	if ((ret = const_ints(t, li, l, l->op->inputs[0], "output_shape", 4, os)) ||
	    (ret = want(t, li, l, l->op->inputs[1], "weights", 4, true)) ||
	    (ret = want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = want(t, li, l, l->out, "output", 4, false)))
		return ret;
	in = T(t, l->in);
	w = T(t, l->op->inputs[1]);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, l->out, in->type)) ||
	    (ret = want_act_type(t, li, l, l->op->inputs[1], in->type)))
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
	if ((ret = qparams(t, li, l, l->in, &qi)) || (ret = qparams(t, li, l, l->out, &qo)))
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
	set_shape(l, in, out);
	return 0;
}

/* REDUCE_MAX, REDUCE_MIN, SUM: uint8/int8, constant int32 axes (any), keep_dims. */
static int prep_reduce(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *ax, *out;
	int32_t od[TFL_MAX_DIMS], axes[TFL_MAX_DIMS * 4], bad = 0;
	bool keep = l->op->opt.type == TFL_OPT_REDUCER && l->op->opt.keep_dims;
	enum tfl_reduce_kind kind = l->op->builtin == TFL_OP_REDUCE_MAX ? TFL_REDUCE_MAX :
				    l->op->builtin == TFL_OP_REDUCE_MIN ? TFL_REDUCE_MIN :
				    TFL_REDUCE_SUM_WRAP;
	struct e1npu_qparams qi, qo;
	uint32_t on = 0;
	size_t na;
	int ret;

	if (l->op->num_inputs != 2 || l->op->inputs[1] < 0)
		return LFAIL(t, li, l, -EINVAL, "needs input and axes");
	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)) ||
	    (ret = want(t, li, l, l->op->inputs[1], "axes", -1, true)))
		return ret;
	in = T(t, l->in);
	ax = T(t, l->op->inputs[1]);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s (uint8, int8 handled)",
					 tfl_type_name(in->type));
	na = tfl_tensor_count(ax);
	if (ax->type != TFL_TYPE_INT32 || ax->ndims > 1 || na > TFL_MAX_DIMS * 4)
		return LFAIL(t, li, l, -ENOTSUP, "axes must be int32, rank 0 or 1, at most %d",
			     TFL_MAX_DIMS * 4);
	memcpy(axes, ax->data, 4 * na);
	if (tfl_reduce_prepare(&l->reduce, kind, in->type == TFL_TYPE_INT8, in->dims, in->ndims,
			       axes, (uint32_t)na, keep, od, &on, &bad))
		return LFAIL(t, li, l, -EINVAL, "axis %d of a rank %u tensor", bad, in->ndims);
	if (out->ndims != on || memcmp(out->dims, od, 4 * on))
		return LFAIL(t, li, l, -EINVAL, "output shape does not match the reduction (keep_dims %d)",
			     keep);
	if ((ret = qparams(t, li, l, l->in, &qi)) || (ret = qparams(t, li, l, l->out, &qo)))
		return ret;
	/* 2.2 sums in the 8-bit type only when scale and zero point are equal */
	if (kind == TFL_REDUCE_SUM_WRAP && (qi.scale != qo.scale || qi.zero_point != qo.zero_point)) {
		l->reduce.kind = TFL_REDUCE_SUM_RESCALE;
		if (l->reduce.nout && l->reduce.nin / l->reduce.nout > INT32_MAX)
			return LFAIL(t, li, l, -ENOTSUP, "%zu elements a sum (int32 at most)",
				     l->reduce.nin / l->reduce.nout);
		if ((ret = tfl_reduce_rescale(&l->reduce, qi.scale, qi.zero_point, qo.scale,
					      qo.zero_point)))
			return ret;
	}
	set_shape(l, in, out);
	return 0;
}

/* PRELU: uint8 input and alpha (constant or not) broadcast to the output. */
static int prep_prelu(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *a, *out;
	struct e1npu_qparams qi, qa, qo;
	int ret;

	if (l->op->num_inputs != 2 || l->op->inputs[1] < 0)
		return LFAIL(t, li, l, -EINVAL, "needs input and alpha");
	l->in2 = l->op->inputs[1];
	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)) ||
	    (ret = want(t, li, l, l->in2, "alpha", -1, !!T(t, l->in2)->data)))
		return ret;
	in = T(t, l->in);
	a = T(t, l->in2);
	out = T(t, l->out);
	if (in->type != TFL_TYPE_UINT8)
		return LFAIL(t, li, l, -ENOTSUP, "input type %s: TFLite 2.2 runs PRELU on float32 and uint8 only",
			     tfl_type_name(in->type));
	if (tfl_bcast_prepare(&l->bcast, in->dims, in->ndims, a->dims, a->ndims, out->dims,
			      out->ndims))
		return LFAIL(t, li, l, -ENOTSUP, "alpha does not broadcast to the output (rank 4 at most)");
	if ((ret = want_act_type(t, li, l, l->in2, in->type)) ||
	    (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret;
	if ((ret = qparams(t, li, l, l->in, &qi)) || (ret = qparams(t, li, l, l->in2, &qa)) ||
	    (ret = qparams(t, li, l, l->out, &qo)))
		return ret;
	if (tfl_prelu_prepare(&l->prelu, qi, qa, qo))
		return LFAIL(t, li, l, -EINVAL,
			     "input scale %g x alpha scale %g / output scale %g is not below 1 (TFLite 2.2 requires it)",
			     (double)qi.scale, (double)qa.scale, (double)qo.scale);
	if (a->data) {		/* a constant alpha is read where it is */
		l->alpha = a->data;
		l->in2 = -1;
	}
	set_shape(l, in, out);
	return 0;
}

/*
 * LOG_SOFTMAX (uint8, int8) over the last dimension; the output must be
 * 2.2's fixed quantization: scale 16/256, zero point 255 (uint8) / 127 (int8).
 */
static int prep_logsoftmax(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	struct e1npu_qparams qi, qo;
	bool i8;
	int ret;

	if (l->op->num_inputs != 1)
		return LFAIL(t, li, l, -EINVAL, "%u inputs (1 taken)", l->op->num_inputs);
	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || !in->ndims || (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s of rank %u",
					 tfl_type_name(in->type), in->ndims);
	if (out->ndims != in->ndims || memcmp(out->dims, in->dims, 4 * in->ndims))
		return LFAIL(t, li, l, -EINVAL, "output shape is not the input's");
	if ((ret = qparams(t, li, l, l->in, &qi)) || (ret = qparams(t, li, l, l->out, &qo)))
		return ret;
	i8 = in->type == TFL_TYPE_INT8;
	if (qo.scale != 16.0f / 256 || qo.zero_point != (i8 ? 127 : 255))
		return LFAIL(t, li, l, -ENOTSUP,
			     "output scale %g, zero point %d: TFLite 2.2 requires 16/256 (0.0625), %d",
			     (double)qo.scale, qo.zero_point, i8 ? 127 : 255);
	if (!in->dims[in->ndims - 1] ||
	    tfl_logsoftmax_prepare(&l->logsoftmax, i8,
				   tfl_tensor_count(in) / (size_t)in->dims[in->ndims - 1],
				   (size_t)in->dims[in->ndims - 1], qi.scale))
		return LFAIL(t, li, l, -EINVAL, "input scale %g: no fixed-point form (TFLite 2.2 has none)",
			     (double)qi.scale);
	set_shape(l, in, out);
	return 0;
}

/* RESIZE_BILINEAR of [N, H, W, C] to a constant int32 size. */
static int prep_bilinear(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	const struct tfl_options *o = &l->op->opt;
	bool typed = o->type == TFL_OPT_RESIZE_BILINEAR;
	int32_t size[2];
	int ret;

	if (l->op->num_inputs != 2)
		return LFAIL(t, li, l, -EINVAL, "needs input and size");
	if ((ret = want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = want(t, li, l, l->out, "output", 4, false)) ||
	    (ret = const_ints(t, li, l, l->op->inputs[1], "size", 2, size)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (out->dims[0] != in->dims[0] || out->dims[1] != size[0] || out->dims[2] != size[1] ||
	    out->dims[3] != in->dims[3])
		return LFAIL(t, li, l, -EINVAL, "output shape does not match the size %dx%d",
			     size[0], size[1]);
	if (tfl_bilinear_prepare(&l->bilinear, in->type == TFL_TYPE_INT8, in->dims, size[0],
				 size[1], typed && o->align_corners, typed && o->half_pixel_centers))
		return LFAIL(t, li, l, -EINVAL, "size %dx%d", size[0], size[1]);
	set_shape(l, in, out);
	return 0;
}

/* Storage for every activation tensor the layer reads and writes. */
static bool layer_bufs(const struct e1npu_tflite *t, const struct layer *l)
{
	if (!t->buf[l->in] || !t->buf[l->out] || (l->in2 >= 0 && !t->buf[l->in2]))
		return false;
	if (l->op->builtin == TFL_OP_CONCATENATION || l->op->builtin == TFL_OP_PACK)
		for (uint32_t k = 0; k < l->op->num_inputs; k++)
			if (!t->buf[l->op->inputs[k]])
				return false;
	for (uint32_t k = 0; k < l->op->num_outputs; k++)	/* SPLIT, UNPACK */
		if (!t->buf[l->op->outputs[k]])
			return false;
	return true;
}

/* PAD: constant int32 paddings; the output keeps the input's quantization. */
static int prep_pad(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *pd, *out;
	struct e1npu_qparams qi, qo;
	int32_t pads[8], od[4];
	int ret;

	if (l->op->num_inputs != 2)
		return LFAIL(t, li, l, -EINVAL, "needs input and paddings");
	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, l->op->inputs[1], "paddings", 2, true)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	pd = T(t, l->op->inputs[1]);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (in->ndims > 4 || pd->type != TFL_TYPE_INT32 ||
	    pd->dims[0] != (int32_t)in->ndims || pd->dims[1] != 2)
		return LFAIL(t, li, l, -ENOTSUP, "paddings must be int32 [%u, 2] (rank 4 at most)",
			     in->ndims);
	if ((ret = qparams(t, li, l, l->in, &qi)) ||
	    (ret = qparams(t, li, l, l->out, &qo)))
		return ret;
	if (qi.scale != qo.scale || qi.zero_point != qo.zero_point)
		return LFAIL(t, li, l, -ENOTSUP, "input and output quantization differ");
	memcpy(pads, pd->data, 8 * in->ndims);
	if (tfl_pad_prepare(&l->pad, in->dims, in->ndims, pads, qo.zero_point, od) ||
	    out->ndims != in->ndims || memcmp(od, out->dims, 4 * in->ndims))
		return LFAIL(t, li, l, -EINVAL, "paddings do not give the output shape");
	set_shape(l, in, out);
	return 0;
}

/* MUL, SUB: two inputs of one type, broadcasting (rank <= 4), fused activation. */
static int prep_mul_sub(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *a, *b, *out;
	bool mul = l->op->builtin == TFL_OP_MUL;
	uint32_t act;
	int ret;

	if ((ret = prep_binary(t, li, l, &a, &b, &out)))
		return ret;
	if (tfl_bcast_prepare(&l->bcast, a->dims, a->ndims, b->dims, b->ndims, out->dims,
			      out->ndims))
		return LFAIL(t, li, l, -ENOTSUP, "shapes do not broadcast to the output (rank 4 at most)");
	if ((ret = qparams(t, li, l, l->in, &l->qa)) ||
	    (ret = qparams(t, li, l, l->in2, &l->qb)) ||
	    (ret = qparams(t, li, l, l->out, &l->qo)) ||
	    (ret = map_act(t, li, l, l->op->opt.type == (mul ? TFL_OPT_MUL : TFL_OPT_SUB) ?
			   l->op->opt.act : 0, &act)))
		return ret;
	if (mul ? tfl_mul_prepare(&l->mul, a->type == TFL_TYPE_UINT8, act, l->qa, l->qb, l->qo) :
		  tfl_sub_prepare(&l->sub, a->type == TFL_TYPE_UINT8, act, l->qa, l->qb, l->qo))
		return LFAIL(t, li, l, -EINVAL, "scales a %g, b %g, out %g: no requantization multiplier",
			     (double)l->qa.scale, (double)l->qb.scale, (double)l->qo.scale);
	set_shape(l, a, out);
	return 0;
}

/*
 * MAXIMUM / MINIMUM: TFLite 2.2 compares the stored values, whatever the
 * tensors' quantization (maximum_minimum.cc has no rescale); broadcasting.
 */
static int prep_minmax(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *a, *b, *out;
	int ret;

	if ((ret = prep_binary(t, li, l, &a, &b, &out)))
		return ret;
	if (tfl_bcast_prepare(&l->bcast, a->dims, a->ndims, b->dims, b->ndims, out->dims,
			      out->ndims))
		return LFAIL(t, li, l, -ENOTSUP, "shapes do not broadcast to the output (rank 4 at most)");
	l->in_type = a->type;
	set_shape(l, a, out);
	return 0;
}

/* RELU, RELU6, RELU_N1_TO_1, HARD_SWISH: elementwise, one type and size. */
static int prep_relu(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	struct e1npu_qparams qi, qo;
	int ret;

	if (l->op->num_inputs != 1)
		return LFAIL(t, li, l, -EINVAL, "needs one input");
	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (tfl_tensor_count(in) != tfl_tensor_count(out))
		return LFAIL(t, li, l, -EINVAL, "input and output sizes differ");
	if ((ret = qparams(t, li, l, l->in, &qi)) ||
	    (ret = qparams(t, li, l, l->out, &qo)))
		return ret;
	if (l->op->builtin == TFL_OP_HARD_SWISH ?
	    tfl_hswish_prepare(&l->hswish, in->type == TFL_TYPE_UINT8, tfl_tensor_count(in),
			       qi, qo) :
	    tfl_relu_prepare(&l->relu, l->op->builtin, in->type == TFL_TYPE_UINT8,
			     tfl_tensor_count(in), qi, qo))
		return LFAIL(t, li, l, -EINVAL, "bad scales");
	set_shape(l, in, out);
	return 0;
}

/* One input and one output of as many elements: the unary operators' prologue. */
static int prep_unary(struct e1npu_tflite *t, uint32_t li, struct layer *l,
		      const struct tfl_tensor **in, const struct tfl_tensor **out)
{
	int ret;

	if (l->op->num_inputs != 1)
		return LFAIL(t, li, l, -EINVAL, "needs one input");
	if ((ret = want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = want(t, li, l, l->out, "output", -1, false)))
		return ret;
	*in = T(t, l->in);
	*out = T(t, l->out);
	if (tfl_tensor_count(*in) != tfl_tensor_count(*out))
		return LFAIL(t, li, l, -EINVAL, "input and output sizes differ");
	l->count = tfl_tensor_count(*in);
	set_shape(l, *in, *out);
	return 0;
}

/* The unary prologue, then uint8/int8 in and out of one type, quantized. */
static int prep_unary_q(struct e1npu_tflite *t, uint32_t li, struct layer *l,
			const struct tfl_tensor **in, struct e1npu_qparams *qi,
			struct e1npu_qparams *qo)
{
	const struct tfl_tensor *out;
	int ret;

	if ((ret = prep_unary(t, li, l, in, &out)))
		return ret;
	if (!dtype_of((*in)->type) || (ret = want_act_type(t, li, l, l->out, (*in)->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s (uint8 and int8 handled)",
					 tfl_type_name((*in)->type));
	if ((ret = qparams(t, li, l, l->in, qi)) || (ret = qparams(t, li, l, l->out, qo)))
		return ret;
	return 0;
}

/* LOGISTIC, TANH, LEAKY_RELU: one 256-entry table (tflite_lut.h, tflite_leaky.h). */
static int prep_lut(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_operator *op = l->op;
	const struct tfl_tensor *in;
	struct e1npu_qparams qi, qo;
	bool is_u8;
	int ret;

	if ((ret = prep_unary_q(t, li, l, &in, &qi, &qo)))
		return ret;
	is_u8 = in->type == TFL_TYPE_UINT8;
	l->host_why = "TFLite 2.2's 256-entry table, looked up on the host: e1 has no table lookup";
	if (op->builtin == TFL_OP_TANH) {
		tfl_lut_tanh(&l->lut, is_u8, l->count, qi, qo);
		return 0;
	}
	if (op->builtin == TFL_OP_LOGISTIC) {
		if (tfl_lut_logistic(&l->lut, is_u8, l->count, qi, qo))
			return LFAIL(t, li, l, -ENOTSUP,
				     "output scale %.9g: TFLite 2.2 requires exactly 1/256 (0.00390625)",
				     (double)qo.scale);
		return 0;
	}
	if (!is_u8)
		return LFAIL(t, li, l, -ENOTSUP,
			     "int8 input: TFLite 2.2 runs LEAKY_RELU on uint8 and float32 only");
	if (op->opt.type != TFL_OPT_LEAKY_RELU)
		return LFAIL(t, li, l, -EINVAL, "no LeakyReluOptions (alpha)");
	ret = tfl_leaky_prepare(&l->lut, l->count, op->opt.alpha, qi, qo);
	if (ret == -EDOM)
		return LFAIL(t, li, l, -EINVAL, "alpha %g is not finite", (double)op->opt.alpha);
	if (ret)
		return LFAIL(t, li, l, -ENOTSUP,
			     "input scale %g squared over output scale %g is not below 1 (TFLite 2.2 aborts on it)",
			     (double)qi.scale, (double)qo.scale);
	l->host_why = "TFLite 2.2's integer leaky ReLU as a 256-entry table on the host: e1 has no table lookup";
	return 0;
}

/* L2_NORMALIZATION over the last dimension (tflite_l2norm.h). */
static int prep_l2norm(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	struct e1npu_qparams qi, qo;
	bool is_u8;
	int32_t act = l->op->opt.type == TFL_OPT_L2NORM ? l->op->opt.act : TFL_ACT_NONE;
	int ret;

	if ((ret = prep_unary_q(t, li, l, &in, &qi, &qo)))
		return ret;
	out = T(t, l->out);
	is_u8 = in->type == TFL_TYPE_UINT8;
	if (!in->ndims || in->ndims > 4 || out->ndims != in->ndims ||
	    memcmp(in->dims, out->dims, in->ndims * sizeof(int32_t)))
		return LFAIL(t, li, l, -EINVAL,
			     "input rank %u, output rank %u: TFLite 2.2 needs equal shapes of rank 1 to 4",
			     in->ndims, out->ndims);
	if (act != TFL_ACT_NONE)
		return LFAIL(t, li, l, -ENOTSUP, "fused activation %d: TFLite 2.2 takes none", act);
	if (qo.scale != 1.0f / 128 || qo.zero_point != (is_u8 ? 128 : 0))
		return LFAIL(t, li, l, -ENOTSUP,
			     "output quantization (%.9g, %d): TFLite 2.2 requires scale 1/128 (0.0078125), zero point %d",
			     (double)qo.scale, qo.zero_point, is_u8 ? 128 : 0);
	l->l2norm.uint8 = is_u8;
	l->l2norm.depth = (size_t)in->dims[in->ndims - 1];
	if (!l->l2norm.depth || l->l2norm.depth > INT32_MAX / (255 * 255))
		return LFAIL(t, li, l, -ENOTSUP,
			     "last dimension %zu: its int32 sum of squares could overflow (1 to %d handled)",
			     l->l2norm.depth, INT32_MAX / (255 * 255));
	l->l2norm.outer = l->count / l->l2norm.depth;
	l->l2norm.in_zp = qi.zero_point;
	l->host_why = "L2 normalization: TFLite 2.2's integer inverse square root on the host, no hardware form";
	return 0;
}

/* Per-tensor quantization of the 8-bit side of a float32 boundary. */
static int float_side(struct e1npu_tflite *t, uint32_t li, struct layer *l, int32_t ti)
{
	const struct tfl_tensor *x = T(t, ti);

	if (x->num_scales > 1)
		return LFAIL(t, li, l, -ENOTSUP, "tensor %d (%s) is quantized per channel (%u scales)",
			     ti, x->name, x->num_scales);
	l->flt.uint8 = x->type == TFL_TYPE_UINT8;
	l->flt.count = l->count;
	return qparams(t, li, l, ti, &l->flt.q);
}

/* DEQUANTIZE uint8/int8 -> float32; QUANTIZE float32 -> uint8/int8; float ABS. */
static int prep_float(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	int32_t code = l->op->builtin;
	int ret;

	if ((ret = prep_unary(t, li, l, &in, &out)))
		return ret;
	l->in_type = in->type;
	if (code == TFL_OP_ABS) {
		if (in->type != TFL_TYPE_FLOAT32 || out->type != TFL_TYPE_FLOAT32)
			return LFAIL(t, li, l, -ENOTSUP,
				     "%s -> %s: TFLite 2.2 runs ABS on float32 only",
				     tfl_type_name(in->type), tfl_type_name(out->type));
		l->host_why = "float32 absolute value on the host: e1 has no float datapath";
		return 0;
	}
	if (code == TFL_OP_DEQUANTIZE ? !dtype_of(in->type) || out->type != TFL_TYPE_FLOAT32 :
	    in->type != TFL_TYPE_FLOAT32 || !dtype_of(out->type))
		return LFAIL(t, li, l, -ENOTSUP, "%s -> %s (handled: %s)",
			     tfl_type_name(in->type), tfl_type_name(out->type),
			     code == TFL_OP_DEQUANTIZE ? "uint8/int8 -> float32" :
			     "float32 -> uint8/int8, uint8/int8 -> uint8/int8");
	l->host_why = code == TFL_OP_DEQUANTIZE ?
		      "float32 output: dequantized on the host, e1 has no float datapath" :
		      "float32 input: quantized on the host, e1 has no float datapath";
	return float_side(t, li, l, code == TFL_OP_DEQUANTIZE ? l->in : l->out);
}

static int32_t ld_act(const void *p, size_t i, uint32_t type)
{
	return type == TFL_TYPE_UINT8 ? ((const uint8_t *)p)[i] :
	       ((const int8_t *)p)[i];
}

static void st_act(void *p, size_t i, uint32_t type, int32_t v)
{
	if (type == TFL_TYPE_UINT8)
		((uint8_t *)p)[i] = (uint8_t)v;
	else
		((int8_t *)p)[i] = (int8_t)v;
}

struct minmax_walk {
	const struct layer *l;
	const void *a, *b;
	void *out;
};

static void minmax_one(void *ctx, size_t ia, size_t ib, size_t io)
{
	const struct minmax_walk *w = ctx;
	int32_t x = ld_act(w->a, ia, w->l->in_type), y = ld_act(w->b, ib, w->l->in_type);
	bool max = w->l->op->builtin == TFL_OP_MAXIMUM;

	st_act(w->out, io, w->l->in_type, (max ? x > y : x < y) ? x : y);
}

static void run_minmax(const struct layer *l, const void *a, const void *b, void *out)
{
	struct minmax_walk w = { l, a, b, out };

	tfl_bcast_for_each(&l->bcast, minmax_one, &w);
}

static void run_quantize(const struct layer *l, const void *in, void *out)
{
	for (size_t i = 0; i < l->count; i++) {
		int32_t v = e1q_mul_by_qm(ld_act(in, i, l->in_type) - l->in_zp,
					  l->mult, l->shift) + l->out_zp;

		st_act(out, i, l->out_type, e1q_clamp(v, l->lo, l->hi));
	}
}

static void host_report(struct layer *l, const char *why)
{
	struct e1npu_ops_report *r = &l->rep.report;

	memset(r, 0, sizeof(*r));
	r->engine = E1NPU_ENGINE_CPU;
	r->reason = E1NPU_OPS_WHY_NO_HW_OP;
	snprintf(r->why, sizeof(r->why), "%s", why);
}

/* SPLIT, SPLIT_V, UNPACK: one input to n outputs; PACK: n inputs to one. */
static int run_split(struct e1npu_tflite *t, struct layer *l)
{
	uint8_t *p[TFL_SPLIT_MAX];
	bool pack = l->op->builtin == TFL_OP_PACK;
	uint32_t n = pack ? l->op->num_inputs : l->op->num_outputs;

	for (uint32_t k = 0; k < n; k++)
		p[k] = t->buf[pack ? l->op->inputs[k] : l->op->outputs[k]];
	if (pack)
		tfl_join_run(&l->split, (const uint8_t *const *)p, t->buf[l->out]);
	else
		tfl_split_run(&l->split, t->buf[l->in], p);
	host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
	return 0;
}

static int run_gather(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	int64_t bad;
	size_t pos;

	host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
	if (tfl_gather_run(&l->gather, t->buf[l->in],
			   l->gather_idx ? l->gather_idx : t->buf[l->in2], t->buf[l->out],
			   &bad, &pos))
		return LFAIL(t, li, l, -EINVAL, "index %lld (position %zu) out of [0, %zu)",
			     (long long)bad, pos, l->gather.along);
	return 0;
}

static int run_layer(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	void *in = t->buf[l->in], *out = t->buf[l->out];
	struct e1npu_ops_report *rep = &l->rep.report;
	bool npu = t->path == E1NPU_TFLITE_PATH_NPU;
	int ret = 0;

	memset(rep, 0, sizeof(*rep));
	switch (l->op->builtin) {
	case TFL_OP_CONV_2D:
	case TFL_OP_DEPTHWISE_CONV_2D:
		ret = npu ? e1npu_conv_run(l->conv, in, out, rep) :
			    ref_conv(&l->cp, l->w, l->bias, in, out);
		break;
	case TFL_OP_FULLY_CONNECTED:
		ret = npu ? e1npu_fc_run(l->fc, l->fc_rows, in, out, rep) :
			    ref_fc(&l->fp, l->w, l->bias, l->fc_rows, in, out);
		break;
	case TFL_OP_MAX_POOL_2D:
		ret = npu ? e1npu_ops_maxpool(t->ops, &l->pp, in, out, rep) :
			    ref_maxpool(&l->pp, in, out);
		break;
	case TFL_OP_AVERAGE_POOL_2D:
		ret = npu ? e1npu_ops_avgpool(t->ops, &l->pp, in, out, rep) :
			    ref_avgpool(&l->pp, in, out);
		break;
	case TFL_OP_ADD:
		if (l->add_bcast) {
			tfl_sub_run(&l->sub, &l->bcast, in, t->buf[l->in2], out);
			host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
			return 0;
		}
		ret = npu ? e1npu_ops_add(t->ops, l->dtype, l->count, in, &l->qa,
					  t->buf[l->in2], &l->qb, out, &l->qo,
					  l->act, rep) :
			    ref_add(l->dtype, l->count, in, &l->qa, t->buf[l->in2],
				    &l->qb, out, &l->qo, l->act);
		break;
	case TFL_OP_SOFTMAX:
		ret = npu ? e1npu_ops_softmax(t->ops, l->dtype, l->rows, l->depth,
					      in, l->in_scale, l->beta, out, rep) :
			    ref_softmax(l->dtype, l->rows, l->depth, in,
					l->in_scale, l->beta, out);
		break;
	case TFL_OP_RESHAPE:
		memcpy(out, in, tfl_tensor_count(T(t, l->in)) *
		       tfl_type_size(T(t, l->in)->type));
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_QUANTIZE:
		if (l->in_type == TFL_TYPE_FLOAT32) {
			tfl_quantize_float_run(&l->flt, in, out);
			host_report(l, l->host_why);
			return 0;
		}
		run_quantize(l, in, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_CONCATENATION: {
		const uint8_t *ins[TFL_CONCAT_MAX];

		for (uint32_t k = 0; k < l->op->num_inputs; k++)
			ins[k] = t->buf[l->op->inputs[k]];
		tfl_concat_run(&l->concat, ins, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	}
	case TFL_OP_RESIZE_NEAREST_NEIGHBOR:
		tfl_resize_run(&l->resize, in, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_TRANSPOSE:
	case TFL_OP_SLICE:
	case TFL_OP_STRIDED_SLICE:
		tfl_layout_run(&l->layout, in, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_PAD:
		tfl_pad_run(&l->pad, in, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_HARD_SWISH:
		tfl_hswish_run(&l->hswish, in, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_MUL:
		tfl_mul_run(&l->mul, &l->bcast, in, t->buf[l->in2], out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_SUB:
		tfl_sub_run(&l->sub, &l->bcast, in, t->buf[l->in2], out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_MAXIMUM:
	case TFL_OP_MINIMUM:
		run_minmax(l, in, t->buf[l->in2], out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_RELU:
	case TFL_OP_RELU6:
	case TFL_OP_RELU_N1_TO_1:
		tfl_relu_run(&l->relu, in, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_SPLIT:
	case TFL_OP_SPLIT_V:
	case TFL_OP_UNPACK:
	case TFL_OP_PACK:
		return run_split(t, l);
	case TFL_OP_ARG_MAX:
	case TFL_OP_ARG_MIN:
		tfl_argmax_run(&l->argmax, in, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_GATHER:
		return run_gather(t, li, l);
	case TFL_OP_SPACE_TO_BATCH_ND:
	case TFL_OP_BATCH_TO_SPACE_ND:
		tfl_space_batch_run(&l->space_batch, in, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_REDUCE_MAX:
	case TFL_OP_REDUCE_MIN:
	case TFL_OP_SUM:
		tfl_reduce_run(&l->reduce, in, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_LOG_SOFTMAX:
		tfl_logsoftmax_run(&l->logsoftmax, in, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_PRELU:
		tfl_prelu_run(&l->prelu, &l->bcast, in, l->alpha ? l->alpha : t->buf[l->in2], out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_TRANSPOSE_CONV:
		if (!l->conv) {
			tfl_tconv_run(&l->tconv, in, out);
			host_report(l, l->host_why);
			return 0;
		}
		tfl_tconv_lower_stuff(&l->tconv_lw, &l->tconv, in);
		ret = e1npu_conv_run(l->conv, l->tconv_lw.stuffed, out, rep);
		break;
	case TFL_OP_DEPTH_TO_SPACE:
	case TFL_OP_SPACE_TO_DEPTH:
		tfl_depth_space_run(&l->depth_space, in, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_RESIZE_BILINEAR:
		tfl_bilinear_run(&l->bilinear, in, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	case TFL_OP_LOGISTIC:
	case TFL_OP_TANH:
	case TFL_OP_LEAKY_RELU:
		tfl_lut_run(&l->lut, in, out);
		host_report(l, l->host_why);
		return 0;
	case TFL_OP_L2_NORMALIZATION:
		tfl_l2norm_run(&l->l2norm, in, out);
		host_report(l, l->host_why);
		return 0;
	case TFL_OP_DEQUANTIZE:
		tfl_dequantize_run(&l->flt, in, out);
		host_report(l, l->host_why);
		return 0;
	case TFL_OP_ABS:
		tfl_abs_float_run(l->count, in, out);
		host_report(l, l->host_why);
		return 0;
	case TFL_OP_MEAN:
		tfl_mean_run(&l->mean, in, out);
		host_report(l, tfl_host_why(l->op->builtin, l->add_bcast));
		return 0;
	default:
		return LFAIL(t, li, l, -ENOTSUP, "not supported");
	}
	if (ret)
		return LFAIL(t, li, l, ret, "%s", e1npu_strerror(ret));
	if (!npu) {
		rep->engine = E1NPU_ENGINE_CPU;
		rep->reason = E1NPU_OPS_WHY_NO_DEVICE;
		snprintf(rep->why, sizeof(rep->why), "reference path: naive CPU kernel (lib/ref)");
	}
	return 0;
}

/*
 * Operator @i of the model into @l: validate its tensors and options,
 * convert its weights (and on the NPU path create its lowering objects).
 * Shared by the whole-model interpreter and the TFLite delegate's
 * partitions (e1npu_tflite_part_*).
 */
static int prepare_layer(struct e1npu_tflite *t, uint32_t i, struct layer *l)
{
	const struct tfl_operator *op = &t->m.operators[i];
	int ret;

	l->op = op;
	l->rep.index = i;
	l->rep.builtin = op->builtin;
	snprintf(l->rep.op, sizeof(l->rep.op), "%s", tfl_builtin_name(op->builtin));
	if (op->custom_code)
		return tf_fail(t, -ENOTSUP, "operator %u: custom operator \"%s\" not supported",
			       i, op->custom_code);
	if (!op->num_inputs || !op->num_outputs ||
	    (op->num_outputs > 1 && op->builtin != TFL_OP_SPLIT &&
	     op->builtin != TFL_OP_SPLIT_V && op->builtin != TFL_OP_UNPACK))
		return LFAIL(t, i, l, -EINVAL, "%u inputs, %u outputs",
			     op->num_inputs, op->num_outputs);
	l->in = op->inputs[0];
	l->out = op->outputs[0];
	l->in2 = -1;
	if (l->in < 0 || l->out < 0)
		return LFAIL(t, i, l, -EINVAL, "input or output tensor missing");
	switch (op->builtin) {
	case TFL_OP_CONV_2D:
	case TFL_OP_DEPTHWISE_CONV_2D: ret = prep_conv(t, i, l); break;
	case TFL_OP_FULLY_CONNECTED: ret = prep_fc(t, i, l); break;
	case TFL_OP_MAX_POOL_2D:
	case TFL_OP_AVERAGE_POOL_2D: ret = prep_pool(t, i, l); break;
	case TFL_OP_ADD: ret = prep_add(t, i, l); break;
	case TFL_OP_SOFTMAX: ret = prep_softmax(t, i, l); break;
	case TFL_OP_RESHAPE:
	case TFL_OP_SQUEEZE: ret = prep_reshape(t, i, l); break;
	case TFL_OP_QUANTIZE: ret = prep_quantize(t, i, l); break;
	case TFL_OP_MEAN: ret = prep_mean(t, i, l); break;
	case TFL_OP_RELU:
	case TFL_OP_RELU6:
	case TFL_OP_RELU_N1_TO_1:
	case TFL_OP_HARD_SWISH: ret = prep_relu(t, i, l); break;
	case TFL_OP_MAXIMUM:
	case TFL_OP_MINIMUM: ret = prep_minmax(t, i, l); break;
	case TFL_OP_MUL:
	case TFL_OP_SUB: ret = prep_mul_sub(t, i, l); break;
	case TFL_OP_PAD: ret = prep_pad(t, i, l); break;
	case TFL_OP_TRANSPOSE:
	case TFL_OP_SLICE: ret = prep_layout(t, i, l); break;
	case TFL_OP_RESIZE_NEAREST_NEIGHBOR: ret = prep_resize(t, i, l); break;
	case TFL_OP_STRIDED_SLICE: ret = prep_strided_slice(t, i, l); break;
	case TFL_OP_CONCATENATION: ret = prep_concat(t, i, l); break;
	case TFL_OP_SPLIT:
	case TFL_OP_SPLIT_V:
	case TFL_OP_UNPACK: ret = prep_split(t, i, l); break;
	case TFL_OP_PACK: ret = prep_pack(t, i, l); break;
	case TFL_OP_ARG_MAX:
	case TFL_OP_ARG_MIN: ret = prep_argmax(t, i, l); break;
	case TFL_OP_GATHER: ret = prep_gather(t, i, l); break;
	case TFL_OP_SPACE_TO_BATCH_ND:
	case TFL_OP_BATCH_TO_SPACE_ND: ret = prep_space_batch(t, i, l); break;
	case TFL_OP_RESIZE_BILINEAR: ret = prep_bilinear(t, i, l); break;
	case TFL_OP_DEPTH_TO_SPACE:
	case TFL_OP_SPACE_TO_DEPTH: ret = prep_depth_space(t, i, l); break;
	case TFL_OP_TRANSPOSE_CONV: ret = prep_tconv(t, i, l); break;
	case TFL_OP_REDUCE_MAX:
	case TFL_OP_REDUCE_MIN:
	case TFL_OP_SUM: ret = prep_reduce(t, i, l); break;
	case TFL_OP_PRELU: ret = prep_prelu(t, i, l); break;
	case TFL_OP_LOG_SOFTMAX: ret = prep_logsoftmax(t, i, l); break;
	case TFL_OP_LOGISTIC:
	case TFL_OP_TANH:
	case TFL_OP_LEAKY_RELU: ret = prep_lut(t, i, l); break;
	case TFL_OP_L2_NORMALIZATION: ret = prep_l2norm(t, i, l); break;
	case TFL_OP_DEQUANTIZE:
	case TFL_OP_ABS: ret = prep_float(t, i, l); break;
	default:
		return tf_fail(t, -ENOTSUP, "operator %u: %s (builtin code %d) not supported",
			       i, tfl_builtin_name(op->builtin), op->builtin);
	}
	if (ret)
		return ret == -ENOMEM ? tf_fail(t, ret, "out of memory") : ret;
	return 0;
}

/* Bytes of a non-constant tensor, 0 if it cannot hold activations. */
static size_t act_bytes(const struct tfl_tensor *x)
{
	size_t cnt = tfl_tensor_count(x), es = tfl_type_size(x->type);

	/* Invalid ones are only an error if a layer uses them (prepare). */
	if (x->data || !es || !cnt || cnt > ((size_t)1 << 30) / es)
		return 0;
	return cnt * es;
}

static void live_at(struct e1npu_tflite *t, int32_t ti, uint32_t step,
		    uint8_t role)
{
	struct arena_item *it;

	if (ti < 0 || (uint32_t)ti >= t->m.num_tensors || !act_bytes(T(t, ti)))
		return;
	it = &t->plan[ti];
	if (!it->size) {
		it->size = act_bytes(T(t, ti));
		it->first = it->last = step;
	}
	if (step < it->first)
		it->first = step;
	if (step > it->last)
		it->last = step;
	t->role[ti] |= role;
}

/*
 * One arena for every activation: lifetimes in layer steps, offsets from
 * arena_plan(). Model inputs live throughout (set_input's data must
 * survive every invoke), outputs from their layer to the end.
 */
static int plan_arena(struct e1npu_tflite *t)
{
	const struct tfl_model *m = &t->m;
	uint32_t end = m->num_operators ? m->num_operators - 1 : 0;
	struct e1npu_tflite_arena *a = &t->arena_info;
	size_t total;
	int ret;

	for (uint32_t i = 0; i < m->num_operators; i++) {
		const struct tfl_operator *op = &m->operators[i];

		for (uint32_t k = 0; k < op->num_inputs; k++)
			live_at(t, op->inputs[k], i, E1NPU_TFLITE_ROLE_INTERMEDIATE);
		for (uint32_t k = 0; k < op->num_outputs; k++)
			live_at(t, op->outputs[k], i, E1NPU_TFLITE_ROLE_INTERMEDIATE);
	}
	for (uint32_t i = 0; i < m->num_inputs; i++) {
		live_at(t, m->inputs[i], 0, E1NPU_TFLITE_ROLE_INPUT);
		live_at(t, m->inputs[i], end, E1NPU_TFLITE_ROLE_INPUT);
	}
	for (uint32_t i = 0; i < m->num_outputs; i++)
		live_at(t, m->outputs[i], end, E1NPU_TFLITE_ROLE_OUTPUT);
	ret = arena_plan(t->plan, m->num_tensors, E1NPU_TFLITE_ARENA_ALIGN, &total);
	if (ret)
		return tf_fail(t, ret, "arena plan of %u tensors failed", m->num_tensors);
	if (total > E1NPU_TFLITE_ARENA_MAX)
		return tf_fail(t, -ENOTSUP,
			       "tensor arena of %zu bytes: more than the interpreter's %zu",
			       total, E1NPU_TFLITE_ARENA_MAX);
	t->arena = calloc(total ? total : 1, 1);
	if (!t->arena)
		return tf_fail(t, -ENOMEM, "arena of %zu bytes: out of memory", total);
	memset(a, 0, sizeof(*a));
	a->total_bytes = total;
	a->lower_bound = arena_lower_bound(t->plan, m->num_tensors);
	a->alignment = E1NPU_TFLITE_ARENA_ALIGN;
	for (uint32_t i = 0; i < m->num_tensors; i++) {
		if (!t->plan[i].size)
			continue;
		/* a role is what it is for the model, else intermediate */
		if (t->role[i] & (E1NPU_TFLITE_ROLE_INPUT | E1NPU_TFLITE_ROLE_OUTPUT))
			t->role[i] &= (uint8_t)~E1NPU_TFLITE_ROLE_INTERMEDIATE;
		t->buf[i] = t->arena + t->plan[i].offset;
		a->unplanned_bytes += t->plan[i].size;
		a->num_tensors++;
	}
	return 0;
}

/*
 * The data flow of subgraph 0, in operator order (after plan_arena):
 * every non-constant tensor an operator uses has storage in the arena,
 * every one it reads is a model input or written by an earlier
 * operator, every tensor is written by at most one operator and never a
 * model input, and every model output is written (or is an input).
 * Otherwise an invoke would read arena bytes another tensor left there
 * (two invokes on the same inputs could differ) or overwrite an input.
 */
static int check_data_flow(struct e1npu_tflite *t)
{
	const struct tfl_model *m = &t->m;
	int32_t *writer = malloc((m->num_tensors ? m->num_tensors : 1) * sizeof(*writer));
	int ret = 0;

	if (!writer)
		return tf_fail(t, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < m->num_tensors; i++)
		writer[i] = -1;
	for (uint32_t i = 0; i < m->num_inputs; i++)
		writer[m->inputs[i]] = INT32_MAX;	/* written before layer 0 */
	for (uint32_t i = 0; i < m->num_operators && !ret; i++) {
		const struct tfl_operator *op = &m->operators[i];
		const char *name = tfl_builtin_name(op->builtin);

		for (uint32_t k = 0; k < op->num_inputs + op->num_outputs && !ret; k++) {
			int32_t x = k < op->num_inputs ? op->inputs[k] :
				    op->outputs[k - op->num_inputs];

			/* before prepare_layer sizes a lowering object on it */
			if (x >= 0 && !T(t, x)->data && !t->buf[x])
				ret = tf_fail(t, -EINVAL,
					      "operator %u (%s): tensor %d (%s) cannot hold activations (empty, of unknown type, or over 1 GiB)",
					      i, name, x, T(t, x)->name);
		}
		for (uint32_t k = 0; k < op->num_inputs && !ret; k++) {
			int32_t x = op->inputs[k];

			if (x >= 0 && !T(t, x)->data && writer[x] < 0)
				ret = tf_fail(t, -EINVAL,
					      "operator %u (%s): input %u is tensor %d (%s), which is neither constant, a model input nor written by an earlier operator",
					      i, name, k, x, T(t, x)->name);
		}
		for (uint32_t k = 0; k < op->num_outputs && !ret; k++) {
			int32_t x = op->outputs[k];

			if (x < 0)
				continue;	/* absent: prepare_layer says so */
			if (writer[x] < 0)
				writer[x] = (int32_t)i;
			else if (writer[x] == INT32_MAX)
				ret = tf_fail(t, -EINVAL,
					      "operator %u (%s): output %u is tensor %d (%s), a model input",
					      i, name, k, x, T(t, x)->name);
			else
				ret = tf_fail(t, -EINVAL,
					      "operator %u (%s): output %u is tensor %d (%s), already written by operator %d",
					      i, name, k, x, T(t, x)->name, writer[x]);
		}
	}
	for (uint32_t i = 0; i < m->num_outputs && !ret; i++)
		if (writer[m->outputs[i]] < 0)
			ret = tf_fail(t, -EINVAL,
				      "model output %u (tensor %d, %s) is written by no operator",
				      i, m->outputs[i], T(t, m->outputs[i])->name);
	free(writer);
	return ret;
}

static int prepare(struct e1npu_tflite *t)
{
	struct tfl_model *m = &t->m;
	int ret;

	if (!m->num_inputs || !m->num_outputs)
		return tf_fail(t, -EINVAL, "subgraph 0 has no inputs or outputs");
	t->buf = calloc(m->num_tensors ? m->num_tensors : 1, sizeof(void *));
	t->plan = calloc(m->num_tensors ? m->num_tensors : 1, sizeof(*t->plan));
	t->role = calloc(m->num_tensors ? m->num_tensors : 1, 1);
	t->layers = calloc(m->num_operators ? m->num_operators : 1, sizeof(*t->layers));
	if (!t->buf || !t->plan || !t->role || !t->layers)
		return -ENOMEM;
	t->nlayers = m->num_operators;
	ret = plan_arena(t);
	if (!ret)
		ret = check_data_flow(t);
	if (ret)
		return ret;
	for (uint32_t i = 0; i < m->num_inputs; i++)
		if (!t->buf[m->inputs[i]] || !io_dtype(m->tensors[m->inputs[i]].type) ||
		    io_dtype(m->tensors[m->inputs[i]].type) >= E1NPU_DTYPE_INT32)
			return tf_fail(t, -ENOTSUP, "model input %u (tensor %d, %s) must be a non-empty uint8/int8/float32 tensor",
				       i, m->inputs[i], tfl_type_name(m->tensors[m->inputs[i]].type));
	for (uint32_t i = 0; i < m->num_outputs; i++)
		if (!t->buf[m->outputs[i]] || !io_dtype(m->tensors[m->outputs[i]].type))
			return tf_fail(t, -ENOTSUP, "model output %u (tensor %d, %s) must be a non-empty uint8/int8/float32/int32/int64 tensor",
				       i, m->outputs[i], tfl_type_name(m->tensors[m->outputs[i]].type));
	for (uint32_t i = 0; i < m->num_operators; i++) {
		struct layer *l = &t->layers[i];

		ret = prepare_layer(t, i, l);
		if (ret)
			return ret;
		/* Every tensor the layer touches has storage (non-constant). */
		if (!layer_bufs(t, l))
			return LFAIL(t, i, l, -EINVAL, "activation tensor without storage");
	}
	return 0;
}

E1NPU_API void e1npu_tflite_free(struct e1npu_tflite *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; t->layers && i < t->nlayers; i++) {
		struct layer *l = &t->layers[i];

		e1npu_conv_free(l->conv);
		e1npu_fc_free(l->fc);
		free(l->w);
		free(l->bias);
		tfl_resize_free(&l->resize);
		tfl_tconv_free(&l->tconv);
		tfl_tconv_lower_free(&l->tconv_lw);
		tfl_reduce_free(&l->reduce);
		free(l->wscales);
	}
	free(t->arena);
	free(t->plan);
	free(t->role);
	free(t->buf);
	free(t->layers);
	if (!t->part) {
		tfl_model_free(&t->m);
		e1npu_ops_free(t->ops);
	}
	free(t->file);
	free(t);
}

E1NPU_API int e1npu_tflite_load_memory(struct e1npu_device *dev, const void *data,
				       size_t size,
				       const struct e1npu_tflite_options *opt,
				       struct e1npu_tflite **tp, char *err,
				       size_t errlen)
{
	if (err && errlen)
		err[0] = 0;
	if (!tp || (!data && size))
		return -EINVAL;
	*tp = NULL;
	if (tflite_art_is(data, size))	/* e1npu_tflite_compile()'s output */
		return tflite_art_load(dev, data, size, opt, tp, err, errlen);
	return tflite_load_chosen(dev, data, size, opt, NULL, 0, tp, err, errlen);
}

int tflite_load_chosen(struct e1npu_device *dev, const void *data, size_t size,
		       const struct e1npu_tflite_options *opt,
		       const struct ops_conv_choice *choices, uint32_t nchoices,
		       struct e1npu_tflite **tp, char *err, size_t errlen)
{
	struct e1npu_tflite *t;
	int ret;

	if (opt && (opt->path > E1NPU_TFLITE_PATH_REFERENCE))
		return -EINVAL;
	for (size_t i = 0; opt && i < sizeof(opt->reserved) / sizeof(opt->reserved[0]); i++) {
		if (opt->reserved[i]) {
			if (err && errlen)
				snprintf(err, errlen,
					 "e1npu_tflite_options: field reserved[%zu] = %" PRIu32
					 " must be zero", i, opt->reserved[i]);
			return -EINVAL;
		}
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->path = opt ? opt->path : E1NPU_TFLITE_PATH_NPU;
	t->file = malloc(size ? size : 1);
	if (!t->file) {
		free(t);
		return -ENOMEM;
	}
	if (size)
		memcpy(t->file, data, size);
	t->size = size;
	ret = tfl_parse(t->file, size, &t->m, t->err, sizeof(t->err));
	if (!ret && t->path == E1NPU_TFLITE_PATH_NPU) {
		ret = e1npu_ops_new(dev, &t->ops);
		if (ret)
			tf_fail(t, ret, "e1npu_ops_new: %s", e1npu_strerror(ret));
	}
	if (!ret && choices && nchoices != t->m.num_operators)
		ret = tf_fail(t, -EINVAL, "the artifact has %u layer records, its model %u operators",
			      nchoices, t->m.num_operators);
	if (!ret) {
		t->choices = t->path == E1NPU_TFLITE_PATH_NPU ? choices : NULL;
		ret = prepare(t);
		t->choices = NULL;
	}
	if (ret) {
		if (!t->err[0])
			snprintf(t->err, sizeof(t->err), "%s", e1npu_strerror(ret));
		if (err && errlen)
			snprintf(err, errlen, "%s", t->err);
		e1npu_tflite_free(t);
		return ret;
	}
	*tp = t;
	return 0;
}

E1NPU_API int e1npu_tflite_load_file(struct e1npu_device *dev, const char *path,
				     const struct e1npu_tflite_options *opt,
				     struct e1npu_tflite **tp, char *err,
				     size_t errlen)
{
	struct stat st;
	uint8_t *data;
	size_t done = 0;
	int fd, ret;

	if (err && errlen)
		err[0] = 0;
	if (!path || !tp)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (1 << 30)) {
		ret = -EINVAL;
		if (err && errlen)
			snprintf(err, errlen, "%s: not a regular file of at most 1 GiB", path);
		close(fd);
		return ret;
	}
	data = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!data) {
		close(fd);
		return -ENOMEM;
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, data + done, (size_t)st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			if (err && errlen)
				snprintf(err, errlen, "%s: read failed", path);
			free(data);
			close(fd);
			return ret;
		}
		done += (size_t)n;
	}
	close(fd);
	ret = e1npu_tflite_load_memory(dev, data, done, opt, tp, err, errlen);
	free(data);
	return ret;
}

E1NPU_API const char *e1npu_tflite_last_error(const struct e1npu_tflite *t)
{
	return t ? t->err : "";
}

E1NPU_API int e1npu_tflite_get_counts(const struct e1npu_tflite *t,
				      uint32_t *inputs, uint32_t *outputs,
				      uint32_t *layers)
{
	if (!t)
		return -EINVAL;
	if (inputs)
		*inputs = t->m.num_inputs;
	if (outputs)
		*outputs = t->m.num_outputs;
	if (layers)
		*layers = t->nlayers;
	return 0;
}

static void fill_info(const struct e1npu_tflite *t, int32_t ti,
		      struct e1npu_tflite_tensor_info *info)
{
	const struct tfl_tensor *x = T(t, ti);

	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "%s", x->name);
	info->dtype = io_dtype(x->type);
	info->ndims = x->ndims;
	for (uint32_t d = 0; d < x->ndims; d++)
		info->dims[d] = (uint32_t)x->dims[d];
	info->bytes = tfl_tensor_count(x) * tfl_type_size(x->type);
	info->scale = x->num_scales ? tfl_scale(x, 0) : 0;
	info->zero_point = x->num_zero_points ? (int32_t)tfl_zero_point(x, 0) : 0;
}

E1NPU_API int e1npu_tflite_input_info(const struct e1npu_tflite *t, uint32_t index,
				      struct e1npu_tflite_tensor_info *info)
{
	if (!t || !info || index >= t->m.num_inputs)
		return -EINVAL;
	fill_info(t, t->m.inputs[index], info);
	return 0;
}

E1NPU_API int e1npu_tflite_output_info(const struct e1npu_tflite *t, uint32_t index,
				       struct e1npu_tflite_tensor_info *info)
{
	if (!t || !info || index >= t->m.num_outputs)
		return -EINVAL;
	fill_info(t, t->m.outputs[index], info);
	return 0;
}

static size_t tensor_bytes(const struct e1npu_tflite *t, int32_t ti)
{
	return tfl_tensor_count(T(t, ti)) * tfl_type_size(T(t, ti)->type);
}

E1NPU_API int e1npu_tflite_set_input(struct e1npu_tflite *t, uint32_t index,
				     const void *data, size_t size)
{
	if (!t || !data || index >= t->m.num_inputs)
		return -EINVAL;
	if (size != tensor_bytes(t, t->m.inputs[index]))
		return tf_fail(t, -EINVAL, "input %u is %zu bytes, got %zu", index,
			       tensor_bytes(t, t->m.inputs[index]), size);
	memcpy(t->buf[t->m.inputs[index]], data, size);
	return 0;
}

E1NPU_API int e1npu_tflite_get_output(const struct e1npu_tflite *t, uint32_t index,
				      void *data, size_t size)
{
	if (!t || !data || index >= t->m.num_outputs ||
	    size != tensor_bytes(t, t->m.outputs[index]))
		return -EINVAL;
	memcpy(data, t->buf[t->m.outputs[index]], size);
	return 0;
}

E1NPU_API int e1npu_tflite_invoke(struct e1npu_tflite *t)
{
	if (!t)
		return -EINVAL;
	t->err[0] = 0;
	for (uint32_t i = 0; i < t->nlayers; i++) {
		struct layer *l = &t->layers[i];
		uint64_t t0 = now_ns();
		int ret;

		e1npu_trace_layer_begin(i, l->rep.op);	/* lib/trace.c */
		ret = run_layer(t, i, l);
		l->rep.wall_ns = now_ns() - t0;
		e1npu_trace_layer(i, l->rep.op, l->rep.shape, &l->rep.report, t0, t0 + l->rep.wall_ns);
		if (ret)
			return ret;
	}
	return 0;
}

E1NPU_API int e1npu_tflite_get_layer(const struct e1npu_tflite *t, uint32_t index,
				     struct e1npu_tflite_layer *layer)
{
	if (!t || !layer || index >= t->nlayers)
		return -EINVAL;
	*layer = t->layers[index].rep;
	return 0;
}

/*
 * Partial interpreters for the TFLite delegate (tflite_part.h): the same
 * layer preparation and the same run_layer() as the whole-model
 * interpreter, on a model view the caller built and owns.
 */
static int part_new(struct e1npu_ops *ctx, const struct tfl_model *m,
		    const uint32_t *ops, uint32_t n, const struct ops_conv_choice *choices,
		    struct e1npu_tflite **tp)
{
	struct e1npu_tflite *t = calloc(1, sizeof(*t));
	int ret = 0;

	*tp = t;
	if (!t)
		return -ENOMEM;
	t->part = true;
	t->m = *m;
	/* The caller's context, shared by all its partitions (borrowed). */
	t->ops = ctx;
	t->path = ctx ? E1NPU_TFLITE_PATH_NPU : E1NPU_TFLITE_PATH_REFERENCE;
	t->buf = calloc(m->num_tensors ? m->num_tensors : 1, sizeof(void *));
	t->layers = calloc(n ? n : 1, sizeof(*t->layers));
	if (!t->buf || !t->layers)
		return tf_fail(t, -ENOMEM, "out of memory");
	for (uint32_t k = 0; k < n; k++) {
		if (ops[k] >= m->num_operators)
			return tf_fail(t, -EINVAL, "operator %u of %u", ops[k], m->num_operators);
		t->nlayers = k + 1;	/* what e1npu_tflite_free() releases */
		t->choices = ctx ? choices : NULL;
		ret = prepare_layer(t, ops[k], &t->layers[k]);
		t->choices = NULL;
		if (ret)
			return ret;
	}
	return 0;
}

int e1npu_tflite_part_check(const struct tfl_model *m, uint32_t op,
			    char *err, size_t errlen)
{
	struct e1npu_tflite *t;
	int ret = part_new(NULL, m, &op, 1, NULL, &t);

	if (err && errlen)
		snprintf(err, errlen, "%s", ret && t ? t->err : ret ? "out of memory" : "");
	e1npu_tflite_free(t);
	return ret;
}

int e1npu_tflite_part_new(struct e1npu_ops *ctx, const struct tfl_model *m,
			  const uint32_t *ops, uint32_t n,
			  struct e1npu_tflite **tp, char *err, size_t errlen)
{
	return tflite_part_new_chosen(ctx, m, ops, n, NULL, tp, err, errlen);
}

int tflite_part_new_chosen(struct e1npu_ops *ctx, const struct tfl_model *m,
			   const uint32_t *ops, uint32_t n,
			   const struct ops_conv_choice *choices,
			   struct e1npu_tflite **tp, char *err, size_t errlen)
{
	int ret = part_new(ctx, m, ops, n, choices, tp);

	if (ret) {
		if (err && errlen)
			snprintf(err, errlen, "%s", *tp ? (*tp)->err : "out of memory");
		e1npu_tflite_free(*tp);
		*tp = NULL;
	}
	return ret;
}

int e1npu_tflite_part_invoke(struct e1npu_tflite *t, void *const *bufs)
{
	int ret = 0;

	memcpy(t->buf, bufs, t->m.num_tensors * sizeof(void *));
	t->err[0] = 0;
	for (uint32_t i = 0; i < t->nlayers && !ret; i++) {
		struct layer *l = &t->layers[i];
		uint64_t t0 = now_ns();

		e1npu_trace_layer_begin(l->rep.index, l->rep.op);	/* lib/trace.c */
		if (!layer_bufs(t, l))
			ret = LFAIL(t, l->rep.index, l, -EINVAL, "activation tensor without storage");
		else
			ret = run_layer(t, l->rep.index, l);
		l->rep.wall_ns = now_ns() - t0;
		e1npu_trace_layer(l->rep.index, l->rep.op, l->rep.shape, &l->rep.report, t0,
				  t0 + l->rep.wall_ns);
	}
	memset(t->buf, 0, t->m.num_tensors * sizeof(void *));
	return ret;
}

E1NPU_API int e1npu_tflite_get_arena(const struct e1npu_tflite *t,
				     struct e1npu_tflite_arena *arena)
{
	if (!t || !arena)
		return -EINVAL;
	*arena = t->arena_info;
	return 0;
}

E1NPU_API int e1npu_tflite_get_arena_tensor(const struct e1npu_tflite *t, uint32_t index,
					    struct e1npu_tflite_arena_tensor *e)
{
	uint32_t n = 0;

	if (!t || !e || index >= t->arena_info.num_tensors)
		return -EINVAL;
	for (uint32_t i = 0; i < t->m.num_tensors; i++) {
		const struct tfl_tensor *x = T(t, (int32_t)i);

		if (!t->plan[i].size || n++ != index)
			continue;
		memset(e, 0, sizeof(*e));
		e->tensor = (int32_t)i;
		e->role = t->role[i];
		snprintf(e->name, sizeof(e->name), "%s", x->name);
		e->dtype = dtype_of(x->type);
		snprintf(e->type_name, sizeof(e->type_name), "%s", tfl_type_name(x->type));
		e->ndims = x->ndims;
		for (uint32_t d = 0; d < x->ndims; d++)
			e->dims[d] = (uint32_t)x->dims[d];
		e->offset = t->plan[i].offset;
		e->bytes = t->plan[i].size;
		e->first_layer = t->plan[i].first;
		e->last_layer = t->plan[i].last;
		return 0;
	}
	return -EINVAL;
}

/* tflite_report.c's view of layer @k (tflite_report.h): a read-only hook. */
int tflite_layer_view(const struct e1npu_tflite *t, uint32_t k,
		      struct tflite_layer_view *v)
{
	const struct layer *l;

	if (!t || !v || k >= t->nlayers)
		return -EINVAL;
	l = &t->layers[k];
	memset(v, 0, sizeof(*v));
	v->index = l->rep.index;
	v->op = l->op;
	v->in = l->in;
	v->in2 = l->in2;
	v->out = l->out;
	v->ops = t->ops;
	v->conv = l->conv;
	v->fc = l->fc;
	v->fp = l->fp;
	v->fc_rows = l->fc_rows;
	v->pp = l->pp;
	v->add_bcast = l->add_bcast;
	v->host_why = l->host_why;
	return 0;
}

int tflite_source(const struct e1npu_tflite *t, const void **file, size_t *size,
		  const struct tfl_model **m, struct e1npu_ops **ops)
{
	if (!t)
		return -EINVAL;
	*file = t->part ? NULL : t->file;
	*size = t->part ? 0 : t->size;
	*m = &t->m;
	*ops = t->ops;
	return 0;
}
