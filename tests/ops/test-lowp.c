// SPDX-License-Identifier: MIT
/*
 * Low-precision matmuls: INT4, INT2, ternary, sparse 2:4 INT4 (systolic,
 * datapath packed opcodes, CPU), FP8 E4M3, FP16/BF16 via Q8.8, group-scaled
 * INT4, against naive references and hand-worked values.
 */
#include "ops-test.h"
#include "ref.h"

static const uint32_t shapes[][3] = {
	{ 1, 1, 1 }, { 3, 3, 7 }, { 2, 5, 17 }, { 4, 3, 33 }, { 7, 9, 16 },
	{ 17, 16, 40 }, { 20, 33, 64 },
};

static void lowp_case(struct ops_env *e, uint32_t kind, uint32_t force,
		      uint32_t m, uint32_t n, uint32_t k, uint64_t seed)
{
	int lo = kind == E1NPU_OPS_MATMUL_S2 ? -2 : kind == E1NPU_OPS_MATMUL_TERNARY ? -1 : -8;
	int hi = kind == E1NPU_OPS_MATMUL_S2 ? 1 : kind == E1NPU_OPS_MATMUL_TERNARY ? 1 : 7;
	int8_t *a = malloc((size_t)m * k), *b = malloc((size_t)k * n);
	int32_t *c = malloc((size_t)m * n * 4), *r = malloc((size_t)m * n * 4);
	struct e1npu_ops_report rep;

	t_fill_s8(a, (size_t)m * k, lo, hi, &seed);
	t_fill_s8(b, (size_t)k * n, lo, hi, &seed);
	if (kind == E1NPU_OPS_MATMUL_SPARSE_S4)
		/* keep two random lanes of every group of four along K */
		for (uint32_t j = 0; j < n; j++)
			for (uint32_t g = 0; g < k; g += 4) {
				uint32_t keep = t_rand(&seed) % 4, keep2 = (keep + 1 + t_rand(&seed) % 3) % 4;

				for (uint32_t l = 0; l < 4 && g + l < k; l++)
					if (l != keep && l != keep2)
						b[(size_t)(g + l) * n + j] = 0;
			}
	ref_matmul_s32(m, n, k, a, k, b, n, r, n);
	e1npu_ops_set_force(e->ops, force);
	assert_int_equal(e1npu_ops_matmul_lowp(e->ops, kind, m, n, k, a, b, c, &rep), 0);
	e1npu_ops_set_force(e->ops, E1NPU_OPS_FORCE_AUTO);
	assert_memory_equal(c, r, (size_t)m * n * 4);
	assert_int_equal(rep.kind, kind);
	if (e->dev && force == E1NPU_OPS_FORCE_DATAPATH)
		assert_int_equal(rep.engine, E1NPU_ENGINE_DATAPATH);
	if (e->dev && force == E1NPU_OPS_FORCE_WRAPPER)
		assert_int_equal(rep.engine, E1NPU_ENGINE_WRAPPER);
	free(a);
	free(b);
	free(c);
	free(r);
}

static void test_lowp_int(void **state)
{
	static const uint32_t kinds[] = {
		E1NPU_OPS_MATMUL_S4, E1NPU_OPS_MATMUL_S2, E1NPU_OPS_MATMUL_TERNARY,
		E1NPU_OPS_MATMUL_SPARSE_S4,
	};
	static const uint32_t forces[] = {
		E1NPU_OPS_FORCE_AUTO, E1NPU_OPS_FORCE_WRAPPER, E1NPU_OPS_FORCE_DATAPATH,
		E1NPU_OPS_FORCE_CPU,
	};
	struct ops_env *e = *state;
	uint64_t seed = 1;

	for (size_t kd = 0; kd < 4; kd++)
		for (size_t f = 0; f < 4; f++)
			for (size_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++)
				lowp_case(e, kinds[kd], forces[f], shapes[s][0], shapes[s][1],
					  shapes[s][2], seed++);
}

static void test_lowp_errors(void **state)
{
	struct ops_env *e = *state;
	int8_t a[4] = { 8, 0, 0, 0 }, b[4] = { 1, 1, 1, 0 };
	int32_t c[1];

	/* 8 is outside int4 */
	assert_int_equal(e1npu_ops_matmul_lowp(e->ops, E1NPU_OPS_MATMUL_S4, 1, 1, 4, a, b, c, NULL), -ERANGE);
	a[0] = 1;
	/* three non-zeros in one group of four: not 2:4 */
	assert_int_equal(e1npu_ops_matmul_lowp(e->ops, E1NPU_OPS_MATMUL_SPARSE_S4, 1, 1, 4, a, b, c, NULL), -EINVAL);
	/* ternary rejects -2 */
	a[0] = -2;
	assert_int_equal(e1npu_ops_matmul_lowp(e->ops, E1NPU_OPS_MATMUL_TERNARY, 1, 1, 4, a, b, c, NULL), -ERANGE);
}

static void test_fp8(void **state)
{
	struct ops_env *e = *state;
	/* 1.0 = 0x38 (e 7, m 0: 8 << 5 = 256), 0.5 = 0x30 (128), -1.5 = 0xBC */
	uint8_t a[3] = { 0x38, 0x30, 0xBC }, b[3] = { 0x38, 0x38, 0x38 };
	uint8_t ra[5 * 13], rb[13 * 6];
	int32_t c[1], rc[5 * 6], rr[5 * 6];
	struct e1npu_ops_report rep;
	uint64_t seed = 4;

	/* 1*1 + 0.5*1 - 1.5*1 = 0; two lanes: 256 + 128 = 384 */
	assert_int_equal(e1npu_ops_matmul_fp8(e->ops, 1, 1, 2, a, b, c, &rep), 0);
	assert_int_equal(c[0], 384);
	assert_int_equal(e1npu_ops_matmul_fp8(e->ops, 1, 1, 3, a, b, c, &rep), 0);
	assert_int_equal(c[0], 0);
	if (e->dev)
		assert_int_equal(rep.engine, E1NPU_ENGINE_DATAPATH);
	/* 0x01 (subnormal 2^-9 -> Q8.8 0) times 1.0: 0; 0x09 (e 1: 9 >> 1 = 4) */
	a[0] = 0x09;
	assert_int_equal(e1npu_ops_matmul_fp8(e->ops, 1, 1, 1, a, b, c, NULL), 0);
	assert_int_equal(c[0], 4);
	a[0] = 0x7f;	/* NaN */
	assert_int_equal(e1npu_ops_matmul_fp8(e->ops, 1, 1, 1, a, b, c, NULL), -EINVAL);
	t_fill_u8(ra, sizeof(ra), &seed);
	t_fill_u8(rb, sizeof(rb), &seed);
	for (size_t i = 0; i < sizeof(ra); i++)
		if ((ra[i] & 0x7f) == 0x7f || (ra[i] & 0x78) > 0x50)
			ra[i] &= 0xa7;	/* no NaN, moderate exponents */
	for (size_t i = 0; i < sizeof(rb); i++)
		if ((rb[i] & 0x7f) == 0x7f || (rb[i] & 0x78) > 0x50)
			rb[i] &= 0xa7;
	assert_int_equal(ref_matmul_fp8(5, 6, 13, ra, rb, rr), 0);
	assert_int_equal(e1npu_ops_matmul_fp8(e->ops, 5, 6, 13, ra, rb, rc, NULL), 0);
	assert_memory_equal(rc, rr, sizeof(rr));
}

static uint16_t f16_of(int sign, int e, int m)
{
	return (uint16_t)(sign << 15 | e << 10 | m);
}

static void test_f16(void **state)
{
	struct ops_env *e = *state;
	/* 1.0 = 0x3C00 (256), -2.0 = 0xC000 (-512); 1.5 = 0x3E00 (384) */
	uint16_t a[2] = { 0x3C00, 0xC000 }, b[2] = { 0x3E00, 0x3C00 };
	uint16_t ba[2] = { 0x3F80, 0xC000 }, bbv[2] = { 0x3FC0, 0x3F80 };	/* bf16 */
	uint16_t ra[19 * 21], rb[21 * 18];
	int32_t c[1], rc[19 * 18], rr[19 * 18];
	uint64_t seed = 8;

	/* 1.0 * 1.5 - 2.0 * 1.0 = -0.5 -> Q8.8 -128 */
	assert_int_equal(e1npu_ops_matmul_f16(e->ops, E1NPU_OPS_MATMUL_FP16, 1, 1, 2, a, b, c, NULL), 0);
	assert_int_equal(c[0], -128);
	assert_int_equal(e1npu_ops_matmul_f16(e->ops, E1NPU_OPS_MATMUL_BF16, 1, 1, 2, ba, bbv, c, NULL), 0);
	assert_int_equal(c[0], -128);
	/* 200.0 does not fit Q8.8 */
	a[0] = 0x5A40;
	assert_int_equal(e1npu_ops_matmul_f16(e->ops, E1NPU_OPS_MATMUL_FP16, 1, 1, 1, a, b, c, NULL), -ERANGE);
	/* random values in [-64, 64) incl. values with low bytes near -128 */
	for (size_t i = 0; i < sizeof(ra) / 2; i++)
		ra[i] = f16_of(t_rand(&seed) & 1, 5 + t_rand(&seed) % 16, t_rand(&seed) % 1024);
	for (size_t i = 0; i < sizeof(rb) / 2; i++)
		rb[i] = f16_of(t_rand(&seed) & 1, 5 + t_rand(&seed) % 16, t_rand(&seed) % 1024);
	assert_int_equal(ref_matmul_f16(false, 19, 18, 21, ra, rb, rr), 0);
	assert_int_equal(e1npu_ops_matmul_f16(e->ops, E1NPU_OPS_MATMUL_FP16, 19, 18, 21, ra, rb, rc, NULL), 0);
	assert_memory_equal(rc, rr, sizeof(rr));
	for (size_t i = 0; i < sizeof(ra) / 2; i++)
		ra[i] = (uint16_t)((t_rand(&seed) & 1) << 15 | (120 + t_rand(&seed) % 12) << 7 | t_rand(&seed) % 128);
	assert_int_equal(ref_matmul_f16(true, 19, 18, 21, ra, ra, rr), 0);
	assert_int_equal(e1npu_ops_matmul_f16(e->ops, E1NPU_OPS_MATMUL_BF16, 19, 18, 21, ra, ra, rc, NULL), 0);
	assert_memory_equal(rc, rr, sizeof(rr));
}

static void test_gs_s4(void **state)
{
	struct ops_env *e = *state;
	const uint32_t M = 5, N = 7, K = 64, G = 16;
	int8_t a[5 * 64], w[64 * 7];
	int16_t sc[4 * 7];
	int32_t c[5 * 7], r[5 * 7];
	int8_t ha[4] = { 1, 2, 3, 4 }, hw[4] = { 1, 1, 1, 1 };
	int16_t hs[2] = { 256, -128 };	/* 1.0 and -0.5 in Q8.8 */
	uint64_t seed = 12;

	/* groups of 2: (1+2) * 256 + (3+4) * -128 = 768 - 896 = -128 */
	assert_int_equal(e1npu_ops_matmul_gs_s4(e->ops, 1, 1, 4, 2, ha, hw, hs, c, NULL), 0);
	assert_int_equal(c[0], -128);
	t_fill_s8(a, sizeof(a), -128, 127, &seed);
	t_fill_s8(w, sizeof(w), -8, 7, &seed);
	for (size_t i = 0; i < 28; i++)
		sc[i] = (int16_t)(t_rand(&seed) % 1024) - 512;
	ref_matmul_gs_s4(M, N, K, G, a, w, sc, r);
	assert_int_equal(e1npu_ops_matmul_gs_s4(e->ops, M, N, K, G, a, w, sc, c, NULL), 0);
	assert_memory_equal(c, r, sizeof(r));
	assert_int_equal(e1npu_ops_matmul_gs_s4(e->ops, M, N, K, 5, a, w, sc, c, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lowp_int),
		cmocka_unit_test(test_lowp_errors),
		cmocka_unit_test(test_fp8),
		cmocka_unit_test(test_f16),
		cmocka_unit_test(test_gs_s4),
	};
	int fails = 0;

	fails += cmocka_run_group_tests_name("ops-lowp-sim", tests, t_setup_sim, t_teardown);
	fails += cmocka_run_group_tests_name("ops-lowp-cpu", tests, t_setup_cpu, t_teardown);
	return fails;
}
