// SPDX-License-Identifier: MIT
/*
 * The int8 path on e1 (the in-process device model unless E1NPU_DEVICE
 * names a node) against the float32 reference path on stories260K:
 * teacher-forced top-1 agreement, greedy prefix length and largest logit
 * gap on six prompts x 64 greedy tokens, perplexity of both paths on a
 * text written for this test; chunked prefill (M > 1) equal to token by
 * token; jobs per token as counted from the shapes; context overflow.
 */
#include "llm-acc.h"

/*
 * Thresholds from the measured values (group 32, the in-process model,
 * Documentation/llm.md "Accuracy"): top-1 agreement 380/384 (99.0%),
 * greedy prefix min 22 (mean 51.7), max |logit gap| 0.478 (1.7% of the
 * logit range), perplexity -0.06%. The bounds leave a margin, no more.
 */
#define LLM_MIN_AGREE_PCT	97
#define LLM_MIN_PREFIX		16
#define LLM_MAX_GAP		0.75
#define LLM_MAX_PPL_RISE_PCT	2.0

static struct e1npu_llm *load_mode(uint32_t path, uint32_t group, uint32_t force,
				    uint32_t mode)
{
	struct e1npu_llm_options o = { .path = path, .group_size = group, .force = force,
				       .mm_mode = mode, .ops_host = E1NPU_LLM_OPS_ALL };

	return load_opts(&o);
}

static struct e1npu_llm *load(uint32_t path, uint32_t group, uint32_t force)
{
	return load_mode(path, group, force, E1NPU_LLM_MM_ROWS);
}

/* The matmul-only int8 path (the non-matmul ops on the host) of @group. */
static void accuracy(uint32_t group, struct acc *r, int print)
{
	struct e1npu_llm_options o = { .path = E1NPU_LLM_PATH_INT8, .group_size = group,
				       .force = E1NPU_OPS_FORCE_WRAPPER,
				       .ops_host = E1NPU_LLM_OPS_ALL };
	char label[32];

	snprintf(label, sizeof(label), "group %3u", group);
	accuracy_opts(&o, r, print ? label : NULL);
}

static void test_accuracy(void **state)
{
	char model[512], tok[512];
	struct acc r;

	(void)state;
	t_need_stories(model, tok);
	accuracy(32, &r, 1);
	print_message("group 32 total: top-1 agreement %u/%u (%.1f%%), greedy prefix min %u mean %.1f, max |logit gap| %.4f (%.2f%% of range)\n",
		      r.agree, r.total, 100.0 * r.agree / r.total, r.prefix_min,
		      (double)r.prefix_sum / (quick() ? 2 : 6), r.gap, 100 * r.rel_gap);
	assert_true(r.agree * 100 >= r.total * LLM_MIN_AGREE_PCT);
	assert_true(r.prefix_min >= LLM_MIN_PREFIX);
	assert_true(r.gap <= LLM_MAX_GAP);
	if (!quick()) {
		accuracy(64, &r, 0);
		print_message("group 64 total: top-1 agreement %u/%u (%.1f%%), greedy prefix min %u mean %.1f, max |logit gap| %.4f\n",
			      r.agree, r.total, 100.0 * r.agree / r.total, r.prefix_min,
			      (double)r.prefix_sum / 6, r.gap);
		accuracy(16, &r, 0);
		print_message("group 16 total: top-1 agreement %u/%u (%.1f%%), greedy prefix min %u mean %.1f, max |logit gap| %.4f\n",
			      r.agree, r.total, 100.0 * r.agree / r.total, r.prefix_min,
			      (double)r.prefix_sum / 6, r.gap);
	}
}

static void test_perplexity(void **state)
{
	struct e1npu_llm_options o = { .path = E1NPU_LLM_PATH_INT8, .group_size = 32,
				       .force = E1NPU_OPS_FORCE_WRAPPER,
				       .ops_host = E1NPU_LLM_OPS_ALL };
	char model[512], tok[512];
	double nf, nq;
	size_t n;

	(void)state;
	t_need_stories(model, tok);
	perplexity_opts(&o, &nf, &nq, &n);
	print_message("perplexity text (%zu tokens): %s\n", n, ppl_text);
	print_message("perplexity over %zu predicted tokens: float32 %.4f, int8 group 32 %.4f (%+.2f%%)\n",
		      n - 1, nf, nq, 100 * (nq / nf - 1));
	assert_true(nf > 1.0 && nf < 20.0);
	assert_true(nq / nf < 1.0 + LLM_MAX_PPL_RISE_PCT / 100.0);
}

/* Prefill in chunks of M > 1 gives the logits of token-by-token steps
 * exactly (per-row quantization, exact int32 partials), in both mappings
 * of the groups, and both give the same logits. Jobs of one decode step,
 * from the shapes: the batch form submits one job per group of every
 * matmul (per layer qkv, wo, w1w3 ceil(dim / 32) each and w2
 * ceil(hidden / 32), plus the classifier's), the rows form one job per
 * matmul (4 per layer + 1). */
static void chunks_and_jobs(uint32_t mode, uint64_t jobs, float *logits_out)
{
	struct e1npu_llm_stats s0, s1;
	struct e1npu_llm *q;
	const float *l1;
	float *a;
	int32_t ids[64];
	size_t n;

	q = load_mode(E1NPU_LLM_PATH_INT8, 32, E1NPU_OPS_FORCE_WRAPPER, mode);
	assert_int_equal(e1npu_llm_encode(q, "The cat sat on the mat and looked at the big red ball", 1, 0,
					  ids, 64, &n), 0);
	assert_true(n > 16);	/* more than one chunk of 16 */
	assert_int_equal(e1npu_llm_prefill(q, ids, n, &l1), 0);
	a = malloc(512 * sizeof(float));
	assert_non_null(a);
	memcpy(a, l1, 512 * sizeof(float));
	e1npu_llm_reset(q);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(e1npu_llm_step(q, ids[i], &l1), 0);
	assert_memory_equal(a, l1, 512 * sizeof(float));
	memcpy(logits_out, l1, 512 * sizeof(float));
	e1npu_llm_get_stats(q, &s0);
	assert_int_equal(e1npu_llm_step(q, 5, &l1), 0);
	e1npu_llm_get_stats(q, &s1);
	print_message("%s: jobs per decode token: %llu (expected %llu), matmul calls %llu\n",
		      mode == E1NPU_LLM_MM_ROWS ? "rows" : "batch",
		      (unsigned long long)(s1.jobs - s0.jobs), (unsigned long long)jobs,
		      (unsigned long long)(s1.matmuls - s0.matmuls));
	assert_int_equal(s1.matmuls - s0.matmuls, 5 * 4 + 1);
	if (!getenv("E1NPU_DEVICE") || !strcmp(getenv("E1NPU_DEVICE"), "sim"))
		assert_int_equal(s1.jobs - s0.jobs, jobs);
	for (uint32_t i = 0; i < e1npu_llm_num_ops(q); i++) {
		struct e1npu_llm_op op;

		assert_int_equal(e1npu_llm_get_op(q, i, &op), 0);
		assert_true(op.calls > 0);
		assert_true(op.why[0] != '\0');
		if (i < 5)
			assert_int_equal(op.engine, E1NPU_ENGINE_WRAPPER);
		else
			assert_int_equal(op.engine, E1NPU_ENGINE_CPU);
	}
	free(a);
	e1npu_llm_free(q);
}

static void test_prefill_chunks_and_jobs(void **state)
{
	char model[512], tok[512];
	uint32_t g_dim = (64 + 31) / 32, g_hid = (172 + 31) / 32;
	float *rows, *batch;

	(void)state;
	/* before the buffers: without the model it skips (no leak) */
	t_need_stories(model, tok);
	rows = malloc(512 * sizeof(float));
	batch = malloc(512 * sizeof(float));
	assert_non_null(rows);
	assert_non_null(batch);
	chunks_and_jobs(E1NPU_LLM_MM_BATCH, 5 * (3 * g_dim + g_hid) + g_dim, batch);
	chunks_and_jobs(E1NPU_LLM_MM_ROWS, 5 * 4 + 1, rows);
	assert_memory_equal(rows, batch, 512 * sizeof(float));
	free(rows);
	free(batch);
}

static void test_context_overflow(void **state)
{
	char model[512], tok[512];
	struct e1npu_llm *q;
	const float *lg;
	int32_t *ids;

	(void)state;
	t_need_stories(model, tok);
	q = load(E1NPU_LLM_PATH_INT8, 32, E1NPU_OPS_FORCE_WRAPPER);
	ids = calloc(513, sizeof(*ids));
	assert_non_null(ids);
	for (int i = 0; i < 513; i++)
		ids[i] = 1 + i % 500;
	assert_int_equal(e1npu_llm_prefill(q, ids, 513, &lg), -ENOSPC);
	assert_non_null(strstr(e1npu_llm_last_error(q), "overflow the context of seq_len 512"));
	assert_int_equal(e1npu_llm_position(q), 0);
	if (!quick()) {
		assert_int_equal(e1npu_llm_prefill(q, ids, 512, &lg), 0);
		assert_int_equal(e1npu_llm_position(q), 512);
		assert_int_equal(e1npu_llm_step(q, 3, &lg), -ENOSPC);
		print_message("context overflow: %s\n", e1npu_llm_last_error(q));
	}
	free(ids);
	e1npu_llm_free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accuracy),
		cmocka_unit_test(test_perplexity),
		cmocka_unit_test(test_prefill_chunks_and_jobs),
		cmocka_unit_test(test_context_overflow),
	};

	return cmocka_run_group_tests_name("llm_int8", tests, NULL, NULL);
}
