// SPDX-License-Identifier: MIT
/*
 * Transformer pieces against the naive references (lib/ref/ref_xformer.c)
 * and hand-worked values, on the sim device and the CPU.
 */
#include "ops-test.h"
#include "ref.h"

static struct e1npu_requant rq(double scale)
{
	struct e1npu_requant r;

	assert_int_equal(e1npu_requant_from_scale(scale, 0, &r), 0);
	return r;
}

static void test_elementwise(void **state)
{
	struct ops_env *e = *state;
	int8_t x[300], b[300], o[300], r[300];
	int8_t h[4] = { 0, 8, -1, 10 }, ho[4];
	uint64_t seed = 2;

	t_fill_s8(x, 300, -128, 127, &seed);
	t_fill_s8(b, 300, -128, 127, &seed);
	assert_int_equal(e1npu_ops_residual_add_s8(e->ops, 300, x, b, o, NULL), 0);
	ref_residual_add(300, x, b, r);
	assert_memory_equal(o, r, 300);
	assert_int_equal(e1npu_ops_bias_add_s8(e->ops, 20, 15, x, b, o, NULL), 0);
	ref_bias_add(20, 15, x, b, r);
	assert_memory_equal(o, r, 300);
	/* silu: 0 -> 0; 8: sig = 256 - (256 >> 8) / 2 = 256 -> 8; -1: sig 64 -> floor(64/256) = 0 */
	assert_int_equal(e1npu_ops_silu_s8(e->ops, 4, h, ho, NULL), 0);
	assert_int_equal(ho[0], 0);
	assert_int_equal(ho[1], 8);
	assert_int_equal(ho[2], 0);
	assert_int_equal(ho[3], 10);
	assert_int_equal(e1npu_ops_silu_s8(e->ops, 300, x, o, NULL), 0);
	ref_silu(300, x, r);
	assert_memory_equal(o, r, 300);
	assert_int_equal(e1npu_ops_quick_gelu_s8(e->ops, 300, x, o, NULL), 0);
	ref_quick_gelu(300, x, r);
	assert_memory_equal(o, r, 300);
}

static void test_rmsnorm_rope(void **state)
{
	struct ops_env *e = *state;
	int8_t x[2] = { 3, 4 }, g[2] = { 64, 64 }, o[2];
	int8_t rx[2] = { 64, 0 }, c[1] = { 127 }, s[1] = { 0 };
	int8_t bx[7 * 20], bg[20], bc[7 * 10], bs[7 * 10], bo[7 * 20], br[7 * 20];
	uint64_t seed = 5;

	/* ss 25, mean 12, isqrt 3, inv 21845: 3 -> 15.9998 -> 16, 4 -> 21.33 -> 21 */
	assert_int_equal(e1npu_ops_rmsnorm_s8(e->ops, 1, 2, x, g, 6, 4, o, NULL), 0);
	assert_int_equal(o[0], 16);
	assert_int_equal(o[1], 21);
	/* (64, 0) rotated by c = 127/128, s = 0: (64*127 + 64) >> 7 = 64, 0 */
	assert_int_equal(e1npu_ops_rope_s8(e->ops, 1, 2, rx, c, s, o, NULL), 0);
	assert_int_equal(o[0], 64);
	assert_int_equal(o[1], 0);
	t_fill_s8(bx, sizeof(bx), -128, 127, &seed);
	t_fill_s8(bg, sizeof(bg), -128, 127, &seed);
	t_fill_s8(bc, sizeof(bc), -127, 127, &seed);
	t_fill_s8(bs, sizeof(bs), -127, 127, &seed);
	assert_int_equal(e1npu_ops_rmsnorm_s8(e->ops, 7, 20, bx, bg, 6, 3, bo, NULL), 0);
	ref_rmsnorm(7, 20, bx, bg, 6, 3, br);
	assert_memory_equal(bo, br, sizeof(bo));
	assert_int_equal(e1npu_ops_rope_s8(e->ops, 7, 20, bx, bc, bs, bo, NULL), 0);
	ref_rope(7, 20, bx, bc, bs, br);
	assert_memory_equal(bo, br, sizeof(bo));
	bc[0] = -128;
	assert_int_equal(e1npu_ops_rope_s8(e->ops, 7, 20, bx, bc, bs, bo, NULL), -ERANGE);
}

static void attn_case(struct ops_env *e, uint32_t B, uint32_t H, uint32_t tq,
		      uint32_t tk, uint32_t dim, uint32_t mask, uint32_t window,
		      uint32_t sm, uint64_t seed)
{
	struct e1npu_attention_params p;
	struct e1npu_ops_report rep;
	size_t nq = (size_t)B * H * tq * dim, nk = (size_t)B * H * tk * dim;
	int8_t *q = malloc(nq), *k = malloc(nk), *v = malloc(nk);
	int8_t *o = malloc(nq), *r = malloc(nq);

	memset(&p, 0, sizeof(p));
	p.batch = B;
	p.heads = H;
	p.tq = tq;
	p.tk = tk;
	p.dim = dim;
	p.mask = mask;
	p.window = window;
	p.softmax = sm;
	p.qk = rq(1.0 / (64.0 * dim));
	p.logit_scale = 0.125f;
	p.beta = 1.0f;
	t_fill_s8(q, nq, -128, 127, &seed);
	t_fill_s8(k, nk, -128, 127, &seed);
	t_fill_s8(v, nk, -128, 127, &seed);
	assert_int_equal(ref_attention(&p, q, k, v, r), 0);
	assert_int_equal(e1npu_ops_attention_s8(e->ops, &p, q, k, v, o, &rep), 0);
	assert_memory_equal(o, r, nq);
	assert_int_equal(rep.kind, E1NPU_OPS_ATTENTION);
	free(q);
	free(k);
	free(v);
	free(o);
	free(r);
}

static void test_attention(void **state)
{
	struct ops_env *e = *state;

	attn_case(e, 1, 1, 1, 1, 1, E1NPU_MASK_NONE, 0, E1NPU_SOFTMAX_EXP2, 1);
	attn_case(e, 2, 3, 5, 5, 8, E1NPU_MASK_CAUSAL, 0, E1NPU_SOFTMAX_EXP2, 2);
	attn_case(e, 1, 2, 7, 9, 16, E1NPU_MASK_SLIDING, 3, E1NPU_SOFTMAX_EXP2, 3);
	attn_case(e, 1, 2, 17, 17, 32, E1NPU_MASK_NONE, 0, E1NPU_SOFTMAX_EXACT, 4);
	attn_case(e, 2, 1, 6, 6, 4, E1NPU_MASK_CAUSAL, 0, E1NPU_SOFTMAX_EXACT, 5);
	attn_case(e, 1, 1, 4, 10, 5, E1NPU_MASK_SLIDING, 2, E1NPU_SOFTMAX_EXACT, 6);
}

static void test_qk_av(void **state)
{
	struct ops_env *e = *state;
	const uint32_t B = 2, H = 2, TQ = 4, TK = 6, D = 5;
	int8_t q[2 * 2 * 4 * 5], k[2 * 2 * 6 * 5], o[2 * 2 * 4 * 5];
	int32_t s[2 * 2 * 4 * 6];
	uint8_t p[2 * 2 * 4 * 6];
	uint64_t seed = 7;

	t_fill_s8(q, sizeof(q), -128, 127, &seed);
	t_fill_s8(k, sizeof(k), -128, 127, &seed);
	assert_int_equal(e1npu_ops_attention_qk_s8(e->ops, B, H, TQ, TK, D, q, k, s, NULL), 0);
	for (uint32_t sl = 0; sl < B * H; sl++)
		for (uint32_t i = 0; i < TQ; i++)
			for (uint32_t j = 0; j < TK; j++) {
				int32_t acc = 0;

				for (uint32_t x = 0; x < D; x++)
					acc += q[(sl * TQ + i) * D + x] * k[(sl * TK + j) * D + x];
				assert_int_equal(s[(sl * TQ + i) * TK + j], acc);
			}
	t_fill_u8(p, sizeof(p), &seed);
	assert_int_equal(e1npu_ops_attention_av_s8(e->ops, B, H, TQ, TK, D, p, k, o, NULL), 0);
	for (uint32_t sl = 0; sl < B * H; sl++)
		for (uint32_t i = 0; i < TQ; i++)
			for (uint32_t x = 0; x < D; x++) {
				int64_t acc = 0, f;

				for (uint32_t j = 0; j < TK; j++) {
					int32_t p7 = (p[(sl * TQ + i) * TK + j] + 1) >> 1;

					acc += (p7 > 127 ? 127 : p7) * k[(sl * TK + j) * D + x];
				}
				f = (acc + 64) >= 0 ? (acc + 64) / 128 : -((-(acc + 64) + 127) / 128);
				f = f > 127 ? 127 : f < -128 ? -128 : f;
				assert_int_equal(o[(sl * TQ + i) * D + x], f);
			}
}

static void test_kv_decode(void **state)
{
	struct ops_env *e = *state;
	const uint32_t B = 1, H = 2, CAP = 8, D = 4;
	int8_t kc[2 * 8 * 4] = { 0 }, vc[2 * 8 * 4] = { 0 }, kn[2 * 2 * 4], vn[2 * 2 * 4];
	int8_t q[2 * 2 * 4], o[2 * 2 * 4], r[2 * 2 * 4];
	uint32_t lens[2] = { 3, 5 };
	struct e1npu_attention_params p;
	uint64_t seed = 11;

	t_fill_s8(kc, sizeof(kc), -100, 100, &seed);
	t_fill_s8(vc, sizeof(vc), -100, 100, &seed);
	t_fill_s8(kn, sizeof(kn), -100, 100, &seed);
	t_fill_s8(vn, sizeof(vn), -100, 100, &seed);
	t_fill_s8(q, sizeof(q), -100, 100, &seed);
	memset(&p, 0, sizeof(p));
	p.batch = B;
	p.heads = H;
	p.dim = D;
	p.mask = E1NPU_MASK_CAUSAL;
	p.softmax = E1NPU_SOFTMAX_EXP2;
	p.qk = rq(1.0 / 64);
	/* reference: the appended caches, causal attention per head */
	{
		int8_t kr[2 * 8 * 4], vr[2 * 8 * 4];
		uint32_t lr[2] = { 5, 7 };

		memcpy(kr, kc, sizeof(kr));
		memcpy(vr, vc, sizeof(vr));
		for (uint32_t h = 0; h < H; h++) {
			struct e1npu_attention_params ap = p;

			memcpy(kr + (h * CAP + lr[h] - 2) * D, kn + h * 2 * D, 2 * D);
			memcpy(vr + (h * CAP + lr[h] - 2) * D, vn + h * 2 * D, 2 * D);
			ap.batch = ap.heads = 1;
			ap.tq = 2;
			ap.tk = lr[h];
			ref_attention(&ap, q + h * 2 * D, kr + h * CAP * D, vr + h * CAP * D,
				      r + h * 2 * D);
		}
		assert_int_equal(e1npu_ops_decode_attention_s8(e->ops, &p, CAP, kc, vc, lens, 2, q,
							       kn, vn, o, NULL), 0);
		assert_int_equal(lens[0], 5);
		assert_int_equal(lens[1], 7);
		assert_memory_equal(kc, kr, sizeof(kr));
		assert_memory_equal(vc, vr, sizeof(vr));
		assert_memory_equal(o, r, sizeof(r));
	}
	/* 7 + 2 > 8: nothing appended */
	assert_int_equal(e1npu_ops_kv_cache_append_s8(e->ops, B, H, CAP, D, kc, vc, lens, 2, kn,
						      vn, NULL), -ENOSPC);
	assert_int_equal(lens[1], 7);
}

static void test_projections_mlp(void **state)
{
	struct ops_env *e = *state;
	const uint32_t T = 5, DM = 24, DH = 40;
	int8_t x[5 * 24], w[24 * 72], w1[24 * 40], w2[40 * 24], wg[24 * 40];
	int8_t q[5 * 24], k[5 * 24], v[5 * 24], qr[5 * 24], kr[5 * 24], vr[5 * 24];
	int8_t o[5 * 24], r[5 * 24];
	struct e1npu_requant a = rq(1.0 / 512), b = rq(1.0 / 700), c = rq(0.001);
	const struct e1npu_requant *rqs[3] = { &a, &b, &c };
	int8_t *outs[3] = { qr, kr, vr };
	uint64_t seed = 13;

	t_fill_s8(x, sizeof(x), -128, 127, &seed);
	t_fill_s8(w, sizeof(w), -128, 127, &seed);
	t_fill_s8(w1, sizeof(w1), -128, 127, &seed);
	t_fill_s8(w2, sizeof(w2), -128, 127, &seed);
	t_fill_s8(wg, sizeof(wg), -128, 127, &seed);
	assert_int_equal(e1npu_ops_qkv_projection_s8(e->ops, T, DM, x, w, &a, &b, &c, q, k, v, NULL), 0);
	ref_qkv(T, DM, x, w, rqs, outs);
	assert_memory_equal(q, qr, sizeof(q));
	assert_memory_equal(k, kr, sizeof(k));
	assert_memory_equal(v, vr, sizeof(v));
	assert_int_equal(e1npu_ops_mlp_relu_s8(e->ops, T, DM, DH, x, w1, w2, &a, &b, o, NULL), 0);
	ref_mlp(T, DM, DH, x, w1, w2, &a, &b, r);
	assert_memory_equal(o, r, sizeof(o));
	assert_int_equal(e1npu_ops_swiglu_s8(e->ops, T, DM, DH, x, w1, wg, w2, &a, 6, &b, o, NULL), 0);
	ref_swiglu(T, DM, DH, x, w1, wg, w2, &a, 6, &b, r);
	assert_memory_equal(o, r, sizeof(o));
}

static void test_blocks(void **state)
{
	struct ops_env *e = *state;
	const uint32_t T = 6, D = 16, DH = 24, H = 2;
	int8_t x[6 * 16], v[6 * 16], bias[16], w1[16 * 24], w2[24 * 16], wg[16 * 24];
	int8_t wqkv[16 * 48], g1[16], g2[16], cs[6 * 4], sn[6 * 4], o[6 * 16], r[6 * 16];
	uint8_t p[6 * 6];
	struct e1npu_requant a = rq(1.0 / 600), b = rq(1.0 / 900);
	struct e1npu_decoder_params dp;
	struct e1npu_ops_report rep;
	uint64_t seed = 17;

	t_fill_s8(x, sizeof(x), -128, 127, &seed);
	t_fill_s8(v, sizeof(v), -128, 127, &seed);
	t_fill_s8(bias, sizeof(bias), -20, 20, &seed);
	t_fill_s8(w1, sizeof(w1), -128, 127, &seed);
	t_fill_s8(w2, sizeof(w2), -128, 127, &seed);
	t_fill_s8(wg, sizeof(wg), -128, 127, &seed);
	t_fill_s8(wqkv, sizeof(wqkv), -128, 127, &seed);
	t_fill_s8(g1, sizeof(g1), 20, 100, &seed);
	t_fill_s8(g2, sizeof(g2), 20, 100, &seed);
	t_fill_s8(cs, sizeof(cs), -127, 127, &seed);
	t_fill_s8(sn, sizeof(sn), -127, 127, &seed);
	t_fill_u8(p, sizeof(p), &seed);
	assert_int_equal(e1npu_ops_transformer_block_s8(e->ops, T, D, DH, x, p, v, bias, w1, w2,
							&a, &b, o, &rep), 0);
	ref_transformer_block(T, D, DH, x, p, v, bias, w1, w2, &a, &b, r);
	assert_memory_equal(o, r, sizeof(o));
	assert_int_equal(rep.kind, E1NPU_OPS_TRANSFORMER_BLOCK);
	memset(&dp, 0, sizeof(dp));
	dp.t = T;
	dp.d = D;
	dp.dh = DH;
	dp.heads = H;
	dp.gamma_frac = 6;
	dp.norm_frac = 5;
	dp.g1 = g1;
	dp.g2 = g2;
	dp.wqkv = wqkv;
	dp.rq_q = a;
	dp.rq_k = a;
	dp.rq_v = b;
	dp.cos = cs;
	dp.sin = sn;
	dp.mask = E1NPU_MASK_CAUSAL;
	dp.rq_qk = rq(1.0 / 256);
	dp.bias = bias;
	dp.wu = w1;
	dp.wg = wg;
	dp.wd = w2;
	dp.rq_hidden = a;
	dp.rq_out = b;
	dp.gate_shift = 5;
	assert_int_equal(e1npu_ops_decoder_block_s8(e->ops, &dp, x, o, &rep), 0);
	assert_int_equal(ref_decoder_block(&dp, x, r), 0);
	assert_memory_equal(o, r, sizeof(o));
	assert_int_equal(rep.kind, E1NPU_OPS_DECODER_BLOCK);
	if (e->dev)
		assert_true(rep.hw_ops_datapath + rep.hw_ops_wrapper > 0);
	dp.mask = E1NPU_MASK_SLIDING;
	dp.window = 2;
	assert_int_equal(e1npu_ops_decoder_block_s8(e->ops, &dp, x, o, &rep), 0);
	assert_int_equal(ref_decoder_block(&dp, x, r), 0);
	assert_memory_equal(o, r, sizeof(o));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elementwise),
		cmocka_unit_test(test_rmsnorm_rope),
		cmocka_unit_test(test_qk_av),
		cmocka_unit_test(test_attention),
		cmocka_unit_test(test_kv_decode),
		cmocka_unit_test(test_projections_mlp),
		cmocka_unit_test(test_blocks),
	};
	int fails = 0;

	fails += cmocka_run_group_tests_name("ops-xformer-sim", tests, t_setup_sim, t_teardown);
	fails += cmocka_run_group_tests_name("ops-xformer-cpu", tests, t_setup_cpu, t_teardown);
	return fails;
}
