// SPDX-License-Identifier: MIT
/*
 * libe1npu language models: the int8 path. Weights are quantized once at
 * load, per output row and per group of gs inputs (symmetric, scale =
 * max |w| / 127; a short last group when the input size is not a
 * multiple of gs, padded with zeros so no input is dropped). At each
 * matmul the activations are quantized the same way per row and group,
 * and the device computes every group's int8 x int8 -> int32 partial
 * products [G][M][N] in one call: by default one e1npu_ops_matmul_s8 of
 * G*M block-diagonal activation rows by the [G*gs][N] weights (the
 * weights stream once: one job), or e1npu_ops_batch_matmul_s8 with one
 * [M][gs] x [gs][N] slice per group (one job per group); the host sums
 * the partials scaled by activation scale x weight scale. Matmuls that share their
 * input are fused along N: q|k|v, w1|w3.
 *
 * RMSNorm, RoPE, attention, softmax and SwiGLU run on the host in float32
 * (llm_int8_host.c) or through the e1 lowerings (llm_int8_e1ops.c), per
 * op as options.ops_e1 / ops_host and the default choose.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llm_internal.h"

static uint32_t div_up(uint32_t a, uint32_t b)
{
	return a / b + (a % b != 0);
}

static void qmat_free(struct llm_qmat *q)
{
	free(q->w);
	free(q->s);
	q->w = NULL;
	q->s = NULL;
}

int llm_quantize_rows(struct llm_qmat *q, const float *const *parts,
		      const uint32_t *rows, uint32_t nparts, uint32_t k,
		      uint32_t gs)
{
	uint32_t n = 0, j = 0;
	size_t wn;

	if (gs > k)
		gs = k;		/* one group of the whole input, no padding */
	for (uint32_t p = 0; p < nparts; p++)
		n += rows[p];
	q->n = n;
	q->k = k;
	q->gs = gs;
	q->g = div_up(k, gs);
	if (!llm_size_mul(&wn, (size_t)q->g * gs, n))
		return -ENOMEM;
	q->w = calloc(wn, 1);
	q->s = calloc((size_t)q->g * n, sizeof(float));
	if (!q->w || !q->s) {
		qmat_free(q);
		return -ENOMEM;
	}
	for (uint32_t p = 0; p < nparts; p++) {
		for (uint32_t r = 0; r < rows[p]; r++, j++) {
			const float *row = parts[p] + (size_t)r * k;

			for (uint32_t g = 0; g < q->g; g++) {
				uint32_t k0 = g * gs, k1 = k0 + gs < k ? k0 + gs : k;
				float amax = 0, s, inv;

				for (uint32_t i = k0; i < k1; i++)
					amax = fmaxf(amax, fabsf(row[i]));
				s = amax / 127.0f;
				inv = s > 0 ? 1.0f / s : 0.0f;
				q->s[(size_t)g * n + j] = s;
				for (uint32_t i = k0; i < k1; i++) {
					long v = lrintf(row[i] * inv);

					v = v > 127 ? 127 : v < -127 ? -127 : v;
					q->w[((size_t)g * gs + (i - k0)) * n + j] = (int8_t)v;
				}
			}
		}
	}
	return 0;
}

/* out [m][q->n] = in [m][q->k] x q, through the device. */
static int qmatmul(struct e1npu_llm *l, enum llm_op_id id,
		   const struct llm_qmat *q, const float *in, uint32_t m,
		   float *out)
{
	struct llm_int8 *e = l->q8;
	struct e1npu_ops_report rep;
	struct e1npu_llm_op *op = &l->ops[id];
	uint32_t G = q->g, gs = q->gs, N = q->n, K = q->k;
	int ret;

	memset(e->aq, 0, (size_t)G * m * gs);
	for (uint32_t r = 0; r < m; r++) {
		const float *x = in + (size_t)r * K;

		for (uint32_t g = 0; g < G; g++) {
			uint32_t k0 = g * gs, k1 = k0 + gs < K ? k0 + gs : K;
			int8_t *a = e->aq + ((size_t)g * m + r) * gs;
			float amax = 0, s, inv;

			for (uint32_t i = k0; i < k1; i++)
				amax = fmaxf(amax, fabsf(x[i]));
			s = amax / 127.0f;
			inv = s > 0 ? 1.0f / s : 0.0f;
			e->as[(size_t)r * G + g] = s;
			for (uint32_t i = k0; i < k1; i++) {
				long v = lrintf(x[i] * inv);

				a[i - k0] = (int8_t)(v > 127 ? 127 : v < -127 ? -127 : v);
			}
		}
	}
	llm_op_note(l, LLM_OP_QUANT, E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_HW_OP,
		    "host: per-row, per-group float scales (max |x| / 127) of the matmul inputs", 0);
	if (e->mode == E1NPU_LLM_MM_ROWS && (size_t)G * m <= LLM_ROWS_MAX) {
		/* block-diagonal rows: row g*m + r holds group g of row r at
		 * columns [g*gs, g*gs + gs), zeros elsewhere; times the plain
		 * [G*gs][N] weights gives the same [G][m][N] partials in one
		 * matmul whose weights stream once */
		size_t kp = (size_t)G * gs;

		memset(e->arows, 0, (size_t)G * m * kp);
		for (uint32_t g = 0; g < G; g++)
			for (uint32_t r = 0; r < m; r++)
				memcpy(e->arows + ((size_t)g * m + r) * kp + (size_t)g * gs,
				       e->aq + ((size_t)g * m + r) * gs, gs);
		ret = e1npu_ops_matmul_s8(e->ops, G * m, N, (uint32_t)kp, e->arows, kp,
					  q->w, N, e->acc, N, &rep);
	} else {
		ret = e1npu_ops_batch_matmul_s8(e->ops, 1, G, m, N, gs, e->aq, q->w,
						e->acc, &rep);
	}
	if (ret)
		return llm_seterr(l, ret, "%s matmul %ux%ux%u (%u groups of %u) failed: %s",
				  op->name, m, N, K, G, gs, e1npu_ops_last_error(e->ops));
	llm_op_note(l, id, rep.engine, rep.reason, rep.why, rep.macs);
	op->jobs += rep.jobs;
	op->hw_ops += rep.hw_ops;
	op->wrapper_cycles += rep.wrapper_cycles;
	op->dp_cycles += rep.dp_cycles;
	l->st.matmuls++;
	for (uint32_t r = 0; r < m; r++) {
		float *o = out + (size_t)r * N;
		const float *as = e->as + (size_t)r * G;

		for (uint32_t j = 0; j < N; j++)
			o[j] = 0;
		for (uint32_t g = 0; g < G; g++) {
			const int32_t *c = e->acc + ((size_t)g * m + r) * N;
			const float *ws = q->s + (size_t)g * N;
			float sa = as[g];

			for (uint32_t j = 0; j < N; j++)
				o[j] += sa * ws[j] * (float)c[j];
		}
	}
	llm_op_note(l, LLM_OP_DEQUANT, E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_HW_OP,
		    "host: sum over groups of int32 partials x activation scale x weight scale", 0);
	return 0;
}

void llm_int8_free(struct e1npu_llm *l)
{
	struct llm_int8 *e = l->q8;

	if (!e)
		return;
	for (uint32_t i = 0; i < l->cfg.n_layers; i++) {
		if (e->qkv)
			qmat_free(&e->qkv[i]);
		if (e->wo)
			qmat_free(&e->wo[i]);
		if (e->w13)
			qmat_free(&e->w13[i]);
		if (e->w2)
			qmat_free(&e->w2[i]);
	}
	qmat_free(&e->cls);
	free(e->qkv);
	free(e->wo);
	free(e->w13);
	free(e->w2);
	free(e->x);
	free(e->xb);
	free(e->xb2);
	free(e->hb);
	free(e->qkvout);
	free(e->h13);
	free(e->att);
	free(e->logits);
	free(e->kc);
	free(e->vc);
	free(e->aq);
	free(e->arows);
	free(e->as);
	free(e->acc);
	llm_e1ops_free(l);
	e1npu_ops_free(e->ops);
	free(e);
	l->q8 = NULL;
}

static uint32_t umax(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

int llm_int8_init(struct e1npu_llm *l, struct e1npu_device *dev,
		  uint32_t gs, uint32_t chunk, uint32_t force,
		  uint32_t mode, uint32_t on_e1)
{
	const struct e1npu_llm_config *c = &l->cfg;
	uint32_t dim = c->dim, hid = c->hidden_dim, kvd = l->kv_dim, L = c->n_layers;
	uint32_t maxk = umax(dim, hid), maxn, maxg;
	size_t kvn, accn;
	struct llm_int8 *e;
	int ret;

	e = calloc(1, sizeof(*e));
	if (!e)
		return llm_seterr(l, -ENOMEM, "out of memory");
	l->q8 = e;
	e->dev = dev;
	e->mode = mode;
	e->on_e1 = on_e1;
	e->gs = gs;
	e->chunk = chunk;
	ret = e1npu_ops_new(dev, &e->ops);
	if (ret)
		return llm_seterr(l, ret, "int8 path: e1npu_ops_new: %s", e1npu_ops_last_error(NULL));
	ret = e1npu_ops_set_force(e->ops, (enum e1npu_ops_force)force);
	if (ret)
		return llm_seterr(l, ret, "int8 path: e1npu_ops_set_force(%u): %s", force,
				  e1npu_ops_last_error(e->ops));
	e->qkv = calloc(L, sizeof(*e->qkv));
	e->wo = calloc(L, sizeof(*e->wo));
	e->w13 = calloc(L, sizeof(*e->w13));
	e->w2 = calloc(L, sizeof(*e->w2));
	if (!e->qkv || !e->wo || !e->w13 || !e->w2)
		return llm_seterr(l, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < L; i++) {
		const float *qkv[3] = {
			l->w.wq + (size_t)i * dim * dim, l->w.wk + (size_t)i * kvd * dim,
			l->w.wv + (size_t)i * kvd * dim,
		};
		const uint32_t qkv_rows[3] = { dim, kvd, kvd };
		const float *w13[2] = { l->w.w1 + (size_t)i * hid * dim, l->w.w3 + (size_t)i * hid * dim };
		const uint32_t w13_rows[2] = { hid, hid };
		const float *wo = l->w.wo + (size_t)i * dim * dim, *w2 = l->w.w2 + (size_t)i * dim * hid;

		if (llm_quantize_rows(&e->qkv[i], qkv, qkv_rows, 3, dim, gs) ||
		    llm_quantize_rows(&e->wo[i], &wo, &dim, 1, dim, gs) ||
		    llm_quantize_rows(&e->w13[i], w13, w13_rows, 2, dim, gs) ||
		    llm_quantize_rows(&e->w2[i], &w2, &dim, 1, hid, gs))
			return llm_seterr(l, -ENOMEM, "out of memory quantizing layer %u", i);
	}
	if (llm_quantize_rows(&e->cls, &l->w.wcls, &c->vocab_size, 1, dim, gs))
		return llm_seterr(l, -ENOMEM, "out of memory quantizing the classifier");
	maxn = umax(umax(dim + 2 * kvd, 2 * hid), c->vocab_size);
	maxg = div_up(maxk, gs);
	if (!llm_size_mul(&kvn, (size_t)L * c->seq_len, kvd) ||
	    !llm_size_mul(&accn, (size_t)maxg * chunk, maxn))
		return llm_seterr(l, -ENOMEM, "KV cache or accumulators overflow size_t");
	e->x = calloc((size_t)chunk * dim, sizeof(float));
	e->xb = calloc((size_t)chunk * dim, sizeof(float));
	e->xb2 = calloc((size_t)chunk * dim, sizeof(float));
	e->hb = calloc((size_t)chunk * hid, sizeof(float));
	e->qkvout = calloc((size_t)chunk * (dim + 2 * kvd), sizeof(float));
	e->h13 = calloc((size_t)chunk * 2 * hid, sizeof(float));
	e->att = calloc(c->seq_len, sizeof(float));
	e->logits = calloc(c->vocab_size, sizeof(float));
	e->kc = calloc(kvn, sizeof(float));
	e->vc = calloc(kvn, sizeof(float));
	e->aq = calloc((size_t)maxg * chunk * gs, 1);
	e->arows = calloc((size_t)LLM_ROWS_MAX * (maxk + gs), 1);
	e->as = calloc((size_t)maxg * chunk, sizeof(float));
	e->acc = calloc(accn, sizeof(int32_t));
	if (!e->x || !e->xb || !e->xb2 || !e->hb || !e->qkvout || !e->h13 ||
	    !e->att || !e->logits || !e->kc || !e->vc || !e->aq || !e->arows || !e->as || !e->acc)
		return llm_seterr(l, -ENOMEM, "out of memory for the int8 path's activations and KV cache (seq_len %u)",
				  c->seq_len);
	l->logits = e->logits;
	return on_e1 ? llm_e1ops_init(l) : 0;
}

/* RMSNorm @site (2 * layer, 2 * layer + 1, 2 * n_layers) where it is placed. */
static int rmsnorm(struct e1npu_llm *l, uint32_t site, float *o, const float *x,
		   const float *w, uint32_t m)
{
	if (l->q8->on_e1 & E1NPU_LLM_OPS_RMSNORM)
		return llm_e1_rmsnorm(l, site, o, x, w, m, l->cfg.dim);
	llm_host_rmsnorm(l, o, x, w, m, l->cfg.dim);
	return 0;
}

int llm_int8_forward(struct e1npu_llm *l, const int32_t *ids, uint32_t m,
		     uint32_t pos)
{
	const struct e1npu_llm_config *c = &l->cfg;
	struct llm_int8 *e = l->q8;
	uint32_t dim = c->dim, L = c->n_layers;
	int ret;

	for (uint32_t r = 0; r < m; r++)
		memcpy(e->x + (size_t)r * dim, l->w.emb + (size_t)ids[r] * dim, dim * sizeof(float));
	for (uint32_t li = 0; li < L; li++) {
		if ((ret = rmsnorm(l, 2 * li, e->xb, e->x, l->w.rms_att + (size_t)li * dim, m)) ||
		    (ret = qmatmul(l, LLM_OP_QKV, &e->qkv[li], e->xb, m, e->qkvout)))
			return ret;
		if (e->on_e1 & E1NPU_LLM_OPS_ROPE) {
			if ((ret = llm_e1_rope(l, m, pos)))
				return ret;
		} else {
			llm_host_rope(l, m, pos);
		}
		llm_kv_store(l, li, m, pos);
		if (e->on_e1 & (E1NPU_LLM_OPS_ATTENTION | E1NPU_LLM_OPS_SOFTMAX)) {
			if ((ret = llm_e1_attention(l, li, m, pos)))
				return ret;
		} else {
			llm_host_attention(l, li, m, pos);
		}
		if ((ret = qmatmul(l, LLM_OP_WO, &e->wo[li], e->xb, m, e->xb2)))
			return ret;
		for (size_t i = 0; i < (size_t)m * dim; i++)
			e->x[i] += e->xb2[i];
		if ((ret = rmsnorm(l, 2 * li + 1, e->xb, e->x, l->w.rms_ffn + (size_t)li * dim, m)) ||
		    (ret = qmatmul(l, LLM_OP_W1W3, &e->w13[li], e->xb, m, e->h13)))
			return ret;
		if (e->on_e1 & E1NPU_LLM_OPS_SWIGLU) {
			if ((ret = llm_e1_swiglu(l, m)))
				return ret;
		} else {
			llm_host_swiglu(l, m);
		}
		if ((ret = qmatmul(l, LLM_OP_W2, &e->w2[li], e->hb, m, e->xb2)))
			return ret;
		for (size_t i = 0; i < (size_t)m * dim; i++)
			e->x[i] += e->xb2[i];
	}
	if ((ret = rmsnorm(l, 2 * L, e->xb, e->x + (size_t)(m - 1) * dim, l->w.rms_final, 1)))
		return ret;
	return qmatmul(l, LLM_OP_CLS, &e->cls, e->xb, 1, e->logits);
}
