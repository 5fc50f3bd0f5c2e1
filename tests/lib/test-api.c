// SPDX-License-Identifier: MIT
/*
 * libe1npu public API: every function's error paths (NULL arguments, bad
 * sizes, invalid operations naming the field, unknown devices, buffer
 * misuse) and the basic object life cycle, on the device under test
 * (lib-test.h: the in-process backend, or E1NPU_DEVICE's kernel node).
 */
#include <stdio.h>

#include "lib-test.h"

static void test_version_strerror(void **state)
{
	(void)state;
	assert_string_equal(e1npu_api_version(), E1NPU_VERSION);
	assert_string_equal(e1npu_strerror(0), "success");
	assert_string_equal(e1npu_strerror(-EOVERFLOW), "tensor outside its buffer");
	assert_string_equal(e1npu_strerror(EOVERFLOW), "tensor outside its buffer");
	assert_string_equal(e1npu_strerror(-9999), "unknown error");
}

static void test_open_errors(void **state)
{
	struct e1npu_device *dev = (void *)1;
	const char *spec = t_spec();

	(void)state;
	assert_int_equal(e1npu_device_open("sim", NULL), -EINVAL);
	assert_int_equal(e1npu_device_open("bogus", &dev), -EINVAL);
	assert_null(dev);
	assert_int_equal(e1npu_device_open("/nonexistent/accel9", &dev), -ENOENT);
	assert_int_equal(e1npu_device_open("/dev/null", &dev), -ENODEV);
	/* Unknown device named by the environment. */
	setenv("E1NPU_DEVICE", "nonsense", 1);
	assert_int_equal(e1npu_device_open(NULL, &dev), -EINVAL);
	setenv("E1NPU_DEVICE", "sim", 1);
	assert_int_equal(e1npu_device_open(NULL, &dev), 0);
	e1npu_device_close(dev);
	/* An explicit argument wins over the environment. */
	setenv("E1NPU_DEVICE", "nonsense", 1);
	assert_int_equal(e1npu_device_open("sim", &dev), 0);
	e1npu_device_close(dev);
	/* and back to the device under test */
	setenv("E1NPU_DEVICE", spec, 1);
	assert_int_equal(e1npu_device_open(NULL, &dev), 0);
	e1npu_device_close(dev);
	if (t_on_sim())
		unsetenv("E1NPU_DEVICE");
	e1npu_device_close(NULL);
	assert_string_equal(e1npu_device_last_error(NULL), "no device");
}

/*
 * Auto-detection (no argument, no E1NPU_DEVICE): the first e1npu accel
 * node (libudev, or the /dev/accel scan without it), else the in-process
 * model. On the kernel backend that is the device under test.
 */
static void test_autodetect(void **state)
{
	struct e1npu_device *dev = NULL;
	struct e1npu_device_info info;

	(void)state;
	unsetenv("E1NPU_DEVICE");
	assert_int_equal(e1npu_device_open(NULL, &dev), 0);
	if (!t_on_sim())
		setenv("E1NPU_DEVICE", t_spec(), 1);
	assert_int_equal(e1npu_device_get_info(dev, &info), 0);
	if (!t_on_sim()) {
		assert_int_equal(info.backend, E1NPU_BACKEND_KERNEL);
		assert_string_equal(info.path, t_spec());
		assert_string_equal(info.driver, "e1npu");
	}
	e1npu_device_close(dev);
}

static void test_info(void **state)
{
	struct e1npu_device *dev = t_open();
	struct e1npu_device_info info;

	(void)state;
	assert_int_equal(e1npu_device_get_info(NULL, &info), -EINVAL);
	assert_int_equal(e1npu_device_get_info(dev, NULL), -EINVAL);
	assert_int_equal(e1npu_device_get_info(dev, &info), 0);
	assert_int_equal(info.backend, t_on_sim() ? E1NPU_BACKEND_SIM :
						    E1NPU_BACKEND_KERNEL);
	assert_string_equal(info.path, t_spec());
	assert_int_equal(info.engines, E1NPU_ENGINE_BIT(E1NPU_ENGINE_WRAPPER) |
				       E1NPU_ENGINE_BIT(E1NPU_ENGINE_DATAPATH));
	assert_int_equal(info.wrapper_id, 0x4E505530u);
	assert_int_equal(info.datapath_id, 0x45314450u);
	assert_int_equal(info.gemmini_present, 1);
	assert_int_equal(info.array_rows, 16);
	assert_int_equal(info.array_cols, 16);
	assert_int_equal(info.ring_len, 256);
	assert_int_equal(info.max_ops_per_job, 255);
	assert_int_equal(info.datapath_slots, 7);
	assert_int_equal(info.align, 16);
	assert_int_equal(info.max_matmul_mn, 1024);
	assert_int_equal(info.max_conv_hw, 256);
	assert_int_equal(info.conv_kernels, (1u << 1) | (1u << 3) | (1u << 5));
	if (t_on_sim())
		assert_true(info.arena_size == 256ull << 20);
	else	/* the driver's arena_size module parameter */
		assert_true(info.arena_size >= 1ull << 20 &&
			    !(info.arena_size & 4095));
	e1npu_device_close(dev);
}

static void test_arena_env(void **state)
{
	struct e1npu_device *dev;
	struct e1npu_device_info info;
	struct e1npu_buffer *b1, *b2, *b3;

	(void)state;
	t_skip_unless_sim("E1NPU_SIM_ARENA_MB sizes the model's arena");
	setenv("E1NPU_SIM_ARENA_MB", "2", 1);
	dev = t_open();
	unsetenv("E1NPU_SIM_ARENA_MB");
	assert_int_equal(e1npu_device_get_info(dev, &info), 0);
	assert_true(info.arena_size == 2ull << 20);
	assert_int_equal(e1npu_buffer_alloc(dev, (1u << 20) + 1, &b1), 0);
	/* 1 MiB + 1 rounds up to 1 MiB + 4 KiB: a second 1 MiB does not fit. */
	assert_int_equal(e1npu_buffer_alloc(dev, 1u << 20, &b2), -ENOMEM);
	assert_non_null(strstr(e1npu_device_last_error(dev), "buffer_alloc"));
	assert_int_equal(e1npu_buffer_alloc(dev, (1u << 20) - 4096, &b2), 0);
	assert_int_equal(e1npu_buffer_alloc(dev, (3u << 20), &b3), -ENOMEM);
	assert_null(b3);
	e1npu_device_close(dev);	/* b1 and b2 keep it open */
	e1npu_buffer_free(b1);
	e1npu_buffer_free(b2);
}

static void test_buffer_errors(void **state)
{
	struct e1npu_device *dev = t_open();
	struct e1npu_buffer *buf;
	void *p, *q;
	uint8_t *bytes;
	size_t i;

	(void)state;
	assert_int_equal(e1npu_buffer_alloc(NULL, 16, &buf), -EINVAL);
	assert_int_equal(e1npu_buffer_alloc(dev, 16, NULL), -EINVAL);
	assert_int_equal(e1npu_buffer_alloc(dev, 0, &buf), -EINVAL);
	assert_int_equal(e1npu_buffer_alloc(dev, SIZE_MAX, &buf), -ENOMEM);
	assert_int_equal(e1npu_buffer_map(NULL, &p), -EINVAL);
	e1npu_buffer_free(NULL);	/* no-op */
	assert_int_equal(e1npu_buffer_get_size(NULL), 0);
	assert_null(e1npu_buffer_get_device(NULL));

	assert_int_equal(e1npu_buffer_alloc(dev, 100, &buf), 0);
	assert_int_equal(e1npu_buffer_get_size(buf), 100);
	assert_ptr_equal(e1npu_buffer_get_device(buf), dev);
	assert_int_equal(e1npu_buffer_map(buf, NULL), -EINVAL);
	assert_int_equal(e1npu_buffer_map(buf, &p), 0);
	assert_int_equal(e1npu_buffer_map(buf, &q), 0);
	assert_ptr_equal(p, q);
	bytes = p;
	for (i = 0; i < 4096; i++)	/* zeroed, the whole page */
		assert_int_equal(bytes[i], 0);
	memset(p, 0xab, 100);
	e1npu_buffer_free(buf);
	/* A reused block is zeroed again. */
	assert_int_equal(e1npu_buffer_alloc(dev, 100, &buf), 0);
	assert_int_equal(e1npu_buffer_map(buf, &p), 0);
	assert_int_equal(((uint8_t *)p)[0], 0);
	e1npu_buffer_free(buf);
	e1npu_device_close(dev);
}

static void test_cmdbuf_errors(void **state)
{
	struct e1npu_device *dev = t_open();
	struct e1npu_op_outcome out;
	struct e1npu_op_desc d;
	struct e1npu_cmdbuf *cb;

	(void)state;
	assert_int_equal(e1npu_cmdbuf_new(NULL, &cb), -EINVAL);
	assert_int_equal(e1npu_cmdbuf_new(dev, NULL), -EINVAL);
	assert_int_equal(e1npu_cmdbuf_new(dev, &cb), 0);
	assert_int_equal(e1npu_cmdbuf_add_op(NULL, &d), -EINVAL);
	assert_int_equal(e1npu_cmdbuf_add_op(cb, NULL), -EINVAL);
	assert_int_equal(e1npu_cmdbuf_submit(NULL), -EINVAL);
	assert_int_equal(e1npu_cmdbuf_submit(cb), -ENODATA);
	assert_int_equal(e1npu_cmdbuf_wait(NULL, 0), -EINVAL);
	assert_int_equal(e1npu_cmdbuf_wait(cb, 0), -EINVAL);
	assert_string_equal(e1npu_device_last_error(dev), "cmdbuf_wait: not submitted");
	assert_int_equal(e1npu_cmdbuf_reset(NULL), -EINVAL);
	assert_int_equal(e1npu_cmdbuf_get_num_ops(NULL), 0);
	assert_int_equal(e1npu_cmdbuf_get_num_jobs(NULL), 0);
	assert_int_equal(e1npu_cmdbuf_get_outcome(NULL, 0, &out), -EINVAL);
	assert_int_equal(e1npu_cmdbuf_get_outcome(cb, 0, NULL), -EINVAL);
	assert_int_equal(e1npu_cmdbuf_get_outcome(cb, 0, &out), -ERANGE);
	assert_int_equal(e1npu_cmdbuf_run(NULL), -EINVAL);

	memset(&d, 0, sizeof(d));
	d.opcode = 999;
	assert_int_equal(e1npu_cmdbuf_add_op(cb, &d), -EINVAL);
	assert_string_equal(e1npu_device_last_error(dev),
			    "op 0: field opcode = 999: unknown opcode");
	e1npu_op_desc_nop(&d);
	d.reserved[3] = 1;
	assert_int_equal(e1npu_cmdbuf_add_op(cb, &d), -EINVAL);
	assert_non_null(strstr(e1npu_device_last_error(dev), "reserved[3]"));
	e1npu_op_desc_nop(&d);
	assert_int_equal(e1npu_cmdbuf_add_op(cb, &d), 0);
	assert_int_equal(e1npu_cmdbuf_add_op(cb, &d), 1);
	assert_int_equal(e1npu_cmdbuf_get_num_ops(cb), 2);
	assert_int_equal(e1npu_cmdbuf_get_outcome(cb, 0, &out), 0);
	assert_int_equal(out.status, E1NPU_OP_STATUS_NOT_RUN);
	assert_int_equal(e1npu_cmdbuf_submit(cb), 0);
	assert_int_equal(e1npu_cmdbuf_submit(cb), -EBUSY);
	assert_int_equal(e1npu_cmdbuf_add_op(cb, &d), -EBUSY);
	assert_int_equal(e1npu_cmdbuf_reset(cb), -EBUSY);
	assert_int_equal(e1npu_cmdbuf_wait(cb, -1), 0);
	assert_int_equal(e1npu_cmdbuf_wait(cb, -1), 0);	/* idempotent */
	assert_int_equal(e1npu_cmdbuf_get_outcome(cb, 1, &out), 0);
	assert_int_equal(out.status, E1NPU_OP_STATUS_DONE);
	assert_int_equal(out.engine, E1NPU_ENGINE_WRAPPER);
	assert_int_equal(e1npu_cmdbuf_get_num_jobs(cb), 1);
	assert_int_equal(e1npu_cmdbuf_reset(cb), 0);
	assert_int_equal(e1npu_cmdbuf_get_num_ops(cb), 0);
	e1npu_cmdbuf_free(cb);
	e1npu_cmdbuf_free(NULL);
	e1npu_device_close(dev);
}

/* Each invalid description is rejected before submission, naming the field. */
static void test_invalid_ops_name_field(void **state)
{
	struct e1npu_device *dev = t_open(), *dev2 = t_open();
	struct e1npu_buffer *a, *b, *c, *other;
	struct e1npu_cmdbuf *cb;
	struct e1npu_op_desc d;
	char want[160];

	(void)state;
	t_buf(dev, 4096, &a);
	t_buf(dev, 4096, &b);
	t_buf(dev, 4096, &c);
	t_buf(dev2, 4096, &other);
	assert_int_equal(e1npu_cmdbuf_new(dev, &cb), 0);

	e1npu_op_desc_nop(&d);
	assert_int_equal(e1npu_cmdbuf_add_op(cb, &d), 0);

#define EXPECT_BAD(err, substr) do {						\
	assert_int_equal(e1npu_cmdbuf_add_op(cb, &d), err);			\
	snprintf(want, sizeof(want), "op 1 (%s): field %s",			\
		 e1npu_opcode_name(d.opcode), substr);				\
	if (!strstr(e1npu_device_last_error(dev), want))			\
		fail_msg("got '%s', want '%s'", e1npu_device_last_error(dev), want); \
} while (0)

	/* m = 0 */
	e1npu_op_desc_matmul(&d, t_tensor(a, 0, 16), t_tensor(b, 0, 16),
			     t_tensor(c, 0, 64), 0, 16, 16, 0);
	EXPECT_BAD(-EINVAL, "m = 0: zero dimension");
	/* n outside the envelope */
	e1npu_op_desc_matmul(&d, t_tensor(a, 0, 16), t_tensor(b, 0, 2048),
			     t_tensor(c, 0, 8192), 4, 1025, 16, 0);
	EXPECT_BAD(-ERANGE, "n = 1025");
	/* stride shorter than a row */
	e1npu_op_desc_matmul(&d, t_tensor(a, 0, 16), t_tensor(b, 0, 16),
			     t_tensor(c, 0, 32), 4, 16, 16, 0);
	EXPECT_BAD(-EINVAL, "c.stride = 32: stride shorter than its row");
	/* misaligned offset */
	e1npu_op_desc_matmul(&d, t_tensor(a, 8, 16), t_tensor(b, 0, 16),
			     t_tensor(c, 0, 64), 4, 16, 16, 0);
	EXPECT_BAD(-EINVAL, "a.offset = 8");
	/* misaligned stride */
	e1npu_op_desc_matmul(&d, t_tensor(a, 0, 24), t_tensor(b, 0, 16),
			     t_tensor(c, 0, 64), 4, 16, 16, 0);
	EXPECT_BAD(-EINVAL, "a.stride = 24");
	/* past the end of its buffer (page-rounded 4096 bytes) */
	e1npu_op_desc_matmul(&d, t_tensor(a, 0, 16), t_tensor(b, 0, 16),
			     t_tensor(c, 4096 - 64 * 3, 64), 4, 16, 16, 0);
	EXPECT_BAD(-EOVERFLOW, "c = 4160: tensor passes the end of its buffer");
	/* missing buffer */
	e1npu_op_desc_matmul(&d, t_tensor(NULL, 0, 16), t_tensor(b, 0, 16),
			     t_tensor(c, 0, 64), 4, 16, 16, 0);
	EXPECT_BAD(-ENOENT, "a.handle = 0: unknown buffer handle");
	/* flag not valid for the opcode */
	e1npu_op_desc_relu(&d, t_tensor(a, 0, 16), t_tensor(c, 0, 16), 4, 16);
	d.flags = E1NPU_OP_FLAG_RELU;
	EXPECT_BAD(-EINVAL, "flags = 1: flag not valid for this opcode");
	/* unused field non-zero */
	e1npu_op_desc_relu(&d, t_tensor(a, 0, 16), t_tensor(c, 0, 16), 4, 16);
	d.dilation = 2;
	EXPECT_BAD(-EINVAL, "dilation = 2: must be zero");
	/* conv kernel size */
	e1npu_op_desc_conv2d(&d, t_tensor(a, 0, 16), t_tensor(b, 0, 16),
			     t_tensor(c, 0, 64), 4, 4, 1, 1, 2, 4, 4, 1, 1, 0, 0, 1, 0);
	EXPECT_BAD(-ERANGE, "k = 2: not a value the hardware supports");
	/* conv output past the input */
	e1npu_op_desc_conv2d(&d, t_tensor(a, 0, 16), t_tensor(b, 0, 16),
			     t_tensor(c, 0, 64), 4, 4, 1, 1, 1, 6, 4, 1, 1, 0, 0, 1, 0);
	EXPECT_BAD(-ERANGE, "out_h = 6");
	/* pool window larger than the input */
	e1npu_op_desc_maxpool(&d, t_tensor(a, 0, 16), t_tensor(c, 0, 16), 2, 2, 1, 3, 1);
	EXPECT_BAD(-ERANGE, "m = 2");
	/* datapath: GEMM tile bounds, not a scalar opcode, ternary misuse */
	e1npu_op_desc_dp_gemm(&d, 0, t_tensor(a, 0, 8), t_tensor(b, 0, 4),
			      t_tensor(c, 0, 16), 4, 3, 7);
	EXPECT_BAD(-ERANGE, "m = 4");
	e1npu_op_desc_dp_scalar(&d, t_tensor(a, 0, 0), t_tensor(c, 0, 0), 8, 1, 0);
	EXPECT_BAD(-EINVAL, "k = 8: not a scalar datapath opcode");
	e1npu_op_desc_dp_scalar(&d, t_tensor(a, 0, 0), t_tensor(c, 0, 0), 0, 1,
				E1NPU_OP_FLAG_TERNARY);
	EXPECT_BAD(-EINVAL, "flags = 2: ternary is only valid with DOT16_S2");
	e1npu_op_desc_dp_vrelu(&d, t_tensor(a, 0, 0), t_tensor(c, 0, 0), 65);
	EXPECT_BAD(-ERANGE, "n = 65");
	/* a buffer of another device */
	e1npu_op_desc_relu(&d, t_tensor(other, 0, 16), t_tensor(c, 0, 16), 4, 16);
	EXPECT_BAD(-EXDEV, "a.buf: buffer of another device");
#undef EXPECT_BAD

	/* Nothing invalid was appended. */
	assert_int_equal(e1npu_cmdbuf_get_num_ops(cb), 1);
	e1npu_cmdbuf_free(cb);
	e1npu_buffer_free(a);
	e1npu_buffer_free(b);
	e1npu_buffer_free(c);
	e1npu_buffer_free(other);
	e1npu_device_close(dev2);
	e1npu_device_close(dev);
}

/* A buffer freed while its command buffer is in flight stays until the end. */
static void test_buffer_free_submitted(void **state)
{
	struct e1npu_device *dev = t_open();
	struct e1npu_buffer *a, *c;
	struct e1npu_cmdbuf *cb;
	struct e1npu_op_desc d;
	int8_t *pa, *pc;
	unsigned int i;

	(void)state;
	pa = t_buf(dev, 4096, &a);
	pc = t_buf(dev, 4096, &c);
	for (i = 0; i < 64; i++)
		pa[i] = (int8_t)(i * 37 - 100);
	assert_int_equal(e1npu_cmdbuf_new(dev, &cb), 0);
	e1npu_op_desc_relu(&d, t_tensor(a, 0, 16), t_tensor(c, 0, 16), 4, 16);
	assert_int_equal(e1npu_cmdbuf_add_op(cb, &d), 0);
	assert_int_equal(e1npu_cmdbuf_submit(cb), 0);
	e1npu_buffer_free(a);		/* never -EBUSY: cb holds it */
	assert_int_equal(e1npu_cmdbuf_wait(cb, -1), 0);
	for (i = 0; i < 64; i++) {
		int8_t v = (int8_t)(i * 37 - 100);

		assert_int_equal(pc[i], v > 0 ? v : 0);
	}
	e1npu_device_close(dev);	/* cb and c keep it open */
	e1npu_cmdbuf_free(cb);
	e1npu_buffer_free(c);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(e1npu_opcode_name(E1NPU_OP_MATMUL_S8), "matmul_s8");
	assert_string_equal(e1npu_opcode_name(0), "unknown");
	assert_int_equal(e1npu_opcode_engine(E1NPU_OP_DP_SCALAR), E1NPU_ENGINE_DATAPATH);
	assert_int_equal(e1npu_opcode_engine(E1NPU_OP_CONV2D_S8), E1NPU_ENGINE_WRAPPER);
	assert_int_equal(e1npu_opcode_engine(77), E1NPU_ENGINE_NONE);
	assert_string_equal(e1npu_engine_name(E1NPU_ENGINE_CPU), "cpu");
	assert_string_equal(e1npu_engine_name(E1NPU_ENGINE_NONE), "none");
	e1npu_op_desc_nop(NULL);	/* no crash */
	e1npu_op_desc_matmul(NULL, t_tensor(NULL, 0, 0), t_tensor(NULL, 0, 0),
			     t_tensor(NULL, 0, 0), 1, 1, 1, 0);
}

static void test_perf_errors(void **state)
{
	struct e1npu_device *dev = t_open();
	struct e1npu_perf p;

	(void)state;
	assert_int_equal(e1npu_device_read_perf(NULL, &p), -EINVAL);
	assert_int_equal(e1npu_device_read_perf(dev, NULL), -EINVAL);
	assert_int_equal(e1npu_device_read_perf(dev, &p), 0);
	assert_true(p.jobs == 0 && p.ops_hw == 0);
	/* the driver's counters are per device, not per open */
	if (t_on_sim())
		assert_true(p.wrapper_cycles == 0);
	e1npu_device_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_version_strerror),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_autodetect),
		cmocka_unit_test(test_info),
		cmocka_unit_test(test_arena_env),
		cmocka_unit_test(test_buffer_errors),
		cmocka_unit_test(test_cmdbuf_errors),
		cmocka_unit_test(test_invalid_ops_name_field),
		cmocka_unit_test(test_buffer_free_submitted),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_perf_errors),
	};

	return cmocka_run_group_tests_name("libe1npu-api", tests, NULL, NULL);
}
