// SPDX-License-Identifier: MIT
/* TfLiteContext -> struct tfl_model (view.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "view.h"

/* TfLiteType -> schema.fbs TensorType (the interpreter's enum tfl_type). */
static uint32_t map_type(int t)
{
	switch (t) {
	case TFLC_FLOAT32: return TFL_TYPE_FLOAT32;
	case TFLC_FLOAT16: return TFL_TYPE_FLOAT16;
	case TFLC_INT32: return TFL_TYPE_INT32;
	case TFLC_UINT8: return TFL_TYPE_UINT8;
	case TFLC_INT64: return TFL_TYPE_INT64;
	case TFLC_INT16: return TFL_TYPE_INT16;
	case TFLC_INT8: return TFL_TYPE_INT8;
	default: return 0xffff;	/* named "unknown": never supported */
	}
}

/* TfLitePadding -> schema Padding; anything else fails the op's check. */
static int32_t map_pad(int p)
{
	return p == TFLC_PAD_SAME ? TFL_PAD_SAME : p == TFLC_PAD_VALID ? TFL_PAD_VALID : -1;
}

static int view_tensor(const struct tflc_tensor *s, struct tfl_tensor *d)
{
	const struct tflc_affine_quant *aq = s->quantization_params;
	uint32_t n = 0;
	float *sc;
	int64_t *zp;

	d->name = s->name ? s->name : "";
	d->type = map_type(s->type);
	if (s->dims && s->dims->size > TFL_MAX_DIMS)
		d->type = 0xffff;
	else if (s->dims)
		for (int i = 0; i < s->dims->size; i++)
			d->dims[d->ndims++] = s->dims->data[i];
	/* Constant: mapped from the model file, and exactly its shape's size. */
	if (s->allocation_type == TFLC_MMAP_RO && s->data &&
	    s->bytes == tfl_tensor_count(d) * tfl_type_size(d->type)) {
		d->data = s->data;
		d->data_size = s->bytes;
	}
	if (s->quantization_type == TFLC_AFFINE_QUANT && aq && aq->scale &&
	    aq->scale->size > 0)
		n = (uint32_t)aq->scale->size;
	else if (s->params_scale != 0)
		n = 1;
	if (!n)
		return 0;
	/* The reader's form: little-endian floats and int64 zero points. */
	sc = malloc(n * sizeof(*sc));
	zp = calloc(n, sizeof(*zp));
	if (!sc || !zp) {
		free(sc);
		free(zp);
		return -ENOMEM;
	}
	d->num_scales = d->num_zero_points = n;
	d->scales = (const uint8_t *)sc;
	d->zero_points = (const uint8_t *)zp;
	if (n == 1 && !(aq && aq->scale && aq->scale->size == 1)) {
		sc[0] = s->params_scale;
		zp[0] = s->params_zero_point;
		return 0;
	}
	for (uint32_t i = 0; i < n; i++) {
		sc[i] = aq->scale->data[i];
		if (aq->zero_point && (uint32_t)aq->zero_point->size > i)
			zp[i] = aq->zero_point->data[i];
	}
	d->quantized_dimension = aq->quantized_dimension;
	return 0;
}

/* The node's builtin_data as the reader's decoded options. */
static void view_options(int32_t code, const void *bd, bool nn_half, struct tfl_options *o)
{
	o->dilation_w = o->dilation_h = 1;
	o->beta = 1.0f;
	if (!bd)
		return;
	switch (code) {
	case TFL_OP_CONV_2D: {
		const struct tflc_conv_params *p = bd;

		o->type = TFL_OPT_CONV2D;
		o->padding = map_pad(p->padding);
		o->stride_w = p->stride_width;
		o->stride_h = p->stride_height;
		o->act = p->activation;
		o->dilation_w = p->dilation_width_factor;
		o->dilation_h = p->dilation_height_factor;
		break;
	}
	case TFL_OP_DEPTHWISE_CONV_2D: {
		const struct tflc_depthwise_params *p = bd;

		o->type = TFL_OPT_DEPTHWISE_CONV2D;
		o->padding = map_pad(p->padding);
		o->stride_w = p->stride_width;
		o->stride_h = p->stride_height;
		o->depth_multiplier = p->depth_multiplier;
		o->act = p->activation;
		o->dilation_w = p->dilation_width_factor;
		o->dilation_h = p->dilation_height_factor;
		break;
	}
	case TFL_OP_AVERAGE_POOL_2D:
	case TFL_OP_MAX_POOL_2D: {
		const struct tflc_pool_params *p = bd;

		o->type = TFL_OPT_POOL2D;
		o->padding = map_pad(p->padding);
		o->stride_w = p->stride_width;
		o->stride_h = p->stride_height;
		o->filter_w = p->filter_width;
		o->filter_h = p->filter_height;
		o->act = p->activation;
		break;
	}
	case TFL_OP_ADD:
	case TFL_OP_MUL:
	case TFL_OP_SUB:
	case TFL_OP_FULLY_CONNECTED:
		o->type = code == TFL_OP_ADD ? TFL_OPT_ADD : code == TFL_OP_MUL ? TFL_OPT_MUL :
			  code == TFL_OP_SUB ? TFL_OPT_SUB : TFL_OPT_FULLY_CONNECTED;
		o->act = ((const struct tflc_act_params *)bd)->activation;
		break;
	case TFL_OP_CONCATENATION:
		o->type = TFL_OPT_CONCATENATION;
		o->axis = ((const struct tflc_concat_params *)bd)->axis;
		o->act = ((const struct tflc_concat_params *)bd)->activation;
		break;
	case TFL_OP_STRIDED_SLICE: {
		const struct tflc_strided_slice_params *p = bd;

		o->type = TFL_OPT_STRIDED_SLICE;
		o->begin_mask = p->begin_mask;
		o->end_mask = p->end_mask;
		o->ellipsis_mask = p->ellipsis_mask;
		o->new_axis_mask = p->new_axis_mask;
		o->shrink_axis_mask = p->shrink_axis_mask;
		break;
	}
	case TFL_OP_L2_NORMALIZATION:	/* TfLiteL2NormParams: the activation alone */
		o->type = TFL_OPT_L2NORM;
		o->act = ((const struct tflc_act_params *)bd)->activation;
		break;
	case TFL_OP_LEAKY_RELU:
		o->type = TFL_OPT_LEAKY_RELU;
		o->alpha = ((const struct tflc_leaky_relu_params *)bd)->alpha;
		break;
	case TFL_OP_SOFTMAX:
		o->type = TFL_OPT_SOFTMAX;
		o->beta = ((const struct tflc_softmax_params *)bd)->beta;
		break;
	case TFL_OP_MEAN:
	case TFL_OP_SUM:
	case TFL_OP_REDUCE_MAX:
	case TFL_OP_REDUCE_MIN:
		o->type = TFL_OPT_REDUCER;
		o->keep_dims = ((const struct tflc_reducer_params *)bd)->keep_dims;
		break;
	case TFL_OP_RESHAPE:
		o->type = TFL_OPT_RESHAPE;	/* the shapes are the tensors' */
		break;
	case TFL_OP_GATHER:
		o->type = TFL_OPT_GATHER;
		o->axis = ((const struct tflc_gather_params *)bd)->axis;
		break;
	case TFL_OP_SPLIT:
	case TFL_OP_SPLIT_V:
		o->type = code == TFL_OP_SPLIT ? TFL_OPT_SPLIT : TFL_OPT_SPLIT_V;
		o->num = ((const struct tflc_split_params *)bd)->num_splits;
		break;
	case TFL_OP_PACK:
	case TFL_OP_UNPACK:
		o->type = code == TFL_OP_PACK ? TFL_OPT_PACK : TFL_OPT_UNPACK;
		o->num = ((const struct tflc_pack_params *)bd)->num;
		o->axis = ((const struct tflc_pack_params *)bd)->axis;
		break;
	case TFL_OP_RESIZE_BILINEAR:
		o->type = TFL_OPT_RESIZE_BILINEAR;
		o->align_corners = ((const struct tflc_resize_bilinear_params *)bd)->align_corners;
		o->half_pixel_centers =
			((const struct tflc_resize_bilinear_params *)bd)->half_pixel_centers;
		break;
	case TFL_OP_RESIZE_NEAREST_NEIGHBOR:
		/* TfLiteResizeNearestNeighborParams: 2.2's ends after align_corners */
		o->type = TFL_OPT_RESIZE_NEAREST_NEIGHBOR;
		o->align_corners = ((const struct tflc_resize_nn_params *)bd)->align_corners;
		o->half_pixel_centers = nn_half &&
			((const struct tflc_resize_nn_params *)bd)->half_pixel_centers;
		break;
	case TFL_OP_DEPTH_TO_SPACE:
	case TFL_OP_SPACE_TO_DEPTH:
		o->type = code == TFL_OP_DEPTH_TO_SPACE ? TFL_OPT_DEPTH_TO_SPACE :
			  TFL_OPT_SPACE_TO_DEPTH;
		o->block_size = ((const struct tflc_block_params *)bd)->block_size;
		break;
	case TFL_OP_TRANSPOSE_CONV: {
		const struct tflc_transpose_conv_params *p = bd;

		o->type = TFL_OPT_TRANSPOSE_CONV;
		o->padding = map_pad(p->padding);
		o->stride_w = p->stride_width;
		o->stride_h = p->stride_height;
		break;
	}
	default:
		break;
	}
}

static int32_t *copy_ints(const struct tflc_int_array *a, uint32_t *n)
{
	int32_t *p;

	*n = a && a->size > 0 ? (uint32_t)a->size : 0;
	p = calloc(*n ? *n : 1, sizeof(*p));
	if (p && *n)
		memcpy(p, a->data, *n * sizeof(*p));
	return p;
}

int e1d_view_build(struct tflc_context *ctx, const int *nodes, int n, bool nn_half,
		   struct e1d_view *v, char *err, size_t errlen)
{
	struct tfl_model *m = &v->m;
	int ret = -ENOMEM;

	memset(v, 0, sizeof(*v));
	m->num_tensors = (uint32_t)ctx->tensors_size;
	m->tensors = calloc(m->num_tensors ? m->num_tensors : 1, sizeof(*m->tensors));
	m->operators = calloc(n > 0 ? (size_t)n : 1, sizeof(*m->operators));
	v->node = calloc(n > 0 ? (size_t)n : 1, sizeof(*v->node));
	if (!m->tensors || !m->operators || !v->node)
		goto fail;
	for (uint32_t i = 0; i < m->num_tensors; i++)
		if (view_tensor(&ctx->tensors[i], &m->tensors[i]))
			goto fail;
	for (int k = 0; k < n; k++) {
		struct tfl_operator *op = &m->operators[k];
		struct tflc_node *node;
		struct tflc_registration *reg;

		m->num_operators = (uint32_t)k + 1;
		v->node[k] = nodes[k];
		if (ctx->GetNodeAndRegistration(ctx, nodes[k], &node, &reg) != TFL_OK) {
			snprintf(err, errlen, "node %d: GetNodeAndRegistration failed", nodes[k]);
			ret = -EINVAL;
			goto fail;
		}
		op->builtin = reg->builtin_code;
		op->version = reg->version;
		if (reg->builtin_code == TFLC_BUILTIN_CUSTOM)
			op->custom_code = reg->custom_name ? reg->custom_name : "(unnamed)";
		op->inputs = copy_ints(node->inputs, &op->num_inputs);
		op->outputs = copy_ints(node->outputs, &op->num_outputs);
		if (!op->inputs || !op->outputs)
			goto fail;
		for (uint32_t j = 0; j < op->num_inputs + op->num_outputs; j++) {
			int32_t ti = j < op->num_inputs ? op->inputs[j] :
				     op->outputs[j - op->num_inputs];

			if (ti < -1 || ti >= (int32_t)m->num_tensors) {
				snprintf(err, errlen, "node %d: tensor index %d of %u",
					 nodes[k], ti, m->num_tensors);
				ret = -EINVAL;
				goto fail;
			}
		}
		view_options(op->builtin, node->builtin_data, nn_half, &op->opt);
	}
	return 0;
fail:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	e1d_view_free(v);
	return ret;
}

void e1d_view_free(struct e1d_view *v)
{
	struct tfl_model *m = &v->m;

	for (uint32_t i = 0; m->tensors && i < m->num_tensors; i++) {
		free((void *)m->tensors[i].scales);
		free((void *)m->tensors[i].zero_points);
	}
	for (uint32_t k = 0; m->operators && k < m->num_operators; k++) {
		free(m->operators[k].inputs);
		free(m->operators[k].outputs);
	}
	free(m->tensors);
	free(m->operators);
	free(v->node);
	memset(v, 0, sizeof(*v));
}
