// SPDX-License-Identifier: MIT
/*
 * The lowering context's one error channel (e1npu_ops_last_error()): a
 * failing call names the argument or condition, calls on conv/fc objects
 * report on their context, a device failure underneath arrives with the
 * device's words; e1npu_strerror() stays generic.
 */
#include <limits.h>

#include "ops-test.h"

static void conv_params(struct e1npu_conv_params *p, float *scale)
{
	memset(p, 0, sizeof(*p));
	p->kind = E1NPU_OPS_CONV2D;
	p->dtype = E1NPU_DTYPE_INT8;
	p->in_h = p->in_w = 8;
	p->c_in = p->c_out = 4;
	p->kh = p->kw = 3;
	p->stride_h = p->stride_w = 1;
	p->dil_h = p->dil_w = 1;
	p->padding = E1NPU_PAD_SAME;
	p->input.scale = p->output.scale = 0.5f;
	p->weight_scales = scale;
	p->num_weight_scales = 1;
}

static void test_names_the_condition(void **state)
{
	struct ops_env *e = *state;
	static const int8_t w[3 * 3 * 4 * 4];
	struct e1npu_conv_params p;
	struct e1npu_conv *cv = NULL;
	float scale = 0.25f;
	uint32_t oh;

	assert_string_equal(e1npu_ops_last_error(e->ops), "");
	conv_params(&p, &scale);
	p.stride_h = 0;
	assert_int_equal(e1npu_conv_new(e->ops, &p, w, NULL, &cv), -EINVAL);
	assert_null(cv);
	assert_string_equal(e1npu_ops_last_error(e->ops),
			    "e1npu_conv_new: invalid argument: stride_h is 0");

	conv_params(&p, &scale);
	p.kind = 77;
	assert_int_equal(e1npu_conv_new(e->ops, &p, w, NULL, &cv), -EINVAL);
	assert_non_null(strstr(e1npu_ops_last_error(e->ops), "p->kind = 77"));

	/* a success leaves the message; an fc/conv call reports on its context */
	conv_params(&p, &scale);
	assert_int_equal(e1npu_conv_new(e->ops, &p, w, NULL, &cv), 0);
	assert_non_null(strstr(e1npu_ops_last_error(e->ops), "p->kind = 77"));
	assert_int_equal(e1npu_conv_get_output_size(cv, &oh, NULL), -EINVAL);
	assert_string_equal(e1npu_ops_last_error(e->ops),
			    "e1npu_conv_get_output_size: invalid argument: out_w is NULL");
	e1npu_conv_free(cv);

	assert_int_equal(e1npu_ops_set_force(e->ops, (enum e1npu_ops_force)42), -EINVAL);
	assert_non_null(strstr(e1npu_ops_last_error(e->ops), "E1NPU_OPS_FORCE_CPU"));
	/* no context: nowhere to write, a static text */
	assert_non_null(strstr(e1npu_ops_last_error(NULL), "NULL"));
}

/* A tensor arena of 1 MiB cannot stage a 512x512x512 matmul. */
static void test_device_failure_is_copied(void **state)
{
	struct e1npu_device *dev;
	struct e1npu_ops *ops;
	const size_t d = 512;
	int8_t *a = calloc(d * d, 1), *b = calloc(d * d, 1);
	int32_t *c = calloc(d * d, 4);
	const char *msg;
	int ret;

	(void)state;
	assert_true(a && b && c);
	assert_int_equal(setenv("E1NPU_SIM_ARENA_MB", "1", 1), 0);
	ret = e1npu_device_open("sim", &dev);
	unsetenv("E1NPU_SIM_ARENA_MB");
	assert_int_equal(ret, 0);
	assert_int_equal(e1npu_ops_new(dev, &ops), 0);
	ret = e1npu_ops_matmul_s8(ops, d, d, d, a, d, b, d, c, d, NULL);
	assert_true(ret < 0);
	msg = e1npu_ops_last_error(ops);
	print_message("matmul on a 1 MiB arena: %d (%s): %s\n", ret, e1npu_strerror(ret), msg);
	assert_int_equal(strncmp(msg, "device: ", 8), 0);
	assert_string_not_equal(msg + 8, "");
	e1npu_ops_free(ops);
	e1npu_device_close(dev);
	free(a);
	free(b);
	free(c);
}

/* Issue 22: every failing call leaves its reason, in words. */
static void test_reasons_in_words(void **state)
{
	struct ops_env *e = *state;
	int8_t a[2 * 3] = { 1, 2, 3, -4, 5, 6 }, b[3 * 2] = { 1, 0, 0, 1, 1, 1 };
	const int8_t t[2 * 3] = { 1, 0, -1, 1, 0, -1 };
	int32_t c[4];

	/* out-of-range int4 data: -ERANGE naming the element (was empty) */
	a[4] = 9;
	assert_int_equal(e1npu_ops_matmul_lowp(e->ops, E1NPU_OPS_MATMUL_S4, 2, 2, 3, a, b, c,
					       NULL), -ERANGE);
	assert_string_equal(e1npu_ops_last_error(e->ops),
			    "e1npu_ops_matmul_lowp: a[4] (row 1, column 1) = 9 is outside "
			    "matmul_s4's range [-8, 7]");
	a[4] = 5;
	b[5] = -2;
	assert_int_equal(e1npu_ops_matmul_lowp(e->ops, E1NPU_OPS_MATMUL_TERNARY, 2, 2, 3, t, b,
					       c, NULL), -ERANGE);
	assert_non_null(strstr(e1npu_ops_last_error(e->ops), "b[5] (row 2, column 1) = -2 is "
			       "outside matmul_ternary's range {-1, 0, 1}"));
	/* conditions in words, not C */
	assert_int_equal(e1npu_ops_matmul_s8(e->ops, 2, 2, 3, a, 2, b, 2, c, 2, NULL), -EINVAL);
	assert_string_equal(e1npu_ops_last_error(e->ops),
			    "e1npu_ops_matmul_s8: invalid argument: matrix a: lda is shorter than "
			    "its row, or the matrix spans more than PTRDIFF_MAX bytes");
	assert_int_equal(e1npu_ops_matmul_lowp(e->ops, E1NPU_OPS_MATMUL_S8, 2, 2, 3, a, b, c,
					       NULL), -EINVAL);
	assert_string_equal(e1npu_ops_last_error(e->ops),
			    "e1npu_ops_matmul_lowp: invalid argument: kind is none of "
			    "E1NPU_OPS_MATMUL_S4, E1NPU_OPS_MATMUL_S2, E1NPU_OPS_MATMUL_TERNARY, "
			    "E1NPU_OPS_MATMUL_SPARSE_S4");
	assert_int_equal(e1npu_ops_matmul_lowp(e->ops, E1NPU_OPS_MATMUL_S4, 0, 2, 3, a, b, c,
					       NULL), -EINVAL);
	assert_string_equal(e1npu_ops_last_error(e->ops),
			    "e1npu_ops_matmul_lowp: invalid argument: m is 0");
	/* the reason names beside the kind and engine names */
	assert_string_equal(e1npu_ops_reason_name(E1NPU_OPS_WHY_BIG_GEMM), "big_gemm");
	assert_string_equal(e1npu_ops_reason_name(E1NPU_OPS_WHY_TOO_SMALL), "too_small");
	assert_string_equal(e1npu_ops_reason_name(E1NPU_OPS_WHY_UNSUPPORTED), "unsupported");
	assert_string_equal(e1npu_ops_reason_name(0), "unknown");
	assert_string_equal(e1npu_ops_reason_name(99), "unknown");
}

static void test_strerror_generic(void **state)
{
	(void)state;
	assert_string_equal(e1npu_strerror(-ERANGE), "value out of range");
	assert_string_equal(e1npu_strerror(-EOPNOTSUPP), "operation not supported");
	assert_string_equal(e1npu_strerror(-EDOM), "argument outside the operation's domain");
}

int main(void)
{
	const struct CMUnitTest cpu[] = {
		cmocka_unit_test(test_names_the_condition),
		cmocka_unit_test(test_reasons_in_words),
		cmocka_unit_test(test_strerror_generic),
	};
	const struct CMUnitTest sim[] = {
		cmocka_unit_test(test_names_the_condition),
		cmocka_unit_test(test_reasons_in_words),
		cmocka_unit_test(test_device_failure_is_copied),
	};
	int fails;

	fails = cmocka_run_group_tests_name("ops-errors-cpu", cpu, t_setup_cpu, t_teardown);
	fails += cmocka_run_group_tests_name("ops-errors-sim", sim, t_setup_sim, t_teardown);
	return fails;
}
