// SPDX-License-Identifier: MIT
/*
 * The pixel-packed CONV2D_S8 variant of the patch-Toeplitz form
 * (lib/ops/conv_pk.c) against the plain paths, byte for byte: random
 * depthwise 3x3/1 shapes (odd sizes, every remainder of the blocks, the
 * last stack short, one channel), each forced into several packed blocks
 * and stackings, compared with the CONV2D_S8 form ("conv2d") and the naive
 * reference; the modelled cost must be what the device then counts.
 */
#include "ops-test.h"
#include "ref.h"
#include "conv_choice.h"

/*
 * Blocks and stackings each shape is forced into: 4x4 (exact window),
 * wider ones (zero rows), and blocks 2 high or wide (a 5x5 window).
 */
static const uint32_t forms[][3] = {
	{ 4, 4, 1 }, { 4, 4, 3 }, { 4, 6, 2 }, { 6, 4, 1 }, { 8, 8, 5 }, { 6, 10, 2 },
	{ 2, 2, 4 }, { 2, 2, 1 }, { 2, 4, 2 }, { 6, 2, 3 },
};

/* Packed input rows for @o outputs in blocks of @b (conv_pk.c's rule, counted here). */
static uint32_t packed_len(uint32_t o, uint32_t b, uint32_t k)
{
	return 2 * ((o + b - 1) / b) + k - 2;
}

struct shape {
	uint32_t h, w, c, pad, dtype, act;
	int32_t zx, zw, zy;
};

static void params_of(const struct shape *s, struct e1npu_conv_params *p, float *scales,
		      int32_t *bias, uint64_t *seed)
{
	memset(p, 0, sizeof(*p));
	p->kind = E1NPU_OPS_DEPTHWISE_CONV2D;
	p->dtype = s->dtype;
	p->in_h = s->h;
	p->in_w = s->w;
	p->c_in = p->c_out = s->c;
	p->kh = p->kw = 3;
	p->stride_h = p->stride_w = 1;
	p->dil_h = p->dil_w = 1;
	p->padding = s->pad;
	p->depth_multiplier = 1;
	p->input.scale = 0.05f;
	p->input.zero_point = s->zx;
	p->output.scale = 0.93f;
	p->output.zero_point = s->zy;
	p->weight_zero_point = s->zw;
	p->act = s->act;
	for (uint32_t i = 0; i < s->c; i++) {
		scales[i] = 0.01f + 0.001f * (float)(t_rand(seed) % 50);
		bias[i] = (int32_t)(t_rand(seed) % 2001) - 1000;
	}
	p->weight_scales = scales;
	p->num_weight_scales = s->dtype == E1NPU_DTYPE_INT8 ? s->c : 1;
}

/* Run @p on @ops with @choice (NULL: its own); the output into @out. */
static void run_one(struct e1npu_ops *ops, const struct e1npu_conv_params *p,
		    const uint8_t *w, const int32_t *bias, const uint8_t *in,
		    const struct ops_conv_choice *choice, uint8_t *out, size_t nout,
		    struct e1npu_ops_report *rep)
{
	struct e1npu_conv *cv;

	assert_int_equal(ops_conv_new_chosen(ops, p, w, bias, choice, &cv), 0);
	memset(out, 0x5a, nout);
	assert_int_equal(e1npu_conv_run(cv, in, out, rep), 0);
	e1npu_conv_free(cv);
}

static void check_shape(struct ops_env *e, struct e1npu_ops *plain, const struct shape *s,
			uint64_t seed)
{
	struct e1npu_conv_params p;
	struct e1npu_ops_report rep;
	float *scales = malloc(s->c * sizeof(float));
	int32_t *bias = malloc(s->c * sizeof(int32_t));
	uint32_t oh, ow, pt, pl;
	size_t nin = (size_t)s->h * s->w * s->c, nw = (size_t)9 * s->c, nout;
	uint8_t *in = malloc(nin), *w = malloc(nw), *ref, *base, *out;

	params_of(s, &p, scales, bias, &seed);
	ref_conv_geometry(p.padding, p.in_h, 3, 1, 1, &oh, &pt);
	ref_conv_geometry(p.padding, p.in_w, 3, 1, 1, &ow, &pl);
	nout = (size_t)oh * ow * s->c;
	ref = malloc(nout);
	base = malloc(nout);
	out = malloc(nout);
	t_fill_u8(in, nin, &seed);
	t_fill_u8(w, nw, &seed);
	assert_int_equal(ref_conv(&p, w, bias, in, ref), 0);
	run_one(plain, &p, w, bias, in, NULL, base, nout, &rep);
	assert_memory_equal(base, ref, nout);
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		struct ops_conv_choice ch = {
			.form = OPS_CONV_FORM_PACKED, .bh = forms[f][0], .bw = forms[f][1],
			.gs = forms[f][2] < s->c ? forms[f][2] : s->c,
		};
		struct e1npu_conv *cv;

		uint32_t k = ch.bh == 2 || ch.bw == 2 ? 5 : 3;

		/*
		 * a block past the output, or a packed input past the contract's
		 * 256, does not fit: refused, as the search would
		 */
		if (ch.bh > oh || ch.bw > ow || packed_len(oh, ch.bh, k) > 256 ||
		    packed_len(ow, ch.bw, k) > 256) {
			assert_int_equal(ops_conv_new_chosen(e->ops, &p, w, bias, &ch, &cv), -EINVAL);
			continue;
		}
		run_one(e->ops, &p, w, bias, in, &ch, out, nout, &rep);
		if (memcmp(out, base, nout))
			fail_msg("%ux%ux%u pad %u: packed %ux%u g%u differs from the CONV2D_S8 form",
				 s->h, s->w, s->c, s->pad, ch.bh, ch.bw, ch.gs);
		if (e->dev) {
			const char *c = strstr(rep.why, "), ");

			assert_non_null(strstr(rep.why, "pixel-packed"));
			assert_non_null(c);
			assert_int_equal(rep.wrapper_cycles, strtoull(c + 3, NULL, 10));
		}
	}
	free(scales);
	free(bias);
	free(in);
	free(w);
	free(ref);
	free(base);
	free(out);
}

static void test_conv_packed_random(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_ops *plain;
	uint64_t seed = 3303;
	/* out_w 508: the packed input is 255 wide, the hardware's last size */
	static const struct shape edges[] = {
		{ 4, 4, 1, E1NPU_PAD_SAME, E1NPU_DTYPE_INT8, 0, -128, 0, 3 },
		{ 6, 508, 3, E1NPU_PAD_SAME, E1NPU_DTYPE_UINT8, 1, 128, 131, 2 },
		{ 10, 510, 2, E1NPU_PAD_VALID, E1NPU_DTYPE_INT8, 2, 7, 0, -5 },
	};

	setenv("E1NPU_OPS_LOWERING", "conv2d", 1);
	assert_int_equal(e1npu_ops_new(e->dev, &plain), 0);
	unsetenv("E1NPU_OPS_LOWERING");
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		check_shape(e, plain, &edges[i], 100 + i);
	for (int i = 0; i < 24; i++) {
		struct shape s;

		s.h = 4 + (uint32_t)(t_rand(&seed) % 29);
		s.w = 4 + (uint32_t)(t_rand(&seed) % 29);
		s.c = 1 + (uint32_t)(t_rand(&seed) % 13);
		s.pad = t_rand(&seed) % 2 ? E1NPU_PAD_SAME : E1NPU_PAD_VALID;
		s.dtype = t_rand(&seed) % 2 ? E1NPU_DTYPE_INT8 : E1NPU_DTYPE_UINT8;
		s.act = (uint32_t)(t_rand(&seed) % 3);
		s.zx = s.dtype == E1NPU_DTYPE_UINT8 ? (int32_t)(t_rand(&seed) % 256) :
						      (int32_t)(t_rand(&seed) % 256) - 128;
		s.zw = s.dtype == E1NPU_DTYPE_UINT8 ? (int32_t)(t_rand(&seed) % 256) : 0;
		s.zy = s.dtype == E1NPU_DTYPE_UINT8 ? (int32_t)(t_rand(&seed) % 256) :
						      (int32_t)(t_rand(&seed) % 256) - 128;
		check_shape(e, plain, &s, 200 + (uint64_t)i);
	}
	e1npu_ops_free(plain);
}

/* E1NPU_OPS_LOWERING=packed takes the variant wherever it fits. */
static void test_conv_packed_mode(void **state)
{
	struct ops_env *e = *state, f = *e;
	struct e1npu_ops_report rep;
	struct e1npu_conv_params p;
	static const struct shape s = { 13, 11, 5, E1NPU_PAD_SAME, E1NPU_DTYPE_INT8, 1, 3, 0, 1 };
	float scales[5];
	int32_t bias[5];
	uint64_t seed = 5;
	uint8_t in[13 * 11 * 5], w[45], out[13 * 11 * 5], ref[13 * 11 * 5];

	if (!e->dev)
		skip();
	params_of(&s, &p, scales, bias, &seed);
	t_fill_u8(in, sizeof(in), &seed);
	t_fill_u8(w, sizeof(w), &seed);
	assert_int_equal(ref_conv(&p, w, bias, in, ref), 0);
	setenv("E1NPU_OPS_LOWERING", "packed", 1);
	assert_int_equal(e1npu_ops_new(e->dev, &f.ops), 0);
	unsetenv("E1NPU_OPS_LOWERING");
	run_one(f.ops, &p, w, bias, in, NULL, out, sizeof(out), &rep);
	assert_memory_equal(out, ref, sizeof(out));
	assert_non_null(strstr(rep.why, "pixel-packed"));
	e1npu_ops_free(f.ops);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conv_packed_random),
		cmocka_unit_test(test_conv_packed_mode),
	};
	int fails = 0;

	fails += cmocka_run_group_tests_name("ops-conv-packed-sim", tests, t_setup_sim,
					     t_teardown);
	fails += cmocka_run_group_tests_name("ops-conv-packed-cpu", tests, t_setup_cpu,
					     t_teardown);
	return fails;
}
