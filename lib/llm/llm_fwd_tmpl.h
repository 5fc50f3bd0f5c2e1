/* SPDX-License-Identifier: MIT */
/*
 * libe1npu language models: the floating-point forward pass of one token,
 * written once for REAL = float (llm_fwd_f32.c, the reference path) and
 * REAL = double (llm_fwd_f64.c, the cross-check). The includer defines
 * REAL, FN(name) (a suffixed name) and the math functions SQRT, EXP, POW,
 * COS, SIN of that type.
 *
 * The arithmetic is llama2.c's run.c: RMSNorm (eps 1e-5), RoPE on each
 * (even, odd) pair of a head with frequency 1 / 10000^(i / head_size),
 * grouped-query attention (kv head = head / (n_heads / n_kv_heads)),
 * softmax with the maximum subtracted, SwiGLU silu(w1 x) * (w3 x) then
 * w2, residual adds, a final RMSNorm and the classifier.
 */

struct FN(state) {
	const REAL *emb, *rms_att, *wq, *wk, *wv, *wo, *rms_ffn, *w1, *w2, *w3,
		*rms_final, *wcls;
	REAL *x, *xb, *xb2, *hb, *hb2, *q, *att, *logits, *kc, *vc;
};

static void FN(rmsnorm)(REAL *o, const REAL *x, const REAL *w, uint32_t n)
{
	REAL ss = 0;

	for (uint32_t i = 0; i < n; i++)
		ss += x[i] * x[i];
	ss /= (REAL)n;
	ss += (REAL)1e-5;
	ss = (REAL)1 / SQRT(ss);
	for (uint32_t i = 0; i < n; i++)
		o[i] = w[i] * (ss * x[i]);
}

/* o[i] = sum_j w[i][j] x[j], w [d][n] */
static void FN(matvec)(REAL *o, const REAL *x, const REAL *w, uint32_t n,
		       uint32_t d)
{
	for (uint32_t i = 0; i < d; i++) {
		const REAL *row = w + (size_t)i * n;
		REAL v = 0;

		for (uint32_t j = 0; j < n; j++)
			v += row[j] * x[j];
		o[i] = v;
	}
}

static void FN(softmax)(REAL *x, uint32_t n)
{
	REAL mx = x[0], sum = 0;

	for (uint32_t i = 1; i < n; i++)
		if (x[i] > mx)
			mx = x[i];
	for (uint32_t i = 0; i < n; i++) {
		x[i] = EXP(x[i] - mx);
		sum += x[i];
	}
	for (uint32_t i = 0; i < n; i++)
		x[i] /= sum;
}

static void FN(forward)(const struct e1npu_llm_config *c, uint32_t hs,
			uint32_t kvd, struct FN(state) *s, int32_t tok,
			uint32_t pos)
{
	uint32_t dim = c->dim, hid = c->hidden_dim, kv_mul = c->n_heads / c->n_kv_heads;
	size_t seq = c->seq_len;

	memcpy(s->x, s->emb + (size_t)tok * dim, dim * sizeof(REAL));
	for (uint32_t l = 0; l < c->n_layers; l++) {
		size_t lo = (size_t)l * seq * kvd;
		REAL *k = s->kc + lo + (size_t)pos * kvd;
		REAL *v = s->vc + lo + (size_t)pos * kvd;

		FN(rmsnorm)(s->xb, s->x, s->rms_att + (size_t)l * dim, dim);
		FN(matvec)(s->q, s->xb, s->wq + (size_t)l * dim * dim, dim, dim);
		FN(matvec)(k, s->xb, s->wk + (size_t)l * kvd * dim, dim, kvd);
		FN(matvec)(v, s->xb, s->wv + (size_t)l * kvd * dim, dim, kvd);
		for (uint32_t i = 0; i < dim; i += 2) {
			REAL freq = (REAL)1 / POW((REAL)10000, (REAL)(i % hs) / (REAL)hs);
			REAL val = (REAL)pos * freq, fr = COS(val), fi = SIN(val);

			for (int t = 0; t < (i < kvd ? 2 : 1); t++) {
				REAL *vec = t ? k : s->q;
				REAL v0 = vec[i], v1 = vec[i + 1];

				vec[i] = v0 * fr - v1 * fi;
				vec[i + 1] = v0 * fi + v1 * fr;
			}
		}
		for (uint32_t h = 0; h < c->n_heads; h++) {
			const REAL *qh = s->q + (size_t)h * hs;
			REAL *att = s->att + (size_t)h * seq;
			REAL *xbh = s->xb + (size_t)h * hs;
			size_t ko = (size_t)(h / kv_mul) * hs;

			for (uint32_t t = 0; t <= pos; t++) {
				const REAL *kt = s->kc + lo + (size_t)t * kvd + ko;
				REAL sc = 0;

				for (uint32_t i = 0; i < hs; i++)
					sc += qh[i] * kt[i];
				att[t] = sc / SQRT((REAL)hs);
			}
			FN(softmax)(att, pos + 1);
			memset(xbh, 0, hs * sizeof(REAL));
			for (uint32_t t = 0; t <= pos; t++) {
				const REAL *vt = s->vc + lo + (size_t)t * kvd + ko;

				for (uint32_t i = 0; i < hs; i++)
					xbh[i] += att[t] * vt[i];
			}
		}
		FN(matvec)(s->xb2, s->xb, s->wo + (size_t)l * dim * dim, dim, dim);
		for (uint32_t i = 0; i < dim; i++)
			s->x[i] += s->xb2[i];
		FN(rmsnorm)(s->xb, s->x, s->rms_ffn + (size_t)l * dim, dim);
		FN(matvec)(s->hb, s->xb, s->w1 + (size_t)l * hid * dim, dim, hid);
		FN(matvec)(s->hb2, s->xb, s->w3 + (size_t)l * hid * dim, dim, hid);
		for (uint32_t i = 0; i < hid; i++) {
			REAL a = s->hb[i];

			a *= (REAL)1 / ((REAL)1 + EXP(-a));
			s->hb[i] = a * s->hb2[i];
		}
		FN(matvec)(s->xb, s->hb, s->w2 + (size_t)l * dim * hid, hid, dim);
		for (uint32_t i = 0; i < dim; i++)
			s->x[i] += s->xb[i];
	}
	FN(rmsnorm)(s->x, s->x, s->rms_final, dim);
	FN(matvec)(s->logits, s->x, s->wcls, dim, c->vocab_size);
}

/* Allocates the activations and the KV cache of @s (l's shapes). */
static int FN(state_alloc)(struct e1npu_llm *l, struct FN(state) *s)
{
	const struct e1npu_llm_config *c = &l->cfg;
	size_t kvn, attn;

	if (!llm_size_mul(&kvn, (size_t)c->n_layers * c->seq_len, l->kv_dim) ||
	    !llm_size_mul(&kvn, kvn, sizeof(REAL)) ||
	    !llm_size_mul(&attn, (size_t)c->n_heads * sizeof(REAL), c->seq_len))
		return llm_seterr(l, -ENOMEM, "KV cache of n_layers %u x seq_len %u x kv_dim %u overflows size_t",
				  c->n_layers, c->seq_len, l->kv_dim);
	s->x = calloc(c->dim, sizeof(REAL));
	s->xb = calloc(c->dim, sizeof(REAL));
	s->xb2 = calloc(c->dim, sizeof(REAL));
	s->hb = calloc(c->hidden_dim, sizeof(REAL));
	s->hb2 = calloc(c->hidden_dim, sizeof(REAL));
	s->q = calloc(c->dim, sizeof(REAL));
	s->att = malloc(attn);
	s->logits = calloc(c->vocab_size, sizeof(REAL));
	s->kc = calloc(1, kvn);
	s->vc = calloc(1, kvn);
	if (!s->x || !s->xb || !s->xb2 || !s->hb || !s->hb2 || !s->q || !s->att ||
	    !s->logits || !s->kc || !s->vc)
		return llm_seterr(l, -ENOMEM, "out of memory for the activations and the %zu-byte KV cache (seq_len %u)",
				  2 * kvn, c->seq_len);
	return 0;
}

static void FN(state_free)(struct FN(state) *s)
{
	free(s->x);
	free(s->xb);
	free(s->xb2);
	free(s->hb);
	free(s->hb2);
	free(s->q);
	free(s->att);
	free(s->logits);
	free(s->kc);
	free(s->vc);
}
