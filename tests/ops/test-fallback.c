// SPDX-License-Identifier: MIT
/*
 * The CPU-fallback contract and engine availability: on a device whose
 * wrapper has no systolic engine (E1NPU_SIM_GEMMINI=0), operations forced
 * onto the wrapper are rejected by the hardware and run on the CPU with
 * the same results; the policy routes GEMMs to the datapath or the CPU and
 * says so; a datapath-only device (E1NPU_SIM_ENGINES=2) likewise.
 *
 * On the kernel backend (E1NPU_DEVICE=/dev/accel/...) the environment
 * cannot shape the device: a group runs when the driver's device has that
 * shape (on the virtual board: the QEMU device's gemmini-present=0, or the
 * split device tree's datapath-only node) and skips otherwise.
 */
#include "ops-test.h"
#include "ref.h"

/* Kernel backend: keep the group only on a device of the wanted shape. */
static int shape(void **state, bool want_wrapper, const char *why)
{
	struct ops_env *e;
	struct e1npu_device_info info;
	bool wrapper;

	if (t_setup_sim(state))
		return -1;
	e = *state;
	if (t_on_sim())
		return 0;
	if (e1npu_device_get_info(e->dev, &info))
		return -1;
	wrapper = info.engines & E1NPU_ENGINE_BIT(E1NPU_ENGINE_WRAPPER);
	if (wrapper != want_wrapper || (wrapper && info.gemmini_present))
		e->skip = why;
	return 0;
}

static int setup_nogemmini(void **state)
{
	setenv("E1NPU_SIM_GEMMINI", "0", 1);
	return shape(state, true, "needs a wrapper without Gemmini (the virtual board with gemmini-present off)");
}

static int setup_dponly(void **state)
{
	unsetenv("E1NPU_SIM_GEMMINI");
	setenv("E1NPU_SIM_ENGINES", "2", 1);
	return shape(state, false, "needs a datapath-only device (the virtual board's split device tree, datapath node)");
}

static int teardown(void **state)
{
	unsetenv("E1NPU_SIM_GEMMINI");
	unsetenv("E1NPU_SIM_ENGINES");
	return t_teardown(state);
}

static void test_matmul_fallback(void **state)
{
	struct ops_env *e = *state;
	const uint32_t M = 40, N = 33, K = 70;
	int8_t *a = malloc(M * K), *b = malloc(K * N);
	int32_t *c = malloc(M * N * 4), *r = malloc(M * N * 4);
	struct e1npu_ops_report rep;
	uint64_t seed = 3;

	t_skip_group(e);
	t_fill_s8(a, M * K, -128, 127, &seed);
	t_fill_s8(b, K * N, -128, 127, &seed);
	ref_matmul_s32(M, N, K, a, K, b, N, r, N);
	/* policy: no systolic engine -> datapath (small) or CPU, with the reason */
	assert_int_equal(e1npu_ops_matmul_s8(e->ops, M, N, K, a, K, b, N, c, N, &rep), 0);
	assert_memory_equal(c, r, M * N * 4);
	assert_int_not_equal(rep.engine, E1NPU_ENGINE_WRAPPER);
	if (e1npu_ops_set_force(e->ops, E1NPU_OPS_FORCE_WRAPPER) == 0) {
		assert_int_equal(e1npu_ops_matmul_s8(e->ops, M, N, K, a, K, b, N, c, N, &rep), 0);
		assert_memory_equal(c, r, M * N * 4);
		e1npu_ops_set_force(e->ops, E1NPU_OPS_FORCE_AUTO);
	}
	free(a);
	free(b);
	free(c);
	free(r);
}

static void test_matmul_rejected(void **state)
{
	struct ops_env *e = *state;
	int8_t a[64 * 20], b[20 * 17];
	int32_t c[64 * 17], r[64 * 17];
	struct e1npu_ops_report rep;
	uint64_t seed = 4;

	t_skip_group(e);
	/* only meaningful with a wrapper window and no systolic engine */
	t_fill_s8(a, sizeof(a), -128, 127, &seed);
	t_fill_s8(b, sizeof(b), -128, 127, &seed);
	ref_matmul_s32(64, 17, 20, a, 20, b, 17, r, 17);
	e1npu_ops_set_force(e->ops, E1NPU_OPS_FORCE_WRAPPER);
	assert_int_equal(e1npu_ops_matmul_s8(e->ops, 64, 17, 20, a, 20, b, 17, c, 17, &rep), 0);
	e1npu_ops_set_force(e->ops, E1NPU_OPS_FORCE_AUTO);
	assert_memory_equal(c, r, sizeof(r));
	assert_int_equal(rep.hw_ops_fallback, rep.hw_ops);
	assert_int_equal(rep.engine, E1NPU_ENGINE_CPU);
	assert_int_equal(rep.reason, E1NPU_OPS_WHY_FALLBACK);
}

static void test_conv_no_systolic(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_conv_params p;
	struct e1npu_ops_report rep;
	struct e1npu_conv *cv;
	float sc = 0.01f;
	uint8_t in[6 * 6 * 3], w[3 * 3 * 3 * 4], o[3 * 3 * 4], r[3 * 3 * 4];
	uint64_t seed = 5;

	t_skip_group(e);
	memset(&p, 0, sizeof(p));
	p.kind = E1NPU_OPS_CONV2D;
	p.dtype = E1NPU_DTYPE_UINT8;
	p.in_h = p.in_w = 6;
	p.c_in = 3;
	p.c_out = 4;
	p.kh = p.kw = 3;
	p.stride_h = p.stride_w = 2;
	p.dil_h = p.dil_w = 1;
	p.padding = E1NPU_PAD_SAME;
	p.input.scale = 0.05f;
	p.input.zero_point = 120;
	p.output.scale = 0.3f;
	p.output.zero_point = 5;
	p.weight_zero_point = 130;
	p.weight_scales = &sc;
	p.num_weight_scales = 1;
	t_fill_u8(in, sizeof(in), &seed);
	t_fill_u8(w, sizeof(w), &seed);
	assert_int_equal(ref_conv(&p, w, NULL, in, r), 0);
	assert_int_equal(e1npu_conv_new(e->ops, &p, w, NULL, &cv), 0);
	assert_int_equal(e1npu_conv_run(cv, in, o, &rep), 0);
	assert_memory_equal(o, r, sizeof(r));
	assert_int_equal(rep.engine, E1NPU_ENGINE_CPU);
	/* forced onto the wrapper: rejected, run by the fallback, same bytes */
	if (e1npu_ops_set_force(e->ops, E1NPU_OPS_FORCE_WRAPPER) == 0) {
		memset(o, 0, sizeof(o));
		assert_int_equal(e1npu_conv_run(cv, in, o, &rep), 0);
		assert_memory_equal(o, r, sizeof(r));
		e1npu_ops_set_force(e->ops, E1NPU_OPS_FORCE_AUTO);
	}
	e1npu_conv_free(cv);
}

static void test_support_table(void **state)
{
	struct ops_env *e = *state;
	struct e1npu_ops_support rows[256];
	size_t n;

	t_skip_group(e);
	assert_int_equal(e1npu_ops_support_table(e->ops, rows, 256, &n), 0);
	for (size_t i = 0; i < n; i++)
		if (rows[i].kind == E1NPU_OPS_CONV2D && rows[i].engine == E1NPU_ENGINE_WRAPPER)
			assert_int_equal(rows[i].supported, 0);
}

int main(void)
{
	const struct CMUnitTest nogemmini[] = {
		cmocka_unit_test(test_matmul_fallback),
		cmocka_unit_test(test_matmul_rejected),
		cmocka_unit_test(test_conv_no_systolic),
		cmocka_unit_test(test_support_table),
	};
	const struct CMUnitTest dponly[] = {
		cmocka_unit_test(test_matmul_fallback),
		cmocka_unit_test(test_conv_no_systolic),
		cmocka_unit_test(test_support_table),
	};
	int fails = 0;

	fails += cmocka_run_group_tests_name("ops-fallback-nogemmini", nogemmini,
					     setup_nogemmini, teardown);
	fails += cmocka_run_group_tests_name("ops-fallback-datapath-only", dponly,
					     setup_dponly, teardown);
	return fails;
}
