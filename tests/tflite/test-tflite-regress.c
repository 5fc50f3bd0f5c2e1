// SPDX-License-Identifier: MIT
/*
 * Regression inputs of fuzz-tflite-load (tests/fuzz/corpus-fuzz-tflite-load/
 * regress-*, Documentation/fuzzing.md F26...): each malformed model is
 * loaded on the three paths (the lowering layer on the in-process device,
 * its CPU-only context, the reference kernels) and must be rejected at
 * load with a negative errno and a message naming the problem. Before
 * their fixes these loaded (and the reference path's invoke shifted an
 * int32 by 133, or a MEAN summed past INT32_MAX). Run from the top of the
 * tree.
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
#include <e1npu/e1npu_tflite.h>

#define DIR "tests/fuzz/corpus-fuzz-tflite-load/"

static struct e1npu_device *dev;

/* Load @file on every path: a load error whose message holds @want. */
static void rejected(const char *file, int want_ret, const char *want)
{
	for (int path = 0; path < 3; path++) {
		struct e1npu_tflite_options opt = {
			.path = path == 2 ? E1NPU_TFLITE_PATH_REFERENCE : E1NPU_TFLITE_PATH_NPU,
		};
		struct e1npu_tflite *t = NULL;
		char err[256] = "";
		int ret = e1npu_tflite_load_file(path == 0 ? dev : NULL, file, &opt, &t, err,
						 sizeof(err));

		print_message("%s path %d: %d %s\n", file, path, ret, err);
		assert_int_equal(ret, want_ret);
		assert_null(t);
		assert_non_null(strstr(err, want));
	}
}

static void test_add_reads_unwritten(void **state)
{
	(void)state;
	/* F28: ADD reads its own output, which nothing wrote before */
	rejected(DIR "regress-add-reads-unwritten-tensor", -EINVAL,
		 "neither constant, a model input nor written by an earlier operator");
}

/* Run @file on path @path (0: device, 1: CPU-only, 2: reference) into @out. */
static void run_path(const char *file, int path, const uint8_t *in, size_t nin,
		     uint8_t *out, size_t nout)
{
	struct e1npu_tflite_options opt = {
		.path = path == 2 ? E1NPU_TFLITE_PATH_REFERENCE : E1NPU_TFLITE_PATH_NPU,
	};
	struct e1npu_tflite_tensor_info ii, oi;
	struct e1npu_tflite *t = NULL;
	char err[256] = "";

	assert_int_equal(e1npu_tflite_load_file(path == 0 ? dev : NULL, file, &opt, &t,
						err, sizeof(err)), 0);
	assert_int_equal(e1npu_tflite_input_info(t, 0, &ii), 0);
	assert_int_equal(e1npu_tflite_output_info(t, 0, &oi), 0);
	assert_int_equal(ii.bytes, nin);
	assert_int_equal(oi.bytes, nout);
	assert_int_equal(e1npu_tflite_set_input(t, 0, in, nin), 0);
	assert_int_equal(e1npu_tflite_invoke(t), 0);
	assert_int_equal(e1npu_tflite_get_output(t, 0, out, nout), 0);
	e1npu_tflite_free(t);
}

/*
 * F29: an AVERAGE_POOL_2D then MAX_POOL_2D with a 2 x 536870914 filter
 * over a 1x4x4x2 image. The reference kernels visited all 2^30 taps (1.5 s
 * at -O2, 41 s in the fuzzer's build: a slow unit), now the window clipped
 * to the image, as lib/ops does. What a unit test can check is that the
 * two independent implementations (lib/ref's and lib/ops' pools, on every
 * path) agree; the time is watched by the seed, which every check-fuzz
 * replays under -timeout.
 */
static void test_pool_huge_filter(void **state)
{
	const char *file = DIR "regress-ref-pool-huge-filter";
	uint8_t in[32], want[2], out[2];

	(void)state;
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 37 + 5);
	run_path(file, 2, in, sizeof(in), want, sizeof(want));
	for (int path = 0; path < 2; path++) {
		memset(out, 0x5a, sizeof(out));
		run_path(file, path, in, sizeof(in), out, sizeof(out));
		assert_memory_equal(out, want, sizeof(out));
	}
}

static void test_arena_too_big(void **state)
{
	(void)state;
	/* F30: three 768 MiB tensors, a 2.4 GiB arena, from 700 bytes */
	rejected(DIR "regress-arena-too-big", -ENOTSUP, "more than the interpreter's");
}

static void test_requant_multiplier(void **state)
{
	(void)state;
	/* F26: output scale 1.4e-43: in * w / out = 1e40 */
	rejected(DIR "regress-ref-requant-multiplier", -EINVAL,
		 "is not a representable requantization multiplier");
}

static void test_mean_sum(void **state)
{
	(void)state;
	/* F27: MEAN over 4096 x 4096 uint8 positions */
	rejected(DIR "regress-mean-sum-overflow", -ENOTSUP, "int32 sum could overflow");
}

/*
 * The TFLite release followed (e1npu_tflite_options.ref, E1NPU_TFLITE_REF):
 * a bad field or variable is refused naming it; 2.2 and 2.14 load.
 */
static void test_tflite_ref(void **state)
{
	/* a small valid model the project generates (a fuzz seed) */
	static const char *model = DIR "tiny-net-i8-dev.tflite";
	struct e1npu_tflite_options opt = { .ref = 3 };
	struct e1npu_tflite *t = NULL;
	char err[256] = "";

	(void)state;
	assert_int_equal(e1npu_tflite_load_file(NULL, model, &opt, &t, err, sizeof(err)), -EINVAL);
	assert_null(t);
	assert_non_null(strstr(err, "ref 3 is not 0 (default), 1 (TFLite 2.2) or 2 (TFLite 2.14)"));
	setenv("E1NPU_TFLITE_REF", "2.15", 1);
	opt.ref = E1NPU_TFLITE_REF_DEFAULT;
	assert_int_equal(e1npu_tflite_load_file(NULL, model, &opt, &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "E1NPU_TFLITE_REF='2.15': expected 2.2 or 2.14"));
	/* an explicit field wins over the variable */
	opt.ref = E1NPU_TFLITE_REF_2_14;
	assert_int_equal(e1npu_tflite_load_file(NULL, model, &opt, &t, err, sizeof(err)), 0);
	e1npu_tflite_free(t);
	t = NULL;
	setenv("E1NPU_TFLITE_REF", "2.14", 1);
	opt.ref = E1NPU_TFLITE_REF_DEFAULT;
	assert_int_equal(e1npu_tflite_load_file(NULL, model, &opt, &t, err, sizeof(err)), 0);
	e1npu_tflite_free(t);
	unsetenv("E1NPU_TFLITE_REF");
}

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requant_multiplier),
		cmocka_unit_test(test_mean_sum),
		cmocka_unit_test(test_add_reads_unwritten),
		cmocka_unit_test(test_pool_huge_filter),
		cmocka_unit_test(test_arena_too_big),
		cmocka_unit_test(test_tflite_ref),
	};

	return cmocka_run_group_tests_name("tflite-regress", tests, setup, teardown);
}
