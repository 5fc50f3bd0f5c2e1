// SPDX-License-Identifier: MIT
/*
 * Quantized conv2d / grouped / depthwise and fully-connected lowerings
 * against the naive TFLite references, on the sim device and the CPU:
 * VALID/SAME, strides, dilation, kernel embedding, uint8 with weight zero
 * points, int8 per-channel, spatial tiling past 256, channels past 512.
 */
#include "ops-test.h"
#include "ref.h"

struct cc {
	uint32_t kind, dtype, h, w, cin, cout, kh, kw, sh, sw, dh, dw, pad, groups, mult, act;
	int32_t zx, zw, zy;
	uint32_t hw;	/* which hardware forms can run it: F_* */
};

/* Hardware forms (stated per case, from the limits in lowering.md) */
#define F_BOTH	0	/* CONV2D_S8 and the MATMUL form */
#define F_MM	1	/* MATMUL form only (kernel > 5, stride > 2, pad > 15) */
#define F_NONE	2	/* neither: the MATMUL form's K would pass 1024 */
#define F_ANY	3	/* not stated: any engine, outputs still checked */

/* The form a run must report on a device, by E1NPU_OPS_LOWERING. */
static const char *want_form;

/*
 * Biases at the ends of int32: the accumulator wraps like TFLite's int32
 * arithmetic, identically on the NPU path and in the reference, and the
 * sanitizer build proves no signed overflow is left.
 */
static bool extreme_bias;

static int32_t extreme_bias_value(uint32_t i)
{
	return i & 1 ? INT32_MAX - (int32_t)(i % 7) : INT32_MIN + (int32_t)(i % 5);
}

static void run_conv_rep(struct ops_env *e, const struct cc *c, uint64_t seed,
			 struct e1npu_ops_report *repp)
{
	struct e1npu_conv_params p;
	struct e1npu_ops_report rep;
	struct e1npu_conv *cv;
	uint32_t oh, ow, pt, pl, cin_g;
	size_t nin, nw, nout;
	float *scales;
	int32_t *bias;
	uint8_t *in, *w, *out, *ref;

	memset(&p, 0, sizeof(p));
	p.kind = c->kind;
	p.dtype = c->dtype;
	p.in_h = c->h;
	p.in_w = c->w;
	p.c_in = c->cin;
	p.c_out = c->kind == E1NPU_OPS_DEPTHWISE_CONV2D ? c->cin * c->mult : c->cout;
	p.kh = c->kh;
	p.kw = c->kw;
	p.stride_h = c->sh;
	p.stride_w = c->sw;
	p.dil_h = c->dh;
	p.dil_w = c->dw;
	p.padding = c->pad;
	p.groups = c->groups;
	p.depth_multiplier = c->mult;
	p.input.scale = 0.05f;
	p.input.zero_point = c->zx;
	p.output.scale = 0.9f + 0.01f * (float)(seed % 7);
	p.output.zero_point = c->zy;
	p.weight_zero_point = c->zw;
	p.act = c->act;
	cin_g = c->kind == E1NPU_OPS_DEPTHWISE_CONV2D ? 1 :
		c->kind == E1NPU_OPS_GROUPED_CONV2D ? c->cin / c->groups : c->cin;
	scales = malloc(p.c_out * sizeof(float));
	bias = malloc(p.c_out * sizeof(int32_t));
	for (uint32_t i = 0; i < p.c_out; i++) {
		scales[i] = 0.01f + 0.001f * (float)(t_rand(&seed) % 50);
		bias[i] = extreme_bias ? extreme_bias_value(i) :
			  (int32_t)(t_rand(&seed) % 2001) - 1000;
	}
	p.weight_scales = scales;
	p.num_weight_scales = c->dtype == E1NPU_DTYPE_INT8 ? p.c_out : 1;
	ref_conv_geometry(p.padding, p.in_h, p.kh, p.stride_h, p.dil_h, &oh, &pt);
	ref_conv_geometry(p.padding, p.in_w, p.kw, p.stride_w, p.dil_w, &ow, &pl);
	nin = (size_t)p.in_h * p.in_w * p.c_in;
	nw = (size_t)p.kh * p.kw * cin_g * p.c_out;
	nout = (size_t)oh * ow * p.c_out;
	in = malloc(nin);
	w = malloc(nw);
	out = malloc(nout);
	ref = malloc(nout);
	t_fill_u8(in, nin, &seed);
	t_fill_u8(w, nw, &seed);
	assert_int_equal(ref_conv(&p, w, bias, in, ref), 0);
	assert_int_equal(e1npu_conv_new(e->ops, &p, w, bias, &cv), 0);
	memset(out, 0x5a, nout);
	assert_int_equal(e1npu_conv_run(cv, in, out, &rep), 0);
	assert_memory_equal(out, ref, nout);
	assert_int_equal(rep.kind, c->kind);
	if (c->hw == F_ANY) {
		/* outputs checked above; the engine is not stated */
	} else if (!e->dev || c->hw == F_NONE || (c->hw == F_MM && want_form &&
					     strstr(want_form, "conv blocks"))) {
		assert_int_equal(rep.engine, E1NPU_ENGINE_CPU);
	} else {
		assert_int_equal(rep.engine, E1NPU_ENGINE_WRAPPER);
		if (want_form && !strstr(rep.why, c->hw == F_MM ? "patch-Toeplitz" : want_form))
			fail_msg("case %ux%ux%u k%ux%u: form '%s', want '%s'", c->h, c->w,
				 c->cin, c->kh, c->kw, rep.why, want_form);
	}
	e1npu_conv_free(cv);
	free(scales);
	free(bias);
	free(in);
	free(w);
	free(out);
	free(ref);
	if (repp)
		*repp = rep;
}

static void run_conv(struct ops_env *e, const struct cc *c, uint64_t seed)
{
	run_conv_rep(e, c, seed, NULL);
}

#define C2 E1NPU_OPS_CONV2D
#define DW E1NPU_OPS_DEPTHWISE_CONV2D
#define GC E1NPU_OPS_GROUPED_CONV2D
#define S8 E1NPU_DTYPE_INT8
#define U8 E1NPU_DTYPE_UINT8
#define SAME E1NPU_PAD_SAME
#define VALID E1NPU_PAD_VALID

static const struct cc cases[] = {
	/* kind dtype h w cin cout kh kw sh sw dh dw pad groups mult act zx zw zy hw */
	{ C2, S8, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, VALID, 0, 0, 0, 0, 0, 0, F_BOTH },
	{ C2, S8, 5, 7, 3, 4, 3, 3, 1, 1, 1, 1, SAME, 0, 0, 0, -3, 0, 2, F_BOTH },
	{ C2, S8, 9, 8, 5, 17, 3, 3, 2, 2, 1, 1, SAME, 0, 0, 1, 7, 0, -5, F_BOTH },
	{ C2, S8, 10, 11, 6, 5, 3, 3, 1, 2, 2, 2, VALID, 0, 0, 2, -128, 0, -128, F_BOTH },
	{ C2, S8, 12, 9, 4, 6, 5, 5, 1, 1, 1, 1, SAME, 0, 0, 0, 10, 0, 0, F_BOTH },
	{ C2, S8, 8, 8, 3, 3, 2, 2, 2, 2, 1, 1, SAME, 0, 0, 0, 1, 0, 0, F_BOTH },
	{ C2, S8, 9, 9, 3, 3, 1, 3, 1, 1, 1, 2, SAME, 0, 0, 0, 4, 0, 0, F_BOTH },
	{ C2, U8, 7, 6, 3, 8, 3, 3, 2, 2, 1, 1, SAME, 0, 0, 2, 128, 120, 3, F_BOTH },
	{ C2, U8, 6, 6, 20, 33, 1, 1, 1, 1, 1, 1, VALID, 0, 0, 1, 99, 140, 7, F_BOTH },
	{ C2, U8, 9, 9, 2, 3, 7, 7, 1, 1, 1, 1, SAME, 0, 0, 0, 100, 130, 0, F_MM },
	{ C2, S8, 7, 7, 2, 3, 3, 3, 3, 3, 1, 1, SAME, 0, 0, 0, 5, 0, 0, F_MM },
	/* padding 16 (1x33 SAME) */
	{ C2, S8, 3, 40, 2, 3, 1, 33, 1, 1, 1, 1, SAME, 0, 0, 1, -7, 0, 3, F_MM },
	/* K = 9 * 9 * 16 = 1296: CPU */
	{ C2, S8, 10, 10, 16, 2, 9, 9, 1, 1, 1, 1, SAME, 0, 0, 0, 5, 0, 0, F_NONE },
	{ DW, S8, 9, 10, 20, 0, 3, 3, 1, 1, 1, 1, SAME, 0, 1, 0, -1, 0, 0, F_BOTH },
	{ DW, S8, 8, 8, 5, 0, 3, 3, 2, 2, 1, 1, SAME, 0, 2, 2, 3, 0, 1, F_BOTH },
	{ DW, U8, 11, 7, 18, 0, 3, 3, 2, 2, 1, 1, SAME, 0, 1, 2, 130, 100, 0, F_BOTH },
	{ DW, U8, 6, 6, 4, 0, 5, 5, 1, 1, 1, 1, VALID, 0, 3, 0, 77, 200, 9, F_BOTH },
	{ GC, S8, 6, 7, 8, 12, 3, 3, 1, 1, 1, 1, SAME, 4, 0, 0, 2, 0, 0, F_BOTH },
	{ GC, U8, 5, 5, 6, 4, 3, 3, 2, 1, 1, 1, VALID, 2, 0, 0, 128, 127, 0, F_BOTH },
	/* spatial tiling past 256 rows / columns, tail tiles */
	{ C2, S8, 300, 3, 2, 2, 3, 3, 1, 1, 1, 1, SAME, 0, 0, 0, 9, 0, 0, F_BOTH },
	{ DW, U8, 4, 270, 3, 0, 3, 3, 1, 1, 1, 1, SAME, 0, 1, 0, 120, 128, 0, F_BOTH },
	/* channels past 512 (split input and output channels) */
	{ C2, U8, 2, 2, 520, 515, 1, 1, 1, 1, 1, 1, VALID, 0, 0, 0, 125, 129, 1, F_BOTH },
	/* MATMUL limits: N past 1024 columns, M past 1024 rows */
	{ C2, S8, 2, 2, 520, 1030, 1, 1, 1, 1, 1, 1, VALID, 0, 0, 0, 3, 0, -2, F_BOTH },
	{ C2, U8, 33, 32, 8, 8, 1, 1, 1, 1, 1, 1, SAME, 0, 0, 1, 128, 131, 2, F_BOTH },
	/* depthwise: multiplier 2 with dilation, uint8 stride 2, 5x5 */
	{ DW, S8, 12, 13, 6, 0, 3, 3, 1, 1, 2, 2, SAME, 0, 2, 0, -9, 0, 4, F_BOTH },
	{ DW, U8, 30, 29, 24, 0, 3, 3, 2, 2, 1, 1, SAME, 0, 1, 2, 131, 119, 5, F_BOTH },
	{ DW, S8, 14, 14, 40, 0, 5, 5, 1, 1, 1, 1, SAME, 0, 1, 1, 12, 0, 0, F_BOTH },
	/* groups of 2 in, 2 out: several groups stack in one MATMUL */
	{ GC, S8, 8, 8, 16, 16, 3, 3, 1, 1, 1, 1, SAME, 8, 0, 0, -4, 0, 1, F_BOTH },
};

static void test_conv_cases(void **state)
{
	struct ops_env *e = *state;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_conv(e, &cases[i], 1000 + i);
}

/*
 * Every case in each form: CONV2D_S8 with host input sums ("conv2d") or
 * in-array sums ("first") and patch-Toeplitz MATMULs ("matmul"), each
 * against the reference, on a context made under E1NPU_OPS_LOWERING.
 */
static void test_conv_forms(void **state)
{
	static const char *const modes[][2] = {
		{ "conv2d", "conv blocks" },
		{ "first", "conv blocks" },
		{ "matmul", "patch-Toeplitz" },
	};
	struct ops_env *e = *state, f = *e;

	for (size_t m = 0; m < 3; m++) {
		setenv("E1NPU_OPS_LOWERING", modes[m][0], 1);
		assert_int_equal(e1npu_ops_new(e->dev, &f.ops), 0);
		want_form = modes[m][1];
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			run_conv(&f, &cases[i], 3000 + i);
		want_form = NULL;
		e1npu_ops_free(f.ops);
	}
	setenv("E1NPU_OPS_LOWERING", "tiled", 1);
	assert_int_equal(e1npu_ops_new(e->dev, &f.ops), -EINVAL);
	unsetenv("E1NPU_OPS_LOWERING");
}

/*
 * Random shapes (seeded, so a failure names its case): kinds, types,
 * kernels 1..7, strides 1..3, dilations 1..2, both paddings, groups and
 * multipliers, each in the MATMUL form and in the default choice.
 */
static void test_conv_random(void **state)
{
	static const char *const modes[] = { "matmul", "auto" };
	static const uint32_t kinds[] = { C2, DW, GC };
	struct ops_env *e = *state, f = *e;
	uint64_t seed = 4242;

	for (size_t m = 0; m < 2; m++) {
		setenv("E1NPU_OPS_LOWERING", modes[m], 1);
		assert_int_equal(e1npu_ops_new(e->dev, &f.ops), 0);
		unsetenv("E1NPU_OPS_LOWERING");
		for (int i = 0; i < 40; i++) {
			struct cc c = { 0 };
			uint32_t g;

			c.kind = kinds[t_rand(&seed) % 3];
			c.dtype = t_rand(&seed) % 2 ? S8 : U8;
			c.kh = 1 + (uint32_t)(t_rand(&seed) % 7);
			c.kw = t_rand(&seed) % 4 ? c.kh : 1 + (uint32_t)(t_rand(&seed) % 7);
			c.sh = 1 + (uint32_t)(t_rand(&seed) % 3);
			c.sw = t_rand(&seed) % 3 ? c.sh : 1 + (uint32_t)(t_rand(&seed) % 3);
			c.dh = 1 + (uint32_t)(t_rand(&seed) % 2);
			c.dw = c.dh;
			c.pad = t_rand(&seed) % 2 ? SAME : VALID;
			c.h = (c.kh - 1) * c.dh + 1 + (uint32_t)(t_rand(&seed) % 12);
			c.w = (c.kw - 1) * c.dw + 1 + (uint32_t)(t_rand(&seed) % 12);
			g = 1 + (uint32_t)(t_rand(&seed) % 4);
			c.cin = g * (1 + (uint32_t)(t_rand(&seed) % 6));
			c.cout = g * (1 + (uint32_t)(t_rand(&seed) % 6));
			c.groups = c.kind == GC ? g : 0;
			c.mult = c.kind == DW ? 1 + (uint32_t)(t_rand(&seed) % 3) : 0;
			c.act = (uint32_t)(t_rand(&seed) % 3);
			c.zx = c.dtype == U8 ? (int32_t)(t_rand(&seed) % 256) :
					       (int32_t)(t_rand(&seed) % 256) - 128;
			c.zw = c.dtype == U8 ? (int32_t)(t_rand(&seed) % 256) : 0;
			c.zy = c.dtype == U8 ? (int32_t)(t_rand(&seed) % 256) :
					       (int32_t)(t_rand(&seed) % 256) - 128;
			c.hw = F_ANY;
			run_conv(&f, &c, 5000 + (uint64_t)i);
		}
		e1npu_ops_free(f.ops);
	}
}

/* Run @c once under E1NPU_OPS_LOWERING=@mode; the report into @rep. */
static void run_mode(struct ops_env *e, const char *mode, const struct cc *c,
		     struct e1npu_ops_report *rep)
{
	struct ops_env f = *e;

	setenv("E1NPU_OPS_LOWERING", mode, 1);
	assert_int_equal(e1npu_ops_new(e->dev, &f.ops), 0);
	unsetenv("E1NPU_OPS_LOWERING");
	run_conv_rep(&f, c, 77, rep);
	e1npu_ops_free(f.ops);
}

/* The number after @key in @why, or 0. */
static unsigned long long why_num(const char *why, const char *key)
{
	const char *k = strstr(why, key);

	return k ? strtoull(k + strlen(key), NULL, 10) : 0;
}

/*
 * The per-layer choice: the cost model's price of each form equals the
 * wrapper cycles the device then counts for it, and "auto" runs the
 * cheaper. MobileNetV2 shapes: a depthwise layer where the MATMUL form
 * wins, a stride-2 one where CONV2D_S8 does, a 1x1 with c_in past 512.
 */
static void test_conv_choice(void **state)
{
	static const struct cc shapes[] = {
		{ DW, S8, 56, 56, 24, 0, 3, 3, 1, 1, 1, 1, SAME, 0, 1, 0, 3, 0, 0, F_BOTH },
		{ DW, U8, 56, 56, 16, 0, 3, 3, 2, 2, 1, 1, SAME, 0, 1, 0, 128, 120, 0, F_BOTH },
		{ C2, S8, 7, 7, 576, 32, 1, 1, 1, 1, 1, 1, SAME, 0, 0, 0, -1, 0, 0, F_BOTH },
	};
	struct ops_env *e = *state;

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		struct e1npu_ops_report a, c2, mm;
		unsigned long long mm_cost, c2_cost;

		run_mode(e, "auto", &shapes[i], &a);
		run_mode(e, "conv2d", &shapes[i], &c2);
		run_mode(e, "matmul", &shapes[i], &mm);
		mm_cost = why_num(mm.why, "), ");
		c2_cost = why_num(mm.why, "(CONV2D form ");
		assert_true(mm_cost && c2_cost);
		assert_int_equal(mm.wrapper_cycles, mm_cost);
		assert_int_equal(c2.wrapper_cycles, c2_cost);
		assert_int_equal(a.wrapper_cycles,
				 mm_cost < c2_cost ? mm_cost : c2_cost);
		assert_non_null(strstr(a.why, mm_cost < c2_cost ? "patch-Toeplitz" : "conv blocks"));
		if (i == 0)	/* the depthwise 3x3/1 case the form is for */
			assert_true(mm_cost < c2_cost);
	}
}

static void run_fc(struct ops_env *e, uint32_t dtype, uint32_t rows, uint32_t k,
		   uint32_t n, int32_t zx, int32_t zw, uint32_t act, uint64_t seed)
{
	struct e1npu_fc_params p;
	struct e1npu_ops_report rep;
	struct e1npu_fc *fc;
	float *sc = malloc(n * sizeof(float));
	int32_t *bias = malloc(n * 4);
	uint8_t *in = malloc((size_t)rows * k), *w = malloc((size_t)n * k);
	uint8_t *out = malloc((size_t)rows * n), *ref = malloc((size_t)rows * n);

	memset(&p, 0, sizeof(p));
	p.dtype = dtype;
	p.k = k;
	p.n = n;
	p.input.scale = 0.02f;
	p.input.zero_point = zx;
	p.output.scale = 0.5f;
	p.output.zero_point = dtype == U8 ? 128 : -3;
	p.weight_zero_point = zw;
	for (uint32_t i = 0; i < n; i++) {
		sc[i] = 0.004f + 0.0005f * (float)(t_rand(&seed) % 20);
		bias[i] = extreme_bias ? extreme_bias_value(i) :
			  (int32_t)(t_rand(&seed) % 4001) - 2000;
	}
	p.weight_scales = sc;
	p.num_weight_scales = dtype == S8 ? n : 1;
	p.act = act;
	t_fill_u8(in, (size_t)rows * k, &seed);
	t_fill_u8(w, (size_t)n * k, &seed);
	assert_int_equal(ref_fc(&p, w, bias, rows, in, ref), 0);
	assert_int_equal(e1npu_fc_new(e->ops, &p, w, bias, &fc), 0);
	assert_int_equal(e1npu_fc_run(fc, rows, in, out, &rep), 0);
	assert_memory_equal(out, ref, (size_t)rows * n);
	assert_int_equal(rep.kind, E1NPU_OPS_FULLY_CONNECTED);
	e1npu_fc_free(fc);
	free(sc);
	free(bias);
	free(in);
	free(w);
	free(out);
	free(ref);
}

static void test_fc(void **state)
{
	struct ops_env *e = *state;

	run_fc(e, S8, 1, 1, 1, 0, 0, 0, 1);
	run_fc(e, S8, 3, 7, 3, -5, 0, 1, 2);
	run_fc(e, S8, 17, 33, 40, 12, 0, 2, 3);
	run_fc(e, U8, 5, 100, 9, 128, 128, 0, 4);
	run_fc(e, U8, 20, 64, 70, 3, 250, 1, 5);
	run_fc(e, U8, 2, 1100, 3, 200, 17, 0, 6);	/* split K */
}

static void test_extreme_bias(void **state)
{
	struct ops_env *e = *state;

	extreme_bias = true;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i += 4)
		run_conv(e, &cases[i], 2000 + i);
	run_fc(e, S8, 3, 7, 3, -5, 0, 1, 2);
	run_fc(e, U8, 20, 64, 70, 3, 250, 1, 5);
	extreme_bias = false;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conv_cases),
		cmocka_unit_test(test_conv_forms),
		cmocka_unit_test(test_conv_random),
		cmocka_unit_test(test_fc),
		cmocka_unit_test(test_extreme_bias),
	};
	/* the cost model against a device's counters: device groups only */
	const struct CMUnitTest dev_tests[] = {
		cmocka_unit_test(test_conv_choice),
	};
	int fails = 0;

	fails += cmocka_run_group_tests_name("ops-conv-sim", tests, t_setup_sim, t_teardown);
	fails += cmocka_run_group_tests_name("ops-conv-choice-sim", dev_tests, t_setup_sim,
					     t_teardown);
	fails += cmocka_run_group_tests_name("ops-conv-cpu", tests, t_setup_cpu, t_teardown);
	return fails;
}
