// SPDX-License-Identifier: MIT
/*
 * e1npu system tests: two processes at once, injected faults (through the
 * QEMU device's properties, e1t_dev_set()), the CPU-fallback contract, a
 * device without Gemmini, and jobs left in flight for the unload tests.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e1t.h"
#include "e1npu_hw.h"

#define SENTINEL 0xc3

/* A matmul with its buffers and expected output image. */
struct mm {
	uint32_t m, n, k, as, bs, cs;
	struct e1t_bo a, b, c;
	uint8_t *want;		/* expected image of all of C */
};

static int mm_new(struct e1t_dev *d, struct mm *x, uint32_t m, uint32_t n,
		  uint32_t k, uint32_t seed)
{
	int ret;

	memset(x, 0, sizeof(*x));
	x->m = m;
	x->n = n;
	x->k = k;
	x->as = e1t_align(k, 16);
	x->bs = e1t_align(n, 16);
	x->cs = e1t_align(n * 4, 16);
	ret = e1t_bo_new(d, (uint64_t)x->as * m, &x->a);
	if (!ret)
		ret = e1t_bo_new(d, (uint64_t)x->bs * k, &x->b);
	if (!ret)
		ret = e1t_bo_new(d, (uint64_t)x->cs * m, &x->c);
	if (!ret) {
		x->want = malloc(x->c.size);
		if (!x->want)
			ret = -ENOMEM;
	}
	if (ret)
		return ret;
	e1t_fill_s8(x->a.map, x->a.size, &seed);
	e1t_fill_s8(x->b.map, x->b.size, &seed);
	memset(x->c.map, SENTINEL, x->c.size);
	memset(x->want, SENTINEL, x->c.size);
	e1t_ref_matmul((int8_t *)x->a.map, x->as, (int8_t *)x->b.map, x->bs,
		       (int32_t *)x->want, x->cs / 4, m, n, k, false);
	return 0;
}

static void mm_op(const struct mm *x, struct e1npu_hw_op *op)
{
	memset(op, 0, sizeof(*op));
	op->opcode = E1NPU_HWOP_MATMUL_S8;
	op->m = x->m;
	op->n = x->n;
	op->k = x->k;
	op->a = e1t_t(&x->a, 0, x->as);
	op->b = e1t_t(&x->b, 0, x->bs);
	op->c = e1t_t(&x->c, 0, x->cs);
}

static bool mm_ok(const struct mm *x)
{
	return memcmp(x->c.map, x->want, x->c.size) == 0;
}

static bool mm_untouched(const struct mm *x)
{
	uint64_t i;

	for (i = 0; i < x->c.size; i++)
		if (x->c.map[i] != SENTINEL)
			return false;
	return true;
}

static void mm_free(struct e1t_dev *d, struct mm *x)
{
	e1t_bo_free(d, &x->a);
	e1t_bo_free(d, &x->b);
	e1t_bo_free(d, &x->c);
	free(x->want);
	x->want = NULL;
}

/* a fresh matmul must pass after a fault */
static void next_job_passes(struct e1t_dev *d, const char *name, uint32_t seed)
{
	struct e1t_result r;
	struct e1npu_hw_op op;
	struct mm x;
	int ret;

	ret = mm_new(d, &x, 20, 24, 28, seed);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		mm_free(d, &x);
		return;
	}
	mm_op(&x, &op);
	ret = e1t_run(d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &r);
	if (ret)
		e1t_fail(name, "ret %d state %u error %d err_code 0x%x", ret,
			 r.state, r.error, r.err_code);
	else if (!mm_ok(&x))
		e1t_fail(name, "wrong output");
	else
		e1t_pass(name);
	mm_free(d, &x);
}

/* job NAME: one matmul on the wrapper computes the CPU reference (after a
 * rebind, say) */
int e1t_group_job(int argc, char **argv)
{
	struct e1t_dev d;
	int ret;

	if (argc < 1)
		return 2;
	ret = e1t_open(&d);
	if (ret) {
		e1t_fail(argv[0], "open/DEV_QUERY %s: %s", e1t_dev_path(),
			 strerror(-ret));
		return 1;
	}
	next_job_passes(&d, argv[0], 9);
	e1t_close(&d);
	return e1t_failures ? 1 : 0;
}

/* ---- two processes ------------------------------------------------------ */

#define MULTI_JOBS 12

static int multi_child(int idx)
{
	struct e1t_result r;
	struct e1npu_hw_op op;
	struct mm x[MULTI_JOBS];
	struct e1t_job ids[MULTI_JOBS];
	uint32_t seed = 1000 + 77 * (uint32_t)idx, i;
	struct e1t_dev d;
	char name[32];
	int ret, bad = 0;

	snprintf(name, sizeof(name), "multi-process-%d", idx);
	memset(x, 0, sizeof(x));
	ret = e1t_open(&d);
	if (ret) {
		e1t_fail(name, "open: %s", strerror(-ret));
		return 1;
	}
	for (i = 0; i < MULTI_JOBS; i++) {
		uint32_t m = 1 + e1t_rand(&seed) % 48;
		uint32_t n = 1 + e1t_rand(&seed) % 48;
		uint32_t k = 1 + e1t_rand(&seed) % 48;

		ret = mm_new(&d, &x[i], m, n, k, seed + i);
		if (ret) {
			e1t_fail(name, "buffers: %s", strerror(-ret));
			bad = 1;
			goto out;
		}
	}
	for (i = 0; i < MULTI_JOBS; i++) {
		mm_op(&x[i], &op);
		ret = e1t_submit(&d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &ids[i]);
		if (ret) {
			e1t_fail(name, "submit %u: %s", i, strerror(-ret));
			bad = 1;
			goto out;
		}
	}
	for (i = 0; i < MULTI_JOBS; i++) {
		ret = e1t_job_wait(&d, &ids[i], E1T_JOB_TIMEOUT_MS, &r);
		if (ret || r.state != DRM_E1NPU_JOB_STATE_DONE) {
			e1t_fail(name, "job %u: ret %d state %u error %d", i, ret,
				 r.state, r.error);
			bad = 1;
			goto out;
		}
		if (!mm_ok(&x[i])) {
			e1t_fail(name, "job %u (%ux%ux%u): wrong output", i,
				 x[i].m, x[i].n, x[i].k);
			bad = 1;
			goto out;
		}
	}
	e1t_pass(name);
out:
	for (i = 0; i < MULTI_JOBS; i++)
		mm_free(&d, &x[i]);
	e1t_close(&d);
	return bad;
}

int e1t_group_multi(void)
{
	pid_t pid[2];
	int i, st, bad = 0;

	fflush(stdout);
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			e1t_fail("multi-process", "fork: %s", strerror(errno));
			return 1;
		}
		if (pid[i] == 0)
			_exit(multi_child(i));
	}
	for (i = 0; i < 2; i++) {
		if (waitpid(pid[i], &st, 0) < 0 || !WIFEXITED(st) ||
		    WEXITSTATUS(st)) {
			e1t_log("multi-process: child %d status 0x%x", i, st);
			bad = 1;
		}
	}
	if (bad)
		e1t_fail("multi-process", "a child failed");
	else
		e1t_pass("multi-process");
	return bad;
}

/* ---- faults ------------------------------------------------------------- */

static int fault_setup(struct e1t_dev *d, struct mm *x, const char *name)
{
	int ret = e1t_open(d);

	if (ret) {
		e1t_fail(name, "open: %s", strerror(-ret));
		return ret;
	}
	ret = mm_new(d, x, 16, 32, 48, 4242);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		mm_free(d, x);
		e1t_close(d);
	}
	return ret;
}

int e1t_group_fault_bus(void)
{
	const char *name = "fault-bus-error";
	struct e1t_result r;
	struct e1npu_hw_op op;
	struct e1t_dev d;
	struct mm x;
	int ret;

	if (fault_setup(&d, &x, name))
		return 1;
	ret = e1t_dev_set("inject-bus-error", "1");
	if (ret) {
		e1t_fail(name, "set inject-bus-error: %s", strerror(-ret));
		goto out;
	}
	mm_op(&x, &op);
	ret = e1t_run(&d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &r);
	e1t_dev_set("inject-bus-error", "0");
	if (ret < 0)
		e1t_fail(name, "submit/wait: %s", strerror(-ret));
	else if (r.state != DRM_E1NPU_JOB_STATE_FAILED || r.error != -EFAULT)
		e1t_fail(name, "state %u error %d err_code 0x%x, want FAILED/-EFAULT",
			 r.state, r.error, r.err_code);
	else if (r.err_code != E1_V0_ERR_BUS || r.fail_index != 0 ||
		 r.cmds_done != 0)
		e1t_fail(name, "err_code 0x%x fail_index %u cmds_done %u", r.err_code,
			 r.fail_index, r.cmds_done);
	else if (!mm_untouched(&x))
		e1t_fail(name, "output written despite the bus error");
	else
		e1t_pass(name);
	next_job_passes(&d, "fault-bus-error-next-job", 5);
out:
	mm_free(&d, &x);
	e1t_close(&d);
	return e1t_failures;
}

int e1t_group_fault_hang(void)
{
	const char *name = "fault-hang-timeout";
	struct e1t_result r;
	struct e1npu_hw_op op;
	struct e1t_dev d;
	uint64_t t0;
	struct e1t_job job;
	char val[16];
	struct mm x;
	int ret;

	if (fault_setup(&d, &x, name))
		return 1;
	ret = e1t_dev_set("inject-hang", "1");
	if (ret) {
		e1t_fail(name, "set inject-hang: %s", strerror(-ret));
		goto out;
	}
	mm_op(&x, &op);
	t0 = e1t_now_ns();
	ret = e1t_submit(&d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &job);
	if (ret) {
		e1t_fail(name, "submit: %s", strerror(-ret));
		goto out_clear;
	}
	/* while hung, waiting for the output buffer times out */
	ret = e1t_bo_wait(&d, x.c.handle, 100000000);
	if (ret != -ETIME)
		e1t_fail("bo-wait-busy-timeout", "BO_WAIT on a hung job: %d, want -ETIME",
			 ret);
	else
		e1t_pass("bo-wait-busy-timeout");
	ret = e1t_job_wait(&d, &job, E1T_JOB_TIMEOUT_MS, &r);
	if (ret) {
		e1t_fail(name, "wait: %s", strerror(-ret));
		goto out_clear;
	}
	e1t_log("%s: job ended after %.2f s: state %u error %d err_code 0x%x",
		name, (double)(e1t_now_ns() - t0) / 1e9, r.state, r.error,
		r.err_code);
	if (r.state != DRM_E1NPU_JOB_STATE_FAILED || r.error != -ETIMEDOUT)
		e1t_fail(name, "state %u error %d, want FAILED/-ETIMEDOUT", r.state,
			 r.error);
	else if (r.cmds_done != r.fail_index || r.fail_index != 0)
		e1t_fail(name, "fail_index %u cmds_done %u", r.fail_index,
			 r.cmds_done);
	else if (!mm_untouched(&x))
		e1t_fail(name, "output written by a hung job");
	else
		e1t_pass(name);
	/* the reset (CTRL.flush) ended the hang */
	if (!e1t_dev_get("inject-hang", val, sizeof(val)))
		e1t_log("%s: inject-hang after the reset: %s", name, val);
	ret = e1t_bo_wait(&d, x.c.handle, 5000000000ll);
	if (ret)
		e1t_fail("bo-wait-after-reset", "BO_WAIT: %d", ret);
	else
		e1t_pass("bo-wait-after-reset");
out_clear:
	e1t_dev_set("inject-hang", "0");
	next_job_passes(&d, "fault-hang-next-job", 6);
out:
	mm_free(&d, &x);
	e1t_close(&d);
	return e1t_failures;
}

int e1t_group_fault_irq(void)
{
	const char *name = "fault-dropped-irq";
	struct e1t_result r;
	struct e1npu_hw_op op;
	struct e1t_dev d;
	struct mm x;
	uint64_t t0;
	int ret;

	if (fault_setup(&d, &x, name))
		return 1;
	ret = e1t_dev_set("inject-drop-irq", "1");
	if (ret) {
		e1t_fail(name, "set inject-drop-irq: %s", strerror(-ret));
		goto out;
	}
	mm_op(&x, &op);
	t0 = e1t_now_ns();
	ret = e1t_run(&d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &r);
	e1t_dev_set("inject-drop-irq", "0");
	e1t_log("%s: job ended after %.2f s: ret %d state %u error %d", name,
		(double)(e1t_now_ns() - t0) / 1e9, ret, r.state, r.error);
	/* the job must end: done (recovered) or timed out and reset */
	if (ret < 0)
		e1t_fail(name, "submit/wait: %s", strerror(-ret));
	else if (ret == 0 && !mm_ok(&x))
		e1t_fail(name, "job done but wrong output");
	else if (ret > 0 && (r.state != DRM_E1NPU_JOB_STATE_FAILED ||
			     r.error != -ETIMEDOUT))
		e1t_fail(name, "state %u error %d", r.state, r.error);
	else
		e1t_pass(name);
	next_job_passes(&d, "fault-dropped-irq-next-job", 7);
out:
	mm_free(&d, &x);
	e1t_close(&d);
	return e1t_failures;
}

/*
 * A job of wrapper commands with the contract's opcode 0xFF descriptor
 * (E1_V0_OP_FALLBACK, written here by hand, not by the encoder) at
 * @fb: the hardware hands it to the CPU-fallback path. Returns 0 with
 * the outcome in *@r, or -errno.
 */
static int run_with_fallback(struct e1t_dev *d, const struct e1npu_hw_op *ops,
			     uint32_t n, uint32_t fb, struct e1t_result *r)
{
	struct drm_e1npu_reloc *relocs;
	struct e1t_job job;
	uint32_t nrel, *desc;
	void *cmds;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = e1t_encode(DRM_E1NPU_ENGINE_WRAPPER, ops, n, &cmds, &relocs, &nrel);
	if (ret)
		return ret;
	desc = (uint32_t *)cmds + (size_t)fb * E1_V0_DESC_WORDS;
	memset(desc, 0, E1_V0_DESC_SIZE);
	desc[E1_V0_DW_OP] = E1_V0_OP_FALLBACK;
	ret = e1t_submit_cmds(d, DRM_E1NPU_ENGINE_WRAPPER, cmds, n, relocs, nrel,
			      &job);
	if (!ret)
		ret = e1t_job_wait(d, &job, E1T_JOB_TIMEOUT_MS, r);
	free(cmds);
	free(relocs);
	return ret;
}

/* [MATMUL, 0xFF, MATMUL]: stops at index 1, asks for the CPU; the fence
 * carries -EOPNOTSUPP */
int e1t_group_fallback(void)
{
	const char *name = "fallback-index";
	struct e1t_result r;
	struct e1npu_hw_op ops[3];
	struct e1t_dev d;
	struct mm x, y;
	int ret;

	if (fault_setup(&d, &x, name))
		return 1;
	ret = mm_new(&d, &y, 8, 8, 8, 31337);
	if (ret) {
		e1t_fail(name, "buffers: %s", strerror(-ret));
		goto out;
	}
	mm_op(&x, &ops[0]);
	memset(&ops[1], 0, sizeof(ops[1]));
	ops[1].opcode = E1NPU_HWOP_NOP;	/* replaced by the 0xFF descriptor */
	mm_op(&y, &ops[2]);
	ret = run_with_fallback(&d, ops, 3, 1, &r);
	if (ret < 0)
		e1t_fail(name, "submit/wait: %s", strerror(-ret));
	else if (r.state != DRM_E1NPU_JOB_STATE_FAILED || r.error != -EOPNOTSUPP ||
		 r.fail_index != 1)
		e1t_fail(name, "state %u error %d fail_index %u, want FAILED/-EOPNOTSUPP/1",
			 r.state, r.error, r.fail_index);
	else if (r.fence_error != -EOPNOTSUPP)
		e1t_fail(name, "fence error %d, want -EOPNOTSUPP", r.fence_error);
	else if (r.cmds_done != 1 || r.err_code != E1_V0_ERR_UNKNOWN_OP)
		e1t_fail(name, "cmds_done %u err_code 0x%x, want 1 and 0x%x",
			 r.cmds_done, r.err_code, E1_V0_ERR_UNKNOWN_OP);
	else if (!mm_ok(&x))
		e1t_fail(name, "op 0 output wrong");
	else if (!mm_untouched(&y))
		e1t_fail(name, "op 2 ran after the fallback");
	else
		e1t_pass(name);

	/* the 0xFF descriptor alone: fails at 0, nothing done */
	ret = run_with_fallback(&d, ops + 1, 1, 0, &r);
	if (ret < 0)
		e1t_fail("fallback-alone", "submit/wait: %s", strerror(-ret));
	else if (r.state != DRM_E1NPU_JOB_STATE_FAILED || r.error != -EOPNOTSUPP ||
		 r.fence_error != -EOPNOTSUPP || r.fail_index != 0 ||
		 r.cmds_done != 0)
		e1t_fail("fallback-alone", "state %u error %d fence %d fail_index %u cmds_done %u",
			 r.state, r.error, r.fence_error, r.fail_index, r.cmds_done);
	else
		e1t_pass("fallback-alone");
	next_job_passes(&d, "fallback-next-job", 8);
	mm_free(&d, &y);
out:
	mm_free(&d, &x);
	e1t_close(&d);
	return e1t_failures;
}

/* the device's gemmini-present is 0 (set before the driver probed): a
 * MATMUL falls back at index 0 */
int e1t_group_nogemmini(void)
{
	const char *name = "nogemmini-fallback";
	struct e1t_result r;
	struct e1npu_hw_op ops[2];
	struct e1t_dev d;
	struct mm x;
	int ret;

	if (fault_setup(&d, &x, name))
		return 1;
	if (d.info.wrapper_caps & E1_V0_CAPS_GEMMINI) {
		e1t_fail(name, "CAPS 0x%08x has gemmini_present", d.info.wrapper_caps);
		goto out;
	}
	mm_op(&x, &ops[0]);
	ret = e1t_run(&d, DRM_E1NPU_ENGINE_WRAPPER, ops, 1, &r);
	if (ret < 0)
		e1t_fail(name, "submit/wait: %s", strerror(-ret));
	else if (r.state != DRM_E1NPU_JOB_STATE_FAILED || r.error != -EOPNOTSUPP ||
		 r.fail_index != 0 || r.cmds_done != 0)
		e1t_fail(name, "state %u error %d fail_index %u cmds_done %u",
			 r.state, r.error, r.fail_index, r.cmds_done);
	else if (!mm_untouched(&x))
		e1t_fail(name, "output written");
	else
		e1t_pass(name);

	/* NOP retires without Gemmini; the MATMUL after it falls back */
	memset(&ops[0], 0, sizeof(ops[0]));
	ops[0].opcode = E1NPU_HWOP_NOP;
	mm_op(&x, &ops[1]);
	ret = e1t_run(&d, DRM_E1NPU_ENGINE_WRAPPER, ops, 2, &r);
	if (ret < 0)
		e1t_fail("nogemmini-nop-then-matmul", "submit/wait: %s", strerror(-ret));
	else if (r.state != DRM_E1NPU_JOB_STATE_FAILED || r.error != -EOPNOTSUPP ||
		 r.fail_index != 1 || r.cmds_done != 1)
		e1t_fail("nogemmini-nop-then-matmul",
			 "state %u error %d fail_index %u cmds_done %u", r.state,
			 r.error, r.fail_index, r.cmds_done);
	else
		e1t_pass("nogemmini-nop-then-matmul");
	ret = e1t_run(&d, DRM_E1NPU_ENGINE_WRAPPER, ops, 1, &r);
	if (ret)
		e1t_fail("nogemmini-nop", "ret %d state %u error %d", ret, r.state,
			 r.error);
	else
		e1t_pass("nogemmini-nop");
out:
	mm_free(&d, &x);
	e1t_close(&d);
	return e1t_failures;
}

/* ---- jobs in flight for the unload tests -------------------------------- */

/*
 * inflight busy|hang|hangq READY-FILE [hold]: submit long work (busy), a
 * job on a hung engine (hang) or a full-ring job on a hung engine with
 * three more queued behind it in the file's entity, out of ring credits
 * (hangq), create READY-FILE, then exit at once or, with hold, keep the
 * file open until killed.
 */
int e1t_group_inflight(int argc, char **argv)
{
	struct e1npu_hw_op *ops;
	struct e1t_dev d;
	struct mm x;
	struct e1t_job job;
	uint32_t i, n;
	bool hang, queued;
	int ret, fd;

	if (argc < 2) {
		fprintf(stderr, "usage: inflight busy|hang|hangq READY-FILE [hold]\n");
		return 2;
	}
	queued = strcmp(argv[0], "hangq") == 0;
	hang = queued || strcmp(argv[0], "hang") == 0;
	ret = e1t_open(&d);
	if (ret) {
		e1t_fail("inflight", "open: %s", strerror(-ret));
		return 1;
	}
	ret = mm_new(&d, &x, 64, 64, 64, 1);
	if (ret) {
		e1t_fail("inflight", "buffers: %s", strerror(-ret));
		return 1;
	}
	n = hang && !queued ? 1 : d.info.max_cmds_per_job;
	if (n > d.info.ring_len - 1)
		n = d.info.ring_len - 1;
	ops = calloc(n, sizeof(*ops));
	if (!ops)
		return 1;
	for (i = 0; i < n; i++)
		mm_op(&x, &ops[i]);
	if (hang && (ret = e1t_dev_set("inject-hang", "1"))) {
		e1t_fail("inflight", "set inject-hang: %s", strerror(-ret));
		return 1;
	}
	for (i = 0; i < (hang && !queued ? 1u : 4u); i++) {
		ret = e1t_submit(&d, DRM_E1NPU_ENGINE_WRAPPER, ops, n, &job);
		if (ret) {
			e1t_fail("inflight", "submit: %s", strerror(-ret));
			return 1;
		}
	}
	e1t_log("inflight: %s work submitted (%u ops per job)", argv[0], n);
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	if (argc > 2 && strcmp(argv[2], "hold") == 0)
		for (;;)
			pause();
	/* exit with the jobs in flight: the file closes under them */
	_exit(0);
}
