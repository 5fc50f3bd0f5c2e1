// SPDX-License-Identifier: MIT
/*
 * The CONV2D_S8 form's tilings and output-channel splits (lib/ops/conv.c,
 * cv_choose_conv2d): random convolutions (1x1 and 3x3, stride 1 and 2,
 * grouped, int8 and uint8) forced through ops_conv_new_chosen() into
 * several tile counts and channel halvings, each byte for byte against the
 * naive reference; on the device the modelled cycles the report gives are
 * what the device then counts, and the search's own choice costs no more
 * than any of them. Choices outside the search's range are refused.
 */
#include "ops-test.h"
#include "ref.h"
#include "conv_choice.h"

struct shape {
	uint32_t h, w, cin, cout, groups, k, stride, pad, dtype;
};

/* Halvings of @cout the search tries (each rounds up to 16 columns). */
static uint32_t halvings_of(uint32_t cout)
{
	uint32_t n = 0;

	while (cout > 16) {
		cout = (cout / 2 + 15) / 16 * 16;
		n++;
	}
	return n;
}

static void params_of(const struct shape *s, struct e1npu_conv_params *p, float *scales,
		      int32_t *bias, uint64_t *seed)
{
	memset(p, 0, sizeof(*p));
	p->kind = s->groups == 1 ? E1NPU_OPS_CONV2D :
		  s->groups == s->cin ? E1NPU_OPS_DEPTHWISE_CONV2D : E1NPU_OPS_GROUPED_CONV2D;
	p->groups = s->groups;
	p->dtype = s->dtype;
	p->in_h = s->h;
	p->in_w = s->w;
	p->c_in = s->cin;
	p->c_out = s->cout;
	p->kh = p->kw = s->k;
	p->stride_h = p->stride_w = s->stride;
	p->dil_h = p->dil_w = 1;
	p->padding = s->pad;
	p->depth_multiplier = p->kind == E1NPU_OPS_DEPTHWISE_CONV2D ? s->cout / s->cin : 1;
	p->input.scale = 0.05f;
	p->input.zero_point = s->dtype == E1NPU_DTYPE_UINT8 ? 120 : -3;
	p->output.scale = 0.9f;
	p->output.zero_point = s->dtype == E1NPU_DTYPE_UINT8 ? 128 : 2;
	p->weight_zero_point = s->dtype == E1NPU_DTYPE_UINT8 ? 131 : 0;
	p->act = E1NPU_ACT_RELU6;
	for (uint32_t i = 0; i < s->cout; i++) {
		scales[i] = 0.002f + 0.0005f * (float)(t_rand(seed) % 40);
		bias[i] = (int32_t)(t_rand(seed) % 4001) - 2000;
	}
	p->weight_scales = scales;
	p->num_weight_scales = s->dtype == E1NPU_DTYPE_INT8 ? s->cout : 1;
}

/* The modelled cycles the report names ("..., N modelled cycles"). */
static uint64_t modelled(const struct e1npu_ops_report *rep)
{
	const char *c = strstr(rep->why, "output tiles, ");

	assert_non_null(c);
	return strtoull(c + strlen("output tiles, "), NULL, 10);
}

static void check_shape(struct ops_env *e, const struct shape *s, uint64_t seed)
{
	const uint32_t cin_g = s->cin / s->groups, cout_g = s->cout / s->groups;
	uint32_t hv = halvings_of(cout_g), oh, ow, pt, pl;
	/* tiles x, y and halvings forced: the search's range and just past it */
	const uint32_t tries[][3] = {
		{ 0, 0, 0 }, { 2, 1, 0 }, { 1, 3, 0 }, { 8, 4, 0 }, { 3, 2, 1 },
		{ 0, 0, hv }, { 5, 0, hv }, { 9, 0, 0 }, { 0, 5, 0 }, { 0, 0, hv + 1 },
	};
	struct e1npu_conv_params p;
	struct e1npu_ops_report rep;
	struct e1npu_conv *cv;
	float *scales = malloc(s->cout * sizeof(float));
	int32_t *bias = malloc(s->cout * sizeof(int32_t));
	size_t nin = (size_t)s->h * s->w * s->cin, nw = (size_t)s->k * s->k * cin_g * s->cout;
	uint8_t *in = malloc(nin), *w = malloc(nw), *ref, *out;
	uint64_t best = UINT64_MAX, chosen;
	size_t nout;

	params_of(s, &p, scales, bias, &seed);
	ref_conv_geometry(p.padding, p.in_h, s->k, s->stride, 1, &oh, &pt);
	ref_conv_geometry(p.padding, p.in_w, s->k, s->stride, 1, &ow, &pl);
	nout = (size_t)oh * ow * s->cout;
	ref = malloc(nout);
	out = malloc(nout);
	t_fill_u8(in, nin, &seed);
	t_fill_u8(w, nw, &seed);
	assert_int_equal(ref_conv(&p, w, bias, in, ref), 0);

	/* the search's own choice */
	assert_int_equal(ops_conv_new_chosen(e->ops, &p, w, bias, NULL, &cv), 0);
	assert_int_equal(e1npu_conv_run(cv, in, out, &rep), 0);
	e1npu_conv_free(cv);
	assert_memory_equal(out, ref, nout);
	chosen = rep.wrapper_cycles;

	for (size_t t = 0; t < sizeof(tries) / sizeof(tries[0]); t++) {
		struct ops_conv_choice ch = {
			.form = OPS_CONV_FORM_CONV2D, .bh = tries[t][0], .bw = tries[t][1],
			.gs = tries[t][2],
		};
		/* one tile is the fewest for these sizes (below 256) */
		bool ok = ch.bh <= oh && ch.bw <= ow && ch.bh < 9 && ch.bw < 5 &&
			  (ch.gs == 0 || ch.gs <= hv);
		int ret = ops_conv_new_chosen(e->ops, &p, w, bias, &ch, &cv);

		if (!ok) {
			assert_int_equal(ret, -EINVAL);
			continue;
		}
		assert_int_equal(ret, 0);
		memset(out, 0x5a, nout);
		assert_int_equal(e1npu_conv_run(cv, in, out, &rep), 0);
		e1npu_conv_free(cv);
		if (memcmp(out, ref, nout))
			fail_msg("%ux%ux%u->%u g%u k%u s%u: %ux%u tiles, %u halvings differ from the reference",
				 s->h, s->w, s->cin, s->cout, s->groups, s->k, s->stride,
				 ch.bh, ch.bw, ch.gs);
		if (e->dev) {
			/* the forced tiling is the one that ran */
			char want[48];
			uint32_t th_n = ch.bh ? ch.bh : 1, tw_n = ch.bw ? ch.bw : 1;

			snprintf(want, sizeof(want), " %ux%u output tiles,",
				 (oh + th_n - 1) / th_n, (ow + tw_n - 1) / tw_n);
			if (!strstr(rep.why, want))
				fail_msg("%ux%u tiles forced: \"%s\" does not say%s", ch.bh, ch.bw,
					 rep.why, want);
		}
		if (e->dev && t_on_sim()) {
			/* fewer than 256 descriptors: one job, as the estimate assumes */
			assert_int_equal(rep.wrapper_cycles, modelled(&rep));
			if (rep.wrapper_cycles < best)
				best = rep.wrapper_cycles;
		}
	}
	if (e->dev && t_on_sim() && chosen > best)
		fail_msg("%ux%ux%u->%u: the search's choice takes %llu cycles, a forced tiling %llu",
			 s->h, s->w, s->cin, s->cout, (unsigned long long)chosen,
			 (unsigned long long)best);
	free(scales);
	free(bias);
	free(in);
	free(w);
	free(ref);
	free(out);
}

static void test_conv_tiles_random(void **state)
{
	struct ops_env *e = *state;
	uint64_t seed = 7707;
	static const struct shape edges[] = {
		/* pointwise 8x8x128 -> 128 (MobileNet v1 0.25's), a 3x3/2, depthwise */
		{ 8, 8, 128, 128, 1, 1, 1, E1NPU_PAD_SAME, E1NPU_DTYPE_UINT8 },
		{ 17, 13, 5, 40, 1, 3, 2, E1NPU_PAD_SAME, E1NPU_DTYPE_INT8 },
		{ 9, 11, 24, 24, 24, 3, 1, E1NPU_PAD_VALID, E1NPU_DTYPE_INT8 },
		{ 4, 4, 6, 66, 2, 3, 1, E1NPU_PAD_SAME, E1NPU_DTYPE_UINT8 },
	};

	t_skip_group(e);
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		check_shape(e, &edges[i], 10 + i);
	for (int i = 0; i < 16; i++) {
		struct shape s;

		s.groups = t_rand(&seed) % 4 ? 1 : 1 + t_rand(&seed) % 3;
		s.cin = s.groups * (1 + t_rand(&seed) % 24);
		s.cout = s.groups * (1 + t_rand(&seed) % 70);
		s.h = 2 + t_rand(&seed) % 23;
		s.w = 2 + t_rand(&seed) % 23;
		s.k = t_rand(&seed) % 2 ? 3 : 1;
		s.stride = 1 + t_rand(&seed) % 2;
		s.pad = t_rand(&seed) % 2 ? E1NPU_PAD_SAME : E1NPU_PAD_VALID;
		s.dtype = t_rand(&seed) % 2 ? E1NPU_DTYPE_INT8 : E1NPU_DTYPE_UINT8;
		if (s.pad == E1NPU_PAD_VALID && (s.h < s.k || s.w < s.k))
			s.pad = E1NPU_PAD_SAME;
		check_shape(e, &s, 100 + (uint64_t)i);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conv_tiles_random),
	};
	int fails = 0;

	fails += cmocka_run_group_tests_name("ops-conv-tiles-sim", tests, t_setup_sim,
					     t_teardown);
	fails += cmocka_run_group_tests_name("ops-conv-tiles-cpu", tests, t_setup_cpu,
					     t_teardown);
	return fails;
}
