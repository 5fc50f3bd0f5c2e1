// SPDX-License-Identifier: MIT
/*
 * libe1npu language models: the int8 path's non-matmul ops through the e1
 * lowerings (their e1 placement, options.ops_e1; Documentation/llm.md,
 * "Placement of the non-matmul ops"). Each quantizes its float inputs the
 * way its lowering expects, runs it, and scales the int8 result back:
 *  - RMSNorm, e1npu_ops_rmsnorm_s8, one call per row: x int8 with its own
 *    scale (the norm does not depend on it), gamma int8 in Q(gamma_frac)
 *    (the largest that holds max |gamma|), output in Q(out_frac): a first
 *    run in Q0 gives the row's largest output, out_frac is the largest that
 *    holds it, the row runs again (lowered while an output saturates): two
 *    jobs a row, no state across rows (chunked prefill gives the logits
 *    of token-by-token steps);
 *  - RoPE, e1npu_ops_rope_s8: each head's q or k one row, scaled so the
 *    longest (even, odd) pair is 127 (a rotation keeps it in range), cos
 *    and sin in Q7 from a table computed at load;
 *  - attention, e1npu_ops_attention_qk_s8 and _av_s8: per kv head the
 *    kv_mul query heads of all rows are the queries; q and the cached k one
 *    scale per head row (the int32 scores are exact, scaled on the host),
 *    the cached v one scale per kv head (the context comes back at it), the
 *    probabilities in Q0.8; the float KV cache is quantized at each call;
 *  - softmax, e1npu_ops_softmax_exp2_s8: scores in units of ln 2 (its
 *    2^delta is then e^score), causal mask as its mask, Q0.8 out;
 *  - SwiGLU's SiLU, e1npu_ops_silu_s8: its exp2 sigmoid takes the int8
 *    value as its argument, so w1 x goes in at scale 1; times w3 x on the
 *    host.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "llm_internal.h"

struct llm_e1ops {
	int8_t *g8;		/* [2L + 1][dim] gamma in Q(gfrac) */
	uint32_t *gfrac;	/* [2L + 1] */
	int8_t *cs, *sn;	/* [seq][hs / 2] Q7 */
	int8_t *a8, *b8;	/* chunk x max(dim + 2 kv_dim, hidden) */
	int8_t *rc, *rs;	/* rope rows' cos, sin */
	float *rsc;		/* row scales */
	int8_t *q8, *k8, *v8, *o8;
	float *qs, *ks, *vs;
	int32_t *s32;		/* [n_heads x chunk][seq] */
	float *sf;
	int8_t *l8;
	uint8_t *mask, *p8;
};

static int8_t q8of(float v, float inv)
{
	long q = lrintf(v * inv);

	return (int8_t)(q > 127 ? 127 : q < -127 ? -127 : q);
}

/* @x[0..n) symmetric to int8 over its own max |x|: the scale (step) */
static float q8_row(const float *x, uint32_t n, int8_t *q)
{
	float amax = 0;

	for (uint32_t i = 0; i < n; i++)
		amax = fmaxf(amax, fabsf(x[i]));
	for (uint32_t i = 0; i < n; i++)
		q[i] = q8of(x[i], amax > 0 ? 127.0f / amax : 0.0f);
	return amax / 127.0f;
}

/* Adds a lowering's report to op @id's totals and notes it as one call. */
static void note(struct e1npu_llm *l, enum llm_op_id id, const struct e1npu_ops_report *r,
		 uint32_t n, const char *what, uint64_t macs)
{
	struct e1npu_llm_op *op = &l->ops[id];
	char why[400];

	snprintf(why, sizeof(why), "e1: %s; %s", what, r[0].why);
	llm_op_note(l, id, r[0].engine, r[0].reason, why, macs);
	for (uint32_t i = 0; i < n; i++) {
		op->jobs += r[i].jobs;
		op->hw_ops += r[i].hw_ops;
		op->wrapper_cycles += r[i].wrapper_cycles;
		op->dp_cycles += r[i].dp_cycles;
	}
}

static int fail(struct e1npu_llm *l, int ret, const char *what)
{
	return llm_seterr(l, ret, "%s on e1 failed: %s", what, e1npu_ops_last_error(l->q8->ops));
}

void llm_e1ops_free(struct e1npu_llm *l)
{
	struct llm_e1ops *s = l->q8 ? l->q8->e1 : NULL;

	if (!s)
		return;
	free(s->g8);
	free(s->gfrac);
	free(s->cs);
	free(s->sn);
	free(s->a8);
	free(s->b8);
	free(s->rc);
	free(s->rs);
	free(s->rsc);
	free(s->q8);
	free(s->k8);
	free(s->v8);
	free(s->o8);
	free(s->qs);
	free(s->ks);
	free(s->vs);
	free(s->s32);
	free(s->sf);
	free(s->l8);
	free(s->mask);
	free(s->p8);
	free(s);
	l->q8->e1 = NULL;
}

/* gamma of norm @site in Q(f), f the largest in [0, 14] that holds max |gamma|. */
static void gamma_q(struct llm_e1ops *s, uint32_t site, const float *g, uint32_t n)
{
	float mx = 0;
	uint32_t f = 14;

	for (uint32_t i = 0; i < n; i++)
		mx = fmaxf(mx, fabsf(g[i]));
	while (f > 0 && mx * ldexpf(1.0f, (int)f) > 127.0f)
		f--;
	s->gfrac[site] = f;
	for (uint32_t i = 0; i < n; i++)
		s->g8[(size_t)site * n + i] = q8of(g[i], ldexpf(1.0f, (int)f));
}

int llm_e1ops_init(struct e1npu_llm *l)
{
	const struct e1npu_llm_config *c = &l->cfg;
	struct llm_int8 *e = l->q8;
	uint32_t dim = c->dim, hs = l->head_size, L = c->n_layers, ch = e->chunk;
	uint32_t qn = dim + 2 * l->kv_dim, wide = qn > c->hidden_dim ? qn : c->hidden_dim;
	size_t sites = 2 * (size_t)L + 1, att, kvn = (size_t)c->seq_len * l->kv_dim;
	struct llm_e1ops *s;

	s = calloc(1, sizeof(*s));
	if (!s)
		return llm_seterr(l, -ENOMEM, "out of memory");
	e->e1 = s;
	if (!llm_size_mul(&att, (size_t)c->n_heads * ch, c->seq_len) || att > SIZE_MAX / 8)
		return llm_seterr(l, -ENOMEM, "e1 attention scratch of n_heads %u x chunk %u x seq_len %u overflows size_t",
				  c->n_heads, ch, c->seq_len);
	s->g8 = calloc(sites, dim);
	s->gfrac = calloc(sites, sizeof(uint32_t));
	s->cs = calloc((size_t)c->seq_len, hs / 2);
	s->sn = calloc((size_t)c->seq_len, hs / 2);
	s->a8 = calloc((size_t)ch, wide);
	s->b8 = calloc((size_t)ch, wide);
	s->rc = calloc((size_t)ch, qn / 2);
	s->rs = calloc((size_t)ch, qn / 2);
	s->rsc = calloc((size_t)ch * (c->n_heads + c->n_kv_heads) + dim, sizeof(float));
	s->q8 = calloc((size_t)ch, dim);
	s->o8 = calloc((size_t)ch, dim);
	s->k8 = calloc(kvn, 1);
	s->v8 = calloc(kvn, 1);
	s->qs = calloc((size_t)ch * c->n_heads, sizeof(float));
	s->ks = calloc((size_t)c->seq_len * c->n_kv_heads, sizeof(float));
	s->vs = calloc(c->n_kv_heads, sizeof(float));
	s->s32 = calloc(att, sizeof(int32_t));
	s->sf = calloc(att, sizeof(float));
	s->l8 = calloc(att, 1);
	s->mask = calloc(att, 1);
	s->p8 = calloc(att, 1);
	if (!s->g8 || !s->gfrac || !s->cs || !s->sn || !s->a8 ||
	    !s->b8 || !s->rc || !s->rs || !s->rsc || !s->q8 || !s->o8 || !s->k8 || !s->v8 ||
	    !s->qs || !s->ks || !s->vs || !s->s32 || !s->sf || !s->l8 || !s->mask || !s->p8)
		return llm_seterr(l, -ENOMEM, "out of memory for the e1 ops' scratch (seq_len %u)", c->seq_len);
	for (uint32_t i = 0; i < L; i++) {
		gamma_q(s, 2 * i, l->w.rms_att + (size_t)i * dim, dim);
		gamma_q(s, 2 * i + 1, l->w.rms_ffn + (size_t)i * dim, dim);
	}
	gamma_q(s, 2 * L, l->w.rms_final, dim);
	for (uint32_t p = 0; p < c->seq_len; p++)
		for (uint32_t j = 0; j < hs / 2; j++) {
			float freq = 1.0f / powf(10000.0f, (float)(2 * j) / (float)hs);
			float val = (float)p * freq;

			s->cs[(size_t)p * (hs / 2) + j] = q8of(cosf(val), 128.0f);
			s->sn[(size_t)p * (hs / 2) + j] = q8of(sinf(val), 128.0f);
		}
	return 0;
}

int llm_e1_rmsnorm(struct e1npu_llm *l, uint32_t site, float *o, const float *x,
		   const float *w, uint32_t m, uint32_t n)
{
	struct llm_int8 *e = l->q8;
	struct llm_e1ops *s = e->e1;
	const int8_t *g8 = s->g8 + (size_t)site * n;
	uint32_t gf = s->gfrac[site];
	struct e1npu_ops_report rep;
	char what[96];
	int ret;

	(void)w;	/* quantized at load into g8 */
	for (uint32_t r = 0; r < m; r++) {
		const float *xr = x + (size_t)r * n;
		uint32_t of = 0, pass = 0;
		int ymax;

		q8_row(xr, n, s->a8);
		for (;;) {
			ret = e1npu_ops_rmsnorm_s8(e->ops, 1, n, s->a8, g8, gf, of, s->b8, &rep);
			if (ret)
				return fail(l, ret, "rmsnorm");
			ymax = 0;
			for (uint32_t i = 0; i < n; i++)
				ymax = abs(s->b8[i]) > ymax ? abs(s->b8[i]) : ymax;
			snprintf(what, sizeof(what), "x int8 per row, gamma Q%u, out Q%u (pass %u: %s)", gf, of,
				 pass + 1, pass ? "the row's format" : "Q0 for the row's range");
			note(l, LLM_OP_RMSNORM, &rep, 1, what, 0);
			if (!pass++) {
				while (of < 14 && (ymax + 1) << (of + 1) <= 127)
					of++;
				continue;
			}
			if (ymax < 127 || of == 0)
				break;
			of--;
		}
		for (uint32_t i = 0; i < n; i++)
			o[(size_t)r * n + i] = ldexpf((float)s->b8[i], -(int)of);
	}
	return 0;
}

int llm_e1_rope(struct e1npu_llm *l, uint32_t m, uint32_t pos)
{
	const struct e1npu_llm_config *c = &l->cfg;
	struct llm_int8 *e = l->q8;
	struct llm_e1ops *s = e->e1;
	uint32_t dim = c->dim, kvd = l->kv_dim, hs = l->head_size, qn = dim + 2 * kvd;
	uint32_t hr = c->n_heads + c->n_kv_heads, rows = m * hr;
	struct e1npu_ops_report rep;
	int ret;

	/* row r * hr + h: head h of q (h < n_heads), else of k, of token r */
	for (uint32_t r = 0; r < m; r++)
		for (uint32_t h = 0; h < hr; h++) {
			const float *v = e->qkvout + (size_t)r * qn + (size_t)h * hs;
			size_t row = (size_t)r * hr + h;
			float amax = 0;

			for (uint32_t i = 0; i < hs; i += 2)
				amax = fmaxf(amax, hypotf(v[i], v[i + 1]));
			s->rsc[row] = amax / 127.0f;
			for (uint32_t i = 0; i < hs; i++)
				s->a8[row * hs + i] = q8of(v[i], amax > 0 ? 127.0f / amax : 0.0f);
			memcpy(s->rc + row * (hs / 2), s->cs + (size_t)(pos + r) * (hs / 2), hs / 2);
			memcpy(s->rs + row * (hs / 2), s->sn + (size_t)(pos + r) * (hs / 2), hs / 2);
		}
	ret = e1npu_ops_rope_s8(e->ops, rows, hs, s->a8, s->rc, s->rs, s->b8, &rep);
	if (ret)
		return fail(l, ret, "rope");
	for (uint32_t r = 0; r < m; r++)
		for (uint32_t h = 0; h < hr; h++) {
			float *v = e->qkvout + (size_t)r * qn + (size_t)h * hs;
			size_t row = (size_t)r * hr + h;

			for (uint32_t i = 0; i < hs; i++)
				v[i] = (float)s->b8[row * hs + i] * s->rsc[row];
		}
	note(l, LLM_OP_ROPE, &rep, 1, "q, k int8 per head (longest pair 127), cos/sin Q7", 0);
	return 0;
}

/* Per kv head, queries i = r * kv_mul + j (head g * kv_mul + j of token r). */
int llm_e1_attention(struct e1npu_llm *l, uint32_t li, uint32_t m, uint32_t pos)
{
	const struct e1npu_llm_config *c = &l->cfg;
	struct llm_int8 *e = l->q8;
	struct llm_e1ops *s = e->e1;
	uint32_t dim = c->dim, kvd = l->kv_dim, hs = l->head_size, qn = dim + 2 * kvd;
	uint32_t kvh = c->n_kv_heads, kv_mul = c->n_heads / kvh, tq = kv_mul * m, tk = pos + m;
	int att = !!(e->on_e1 & E1NPU_LLM_OPS_ATTENTION), sm = !!(e->on_e1 & E1NPU_LLM_OPS_SOFTMAX);
	size_t lo = (size_t)li * c->seq_len * kvd, rows = (size_t)kvh * tq;
	const float *kc = e->kc + lo, *vc = e->vc + lo;
	float isq = 1.0f / sqrtf((float)hs);
	struct e1npu_ops_report rep[3];
	int ret;

	/* scores sf[g][i][t], t < tk; keys past the row's position are masked */
	if (att) {
		for (uint32_t g = 0; g < kvh; g++) {
			for (uint32_t i = 0; i < tq; i++) {
				const float *q = e->qkvout + (size_t)(i / kv_mul) * qn +
						 (size_t)(g * kv_mul + i % kv_mul) * hs;
				size_t r = (size_t)g * tq + i;

				s->qs[r] = q8_row(q, hs, s->q8 + r * hs);
			}
			for (uint32_t t = 0; t < tk; t++) {
				size_t r = (size_t)g * tk + t;

				s->ks[r] = q8_row(kc + (size_t)t * kvd + (size_t)g * hs, hs,
						  s->k8 + r * hs);
			}
		}
		ret = e1npu_ops_attention_qk_s8(e->ops, 1, kvh, tq, tk, hs, s->q8, s->k8, s->s32, &rep[0]);
		if (ret)
			return fail(l, ret, "attention QK");
	}
	for (size_t gi = 0; gi < rows; gi++) {
		uint32_t g = (uint32_t)(gi / tq), i = (uint32_t)(gi % tq), last = pos + i / kv_mul;
		const float *q = e->qkvout + (size_t)(i / kv_mul) * qn + (size_t)(g * kv_mul + i % kv_mul) * hs;
		float *sr = s->sf + gi * tk, mx = -INFINITY, sum = 0;

		for (uint32_t t = 0; t <= last; t++) {
			if (att) {
				sr[t] = (float)s->s32[gi * tk + t] * s->qs[gi] * s->ks[(size_t)g * tk + t] * isq;
			} else {
				const float *k = kc + (size_t)t * kvd + (size_t)g * hs;
				float sc = 0;

				for (uint32_t d = 0; d < hs; d++)
					sc += q[d] * k[d];
				sr[t] = sc * isq;
			}
			mx = fmaxf(mx, sr[t]);
		}
		for (uint32_t t = 0; t < tk; t++) {
			s->mask[gi * tk + t] = t <= last;
			if (sm) {
				long v = t <= last ? lrintf((sr[t] - mx) * 1.44269504f) : -128;

				s->l8[gi * tk + t] = (int8_t)(v < -128 ? -128 : v > 0 ? 0 : v);
			} else if (t <= last) {
				sr[t] = expf(sr[t] - mx);
				sum += sr[t];
			}
		}
		if (!sm)
			for (uint32_t t = 0; t < tk; t++) {
				sr[t] = t <= last ? sr[t] / sum : 0;
				if (att) {
					long v = lrintf(sr[t] * 256.0f);

					s->p8[gi * tk + t] = (uint8_t)(v > 255 ? 255 : v < 0 ? 0 : v);
				}
			}
	}
	if (sm) {
		ret = e1npu_ops_softmax_exp2_s8(e->ops, (uint32_t)rows, tk, s->l8, s->mask, s->p8, &rep[2]);
		if (ret)
			return fail(l, ret, "softmax");
		note(l, LLM_OP_SOFTMAX, &rep[2], 1, "scores in units of ln 2 (int8), causal mask, Q0.8 out", 0);
		if (!att)
			for (size_t i = 0; i < rows * tk; i++)
				s->sf[i] = (float)s->p8[i] / 256.0f;
	} else {
		llm_op_note(l, LLM_OP_SOFTMAX, E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_HW_OP,
			    "host float32: exp(score - row max), normalized", 0);
	}
	if (att) {
		for (uint32_t g = 0; g < kvh; g++) {
			float amax = 0;

			for (uint32_t t = 0; t < tk; t++)
				for (uint32_t d = 0; d < hs; d++)
					amax = fmaxf(amax, fabsf(vc[(size_t)t * kvd + (size_t)g * hs + d]));
			s->vs[g] = amax / 127.0f;
			for (uint32_t t = 0; t < tk; t++)
				for (uint32_t d = 0; d < hs; d++)
					s->v8[((size_t)g * tk + t) * hs + d] =
						q8of(vc[(size_t)t * kvd + (size_t)g * hs + d], amax > 0 ? 127.0f / amax : 0.0f);
		}
		ret = e1npu_ops_attention_av_s8(e->ops, 1, kvh, tq, tk, hs, s->p8, s->v8, s->o8, &rep[1]);
		if (ret)
			return fail(l, ret, "attention AV");
	}
	for (size_t gi = 0; gi < rows; gi++) {
		uint32_t g = (uint32_t)(gi / tq), i = (uint32_t)(gi % tq);
		float *xo = e->xb + (size_t)(i / kv_mul) * dim + (size_t)(g * kv_mul + i % kv_mul) * hs;

		for (uint32_t d = 0; d < hs; d++)
			xo[d] = att ? (float)s->o8[gi * hs + d] * s->vs[g] : 0;
		for (uint32_t t = 0; !att && t < tk; t++)
			for (uint32_t d = 0; d < hs; d++)
				xo[d] += s->sf[gi * tk + t] * vc[(size_t)t * kvd + (size_t)g * hs + d];
	}
	if (att)
		note(l, LLM_OP_ATTENTION, rep, 2,
		     "QK^T and P x V int8 GEMMs per kv head; q, k per head row, v per kv head, P Q0.8",
		     (uint64_t)2 * hs * c->n_heads * ((uint64_t)m * pos + (uint64_t)m * (m + 1) / 2));
	else
		llm_op_note(l, LLM_OP_ATTENTION, E1NPU_ENGINE_CPU, E1NPU_OPS_WHY_NO_HW_OP,
			    "host float32: QK^T and P x V over the float KV cache",
			    (uint64_t)2 * hs * c->n_heads * ((uint64_t)m * pos + (uint64_t)m * (m + 1) / 2));
	return 0;
}

int llm_e1_swiglu(struct e1npu_llm *l, uint32_t m)
{
	struct llm_int8 *e = l->q8;
	struct llm_e1ops *s = e->e1;
	uint32_t hid = l->cfg.hidden_dim;
	struct e1npu_ops_report rep;
	int ret;

	for (uint32_t r = 0; r < m; r++)
		for (uint32_t i = 0; i < hid; i++) {
			long v = lrintf(e->h13[(size_t)r * 2 * hid + i]);

			s->a8[(size_t)r * hid + i] = (int8_t)(v > 127 ? 127 : v < -128 ? -128 : v);
		}
	ret = e1npu_ops_silu_s8(e->ops, (size_t)m * hid, s->a8, s->b8, &rep);
	if (ret)
		return fail(l, ret, "swiglu's silu");
	for (uint32_t r = 0; r < m; r++)
		for (uint32_t i = 0; i < hid; i++)
			e->hb[(size_t)r * hid + i] = (float)s->b8[(size_t)r * hid + i] *
						     e->h13[(size_t)r * 2 * hid + hid + i];
	note(l, LLM_OP_SWIGLU, &rep, 1, "silu of w1 x as int8 at scale 1 (the exp2 sigmoid's argument), times w3 x on the host", 0);
	return 0;
}
