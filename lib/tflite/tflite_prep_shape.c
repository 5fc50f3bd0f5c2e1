// SPDX-License-Identifier: MIT
/*
 * Preparation of the operators that move stored values rather than
 * compute new ones: RESHAPE/SQUEEZE, CONCATENATION, TRANSPOSE, SLICE,
 * STRIDED_SLICE, PAD, SPLIT/SPLIT_V/UNPACK/PACK, GATHER, ARG_MAX/ARG_MIN,
 * SPACE_TO_BATCH_ND/BATCH_TO_SPACE_ND, DEPTH_TO_SPACE/SPACE_TO_DEPTH and
 * the resizes (nearest neighbour, bilinear). Mostly shape checks: constant
 * index tensors (axes, sizes, paddings) are read once here.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "tflite_internal.h"

int tf_prep_reshape(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	int ret;

	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (in->type != out->type || !tfl_type_size(in->type) ||
	    tfl_tensor_count(in) != tfl_tensor_count(out))
		return LFAIL(t, li, l, -EINVAL, "input and output differ in type or size");
	tf_set_shape(l, in, out);
	return 0;
}

/* CONCATENATION along one axis of same-rank uint8/int8 tensors. */
int tf_prep_concat(struct e1npu_tflite *t, uint32_t li, struct layer *l)
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
	if ((ret = tf_want(t, li, l, l->out, "output", -1, false)))
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

		if ((ret = tf_want(t, li, l, op->inputs[k], "input", (int)out->ndims, false)) ||
		    (ret = tf_want_act_type(t, li, l, op->inputs[k], out->type)) ||
		    (ret = tf_qparams(t, li, l, op->inputs[k], &qi[k])))
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
	if ((ret = tf_qparams(t, li, l, l->out, &qo)))
		return ret;
	ret = tfl_concat_prepare(&l->concat, out->type == TFL_TYPE_UINT8, op->num_inputs,
				 outer, inner, qi, qo);
	if (ret)
		return LFAIL(t, li, l, ret, "int8 inputs must be quantized as the output (TFLite's rule)");
	l->in2 = op->num_inputs > 1 ? op->inputs[1] : -1;
	tf_set_shape(l, T(t, l->in), out);
	return 0;
}

/* TRANSPOSE, SLICE: the stored values moved, rank <= 4 (tflite_layout.c). */
int tf_prep_layout(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	bool tr = l->op->builtin == TFL_OP_TRANSPOSE;
	int32_t a[4], b[4], od[4];
	int ret;

	if (l->op->num_inputs != (tr ? 2u : 3u))
		return LFAIL(t, li, l, -EINVAL, "needs %s", tr ? "input and perm" :
			     "input, begin and size");
	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (in->ndims > 4 || !in->ndims)
		return LFAIL(t, li, l, -ENOTSUP, "rank %u (1 to 4 handled)", in->ndims);
	if ((ret = tf_const_ints(t, li, l, l->op->inputs[1], tr ? "perm" : "begin",
				 in->ndims, a)) ||
	    (!tr && (ret = tf_const_ints(t, li, l, l->op->inputs[2], "size", in->ndims, b))))
		return ret;
	if (tr ? tfl_transpose_prepare(&l->layout, in->dims, in->ndims, a, od) :
		 tfl_slice_prepare(&l->layout, in->dims, in->ndims, a, b, od))
		return LFAIL(t, li, l, -EINVAL, "bad %s", tr ? "permutation" : "begin or size");
	if (out->ndims != in->ndims || memcmp(od, out->dims, 4 * in->ndims))
		return LFAIL(t, li, l, -EINVAL, "output shape does not match");
	tf_set_shape(l, in, out);
	return 0;
}

/* STRIDED_SLICE: constant int32 begin, end, strides; rank 1 to 4. */
int tf_prep_strided_slice(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	const struct tfl_options *o = &l->op->opt;
	bool typed = o->type == TFL_OPT_STRIDED_SLICE;
	int32_t b[4], e[4], s[4], od[4];
	uint32_t on;
	int ret;

	if (l->op->num_inputs != 4)
		return LFAIL(t, li, l, -EINVAL, "needs input, begin, end and strides");
	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (in->ndims > 4 || !in->ndims)
		return LFAIL(t, li, l, -ENOTSUP, "rank %u (1 to 4 handled)", in->ndims);
	if (typed && (o->ellipsis_mask || o->new_axis_mask))
		return LFAIL(t, li, l, -ENOTSUP, "ellipsis and new-axis masks not supported");
	if ((ret = tf_const_ints(t, li, l, l->op->inputs[1], "begin", in->ndims, b)) ||
	    (ret = tf_const_ints(t, li, l, l->op->inputs[2], "end", in->ndims, e)) ||
	    (ret = tf_const_ints(t, li, l, l->op->inputs[3], "strides", in->ndims, s)))
		return ret;
	if (tfl_strided_slice_prepare(&l->layout, in->dims, in->ndims, b, e, s,
				      typed ? o->begin_mask : 0, typed ? o->end_mask : 0,
				      typed ? o->shrink_axis_mask : 0, od, &on))
		return LFAIL(t, li, l, -EINVAL, "a zero stride or an empty slice");
	if (out->ndims != on || memcmp(od, out->dims, 4 * on))
		return LFAIL(t, li, l, -EINVAL, "output shape does not match");
	tf_set_shape(l, in, out);
	return 0;
}

/* RESIZE_NEAREST_NEIGHBOR of [1, H, W, C] to a constant int32 size. */
int tf_prep_resize(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	const struct tfl_options *o = &l->op->opt;
	unsigned int flags = 0;
	int32_t size[2];
	int ret;

	if (l->op->num_inputs != 2)
		return LFAIL(t, li, l, -EINVAL, "needs input and size");
	if ((ret = tf_want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", 4, false)) ||
	    (ret = tf_const_ints(t, li, l, l->op->inputs[1], "size", 2, size)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	/* TFLite 2.2's kernels ignore align_corners and half_pixel_centers
	 * (checked: resize-*-align, resize-u8-half*), 2.14's read them */
	if (in->dims[0] != 1 || out->dims[0] != 1 || out->dims[1] != size[0] ||
	    out->dims[2] != size[1] || out->dims[3] != in->dims[3])
		return LFAIL(t, li, l, -EINVAL, "output shape does not match the size");
	if (tf_ref(t) == E1NPU_TFLITE_REF_2_14)
		flags |= TFL_RESIZE_2_14;
	if (in->type == TFL_TYPE_UINT8)
		flags |= TFL_RESIZE_UINT8;
	if (o->type == TFL_OPT_RESIZE_NEAREST_NEIGHBOR && o->align_corners)
		flags |= TFL_RESIZE_ALIGN;
	if (o->type == TFL_OPT_RESIZE_NEAREST_NEIGHBOR && o->half_pixel_centers)
		flags |= TFL_RESIZE_HALF;
	ret = tfl_resize_prepare(&l->resize, (uint32_t)in->dims[1], (uint32_t)in->dims[2],
				 (uint32_t)size[0], (uint32_t)size[1], (uint32_t)in->dims[3], flags);
	if (ret)
		return ret == -ENOMEM ? ret : LFAIL(t, li, l, ret, "sizes %dx%d (1 to %d)",
						    size[0], size[1], TFL_RESIZE_MAX);
	tf_set_shape(l, in, out);
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
	int ret = tf_want(t, li, l, ti, "axis", -1, true);
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

	if ((ret = tf_want(t, li, l, ti, role, -1, false)) ||
	    (ret = tf_want_act_type(t, li, l, ti, ref->type)))
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
	int ret = tf_want(t, li, l, ti, "size_splits", 1, true);
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
int tf_prep_split(struct e1npu_tflite *t, uint32_t li, struct layer *l)
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
	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)))
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
	tf_set_shape(l, in, T(t, l->out));
	return 0;
}

/* PACK: n inputs of one shape stacked along a new axis of the output. */
int tf_prep_pack(struct e1npu_tflite *t, uint32_t li, struct layer *l)
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
	if ((ret = tf_want(t, li, l, l->out, "output", -1, false)))
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
	tf_set_shape(l, T(t, l->in), out);
	return 0;
}

/* ARG_MAX / ARG_MIN: uint8/int8 input, constant axis, int32/int64 output. */
int tf_prep_argmax(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	uint32_t axis = 0;
	int ret;

	if (l->op->num_inputs != 2)
		return LFAIL(t, li, l, -EINVAL, "needs input and axis");
	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)))
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
	tf_set_shape(l, in, out);
	return 0;
}

/* GATHER: uint8/int8 params, int32/int64 indices (checked at run), options' axis. */
int tf_prep_gather(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *idx, *out;
	int32_t d[TFL_MAX_DIMS];
	uint32_t axis = 0, n = 0;
	int ret;

	if (l->op->num_inputs != 2 || l->op->inputs[1] < 0)
		return LFAIL(t, li, l, -EINVAL, "needs params and indices");
	l->in2 = l->op->inputs[1];
	if ((ret = tf_want(t, li, l, l->in, "params", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)) ||
	    (ret = tf_want(t, li, l, l->in2, "indices", -1, !!T(t, l->in2)->data)))
		return ret;
	in = T(t, l->in);
	idx = T(t, l->in2);
	out = T(t, l->out);
	if (!dtype_of(in->type) || !in->ndims ||
	    (ret = tf_want_act_type(t, li, l, l->out, in->type)))
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
	tf_set_shape(l, in, out);
	return 0;
}

/* SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND: 4-D, constant block [2], paddings/crops [2, 2]. */
int tf_prep_space_batch(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out, *bk, *pc;
	bool tb = l->op->builtin == TFL_OP_SPACE_TO_BATCH_ND;
	const char *what = tb ? "paddings" : "crops";
	struct e1npu_qparams qo;
	int32_t block[2], p[4], od[4];
	int ret;

	if (l->op->num_inputs != 3)
		return LFAIL(t, li, l, -EINVAL, "needs input, block_shape and %s", what);
	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)) ||
	    (ret = tf_want(t, li, l, l->op->inputs[1], "block_shape", 1, true)) ||
	    (ret = tf_want(t, li, l, l->op->inputs[2], what, 2, true)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	bk = T(t, l->op->inputs[1]);
	pc = T(t, l->op->inputs[2]);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, l->out, in->type)))
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
	if ((ret = tf_qparams(t, li, l, l->out, &qo)))
		return ret;
	if (tfl_space_batch_prepare(&l->space_batch, tb, in->dims, block, p, qo.zero_point, od))
		return LFAIL(t, li, l, -EINVAL, "block %dx%d with %s %d,%d,%d,%d does not fit %dx%dx%d",
			     block[0], block[1], what, p[0], p[1], p[2], p[3], in->dims[0],
			     in->dims[1], in->dims[2]);
	if (memcmp(od, out->dims, sizeof(od)))
		return LFAIL(t, li, l, -EINVAL, "output shape does not match");
	tf_set_shape(l, in, out);
	return 0;
}

/* DEPTH_TO_SPACE / SPACE_TO_DEPTH: 4-D uint8/int8, the options' block_size. */
int tf_prep_depth_space(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	bool ts = l->op->builtin == TFL_OP_DEPTH_TO_SPACE;
	uint32_t want_opt = ts ? TFL_OPT_DEPTH_TO_SPACE : TFL_OPT_SPACE_TO_DEPTH;
	int32_t block, od[4];
	int ret;

	if (l->op->num_inputs != 1)
		return LFAIL(t, li, l, -EINVAL, "%u inputs (1 taken)", l->op->num_inputs);
	if ((ret = tf_want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", 4, false)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, l->out, in->type)))
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
	tf_set_shape(l, in, out);
	return 0;
}

/* RESIZE_BILINEAR of [N, H, W, C] to a constant int32 size. */
int tf_prep_bilinear(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *out;
	const struct tfl_options *o = &l->op->opt;
	bool typed = o->type == TFL_OPT_RESIZE_BILINEAR;
	int32_t size[2];
	int ret;

	if (l->op->num_inputs != 2)
		return LFAIL(t, li, l, -EINVAL, "needs input and size");
	if ((ret = tf_want(t, li, l, l->in, "input", 4, false)) ||
	    (ret = tf_want(t, li, l, l->out, "output", 4, false)) ||
	    (ret = tf_const_ints(t, li, l, l->op->inputs[1], "size", 2, size)))
		return ret;
	in = T(t, l->in);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (out->dims[0] != in->dims[0] || out->dims[1] != size[0] || out->dims[2] != size[1] ||
	    out->dims[3] != in->dims[3])
		return LFAIL(t, li, l, -EINVAL, "output shape does not match the size %dx%d",
			     size[0], size[1]);
	if (tfl_bilinear_prepare(&l->bilinear, tf_ref(t) == E1NPU_TFLITE_REF_2_14,
				 in->type == TFL_TYPE_INT8, in->dims, size[0], size[1],
				 typed && o->align_corners, typed && o->half_pixel_centers))
		return LFAIL(t, li, l, -EINVAL, "size %dx%d", size[0], size[1]);
	tf_set_shape(l, in, out);
	return 0;
}

/* PAD: constant int32 paddings; the output keeps the input's quantization. */
int tf_prep_pad(struct e1npu_tflite *t, uint32_t li, struct layer *l)
{
	const struct tfl_tensor *in, *pd, *out;
	struct e1npu_qparams qi, qo;
	int32_t pads[8], od[4];
	int ret;

	if (l->op->num_inputs != 2)
		return LFAIL(t, li, l, -EINVAL, "needs input and paddings");
	if ((ret = tf_want(t, li, l, l->in, "input", -1, false)) ||
	    (ret = tf_want(t, li, l, l->op->inputs[1], "paddings", 2, true)) ||
	    (ret = tf_want(t, li, l, l->out, "output", -1, false)))
		return ret;
	in = T(t, l->in);
	pd = T(t, l->op->inputs[1]);
	out = T(t, l->out);
	if (!dtype_of(in->type) || (ret = tf_want_act_type(t, li, l, l->out, in->type)))
		return ret ? ret : LFAIL(t, li, l, -ENOTSUP, "input type %s",
					 tfl_type_name(in->type));
	if (in->ndims > 4 || pd->type != TFL_TYPE_INT32 ||
	    pd->dims[0] != (int32_t)in->ndims || pd->dims[1] != 2)
		return LFAIL(t, li, l, -ENOTSUP, "paddings must be int32 [%u, 2] (rank 4 at most)",
			     in->ndims);
	if ((ret = tf_qparams(t, li, l, l->in, &qi)) ||
	    (ret = tf_qparams(t, li, l, l->out, &qo)))
		return ret;
	if (qi.scale != qo.scale || qi.zero_point != qo.zero_point)
		return LFAIL(t, li, l, -ENOTSUP, "input and output quantization differ");
	memcpy(pads, pd->data, 8 * in->ndims);
	if (tfl_pad_prepare(&l->pad, in->dims, in->ndims, pads, qo.zero_point, od) ||
	    out->ndims != in->ndims || memcmp(od, out->dims, 4 * in->ndims))
		return LFAIL(t, li, l, -EINVAL, "paddings do not give the output shape");
	tf_set_shape(l, in, out);
	return 0;
}
