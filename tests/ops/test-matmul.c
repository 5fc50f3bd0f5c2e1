// SPDX-License-Identifier: MIT
/*
 * Raw matmul lowering sweeps (systolic tiles past the 1024 envelope, split K,
 * datapath 3x3x7 tiles with tails, CPU) against the naive reference.
 */
#include "ops-test.h"
#include "ref.h"

static const uint32_t shapes[][3] = {
	{ 1, 1, 1 }, { 3, 3, 7 }, { 4, 4, 8 }, { 2, 5, 13 }, { 5, 17, 9 },
	{ 16, 16, 16 }, { 17, 15, 33 }, { 33, 65, 100 }, { 1, 300, 2 },
	{ 64, 1, 200 }, { 100, 37, 1 },
};

static void check(struct ops_env *e, uint32_t force, uint32_t m, uint32_t n,
		  uint32_t k, uint64_t seed, uint32_t expect_engine)
{
	int8_t *a = malloc((size_t)m * k), *b = malloc((size_t)k * n);
	int32_t *c = malloc((size_t)m * n * 4), *r = malloc((size_t)m * n * 4);
	struct e1npu_ops_report rep;

	assert_non_null(a);
	assert_non_null(b);
	t_fill_s8(a, (size_t)m * k, -128, 127, &seed);
	t_fill_s8(b, (size_t)k * n, -128, 127, &seed);
	ref_matmul_s32(m, n, k, a, k, b, n, r, n);
	assert_int_equal(e1npu_ops_set_force(e->ops, force), 0);
	assert_int_equal(e1npu_ops_matmul_s8(e->ops, m, n, k, a, k, b, n, c, n, &rep), 0);
	assert_memory_equal(c, r, (size_t)m * n * 4);
	assert_int_equal(rep.kind, E1NPU_OPS_MATMUL_S8);
	assert_int_equal(rep.macs, (uint64_t)m * n * k);
	if (expect_engine)
		assert_int_equal(rep.engine, expect_engine);
	if (e->dev && rep.engine != E1NPU_ENGINE_CPU)
		assert_int_equal(rep.hw_ops, rep.hw_ops_wrapper + rep.hw_ops_datapath);
	e1npu_ops_set_force(e->ops, E1NPU_OPS_FORCE_AUTO);
	free(a);
	free(b);
	free(c);
	free(r);
}

static void test_auto_sweep(void **state)
{
	struct ops_env *e = *state;

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		check(e, E1NPU_OPS_FORCE_AUTO, shapes[i][0], shapes[i][1],
		      shapes[i][2], 11 + i, 0);
}

static void test_wrapper_sweep(void **state)
{
	struct ops_env *e = *state;

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		check(e, E1NPU_OPS_FORCE_WRAPPER, shapes[i][0], shapes[i][1],
		      shapes[i][2], 100 + i, e->dev ? E1NPU_ENGINE_WRAPPER : 0);
}

static void test_datapath_sweep(void **state)
{
	struct ops_env *e = *state;

	for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++)
		check(e, E1NPU_OPS_FORCE_DATAPATH, shapes[i][0], shapes[i][1],
		      shapes[i][2], 200 + i, e->dev ? E1NPU_ENGINE_DATAPATH : 0);
}

static void test_past_envelope(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_ops_report rep;
	struct e1npu_device_info info;
	uint64_t need = 1030ull * 1027 + 1027ull * 1025 + 1030ull * 1025 * 4;

	memset(&info, 0, sizeof(info));
	/* M, N and K past 1024: 2 x 2 x 2 tiles, split-K on the host */
	if (!e->dev || (!e1npu_device_get_info(e->dev, &info) &&
			info.arena_size >= need + (64u << 10))) {
		check(e, E1NPU_OPS_FORCE_WRAPPER, 1030, 1025, 1027, 7,
		      e->dev ? E1NPU_ENGINE_WRAPPER : 0);
	} else {
		/*
		 * The driver's arena (arena_size, at most 4 MiB without CMA)
		 * cannot hold the 6.3 MB of operands at once: past the
		 * envelope in M and K, then in N and K, in separate ops.
		 */
		print_message("[  NOTE    ] %s on %s: arena %llu bytes < %llu: "
			      "1030x1025x1027 split into 1030x16x1027 and 16x1025x1027\n",
			      __func__, t_spec(), (unsigned long long)info.arena_size,
			      (unsigned long long)need);
		check(e, E1NPU_OPS_FORCE_WRAPPER, 1030, 16, 1027, 7, E1NPU_ENGINE_WRAPPER);
		check(e, E1NPU_OPS_FORCE_WRAPPER, 16, 1025, 1027, 9, E1NPU_ENGINE_WRAPPER);
	}
	/* envelope edge exactly: one descriptor */
	check(e, E1NPU_OPS_FORCE_WRAPPER, 1024, 16, 1024, 8, 0);
	if (e->dev) {
		int8_t a[4] = { 1, 2, 3, 4 }, b[4] = { 1, 1, 1, 1 };
		int32_t c[4];

		/* selection: a 2x2x2 matmul goes to the datapath */
		assert_int_equal(e1npu_ops_matmul_s8(e->ops, 2, 2, 2, a, 2, b, 2, c, 2, &rep), 0);
		assert_int_equal(rep.engine, E1NPU_ENGINE_DATAPATH);
		assert_int_equal(c[0], 3);
		assert_int_equal(c[3], 7);
	}
}

static void test_batch(void **state)
{
	struct ops_env *e = *state;
	const uint32_t B = 2, H = 3, M = 5, N = 7, K = 19;
	int8_t *a = malloc(B * H * M * K), *b = malloc(B * H * K * N);
	int32_t *c = malloc(B * H * M * N * 4), *r = malloc(B * H * M * N * 4);
	struct e1npu_ops_report rep;
	uint64_t seed = 5;

	t_fill_s8(a, B * H * M * K, -128, 127, &seed);
	t_fill_s8(b, B * H * K * N, -128, 127, &seed);
	for (uint32_t s = 0; s < B * H; s++)
		ref_matmul_s32(M, N, K, a + s * M * K, K, b + s * K * N, N,
			       r + s * M * N, N);
	assert_int_equal(e1npu_ops_batch_matmul_s8(e->ops, B, H, M, N, K, a, b, c, &rep), 0);
	assert_memory_equal(c, r, B * H * M * N * 4);
	assert_int_equal(rep.macs, (uint64_t)B * H * M * N * K);
	free(a);
	free(b);
	free(c);
	free(r);
}

static void test_errors(void **state)
{
	struct ops_env *e = *state;
	int8_t a[1] = { 0 };
	int32_t c[1];

	assert_int_equal(e1npu_ops_matmul_s8(e->ops, 0, 1, 1, a, 1, a, 1, c, 1, NULL), -EINVAL);
	assert_int_equal(e1npu_ops_matmul_s8(NULL, 1, 1, 1, a, 1, a, 1, c, 1, NULL), -EINVAL);
	assert_int_equal(e1npu_ops_matmul_s8(e->ops, 1, 2, 1, a, 1, a, 1, c, 1, NULL), -EINVAL);
}

#define TESTS(setup, name)						\
	const struct CMUnitTest name[] = {				\
		cmocka_unit_test(test_auto_sweep),			\
		cmocka_unit_test(test_wrapper_sweep),			\
		cmocka_unit_test(test_datapath_sweep),			\
		cmocka_unit_test(test_past_envelope),			\
		cmocka_unit_test(test_batch),				\
		cmocka_unit_test(test_errors),				\
	}

int main(void)
{
	TESTS(x, sim);
	TESTS(x, cpu);
	int fails = 0;

	fails += cmocka_run_group_tests_name("ops-matmul-sim", sim, t_setup_sim, t_teardown);
	fails += cmocka_run_group_tests_name("ops-matmul-cpu", cpu, t_setup_cpu, t_teardown);
	return fails;
}
