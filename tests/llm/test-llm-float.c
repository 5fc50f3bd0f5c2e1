// SPDX-License-Identifier: MIT
/*
 * The float32 reference path on stories260K: llama2.c's greedy sample
 * (`run stories260K.bin -z tok512.bin -t 0.0`, 256 steps, empty prompt),
 * typed here from llama2.c's doc/stories260K.md, must come out byte for
 * byte; and six prompts must give the same 64 greedy tokens in float32
 * and in float64 (the same code in double).
 */
#include "llm-test.h"

static const char expected_sample[] =
	"Once upon a time, there was a little girl named Lily. She loved to play outside in the park. "
	"One day, she saw a big, red ball. She wanted to play with it, but it was too high.\n"
	"Lily's mom said, \"Lily, let's go to the park.\" Lily was sad and didn't know what to do. "
	"She said, \"I want to play with your ball, but I can't find it.\"\n"
	"Lily was sad and didn't know what to do. She said, \"I'm sorry, Lily. I didn't know what to do.\"\n"
	"Lily didn't want to help her mom, so she said, \"I'm sorry, mom. I didn't know what to do.\" "
	"Her mom said, \"Don't worry, Lily. We can help you.";

static struct e1npu_llm *load(uint32_t path)
{
	struct e1npu_llm_options o = { .path = path };
	char model[512], tok[512], err[512];
	struct e1npu_llm *l = NULL;
	int ret;

	if (!t_shared(model, sizeof(model), "stories260K.bin") ||
	    !t_shared(tok, sizeof(tok), "tok512.bin"))
		return NULL;
	ret = e1npu_llm_load_file(NULL, model, tok, &o, &l, err, sizeof(err));
	if (ret)
		fail_msg("load: %s", err);
	return l;
}

/* llama2.c's generation loop: @steps forward passes, the prompt's tokens
 * forced, then greedy; stops at BOS. Returns the tokens after BOS. */
static size_t generate(struct e1npu_llm *l, const char *prompt, uint32_t steps,
		       int32_t *out, char *text, size_t tlen)
{
	int32_t ids[256], tok;
	size_t np, n = 0, tl = 0;
	const float *lg;

	assert_int_equal(e1npu_llm_reset(l), 0);
	assert_int_equal(e1npu_llm_encode(l, prompt, 1, 0, ids, 256, &np), 0);
	assert_int_equal(e1npu_llm_prefill(l, ids, np, &lg), 0);
	for (size_t i = 1; i < np; i++)
		out[n++] = ids[i];
	for (uint32_t pos = (uint32_t)np - 1; pos < steps; pos++) {
		assert_int_equal(e1npu_llm_sample(l, lg, &tok), 0);
		if (tok == 1)
			break;
		out[n++] = tok;
		if (pos + 1 < steps)
			assert_int_equal(e1npu_llm_step(l, tok, &lg), 0);
	}
	if (text) {
		for (size_t i = 0; i < n; i++) {
			const char *s;

			assert_int_equal(e1npu_llm_decode(l, i ? out[i - 1] : 1, out[i], &s), 0);
			assert_true(tl + strlen(s) < tlen);
			memcpy(text + tl, s, strlen(s));
			tl += strlen(s);
		}
		text[tl] = '\0';
	}
	return n;
}

static void test_greedy_sample(void **state)
{
	char model[512], tok[512], text[4096];
	struct e1npu_llm *l;
	int32_t out[300];
	size_t n;

	(void)state;
	t_need_stories(model, tok);
	l = load(E1NPU_LLM_PATH_FLOAT);
	n = generate(l, "", 256, out, text, sizeof(text));
	assert_int_equal(n, 256);
	if (strcmp(text, expected_sample)) {
		size_t i = 0;

		while (text[i] && text[i] == expected_sample[i])
			i++;
		fail_msg("sample differs at byte %zu:\n got: %s\nwant: %s", i, text + i,
			 expected_sample + i);
	}
	print_message("stories260K float32 greedy sample: %zu tokens, %zu bytes, equal to llama2.c's\n",
		      n, strlen(text));
	e1npu_llm_free(l);
}

static void test_float_vs_double(void **state)
{
	char model[512], tok[512];
	struct e1npu_llm *f, *d;

	(void)state;
	t_need_stories(model, tok);
	f = load(E1NPU_LLM_PATH_FLOAT);
	d = load(E1NPU_LLM_PATH_DOUBLE);
	for (int p = 0; p < 6; p++) {
		int32_t a[128], b[128], ids[64];
		size_t np, na, nb, same = 0;

		assert_int_equal(e1npu_llm_encode(f, prompts[p], 1, 0, ids, 64, &np), 0);
		/* 64 generated tokens after the prompt */
		na = generate(f, prompts[p], (uint32_t)(np - 1 + 64), a, NULL, 0);
		nb = generate(d, prompts[p], (uint32_t)(np - 1 + 64), b, NULL, 0);
		while (same < na && same < nb && a[same] == b[same])
			same++;
		print_message("prompt %d '%s': %zu prompt tokens, float32 %zu / float64 %zu tokens, %zu equal\n",
			      p, prompts[p], np, na, nb, same);
		assert_int_equal(na, nb);
		assert_int_equal(same, na);
	}
	e1npu_llm_free(f);
	e1npu_llm_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_greedy_sample),
		cmocka_unit_test(test_float_vs_double),
	};

	return cmocka_run_group_tests_name("llm_float", tests, NULL, NULL);
}
