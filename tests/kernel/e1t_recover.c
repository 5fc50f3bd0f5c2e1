// SPDX-License-Identifier: MIT
/*
 * e1npu system tests: recovery and bounded kernel work (issue 9 section 1,
 * findings 1, 2, 3, 6 and the hard-error attribution of 9).
 *
 * - a queue overflow no job owns fails the oldest job after the ops it
 *   completed, not at op 0;
 * - a timeout fails the hung job with -ETIMEDOUT; the jobs queued behind
 *   it are run again by the kernel and complete with the right output;
 * - after a flush the driver waits for the engine to go idle before the
 *   fence signals: a buffer the slow-draining engine writes is never
 *   written after its job's result is visible;
 * - a 1024^3 MATMUL with A, B, C overlapping in one 4 MiB buffer and a
 *   datapath job of datapath_slots commands run with the soft-lockup detector at 2 s and the
 *   RCU stall timeout at 3 s, and leave no lockup or stall report;
 * - an engine that never idles after a flush wedges the device: SUBMIT
 *   fails with -EIO and the hung job's buffer stays allocated;
 * - the timeout and the hard error are in the kernel log at warning level,
 *   naming the engine, the client and the submitting pid.
 *
 * The last test leaves the device wedged: run-guest.sh reloads after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "e1t.h"
#include "e1npu_hw.h"

#define FILL 0x5a
#define CANARY 0xa5

#define FLUSH_TIMEOUT "/sys/module/e1npu/parameters/flush_timeout_ms"

/* the whole kernel log, NUL-terminated (free()), or NULL */
static char *read_klog(void)
{
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), got;
	char *buf;

	if (len <= 0)
		return NULL;
	buf = malloc((size_t)len + 1);
	if (!buf)
		return NULL;
	got = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (got < 0) {
		free(buf);
		return NULL;
	}
	buf[got] = 0;
	return buf;
}

/* lines of the kernel log that report a lockup or an RCU stall */
static int count_stalls(void)
{
	static const char *const pats[] = {
		"soft lockup", "hard LOCKUP", "detected stall",
		"rcu_preempt self-detected", "rcu_sched self-detected",
		"blocked for more than",
	};
	char *buf = read_klog(), *p;
	int n = 0;
	size_t i;

	if (!buf)
		return -1;
	for (i = 0; i < E1T_ARRAY_SIZE(pats); i++)
		for (p = strstr(buf, pats[i]); p; p = strstr(p + 1, pats[i]))
			n++;
	free(buf);
	return n;
}

/*
 * Lines of the kernel log holding "(pid <this process>): " followed by
 * @cause (the driver's warning for a failed job names its engine, client,
 * pid and cause); -1 when the log cannot be read.
 */
static int count_job_warnings(const char *engine, const char *cause)
{
	char needle[160], *buf = read_klog(), *line, *end;
	int n = 0;

	if (!buf)
		return -1;
	snprintf(needle, sizeof(needle), "(pid %d): %s", (int)getpid(), cause);
	for (line = buf; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line) - 1;
		else
			*end = 0;
		if (strstr(line, needle) && strstr(line, engine) &&
		    strstr(line, " job of client "))
			n++;
		if (!end[1])
			break;
	}
	free(buf);
	return n;
}

/* The job warning with @cause appeared (once more than @before). */
static void expect_job_warning(const char *name, const char *engine,
			       const char *cause, int before)
{
	int after = count_job_warnings(engine, cause);

	if (before < 0 || after < 0)
		e1t_fail(name, "cannot read the kernel log");
	else if (after <= before)
		e1t_fail(name, "no \"%s job of client N (pid %d): %s...\" line in the kernel log",
			 engine, (int)getpid(), cause);
	else
		e1t_pass(name);
}

/*
 * A buffer of @size, retried for up to 3 s: the buffers of a finished job
 * go back to the arena when the scheduler frees the job, a little after
 * its result is out.
 */
static int bo_new_retry(struct e1t_dev *d, uint64_t size, struct e1t_bo *bo)
{
	int ret, i;

	for (i = 0; i < 60; i++) {
		ret = e1t_bo_new(d, size, bo);
		if (ret != -ENOMEM && ret != -ENOSPC)
			break;
		e1t_sleep_ms(50);
	}
	return ret;
}

/* A relu op over rows [16 * row, 16 * row + rows) of a and c (16 bytes). */
static void relu_op(struct e1npu_hw_op *op, const struct e1t_bo *a,
		    const struct e1t_bo *c, uint32_t row, uint32_t rows)
{
	memset(op, 0, sizeof(*op));
	op->opcode = E1NPU_HWOP_RELU_S8;
	op->m = rows;
	op->n = 16;
	op->a = e1t_t(a, 16ull * row, 16);
	op->c = e1t_t(c, 16ull * row, 16);
}

/* rows [row, row + rows) of c are relu(a) */
static bool relu_rows_ok(const struct e1t_bo *a, const struct e1t_bo *c,
			 uint32_t row, uint32_t rows)
{
	uint32_t i;

	for (i = 16 * row; i < 16 * (row + rows); i++) {
		int8_t x = (int8_t)a->map[i];

		if ((int8_t)c->map[i] != (x < 0 ? 0 : x))
			return false;
	}
	return true;
}

static bool rows_are(const struct e1t_bo *c, uint32_t row, uint32_t rows,
		     uint8_t v)
{
	uint32_t i;

	for (i = 16 * row; i < 16 * (row + rows); i++)
		if (c->map[i] != v)
			return false;
	return true;
}

/* a fresh relu job passes (the device recovered) */
static void next_job_passes(struct e1t_dev *d, const char *name)
{
	struct e1t_result r;
	struct e1npu_hw_op op;
	struct e1t_bo a = { 0 }, c = { 0 };
	uint32_t seed = 99;
	int ret;

	ret = e1t_bo_new(d, 4096, &a);
	if (!ret)
		ret = e1t_bo_new(d, 4096, &c);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	relu_op(&op, &a, &c, 0, 64);
	ret = e1t_run(d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &r);
	if (ret)
		e1t_fail(name, "ret %d state %u error %d", ret, r.state, r.error);
	else if (!relu_rows_ok(&a, &c, 0, 64))
		e1t_fail(name, "wrong output");
	else
		e1t_pass(name);
out:
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &c);
}

/*
 * Finding 9: the device latches a queue overflow at DESC_HEAD (a slot
 * no job owns; inject-overflow-after) after op 0 of a 3-op job retired. The job fails at op 1
 * with cmds_done 1 (op 0's output is there), not at op 0.
 */
static void t_overflow_attribution(struct e1t_dev *d)
{
	const char *name = "recover-overflow-attribution";
	struct e1t_result r;
	struct e1npu_hw_op ops[3];
	struct e1t_bo a = { 0 }, c = { 0 };
	uint32_t seed = 5, i;
	int ret, logged;

	ret = e1t_bo_new(d, 4096, &a);
	if (!ret)
		ret = e1t_bo_new(d, 4096, &c);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	memset(c.map, FILL, 4096);
	for (i = 0; i < 3; i++)
		relu_op(&ops[i], &a, &c, 8 * i, 8);
	ret = e1t_dev_set("inject-overflow-after", "2");
	if (ret) {
		e1t_fail(name, "set inject-overflow-after: %s", strerror(-ret));
		goto out;
	}
	logged = count_job_warnings("wrapper", "descriptor queue overflow");
	ret = e1t_run(d, DRM_E1NPU_ENGINE_WRAPPER, ops, 3, &r);
	e1t_dev_set("inject-overflow-after", "0");
	if (ret < 0)
		e1t_fail(name, "submit/wait: %s", strerror(-ret));
	else if (r.state != DRM_E1NPU_JOB_STATE_FAILED || r.error != -EIO ||
		 r.err_code != E1_V0_ERR_OVERFLOW)
		e1t_fail(name, "state %u error %d err_code 0x%x, want FAILED/-EIO/0x%x",
			 r.state, r.error, r.err_code, E1_V0_ERR_OVERFLOW);
	else if (r.fail_index != 1 || r.cmds_done != 1)
		e1t_fail(name, "fail_index %u cmds_done %u, want 1 and 1 (op 0 completed)",
			 r.fail_index, r.cmds_done);
	else if (!relu_rows_ok(&a, &c, 0, 8) || !rows_are(&c, 8, 16, FILL))
		e1t_fail(name, "op 0 output missing or ops 1-2 ran");
	else
		e1t_pass(name);
	/* the hard error is in the kernel log, at warning level */
	expect_job_warning("recover-overflow-logged", "wrapper",
			   "descriptor queue overflow", logged);
	next_job_passes(d, "recover-overflow-next-job");
out:
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &c);
}

/*
 * A job whose completion interrupt was lost ends through the timeout
 * handler, which finds it retired; the interrupt line must work again
 * afterwards: the next jobs complete well within the 2 s job timeout.
 */
static void t_lost_irq(struct e1t_dev *d)
{
	const char *name = "recover-lost-irq-line-rearmed";
	struct e1t_result r;
	struct e1npu_hw_op op;
	struct e1t_bo a = { 0 }, c = { 0 };
	uint32_t seed = 61, i;
	double worst = 0;
	int ret;

	ret = e1t_bo_new(d, 4096, &a);
	if (!ret)
		ret = e1t_bo_new(d, 4096, &c);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	relu_op(&op, &a, &c, 0, 64);
	ret = e1t_dev_set("inject-drop-irq", "1");
	if (ret) {
		e1t_fail(name, "set inject-drop-irq: %s", strerror(-ret));
		goto out;
	}
	ret = e1t_run(d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &r);
	e1t_dev_set("inject-drop-irq", "0");
	if (ret < 0) {
		e1t_fail(name, "job with the lost interrupt: %s", strerror(-ret));
		goto out;
	}
	for (i = 0; i < 3; i++) {
		uint64_t t0 = e1t_now_ns();
		double s;

		memset(c.map, FILL, 4096);
		ret = e1t_run(d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &r);
		s = (double)(e1t_now_ns() - t0) / 1e9;
		if (s > worst)
			worst = s;
		if (ret || !relu_rows_ok(&a, &c, 0, 64)) {
			e1t_fail(name, "job %u after it: ret %d state %u error %d",
				 i, ret, r.state, r.error);
			goto out;
		}
	}
	e1t_log("%s: slowest of 3 later jobs %.2f s", name, worst);
	if (worst > 1.5)
		e1t_fail(name, "a later job took %.2f s: it waited for the timeout", worst);
	else
		e1t_pass(name);
out:
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &c);
}

/*
 * Finding 3, UAPI v2: job A hangs, jobs B (one command) and C (two) wait
 * on the engine behind it. A fails with -ETIMEDOUT and nothing of it
 * written; the kernel resets the engine and runs B and C again from their
 * first command: both complete (fence error 0, status DONE, every command
 * done) with the CPU reference's output.
 */
static void t_rerun_behind_hang(struct e1t_dev *d)
{
	const char *name = "recover-rerun-behind-hang";
	struct e1t_result ra, rb, rc;
	struct e1npu_hw_op oa, ob, oc[2];
	struct e1t_bo a = { 0 }, ca = { 0 }, cb = { 0 }, cc = { 0 };
	struct e1t_job ja, jb, jc;
	uint32_t seed = 11;
	int ret, logged;

	ret = e1t_bo_new(d, 4096, &a);
	if (!ret)
		ret = e1t_bo_new(d, 4096, &ca);
	if (!ret)
		ret = e1t_bo_new(d, 4096, &cb);
	if (!ret)
		ret = e1t_bo_new(d, 4096, &cc);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	memset(ca.map, FILL, 4096);
	memset(cb.map, FILL, 4096);
	memset(cc.map, FILL, 4096);
	relu_op(&oa, &a, &ca, 0, 16);
	relu_op(&ob, &a, &cb, 16, 16);
	relu_op(&oc[0], &a, &cc, 32, 8);
	relu_op(&oc[1], &a, &cc, 40, 8);
	ret = e1t_dev_set("inject-hang", "1");
	if (ret) {
		e1t_fail(name, "set inject-hang: %s", strerror(-ret));
		goto out;
	}
	logged = count_job_warnings("wrapper", "timed out after");
	ret = e1t_submit(d, DRM_E1NPU_ENGINE_WRAPPER, &oa, 1, &ja);
	if (!ret)
		ret = e1t_submit(d, DRM_E1NPU_ENGINE_WRAPPER, &ob, 1, &jb);
	if (!ret)
		ret = e1t_submit(d, DRM_E1NPU_ENGINE_WRAPPER, oc, 2, &jc);
	if (ret) {
		e1t_fail(name, "submit: %s", strerror(-ret));
		goto out_clear;
	}
	ret = e1t_job_wait(d, &ja, E1T_JOB_TIMEOUT_MS, &ra);
	if (!ret)
		ret = e1t_job_wait(d, &jb, E1T_JOB_TIMEOUT_MS, &rb);
	if (!ret)
		ret = e1t_job_wait(d, &jc, E1T_JOB_TIMEOUT_MS, &rc);
	if (ret) {
		e1t_fail(name, "wait: %s", strerror(-ret));
		goto out_clear;
	}
	e1t_log("%s: A state %u error %d, B state %u error %d fence %d cmds_done %u, C state %u error %d fence %d cmds_done %u",
		name, ra.state, ra.error, rb.state, rb.error, rb.fence_error,
		rb.cmds_done, rc.state, rc.error, rc.fence_error, rc.cmds_done);
	if (ra.state != DRM_E1NPU_JOB_STATE_FAILED || ra.error != -ETIMEDOUT ||
	    ra.fence_error != -ETIMEDOUT)
		e1t_fail(name, "hung job: state %u error %d fence %d, want FAILED/-ETIMEDOUT",
			 ra.state, ra.error, ra.fence_error);
	else if (!rows_are(&ca, 0, 256, FILL))
		e1t_fail(name, "the hung job wrote its output");
	else if (rb.state != DRM_E1NPU_JOB_STATE_DONE || rb.error ||
		 rb.fence_error || rb.cmds_done != 1)
		e1t_fail(name, "job B behind it: state %u error %d fence %d cmds_done %u, want DONE/0/0/1",
			 rb.state, rb.error, rb.fence_error, rb.cmds_done);
	else if (rc.state != DRM_E1NPU_JOB_STATE_DONE || rc.error ||
		 rc.fence_error || rc.cmds_done != 2)
		e1t_fail(name, "job C behind it: state %u error %d fence %d cmds_done %u, want DONE/0/0/2",
			 rc.state, rc.error, rc.fence_error, rc.cmds_done);
	else if (!relu_rows_ok(&a, &cb, 16, 16) || !rows_are(&cb, 0, 16, FILL) ||
		 !rows_are(&cb, 32, 224, FILL))
		e1t_fail(name, "job B's output is not relu(a) rows 16-31 (or it wrote elsewhere)");
	else if (!relu_rows_ok(&a, &cc, 32, 16) || !rows_are(&cc, 0, 32, FILL) ||
		 !rows_are(&cc, 48, 208, FILL))
		e1t_fail(name, "job C's output is not relu(a) rows 32-47 (or it wrote elsewhere)");
	else if ((ret = e1t_bo_wait(d, cc.handle, 1000000000ll)) != 0)
		e1t_fail(name, "BO_WAIT on job C's output: %d", ret);
	else
		e1t_pass(name);
	/* the timeout and the reset are in the kernel log */
	if (!ret)
		expect_job_warning("recover-hang-logged", "wrapper",
				   "timed out after", logged);
out_clear:
	e1t_dev_set("inject-hang", "0");
	next_job_passes(d, "recover-rerun-next-job");
out:
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &ca);
	e1t_bo_free(d, &cb);
	e1t_bo_free(d, &cc);
}

/*
 * Finding 2: the engine takes 4 s per descriptor (exec-delay-ms) and a
 * flush lets the executing one finish 500 ms later (flush-drain-ms). The
 * job times out (2 s); once its result is visible the test writes a
 * canary into its output and checks 1.5 s later that the engine did not
 * overwrite it: the driver waited for STATUS.busy == 0 before the fence.
 */
static void t_flush_ordering(struct e1t_dev *d)
{
	const char *name = "recover-flush-waits-for-idle";
	char old_timeout[32] = "1000";
	struct e1t_result r;
	struct e1npu_hw_op op;
	struct e1t_bo a = { 0 }, c = { 0 };
	struct e1t_job job;
	uint32_t seed = 21;
	uint64_t t0;
	int ret;

	ret = e1t_bo_new(d, 4096, &a);
	if (!ret)
		ret = e1t_bo_new(d, 4096, &c);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	memset(c.map, FILL, 4096);
	relu_op(&op, &a, &c, 0, 64);
	/* a wide margin over the drain: a loaded TCG host stretches it */
	if (e1t_read_file(FLUSH_TIMEOUT, old_timeout, sizeof(old_timeout)) ||
	    e1t_write_file(FLUSH_TIMEOUT, "10000")) {
		e1t_fail(name, "cannot set %s", FLUSH_TIMEOUT);
		goto out;
	}
	if (e1t_dev_set("exec-delay-ms", "4000") ||
	    e1t_dev_set("flush-drain-ms", "500")) {
		e1t_fail(name, "cannot set exec-delay-ms/flush-drain-ms");
		goto out_clear;
	}
	t0 = e1t_now_ns();
	ret = e1t_submit(d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &job);
	if (!ret)
		ret = e1t_job_wait(d, &job, E1T_JOB_TIMEOUT_MS, &r);
	if (ret) {
		e1t_fail(name, "submit/wait: %s", strerror(-ret));
		goto out_clear;
	}
	/* the job's result is out: the buffer is the application's again */
	memset(c.map, CANARY, 4096);
	e1t_log("%s: result after %.2f s: state %u error %d", name,
		(double)(e1t_now_ns() - t0) / 1e9, r.state, r.error);
	e1t_sleep_ms(1500);
	if (r.state != DRM_E1NPU_JOB_STATE_FAILED || r.error != -ETIMEDOUT)
		e1t_fail(name, "state %u error %d, want FAILED/-ETIMEDOUT", r.state,
			 r.error);
	else if (!rows_are(&c, 0, 256, CANARY))
		e1t_fail(name, "the engine wrote the output after the job's result was out");
	else
		e1t_pass(name);
out_clear:
	e1t_dev_set("exec-delay-ms", "0");
	e1t_dev_set("flush-drain-ms", "0");
	e1t_write_file(FLUSH_TIMEOUT, old_timeout);
	next_job_passes(d, "recover-flush-next-job");
out:
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &c);
}

/*
 * Finding 1: the biggest MATMUL the validator takes, 1024^3, with A, B
 * and C overlapping in one 4 MiB buffer, 8 of them in one job. It may run
 * to the end or time out (2 s) and be flushed; either way no CPU may sit
 * with interrupts off or without rescheduling long enough for the soft
 * lockup detector (2 s here) or an RCU stall (3 s) to report.
 */
static void t_large_matmul(struct e1t_dev *d)
{
	const char *name = "recover-large-matmul-no-lockup";
	const uint32_t dim = 1024, nops = 8;
	struct e1t_result r;
	struct e1npu_hw_op ops[8];
	struct e1t_bo buf = { 0 };
	uint32_t seed = 31, i;
	int before, after, ret;
	uint64_t t0;

	if (d->info.arena_size < 4ull << 20) {
		e1t_skip(name, "arena of %llu bytes", (unsigned long long)d->info.arena_size);
		return;
	}
	/* the arena may be 4 MiB exactly: the job names no status record
	 * and its outcome is its fence's */
	e1t_jobs_release(d);
	d->fence_only = true;
	ret = bo_new_retry(d, 4ull << 20, &buf);
	if (ret) {
		e1t_fail(name, "4 MiB buffer: %s", strerror(-ret));
		d->fence_only = false;
		return;
	}
	e1t_fill_s8(buf.map, buf.size, &seed);
	for (i = 0; i < nops; i++) {
		memset(&ops[i], 0, sizeof(ops[i]));
		ops[i].opcode = E1NPU_HWOP_MATMUL_S8;
		ops[i].m = dim;
		ops[i].n = dim;
		ops[i].k = dim;
		ops[i].a = e1t_t(&buf, 0, dim);
		ops[i].b = e1t_t(&buf, 1u << 20, dim);
		ops[i].c = e1t_t(&buf, 0, 4 * dim);
	}
	/* the soft-lockup detector at 2 s; the hard one (the buddy
	 * detector, 1 s at this threshold) off meanwhile: a vCPU thread
	 * the host does not run for a second is no lockup of the guest */
	e1t_write_file("/proc/sys/kernel/nmi_watchdog", "0");
	e1t_write_file("/proc/sys/kernel/watchdog_thresh", "1");
	e1t_write_file("/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout", "3");
	before = count_stalls();
	t0 = e1t_now_ns();
	ret = e1t_run(d, DRM_E1NPU_ENGINE_WRAPPER, ops, nops, &r);
	e1t_log("%s: %ux%ux%u x%u: %.2f s, ret %d state %u error %d cmds_done %u",
		name, dim, dim, dim, nops, (double)(e1t_now_ns() - t0) / 1e9, ret,
		r.state, r.error, r.cmds_done);
	/* a stall report may come a little after the fact */
	e1t_sleep_ms(4000);
	after = count_stalls();
	e1t_write_file("/proc/sys/kernel/watchdog_thresh", "10");
	e1t_write_file("/proc/sys/kernel/nmi_watchdog", "1");
	e1t_write_file("/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout", "21");
	if (ret < 0)
		e1t_fail(name, "submit/wait: %s", strerror(-ret));
	else if (r.state != DRM_E1NPU_JOB_STATE_DONE &&
		 !(r.state == DRM_E1NPU_JOB_STATE_FAILED && r.error == -ETIMEDOUT))
		e1t_fail(name, "state %u error %d: neither done nor timed out",
			 r.state, r.error);
	else if (before < 0 || after != before)
		e1t_fail(name, "%d lockup/stall reports in the kernel log (%d before)",
			 after, before);
	else
		e1t_pass(name);
	e1t_bo_free(d, &buf);
	e1t_jobs_release(d);
	d->fence_only = false;
	next_job_passes(d, "recover-large-matmul-next-job");
}

/*
 * Finding 6: a long datapath job, up to datapath_slots DP_SCALAR ADDs
 * (the most commands UAPI v2 lets a datapath job hold) of 4096 records
 * each, all writing the same output, under the same
 * detectors; every result checked. The op count is calibrated to keep the
 * job at about 6 s of run_job (it must outlast the 2 s soft-lockup
 * threshold, and a debug kernel is ten times slower than the plain one).
 */
static void t_long_datapath(struct e1t_dev *d)
{
	const char *name = "recover-long-datapath-job";
	enum { REC = 4096 };
	/* a datapath job holds at most datapath_slots commands (UAPI v2) */
	uint32_t nops = d->info.datapath_slots < 255 ? d->info.datapath_slots : 255;
	struct e1t_result r;
	struct e1npu_hw_op *ops;
	struct e1t_bo in = { 0 }, out = { 0 };
	uint32_t seed = 41, i, *rec;
	int before, after, ret;
	bool ok = true;
	double per_op;
	uint64_t t0;

	if (!(d->info.engines & (1u << DRM_E1NPU_ENGINE_DATAPATH))) {
		e1t_skip(name, "no datapath");
		return;
	}
	ops = calloc(nops, sizeof(*ops));
	ret = ops ? e1t_bo_new(d, 12 * REC, &in) : -ENOMEM;
	if (!ret)
		ret = e1t_bo_new(d, 8ull * REC, &out);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		goto out;
	}
	rec = (uint32_t *)in.map;
	for (i = 0; i < 3 * REC; i++)
		rec[i] = e1t_rand(&seed);
	memset(out.map, FILL, out.size);
	for (i = 0; i < nops; i++) {
		ops[i].opcode = E1NPU_HWOP_DP_SCALAR;
		ops[i].m = REC;
		ops[i].k = E1_DP_OP_ADD;
		ops[i].a = e1t_t(&in, 0, 0);
		ops[i].c = e1t_t(&out, 0, 0);
	}
	/* calibration: 4 ops */
	if (nops < 4) {
		e1t_fail(name, "datapath_slots %u", nops);
		goto out;
	}
	t0 = e1t_now_ns();
	ret = e1t_run(d, DRM_E1NPU_ENGINE_DATAPATH, ops, 4, &r);
	if (ret) {
		e1t_fail(name, "4-op calibration job: ret %d state %u error %d",
			 ret, r.state, r.error);
		goto out;
	}
	per_op = (double)(e1t_now_ns() - t0) / 1e9 / 4;
	if (per_op > 0 && 6.0 / per_op < nops)
		nops = 6.0 / per_op < 8 ? 8 : (uint32_t)(6.0 / per_op);
	memset(out.map, FILL, out.size);
	/* the soft-lockup detector at 2 s; the hard one (the buddy
	 * detector, 1 s at this threshold) off meanwhile: a vCPU thread
	 * the host does not run for a second is no lockup of the guest */
	e1t_write_file("/proc/sys/kernel/nmi_watchdog", "0");
	e1t_write_file("/proc/sys/kernel/watchdog_thresh", "1");
	e1t_write_file("/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout", "3");
	before = count_stalls();
	t0 = e1t_now_ns();
	ret = e1t_run(d, DRM_E1NPU_ENGINE_DATAPATH, ops, nops, &r);
	e1t_log("%s: %u ops x %u records: %.2f s, ret %d state %u error %d",
		name, nops, REC, (double)(e1t_now_ns() - t0) / 1e9, ret, r.state,
		r.error);
	e1t_sleep_ms(4000);
	after = count_stalls();
	e1t_write_file("/proc/sys/kernel/watchdog_thresh", "10");
	e1t_write_file("/proc/sys/kernel/nmi_watchdog", "1");
	e1t_write_file("/sys/module/rcupdate/parameters/rcu_cpu_stall_timeout", "21");
	for (i = 0; ok && !ret && i < REC; i++) {
		const uint32_t *o = (const uint32_t *)out.map + 2 * i;

		ok = o[0] == rec[3 * i] + rec[3 * i + 1] && o[1] == 0;
	}
	if (ret)
		e1t_fail(name, "ret %d state %u error %d", ret, r.state, r.error);
	else if (!ok)
		e1t_fail(name, "record %u: wrong sum", i - 1);
	else if (before < 0 || after != before)
		e1t_fail(name, "%d lockup/stall reports in the kernel log (%d before)",
			 after, before);
	else
		e1t_pass(name);
out:
	e1t_bo_free(d, &in);
	e1t_bo_free(d, &out);
	free(ops);
}

/*
 * Finding 2, wedged: the engine stays busy after the flush
 * (inject-stuck-busy). The job fails with -ETIMEDOUT after the bounded
 * wait, SUBMIT then fails with -EIO, and the job's buffer stays allocated
 * after the application closed it: an arena-sized buffer no longer fits.
 * Userspace is told: a change uevent on the accel node with
 * WEDGED=rebind (drm_dev_wedged_event(), "recover-wedged-uevent").
 */
static void t_wedged(struct e1t_dev *d)
{
	const char *name = "recover-wedged";
	struct e1t_result r;
	struct e1npu_hw_op op;
	struct e1t_bo a = { 0 }, c = { 0 }, big = { 0 };
	struct e1t_job job;
	uint32_t seed = 51;
	char ev[256];
	int ret, uev;

	/* the whole arena fits while nothing else is allocated (the
	 * helper's status buffer neither) */
	e1t_jobs_release(d);
	ret = bo_new_retry(d, d->info.arena_size, &big);
	if (ret) {
		e1t_fail(name, "arena-sized buffer before the test: %s", strerror(-ret));
		return;
	}
	e1t_bo_free(d, &big);
	memset(&big, 0, sizeof(big));
	ret = e1t_bo_new(d, 4096, &a);
	if (!ret)
		ret = e1t_bo_new(d, 4096, &c);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		goto out;
	}
	e1t_fill_s8(a.map, 4096, &seed);
	relu_op(&op, &a, &c, 0, 64);
	/* listening before the wedge: the event is sent once */
	uev = e1t_uevent_open();
	if (uev < 0)
		e1t_fail("recover-wedged-uevent", "uevent socket: %s", strerror(-uev));
	if (e1t_dev_set("exec-delay-ms", "10000") ||
	    e1t_dev_set("inject-stuck-busy", "1")) {
		e1t_fail(name, "cannot set exec-delay-ms/inject-stuck-busy");
		goto out_clear;
	}
	ret = e1t_submit(d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &job);
	if (!ret)
		ret = e1t_job_wait(d, &job, E1T_JOB_TIMEOUT_MS, &r);
	if (ret) {
		e1t_fail(name, "submit/wait: %s", strerror(-ret));
		goto out_clear;
	}
	if (r.state != DRM_E1NPU_JOB_STATE_FAILED || r.error != -ETIMEDOUT) {
		e1t_fail(name, "state %u error %d, want FAILED/-ETIMEDOUT", r.state,
			 r.error);
		goto out_clear;
	}
	ret = e1t_submit(d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &job);
	if (ret != -EIO) {
		e1t_fail(name, "SUBMIT on a wedged device: %d, want -EIO", ret);
		goto out_clear;
	}
	if (uev >= 0) {
		ret = e1t_uevent_wait(uev, "WEDGED=rebind", "SUBSYSTEM=accel",
				      NULL, 5000, ev, sizeof(ev));
		if (ret)
			e1t_fail("recover-wedged-uevent", "no change uevent with WEDGED=rebind on an accel node within 5 s");
		else if (strncmp(ev, "change@", 7) || !strstr(ev, "/accel/accel"))
			e1t_fail("recover-wedged-uevent", "WEDGED=rebind came as '%s', want change@.../accel/accelN", ev);
		else
			e1t_pass("recover-wedged-uevent");
	}
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &c);
	e1t_jobs_release(d);
	ret = bo_new_retry(d, d->info.arena_size, &big);
	if (!ret)
		e1t_fail(name, "an arena-sized buffer was allocated: the hung job's buffers were released");
	else
		e1t_pass(name);
out_clear:
	e1t_dev_set("inject-stuck-busy", "0");
	e1t_dev_set("exec-delay-ms", "0");
	if (uev >= 0)
		close(uev);
out:
	e1t_bo_free(d, &big);
	e1t_bo_free(d, &a);
	e1t_bo_free(d, &c);
}

int e1t_group_recover(void)
{
	struct e1t_dev d;
	int ret;

	ret = e1t_open(&d);
	if (ret) {
		e1t_fail("recover", "open: %s", strerror(-ret));
		return 1;
	}
	t_overflow_attribution(&d);
	t_lost_irq(&d);
	t_rerun_behind_hang(&d);
	t_flush_ordering(&d);
	t_long_datapath(&d);
	t_large_matmul(&d);
	t_wedged(&d);
	e1t_close(&d);
	return e1t_failures;
}
