// SPDX-License-Identifier: MIT
/*
 * Lowered smoke cases, matmul family: tiled int8 (systolic tiles in M,
 * split K, a datapath-sized one), int4/int2/ternary/sparse 2:4 int4, FP8
 * E4M3, FP16/BF16 via Q8.8, group-scaled int4 and batch matmul, each
 * against lib/ref.
 */
#include <stdlib.h>
#include <string.h>

#include "smoke-lowered.h"
/* lib/ref: the naive references, linked from libe1npu.a */
#include "../../lib/ref/ref.h"

/* p: m, n, k */
static int c_matmul_s8(struct lcase *c, const uint32_t *p)
{
	uint32_t m = p[0], n = p[1], k = p[2];
	int8_t *a = lc_s8(c, (size_t)m * k, -128, 127);
	int8_t *b = lc_s8(c, (size_t)k * n, -128, 127);
	int32_t *out = lc_out(c, (size_t)m * n * 4), *ref = lc_alloc(c, (size_t)m * n * 4);
	int ret;

	ret = e1npu_ops_matmul_s8(c->ops, m, n, k, a, k, b, n, out, n, c->rep);
	if (ret)
		return ret;
	ref_matmul_s32(m, n, k, a, k, b, n, ref, n);
	lc_check(c, out, ref, (size_t)m * n, SMOKE_S32, "C");
	return 0;
}

/* Zero two random lanes of every group of four along K of each column. */
static void sparsify_2_4(struct lcase *c, int8_t *b, uint32_t n, uint32_t k)
{
	uint32_t j, g, l, keep, keep2;

	for (j = 0; j < n; j++)
		for (g = 0; g < k; g += 4) {
			keep = lc_rand(c) % 4;
			keep2 = (keep + 1 + lc_rand(c) % 3) % 4;
			for (l = 0; l < 4 && g + l < k; l++)
				if (l != keep && l != keep2)
					b[(size_t)(g + l) * n + j] = 0;
		}
}

/* p: kind, m, n, k */
static int c_matmul_lowp(struct lcase *c, const uint32_t *p)
{
	uint32_t kind = p[0], m = p[1], n = p[2], k = p[3];
	int lo = kind == E1NPU_OPS_MATMUL_S2 ? -2 : kind == E1NPU_OPS_MATMUL_TERNARY ? -1 : -8;
	int hi = kind == E1NPU_OPS_MATMUL_S2 || kind == E1NPU_OPS_MATMUL_TERNARY ? 1 : 7;
	int8_t *a = lc_s8(c, (size_t)m * k, lo, hi);
	int8_t *b = lc_s8(c, (size_t)k * n, lo, hi);
	int32_t *out = lc_out(c, (size_t)m * n * 4), *ref = lc_alloc(c, (size_t)m * n * 4);
	int ret;

	if (kind == E1NPU_OPS_MATMUL_SPARSE_S4)
		sparsify_2_4(c, b, n, k);
	ret = e1npu_ops_matmul_lowp(c->ops, kind, m, n, k, a, b, out, c->rep);
	if (ret)
		return ret;
	ref_matmul_s32(m, n, k, a, k, b, n, ref, n);
	lc_check(c, out, ref, (size_t)m * n, SMOKE_S32, "C");
	return 0;
}

/* FP8 E4M3 bytes without NaN and with moderate exponents (no overflow). */
static uint8_t *fp8_values(struct lcase *c, size_t n)
{
	uint8_t *v = lc_u8(c, n);
	size_t i;

	for (i = 0; i < n; i++)
		if ((v[i] & 0x7f) == 0x7f || (v[i] & 0x78) > 0x50)
			v[i] &= 0xa7;
	return v;
}

/* p: m, n, k */
static int c_matmul_fp8(struct lcase *c, const uint32_t *p)
{
	uint32_t m = p[0], n = p[1], k = p[2];
	uint8_t *a = fp8_values(c, (size_t)m * k), *b = fp8_values(c, (size_t)k * n);
	int32_t *out = lc_out(c, (size_t)m * n * 4), *ref = lc_alloc(c, (size_t)m * n * 4);
	int ret;

	ret = e1npu_ops_matmul_fp8(c->ops, m, n, k, a, b, out, c->rep);
	if (ret)
		return ret;
	ret = ref_matmul_fp8(m, n, k, a, b, ref);
	if (ret)
		return lc_ref_failed(c, "ref_matmul_fp8", ret);
	lc_check(c, out, ref, (size_t)m * n, SMOKE_S32, "C (Q8.8)");
	return 0;
}

/* Normal FP16 / BF16 values of magnitude below 64 (inside Q8.8). */
static uint16_t *half_values(struct lcase *c, size_t n, bool bf16)
{
	uint16_t *v = lc_alloc(c, n * 2);
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t s = lc_rand(c) & 1, e = lc_rand(c), f = lc_rand(c);

		v[i] = bf16 ? (uint16_t)(s << 15 | (120 + e % 12) << 7 | f % 128)
			    : (uint16_t)(s << 15 | (5 + e % 16) << 10 | f % 1024);
	}
	return v;
}

/* p: kind, m, n, k */
static int c_matmul_f16(struct lcase *c, const uint32_t *p)
{
	uint32_t kind = p[0], m = p[1], n = p[2], k = p[3];
	bool bf16 = kind == E1NPU_OPS_MATMUL_BF16;
	uint16_t *a = half_values(c, (size_t)m * k, bf16), *b = half_values(c, (size_t)k * n, bf16);
	int32_t *out = lc_out(c, (size_t)m * n * 4), *ref = lc_alloc(c, (size_t)m * n * 4);
	int ret;

	ret = e1npu_ops_matmul_f16(c->ops, kind, m, n, k, a, b, out, c->rep);
	if (ret)
		return ret;
	ret = ref_matmul_f16(bf16, m, n, k, a, b, ref);
	if (ret)
		return lc_ref_failed(c, "ref_matmul_f16", ret);
	lc_check(c, out, ref, (size_t)m * n, SMOKE_S32, "C (Q8.8)");
	return 0;
}

/* p: m, n, k, group */
static int c_matmul_gs_s4(struct lcase *c, const uint32_t *p)
{
	uint32_t m = p[0], n = p[1], k = p[2], g = p[3];
	int8_t *a = lc_s8(c, (size_t)m * k, -128, 127), *w = lc_s8(c, (size_t)k * n, -8, 7);
	int16_t *sc = lc_alloc(c, (size_t)(k / g) * n * 2);
	int32_t *out = lc_out(c, (size_t)m * n * 4), *ref = lc_alloc(c, (size_t)m * n * 4);
	size_t i;
	int ret;

	for (i = 0; i < (size_t)(k / g) * n; i++)
		sc[i] = (int16_t)((int32_t)(lc_rand(c) % 1024) - 512);
	ret = e1npu_ops_matmul_gs_s4(c->ops, m, n, k, g, a, w, sc, out, c->rep);
	if (ret)
		return ret;
	ref_matmul_gs_s4(m, n, k, g, a, w, sc, ref);
	lc_check(c, out, ref, (size_t)m * n, SMOKE_S32, "C (Q8.8)");
	return 0;
}

/* p: batch, heads, m, n, k */
static int c_batch_matmul(struct lcase *c, const uint32_t *p)
{
	uint32_t s, nb = p[0] * p[1], m = p[2], n = p[3], k = p[4];
	int8_t *a = lc_s8(c, (size_t)nb * m * k, -128, 127);
	int8_t *b = lc_s8(c, (size_t)nb * k * n, -128, 127);
	int32_t *out = lc_out(c, (size_t)nb * m * n * 4), *ref = lc_alloc(c, (size_t)nb * m * n * 4);
	int ret;

	ret = e1npu_ops_batch_matmul_s8(c->ops, p[0], p[1], m, n, k, a, b, out, c->rep);
	if (ret)
		return ret;
	for (s = 0; s < nb; s++)
		ref_matmul_s32(m, n, k, a + (size_t)s * m * k, k, b + (size_t)s * k * n, n,
			       ref + (size_t)s * m * n, n);
	lc_check(c, out, ref, (size_t)nb * m * n, SMOKE_S32, "C");
	return 0;
}

#define S4	E1NPU_OPS_MATMUL_S4
#define S2	E1NPU_OPS_MATMUL_S2
#define TERN	E1NPU_OPS_MATMUL_TERNARY
#define SP4	E1NPU_OPS_MATMUL_SPARSE_S4
#define F16	E1NPU_OPS_MATMUL_FP16
#define BF16	E1NPU_OPS_MATMUL_BF16

const struct lcase_def lowered_mm[] = {
	{ "matmul_s8 48x40x56", c_matmul_s8, { 48, 40, 56 } },
	{ "matmul_s8 1030x17x9 (M tiles)", c_matmul_s8, { 1030, 17, 9 } },
	{ "matmul_s8 4x1030x5 (N tiles)", c_matmul_s8, { 4, 1030, 5 } },
	{ "matmul_s8 3x5x1100 (split K)", c_matmul_s8, { 3, 5, 1100 } },
	{ "matmul_s8 5x4x9", c_matmul_s8, { 5, 4, 9 } },
	{ "matmul_s4 20x33x64", c_matmul_lowp, { S4, 20, 33, 64 } },
	{ "matmul_s4 6x5x40", c_matmul_lowp, { S4, 6, 5, 40 } },
	{ "matmul_s2 7x9x48", c_matmul_lowp, { S2, 7, 9, 48 } },
	{ "matmul_ternary 7x9x48", c_matmul_lowp, { TERN, 7, 9, 48 } },
	{ "matmul_sparse_s4 2:4 5x6x40", c_matmul_lowp, { SP4, 5, 6, 40 } },
	{ "matmul_fp8 e4m3 5x6x13", c_matmul_fp8, { 5, 6, 13 } },
	{ "matmul_fp16 q8.8 19x18x21", c_matmul_f16, { F16, 19, 18, 21 } },
	{ "matmul_bf16 q8.8 19x18x21", c_matmul_f16, { BF16, 19, 18, 21 } },
	{ "matmul_gs_s4 5x7x64 g16", c_matmul_gs_s4, { 5, 7, 64, 16 } },
	{ "batch_matmul 2x3x5x7x19", c_batch_matmul, { 2, 3, 5, 7, 19 } },
};

const size_t lowered_mm_count = sizeof(lowered_mm) / sizeof(lowered_mm[0]);
