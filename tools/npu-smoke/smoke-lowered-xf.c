// SPDX-License-Identifier: MIT
/*
 * Lowered smoke cases, transformer family: SiLU, QuickGELU, RMSNorm, RoPE,
 * attention QK and AV, multi-head attention (causal with exp2 and exact
 * softmax, sliding window), QKV projection, KV-cache append, decode attention, MLP,
 * SwiGLU, the transformer block and the decoder block, against lib/ref
 * (QK and AV against the naive loops below: lib/ref has them only inside
 * ref_attention()).
 */
#include <stdlib.h>
#include <string.h>

#include "smoke-lowered.h"
/* lib/ref: the naive references, linked from libe1npu.a */
#include "../../lib/ref/ref.h"

/* p: 0 silu, 1 quick_gelu; count */
static int c_act(struct lcase *c, const uint32_t *p)
{
	size_t n = p[1];
	int8_t *in = lc_s8(c, n, -128, 127), *out = lc_out(c, n), *ref = lc_alloc(c, n);
	int ret;

	ret = p[0] ? e1npu_ops_quick_gelu_s8(c->ops, n, in, out, c->rep)
		   : e1npu_ops_silu_s8(c->ops, n, in, out, c->rep);
	if (ret)
		return ret;
	if (p[0])
		ref_quick_gelu(n, in, ref);
	else
		ref_silu(n, in, ref);
	lc_check(c, out, ref, n, SMOKE_S8, "output");
	return 0;
}

/* p: rows, d */
static int c_rmsnorm(struct lcase *c, const uint32_t *p)
{
	size_t n = (size_t)p[0] * p[1];
	int8_t *x = lc_s8(c, n, -128, 127), *g = lc_s8(c, p[1], -128, 127);
	int8_t *out = lc_out(c, n), *ref = lc_alloc(c, n);
	int ret;

	ret = e1npu_ops_rmsnorm_s8(c->ops, p[0], p[1], x, g, 6, 3, out, c->rep);
	if (ret)
		return ret;
	ref_rmsnorm(p[0], p[1], x, g, 6, 3, ref);
	lc_check(c, out, ref, n, SMOKE_S8, "output");
	return 0;
}

/* p: rows, d */
static int c_rope(struct lcase *c, const uint32_t *p)
{
	size_t n = (size_t)p[0] * p[1];
	int8_t *x = lc_s8(c, n, -128, 127);
	int8_t *cs = lc_s8(c, n / 2, -127, 127), *sn = lc_s8(c, n / 2, -127, 127);
	int8_t *out = lc_out(c, n), *ref = lc_alloc(c, n);
	int ret;

	ret = e1npu_ops_rope_s8(c->ops, p[0], p[1], x, cs, sn, out, c->rep);
	if (ret)
		return ret;
	ref_rope(p[0], p[1], x, cs, sn, ref);
	lc_check(c, out, ref, n, SMOKE_S8, "output");
	return 0;
}

/* p: batch, heads, tq, tk, dim */
static int c_qk(struct lcase *c, const uint32_t *p)
{
	uint32_t ns = p[0] * p[1], tq = p[2], tk = p[3], d = p[4], s, j, x;
	int8_t *q = lc_s8(c, (size_t)ns * tq * d, -128, 127);
	int8_t *k = lc_s8(c, (size_t)ns * tk * d, -128, 127), *kt = lc_alloc(c, (size_t)d * tk);
	int32_t *out = lc_out(c, (size_t)ns * tq * tk * 4), *ref = lc_alloc(c, (size_t)ns * tq * tk * 4);
	int ret;

	ret = e1npu_ops_attention_qk_s8(c->ops, p[0], p[1], tq, tk, d, q, k, out, c->rep);
	if (ret)
		return ret;
	/* scores = Q K^T per slice */
	for (s = 0; s < ns; s++) {
		for (j = 0; j < tk; j++)
			for (x = 0; x < d; x++)
				kt[(size_t)x * tk + j] = k[((size_t)s * tk + j) * d + x];
		ref_matmul_s32(tq, tk, d, q + (size_t)s * tq * d, d, kt, tk,
			       ref + (size_t)s * tq * tk, tk);
	}
	lc_check(c, out, ref, (size_t)ns * tq * tk, SMOKE_S32, "scores");
	return 0;
}

static int8_t sat8(int64_t v)
{
	return (int8_t)(v > 127 ? 127 : v < -128 ? -128 : v);
}

/* floor(v / 128), also for negative v */
static int64_t floor_div128(int64_t v)
{
	return v >= 0 ? v / 128 : -((-v + 127) / 128);
}

/* p: batch, heads, tq, tk, dim */
static int c_av(struct lcase *c, const uint32_t *p)
{
	uint32_t ns = p[0] * p[1], tq = p[2], tk = p[3], d = p[4], s, i, j, x;
	uint8_t *pr = lc_u8(c, (size_t)ns * tq * tk);
	int8_t *v = lc_s8(c, (size_t)ns * tk * d, -128, 127);
	int8_t *out = lc_out(c, (size_t)ns * tq * d), *ref = lc_alloc(c, (size_t)ns * tq * d);
	int ret;

	ret = e1npu_ops_attention_av_s8(c->ops, p[0], p[1], tq, tk, d, pr, v, out, c->rep);
	if (ret)
		return ret;
	/* Q0.8 -> Q0.7 probabilities, context = sat8(round(sum p7 v / 128)) */
	for (s = 0; s < ns; s++)
		for (i = 0; i < tq; i++)
			for (x = 0; x < d; x++) {
				int64_t acc = 0;

				for (j = 0; j < tk; j++) {
					int32_t p7 = (pr[((size_t)s * tq + i) * tk + j] + 1) >> 1;

					acc += (p7 > 127 ? 127 : p7) * v[((size_t)s * tk + j) * d + x];
				}
				ref[((size_t)s * tq + i) * d + x] = sat8(floor_div128(acc + 64));
			}
	lc_check(c, out, ref, (size_t)ns * tq * d, SMOKE_S8, "context");
	return 0;
}

static void attn_params(struct e1npu_attention_params *a, const uint32_t *p)
{
	memset(a, 0, sizeof(*a));
	a->batch = p[0];
	a->heads = p[1];
	a->tq = p[2];
	a->tk = p[3];
	a->dim = p[4];
	a->mask = p[6];
	a->window = p[7];
	a->softmax = p[5];
	a->qk = lc_requant(1.0 / (64.0 * p[4]));
	a->logit_scale = 0.125f;
	a->beta = 1.0f;
}

/* p: batch, heads, tq, tk, dim, softmax mode, mask, window */
static int c_mha(struct lcase *c, const uint32_t *p)
{
	struct e1npu_attention_params a;
	size_t nq = (size_t)p[0] * p[1] * p[2] * p[4], nk = (size_t)p[0] * p[1] * p[3] * p[4];
	int8_t *q = lc_s8(c, nq, -128, 127), *k = lc_s8(c, nk, -128, 127), *v = lc_s8(c, nk, -128, 127);
	int8_t *out = lc_out(c, nq), *ref = lc_alloc(c, nq);
	int ret;

	attn_params(&a, p);
	ret = e1npu_ops_attention_s8(c->ops, &a, q, k, v, out, c->rep);
	if (ret)
		return ret;
	ret = ref_attention(&a, q, k, v, ref);
	if (ret)
		return lc_ref_failed(c, "ref_attention", ret);
	lc_check(c, out, ref, nq, SMOKE_S8, "output");
	return 0;
}

/* p: t, dm */
static int c_qkv(struct lcase *c, const uint32_t *p)
{
	uint32_t t = p[0], dm = p[1], i;
	size_t n = (size_t)t * dm;
	struct e1npu_requant rq[3] = { lc_requant(1.0 / 512), lc_requant(1.0 / 700), lc_requant(0.001) };
	const struct e1npu_requant *rqs[3] = { &rq[0], &rq[1], &rq[2] };
	int8_t *x = lc_s8(c, n, -128, 127), *w = lc_s8(c, (size_t)dm * 3 * dm, -128, 127);
	int8_t *out[3], *ref[3];
	static const char *const what[3] = { "Q", "K", "V" };
	int ret;

	for (i = 0; i < 3; i++) {
		out[i] = lc_out(c, n);
		ref[i] = lc_alloc(c, n);
	}
	ret = e1npu_ops_qkv_projection_s8(c->ops, t, dm, x, w, &rq[0], &rq[1], &rq[2],
					  out[0], out[1], out[2], c->rep);
	if (ret)
		return ret;
	ref_qkv(t, dm, x, w, rqs, ref);
	for (i = 0; i < 3; i++)
		lc_check(c, out[i], ref[i], n, SMOKE_S8, what[i]);
	return 0;
}

/* KV-cache operands: caches [h][cap][d] partly filled, @lens per head. */
struct kv {
	uint32_t heads, cap, dim, tnew;
	int8_t *kc, *vc, *kn, *vn, *kr, *vr;
	uint32_t lens[4], lr[4];
};

/* p: heads (<= 4), cap, dim, tnew; head h holds 3 + 2h tokens */
static void kv_setup(struct lcase *c, const uint32_t *p, struct kv *s)
{
	size_t nc = (size_t)p[0] * p[1] * p[2], nn = (size_t)p[0] * p[3] * p[2];
	uint32_t h;

	s->heads = p[0];
	s->cap = p[1];
	s->dim = p[2];
	s->tnew = p[3];
	s->kc = lc_s8(c, nc, -100, 100);
	s->vc = lc_s8(c, nc, -100, 100);
	s->kn = lc_s8(c, nn, -100, 100);
	s->vn = lc_s8(c, nn, -100, 100);
	s->kr = lc_alloc(c, nc);
	s->vr = lc_alloc(c, nc);
	/* the reference caches: the new tokens copied after each head's */
	memcpy(s->kr, s->kc, nc);
	memcpy(s->vr, s->vc, nc);
	for (h = 0; h < s->heads; h++) {
		size_t at = ((size_t)h * s->cap + 3 + 2 * h) * s->dim, from = (size_t)h * s->tnew * s->dim;

		s->lens[h] = 3 + 2 * h;
		s->lr[h] = s->lens[h] + s->tnew;
		memcpy(s->kr + at, s->kn + from, (size_t)s->tnew * s->dim);
		memcpy(s->vr + at, s->vn + from, (size_t)s->tnew * s->dim);
	}
}

static void kv_check(struct lcase *c, struct kv *s)
{
	size_t nc = (size_t)s->heads * s->cap * s->dim;

	lc_check(c, s->kc, s->kr, nc, SMOKE_S8, "K cache");
	lc_check(c, s->vc, s->vr, nc, SMOKE_S8, "V cache");
	lc_check(c, s->lens, s->lr, s->heads, SMOKE_S32, "lengths");
}

/* p: heads, cap, dim, tnew */
static int c_kv_append(struct lcase *c, const uint32_t *p)
{
	struct kv s;
	int ret;

	memset(&s, 0, sizeof(s));
	kv_setup(c, p, &s);
	ret = e1npu_ops_kv_cache_append_s8(c->ops, 1, s.heads, s.cap, s.dim, s.kc, s.vc,
					   s.lens, s.tnew, s.kn, s.vn, c->rep);
	if (ret)
		return ret;
	kv_check(c, &s);
	return 0;
}

/* p: heads, cap, dim, tnew: append, then causal attention over each cache */
static int c_decode(struct lcase *c, const uint32_t *p)
{
	struct e1npu_attention_params a, ah;
	size_t nq = (size_t)p[0] * p[3] * p[2];
	int8_t *q, *out, *ref;
	uint32_t h;
	struct kv s;
	int ret;

	memset(&s, 0, sizeof(s));
	kv_setup(c, p, &s);
	q = lc_s8(c, nq, -100, 100);
	out = lc_out(c, nq);
	ref = lc_alloc(c, nq);
	memset(&a, 0, sizeof(a));
	a.batch = 1;
	a.heads = s.heads;
	a.dim = s.dim;
	a.mask = E1NPU_MASK_CAUSAL;
	a.softmax = E1NPU_SOFTMAX_EXP2;
	a.qk = lc_requant(1.0 / 64);
	ret = e1npu_ops_decode_attention_s8(c->ops, &a, s.cap, s.kc, s.vc, s.lens, s.tnew, q,
					    s.kn, s.vn, out, c->rep);
	if (ret)
		return ret;
	for (h = 0; h < s.heads; h++) {
		size_t qo = (size_t)h * s.tnew * s.dim, co = (size_t)h * s.cap * s.dim;

		ah = a;
		ah.heads = 1;
		ah.tq = s.tnew;
		ah.tk = s.lr[h];
		ret = ref_attention(&ah, q + qo, s.kr + co, s.vr + co, ref + qo);
		if (ret)
			return lc_ref_failed(c, "ref_attention", ret);
	}
	kv_check(c, &s);
	lc_check(c, out, ref, nq, SMOKE_S8, "output");
	return 0;
}

/* p: 0 MLP (ReLU), 1 SwiGLU; t, dm, dh */
static int c_ffn(struct lcase *c, const uint32_t *p)
{
	uint32_t t = p[1], dm = p[2], dh = p[3];
	struct e1npu_requant rh = lc_requant(1.0 / 512), ro = lc_requant(1.0 / 700);
	int8_t *x = lc_s8(c, (size_t)t * dm, -128, 127);
	int8_t *w1 = lc_s8(c, (size_t)dm * dh, -128, 127), *wg = lc_s8(c, (size_t)dm * dh, -128, 127);
	int8_t *w2 = lc_s8(c, (size_t)dh * dm, -128, 127);
	int8_t *out = lc_out(c, (size_t)t * dm), *ref = lc_alloc(c, (size_t)t * dm);
	int ret;

	ret = p[0] ? e1npu_ops_swiglu_s8(c->ops, t, dm, dh, x, w1, wg, w2, &rh, 6, &ro, out, c->rep)
		   : e1npu_ops_mlp_relu_s8(c->ops, t, dm, dh, x, w1, w2, &rh, &ro, out, c->rep);
	if (ret)
		return ret;
	if (p[0])
		ref_swiglu(t, dm, dh, x, w1, wg, w2, &rh, 6, &ro, ref);
	else
		ref_mlp(t, dm, dh, x, w1, w2, &rh, &ro, ref);
	lc_check(c, out, ref, (size_t)t * dm, SMOKE_S8, "output");
	return 0;
}

/* p: t, d, dh */
static int c_xformer(struct lcase *c, const uint32_t *p)
{
	uint32_t t = p[0], d = p[1], dh = p[2];
	struct e1npu_requant rh = lc_requant(1.0 / 600), ro = lc_requant(1.0 / 900);
	int8_t *x = lc_s8(c, (size_t)t * d, -128, 127), *v = lc_s8(c, (size_t)t * d, -128, 127);
	int8_t *bias = lc_s8(c, d, -20, 20), *w1 = lc_s8(c, (size_t)d * dh, -128, 127);
	int8_t *w2 = lc_s8(c, (size_t)dh * d, -128, 127);
	uint8_t *pr = lc_u8(c, (size_t)t * t);
	int8_t *out = lc_out(c, (size_t)t * d), *ref = lc_alloc(c, (size_t)t * d);
	int ret;

	ret = e1npu_ops_transformer_block_s8(c->ops, t, d, dh, x, pr, v, bias, w1, w2, &rh, &ro,
					     out, c->rep);
	if (ret)
		return ret;
	ref_transformer_block(t, d, dh, x, pr, v, bias, w1, w2, &rh, &ro, ref);
	lc_check(c, out, ref, (size_t)t * d, SMOKE_S8, "output");
	return 0;
}

/* p: t, d, dh, heads (causal) */
static int c_decoder(struct lcase *c, const uint32_t *p)
{
	uint32_t t = p[0], d = p[1], dh = p[2];
	struct e1npu_decoder_params dp;
	int8_t *x = lc_s8(c, (size_t)t * d, -128, 127);
	int8_t *out, *ref;
	int ret;

	memset(&dp, 0, sizeof(dp));
	dp.t = t;
	dp.d = d;
	dp.dh = dh;
	dp.heads = p[3];
	dp.gamma_frac = 6;
	dp.norm_frac = 5;
	dp.g1 = lc_s8(c, d, 20, 100);
	dp.g2 = lc_s8(c, d, 20, 100);
	dp.wqkv = lc_s8(c, (size_t)d * 3 * d, -128, 127);
	dp.rq_q = dp.rq_k = dp.rq_hidden = lc_requant(1.0 / 600);
	dp.rq_v = dp.rq_out = lc_requant(1.0 / 900);
	dp.cos = lc_s8(c, (size_t)t * (d / p[3] / 2), -127, 127);
	dp.sin = lc_s8(c, (size_t)t * (d / p[3] / 2), -127, 127);
	dp.mask = E1NPU_MASK_CAUSAL;
	dp.rq_qk = lc_requant(1.0 / 256);
	dp.bias = lc_s8(c, d, -20, 20);
	dp.wu = lc_s8(c, (size_t)d * dh, -128, 127);
	dp.wg = lc_s8(c, (size_t)d * dh, -128, 127);
	dp.wd = lc_s8(c, (size_t)dh * d, -128, 127);
	dp.gate_shift = 5;
	out = lc_out(c, (size_t)t * d);
	ref = lc_alloc(c, (size_t)t * d);
	ret = e1npu_ops_decoder_block_s8(c->ops, &dp, x, out, c->rep);
	if (ret)
		return ret;
	ret = ref_decoder_block(&dp, x, ref);
	if (ret)
		return lc_ref_failed(c, "ref_decoder_block", ret);
	lc_check(c, out, ref, (size_t)t * d, SMOKE_S8, "output");
	return 0;
}

#define EXP2	E1NPU_SOFTMAX_EXP2
#define EXACT	E1NPU_SOFTMAX_EXACT
#define CAUSAL	E1NPU_MASK_CAUSAL
#define SLIDING	E1NPU_MASK_SLIDING

const struct lcase_def lowered_xf[] = {
	{ "silu s8 300", c_act, { 0, 300 } },
	{ "quick_gelu s8 300", c_act, { 1, 300 } },
	{ "rmsnorm s8 7x20", c_rmsnorm, { 7, 20 } },
	{ "rope s8 7x20", c_rope, { 7, 20 } },
	{ "attention_qk 2x2 4x6 d5", c_qk, { 2, 2, 4, 6, 5 } },
	{ "attention_av 2x2 4x6 d5", c_av, { 2, 2, 4, 6, 5 } },
	{ "mha causal exp2 2x3 5x5 d8", c_mha, { 2, 3, 5, 5, 8, EXP2, CAUSAL } },
	{ "mha causal exact 2x1 6x6 d4", c_mha, { 2, 1, 6, 6, 4, EXACT, CAUSAL } },
	{ "mha sliding(3) exp2 1x2 7x9 d16", c_mha, { 1, 2, 7, 9, 16, EXP2, SLIDING, 3 } },
	{ "qkv_projection 5x24", c_qkv, { 5, 24 } },
	{ "kv_cache_append h2 cap8 d4 +2", c_kv_append, { 2, 8, 4, 2 } },
	{ "decode_attention h2 cap8 d4 +2", c_decode, { 2, 8, 4, 2 } },
	{ "mlp_relu 5x24x40", c_ffn, { 0, 5, 24, 40 } },
	{ "swiglu 5x24x40", c_ffn, { 1, 5, 24, 40 } },
	{ "transformer_block 16x16x32", c_xformer, { 16, 16, 32 } },
	{ "decoder_block 6x16x24 h2 causal", c_decoder, { 6, 16, 24, 2 } },
};

const size_t lowered_xf_count = sizeof(lowered_xf) / sizeof(lowered_xf[0]);
