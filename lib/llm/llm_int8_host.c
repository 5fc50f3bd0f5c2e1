// SPDX-License-Identifier: MIT
/*
 * libe1npu language models: the int8 path's non-matmul ops on the host in
 * float32 (their host placement, Documentation/llm.md): RMSNorm, RoPE,
 * attention with its softmax, SwiGLU, and the float KV cache's store.
 * They are a small fraction of the MACs (attention is head_size MACs per
 * head and cached position), need 1/sqrt, sin/cos and exp, and keeping
 * them (and the KV cache) in float confines the int8 error to the weight
 * matmuls. The e1 placement of each: llm_int8_e1ops.c.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "llm_internal.h"

void llm_host_rmsnorm(struct e1npu_llm *l, float *o, const float *x,
		      const float *w, uint32_t m, uint32_t n)
{
	for (uint32_t r = 0; r < m; r++) {
		const float *xr = x + (size_t)r * n;
		float *or = o + (size_t)r * n, ss = 0;

		for (uint32_t i = 0; i < n; i++)
			ss += xr[i] * xr[i];
		ss = 1.0f / sqrtf(ss / (float)n + 1e-5f);
		for (uint32_t i = 0; i < n; i++)
			or[i] = w[i] * (ss * xr[i]);
	}
	llm_op_note(l, LLM_OP_RMSNORM, E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_HW_OP,
		    "host float32: a row reduction and 1/sqrt; float keeps the int8 error to the matmuls", 0);
}

/* RoPE of the q and k of @m rows of qkvout at positions pos.. */
void llm_host_rope(struct e1npu_llm *l, uint32_t m, uint32_t pos)
{
	struct llm_int8 *e = l->q8;
	uint32_t dim = l->cfg.dim, kvd = l->kv_dim, hs = l->head_size, qn = dim + 2 * kvd;

	for (uint32_t r = 0; r < m; r++) {
		float *q = e->qkvout + (size_t)r * qn, *k = q + dim;
		uint32_t p = pos + r;

		for (uint32_t i = 0; i < dim; i += 2) {
			float freq = 1.0f / powf(10000.0f, (float)(i % hs) / (float)hs);
			float val = (float)p * freq, fr = cosf(val), fi = sinf(val);

			for (int t = 0; t < (i < kvd ? 2 : 1); t++) {
				float *vec = t ? k : q, v0 = vec[i], v1 = vec[i + 1];

				vec[i] = v0 * fr - v1 * fi;
				vec[i + 1] = v0 * fi + v1 * fr;
			}
		}
	}
	llm_op_note(l, LLM_OP_ROPE, E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_HW_OP,
		    "host float32: sin/cos rotation of q and k pairs", 0);
}

/* The k and v of @m rows into layer @li's float cache at pos.. */
void llm_kv_store(struct e1npu_llm *l, uint32_t li, uint32_t m, uint32_t pos)
{
	struct llm_int8 *e = l->q8;
	uint32_t dim = l->cfg.dim, kvd = l->kv_dim, qn = dim + 2 * kvd;
	size_t lo = (size_t)li * l->cfg.seq_len * kvd;

	for (uint32_t r = 0; r < m; r++) {
		const float *k = e->qkvout + (size_t)r * qn + dim, *v = k + kvd;

		memcpy(e->kc + lo + (size_t)(pos + r) * kvd, k, kvd * sizeof(float));
		memcpy(e->vc + lo + (size_t)(pos + r) * kvd, v, kvd * sizeof(float));
	}
}

/* Causal grouped-query attention of @m rows at pos.. into xb. */
void llm_host_attention(struct e1npu_llm *l, uint32_t li, uint32_t m, uint32_t pos)
{
	const struct e1npu_llm_config *c = &l->cfg;
	struct llm_int8 *e = l->q8;
	uint32_t dim = c->dim, kvd = l->kv_dim, hs = l->head_size, qn = dim + 2 * kvd;
	uint32_t kv_mul = c->n_heads / c->n_kv_heads;
	size_t lo = (size_t)li * c->seq_len * kvd;
	char why[160];

	for (uint32_t r = 0; r < m; r++) {
		const float *q = e->qkvout + (size_t)r * qn;
		uint32_t p = pos + r;

		for (uint32_t h = 0; h < c->n_heads; h++) {
			const float *qh = q + (size_t)h * hs;
			float *xo = e->xb + (size_t)r * dim + (size_t)h * hs, mx = -INFINITY, sum = 0;
			size_t ko = (size_t)(h / kv_mul) * hs;

			for (uint32_t t = 0; t <= p; t++) {
				const float *kt = e->kc + lo + (size_t)t * kvd + ko;
				float sc = 0;

				for (uint32_t i = 0; i < hs; i++)
					sc += qh[i] * kt[i];
				e->att[t] = sc / sqrtf((float)hs);
				mx = fmaxf(mx, e->att[t]);
			}
			for (uint32_t t = 0; t <= p; t++) {
				e->att[t] = expf(e->att[t] - mx);
				sum += e->att[t];
			}
			memset(xo, 0, hs * sizeof(float));
			for (uint32_t t = 0; t <= p; t++) {
				const float *vt = e->vc + lo + (size_t)t * kvd + ko;
				float a = e->att[t] / sum;

				for (uint32_t i = 0; i < hs; i++)
					xo[i] += a * vt[i];
			}
		}
	}
	snprintf(why, sizeof(why),
		 "host float32: %u MACs per head and cached position (head_size %u), float KV cache",
		 2 * hs, hs);
	llm_op_note(l, LLM_OP_ATTENTION, E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_HW_OP, why,
		    (uint64_t)2 * hs * c->n_heads * ((uint64_t)m * pos + (uint64_t)m * (m + 1) / 2));
	llm_op_note(l, LLM_OP_SOFTMAX, E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_HW_OP,
		    "host float32: exp(score - row max), normalized", 0);
}

/* hb = silu(w1 x) * (w3 x) of @m rows of h13. */
void llm_host_swiglu(struct e1npu_llm *l, uint32_t m)
{
	struct llm_int8 *e = l->q8;
	uint32_t hid = l->cfg.hidden_dim;

	for (uint32_t r = 0; r < m; r++) {
		const float *a = e->h13 + (size_t)r * 2 * hid, *b = a + hid;
		float *o = e->hb + (size_t)r * hid;

		for (uint32_t i = 0; i < hid; i++)
			o[i] = a[i] / (1.0f + expf(-a[i])) * b[i];
	}
	llm_op_note(l, LLM_OP_SWIGLU, E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_HW_OP,
		    "host float32: silu(w1 x) * (w3 x)", 0);
}
