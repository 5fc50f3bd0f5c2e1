// SPDX-License-Identifier: MIT
/*
 * libe1npu language models: sampling. Greedy is the argmax (lowest index
 * on ties); otherwise softmax(logits / temperature), cut to the nucleus
 * of mass top_p when 0 < top_p < 1, drawn with xorshift64*.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "llm_internal.h"

struct prob_idx {
	float p;
	uint32_t i;
};

static uint32_t rng_u32(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (uint32_t)((*s * 0x2545F4914F6CDD1DULL) >> 32);
}

static float rng_f32(uint64_t *s)
{
	return (float)(rng_u32(s) >> 8) / 16777216.0f;
}

static int cmp_desc(const void *a, const void *b)
{
	const struct prob_idx *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? 1 : -1;
	return (x->i > y->i) - (x->i < y->i);
}

int llm_sample(struct e1npu_llm *l, const float *logits, int32_t *tok)
{
	uint32_t n = l->cfg.vocab_size, best = 0;
	float mx = logits[0], sum = 0, r, cdf = 0;

	for (uint32_t i = 1; i < n; i++)
		if (logits[i] > logits[best])
			best = i;
	if (l->temperature == 0.0f) {
		*tok = (int32_t)best;
		return 0;
	}
	if (!l->probs) {
		l->probs = malloc((size_t)n * sizeof(struct prob_idx));
		if (!l->probs)
			return llm_seterr(l, -ENOMEM, "e1npu_llm_sample: out of memory");
	}
	mx = logits[best];
	{
		struct prob_idx *pi = l->probs;
		uint32_t m = 0;

		for (uint32_t i = 0; i < n; i++) {
			float p = expf((logits[i] - mx) / l->temperature);

			pi[i].p = p;
			pi[i].i = i;
			sum += p;
		}
		for (uint32_t i = 0; i < n; i++)
			pi[i].p /= sum;
		if (l->top_p > 0.0f && l->top_p < 1.0f) {
			float cut = n > 1 ? (1.0f - l->top_p) / (float)(n - 1) : 0.0f, cum = 0;

			for (uint32_t i = 0; i < n; i++)
				if (pi[i].p >= cut)
					pi[m++] = pi[i];
			qsort(pi, m, sizeof(*pi), cmp_desc);
			for (uint32_t i = 0; i < m; i++) {
				cum += pi[i].p;
				if (cum > l->top_p) {
					m = i + 1;
					break;
				}
			}
			sum = 0;
			for (uint32_t i = 0; i < m; i++)
				sum += pi[i].p;
		} else {
			m = n;
			sum = 1.0f;
		}
		r = rng_f32(&l->rng) * sum;
		for (uint32_t i = 0; i < m; i++) {
			cdf += pi[i].p;
			if (r < cdf) {
				*tok = (int32_t)pi[i].i;
				return 0;
			}
		}
		*tok = (int32_t)pi[m ? m - 1 : 0].i;
	}
	return 0;
}
