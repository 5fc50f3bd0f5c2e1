// SPDX-License-Identifier: MIT
/*
 * Placement of the int8 path's non-matmul ops (options.ops_e1 / ops_host):
 * each op through its e1 lowering against the same int8 model with every
 * op on the host, both against the float32 reference path on stories260K
 * (llm-acc.h: teacher-forced top-1 agreement, greedy prefix, largest
 * logit gap on six prompts x 64 tokens, perplexity). Prints the table of
 * Documentation/llm.md ("Placement of the non-matmul ops") and checks the
 * thresholds that chose the default; the per-op report names the e1
 * engine and the lowering's reason; options are validated by name.
 */
#include "llm-acc.h"

/*
 * An op goes to e1 by default when, with it alone on e1, top-1 agreement
 * stays within LLM_E1_AGREE_DROP_PCT points of the all-host placement,
 * the greedy prefix does not fall below LLM_E1_MIN_PREFIX on any prompt,
 * the largest logit gap stays under LLM_E1_MAX_GAP and perplexity rises
 * by at most LLM_E1_MAX_PPL_RISE_PCT over float32. Measured (in-process
 * model, wrapper, group 32), Documentation/llm.md: host 380/384, prefix
 * min 22, gap 0.478, perplexity -0.06%; alone on e1: rmsnorm 370/384,
 * prefix min 4, gap 1.24; rope 379, 18, gap 2.57; attention 376, 22, gap
 * 1.08; softmax 376, 13, gap 1.18; swiglu 55/384. None is within the
 * bounds, so the default keeps them all on the host; the test fails when
 * that changes (then the default is to be revisited).
 * The e1 lowerings of rmsnorm, rope, attention and softmax must stay
 * usable (a regression guard of this path): alone on e1, top-1 agreement
 * >= LLM_E1_USABLE_AGREE_PCT and perplexity within
 * LLM_E1_USABLE_PPL_RISE_PCT of float32 (measured 96.4% / +0.97% worst).
 */
#define LLM_E1_AGREE_DROP_PCT	2.0
#define LLM_E1_MIN_PREFIX	16
#define LLM_E1_MAX_GAP		1.0
#define LLM_E1_MAX_PPL_RISE_PCT	3.0
#define LLM_E1_USABLE_AGREE_PCT	95
#define LLM_E1_USABLE_PPL_RISE_PCT 2.0

struct placement {
	const char *name;
	uint32_t e1;
};

static const struct placement placements[] = {
	{ "host (all)", 0 },
	{ "rmsnorm", E1NPU_LLM_OPS_RMSNORM },
	{ "rope", E1NPU_LLM_OPS_ROPE },
	{ "attention", E1NPU_LLM_OPS_ATTENTION },
	{ "softmax", E1NPU_LLM_OPS_SOFTMAX },
	{ "swiglu", E1NPU_LLM_OPS_SWIGLU },
	{ "default", E1NPU_LLM_OPS_DEFAULT_E1 },
	{ "e1 (all)", E1NPU_LLM_OPS_ALL },
};

static void opts(struct e1npu_llm_options *o, uint32_t e1)
{
	memset(o, 0, sizeof(*o));
	o->path = E1NPU_LLM_PATH_INT8;
	o->force = E1NPU_OPS_FORCE_WRAPPER;
	o->ops_e1 = e1;
	o->ops_host = E1NPU_LLM_OPS_ALL & ~e1;
}

struct meas {
	struct acc a;
	double pf, pq;
};

static void measure(uint32_t e1, const char *name, struct meas *m)
{
	struct e1npu_llm_options o;
	size_t n;

	opts(&o, e1);
	accuracy_opts(&o, &m->a, NULL);
	perplexity_opts(&o, &m->pf, &m->pq, &n);
	print_message("placement %-11s (ops_e1 0x%02x): top-1 %3u/%u (%5.1f%%), greedy prefix min %2u mean %4.1f, max |logit gap| %.3f (%.2f%% of range), perplexity %.4f (%+.2f%% vs float32 %.4f)\n",
		      name, e1, m->a.agree, m->a.total, 100.0 * m->a.agree / m->a.total,
		      m->a.prefix_min, (double)m->a.prefix_sum / m->a.prompts, m->a.gap,
		      100 * m->a.rel_gap, m->pq, 100 * (m->pq / m->pf - 1), m->pf);
}

static int within(const struct meas *host, const struct meas *m)
{
	double drop = 100.0 * (host->a.agree - (double)m->a.agree) / m->a.total;

	return drop <= LLM_E1_AGREE_DROP_PCT && m->a.prefix_min >= LLM_E1_MIN_PREFIX &&
	       m->a.gap <= LLM_E1_MAX_GAP && m->pq / m->pf <= 1.0 + LLM_E1_MAX_PPL_RISE_PCT / 100.0;
}

/* Every placement measured; the default is exactly the ops within the bounds alone. */
static void test_placements(void **state)
{
	char model[512], tok[512];
	struct meas host, m;
	uint32_t chosen = 0;

	(void)state;
	t_need_stories(model, tok);
	measure(0, placements[0].name, &host);
	for (size_t i = 1; i < sizeof(placements) / sizeof(placements[0]); i++) {
		uint32_t e1 = placements[i].e1;

		if (quick() && e1 != E1NPU_LLM_OPS_DEFAULT_E1 && e1 != E1NPU_LLM_OPS_ROPE)
			continue;
		measure(e1, placements[i].name, &m);
		if (i <= 4) {
			assert_true(m.a.agree * 100 >= m.a.total * LLM_E1_USABLE_AGREE_PCT);
			assert_true(m.pq / m.pf <= 1.0 + LLM_E1_USABLE_PPL_RISE_PCT / 100.0);
		}
		if (i <= 5 && within(&host, &m))
			chosen |= e1;
		if (e1 == E1NPU_LLM_OPS_DEFAULT_E1)
			assert_true(within(&host, &m));
	}
	if (!quick()) {
		print_message("ops within the bounds alone: 0x%02x, default 0x%02x\n", chosen,
			      (unsigned int)E1NPU_LLM_OPS_DEFAULT_E1);
		assert_int_equal(chosen, E1NPU_LLM_OPS_DEFAULT_E1);
	}
}

/* With every op on e1 each names its e1 engine and the lowering's reason. */
static void test_report(void **state)
{
	char model[512], tok[512];
	struct e1npu_llm_options o;
	struct e1npu_llm *q;
	const float *lg;
	int32_t ids[64];
	size_t n;

	(void)state;
	t_need_stories(model, tok);
	opts(&o, E1NPU_LLM_OPS_ALL);
	q = load_opts(&o);
	assert_int_equal(e1npu_llm_encode(q, "Once upon a time", 1, 0, ids, 64, &n), 0);
	assert_int_equal(e1npu_llm_prefill(q, ids, n, &lg), 0);
	assert_int_equal(e1npu_llm_step(q, 5, &lg), 0);
	for (uint32_t i = 0; i < e1npu_llm_num_ops(q); i++) {
		static const char *const e1ops[] = { "rmsnorm", "rope", "attention", "softmax", "swiglu" };
		struct e1npu_llm_op op;
		int on_e1 = 0;

		assert_int_equal(e1npu_llm_get_op(q, i, &op), 0);
		for (size_t j = 0; j < 5; j++)
			on_e1 |= !strcmp(op.name, e1ops[j]);
		print_message("%-10s %-8s %-11s calls %4llu jobs %4llu: %s\n", op.name,
			      e1npu_engine_name(op.engine), e1npu_ops_reason_name(op.reason),
			      (unsigned long long)op.calls, (unsigned long long)op.jobs, op.why);
		if (!on_e1)
			continue;
		assert_true(op.engine == E1NPU_ENGINE_DATAPATH || op.engine == E1NPU_ENGINE_WRAPPER);
		assert_true(op.jobs > 0);
		assert_non_null(strstr(op.why, "e1: "));
	}
	e1npu_llm_free(q);
}

/* Bad masks are refused by name; chunked prefill = token by token for the
 * ops whose quantization is per row (all but attention: v has one scale
 * per kv head over the keys, which a chunk sees all at once). */
static void test_options_and_chunks(void **state)
{
	char model[512], tok[512], err[512];
	struct e1npu_llm_options o;
	struct e1npu_llm *q = NULL;
	const float *l1;
	float a[512];
	int32_t ids[64];
	size_t n;

	(void)state;
	t_need_stories(model, tok);
	opts(&o, 0);
	o.ops_e1 = 0x20;
	o.ops_host = 0;
	assert_int_equal(e1npu_llm_load_file(NULL, model, tok, &o, &q, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "options ops_e1 = 0x20: bits outside E1NPU_LLM_OPS_ALL (0x1f)"));
	o.ops_e1 = E1NPU_LLM_OPS_ROPE;
	o.ops_host = E1NPU_LLM_OPS_ROPE | E1NPU_LLM_OPS_SWIGLU;
	assert_int_equal(e1npu_llm_load_file(NULL, model, tok, &o, &q, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "ops_e1 = 0x2 and ops_host = 0x12 both hold 0x2"));
	opts(&o, E1NPU_LLM_OPS_ALL & ~E1NPU_LLM_OPS_ATTENTION);
	q = load_opts(&o);
	assert_int_equal(e1npu_llm_encode(q, "The cat sat on the mat and looked at the big red ball", 1, 0,
					  ids, 64, &n), 0);
	assert_true(n > 16);
	assert_int_equal(e1npu_llm_prefill(q, ids, n, &l1), 0);
	memcpy(a, l1, sizeof(a));
	e1npu_llm_reset(q);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(e1npu_llm_step(q, ids[i], &l1), 0);
	assert_memory_equal(a, l1, sizeof(a));
	e1npu_llm_free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_placements),
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_options_and_chunks),
	};

	return cmocka_run_group_tests_name("llm_e1ops", tests, NULL, NULL);
}
