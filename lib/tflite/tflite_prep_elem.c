// SPDX-License-Identifier: MIT
/*
 * Preparation of the operators that compute new values from their
 * inputs' values: ADD, SUB, MUL, MAXIMUM, MINIMUM, the ReLUs and
 * HARD_SWISH, the table activations (LOGISTIC, TANH, LEAKY_RELU), PRELU,
 * SOFTMAX, LOG_SOFTMAX, L2_NORMALIZATION, (re)quantization and the
 * float32 edges (QUANTIZE, DEQUANTIZE, ABS), and the reductions (MEAN,
 * SUM, REDUCE_MAX/MIN). Each refuses at load what TFLite 2.2 would refuse
 * or compute differently, and precomputes its fixed-point constants.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "qcommon.h"
#include "quant.h"
#include "tflite_internal.h"
#include "tflite_leaky.h"

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
	if ((ret = tf_want(t, li, l, l->in, "input 0", -1, false)) ||
	    (ret = tf_want(t, li, l, l->in2, "input 1", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)))
		return ret;
	*a = T(t, l->in);
	*b = T(t, l->in2);
	*out = T(t, l->out);
	if (!dtype_of((*a)->type) || (ret = tf_want_act_type(t, li, l, l->in2, (*a)->type)) ||
	    (ret = tf_want_act_type(t, li, l, l->out, (*a)->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name((*a)->type));
	return 0;
}

int tf_prep_add(struct e1npu_tflite *t, uint32_t li, struct layer *l)
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
	if ((ret = tf_qparams(t, li, l, l->in, &l->qa)) ||
	    (ret = tf_qparams(t, li, l, l->in2, &l->qb)) ||
	    (ret = tf_qparams(t, li, l, l->out, &l->qo)) ||
	    (ret = tf_map_act(t, li, l, l->op->opt.act, &l->act)))
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
	tf_set_shape(l, a, out);
	return 0;
}

int tf_prep_softmax(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	struct e1npu_qparams qi, qo;
	int ret;

	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (!in->ndims || !in->dims[in->ndims - 1] ||
	    tfl_tensor_count(in) != tfl_tensor_count(out))
		return LFAIL(t, li, l, -EINVAL, "bad shapes");
	if ((ret = tf_qparams(t, li, l, l->in, &qi)) ||
	    (ret = tf_qparams(t, li, l, l->out, &qo)))
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
	tf_set_shape(l, in, out);
	return 0;
}

/* QUANTIZE between uint8/int8: TFLite's Requantize (from float32: tf_prep_float). */
int tf_prep_quantize(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	struct e1npu_qparams qi, qo;
	int ret;

	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (in->type == TFL_TYPE_FLOAT32)
		return tf_prep_float(t, li, l);
	if (!dtype_of(in->type) || !dtype_of(out->type))
		return LFAIL(t, li, l, -ENOTSUP, "%s -> %s (only uint8/int8 requantization)",
			     tfl_type_name(in->type), tfl_type_name(out->type));
	if (tfl_tensor_count(in) != tfl_tensor_count(out))
		return LFAIL(t, li, l, -EINVAL, "input and output sizes differ");
	if ((ret = tf_qparams(t, li, l, l->in, &qi)) ||
	    (ret = tf_qparams(t, li, l, l->out, &qo)))
		return ret;
	if (e1q_quantize_multiplier((double)qi.scale / (double)qo.scale, &l->mult, &l->shift))
		return LFAIL(t, li, l, -EINVAL, "bad scales");
	l->in_zp = qi.zero_point;
	l->out_zp = qo.zero_point;
	l->in_type = in->type;
	l->out_type = out->type;
	type_range(out->type, &l->lo, &l->hi);
	l->count = tfl_tensor_count(in);
	tf_set_shape(l, in, out);
	return 0;
}

/* MEAN over H and W of a 4-D tensor: reference_integer_ops::Mean. */
int tf_prep_mean(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out, *ax;
	struct e1npu_qparams qi, qo;
	bool h = false, w = false;
	int ret;

	if (l->op->num_inputs != 2)
		return LFAIL(t, li, l, -EINVAL, "needs input and axis");
	if ((ret = tf_want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = tf_want(t, li, l, l->op->inputs[1], "axis", 1, true)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	ax = T(t, l->op->inputs[1]);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, l->out, in->type)))
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
	if ((ret = tf_qparams(t, li, l, l->in, &qi)) ||
	    (ret = tf_qparams(t, li, l, l->out, &qo)))
		return ret;
	/* no options: TFLite's default, keep_dims false */
	if (tfl_mean_prepare(&l->mean, tf_ref(t) == E1NPU_TFLITE_REF_2_14,
			     in->type == TFL_TYPE_UINT8,
			     l->op->opt.type == TFL_OPT_REDUCER && l->op->opt.keep_dims,
			     (uint32_t)in->dims[1], (uint32_t)in->dims[2],
			     (uint32_t)in->dims[3], qi, qo))
		return LFAIL(t, li, l, -EINVAL, "bad scales");
	l->in_type = in->type;
	tf_set_shape(l, in, out);
	return 0;
}

/* REDUCE_MAX, REDUCE_MIN, SUM: uint8/int8, constant int32 axes (any), keep_dims. */
int tf_prep_reduce(struct e1npu_tflite *t, uint32_t li, struct layer *l)
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
	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)) ||
	    (ret = tf_want(t, li, l, l->op->inputs[1], "axes", -1, true)))
		return ret;
	in = T(t, l->in);
	ax = T(t, l->op->inputs[1]);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, l->out, in->type)))
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
	if ((ret = tf_qparams(t, li, l, l->in, &qi)) || (ret = tf_qparams(t, li, l, l->out, &qo)))
		return ret;
	/*
	 * 2.2 sums in the 8-bit type only when scale and zero point are
	 * equal; 2.14 always rescales (and clamps)
	 */
	if (kind == TFL_REDUCE_SUM_WRAP && (tf_ref(t) == E1NPU_TFLITE_REF_2_14 ||
					    qi.scale != qo.scale || qi.zero_point != qo.zero_point)) {
		l->reduce.kind = tf_ref(t) == E1NPU_TFLITE_REF_2_14 ? TFL_REDUCE_SUM_2_14 :
				 TFL_REDUCE_SUM_RESCALE;
		if (l->reduce.nout && l->reduce.nin / l->reduce.nout > INT32_MAX)
			return LFAIL(t, li, l, -ENOTSUP, "%zu elements a sum (int32 at most)",
				     l->reduce.nin / l->reduce.nout);
		if ((ret = tfl_reduce_rescale(&l->reduce, qi.scale, qi.zero_point, qo.scale,
					      qo.zero_point)))
			return ret;
	}
	tf_set_shape(l, in, out);
	return 0;
}

/* PRELU: uint8 input and alpha (constant or not) broadcast to the output. */
int tf_prep_prelu(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *a, *out;
	struct e1npu_qparams qi, qa, qo;
	int ret;

	if (l->op->num_inputs != 2 || l->op->inputs[1] < 0)
		return LFAIL(t, li, l, -EINVAL, "needs input and alpha");
	l->in2 = l->op->inputs[1];
	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)) ||
	    (ret = tf_want(t, li, l, l->in2, "alpha", -1, !!T(t, l->in2)->data)))
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
	if ((ret = tf_want_act_type(t, li, l, l->in2, in->type)) ||
	    (ret = tf_want_act_type(t, li, l, l->out, in->type)))
		return ret;
	if ((ret = tf_qparams(t, li, l, l->in, &qi)) || (ret = tf_qparams(t, li, l, l->in2, &qa)) ||
	    (ret = tf_qparams(t, li, l, l->out, &qo)))
		return ret;
	if (tfl_prelu_prepare(&l->prelu, tf_ref(t) == E1NPU_TFLITE_REF_2_14, qi, qa, qo)) {
		if (tf_ref(t) == E1NPU_TFLITE_REF_2_14)
			return LFAIL(t, li, l, -EINVAL,
				     "input scale %g, alpha scale %g, output scale %g: TFLite 2.14's multipliers are out of range",
				     (double)qi.scale, (double)qa.scale, (double)qo.scale);
		return LFAIL(t, li, l, -EINVAL,
			     "input scale %g x alpha scale %g / output scale %g is not below 1 (TFLite 2.2 requires it)",
			     (double)qi.scale, (double)qa.scale, (double)qo.scale);
	}
	if (a->data) {		/* a constant alpha is read where it is */
		l->alpha = a->data;
		l->in2 = -1;
	}
	tf_set_shape(l, in, out);
	return 0;
}

/*
 * LOG_SOFTMAX (uint8, int8) over the last dimension; the output must be
 * 2.2's fixed quantization: scale 16/256, zero point 255 (uint8) / 127 (int8).
 */
int tf_prep_logsoftmax(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	struct e1npu_qparams qi, qo;
	bool i8;
	int ret;

	if (l->op->num_inputs != 1)
		return LFAIL(t, li, l, -EINVAL, "%u inputs (1 taken)", l->op->num_inputs);
	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || !in->ndims ||
	    (ret = tf_want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s of rank %u",
					 tfl_type_name(in->type), in->ndims);
	if (out->ndims != in->ndims || memcmp(out->dims, in->dims, 4 * in->ndims))
		return LFAIL(t, li, l, -EINVAL, "output shape is not the input's");
	if ((ret = tf_qparams(t, li, l, l->in, &qi)) || (ret = tf_qparams(t, li, l, l->out, &qo)))
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
	tf_set_shape(l, in, out);
	return 0;
}

/* MUL, SUB: two inputs of one type, broadcasting (rank <= 4), fused activation. */
int tf_prep_mul_sub(struct e1npu_tflite *t, uint32_t li, struct layer *l)
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
	if ((ret = tf_qparams(t, li, l, l->in, &l->qa)) ||
	    (ret = tf_qparams(t, li, l, l->in2, &l->qb)) ||
	    (ret = tf_qparams(t, li, l, l->out, &l->qo)) ||
	    (ret = tf_map_act(t, li, l, l->op->opt.type == (mul ? TFL_OPT_MUL : TFL_OPT_SUB) ?
			      l->op->opt.act : 0, &act)))
		return ret;
	if (mul ? tfl_mul_prepare(&l->mul, a->type == TFL_TYPE_UINT8, act, l->qa, l->qb, l->qo) :
		  tfl_sub_prepare(&l->sub, a->type == TFL_TYPE_UINT8, act, l->qa, l->qb, l->qo))
		return LFAIL(t, li, l, -EINVAL, "scales a %g, b %g, out %g: no requantization multiplier",
			     (double)l->qa.scale, (double)l->qb.scale, (double)l->qo.scale);
	tf_set_shape(l, a, out);
	return 0;
}

/*
 * MAXIMUM / MINIMUM: TFLite 2.2 compares the stored values, whatever the
 * tensors' quantization (maximum_minimum.cc has no rescale); broadcasting.
 */
int tf_prep_minmax(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *a, *b, *out;
	int ret;

	if ((ret = prep_binary(t, li, l, &a, &b, &out)))
		return ret;
	if (tfl_bcast_prepare(&l->bcast, a->dims, a->ndims, b->dims, b->ndims, out->dims,
			      out->ndims))
		return LFAIL(t, li, l, -ENOTSUP, "shapes do not broadcast to the output (rank 4 at most)");
	l->in_type = a->type;
	tf_set_shape(l, a, out);
	return 0;
}

/* RELU, RELU6, RELU_N1_TO_1, HARD_SWISH: elementwise, one type and size. */
int tf_prep_relu(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	struct e1npu_qparams qi, qo;
	int ret;

	if (l->op->num_inputs != 1)
		return LFAIL(t, li, l, -EINVAL, "needs one input");
	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (tfl_tensor_count(in) != tfl_tensor_count(out))
		return LFAIL(t, li, l, -EINVAL, "input and output sizes differ");
	if ((ret = tf_qparams(t, li, l, l->in, &qi)) ||
	    (ret = tf_qparams(t, li, l, l->out, &qo)))
		return ret;
	if (l->op->builtin == TFL_OP_HARD_SWISH ?
	    tfl_hswish_prepare(&l->hswish, in->type == TFL_TYPE_UINT8, tfl_tensor_count(in),
			       qi, qo) :
	    tfl_relu_prepare(&l->relu, l->op->builtin, in->type == TFL_TYPE_UINT8,
			     tfl_tensor_count(in), qi, qo))
		return LFAIL(t, li, l, -EINVAL, "bad scales");
	tf_set_shape(l, in, out);
	return 0;
}

/* One input and one output of as many elements: the unary operators' prologue. */
static int prep_unary(struct e1npu_tflite *t, uint32_t li, struct layer *l,
		      const struct tfl_tensor **in, const struct tfl_tensor **out)
{
	int ret;

	if (l->op->num_inputs != 1)
		return LFAIL(t, li, l, -EINVAL, "needs one input");
	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)))
		return ret;
	*in = T(t, l->in);
	*out = T(t, l->out);
	if (tfl_tensor_count(*in) != tfl_tensor_count(*out))
		return LFAIL(t, li, l, -EINVAL, "input and output sizes differ");
	l->count = tfl_tensor_count(*in);
	tf_set_shape(l, *in, *out);
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
	if (!dtype_of((*in)->type) || (ret = tf_want_act_type(t, li, l, l->out, (*in)->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s (uint8 and int8 handled)",
					 tfl_type_name((*in)->type));
	if ((ret = tf_qparams(t, li, l, l->in, qi)) || (ret = tf_qparams(t, li, l, l->out, qo)))
		return ret;
	return 0;
}

/* LOGISTIC, TANH, LEAKY_RELU: one 256-entry table (tflite_lut.h, tflite_leaky.h). */
int tf_prep_lut(struct e1npu_tflite *t, uint32_t li, struct layer *l)
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
	if (tf_ref(t) == E1NPU_TFLITE_REF_2_14) {
		ret = tfl_leaky_prepare_2_14(&l->lut, l->count, op->opt.alpha, qi, qo);
		if (ret == -EDOM)
			return LFAIL(t, li, l, -EINVAL, "alpha %g is not finite",
				     (double)op->opt.alpha);
		if (ret)
			return LFAIL(t, li, l, -ENOTSUP,
				     "alpha %g, input scale %g, output scale %g: TFLite 2.14's multipliers are not formed (a negative alpha, or out of range)",
				     (double)op->opt.alpha, (double)qi.scale, (double)qo.scale);
		l->host_why = "TFLite 2.14's integer leaky ReLU as a 256-entry table on the host: e1 has no table lookup";
		return 0;
	}
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
int tf_prep_l2norm(struct e1npu_tflite *t, uint32_t li, struct layer *l)
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
	return tf_qparams(t, li, l, ti, &l->flt.q);
}

/* DEQUANTIZE uint8/int8 -> float32; QUANTIZE float32 -> uint8/int8; float ABS. */
int tf_prep_float(struct e1npu_tflite *t, uint32_t li, struct layer *l)
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
