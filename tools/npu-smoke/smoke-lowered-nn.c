// SPDX-License-Identifier: MIT
/*
 * Lowered smoke cases, CNN family: TFLite quantized conv2d (int8
 * per-channel, uint8 with zero points, a kernel the hardware lacks),
 * depthwise, grouped conv, fully connected, max and average pooling, ReLU
 * (wrapper and datapath sizes), quantized ADD, bias and residual add,
 * softmax (TFLite exact, and the datapath's exp2), each against lib/ref.
 */
#include <stdlib.h>
#include <string.h>

#include "smoke-lowered.h"
/* lib/ref: the naive references, linked from libe1npu.a */
#include "../../lib/ref/ref.h"

struct conv_spec {
	uint32_t kind, dtype, h, w, cin, cout, k, stride, pad, groups, mult, act;
	int32_t zx, zw, zy;
};

#define C2	E1NPU_OPS_CONV2D
#define DW	E1NPU_OPS_DEPTHWISE_CONV2D
#define GC	E1NPU_OPS_GROUPED_CONV2D
#define S8	E1NPU_DTYPE_INT8
#define U8	E1NPU_DTYPE_UINT8
#define SAME	E1NPU_PAD_SAME
#define VALID	E1NPU_PAD_VALID

static const struct conv_spec convs[] = {
	/* kind dtype h w cin cout k stride pad groups mult act zx zw zy */
	{ C2, S8, 9, 8, 5, 17, 3, 2, SAME, 0, 0, E1NPU_ACT_RELU, 7, 0, -5 },
	{ C2, U8, 7, 6, 3, 8, 3, 2, SAME, 0, 0, E1NPU_ACT_RELU6, 128, 120, 3 },
	{ C2, S8, 9, 9, 2, 3, 7, 1, SAME, 0, 0, 0, 5, 0, 0 },
	{ DW, S8, 9, 10, 20, 20, 3, 1, SAME, 0, 1, 0, -1, 0, 0 },
	{ GC, S8, 6, 7, 8, 12, 3, 1, SAME, 4, 0, 0, 2, 0, 0 },
};

static void conv_params(struct lcase *c, const struct conv_spec *s,
			struct e1npu_conv_params *p, float *scales, int32_t *bias)
{
	uint32_t i;

	memset(p, 0, sizeof(*p));
	p->kind = s->kind;
	p->dtype = s->dtype;
	p->in_h = s->h;
	p->in_w = s->w;
	p->c_in = s->cin;
	p->c_out = s->cout;
	p->kh = p->kw = s->k;
	p->stride_h = p->stride_w = s->stride;
	p->dil_h = p->dil_w = 1;
	p->padding = s->pad;
	p->groups = s->groups;
	p->depth_multiplier = s->mult;
	p->input.scale = 0.05f;
	p->input.zero_point = s->zx;
	p->output.scale = 0.93f;
	p->output.zero_point = s->zy;
	p->weight_zero_point = s->zw;
	p->act = s->act;
	for (i = 0; i < s->cout; i++) {
		scales[i] = 0.01f + 0.001f * (float)(lc_rand(c) % 50);
		bias[i] = (int32_t)(lc_rand(c) % 2001) - 1000;
	}
	p->weight_scales = scales;
	p->num_weight_scales = s->dtype == S8 ? s->cout : 1;
}

/* p: index into convs[] */
static int c_conv(struct lcase *c, const uint32_t *pp)
{
	const struct conv_spec *s = &convs[pp[0]];
	uint32_t cin_g = s->kind == DW ? 1 : s->kind == GC ? s->cin / s->groups : s->cin;
	float *scales = lc_alloc(c, s->cout * sizeof(float));
	int32_t *bias = lc_alloc(c, s->cout * sizeof(int32_t));
	struct e1npu_conv_params p;
	struct e1npu_conv *cv;
	uint32_t oh, ow;
	uint8_t *in, *w, *out, *ref;
	size_t nout;
	int ret;

	conv_params(c, s, &p, scales, bias);
	in = lc_u8(c, (size_t)s->h * s->w * s->cin);
	w = lc_u8(c, (size_t)s->k * s->k * cin_g * s->cout);
	ret = e1npu_conv_new(c->ops, &p, w, bias, &cv);
	if (ret)
		return ret;
	e1npu_conv_get_output_size(cv, &oh, &ow);
	nout = (size_t)oh * ow * s->cout;
	out = lc_out(c, nout);
	ref = lc_alloc(c, nout);
	ret = e1npu_conv_run(cv, in, out, c->rep);
	e1npu_conv_free(cv);
	if (ret)
		return ret;
	ret = ref_conv(&p, w, bias, in, ref);
	if (ret)
		return lc_ref_failed(c, "ref_conv", ret);
	lc_check(c, out, ref, nout, s->dtype == S8 ? SMOKE_S8 : SMOKE_U8, "output");
	return 0;
}

/* p: rows, k, n (int8, per-channel) */
static int c_fc(struct lcase *c, const uint32_t *pp)
{
	uint32_t rows = pp[0], k = pp[1], n = pp[2], i;
	float *sc = lc_alloc(c, n * sizeof(float));
	int32_t *bias = lc_alloc(c, n * 4);
	int8_t *in = lc_s8(c, (size_t)rows * k, -128, 127), *w = lc_s8(c, (size_t)n * k, -128, 127);
	int8_t *out = lc_out(c, (size_t)rows * n), *ref = lc_alloc(c, (size_t)rows * n);
	struct e1npu_fc_params p;
	struct e1npu_fc *fc;
	int ret;

	memset(&p, 0, sizeof(p));
	p.dtype = S8;
	p.k = k;
	p.n = n;
	p.input.scale = 0.02f;
	p.input.zero_point = 12;
	p.output.scale = 0.5f;
	p.output.zero_point = -3;
	for (i = 0; i < n; i++) {
		sc[i] = 0.004f + 0.0005f * (float)(lc_rand(c) % 20);
		bias[i] = (int32_t)(lc_rand(c) % 4001) - 2000;
	}
	p.weight_scales = sc;
	p.num_weight_scales = n;
	p.act = E1NPU_ACT_RELU6;
	ret = e1npu_fc_new(c->ops, &p, w, bias, &fc);
	if (ret)
		return ret;
	ret = e1npu_fc_run(fc, rows, in, out, c->rep);
	e1npu_fc_free(fc);
	if (ret)
		return ret;
	ret = ref_fc(&p, w, bias, rows, in, ref);
	if (ret)
		return lc_ref_failed(c, "ref_fc", ret);
	lc_check(c, out, ref, (size_t)rows * n, SMOKE_S8, "output");
	return 0;
}

/* p: avg, h, w, channels, filter, stride, padding (int8) */
static int c_pool(struct lcase *c, const uint32_t *pp)
{
	struct e1npu_pool_params p;
	uint32_t oh, ow;
	uint8_t *in, *out, *ref;
	size_t n;
	int ret;

	memset(&p, 0, sizeof(p));
	p.dtype = S8;
	p.in_h = pp[1];
	p.in_w = pp[2];
	p.channels = pp[3];
	p.filter_h = p.filter_w = pp[4];
	p.stride_h = p.stride_w = pp[5];
	p.padding = pp[6];
	p.q.scale = 0.1f;
	p.q.zero_point = -20;
	ret = e1npu_ops_pool_output_size(&p, &oh, &ow);
	if (ret)
		return ret;
	n = (size_t)oh * ow * p.channels;
	in = lc_u8(c, (size_t)p.in_h * p.in_w * p.channels);
	out = lc_out(c, n);
	ref = lc_alloc(c, n);
	ret = pp[0] ? e1npu_ops_avgpool(c->ops, &p, in, out, c->rep)
		    : e1npu_ops_maxpool(c->ops, &p, in, out, c->rep);
	if (ret)
		return ret;
	ret = pp[0] ? ref_avgpool(&p, in, ref) : ref_maxpool(&p, in, ref);
	if (ret)
		return lc_ref_failed(c, "pool reference", ret);
	lc_check(c, out, ref, n, SMOKE_S8, "output");
	return 0;
}

/* p: count */
static int c_relu(struct lcase *c, const uint32_t *pp)
{
	size_t n = pp[0], i;
	int8_t *in = lc_s8(c, n, -128, 127), *out = lc_out(c, n), *ref = lc_alloc(c, n);
	int ret;

	ret = e1npu_ops_relu_s8(c->ops, n, in, out, c->rep);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		ref[i] = in[i] < 0 ? 0 : in[i];
	lc_check(c, out, ref, n, SMOKE_S8, "output");
	return 0;
}

/* p: count (uint8, distinct scales and zero points, ReLU) */
static int c_add(struct lcase *c, const uint32_t *pp)
{
	const struct e1npu_qparams qa = { 0.037f, 120 }, qb = { 0.011f, 3 }, qo = { 0.05f, 128 };
	size_t n = pp[0];
	uint8_t *a = lc_u8(c, n), *b = lc_u8(c, n), *out = lc_out(c, n), *ref = lc_alloc(c, n);
	int ret;

	ret = e1npu_ops_add(c->ops, U8, n, a, &qa, b, &qb, out, &qo, E1NPU_ACT_RELU, c->rep);
	if (ret)
		return ret;
	ret = ref_add(U8, n, a, &qa, b, &qb, ref, &qo, E1NPU_ACT_RELU);
	if (ret)
		return lc_ref_failed(c, "ref_add", ret);
	lc_check(c, out, ref, n, SMOKE_U8, "output");
	return 0;
}

/* p: rows, n */
static int c_bias_add(struct lcase *c, const uint32_t *pp)
{
	size_t n = (size_t)pp[0] * pp[1];
	int8_t *x = lc_s8(c, n, -128, 127), *b = lc_s8(c, pp[1], -128, 127);
	int8_t *out = lc_out(c, n), *ref = lc_alloc(c, n);
	int ret;

	ret = e1npu_ops_bias_add_s8(c->ops, pp[0], pp[1], x, b, out, c->rep);
	if (ret)
		return ret;
	ref_bias_add(pp[0], pp[1], x, b, ref);
	lc_check(c, out, ref, n, SMOKE_S8, "output");
	return 0;
}

/* p: count */
static int c_residual_add(struct lcase *c, const uint32_t *pp)
{
	size_t n = pp[0];
	int8_t *a = lc_s8(c, n, -128, 127), *b = lc_s8(c, n, -128, 127);
	int8_t *out = lc_out(c, n), *ref = lc_alloc(c, n);
	int ret;

	ret = e1npu_ops_residual_add_s8(c->ops, n, a, b, out, c->rep);
	if (ret)
		return ret;
	ref_residual_add(n, a, b, ref);
	lc_check(c, out, ref, n, SMOKE_S8, "output");
	return 0;
}

/* p: rows, depth (TFLite int8 softmax) */
static int c_softmax(struct lcase *c, const uint32_t *pp)
{
	size_t n = (size_t)pp[0] * pp[1];
	int8_t *in = lc_s8(c, n, -128, 127), *out = lc_out(c, n), *ref = lc_alloc(c, n);
	int ret;

	ret = e1npu_ops_softmax(c->ops, S8, pp[0], pp[1], in, 0.0625f, 1.0f, out, c->rep);
	if (ret)
		return ret;
	ret = ref_softmax(S8, pp[0], pp[1], in, 0.0625f, 1.0f, ref);
	if (ret)
		return lc_ref_failed(c, "ref_softmax", ret);
	lc_check(c, out, ref, n, SMOKE_S8, "output");
	return 0;
}

/* p: rows, depth (exp2 Q0.8, one logit in five masked) */
static int c_softmax_exp2(struct lcase *c, const uint32_t *pp)
{
	size_t n = (size_t)pp[0] * pp[1], i;
	int8_t *in = lc_s8(c, n, -30, 30);
	uint8_t *mask = lc_alloc(c, n), *out = lc_out(c, n), *ref = lc_alloc(c, n);
	int ret;

	for (i = 0; i < n; i++)
		mask[i] = lc_rand(c) % 5 != 0;
	ret = e1npu_ops_softmax_exp2_s8(c->ops, pp[0], pp[1], in, mask, out, c->rep);
	if (ret)
		return ret;
	ref_softmax_exp2_s8(pp[0], pp[1], in, mask, ref);
	lc_check(c, out, ref, n, SMOKE_U8, "output");
	return 0;
}

const struct lcase_def lowered_nn[] = {
	{ "conv2d s8 3x3/2 9x8x5->17 relu", c_conv, { 0 } },
	{ "conv2d u8 3x3/2 7x6x3->8 relu6", c_conv, { 1 } },
	{ "conv2d s8 7x7 9x9x2->3", c_conv, { 2 } },
	{ "depthwise s8 3x3 9x10x20", c_conv, { 3 } },
	{ "grouped conv s8 3x3 6x7x8->12 g4", c_conv, { 4 } },
	{ "fully_connected s8 6x33->40", c_fc, { 6, 33, 40 } },
	{ "maxpool s8 2x2/2 8x8x3", c_pool, { 0, 8, 8, 3, 2, 2, VALID } },
	{ "avgpool s8 3x3/2 9x9x4 same", c_pool, { 1, 9, 9, 4, 3, 2, SAME } },
	{ "relu s8 2000", c_relu, { 2000 } },
	{ "relu s8 100", c_relu, { 100 } },
	{ "add u8 256", c_add, { 256 } },
	{ "bias_add s8 20x15", c_bias_add, { 20, 15 } },
	{ "residual_add s8 300", c_residual_add, { 300 } },
	{ "softmax s8 exact 3x37", c_softmax, { 3, 37 } },
	{ "softmax exp2 5x33 masked", c_softmax_exp2, { 5, 33 } },
};

const size_t lowered_nn_count = sizeof(lowered_nn) / sizeof(lowered_nn[0]);
