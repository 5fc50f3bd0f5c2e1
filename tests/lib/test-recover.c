// SPDX-License-Identifier: MIT
/*
 * libe1npu on the kernel backend: a job submitted behind one that hangs
 * the engine completes normally, with its results: the driver runs one
 * job per engine at a time, so it never sat in the hardware queue behind
 * the hung one (UAPI v2: no -ECANCELED, nothing for userspace to redo).
 * Needs e1npu.ko on the QEMU board's NPU (the riscv64 guest): the hang is
 * injected through the device's inject-hang property, set with the guest
 * tool e1vm-qmp ($E1VM_QMP, default /tests/e1vm-qmp: QMP qom-set).
 * Skipped elsewhere.
 */
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib-test.h"

static const char *qmp_tool(void)
{
	const char *p = getenv("E1VM_QMP");

	return p && *p ? p : "/tests/e1vm-qmp";
}

/* e1vm-qmp set NAME VALUE: 0, or its exit status (-errno if not run) */
static int dev_set(const char *name, const char *val)
{
	pid_t pid;
	int st;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execl(qmp_tool(), qmp_tool(), "set", name, val, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -EINTR;
}

static void relu_cb(struct e1npu_device *dev, struct e1npu_buffer *in,
		    struct e1npu_buffer *out, struct e1npu_cmdbuf **cbp)
{
	struct e1npu_op_desc d;

	assert_int_equal(e1npu_cmdbuf_new(dev, cbp), 0);
	e1npu_op_desc_relu(&d, t_tensor(in, 0, 64), t_tensor(out, 0, 64), 16, 64);
	assert_int_equal(e1npu_cmdbuf_add_op(*cbp, &d), 0);
}

static void test_job_behind_hang_completes(void **state)
{
	struct e1npu_buffer *in, *out1, *out2;
	struct e1npu_cmdbuf *cb1, *cb2;
	struct e1npu_op_outcome o;
	struct e1npu_device *dev;
	int8_t *a, *c1, *c2;
	unsigned int i;

	(void)state;
	if (t_on_sim() || access(qmp_tool(), X_OK)) {
		print_message("[  SKIP    ] %s: needs e1npu.ko on the QEMU board's NPU (%s)\n",
			      __func__, qmp_tool());
		skip();
	}
	dev = t_open();
	a = t_buf(dev, 4096, &in);
	c1 = t_buf(dev, 4096, &out1);
	c2 = t_buf(dev, 4096, &out2);
	t_fill(a, 1024, 7);
	memset(c1, 0x5a, 1024);
	memset(c2, 0x5a, 1024);
	relu_cb(dev, in, out1, &cb1);
	relu_cb(dev, in, out2, &cb2);

	/* cb1's job hangs the engine; cb2's is queued behind it. */
	assert_int_equal(dev_set("inject-hang", "1"), 0);
	assert_int_equal(e1npu_cmdbuf_submit(cb1), 0);
	assert_int_equal(e1npu_cmdbuf_submit(cb2), 0);
	assert_int_equal(e1npu_cmdbuf_wait(cb1, -1), -EIO);
	dev_set("inject-hang", "0");
	assert_int_equal(e1npu_cmdbuf_get_outcome(cb1, 0, &o), 0);
	assert_int_equal(o.status, E1NPU_OP_STATUS_FAILED);
	assert_int_equal(o.error, -ETIMEDOUT);

	/* cb2's job ran once the engine was reset. */
	assert_int_equal(e1npu_cmdbuf_wait(cb2, -1), 0);
	assert_int_equal(e1npu_cmdbuf_get_outcome(cb2, 0, &o), 0);
	assert_int_equal(o.status, E1NPU_OP_STATUS_DONE);
	for (i = 0; i < 1024; i++)
		if (c2[i] != (a[i] < 0 ? 0 : a[i]))
			fail_msg("out[%u] = %d, relu(%d) expected", i, c2[i], a[i]);

	e1npu_cmdbuf_free(cb1);
	e1npu_cmdbuf_free(cb2);
	e1npu_buffer_free(in);
	e1npu_buffer_free(out1);
	e1npu_buffer_free(out2);
	e1npu_device_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job_behind_hang_completes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
