// SPDX-License-Identifier: MIT
/*
 * The checks every operator's preparation shares (tflite_internal.h): the
 * layer-scoped error, a tensor's presence, rank, constness, type and
 * per-tensor quantization, the fused activation, constant int32 vectors,
 * the layer's shape text for the report, and whether every activation
 * tensor a layer touches has storage. One wording for one mistake,
 * whatever the operator.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "tflite_internal.h"

__attribute__((format(printf, 3, 4)))
int tf_fail(struct e1npu_tflite *t, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->err, sizeof(t->err), fmt, ap);
	va_end(ap);
	return ret;
}

/* Per-tensor quantization of an activation tensor, validated. */
int tf_qparams(struct e1npu_tflite *t, uint32_t li, struct layer *l,
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

int tf_map_act(struct e1npu_tflite *t, uint32_t li, struct layer *l,
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
int tf_want(struct e1npu_tflite *t, uint32_t li, struct layer *l,
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

int tf_want_act_type(struct e1npu_tflite *t, uint32_t li, struct layer *l,
		     int32_t ti, uint32_t type)
{
	if (T(t, ti)->type != type)
		return LFAIL(t, li, l, -ENOTSUP, "tensor %d (%s) is %s, expected %s",
			     ti, T(t, ti)->name, tfl_type_name(T(t, ti)->type),
			     tfl_type_name(type));
	return 0;
}

void tf_set_shape(struct layer *l, const struct tfl_tensor *in,
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

/* A constant int32 vector of @n elements (TRANSPOSE's perm, SLICE's begin/size). */
int tf_const_ints(struct e1npu_tflite *t, uint32_t li, struct layer *l, int32_t ti,
		  const char *role, uint32_t n, int32_t *v)
{
	const struct tfl_tensor *x;
	int ret = tf_want(t, li, l, ti, role, 1, true);

	if (ret)
		return ret;
	x = T(t, ti);
	if (x->type != TFL_TYPE_INT32 || x->dims[0] != (int32_t)n)
		return LFAIL(t, li, l, -ENOTSUP, "%s must be int32 [%u]", role, n);
	memcpy(v, x->data, 4 * n);
	return 0;
}

/* Storage for every activation tensor the layer reads and writes. */
bool tf_layer_bufs(const struct e1npu_tflite *t, const struct layer *l)
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
