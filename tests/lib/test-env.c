// SPDX-License-Identifier: MIT
/*
 * The E1NPU_* environment variables (lib/env.c, issue 22): a bad value is
 * refused by e1npu_env_check() and by the call that reads it, with the
 * variable's name and the accepted values in the message
 * (e1npu_device_last_error(NULL), e1npu_ops_last_error(NULL)), never taken
 * as the default.
 */
#include <e1npu/e1npu_ops.h>

#include "lib-test.h"

/* Every variable, a bad value, and words of the message naming it. */
static const struct {
	const char *name, *bad, *accepts;
} bad_values[] = {
	{ "E1NPU_DEVICE", "gpu", "'auto', 'sim' or an accel node path" },
	{ "E1NPU_SIM_ARENA_MB", "abc", "a whole number of MiB from 1 to 3072" },
	{ "E1NPU_SIM_ARENA_MB", "0", "a whole number of MiB from 1 to 3072" },
	{ "E1NPU_SIM_HANG_MS", "-5", "milliseconds from 1 to 600000" },
	{ "E1NPU_SIM_ENGINES", "4", "1 (wrapper), 2 (datapath) or 3 (both)" },
	{ "E1NPU_SIM_GEMMINI", "yes", "0 or 1" },
	{ "E1NPU_SIM_TIMING", "0x200", "a bit mask from 0 to 0x1ff" },
	{ "E1NPU_OPS_LOWERING", "fast", "'auto', 'conv2d', 'matmul' or 'first'" },
	{ "E1NPU_TFLITE_DEBUG", "junk", "0 or 1" },
	{ "E1NPU_TFLITE_REF", "2.15", "'2.2' or '2.14'" },
	{ "E1NPU_HLO_MAX_WORK", "0", "Mi steps (2^20 each) from 1 to 4194304" },
};

static char *saved_device;

static int setup(void **state)
{
	const char *d = getenv("E1NPU_DEVICE");

	(void)state;
	saved_device = d ? strdup(d) : NULL;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++)
		unsetenv(bad_values[i].name);
	if (saved_device)
		setenv("E1NPU_DEVICE", saved_device, 1);
	free(saved_device);
	return 0;
}

static void test_env_check_names_variable(void **state)
{
	char err[256], want[256];

	(void)state;
	unsetenv("E1NPU_DEVICE");
	assert_int_equal(e1npu_env_check(err, sizeof(err)), 0);
	assert_string_equal(err, "");
	for (size_t i = 0; i < sizeof(bad_values) / sizeof(bad_values[0]); i++) {
		setenv(bad_values[i].name, bad_values[i].bad, 1);
		assert_int_equal(e1npu_env_check(err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "environment variable %s='%s': expected ",
			 bad_values[i].name, bad_values[i].bad);
		assert_non_null(strstr(err, want));
		assert_non_null(strstr(err, bad_values[i].accepts));
		unsetenv(bad_values[i].name);
	}
	assert_int_equal(e1npu_env_check(NULL, 0), 0);
	/* the documented values and an empty one are accepted */
	setenv("E1NPU_DEVICE", "auto", 1);
	setenv("E1NPU_OPS_LOWERING", "matmul", 1);
	setenv("E1NPU_SIM_TIMING", "0x1ff", 1);
	setenv("E1NPU_TFLITE_DEBUG", "", 1);
	assert_int_equal(e1npu_env_check(err, sizeof(err)), 0);
}

static void test_device_open_says_why(void **state)
{
	struct e1npu_device *dev = NULL;

	(void)state;
	setenv("E1NPU_SIM_ARENA_MB", "abc", 1);
	assert_int_equal(e1npu_device_open("sim", &dev), -EINVAL);
	assert_null(dev);
	assert_string_equal(e1npu_device_last_error(NULL),
			    "environment variable E1NPU_SIM_ARENA_MB='abc': expected a whole "
			    "number of MiB from 1 to 3072");
	unsetenv("E1NPU_SIM_ARENA_MB");
	setenv("E1NPU_DEVICE", "gpu", 1);
	assert_int_equal(e1npu_device_open(NULL, &dev), -EINVAL);
	assert_non_null(strstr(e1npu_device_last_error(NULL), "E1NPU_DEVICE='gpu'"));
	assert_int_equal(e1npu_device_open("bogus", &dev), -EINVAL);
	assert_non_null(strstr(e1npu_device_last_error(NULL), "device 'bogus': expected"));
	/* "auto" is auto-detection, the same as NULL */
	setenv("E1NPU_DEVICE", "sim", 1);
	assert_int_equal(e1npu_device_open("auto", &dev), 0);
	e1npu_device_close(dev);
}

static void test_ops_new_says_why(void **state)
{
	struct e1npu_ops *ops = NULL;

	(void)state;
	setenv("E1NPU_OPS_LOWERING", "fast", 1);
	assert_int_equal(e1npu_ops_new(NULL, &ops), -EINVAL);
	assert_null(ops);
	assert_string_equal(e1npu_ops_last_error(NULL),
			    "e1npu_ops_new: environment variable E1NPU_OPS_LOWERING='fast': "
			    "expected 'auto', 'conv2d', 'matmul' or 'first'");
	unsetenv("E1NPU_OPS_LOWERING");
	assert_int_equal(e1npu_ops_new(NULL, NULL), -EINVAL);
	assert_string_equal(e1npu_ops_last_error(NULL),
			    "e1npu_ops_new: invalid argument: opsp is NULL");
	assert_int_equal(e1npu_ops_new(NULL, &ops), 0);
	e1npu_ops_free(ops);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_env_check_names_variable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_device_open_says_why, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ops_new_says_why, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
