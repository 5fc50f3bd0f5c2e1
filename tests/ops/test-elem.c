// SPDX-License-Identifier: MIT
/*
 * Pooling, ReLU, quantized ADD, softmax (TFLite and exp2) and the support
 * table, against the naive references and hand-worked values.
 */
#include "ops-test.h"
#include "ref.h"

static void run_pool(struct ops_env *e, bool avg, uint32_t dtype, uint32_t h,
		     uint32_t w, uint32_t c, uint32_t f, uint32_t s, uint32_t pad,
		     uint32_t act, uint64_t seed, uint32_t expect)
{
	struct e1npu_pool_params p;
	struct e1npu_ops_report rep;
	uint32_t oh, ow;
	uint8_t *in, *out, *ref;

	memset(&p, 0, sizeof(p));
	p.dtype = dtype;
	p.in_h = h;
	p.in_w = w;
	p.channels = c;
	p.filter_h = p.filter_w = f;
	p.stride_h = p.stride_w = s;
	p.padding = pad;
	p.q.scale = 0.1f;
	p.q.zero_point = dtype == E1NPU_DTYPE_UINT8 ? 100 : -20;
	p.act = act;
	assert_int_equal(e1npu_ops_pool_output_size(&p, &oh, &ow), 0);
	in = malloc((size_t)h * w * c);
	out = malloc((size_t)oh * ow * c);
	ref = malloc((size_t)oh * ow * c);
	t_fill_u8(in, (size_t)h * w * c, &seed);
	if (avg) {
		assert_int_equal(ref_avgpool(&p, in, ref), 0);
		assert_int_equal(e1npu_ops_avgpool(e->ops, &p, in, out, &rep), 0);
	} else {
		assert_int_equal(ref_maxpool(&p, in, ref), 0);
		assert_int_equal(e1npu_ops_maxpool(e->ops, &p, in, out, &rep), 0);
	}
	assert_memory_equal(out, ref, (size_t)oh * ow * c);
	if (expect)
		assert_int_equal(rep.engine, expect);
	free(in);
	free(out);
	free(ref);
}

static void test_pool(void **state)
{
	struct ops_env *e = *state;
	uint32_t hw = e->dev ? E1NPU_ENGINE_WRAPPER : E1NPU_ENGINE_CPU;

	run_pool(e, false, E1NPU_DTYPE_INT8, 8, 8, 3, 2, 2, E1NPU_PAD_VALID, 0, 1, hw);
	run_pool(e, false, E1NPU_DTYPE_UINT8, 9, 7, 5, 3, 2, E1NPU_PAD_SAME, 1, 2, hw);
	run_pool(e, false, E1NPU_DTYPE_INT8, 5, 6, 17, 3, 1, E1NPU_PAD_SAME, 2, 3, hw);
	run_pool(e, false, E1NPU_DTYPE_UINT8, 4, 4, 600, 2, 2, E1NPU_PAD_VALID, 0, 4, hw);
	run_pool(e, false, E1NPU_DTYPE_INT8, 1, 1, 1, 2, 2, E1NPU_PAD_SAME, 0, 5, hw);
	/* 4x4 window: not a MAXPOOL_S8 window -> CPU */
	run_pool(e, false, E1NPU_DTYPE_INT8, 9, 9, 2, 4, 3, E1NPU_PAD_SAME, 0, 6, E1NPU_ENGINE_CPU);
	run_pool(e, true, E1NPU_DTYPE_INT8, 9, 9, 4, 3, 2, E1NPU_PAD_SAME, 0, 7, E1NPU_ENGINE_CPU);
	run_pool(e, true, E1NPU_DTYPE_UINT8, 7, 7, 8, 7, 1, E1NPU_PAD_VALID, 0, 8, E1NPU_ENGINE_CPU);
	run_pool(e, true, E1NPU_DTYPE_UINT8, 6, 5, 3, 2, 2, E1NPU_PAD_SAME, 1, 9, E1NPU_ENGINE_CPU);
}

static void test_avgpool_hand(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_pool_params p;
	/* 1x2 window over [-3, -2]: sum -5, count 2 -> (-5 - 1) / 2 = -3 */
	int8_t in[2] = { -3, -2 }, out[1];

	memset(&p, 0, sizeof(p));
	p.dtype = E1NPU_DTYPE_INT8;
	p.in_h = 1;
	p.in_w = 2;
	p.channels = 1;
	p.filter_h = 1;
	p.filter_w = 2;
	p.stride_h = p.stride_w = 1;
	p.padding = E1NPU_PAD_VALID;
	p.q.scale = 1.0f;
	assert_int_equal(e1npu_ops_avgpool(e->ops, &p, in, out, NULL), 0);
	assert_int_equal(out[0], -3);
	/* [3, 2]: (5 + 1) / 2 = 3 */
	in[0] = 3;
	in[1] = 2;
	assert_int_equal(e1npu_ops_avgpool(e->ops, &p, in, out, NULL), 0);
	assert_int_equal(out[0], 3);
}

static void test_relu(void **state)
{
	struct ops_env *e = *state;
	static const size_t sizes[] = { 1, 5, 64, 65, 1000, 1024, 1025, 5000, 70000 };
	struct e1npu_ops_report rep;

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		size_t n = sizes[s];
		int8_t *in = malloc(n), *out = malloc(n);
		uint64_t seed = n;

		t_fill_s8(in, n, -128, 127, &seed);
		assert_int_equal(e1npu_ops_relu_s8(e->ops, n, in, out, &rep), 0);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(out[i], in[i] < 0 ? 0 : in[i]);
		if (e->dev)
			assert_int_equal(rep.engine, n >= 1024 ? E1NPU_ENGINE_WRAPPER
							       : E1NPU_ENGINE_DATAPATH);
		free(in);
		free(out);
	}
}

/*
 * e1npu_ops_add (operand tables, chunked vector requantization) against
 * the scalar reference: both dtypes, every activation, lengths across the
 * 256-element chunks and the 8-lane tails, several scale ratios.
 */
static void add_vs_ref(struct ops_env *e)
{
	static const float sc[][3] = { { 0.037f, 0.011f, 0.05f }, { 0.5f, 0.5f, 0.25f },
				       { 0.002f, 0.9f, 1.7f }, { 1.0f, 1.0f, 1.0f } };
	enum { N = 1031 };
	uint8_t *a = malloc(N), *b = malloc(N), *o = malloc(N), *r = malloc(N);
	uint64_t seed = 77;

	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(o);
	assert_non_null(r);
	t_fill_u8(a, N, &seed);
	t_fill_u8(b, N, &seed);
	for (uint32_t dt = 0; dt < 2; dt++)
	for (size_t k = 0; k < sizeof(sc) / sizeof(sc[0]); k++)
	for (uint32_t act = 0; act <= E1NPU_ACT_RELU_N1_TO_1; act++) {
		uint32_t dtype = dt ? E1NPU_DTYPE_INT8 : E1NPU_DTYPE_UINT8;
		int32_t z0 = dt ? -128 : 0;
		struct e1npu_qparams qa = { sc[k][0], z0 + 100 + (int32_t)k },
				     qb = { sc[k][1], z0 + 7 }, qo = { sc[k][2], z0 + 131 };
		size_t n = (size_t)N - k * 7 - act;

		assert_int_equal(ref_add(dtype, n, a, &qa, b, &qb, r, &qo, act), 0);
		assert_int_equal(e1npu_ops_add(e->ops, dtype, n, a, &qa, b, &qb, o, &qo, act,
					       NULL), 0);
		assert_memory_equal(o, r, n);
	}
	free(a);
	free(b);
	free(o);
	free(r);
}

static void test_add(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_qparams qa = { 1.0f, 0 }, qb = { 1.0f, 0 }, qo = { 1.0f, 0 };
	int8_t a[3] = { 3, -100, 100 }, b[3] = { 4, -100, 100 }, o[3];
	uint8_t ua[256], ub[256], uo[256], ur[256];
	uint64_t seed = 3;

	/* same scales: exact sums, saturated at the int8 range */
	assert_int_equal(e1npu_ops_add(e->ops, E1NPU_DTYPE_INT8, 3, a, &qa, b, &qb, o, &qo,
				       E1NPU_ACT_NONE, NULL), 0);
	assert_int_equal(o[0], 7);
	assert_int_equal(o[1], -128);
	assert_int_equal(o[2], 127);
	t_fill_u8(ua, 256, &seed);
	t_fill_u8(ub, 256, &seed);
	qa.scale = 0.037f;
	qa.zero_point = 120;
	qb.scale = 0.011f;
	qb.zero_point = 3;
	qo.scale = 0.05f;
	qo.zero_point = 128;
	assert_int_equal(ref_add(E1NPU_DTYPE_UINT8, 256, ua, &qa, ub, &qb, ur, &qo, 1), 0);
	assert_int_equal(e1npu_ops_add(e->ops, E1NPU_DTYPE_UINT8, 256, ua, &qa, ub, &qb, uo,
				       &qo, 1, NULL), 0);
	assert_memory_equal(uo, ur, 256);
	add_vs_ref(e);
}

static void test_softmax(void **state)
{
	struct ops_env *e = *state;
	uint8_t in[4] = { 7, 7, 7, 7 }, out[4];
	int8_t sin[3 * 37], sout[3 * 37], sref[3 * 37];
	uint64_t seed = 9;

	/* uniform row of 4: exp(0) each, 1/4 of 256 = 64 */
	assert_int_equal(e1npu_ops_softmax(e->ops, E1NPU_DTYPE_UINT8, 1, 4, in, 0.1f, 1.0f,
					   out, NULL), 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(out[i], 64);
	t_fill_s8(sin, sizeof(sin), -128, 127, &seed);
	assert_int_equal(ref_softmax(E1NPU_DTYPE_INT8, 3, 37, sin, 0.0625f, 1.0f, sref), 0);
	assert_int_equal(e1npu_ops_softmax(e->ops, E1NPU_DTYPE_INT8, 3, 37, sin, 0.0625f,
					   1.0f, sout, NULL), 0);
	assert_memory_equal(sout, sref, sizeof(sout));
}

/*
 * Rows long enough for the exp table (e1npu_ops_softmax fills one when a
 * call has 128 elements or more) against the per-element reference, both
 * types, scales that keep every difference and that cut some off.
 */
static void test_softmax_table(void **state)
{
	static const uint32_t shape[][2] = { { 1, 1001 }, { 3, 129 }, { 2, 64 }, { 5, 31 } };
	static const float scale[] = { 0.00390625f, 0.0625f, 0.5f, 3.0f };
	struct ops_env *e = *state;
	static int8_t in[1001 * 3], out[1001 * 3], ref[1001 * 3];
	uint64_t seed = 33;

	for (size_t i = 0; i < sizeof(shape) / sizeof(shape[0]); i++)
		for (size_t j = 0; j < sizeof(scale) / sizeof(scale[0]); j++)
			for (uint32_t dt = 0; dt < 2; dt++) {
				uint32_t dtype = dt ? E1NPU_DTYPE_UINT8 : E1NPU_DTYPE_INT8;
				size_t n = (size_t)shape[i][0] * shape[i][1];

				t_fill_s8(in, n, -128, 127, &seed);
				assert_int_equal(ref_softmax(dtype, shape[i][0], shape[i][1], in,
							     scale[j], 1.0f, ref), 0);
				assert_int_equal(e1npu_ops_softmax(e->ops, dtype, shape[i][0],
								   shape[i][1], in, scale[j],
								   1.0f, out, NULL), 0);
				assert_memory_equal(out, ref, n);
			}
}

static void test_softmax_exp2(void **state)
{
	struct ops_env *e = *state;
	int8_t in[2 * 4] = { 0, -1, -2, -20, 5, 5, 5, 5 };
	uint8_t mask[8] = { 1, 1, 1, 1, 1, 0, 1, 1 }, out[8], ref[8];
	int8_t big[5 * 33];
	uint8_t bo[5 * 33], br[5 * 33];
	struct e1npu_ops_report rep;
	uint64_t seed = 1;

	/*
	 * row 0: e = 256, 128, 64, 0 (delta -20 < -8); sum 448;
	 * 256*256/448 = 146.29 -> 146; 128*256/448 = 73.14 -> 73; 36.57 -> 37
	 * row 1 with one masked: three of 256 -> 85.33 -> 85, masked -> 0
	 */
	assert_int_equal(e1npu_ops_softmax_exp2_s8(e->ops, 2, 4, in, mask, out, &rep), 0);
	assert_int_equal(out[0], 146);
	assert_int_equal(out[1], 73);
	assert_int_equal(out[2], 37);
	assert_int_equal(out[3], 0);
	assert_int_equal(out[4], 85);
	assert_int_equal(out[5], 0);
	if (e->dev)
		assert_int_equal(rep.engine, E1NPU_ENGINE_DATAPATH);
	ref_softmax_exp2_s8(2, 4, in, mask, ref);
	assert_memory_equal(out, ref, 8);
	t_fill_s8(big, sizeof(big), -30, 30, &seed);
	ref_softmax_exp2_s8(5, 33, big, NULL, br);
	assert_int_equal(e1npu_ops_softmax_exp2_s8(e->ops, 5, 33, big, NULL, bo, NULL), 0);
	assert_memory_equal(bo, br, sizeof(bo));
}

static void test_support_table(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_ops_support rows[128];
	size_t n;

	assert_int_equal(e1npu_ops_support_table(e->ops, NULL, 0, &n), 0);
	assert_true(n > 0 && n <= 128);
	assert_int_equal(e1npu_ops_support_table(e->ops, rows, 1, &n), -ENOSPC);
	assert_int_equal(e1npu_ops_support_table(e->ops, rows, 128, &n), 0);
	for (size_t i = 0; i < n; i++) {
		assert_true(rows[i].why[0] != 0);
		assert_string_not_equal(rows[i].name, "unknown");
		if (rows[i].engine == E1NPU_ENGINE_CPU)
			assert_int_equal(rows[i].supported, 1);
		if (!e->dev && rows[i].engine != E1NPU_ENGINE_CPU)
			assert_int_equal(rows[i].supported, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool),
		cmocka_unit_test(test_avgpool_hand),
		cmocka_unit_test(test_relu),
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_softmax),
		cmocka_unit_test(test_softmax_table),
		cmocka_unit_test(test_softmax_exp2),
		cmocka_unit_test(test_support_table),
	};
	int fails = 0;

	fails += cmocka_run_group_tests_name("ops-elem-sim", tests, t_setup_sim, t_teardown);
	fails += cmocka_run_group_tests_name("ops-elem-cpu", tests, t_setup_cpu, t_teardown);
	return fails;
}
