// SPDX-License-Identifier: MIT
/*
 * e1npu-proof perf ITERATIONS: latency of SUBMIT + wait (the job's
 * out_sync through DRM_IOCTL_SYNCOBJ_WAIT) of a one-NOP wrapper job, as a
 * ratio to a DRM_IOCTL_VERSION round trip (the cheapest DRM ioctl: the
 * floor of a syscall into the DRM core). Medians of ITERATIONS each.
 * The SUBMIT ioctl alone and the wait alone are printed too: they show
 * where the time goes. The figures are printed; the result
 * "perf-nop-submit" fails only when a job fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "e1p.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, unsigned int n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return v[n / 2];
}

int e1p_perf(int argc, char **argv)
{
	unsigned int n = argc > 0 ? strtoul(argv[0], NULL, 0) : 1000, i;
	uint64_t *tv = calloc(n, sizeof(*tv)), *ts = calloc(n, sizeof(*ts));
	uint64_t *tsub = calloc(n, sizeof(*tsub)), t1;
	struct e1npu_hw_result r;
	struct drm_e1npu_job job;
	struct e1npu_hw_op op;
	struct drm_version ver;
	struct e1t_dev d;
	uint64_t t0, mv, ms;
	uint32_t sync;
	int ret;

	if (!n || !tv || !ts || !tsub || e1t_open(&d) || e1p_syncobj_create(d.fd, &sync)) {
		e1t_fail("perf-nop-submit", "setup on %s", e1t_dev_path());
		return 1;
	}
	memset(&op, 0, sizeof(op));
	op.opcode = E1NPU_HWOP_NOP;
	for (i = 0; i < n + n / 10; i++) {
		memset(&ver, 0, sizeof(ver));
		t0 = e1t_now_ns();
		ret = e1t_ioctl(d.fd, DRM_IOCTL_VERSION, &ver);
		if (i >= n / 10)
			tv[i - n / 10] = e1t_now_ns() - t0;
		if (ret)
			break;

		memset(&job, 0, sizeof(job));
		job.ops = (uintptr_t)&op;
		job.op_count = 1;
		job.engine = DRM_E1NPU_ENGINE_WRAPPER;
		job.out_sync = sync;
		t0 = e1t_now_ns();
		ret = e1t_submit_jobs(&d, &job, 1);
		t1 = e1t_now_ns();
		if (!ret)
			ret = e1p_syncobj_wait(d.fd, &sync, 1, E1T_JOB_TIMEOUT_MS);
		if (i >= n / 10) {
			ts[i - n / 10] = e1t_now_ns() - t0;
			tsub[i - n / 10] = t1 - t0;
		}
		if (ret)
			break;
		/* read the outcome (not timed): the store stays empty */
		memset(&r, 0, sizeof(r));
		r.job_id = job.job_id;
		ret = e1t_ioctl(d.fd, DRM_IOCTL_E1NPU_JOB_RESULT, &r);
		if (!ret && r.state != E1NPU_HWJOB_DONE)
			ret = -EIO;
		if (ret)
			break;
	}
	if (ret) {
		e1t_fail("perf-nop-submit", "iteration %u: %s", i, strerror(-ret));
		return 1;
	}
	mv = median(tv, n);
	ms = median(ts, n);
	printf("E1VM-PERF: nop-submit-wait %llu ns (the SUBMIT ioctl alone %llu ns), drm-version %llu ns, ratio %.1f (target <= 5, %s, %u iterations)\n",
	       (unsigned long long)ms, (unsigned long long)median(tsub, n),
	       (unsigned long long)mv, mv ? (double)ms / mv : 0.0,
	       ms <= 5 * mv ? "met" : "NOT met", n);
	e1t_pass("perf-nop-submit");
	e1p_syncobj_destroy(d.fd, sync);
	e1t_close(&d);
	free(tv);
	free(ts);
	free(tsub);
	return 0;
}
