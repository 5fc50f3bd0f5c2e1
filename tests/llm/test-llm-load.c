// SPDX-License-Identifier: MIT
/*
 * The checkpoint and tokenizer loaders on synthetic files built here (every
 * bad header field refused by name, with its value and the file size;
 * truncated and oversized files; tokenizer faults), llama2.c's BPE on a
 * hand-made vocabulary with the merges worked out by hand, decode, the
 * sampler, and the three paths on a tiny GQA model whose hidden size is
 * not a multiple of the quantization group.
 */
#include "llm-test.h"

/* dim 16, hidden 20, 2 layers, 4 heads, 2 kv heads, vocab 300, seq 32 */
static const int32_t tiny[7] = { 16, 20, 2, 4, 2, 300, 32 };

static int load_mem(const void *m, size_t ms, const void *t, size_t ts, uint32_t path,
		    uint32_t group, struct e1npu_llm **l, char *err, size_t el)
{
	struct e1npu_llm_options o = { .path = path, .group_size = group };

	return e1npu_llm_load_memory(NULL, m, ms, t, ts, &o, l, err, el);
}

static void expect_bad(const int32_t h[7], long extra, const char *const *needles)
{
	struct e1npu_llm *l = NULL;
	char err[512], sz[64];
	size_t size;
	void *m;

	/* a header with a bad field: write a small body so the file exists */
	if (h[0] > 0 && h[1] > 0 && h[2] > 0 && h[3] > 0 && h[4] > 0 && h[5] != 0 &&
	    h[6] > 0 && h[6] <= 4096 && h[0] <= 64 && h[1] <= 64 && h[2] <= 4 &&
	    h[3] <= 64 && h[4] <= 64 && h[0] % h[3] == 0 && h[3] % h[4] == 0 &&
	    (h[5] < 0 ? -h[5] : h[5]) <= 4096) {
		m = t_checkpoint(h, extra, &size, 1);
	} else {
		size = 28 + 4096;
		m = calloc(1, size);
		memcpy(m, h, 28);
	}
	assert_non_null(m);
	assert_int_equal(load_mem(m, size, NULL, 0, 0, 0, &l, err, sizeof(err)), -EINVAL);
	assert_null(l);
	snprintf(sz, sizeof(sz), "file size %zu bytes", size);
	assert_non_null(strstr(err, sz));
	for (int i = 0; needles[i]; i++)
		if (!strstr(err, needles[i]))
			fail_msg("'%s' not in: %s", needles[i], err);
	print_message("  refused: %s\n", err);
	free(m);
}

static void test_bad_header_fields(void **state)
{
	static const char *const names[7] = {
		"dim", "hidden_dim", "n_layers", "n_heads", "n_kv_heads", "vocab_size", "seq_len",
	};
	int32_t h[7];

	(void)state;
	for (int f = 0; f < 7; f++) {
		int32_t bad[3] = { 0, -5, INT32_MAX };

		for (int b = 0; b < 3; b++) {
			char want[64];
			const char *needles[2] = { want, NULL };

			if (f == 5 && b == 1)
				continue;	/* negative vocab is valid (unshared) */
			memcpy(h, tiny, sizeof(h));
			h[f] = bad[b];
			snprintf(want, sizeof(want), "header field %s = %d", names[f], bad[b]);
			expect_bad(h, 0, needles);
		}
	}
	{	/* huge seq_len within the field's range: the size check names it */
		const char *needles[] = { "seq_len 1000000", "truncated", NULL };

		memcpy(h, tiny, sizeof(h));
		h[6] = 1000000;
		expect_bad(h, 0, needles);
	}
	{
		const char *needles[] = { "n_kv_heads = 3 does not divide n_heads = 4", NULL };

		memcpy(h, tiny, sizeof(h));
		h[4] = 3;
		expect_bad(h, 0, needles);
	}
	{
		const char *needles[] = { "n_heads = 3 does not divide dim = 16", NULL };

		memcpy(h, tiny, sizeof(h));
		h[3] = 3;
		h[4] = 1;
		expect_bad(h, 0, needles);
	}
	{
		const char *needles[] = { "odd head size", NULL };

		memcpy(h, tiny, sizeof(h));
		h[3] = 16;
		h[4] = 16;
		expect_bad(h, 0, needles);
	}
	{
		const char *needles[] = { "trailing bytes", NULL };

		expect_bad(tiny, 4, needles);
	}
	{
		const char *needles[] = { "truncated", NULL };

		expect_bad(tiny, -1, needles);
	}
}

static void test_short_files(void **state)
{
	struct e1npu_llm *l = NULL;
	char err[512];
	uint8_t b[27] = { 0 };

	(void)state;
	assert_int_equal(load_mem(b, sizeof(b), NULL, 0, 0, 0, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "file size 27 bytes is shorter than the 28-byte header"));
	assert_int_equal(e1npu_llm_load_file(NULL, "/nonexistent/model.bin", NULL, NULL, &l, err,
					     sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/nonexistent/model.bin"));
}

static void test_good_and_unshared(void **state)
{
	struct e1npu_llm_config c;
	struct e1npu_llm *l = NULL;
	int32_t h[7];
	char err[512];
	size_t ms;
	void *m;

	(void)state;
	memcpy(h, tiny, sizeof(h));
	h[5] = -300;
	m = t_checkpoint(h, 0, &ms, 3);
	assert_int_equal(load_mem(m, ms, NULL, 0, 0, 0, &l, err, sizeof(err)), 0);
	assert_int_equal(e1npu_llm_get_config(l, &c), 0);
	assert_int_equal(c.dim, 16);
	assert_int_equal(c.hidden_dim, 20);
	assert_int_equal(c.n_kv_heads, 2);
	assert_int_equal(c.vocab_size, 300);
	assert_int_equal(c.shared_classifier, 0);
	/* no tokenizer: encode and decode say so */
	{
		int32_t ids[8];
		size_t n;
		const char *s;

		assert_int_equal(e1npu_llm_encode(l, "a", 1, 0, ids, 8, &n), -ENOENT);
		assert_non_null(strstr(e1npu_llm_last_error(l), "no tokenizer"));
		assert_int_equal(e1npu_llm_decode(l, 1, 5, &s), -ENOENT);
	}
	e1npu_llm_free(l);
	free(m);
}

static void test_bad_tokenizer(void **state)
{
	struct e1npu_llm *l = NULL;
	char err[512];
	size_t ms, ts;
	void *m = t_checkpoint(tiny, 0, &ms, 1), *t = t_tokenizer(300, NULL, &ts);
	int32_t v;

	(void)state;
	assert_int_equal(load_mem(m, ms, t, ts - 1, 0, 0, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "tokenizer: token 299"));
	assert_int_equal(load_mem(m, ms, t, ts + 0, 0, 0, &l, err, sizeof(err)), 0);
	e1npu_llm_free(l);
	l = NULL;
	v = 0;
	memcpy(t, &v, 4);
	assert_int_equal(load_mem(m, ms, t, ts, 0, 0, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "header field max_token_length = 0"));
	v = 4;	/* shorter than "<unk>" */
	memcpy(t, &v, 4);
	assert_int_equal(load_mem(m, ms, t, ts, 0, 0, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "token 0: field len = 5"));
	v = 16;
	memcpy(t, &v, 4);
	v = -1;
	memcpy((char *)t + 8, &v, 4);	/* token 0's len */
	assert_int_equal(load_mem(m, ms, t, ts, 0, 0, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "token 0: field len = -1"));
	print_message("  refused: %s\n", err);
	free(m);
	free(t);
	t = t_tokenizer(301, NULL, &ts);
	m = t_checkpoint(tiny, 0, &ms, 1);
	assert_int_equal(load_mem(m, ms, t, ts, 0, 0, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "trailing bytes"));
	free(m);
	free(t);
}

static const char *const pieces[] = {
	" ", "h", "e", "l", "o", "ll", "he", "hell", "hello", " hello", "a", NULL,
};

static void test_encode_decode(void **state)
{
	struct e1npu_llm *l = NULL;
	char err[512];
	size_t ms, ts, n;
	void *m = t_checkpoint(tiny, 0, &ms, 1), *t = t_tokenizer(300, pieces, &ts);
	int32_t ids[16];
	const char *s;

	(void)state;
	assert_int_equal(load_mem(m, ms, t, ts, 0, 0, &l, err, sizeof(err)), 0);
	/* " " 259, h 260, e 261, l 262, o 263, ll 264, he 265, hell 266,
	 * hello 267, " hello" 268, a 269; score = -id: ll beats he, then he,
	 * hell, hello, " hello" */
	assert_int_equal(e1npu_llm_encode(l, "hello", 1, 0, ids, 16, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], 1);
	assert_int_equal(ids[1], 268);
	assert_int_equal(e1npu_llm_encode(l, "hello", 0, 1, ids, 16, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ids[0], 268);
	assert_int_equal(ids[1], 2);
	/* no dummy prefix for empty text */
	assert_int_equal(e1npu_llm_encode(l, "", 1, 0, ids, 16, &n), 0);
	assert_int_equal(n, 1);
	/* byte fallback: U+00E9 is C3 A9, not in the vocabulary */
	assert_int_equal(e1npu_llm_encode(l, "a\xc3\xa9", 1, 0, ids, 16, &n), 0);
	assert_int_equal(n, 5);
	assert_int_equal(ids[1], 259);
	assert_int_equal(ids[2], 269);
	assert_int_equal(ids[3], 0xc3 + 3);
	assert_int_equal(ids[4], 0xa9 + 3);
	assert_int_equal(e1npu_llm_encode(l, "hello", 1, 0, ids, 1, &n), -ENOSPC);
	assert_int_equal(n, 2);
	/* decode: the space after BOS dropped, byte tokens as bytes */
	assert_int_equal(e1npu_llm_decode(l, 1, 268, &s), 0);
	assert_string_equal(s, "hello");
	assert_int_equal(e1npu_llm_decode(l, 5, 268, &s), 0);
	assert_string_equal(s, " hello");
	assert_int_equal(e1npu_llm_decode(l, 5, 0x41 + 3, &s), 0);
	assert_string_equal(s, "A");
	assert_int_equal(e1npu_llm_decode(l, 5, 300, &s), -EINVAL);
	assert_non_null(strstr(e1npu_llm_last_error(l), "tok = 300"));
	e1npu_llm_free(l);
	free(m);
	free(t);
}

static void test_sampler(void **state)
{
	struct e1npu_llm *l = NULL;
	char err[512];
	size_t ms;
	void *m = t_checkpoint(tiny, 0, &ms, 1);
	float lg[300];
	int32_t a[32], b[32], tok;
	int differ = 0;

	(void)state;
	assert_int_equal(load_mem(m, ms, NULL, 0, 0, 0, &l, err, sizeof(err)), 0);
	for (int i = 0; i < 300; i++)
		lg[i] = (float)(i % 7);
	assert_int_equal(e1npu_llm_sample(l, lg, &tok), 0);
	assert_int_equal(tok, 6);	/* first of the ties */
	assert_int_equal(e1npu_llm_set_sampler(l, -1.0f, 0.9f, 1), -EINVAL);
	assert_non_null(strstr(e1npu_llm_last_error(l), "temperature = -1"));
	assert_int_equal(e1npu_llm_set_sampler(l, 1.0f, 1.5f, 1), -EINVAL);
	assert_non_null(strstr(e1npu_llm_last_error(l), "top_p = 1.5"));
	for (int r = 0; r < 3; r++) {
		assert_int_equal(e1npu_llm_set_sampler(l, 1.0f, 0.9f, r == 2 ? 43 : 42), 0);
		for (int i = 0; i < 32; i++)
			assert_int_equal(e1npu_llm_sample(l, lg, r == 0 ? &a[i] : &b[i]), 0);
		if (r == 1)
			assert_memory_equal(a, b, sizeof(a));
		if (r == 2)
			differ = memcmp(a, b, sizeof(a)) != 0;
	}
	assert_true(differ);
	for (int i = 0; i < 32; i++)
		assert_true(a[i] % 7 >= 4);	/* the nucleus of 0.9: values 6, 5, 4 */
	/* one token with all the mass: top-p always picks it */
	for (int i = 0; i < 300; i++)
		lg[i] = i == 123 ? 50.0f : 0.0f;
	assert_int_equal(e1npu_llm_set_sampler(l, 1.0f, 0.5f, 7), 0);
	for (int i = 0; i < 16; i++) {
		assert_int_equal(e1npu_llm_sample(l, lg, &tok), 0);
		assert_int_equal(tok, 123);
	}
	e1npu_llm_free(l);
	free(m);
}

/* The three paths on the tiny GQA model: hidden 20 with group 8 is groups
 * of 8, 8 and a short 4; the int8 logits stay near the float ones (a
 * dropped input group would move them far), float64 nearer still. */
static void test_tiny_paths(void **state)
{
	struct e1npu_llm *f = NULL, *d = NULL, *q = NULL, *q1 = NULL;
	char err[512];
	size_t ms;
	void *m = t_checkpoint(tiny, 0, &ms, 9);
	struct e1npu_device *dev;
	struct e1npu_llm_options o = { .path = E1NPU_LLM_PATH_INT8, .group_size = 8,
				       .prefill_chunk = 3 };
	int32_t ids[10] = { 1, 5, 77, 200, 9, 299, 3, 3, 150, 42 };
	const float *lf, *ld, *lq;
	float range = 0;
	double dq = 0, dd = 0;

	(void)state;
	assert_int_equal(load_mem(m, ms, NULL, 0, E1NPU_LLM_PATH_FLOAT, 0, &f, err, sizeof(err)), 0);
	assert_int_equal(load_mem(m, ms, NULL, 0, E1NPU_LLM_PATH_DOUBLE, 0, &d, err, sizeof(err)), 0);
	assert_int_equal(e1npu_device_open("sim", &dev), 0);
	assert_int_equal(e1npu_llm_load_memory(dev, m, ms, NULL, 0, &o, &q, err, sizeof(err)), 0);
	o.group_size = 4096;	/* one group per matmul */
	assert_int_equal(e1npu_llm_load_memory(dev, m, ms, NULL, 0, &o, &q1, err, sizeof(err)), 0);
	e1npu_device_close(dev);
	assert_int_equal(e1npu_llm_prefill(f, ids, 10, &lf), 0);
	assert_int_equal(e1npu_llm_prefill(d, ids, 10, &ld), 0);
	assert_int_equal(e1npu_llm_prefill(q, ids, 10, &lq), 0);
	for (int i = 0; i < 300; i++) {
		range = fmaxf(range, fabsf(lf[i]));
		dq = fmax(dq, fabs((double)lq[i] - lf[i]));
		dd = fmax(dd, fabs((double)ld[i] - lf[i]));
	}
	print_message("tiny model: max |logit| %.3f, |int8 - float32| %.4f, |float64 - float32| %.2g\n",
		      range, dq, dd);
	assert_true(dd < 1e-3 * range);
	assert_true(dq < 0.05 * range);
	assert_true(dq > dd);
	assert_int_equal(e1npu_llm_prefill(q1, ids, 10, &lq), 0);
	assert_int_equal(e1npu_llm_position(q1), 10);
	assert_int_equal(e1npu_llm_prefill(f, ids, 10, &lf), 0);
	assert_int_equal(e1npu_llm_prefill(f, ids, 10, &lf), 0);
	assert_int_equal(e1npu_llm_prefill(f, ids, 3, &lf), -ENOSPC);	/* 30 + 3 > 32 */
	assert_non_null(strstr(e1npu_llm_last_error(f), "seq_len 32"));
	ids[0] = 300;
	assert_int_equal(e1npu_llm_prefill(q, ids, 1, &lq), -EINVAL);
	assert_non_null(strstr(e1npu_llm_last_error(q), "ids[0] = 300"));
	e1npu_llm_free(f);
	e1npu_llm_free(d);
	e1npu_llm_free(q);
	e1npu_llm_free(q1);
	free(m);
}

static void test_bad_options(void **state)
{
	struct e1npu_llm_options o = { .path = 7 };
	struct e1npu_llm *l = NULL;
	char err[512];
	size_t ms;
	void *m = t_checkpoint(tiny, 0, &ms, 1);

	(void)state;
	assert_int_equal(e1npu_llm_load_memory(NULL, m, ms, NULL, 0, &o, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "path = 7"));
	o.path = 0;
	o.reserved[0] = 1;
	assert_int_equal(e1npu_llm_load_memory(NULL, m, ms, NULL, 0, &o, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "reserved[0] = 1"));
	o.reserved[0] = 0;
	o.group_size = 5000;
	assert_int_equal(e1npu_llm_load_memory(NULL, m, ms, NULL, 0, &o, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "group_size = 5000"));
	o.group_size = 0;
	o.mm_mode = 5;
	assert_int_equal(e1npu_llm_load_memory(NULL, m, ms, NULL, 0, &o, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "mm_mode = 5"));
	o.mm_mode = 0;
	o.force = 9;
	assert_int_equal(e1npu_llm_load_memory(NULL, m, ms, NULL, 0, &o, &l, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "force = 9"));
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_header_fields),
		cmocka_unit_test(test_short_files),
		cmocka_unit_test(test_good_and_unshared),
		cmocka_unit_test(test_bad_tokenizer),
		cmocka_unit_test(test_encode_decode),
		cmocka_unit_test(test_sampler),
		cmocka_unit_test(test_tiny_paths),
		cmocka_unit_test(test_bad_options),
	};

	return cmocka_run_group_tests_name("llm_load", tests, NULL, NULL);
}
