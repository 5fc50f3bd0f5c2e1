// SPDX-License-Identifier: MIT
/*
 * e1npu system tests: submits the kernel must reject, each with its
 * documented errno (kernel/e1npu_opcheck.c, Documentation/driver.md: EINVAL
 * malformed, ERANGE outside the envelope, ENOENT unknown handle, EOVERFLOW
 * extent overflow or past the end of the buffer), and with nothing
 * executed: every bad job is submitted after a valid job in the same
 * SUBMIT, and the valid job's output must still hold its sentinel.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e1t.h"

#define SENTINEL 0x3c

struct neg_ctx {
	struct e1t_dev d, other;
	struct e1t_bo a, b, c;		/* valid 16x16x16 matmul buffers */
	struct e1t_bo guard;		/* output of the valid companion job */
	struct e1t_bo foreign;		/* owned by the other file */
};

static void good_matmul(const struct neg_ctx *x, struct e1npu_hw_op *op,
			const struct e1t_bo *out)
{
	memset(op, 0, sizeof(*op));
	op->opcode = E1NPU_HWOP_MATMUL_S8;
	op->m = 16;
	op->n = 16;
	op->k = 16;
	op->a = e1t_t(&x->a, 0, 16);
	op->b = e1t_t(&x->b, 0, 16);
	op->c = e1t_t(out, 0, 64);
}

/*
 * Submit [valid job into guard] + [job of @bad]; expect -@want. @job_patch
 * and @submit_pad tweak the second job / the submit header.
 */
static void expect_reject(struct neg_ctx *x, const char *name,
			  const struct e1npu_hw_op *bad, uint32_t nbad,
			  uint32_t engine, int want,
			  void (*job_patch)(struct drm_e1npu_job *j))
{
	struct e1npu_hw_op good;
	struct drm_e1npu_job jobs[2];
	int ret;

	good_matmul(x, &good, &x->guard);
	memset(jobs, 0, sizeof(jobs));
	jobs[0].ops = (uintptr_t)&good;
	jobs[0].op_count = 1;
	jobs[0].engine = DRM_E1NPU_ENGINE_WRAPPER;
	jobs[1].ops = (uintptr_t)bad;
	jobs[1].op_count = nbad;
	jobs[1].engine = engine;
	if (job_patch)
		job_patch(&jobs[1]);
	ret = e1t_submit_jobs(&x->d, jobs, 2);
	if (ret != -want)
		e1t_fail(name, "submit returned %d (%s), want -%d (%s)", ret,
			 ret ? strerror(-ret) : "success", want, strerror(want));
	else
		e1t_pass(name);
}

static void bad_op(const struct neg_ctx *x, struct e1npu_hw_op *op)
{
	good_matmul(x, op, &x->c);
}

static void patch_flags(struct drm_e1npu_job *j)
{
	j->flags = 1;
}

static void patch_zero_ops(struct drm_e1npu_job *j)
{
	j->op_count = 0;
}

static void patch_bad_sync(struct drm_e1npu_job *j)
{
	static const uint32_t syncs[1] = { 0x7fffff };

	j->in_syncs = (uintptr_t)syncs;
	j->in_sync_count = 1;
}

static void patch_bad_ops_ptr(struct drm_e1npu_job *j)
{
	j->ops = 16;	/* unmapped user address */
}

static void run_cases(struct neg_ctx *x)
{
	struct e1npu_hw_op op, two[2];
	uint64_t csz = x->c.size;

	/* bad handle */
	bad_op(x, &op);
	op.a.handle = 0x7fffff;
	expect_reject(x, "neg-bad-handle", &op, 1, 0, ENOENT, NULL);
	bad_op(x, &op);
	op.c.handle = 0;
	expect_reject(x, "neg-handle-zero", &op, 1, 0, ENOENT, NULL);

	/* another file's buffer: a handle number this file does not have */
	bad_op(x, &op);
	op.b.handle = x->foreign.handle;
	expect_reject(x, "neg-foreign-buffer", &op, 1, 0, ENOENT, NULL);

	/* offset and size overflow */
	bad_op(x, &op);
	op.a.offset = UINT64_MAX - 15;
	expect_reject(x, "neg-offset-overflow", &op, 1, 0, EOVERFLOW, NULL);
	bad_op(x, &op);
	op.c.offset = 0xffffff0000000000ull;
	op.c.stride = 0x7ffffff0u;
	op.m = 1024;	/* 1023 rows * 2 GiB passes 2^64 */
	expect_reject(x, "neg-size-overflow", &op, 1, 0, EOVERFLOW, NULL);

	/* a tensor past the end of its buffer */
	bad_op(x, &op);
	op.c.offset = csz - 16 * 64 + 16;
	expect_reject(x, "neg-past-end-offset", &op, 1, 0, EOVERFLOW, NULL);
	bad_op(x, &op);
	op.m = (uint32_t)(csz / 64) + 1;
	op.a.stride = 16;
	op.a.handle = x->c.handle;	/* big enough for A */
	expect_reject(x, "neg-past-end-rows", &op, 1, 0, EOVERFLOW, NULL);
	bad_op(x, &op);
	op.b.offset = x->b.size;
	expect_reject(x, "neg-offset-at-end", &op, 1, 0, EOVERFLOW, NULL);

	/* non-zero padding / reserved / unused fields */
	bad_op(x, &op);
	op.pad_top = 1;	/* unused by MATMUL: must be zero */
	expect_reject(x, "neg-unused-field", &op, 1, 0, EINVAL, NULL);
	bad_op(x, &op);
	op.flags = 1u << 7;
	expect_reject(x, "neg-unknown-op-flag", &op, 1, 0, EINVAL, NULL);
	bad_op(x, &op);
	expect_reject(x, "neg-job-flags", &op, 1, 0, EINVAL, patch_flags);

	/* unknown op, op of the other engine */
	bad_op(x, &op);
	op.opcode = 0x7777;
	expect_reject(x, "neg-unknown-op", &op, 1, 0, EINVAL, NULL);
	bad_op(x, &op);
	expect_reject(x, "neg-wrong-engine", &op, 1,
		      DRM_E1NPU_ENGINE_DATAPATH, EINVAL, NULL);
	bad_op(x, &op);
	expect_reject(x, "neg-unknown-engine", &op, 1, 7, EINVAL, NULL);

	/* shapes outside the envelope */
	bad_op(x, &op);
	op.m = 0;
	expect_reject(x, "neg-shape-zero", &op, 1, 0, EINVAL, NULL);
	bad_op(x, &op);
	op.k = 1025;
	op.a.stride = 1040;
	op.a.handle = x->c.handle;
	expect_reject(x, "neg-shape-k-1025", &op, 1, 0, ERANGE, NULL);
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_CONV2D_S8;
	op.m = 8;
	op.n = 8;
	op.c_in = 1;
	op.c_out = 1;
	op.k = 2;	/* kernels are 1, 3, 5 */
	op.out_h = 7;
	op.out_w = 7;
	op.stride_h = 1;
	op.stride_w = 1;
	op.dilation = 1;
	op.a = e1t_t(&x->a, 0, 16);
	op.b = e1t_t(&x->b, 0, 16);
	op.c = e1t_t(&x->c, 0, 32);
	expect_reject(x, "neg-conv-kernel-2", &op, 1, 0, ERANGE, NULL);
	op.k = 3;
	op.out_h = 6;
	op.out_w = 6;
	op.stride_h = 3;
	expect_reject(x, "neg-conv-stride-3", &op, 1, 0, ERANGE, NULL);
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_MAXPOOL_S8;
	op.m = 8;
	op.n = 8;
	op.c_in = 1;
	op.k = 4;	/* windows are 2, 3 */
	op.stride_h = 1;
	op.a = e1t_t(&x->a, 0, 16);
	op.c = e1t_t(&x->c, 0, 16);
	expect_reject(x, "neg-pool-window-4", &op, 1, 0, ERANGE, NULL);

	/* alignment */
	bad_op(x, &op);
	op.a.stride = 24;
	expect_reject(x, "neg-misaligned-stride", &op, 1, 0, EINVAL, NULL);
	bad_op(x, &op);
	op.c.stride = 48;	/* shorter than the 64-byte row */
	expect_reject(x, "neg-short-stride", &op, 1, 0, EINVAL, NULL);
	bad_op(x, &op);
	op.b.offset = 8;
	expect_reject(x, "neg-misaligned-offset", &op, 1, 0, EINVAL, NULL);

	/* job-level errors */
	bad_op(x, &op);
	expect_reject(x, "neg-zero-ops", &op, 1, 0, EINVAL, patch_zero_ops);
	bad_op(x, &op);
	expect_reject(x, "neg-bad-ops-pointer", &op, 1, 0, EFAULT,
		      patch_bad_ops_ptr);
	bad_op(x, &op);
	expect_reject(x, "neg-bad-in-sync", &op, 1, 0, ENOENT, patch_bad_sync);

	/* more ops than a job may hold */
	{
		uint32_t nmax = x->d.info.max_ops_per_job + 1, i;
		struct e1npu_hw_op *many = calloc(nmax, sizeof(*many));

		if (many) {
			for (i = 0; i < nmax; i++)
				many[i].opcode = E1NPU_HWOP_NOP;
			expect_reject(x, "neg-too-many-ops", many, nmax, 0, EINVAL,
				      NULL);
			free(many);
		}
	}

	/* the bad op second in its job: the first one must not run either */
	bad_op(x, &two[0]);
	bad_op(x, &two[1]);
	two[1].c.offset = csz;
	expect_reject(x, "neg-second-op", two, 2, 0, EOVERFLOW, NULL);
}

static void submit_header_cases(struct neg_ctx *x)
{
	struct drm_e1npu_submit s;
	struct drm_e1npu_job j;
	struct e1npu_hw_op op;
	int ret;

	good_matmul(x, &op, &x->guard);
	memset(&j, 0, sizeof(j));
	j.ops = (uintptr_t)&op;
	j.op_count = 1;
	memset(&s, 0, sizeof(s));
	s.jobs = (uintptr_t)&j;
	s.job_count = 1;
	s.job_size = sizeof(j);
	s.op_size = sizeof(op);
	s.pad = 1;
	ret = e1t_ioctl(x->d.fd, DRM_IOCTL_E1NPU_SUBMIT, &s);
	if (ret != -EINVAL)
		e1t_fail("neg-submit-pad", "returned %d, want -EINVAL", ret);
	else
		e1t_pass("neg-submit-pad");
	s.pad = 0;
	s.job_count = 0;
	ret = e1t_ioctl(x->d.fd, DRM_IOCTL_E1NPU_SUBMIT, &s);
	if (ret != -EINVAL)
		e1t_fail("neg-submit-zero-jobs", "returned %d, want -EINVAL", ret);
	else
		e1t_pass("neg-submit-zero-jobs");
	s.job_count = 1;
	s.op_size = 8;	/* smaller than the first UAPI version */
	ret = e1t_ioctl(x->d.fd, DRM_IOCTL_E1NPU_SUBMIT, &s);
	if (ret != -EINVAL)
		e1t_fail("neg-submit-op-size", "returned %d, want -EINVAL", ret);
	else
		e1t_pass("neg-submit-op-size");
}

static void pad_cases(struct neg_ctx *x)
{
	struct drm_e1npu_bo_mmap_offset mo;
	struct drm_e1npu_bo_wait w;
	int ret;

	memset(&mo, 0, sizeof(mo));
	mo.handle = x->a.handle;
	mo.pad = 1;
	ret = e1t_ioctl(x->d.fd, DRM_IOCTL_E1NPU_BO_MMAP_OFFSET, &mo);
	if (ret != -EINVAL)
		e1t_fail("neg-mmap-offset-pad", "returned %d, want -EINVAL", ret);
	else
		e1t_pass("neg-mmap-offset-pad");
	memset(&w, 0, sizeof(w));
	w.handle = x->a.handle;
	w.pad = 1;
	ret = e1t_ioctl(x->d.fd, DRM_IOCTL_E1NPU_BO_WAIT, &w);
	if (ret != -EINVAL)
		e1t_fail("neg-bo-wait-pad", "returned %d, want -EINVAL", ret);
	else
		e1t_pass("neg-bo-wait-pad");
}

int e1t_group_neg(void)
{
	struct e1npu_hw_result r;
	struct e1npu_hw_op op;
	struct neg_ctx x;
	struct e1t_bo extra[8];
	uint32_t seed = 99, i;
	uint8_t *want;
	int ret;

	memset(&x, 0, sizeof(x));
	memset(extra, 0, sizeof(extra));
	ret = e1t_open(&x.d);
	if (!ret)
		ret = e1t_open(&x.other);
	if (ret) {
		e1t_fail("neg-setup", "open: %s", strerror(-ret));
		return 1;
	}
	if (!ret)
		ret = e1t_bo_new(&x.d, 4096, &x.a);
	if (!ret)
		ret = e1t_bo_new(&x.d, 4096, &x.b);
	if (!ret)
		ret = e1t_bo_new(&x.d, 4096, &x.c);
	if (!ret)
		ret = e1t_bo_new(&x.d, 1024, &x.guard);
	/* the other file gets more handles than we have, so its last handle
	 * number does not exist in our file */
	for (i = 0; !ret && i < E1T_ARRAY_SIZE(extra); i++)
		ret = e1t_bo_new(&x.other, 4096, &extra[i]);
	if (!ret)
		ret = e1t_bo_new(&x.other, 4096, &x.foreign);
	want = malloc(1024);
	if (ret || !want) {
		e1t_fail("neg-setup", "buffers: %s", strerror(-ret));
		goto out;
	}
	e1t_fill_s8(x.a.map, 4096, &seed);
	e1t_fill_s8(x.b.map, 4096, &seed);
	memset(x.guard.map, SENTINEL, 1024);
	memset(x.c.map, SENTINEL, 4096);

	run_cases(&x);
	submit_header_cases(&x);
	pad_cases(&x);

	/* nothing ran: give a wrongly queued job time to land, then look */
	e1t_sleep_ms(300);
	memset(want, SENTINEL, 1024);
	if (e1t_expect_bytes("neg-nothing-executed", x.guard.map, want, 1024)) {
		memset(want, SENTINEL, 1024);
		if (e1t_expect_bytes("neg-nothing-executed", x.c.map, want, 1024))
			e1t_pass("neg-nothing-executed");
	}

	/* and the device still works for this file */
	good_matmul(&x, &op, &x.guard);
	ret = e1t_run(&x.d, DRM_E1NPU_ENGINE_WRAPPER, &op, 1, &r);
	if (ret)
		e1t_fail("neg-then-valid-job", "ret %d state %u error %d", ret,
			 r.state, r.error);
	else
		e1t_pass("neg-then-valid-job");

	/* a result is read once; unknown ids are -ENOENT */
	memset(&r, 0, sizeof(r));
	r.job_id = 0x7ffffff0;
	ret = e1t_ioctl(x.d.fd, DRM_IOCTL_E1NPU_JOB_RESULT, &r);
	if (ret != -ENOENT)
		e1t_fail("neg-job-result-unknown", "returned %d, want -ENOENT", ret);
	else
		e1t_pass("neg-job-result-unknown");
	free(want);
out:
	for (i = 0; i < E1T_ARRAY_SIZE(extra); i++)
		e1t_bo_free(&x.other, &extra[i]);
	e1t_bo_free(&x.other, &x.foreign);
	e1t_bo_free(&x.d, &x.a);
	e1t_bo_free(&x.d, &x.b);
	e1t_bo_free(&x.d, &x.c);
	e1t_bo_free(&x.d, &x.guard);
	e1t_close(&x.other);
	e1t_close(&x.d);
	return e1t_failures;
}
