// SPDX-License-Identifier: MIT
/*
 * One layer of the interpreter: tf_prepare_layer() sends operator i to
 * its preparation (tflite_prep_conv.c, tflite_prep_elem.c,
 * tflite_prep_shape.c), tf_run_layer() runs a prepared layer, into
 * e1npu_ops on the NPU path or lib/ref on the reference path, or on the
 * host with TFLite's integer arithmetic (the tfl_*_run kernels, and
 * QUANTIZE and MAXIMUM/MINIMUM here), and fills its report. Shared by the
 * whole-model interpreter and the delegate's partitions.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "quant.h"
#include "ref.h"
#include "tflite_internal.h"
#include "tflite_why.h"

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

int tf_run_layer(struct e1npu_tflite *t, uint32_t li, struct layer *l)
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
int tf_prepare_layer(struct e1npu_tflite *t, uint32_t i, struct layer *l)
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
	case TFL_OP_DEPTHWISE_CONV_2D: ret = tf_prep_conv(t, i, l); break;
	case TFL_OP_FULLY_CONNECTED: ret = tf_prep_fc(t, i, l); break;
	case TFL_OP_MAX_POOL_2D:
	case TFL_OP_AVERAGE_POOL_2D: ret = tf_prep_pool(t, i, l); break;
	case TFL_OP_ADD: ret = tf_prep_add(t, i, l); break;
	case TFL_OP_SOFTMAX: ret = tf_prep_softmax(t, i, l); break;
	case TFL_OP_RESHAPE:
	case TFL_OP_SQUEEZE: ret = tf_prep_reshape(t, i, l); break;
	case TFL_OP_QUANTIZE: ret = tf_prep_quantize(t, i, l); break;
	case TFL_OP_MEAN: ret = tf_prep_mean(t, i, l); break;
	case TFL_OP_RELU:
	case TFL_OP_RELU6:
	case TFL_OP_RELU_N1_TO_1:
	case TFL_OP_HARD_SWISH: ret = tf_prep_relu(t, i, l); break;
	case TFL_OP_MAXIMUM:
	case TFL_OP_MINIMUM: ret = tf_prep_minmax(t, i, l); break;
	case TFL_OP_MUL:
	case TFL_OP_SUB: ret = tf_prep_mul_sub(t, i, l); break;
	case TFL_OP_PAD: ret = tf_prep_pad(t, i, l); break;
	case TFL_OP_TRANSPOSE:
	case TFL_OP_SLICE: ret = tf_prep_layout(t, i, l); break;
	case TFL_OP_RESIZE_NEAREST_NEIGHBOR: ret = tf_prep_resize(t, i, l); break;
	case TFL_OP_STRIDED_SLICE: ret = tf_prep_strided_slice(t, i, l); break;
	case TFL_OP_CONCATENATION: ret = tf_prep_concat(t, i, l); break;
	case TFL_OP_SPLIT:
	case TFL_OP_SPLIT_V:
	case TFL_OP_UNPACK: ret = tf_prep_split(t, i, l); break;
	case TFL_OP_PACK: ret = tf_prep_pack(t, i, l); break;
	case TFL_OP_ARG_MAX:
	case TFL_OP_ARG_MIN: ret = tf_prep_argmax(t, i, l); break;
	case TFL_OP_GATHER: ret = tf_prep_gather(t, i, l); break;
	case TFL_OP_SPACE_TO_BATCH_ND:
	case TFL_OP_BATCH_TO_SPACE_ND: ret = tf_prep_space_batch(t, i, l); break;
	case TFL_OP_RESIZE_BILINEAR: ret = tf_prep_bilinear(t, i, l); break;
	case TFL_OP_DEPTH_TO_SPACE:
	case TFL_OP_SPACE_TO_DEPTH: ret = tf_prep_depth_space(t, i, l); break;
	case TFL_OP_TRANSPOSE_CONV: ret = tf_prep_tconv(t, i, l); break;
	case TFL_OP_REDUCE_MAX:
	case TFL_OP_REDUCE_MIN:
	case TFL_OP_SUM: ret = tf_prep_reduce(t, i, l); break;
	case TFL_OP_PRELU: ret = tf_prep_prelu(t, i, l); break;
	case TFL_OP_LOG_SOFTMAX: ret = tf_prep_logsoftmax(t, i, l); break;
	case TFL_OP_LOGISTIC:
	case TFL_OP_TANH:
	case TFL_OP_LEAKY_RELU: ret = tf_prep_lut(t, i, l); break;
	case TFL_OP_L2_NORMALIZATION: ret = tf_prep_l2norm(t, i, l); break;
	case TFL_OP_DEQUANTIZE:
	case TFL_OP_ABS: ret = tf_prep_float(t, i, l); break;
	default:
		return tf_fail(t, -ENOTSUP, "operator %u: %s (builtin code %d) not supported",
			       i, tfl_builtin_name(op->builtin), op->builtin);
	}
	if (ret)
		return ret == -ENOMEM ? tf_fail(t, ret, "out of memory") : ret;
	return 0;
}
