// SPDX-License-Identifier: MIT
/*
 * Unit tests of the StableHLO importer's public API (e1npu_hlo.h): option
 * validation, load errors, inputs, the check callback, the partition
 * report and the quantization tolerance, on the in-process device.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <e1npu/e1npu.h>
#include <e1npu/e1npu_hlo.h>

static const char dot_i8[] =
	"func.func @f() {\n"
	"  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>\n"
	"  %b = stablehlo.constant dense<[[5, 6], [7, 8]]> : tensor<2x2xi8>\n"
	"  %r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xi8>, tensor<2x2xi8>) -> tensor<2x2xi32>\n"
	"  check.expect_eq_const %r, dense<[[19, 22], [43, 50]]> : tensor<2x2xi32>\n"
	"  check.expect_eq_const %r, dense<[[19, 22], [43, 51]]> : tensor<2x2xi32>\n"
	"  func.return\n"
	"}\n";

/* acc = 5 * 1 = 5 at scale 1/8, requantized to scale 1/4: 2.5 is a tie */
static const char tie[] =
	"func.func @q() {\n"
	"  %a = stablehlo.constant() {value = dense<[[5, 0]]> : tensor<1x2xi8>} : () -> tensor<1x2x!quant.uniform<i8:f32, 0.5>>\n"
	"  %b = stablehlo.constant() {value = dense<[[1], [0]]> : tensor<2x1xi8>} : () -> tensor<2x1x!quant.uniform<i8:f32, 0.25>>\n"
	"  %c = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x1x!quant.uniform<i32:f32, 0.125>>\n"
	"  %r = stablehlo.uniform_quantize %c : (tensor<1x1x!quant.uniform<i32:f32, 0.125>>) -> tensor<1x1x!quant.uniform<i8:f32, 0.25>>\n"
	"  check.expect_eq_const %r, dense<[[2]]> : tensor<1x1x!quant.uniform<i8:f32, 0.25>>\n"
	"  func.return\n"
	"}\n";

static struct e1npu_device *dev;

static int setup(void **state)
{
	(void)state;
	return e1npu_device_open("sim", &dev);
}

static int teardown(void **state)
{
	(void)state;
	e1npu_device_close(dev);
	return 0;
}

static void test_reserved_options(void **state)
{
	struct e1npu_hlo_options opt;
	struct e1npu_hlo *h = (void *)1;
	char err[128];

	(void)state;
	memset(&opt, 0, sizeof(opt));
	opt.reserved[3] = 7;
	assert_int_equal(e1npu_hlo_load_memory(dev, dot_i8, strlen(dot_i8), "x.mlir", &opt, &h,
					       err, sizeof(err)), -EINVAL);
	assert_null(h);
	assert_non_null(strstr(err, "reserved[3] = 7"));
	memset(&opt, 0, sizeof(opt));
	opt.cpu_only = 2;
	assert_int_equal(e1npu_hlo_load_memory(dev, dot_i8, strlen(dot_i8), "x.mlir", &opt, &h,
					       err, sizeof(err)), -EINVAL);
}

static void test_load_errors(void **state)
{
	static const char bad[] = "func.func @f() {\n  %a = stablehlo.constant dense<1> : tensor<2y>\n}\n";
	static const char unsup[] = "func.func @f() {\n  %a = stablehlo.while %a : tensor<i32>\n}\n";
	static const char big[] = "func.func @f() {\n  %a = stablehlo.constant dense<1> : tensor<5000xi8>\n  func.return\n}\n";
	struct e1npu_hlo_options opt;
	struct e1npu_hlo *h;
	char err[256];

	(void)state;
	assert_int_equal(e1npu_hlo_load_memory(dev, bad, strlen(bad), "bad.mlir", NULL, &h, err,
					       sizeof(err)), -EINVAL);
	assert_string_equal(err, "bad.mlir:2:46: tensor type: expected 'x' after a dimension");
	assert_int_equal(e1npu_hlo_load_memory(dev, unsup, strlen(unsup), "u.mlir", NULL, &h, err,
					       sizeof(err)), -ENOTSUP);
	assert_string_equal(err, "u.mlir:2:3: stablehlo.while: unsupported op 'stablehlo.while'");
	memset(&opt, 0, sizeof(opt));
	opt.max_elements = 4096;
	assert_int_equal(e1npu_hlo_load_memory(dev, big, strlen(big), "b.mlir", &opt, &h, err,
					       sizeof(err)), -ENOTSUP);
	assert_non_null(strstr(err, "tensor larger than 4096 elements"));
	opt.max_elements = 5000;
	assert_int_equal(e1npu_hlo_load_memory(dev, big, strlen(big), "b.mlir", &opt, &h, err,
					       sizeof(err)), 0);
	e1npu_hlo_free(h);
}

struct seen {
	int n, passed;
	char msg[256];
};

static void on_check(void *arg, const struct e1npu_hlo_check *c)
{
	struct seen *s = arg;

	s->n++;
	s->passed += (int)c->passed;
	if (!c->passed)
		strcpy(s->msg, c->msg);
}

static void test_run_and_report(void **state)
{
	struct e1npu_hlo *h;
	struct e1npu_hlo_op_info o;
	struct e1npu_hlo_func_info fi;
	struct seen s = { 0 };
	uint32_t passed = 0, failed = 0;
	char err[256];

	(void)state;
	assert_int_equal(e1npu_hlo_load_memory(dev, dot_i8, strlen(dot_i8), "d.mlir", NULL, &h,
					       err, sizeof(err)), 0);
	assert_int_equal(e1npu_hlo_num_funcs(h), 1);
	assert_int_equal(e1npu_hlo_num_ops(h), 6);
	assert_int_equal(e1npu_hlo_get_op(h, 2, &o), 0);
	assert_string_equal(o.op, "stablehlo.dot_general");
	assert_int_equal(o.engine, E1NPU_HLO_ENGINE_NPU);
	assert_int_equal(o.ran_engine, E1NPU_ENGINE_NONE);
	assert_string_equal(o.api, "e1npu_ops_matmul_s8");
	assert_int_equal(o.batch, 0);
	assert_int_equal(e1npu_hlo_get_op(h, 6, &o), -EINVAL);
	assert_int_equal(e1npu_hlo_get_func(h, 1, &fi), -EINVAL);
	assert_int_equal(e1npu_hlo_run(h, on_check, &s, &passed, &failed), 0);
	assert_int_equal(passed, 1);
	assert_int_equal(failed, 1);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.msg, "element 3: got 50, expected 51");
	assert_int_equal(e1npu_hlo_get_op(h, 2, &o), 0);
	assert_true(o.ran_engine == E1NPU_ENGINE_WRAPPER || o.ran_engine == E1NPU_ENGINE_DATAPATH);
	assert_true(o.hw_ops >= 1);
	assert_int_equal(e1npu_hlo_get_func(h, 0, &fi), 0);
	assert_int_equal(fi.num_batches, 1);
	/* three 16-byte slots live together at the dot */
	assert_int_equal(fi.arena_peak, 48);
	e1npu_hlo_free(h);
}

static void test_quant_tolerance(void **state)
{
	struct e1npu_hlo_options opt;
	struct e1npu_hlo *h;
	struct e1npu_hlo_op_info o;
	uint32_t passed = 0, failed = 0;
	char err[256];

	(void)state;
	memset(&opt, 0, sizeof(opt));
	assert_int_equal(e1npu_hlo_load_memory(dev, tie, strlen(tie), "t.mlir", &opt, &h, err,
					       sizeof(err)), 0);
	assert_int_equal(e1npu_hlo_run(h, NULL, NULL, &passed, &failed), -EIO);
	assert_non_null(strstr(e1npu_hlo_last_error(h), "3 vs 2"));
	assert_non_null(strstr(e1npu_hlo_last_error(h), "accepted only with --quant-tolerance=1"));
	e1npu_hlo_free(h);
	opt.quant_tolerance = 1;
	assert_int_equal(e1npu_hlo_load_memory(dev, tie, strlen(tie), "t.mlir", &opt, &h, err,
					       sizeof(err)), 0);
	assert_int_equal(e1npu_hlo_run(h, NULL, NULL, &passed, &failed), 0);
	assert_int_equal(passed, 1);
	assert_int_equal(failed, 0);
	assert_int_equal(e1npu_hlo_get_op(h, 2, &o), 0);
	assert_int_equal(o.lsb_diff, 1);
	assert_int_equal(o.lsb_diff_count, 1);
	assert_int_equal(e1npu_hlo_get_op(h, 3, &o), 0);
	assert_int_equal(o.engine, E1NPU_HLO_ENGINE_FUSED);
	e1npu_hlo_free(h);
}

static void test_inputs(void **state)
{
	static const char m[] =
		"func.func public @main(%x: tensor<3xi16>) -> tensor<3xi16> {\n"
		"  %r = stablehlo.add %x, %x : tensor<3xi16>\n"
		"  check.expect_eq_const %r, dense<[2, -4, 0]> : tensor<3xi16>\n"
		"  return %r : tensor<3xi16>\n"
		"}\n";
	const uint8_t data[] = { 1, 0, 0xfe, 0xff, 0, 0 };
	uint64_t dims = 3, dims2 = 2;
	struct e1npu_hlo *h;
	uint32_t passed = 0, failed = 0;
	char err[256];

	(void)state;
	assert_int_equal(e1npu_hlo_load_memory(dev, m, strlen(m), "m.mlir", NULL, &h, err,
					       sizeof(err)), 0);
	/* unbound: an error naming the argument, not a silent empty run */
	assert_int_equal(e1npu_hlo_run(h, NULL, NULL, &passed, &failed), -ENODATA);
	assert_string_equal(e1npu_hlo_last_error(h),
			    "@main (line 1): argument %x (0 of 1) is not bound (e1npu_hlo_set_input)");
	assert_int_equal(passed + failed, 0);
	assert_int_equal(e1npu_hlo_set_input(h, "y", "i16", 1, &dims, data, 6), -ENOENT);
	assert_int_equal(e1npu_hlo_set_input(h, "x", "i8", 1, &dims, data, 3), -EINVAL);
	assert_int_equal(e1npu_hlo_set_input(h, "x", "i16", 1, &dims2, data, 4), -EINVAL);
	assert_int_equal(e1npu_hlo_set_input(h, "x", "i16", 1, &dims, data, 5), -EINVAL);
	assert_int_equal(e1npu_hlo_set_input(h, "0", "i16", 1, &dims, data, 6), 0);
	assert_int_equal(e1npu_hlo_run(h, NULL, NULL, &passed, &failed), 0);
	assert_int_equal(passed, 1);
	assert_int_equal(failed, 0);
	e1npu_hlo_free(h);
}

/* What the functions run on their own returned, in set_input's layout. */
static void test_outputs(void **state)
{
	static const char m[] =
		"func.func @f() -> (tensor<2x2xi32>, tensor<3xf16>, tensor<2xi1>) {\n"
		"  %a = stablehlo.constant dense<[[1, -2], [3, 4]]> : tensor<2x2xi32>\n"
		"  %b = stablehlo.add %a, %a : tensor<2x2xi32>\n"
		"  %h = stablehlo.constant dense<[1.5, -0.25, 6.0e-8]> : tensor<3xf16>\n"
		"  %t = stablehlo.constant dense<[true, false]> : tensor<2xi1>\n"
		"  return %b, %h, %t : tensor<2x2xi32>, tensor<3xf16>, tensor<2xi1>\n"
		"}\n"
		"func.func @g() {\n"
		"  func.return\n"
		"}\n";
	struct e1npu_hlo_output o;
	struct e1npu_hlo *h;
	uint8_t buf[16];
	int32_t v[4];
	char err[256];

	(void)state;
	assert_int_equal(e1npu_hlo_load_memory(dev, m, strlen(m), "o.mlir", NULL, &h, err,
					       sizeof(err)), 0);
	assert_int_equal(e1npu_hlo_num_outputs(h), 0);
	assert_int_equal(e1npu_hlo_get_output(h, 0, &o, NULL, 0), -EINVAL);
	assert_int_equal(e1npu_hlo_run(h, NULL, NULL, NULL, NULL), 0);
	assert_int_equal(e1npu_hlo_num_outputs(h), 3);
	assert_int_equal(e1npu_hlo_get_output(h, 0, &o, NULL, 0), 0);
	assert_string_equal(o.name, "f#0");
	assert_string_equal(o.dtype, "i32");
	assert_string_equal(o.type, "tensor<2x2xi32>");
	assert_int_equal(o.func, 0);
	assert_int_equal(o.index, 0);
	assert_int_equal(o.rank, 2);
	assert_int_equal(o.dims[0], 2);
	assert_int_equal(o.elements, 4);
	assert_int_equal(o.bytes, 16);
	assert_int_equal(e1npu_hlo_get_output(h, 0, &o, buf, 15), -EINVAL);
	assert_int_equal(e1npu_hlo_get_output(h, 0, &o, buf, 16), 0);
	memcpy(v, buf, sizeof(v));	/* little-endian host */
	assert_int_equal(v[0], 2);
	assert_int_equal(v[1], -4);
	assert_int_equal(v[3], 8);
	/* f16 bits: 1.5 = 0x3e00, -0.25 = 0xb400, 6e-8 = the subnormal 0x0001 */
	assert_int_equal(e1npu_hlo_get_output(h, 1, &o, buf, 6), 0);
	assert_string_equal(o.name, "f#1");
	assert_string_equal(o.dtype, "f16");
	assert_int_equal(buf[0] | buf[1] << 8, 0x3e00);
	assert_int_equal(buf[2] | buf[3] << 8, 0xb400);
	assert_int_equal(buf[4] | buf[5] << 8, 0x0001);
	assert_int_equal(e1npu_hlo_get_output(h, 2, &o, buf, 2), 0);
	assert_string_equal(o.dtype, "i1");
	assert_int_equal(buf[0], 1);
	assert_int_equal(buf[1], 0);
	assert_int_equal(e1npu_hlo_get_output(h, 3, &o, NULL, 0), -EINVAL);
	e1npu_hlo_free(h);
}

/* Nothing to run is an error, not "0 checks passed". */
static void test_nothing_to_run(void **state)
{
	static const char m[] = "func.func private @p(%x: tensor<i32>) -> tensor<i32> {\n"
				"  return %x : tensor<i32>\n}\n";
	struct e1npu_hlo *h;
	char err[256];

	(void)state;
	assert_int_equal(e1npu_hlo_load_memory(dev, "", 0, "e.mlir", NULL, &h, err,
					       sizeof(err)), 0);
	assert_int_equal(e1npu_hlo_run(h, NULL, NULL, NULL, NULL), -ENODATA);
	assert_string_equal(e1npu_hlo_last_error(h), "nothing to run: the module has no function");
	e1npu_hlo_free(h);
	assert_int_equal(e1npu_hlo_load_memory(dev, m, strlen(m), "p.mlir", NULL, &h, err,
					       sizeof(err)), 0);
	assert_int_equal(e1npu_hlo_run(h, NULL, NULL, NULL, NULL), -ENODATA);
	assert_non_null(strstr(e1npu_hlo_last_error(h), "nothing to run"));
	e1npu_hlo_free(h);
}

/* The work cap: the option, else E1NPU_HLO_MAX_WORK; named when passed. */
static void test_work_cap(void **state)
{
	static const char m[] =
		"func.func @w() {\n"
		"  %a = stablehlo.iota dim = 0 : tensor<4096xi32>\n"
		"  %b = stablehlo.add %a, %a : tensor<4096xi32>\n"
		"  func.return\n"
		"}\n";
	struct e1npu_hlo_options opt = { .max_work_mi = 1 };
	struct e1npu_hlo *h;
	char err[256];
	int ret;

	(void)state;
	assert_int_equal(e1npu_hlo_load_memory(dev, m, strlen(m), "w.mlir", &opt, &h, err,
					       sizeof(err)), 0);
	assert_int_equal(e1npu_hlo_run(h, NULL, NULL, NULL, NULL), 0);
	e1npu_hlo_free(h);
	/* 2^20 elements of iota pass 1 Mi steps */
	{
		static const char big[] =
			"func.func @w() {\n"
			"  %a = stablehlo.iota dim = 0 : tensor<1048576xi32>\n"
			"  func.return\n"
			"}\n";

		assert_int_equal(e1npu_hlo_load_memory(dev, big, strlen(big), "w.mlir", &opt, &h,
						       err, sizeof(err)), 0);
		assert_int_equal(e1npu_hlo_run(h, NULL, NULL, NULL, NULL), -E2BIG);
		assert_non_null(strstr(e1npu_hlo_last_error(h), "its cap (1 Mi steps; the "
				       "max_work_mi option or E1NPU_HLO_MAX_WORK raise it)"));
		e1npu_hlo_free(h);
	}
	setenv("E1NPU_HLO_MAX_WORK", "many", 1);
	ret = e1npu_hlo_load_memory(dev, m, strlen(m), "w.mlir", NULL, &h, err, sizeof(err));
	assert_int_equal(ret, -EINVAL);
	assert_string_equal(err, "environment variable E1NPU_HLO_MAX_WORK='many': expected Mi "
			    "steps (2^20 each) from 1 to 4194304");
	/* the option wins over the environment */
	assert_int_equal(e1npu_hlo_load_memory(dev, m, strlen(m), "w.mlir", &opt, &h, err,
					       sizeof(err)), 0);
	e1npu_hlo_free(h);
	unsetenv("E1NPU_HLO_MAX_WORK");
}

/*
 * Batches: consecutive NPU ops share one until 7 datapath operations; a
 * CPU op ends it. Each 1x1x1 dot is one datapath GEMM tile.
 */
static void test_batches(void **state)
{
	char text[4096];
	size_t o = 0;
	struct e1npu_hlo *h;
	struct e1npu_hlo_op_info info;
	struct e1npu_hlo_func_info fi;
	const char *dot = "stablehlo.dot_general %a, %a, contracting_dims = [1] x [0] : "
			  "(tensor<1x1xi8>, tensor<1x1xi8>) -> tensor<1x1xi32>\n";
	int want[13] = { -1 }, n = 0;
	char err[256];

	(void)state;
	o += (size_t)snprintf(text + o, sizeof(text) - o, "func.func @b() {\n"
			      "  %%a = stablehlo.constant dense<3> : tensor<1x1xi8>\n");
	want[n++] = -1;
	/* 9 dots: 7 in batch 0, 2 in batch 1; an add (CPU); 2 dots in batch 2 */
	for (int i = 0; i < 9; i++) {
		o += (size_t)snprintf(text + o, sizeof(text) - o, "  %%d%d = %s", i, dot);
		want[n++] = i < 7 ? 0 : 1;
	}
	o += (size_t)snprintf(text + o, sizeof(text) - o,
			      "  %%s = stablehlo.add %%d0, %%d1 : tensor<1x1xi32>\n");
	want[n++] = -1;
	for (int i = 9; i < 11; i++) {
		o += (size_t)snprintf(text + o, sizeof(text) - o, "  %%d%d = %s", i, dot);
		want[n++] = 2;
	}
	snprintf(text + o, sizeof(text) - o,
		 "  check.expect_eq_const %%d10, dense<9> : tensor<1x1xi32>\n  func.return\n}\n");
	assert_int_equal(e1npu_hlo_load_memory(dev, text, strlen(text), "b.mlir", NULL, &h, err,
					       sizeof(err)), 0);
	assert_int_equal(e1npu_hlo_run(h, NULL, NULL, NULL, NULL), 0);
	for (int i = 0; i < n; i++) {
		assert_int_equal(e1npu_hlo_get_op(h, (size_t)i, &info), 0);
		if (want[i] >= 0)
			assert_int_equal(info.ran_engine, E1NPU_ENGINE_DATAPATH);
		assert_int_equal(info.batch, want[i]);
	}
	assert_int_equal(e1npu_hlo_get_func(h, 0, &fi), 0);
	assert_int_equal(fi.num_batches, 3);
	e1npu_hlo_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reserved_options),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_run_and_report),
		cmocka_unit_test(test_quant_tolerance),
		cmocka_unit_test(test_inputs),
		cmocka_unit_test(test_outputs),
		cmocka_unit_test(test_nothing_to_run),
		cmocka_unit_test(test_work_cap),
		cmocka_unit_test(test_batches),
	};

	return cmocka_run_group_tests_name("hlo-api", tests, setup, teardown);
}
