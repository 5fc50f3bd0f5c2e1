/* SPDX-License-Identifier: MIT */
/*
 * The accuracy machinery of the int8 tests on stories260K, shared by
 * test-llm-int8 (groups, mappings) and test-llm-e1ops (placements of the
 * non-matmul ops): an int8 model (options given) against the float32
 * reference path on six prompts x 64 greedy tokens: teacher-forced top-1
 * agreement, greedy prefix length, largest logit gap; perplexity of both
 * paths on a text written for the tests.
 */
#ifndef __LLM_ACC_H__
#define __LLM_ACC_H__

#include "llm-test.h"

/* Written for the tests (not from the training data). */
static const char ppl_text[] =
	"Once upon a time, there was a little boy named Tim. Tim liked to play with his ball in the "
	"garden. One day, the sun was hot and Tim was thirsty. He went to his mom and said, \"Mom, can "
	"I have some water?\" His mom smiled and gave him a big cup of cold water. Tim said, \"Thank "
	"you, Mom!\" Then he ran back to the garden. His ball was under a tree. A small bird sat on the "
	"ball. Tim did not want to scare the bird. He sat down and waited. The bird looked at Tim and "
	"sang a happy song. Tim laughed and clapped his hands. The bird flew up to the tree, and Tim "
	"took his ball. He was very happy. That night, Tim told his dad about the bird. His dad said, "
	"\"You were kind to the bird. That is good.\" Tim went to bed with a big smile.";

#define GEN 64

static inline const char *quick(void)
{
	return getenv("E1NPU_LLM_TEST_QUICK");
}

/* stories260K with options @o (its path decides), on $E1NPU_DEVICE or sim. */
static inline struct e1npu_llm *load_opts(const struct e1npu_llm_options *o)
{
	char model[512], tok[512], err[512];
	struct e1npu_device *dev = NULL;
	struct e1npu_llm *l = NULL;
	const char *spec = getenv("E1NPU_DEVICE");

	t_shared(model, sizeof(model), "stories260K.bin");
	t_shared(tok, sizeof(tok), "tok512.bin");
	if (o->path == E1NPU_LLM_PATH_INT8)
		assert_int_equal(e1npu_device_open(spec && *spec ? spec : "sim", &dev), 0);
	if (e1npu_llm_load_file(dev, model, tok, o, &l, err, sizeof(err)))
		fail_msg("load: %s", err);
	e1npu_device_close(dev);
	return l;
}

static inline uint32_t argmax(const float *v, uint32_t n)
{
	uint32_t b = 0;

	for (uint32_t i = 1; i < n; i++)
		if (v[i] > v[b])
			b = i;
	return b;
}

/* -log softmax(v)[t] in double */
static inline double nll(const float *v, uint32_t n, int32_t t)
{
	double mx = v[argmax(v, n)], s = 0;

	for (uint32_t i = 0; i < n; i++)
		s += exp((double)v[i] - mx);
	return -((double)v[t] - mx - log(s));
}

struct acc {
	uint32_t agree, total, prefix_min, prefix_sum, prompts;
	double gap, rel_gap;
};

/* The int8 model of options @o against float32; @label prefixes each line printed. */
static inline void accuracy_opts(const struct e1npu_llm_options *o, struct acc *r,
				 const char *label)
{
	struct e1npu_llm_options fo = { .path = E1NPU_LLM_PATH_FLOAT };
	struct e1npu_llm *f = load_opts(&fo);
	struct e1npu_llm *q = load_opts(o);
	uint32_t V = 512;
	int np_max = quick() ? 2 : 6;

	memset(r, 0, sizeof(*r));
	r->prefix_min = GEN;
	r->prompts = (uint32_t)np_max;
	for (int p = 0; p < np_max; p++) {
		int32_t ids[64], ref[GEN], tok;
		const float *lf, *lq;
		uint32_t agree = 0, prefix = 0;
		double gap = 0, rel = 0;
		size_t np;

		assert_int_equal(e1npu_llm_encode(f, prompts[p], 1, 0, ids, 64, &np), 0);
		/* float greedy reference, int8 teacher-forced on it */
		e1npu_llm_reset(f);
		e1npu_llm_reset(q);
		assert_int_equal(e1npu_llm_prefill(f, ids, np, &lf), 0);
		assert_int_equal(e1npu_llm_prefill(q, ids, np, &lq), 0);
		for (int i = 0; i < GEN; i++) {
			float lo = lf[0], hi = lf[0], g = 0;

			ref[i] = (int32_t)argmax(lf, V);
			agree += argmax(lq, V) == (uint32_t)ref[i];
			for (uint32_t j = 0; j < V; j++) {
				g = fmaxf(g, fabsf(lq[j] - lf[j]));
				lo = fminf(lo, lf[j]);
				hi = fmaxf(hi, lf[j]);
			}
			gap = fmax(gap, g);
			rel = fmax(rel, g / (hi - lo));
			if (i + 1 < GEN) {
				assert_int_equal(e1npu_llm_step(f, ref[i], &lf), 0);
				assert_int_equal(e1npu_llm_step(q, ref[i], &lq), 0);
			}
		}
		/* int8 free-running greedy */
		e1npu_llm_reset(q);
		assert_int_equal(e1npu_llm_prefill(q, ids, np, &lq), 0);
		for (int i = 0; i < GEN; i++) {
			tok = (int32_t)argmax(lq, V);
			if (tok != ref[i])
				break;
			prefix++;
			if (i + 1 < GEN)
				assert_int_equal(e1npu_llm_step(q, tok, &lq), 0);
		}
		if (label)
			print_message("%s prompt %d %-36s teacher-forced top-1 %2u/%u, greedy prefix %2u/%u, max |logit gap| %.4f (%.2f%% of the logit range)\n",
				      label, p, prompts[p], agree, GEN, prefix, GEN, gap, 100 * rel);
		r->agree += agree;
		r->total += GEN;
		r->prefix_sum += prefix;
		if (prefix < r->prefix_min)
			r->prefix_min = prefix;
		r->gap = fmax(r->gap, gap);
		r->rel_gap = fmax(r->rel_gap, rel);
	}
	e1npu_llm_free(f);
	e1npu_llm_free(q);
}

/* Perplexity of float32 (*pf) and of options @o (*pq) on ppl_text. */
static inline void perplexity_opts(const struct e1npu_llm_options *o, double *pf, double *pq,
				   size_t *ntok)
{
	struct e1npu_llm_options fo = { .path = E1NPU_LLM_PATH_FLOAT };
	struct e1npu_llm *f = load_opts(&fo), *q = load_opts(o);
	double nf = 0, nq = 0;
	const float *lf, *lq;
	int32_t ids[512];
	size_t n;

	assert_int_equal(e1npu_llm_encode(f, ppl_text, 1, 0, ids, 512, &n), 0);
	assert_true(n > 200 && n < 512);
	assert_int_equal(e1npu_llm_step(f, ids[0], &lf), 0);
	assert_int_equal(e1npu_llm_step(q, ids[0], &lq), 0);
	for (size_t i = 1; i < n; i++) {
		nf += nll(lf, 512, ids[i]);
		nq += nll(lq, 512, ids[i]);
		if (i + 1 < n) {
			assert_int_equal(e1npu_llm_step(f, ids[i], &lf), 0);
			assert_int_equal(e1npu_llm_step(q, ids[i], &lq), 0);
		}
	}
	*pf = exp(nf / (double)(n - 1));
	*pq = exp(nq / (double)(n - 1));
	*ntok = n;
	e1npu_llm_free(f);
	e1npu_llm_free(q);
}

#endif
