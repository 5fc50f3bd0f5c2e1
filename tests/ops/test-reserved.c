// SPDX-License-Identifier: MIT
/*
 * Reserved members of every public parameter struct must be zero
 * (include/e1npu/e1npu.h: structs grow into them): each set word fails
 * with -EINVAL and a last error naming the struct and the field, checked
 * before anything else, while the same call with zeros succeeds.
 * struct e1npu_op_desc / e1npu_tensor: tests/lib/test-api.c.
 */
#include "ops-test.h"

#include <e1npu/e1npu_tflite.h>

#define NRES(a) (unsigned int)(sizeof(a) / sizeof((a)[0]))

struct env {
	struct e1npu_device *dev;
	struct e1npu_ops *ops;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));

	if (!e || e1npu_device_open(t_spec(), &e->dev) || e1npu_ops_new(e->dev, &e->ops))
		return -1;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	e1npu_ops_free(e->ops);
	e1npu_device_close(e->dev);
	free(e);
	return 0;
}

static void want_named(struct env *e, int ret, const char *msg)
{
	assert_int_equal(ret, -EINVAL);
	assert_string_equal(e1npu_ops_last_error(e->ops), msg);
}

static const float one = 1.0f;

static struct e1npu_fc_params fc_params(void)
{
	struct e1npu_fc_params p;

	memset(&p, 0, sizeof(p));
	p.dtype = E1NPU_DTYPE_INT8;
	p.k = 4;
	p.n = 2;
	p.input = (struct e1npu_qparams){ 0.5f, 0 };
	p.output = (struct e1npu_qparams){ 1.0f, 0 };
	p.weight_scales = &one;
	p.num_weight_scales = 1;
	return p;
}

static void test_fc_params(void **state)
{
	struct env *e = *state;
	struct e1npu_fc_params p = fc_params();
	int8_t w[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct e1npu_fc *fc;
	char msg[96];

	assert_int_equal(e1npu_fc_new(e->ops, &p, w, NULL, &fc), 0);
	e1npu_fc_free(fc);
	for (unsigned int i = 0; i < NRES(p.reserved); i++) {
		p = fc_params();
		p.reserved[i] = 100 + i;
		snprintf(msg, sizeof(msg), "e1npu_fc_params: field reserved[%u] = %u must be zero",
			 i, 100 + i);
		want_named(e, e1npu_fc_new(e->ops, &p, w, NULL, &fc), msg);
	}
}

static struct e1npu_conv_params conv_params(void)
{
	struct e1npu_conv_params p;

	memset(&p, 0, sizeof(p));
	p.kind = E1NPU_OPS_CONV2D;
	p.dtype = E1NPU_DTYPE_INT8;
	p.in_h = p.in_w = 3;
	p.c_in = p.c_out = 1;
	p.kh = p.kw = 1;
	p.stride_h = p.stride_w = p.dil_h = p.dil_w = 1;
	p.padding = E1NPU_PAD_VALID;
	p.input = (struct e1npu_qparams){ 0.5f, 0 };
	p.output = (struct e1npu_qparams){ 1.0f, 0 };
	p.weight_scales = &one;
	p.num_weight_scales = 1;
	return p;
}

static void test_conv_params(void **state)
{
	struct env *e = *state;
	struct e1npu_conv_params p = conv_params();
	int8_t w[1] = { 1 };
	struct e1npu_conv *cv;
	char msg[96];

	assert_int_equal(e1npu_conv_new(e->ops, &p, w, NULL, &cv), 0);
	e1npu_conv_free(cv);
	for (unsigned int i = 0; i < NRES(p.reserved); i++) {
		p = conv_params();
		p.reserved[i] = 1;
		snprintf(msg, sizeof(msg), "e1npu_conv_params: field reserved[%u] = 1 must be zero", i);
		want_named(e, e1npu_conv_new(e->ops, &p, w, NULL, &cv), msg);
	}
}

static struct e1npu_pool_params pool_params(void)
{
	struct e1npu_pool_params p;

	memset(&p, 0, sizeof(p));
	p.dtype = E1NPU_DTYPE_INT8;
	p.in_h = p.in_w = 4;
	p.channels = 1;
	p.filter_h = p.filter_w = 2;
	p.stride_h = p.stride_w = 2;
	p.padding = E1NPU_PAD_VALID;
	p.q = (struct e1npu_qparams){ 1.0f, 0 };
	return p;
}

static void test_pool_params(void **state)
{
	struct env *e = *state;
	struct e1npu_pool_params p = pool_params();
	int8_t in[16] = { 0 }, out[4];
	uint32_t oh, ow;
	char msg[96];

	assert_int_equal(e1npu_ops_maxpool(e->ops, &p, in, out, NULL), 0);
	assert_int_equal(e1npu_ops_avgpool(e->ops, &p, in, out, NULL), 0);
	assert_int_equal(e1npu_ops_pool_output_size(&p, &oh, &ow), 0);
	for (unsigned int i = 0; i < NRES(p.reserved); i++) {
		p = pool_params();
		p.reserved[i] = 7;
		snprintf(msg, sizeof(msg), "e1npu_pool_params: field reserved[%u] = 7 must be zero", i);
		want_named(e, e1npu_ops_maxpool(e->ops, &p, in, out, NULL), msg);
		/* another value: the message cannot be the one left by maxpool */
		p.reserved[i] = 8;
		snprintf(msg, sizeof(msg), "e1npu_pool_params: field reserved[%u] = 8 must be zero", i);
		want_named(e, e1npu_ops_avgpool(e->ops, &p, in, out, NULL), msg);
		/* no context, no message: the error code alone */
		assert_int_equal(e1npu_ops_pool_output_size(&p, &oh, &ow), -EINVAL);
	}
}

static struct e1npu_attention_params att_params(void)
{
	struct e1npu_attention_params p;

	memset(&p, 0, sizeof(p));
	p.batch = p.heads = 1;
	p.tq = p.tk = p.dim = 2;
	p.mask = E1NPU_MASK_NONE;
	p.softmax = E1NPU_SOFTMAX_EXP2;
	assert_int_equal(e1npu_requant_from_scale(0.25, 0, &p.qk), 0);
	return p;
}

static void test_attention_params(void **state)
{
	struct env *e = *state;
	struct e1npu_attention_params p = att_params();
	int8_t q[4] = { 1, 2, 3, 4 }, k[4] = { 4, 3, 2, 1 }, v[4] = { 1, -1, 2, -2 }, out[4];
	char msg[96];

	assert_int_equal(e1npu_ops_attention_s8(e->ops, &p, q, k, v, out, NULL), 0);
	for (unsigned int i = 0; i < NRES(p.reserved); i++) {
		p = att_params();
		p.reserved[i] = 3;
		snprintf(msg, sizeof(msg), "e1npu_attention_params: field reserved[%u] = 3 must be zero", i);
		want_named(e, e1npu_ops_attention_s8(e->ops, &p, q, k, v, out, NULL), msg);
	}
	p = att_params();
	p.qk.reserved = 2;
	want_named(e, e1npu_ops_attention_s8(e->ops, &p, q, k, v, out, NULL),
		   "e1npu_attention_params.qk: field reserved = 2 must be zero");
}

/* Every struct e1npu_requant a call takes, by name. */
static void test_requant_args(void **state)
{
	struct env *e = *state;
	struct e1npu_requant ok, bad;
	int8_t x[4] = { 1, 2, 3, 4 }, w[12] = { 1 }, w2[4] = { 1 }, o1[8], o2[8], o3[8];
	uint8_t pr[4] = { 128, 128, 128, 128 };

	assert_int_equal(e1npu_requant_from_scale(0.5, 0, &ok), 0);
	bad = ok;
	bad.reserved = 9;
	/* t = 2, dm = 2, dh = 2 */
	assert_int_equal(e1npu_ops_qkv_projection_s8(e->ops, 2, 2, x, w, &ok, &ok, &ok,
						     o1, o2, o3, NULL), 0);
	want_named(e, e1npu_ops_qkv_projection_s8(e->ops, 2, 2, x, w, &ok, &bad, &ok,
						  o1, o2, o3, NULL),
		   "rq_k: field reserved = 9 must be zero");
	assert_int_equal(e1npu_ops_mlp_relu_s8(e->ops, 2, 2, 2, x, w2, w2, &ok, &ok, o1, NULL), 0);
	want_named(e, e1npu_ops_mlp_relu_s8(e->ops, 2, 2, 2, x, w2, w2, &bad, &ok, o1, NULL),
		   "rq_hidden: field reserved = 9 must be zero");
	assert_int_equal(e1npu_ops_swiglu_s8(e->ops, 2, 2, 2, x, w2, w2, w2, &ok, 8, &ok,
					     o1, NULL), 0);
	want_named(e, e1npu_ops_swiglu_s8(e->ops, 2, 2, 2, x, w2, w2, w2, &ok, 8, &bad,
					  o1, NULL),
		   "rq_out: field reserved = 9 must be zero");
	assert_int_equal(e1npu_ops_transformer_block_s8(e->ops, 2, 2, 2, x, pr, x, x, w2, w2,
							&ok, &ok, o1, NULL), 0);
	want_named(e, e1npu_ops_transformer_block_s8(e->ops, 2, 2, 2, x, pr, x, x, w2, w2,
						     &bad, &ok, o1, NULL),
		   "rq_hidden: field reserved = 9 must be zero");
}

/* The decoder block's own words and each of its six requantizations. */
static void test_decoder_params(void **state)
{
	struct env *e = *state;
	struct e1npu_decoder_params p;
	int8_t x[4] = { 0 }, out[4];
	struct {
		const char *name;
		struct e1npu_requant *rq;
	} rqs[] = {
		{ "rq_q", &p.rq_q }, { "rq_k", &p.rq_k }, { "rq_v", &p.rq_v },
		{ "rq_qk", &p.rq_qk }, { "rq_hidden", &p.rq_hidden }, { "rq_out", &p.rq_out },
	};
	char msg[96];

	for (unsigned int i = 0; i < NRES(p.reserved); i++) {
		memset(&p, 0, sizeof(p));
		p.reserved[i] = 5;
		snprintf(msg, sizeof(msg), "e1npu_decoder_params: field reserved[%u] = 5 must be zero", i);
		want_named(e, e1npu_ops_decoder_block_s8(e->ops, &p, x, out, NULL), msg);
	}
	for (size_t i = 0; i < sizeof(rqs) / sizeof(rqs[0]); i++) {
		memset(&p, 0, sizeof(p));
		rqs[i].rq->reserved = 1;
		snprintf(msg, sizeof(msg), "e1npu_decoder_params.%s: field reserved = 1 must be zero",
			 rqs[i].name);
		want_named(e, e1npu_ops_decoder_block_s8(e->ops, &p, x, out, NULL), msg);
	}
}

static void test_tflite_options(void **state)
{
	struct e1npu_tflite_options opt;
	struct e1npu_tflite *t = NULL;
	char err[128], want[128];

	(void)state;
	for (unsigned int i = 0; i < sizeof(opt.reserved) / sizeof(opt.reserved[0]); i++) {
		memset(&opt, 0, sizeof(opt));
		opt.reserved[i] = 4;
		assert_int_equal(e1npu_tflite_load_memory(NULL, "x", 1, &opt, &t, err, sizeof(err)),
				 -EINVAL);
		assert_null(t);
		snprintf(want, sizeof(want),
			 "e1npu_tflite_options: field reserved[%u] = 4 must be zero", i);
		assert_string_equal(err, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fc_params),
		cmocka_unit_test(test_conv_params),
		cmocka_unit_test(test_pool_params),
		cmocka_unit_test(test_attention_params),
		cmocka_unit_test(test_requant_args),
		cmocka_unit_test(test_decoder_params),
		cmocka_unit_test(test_tflite_options),
	};

	return cmocka_run_group_tests_name("ops-reserved", tests, setup, teardown);
}
